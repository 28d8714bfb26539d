// Package llmtest is a fake OpenAI-compatible server for tests: it replays
// scripted answers (recorded chat completions in JSON files, error
// statuses, delays) in order, and records every request it got.
//
//	srv := llmtest.New(t, llmtest.File("testdata/chop.json"), llmtest.RateLimited("0.01"))
//	cfg := llm.Config{URL: srv.URL, Model: "qwen3"}
//	… srv.Requests() …
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// maxRequestBytes bounds a recorded request body.
const maxRequestBytes = 8 << 20

// Reply is one scripted answer.
type Reply struct {
	// Status is the HTTP status (0: 200).
	Status int
	// Body is the answer's JSON text.
	Body string
	// Header holds extra response headers (Retry-After).
	Header map[string]string
	// Delay holds the answer back; it ends early when the client gives up.
	Delay time.Duration
}

// Request is one request the server got.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// JSON decodes the request body.
func (r Request) JSON() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.Body, &m)
	return m
}

// Server is the fake server. URL is its base URL with /v1, as users
// configure it.
type Server struct {
	URL string

	tb      testing.TB
	srv     *httptest.Server
	mu      sync.Mutex
	replies []Reply
	reqs    []Request
	extra   int
	ctxLen  int
	over    Overflow
}

// Overflow is what a server with a context length does with a prompt
// longer than it.
type Overflow int

const (
	// Refuse answers HTTP 400 and serves no reply, as vLLM and llama.cpp's
	// server do.
	Refuse Overflow = iota
	// Cut serves the reply as if the prompt had been cut to the context,
	// reporting prompt_tokens equal to the context, as Ollama does.
	Cut
)

// TokensOf is the server's count of a request's prompt: one token per
// four bytes of the body, the estimate the planner documents.
func TokensOf(body []byte) int { return (len(body) + 3) / 4 }

// SetContext makes the server a model server with a context of n tokens
// (counted by TokensOf): a longer prompt is refused or cut as over says,
// and every reply with a usage object reports the server's count as its
// prompt_tokens. n = 0 turns it off.
func (s *Server) SetContext(n int, over Overflow) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ctxLen, s.over = n, over
}

// New starts a server answering the replies in order, one per request on
// any path; a request beyond the script gets HTTP 500 and fails the test.
// It is closed when the test ends.
func New(tb testing.TB, replies ...Reply) *Server {
	tb.Helper()
	s := &Server{tb: tb, replies: replies}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/v1"
	tb.Cleanup(s.srv.Close)
	return s
}

// Add appends replies to the script.
func (s *Server) Add(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, replies...)
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Remaining counts the replies not served yet.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.replies)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxRequestBytes))
	s.mu.Lock()
	s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	ctxLen, over := s.ctxLen, s.over
	tokens := TokensOf(body)
	if ctxLen > 0 && tokens > ctxLen && over == Refuse {
		// Refused before the script moves on: no reply is used up.
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = fmt.Fprintf(w, `{"error":{"code":400,"message":"the request exceeds the available context size: %d tokens, the context is %d","type":"exceed_context_size_error"}}`, tokens, ctxLen)
		return
	}
	var rep Reply
	ok := len(s.replies) > 0
	if ok {
		rep, s.replies = s.replies[0], s.replies[1:]
	} else {
		s.extra++
	}
	s.mu.Unlock()
	if ok && ctxLen > 0 {
		rep.Body = withPromptTokens(rep.Body, min(tokens, ctxLen))
	}
	if !ok {
		s.tb.Errorf("llmtest: request %d to %s beyond the script", len(s.Requests()), r.URL.Path)
		http.Error(w, `{"error":{"message":"llmtest: no reply left"}}`, http.StatusInternalServerError)
		return
	}
	if rep.Delay > 0 {
		t := time.NewTimer(rep.Delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, rep.Body)
}

// Transport serves requests in the calling goroutine, with no network
// connection in between: for a client whose test runs inside a
// testing/synctest bubble, where a socket would keep the bubble from ever
// being idle (and its clock from moving). A reply's Delay is then the
// bubble's time.
//
//	c, _ := llm.NewClient(cfg, llm.Options{HTTPClient: &http.Client{Transport: srv.Transport()}})
func (s *Server) Transport() http.RoundTripper { return inProcess{s} }

type inProcess struct{ s *Server }

func (t inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		defer r.Body.Close()
	}
	rec := httptest.NewRecorder()
	t.s.serve(rec, r)
	if err := r.Context().Err(); err != nil {
		return nil, err // the client gave up while the reply was held back
	}
	return rec.Result(), nil
}

// File is a reply with a recorded body read from a file.
func File(tb testing.TB, path string) Reply {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("llmtest: %v", err)
	}
	if !json.Valid(b) {
		tb.Fatalf("llmtest: %s is not JSON", path)
	}
	return Reply{Body: string(b)}
}

// Files are replies read from files, in order.
func Files(tb testing.TB, paths ...string) []Reply {
	tb.Helper()
	out := make([]Reply, len(paths))
	for i, p := range paths {
		out[i] = File(tb, p)
	}
	return out
}

// RateLimited is an HTTP 429 asking to wait retryAfter (seconds, as the
// header carries them).
func RateLimited(retryAfter string) Reply {
	return Reply{Status: http.StatusTooManyRequests, Header: map[string]string{"Retry-After": retryAfter},
		Body: `{"error":{"message":"Rate limit reached, please retry later","type":"rate_limit_error"}}`}
}

// ServerError is an HTTP 500.
func ServerError() Reply {
	return Reply{Status: http.StatusInternalServerError, Body: `{"error":{"message":"internal server error","type":"server_error"}}`}
}

// ToolsUnsupported is the HTTP 400 of a server without tool calling (the
// wording of llama.cpp's server started without --jinja).
func ToolsUnsupported() Reply {
	return Reply{Status: http.StatusBadRequest, Body: `{"error":{"code":400,"message":"tools param requires --jinja flag","type":"invalid_request_error"}}`}
}

// Slow holds a reply back by d.
func Slow(d time.Duration, r Reply) Reply {
	r.Delay = d
	return r
}

// ToolCall is a chat completion whose message calls one tool with the
// given arguments (a JSON text, sent as is: it may be malformed).
func ToolCall(name, arguments string) Reply {
	return Reply{Body: completion(fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":%q,"arguments":%q}}]}`, name, arguments), "tool_calls")}
}

// Text is a chat completion whose message is the text content.
func Text(content string) Reply {
	b, _ := json.Marshal(content)
	return Reply{Body: completion(`{"role":"assistant","content":`+string(b)+`}`, "stop")}
}

// Refusal is a chat completion whose message refuses.
func Refusal(text string) Reply {
	b, _ := json.Marshal(text)
	return Reply{Body: completion(`{"role":"assistant","content":null,"refusal":`+string(b)+`}`, "stop")}
}

func completion(message, finish string) string {
	return strings.Join([]string{`{"id":"chatcmpl-test","object":"chat.completion","created":1764000000,"model":"fake-model","choices":[{"index":0,"finish_reason":"`, finish, `","message":`, message, `}],"usage":{"prompt_tokens":100,"completion_tokens":10,"total_tokens":110}}`}, "")
}

// withPromptTokens sets usage.prompt_tokens in a reply's JSON body, when it
// has a usage object.
func withPromptTokens(body string, n int) string {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(body), &m) != nil {
		return body
	}
	var usage map[string]any
	if json.Unmarshal(m["usage"], &usage) != nil || usage == nil {
		return body
	}
	usage["prompt_tokens"] = n
	u, _ := json.Marshal(usage)
	m["usage"] = u
	b, err := json.Marshal(m)
	if err != nil {
		return body
	}
	return string(b)
}
