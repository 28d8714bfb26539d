package llm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// FuzzParseToolArgs: any arguments a model sends for any tool are decoded
// or refused with an error, never a panic; what is accepted has the tool's
// required fields and survives a round trip.
func FuzzParseToolArgs(f *testing.F) {
	f.Add("invoke_skill", `{"skill":"chop_tree","params":{"min_logs":4}}`)
	f.Add("invoke_skill", `{"skill":"chop_tree","params":"{\"min_logs\":4}"}`)
	f.Add("invoke_skill", `{"skill": "chop_tree", "params": {"min_logs": 4}`)
	f.Add("load_skill", `{"name":"coke-oven-operation"}`)
	f.Add("read_skill_resource", `{"name":"coke-oven-operation","path":"references/build-layers.md"}`)
	f.Add("finish", ``)
	f.Add("finish", `null`)
	f.Add("finish", `{"reason":"done","met":true,"items":{"minecraft:coal":4},"machines":["coke_oven"]}`)
	f.Add("invoke", `{}`)
	f.Add("invoke_skill", `{"skill":1}{}`)
	f.Fuzz(func(t *testing.T, tool, raw string) {
		a, err := ParseToolArgs(tool, raw)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		spec := toolFields[tool]
		for _, k := range spec.required {
			v := map[string]string{"name": a.Name, "path": a.Path, "skill": a.Skill}[k]
			if strings.TrimSpace(v) == "" {
				t.Fatalf("%s accepted without %s", tool, k)
			}
		}
		re, err := json.Marshal(a)
		if err != nil {
			t.Fatalf("accepted arguments do not marshal: %v", err)
		}
		b, err := ParseToolArgs(tool, string(re))
		if err != nil {
			t.Fatalf("round trip of %s: %v", re, err)
		}
		if b.Name != a.Name || b.Path != a.Path || b.Skill != a.Skill || b.Reason != a.Reason || len(b.Params) != len(a.Params) {
			t.Fatalf("round trip changed %+v into %+v", a, b)
		}
	})
}

// FuzzParseAnswer: any JSON-mode answer is decoded or refused, never a
// panic; an accepted answer names one of the tools.
func FuzzParseAnswer(f *testing.F) {
	f.Add(`{"tool":"invoke_skill","arguments":{"skill":"chop_tree","params":{"min_logs":4}}}`)
	f.Add("<think>x</think>\n```json\n{\"tool\":\"finish\",\"arguments\":{\"reason\":\"done\"}}\n```")
	f.Add(`{"tool":"load_skill","arguments":"{\"name\":\"x\"}"}`)
	f.Add("```")
	f.Add(`<think>`)
	f.Add(`{"tool":"invoke_skill","arguments":{"skill":"chop_tree"`)
	f.Add(`{"tool":"finish","arguments":null,"extra":1}`)
	f.Fuzz(func(t *testing.T, content string) {
		a, err := ParseAnswer(content)
		if err != nil {
			return
		}
		if !slices.Contains(ToolNames, a.Tool) {
			t.Fatalf("accepted the unknown tool %q", a.Tool)
		}
	})
}

// FuzzServerError: an error answer's body and Retry-After headers, as any
// server may send them, give a bounded one-line message and a
// non-negative wait.
func FuzzServerError(f *testing.F) {
	f.Add(`{"error":{"message":"Rate limit reached"}}`, "2", "")
	f.Add(`{"error":"model not found"}`, "Wed, 21 Oct 2026 07:28:00 GMT", "")
	f.Add(`{"message":"x","detail":"y"}`, "", "150")
	f.Add("\xff\xfe<html>", "-1", "NaN")
	f.Fuzz(func(t *testing.T, body, after, afterMs string) {
		msg := errorMessage([]byte(body))
		if len(msg) > 310 || strings.ContainsFunc(msg, unicode.IsControl) || !utf8.ValidString(msg) {
			t.Fatalf("message not bounded to one valid line: %q", msg)
		}
		h := http.Header{}
		h.Set("Retry-After", after)
		h.Set("Retry-After-Ms", afterMs)
		if d := retryAfter(h, time.Now()); d < 0 {
			t.Fatalf("negative wait %v", d)
		}
	})
}

// roundTripFunc answers every request with what the function returns.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// FuzzCompletionBody: any body a server sends as a chat completion (200) is
// an answer or an error, never a panic; an error is one line without the
// key, and a body that is not an object with choices is never an answer.
func FuzzCompletionBody(f *testing.F) {
	f.Add(`{"id":"x","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hello"}}],"usage":{"prompt_tokens":1}}`)
	f.Add(`{"model":{"x":"y"},"choices":[{"index":0,"message":{"role":"assistant","content":"hello"}}]}`)
	f.Add(`{"usage":"none","choices":[{"message":{"content":5}}]}`)
	f.Add(`{"choices":[{"message":{"role":"assistant","content":[{"type":"text","text":"hi"}]}}]}`)
	f.Add(`{"choices":[{"message":{"tool_calls":[{"id":1,"function":{"name":"finish","arguments":{}}}]}}]}`)
	f.Add(`{"choices":[]}`)
	f.Add(`{"choices":[{"message":{"refusal":"no"}}]}`)
	f.Add(`[]`)
	f.Add(`{"choices":[{"message":{"content":"hel`)
	const key = "sk-fuzz-KEY-0123456789abcdef"
	f.Fuzz(func(t *testing.T, body string) {
		hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
		})}
		c, err := NewClient(Config{URL: "http://127.0.0.1:1/v1", Model: "m"}, Options{HTTPClient: hc, Retries: -1,
			Getenv: func(string) string { return key }})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Complete(context.Background(), "hi")
		if err != nil {
			if strings.Contains(err.Error(), key) {
				t.Fatalf("the key in the error: %v", err)
			}
			return
		}
		var v struct {
			Choices []json.RawMessage `json:"choices"`
		}
		if json.Unmarshal([]byte(body), &v) == nil && len(v.Choices) == 0 {
			t.Fatalf("an answer without choices was taken: %q", body)
		}
	})
}
