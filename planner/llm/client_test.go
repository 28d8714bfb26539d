package llm_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/planner/llm"
	"github.com/gtnh-agent/gtnh-agent/planner/llm/llmtest"
)

func TestClientReadsNoOpenAIEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-the-environment")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("OPENAI_CUSTOM_HEADERS", "X-Leak: yes")
	srv := llmtest.New(t, llmtest.Text("hello"))
	c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "m"}, llm.Options{})
	require.NoError(t, err)
	assert.False(t, c.HasKey())
	got, err := c.Complete(context.Background(), "hi")
	require.NoError(t, err)
	assert.Equal(t, "hello", got)
	req := srv.Requests()[0]
	assert.Equal(t, "/v1/chat/completions", req.Path)
	assert.Empty(t, req.Header.Get("Authorization"), "no key configured: none sent")
	assert.Empty(t, req.Header.Get("X-Leak"))
	assert.Equal(t, "m", req.JSON()["model"])
}

func TestClientKeyFromTheNamedVariable(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("ok"))
	t.Setenv("MY_LLM_KEY", testKey)
	c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "m", KeyEnv: "MY_LLM_KEY"}, llm.Options{})
	require.NoError(t, err)
	_, err = c.Complete(context.Background(), "hi")
	require.NoError(t, err)
	assert.Equal(t, "Bearer "+testKey, srv.Requests()[0].Header.Get("Authorization"))
	assert.Equal(t, "a [REDACTED] b", c.Redact("a "+testKey+" b"))
	assert.NotContains(t, fmt.Sprintf("%v %+v %#v %s", c, c, c, c), testKey, "the client does not print its key")
}

func TestCompleteRefusal(t *testing.T) {
	srv := llmtest.New(t, llmtest.Refusal("no"))
	c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "m"}, llm.Options{})
	require.NoError(t, err)
	_, err = c.Complete(context.Background(), "hi")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the model refused: no")
}

func TestCompleteBadAnswers(t *testing.T) {
	for name, body := range map[string]string{
		"not JSON":           `<html>502 Bad Gateway</html>`,
		"no choices":         `{"id":"x","object":"chat.completion","choices":[]}`,
		"truncated":          `{"id":"x","choices":[{"message":{"content":"hel`,
		"choices not a list": `{"id":"x","model":"m","choices":{"message":{"content":"hello"}}}`,
		"content a number":   `{"id":"x","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":5}}]}`,
		"index a string":     `{"id":"x","model":"m","choices":[{"index":"0","message":{"role":"assistant","content":"hello"}}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Reply{Body: body})
			c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "m"}, llm.Options{})
			require.NoError(t, err)
			_, err = c.Complete(context.Background(), "hi")
			require.Error(t, err)
		})
	}
}

// TestCompleteTakesAnAnswerWithOddInformation: a field that only describes
// the answer (its model, its usage) in another JSON type does not spoil it.
func TestCompleteTakesAnAnswerWithOddInformation(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Body: `{"id":1,"model":["m"],"usage":"none","choices":[{"index":0,"message":{"role":"assistant","content":"hello"}}]}`})
	c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "m"}, llm.Options{})
	require.NoError(t, err)
	got, err := c.Complete(context.Background(), "hi")
	require.NoError(t, err)
	assert.Equal(t, "hello", got)
}

func TestEmbed(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Body: `{"object":"list","model":"nomic-embed-text","data":[
		{"object":"embedding","index":1,"embedding":[0.5,0.25]},
		{"object":"embedding","index":0,"embedding":[1,0]}],"usage":{"prompt_tokens":4,"total_tokens":4}}`})
	c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "m", EmbeddingModel: "nomic-embed-text"}, llm.Options{})
	require.NoError(t, err)
	v, err := c.Embed(context.Background(), []string{"coke oven", "boiler"})
	require.NoError(t, err)
	assert.Equal(t, [][]float32{{1, 0}, {0.5, 0.25}}, v, "in the order asked, whatever order they came in")
	req := srv.Requests()[0]
	assert.Equal(t, "/v1/embeddings", req.Path)
	assert.Equal(t, "nomic-embed-text", req.JSON()["model"])
	assert.Equal(t, []any{"coke oven", "boiler"}, req.JSON()["input"])
}

func TestEmbedBadAnswers(t *testing.T) {
	for name, body := range map[string]string{
		"too few":        `{"data":[{"index":0,"embedding":[1]}]}`,
		"repeated index": `{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}`,
		"index too big":  `{"data":[{"index":0,"embedding":[1]},{"index":7,"embedding":[1]}]}`,
		"lengths differ": `{"data":[{"index":0,"embedding":[1]},{"index":1,"embedding":[1,2]}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Reply{Body: body})
			c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "m", EmbeddingModel: "e"}, llm.Options{})
			require.NoError(t, err)
			_, err = c.Embed(context.Background(), []string{"a", "b"})
			require.Error(t, err)
		})
	}
}

func TestEmbedNeedsAModel(t *testing.T) {
	c, err := llm.NewClient(llm.Config{URL: "http://127.0.0.1:1/v1", Model: "m"}, llm.Options{})
	require.NoError(t, err)
	_, err = c.Embed(context.Background(), []string{"a"})
	require.ErrorContains(t, err, "no embedding model configured")
}

func TestConfigValidate(t *testing.T) {
	ok := llm.Config{URL: "http://127.0.0.1:11434/v1", Model: "qwen3"}
	require.NoError(t, ok.Validate())
	tests := []struct {
		name string
		edit func(*llm.Config)
		want string
	}{
		{"no url", func(c *llm.Config) { c.URL = "" }, "url: missing"},
		{"no scheme", func(c *llm.Config) { c.URL = "127.0.0.1:11434/v1" }, "url: want http:// or https://"},
		{"credentials", func(c *llm.Config) { c.URL = "http://user:sk-secret@host/v1" }, "credentials in the URL"},
		{"no model", func(c *llm.Config) { c.Model = " " }, "model: missing"},
		{"bad env name", func(c *llm.Config) { c.KeyEnv = "sk-secret" }, "key_env: want the name of an environment variable"},
		{"mode", func(c *llm.Config) { c.Mode = "tool" }, `mode: "tool" is not one of auto, tools, json`},
		{"max calls", func(c *llm.Config) { c.MaxCalls = 101 }, "max_calls: must be within 1..100"},
		{"max corrections", func(c *llm.Config) { c.MaxCorrections = -1 }, "max_corrections: must be within 1..20"},
		{"timeout", func(c *llm.Config) { c.Timeout = -1 }, "timeout: must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			tt.edit(&c)
			err := c.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), "sk-secret")
		})
	}
	d := llm.Config{}.WithDefaults()
	assert.Equal(t, llm.DefaultKeyEnv, d.KeyEnv)
	assert.Equal(t, llm.ModeAuto, d.Mode)
	assert.Equal(t, llm.DefaultMaxCalls, d.MaxCalls)
	assert.Equal(t, llm.DefaultMaxCorrections, d.MaxCorrections)
	assert.Equal(t, llm.DefaultTimeout, d.Timeout)
}

func TestServerErrorMessages(t *testing.T) {
	for name, tt := range map[string]struct{ body, want string }{
		"openai": {`{"error":{"message":"model 'x' not found","type":"invalid_request_error"}}`, "HTTP 404 Not Found: model 'x' not found"},
		"ollama": {`{"error":"model \"qwen9\" not found, try pulling it first"}`, `HTTP 404 Not Found: model "qwen9" not found, try pulling it first`},
		"vllm":   {`{"object":"error","message":"The model does not exist.","code":404}`, "HTTP 404 Not Found: The model does not exist."},
		"text":   {"404 page not found\n", "HTTP 404 Not Found: 404 page not found"},
	} {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Reply{Status: 404, Body: tt.body})
			c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "m"}, llm.Options{})
			require.NoError(t, err)
			_, err = c.Complete(context.Background(), "hi")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Len(t, srv.Requests(), 1, "a 404 is not retried")
		})
	}
}

func TestLongErrorBodyIsBounded(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Status: 400, Body: `{"error":{"message":"` + strings.Repeat("x", 100000) + `"}}`})
	c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "m"}, llm.Options{})
	require.NoError(t, err)
	_, err = c.Complete(context.Background(), "hi")
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 500)
}

func TestConnectionRefusedIsNotRetried(t *testing.T) {
	sl := &sleeps{}
	c, err := llm.NewClient(llm.Config{URL: "http://127.0.0.1:1/v1", Model: "m"}, llm.Options{Sleep: sl.sleep})
	require.NoError(t, err)
	_, err = c.Complete(context.Background(), "hi")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "chat completion:")
	assert.Empty(t, sl.all())
}

// TestRetryWaitsStayWithinTheTimeout: a model call, its retries and the
// waits between them end within Config.Timeout; a wait that would end past
// it is not waited for (the call fails at once as a timeout), and every
// wait is in the trace: an event each, and in latency_ms.
func TestRetryWaitsStayWithinTheTimeout(t *testing.T) {
	chop := llmtest.ToolCall("invoke_skill", `{"skill":"chop_tree"}`)
	tests := []struct {
		name    string
		timeout time.Duration
		replies []llmtest.Reply
		waits   []time.Duration
		calls   int
		events  []string
		ok      bool
	}{
		{"Retry-After beyond the timeout", 4 * time.Second, []llmtest.Reply{llmtest.RateLimited("3600")}, nil, 1,
			[]string{"chat completion: HTTP 429, a wait of 30s (Retry-After, capped) is more than the 4s left of the 4s timeout: not retried"}, false},
		{"waits until the time is spent", 4 * time.Second, []llmtest.Reply{llmtest.RateLimited("2"), llmtest.RateLimited("2")}, []time.Duration{2 * time.Second}, 2,
			[]string{"chat completion: HTTP 429, retry 1/3 in 2s (Retry-After)", "chat completion: HTTP 429, a wait of 2s (Retry-After) is more than the 2s left of the 4s timeout: not retried"}, false},
		{"backoff within the timeout", 2 * time.Second, []llmtest.Reply{llmtest.ServerError(), llmtest.ServerError(), llmtest.ServerError()}, []time.Duration{500 * time.Millisecond, time.Second}, 3,
			[]string{"retry 1/3 in 500ms (backoff)", "retry 2/3 in 1s (backoff)", "HTTP 500, a wait of 2s (backoff) is more than the 500ms left of the 2s timeout: not retried"}, false},
		{"a wait that fits", 4 * time.Second, []llmtest.Reply{llmtest.RateLimited("3"), chop}, []time.Duration{3 * time.Second}, 2,
			[]string{"chat completion: HTTP 429, retry 1/3 in 3s (Retry-After)"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, tt.replies...)
			clock := newFakeClock()
			c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "qwen3", Timeout: tt.timeout}, llm.Options{Now: clock.Now, Sleep: clock.Sleep})
			require.NoError(t, err)
			cat, _ := sharedFixture(t)
			p, err := llm.NewPlanner(c, llm.PlannerOptions{Catalog: cat})
			require.NoError(t, err)
			f := &fixture{srv: srv, client: c, planner: p, cat: cat}
			start := clock.Now()
			dec, err := f.plan(t)
			elapsed := clock.Now().Sub(start)
			assert.LessOrEqual(t, elapsed, tt.timeout, "the call, its waits included, within its timeout")
			assert.Equal(t, tt.waits, clock.all())
			var waited time.Duration
			for _, w := range tt.waits {
				waited += w
			}
			require.NotNil(t, dec.Trace)
			assert.Equal(t, waited.Milliseconds(), dec.Trace.LatencyMS, "the waits are in latency_ms")
			assert.Equal(t, tt.calls, dec.Trace.Calls)
			for _, ev := range tt.events {
				assert.Contains(t, joined(dec.Trace.Events), ev)
			}
			assert.Zero(t, srv.Remaining())
			if tt.ok {
				require.NoError(t, err)
				assert.Equal(t, "chop_tree", dec.Invocation.Skill)
				return
			}
			require.ErrorIs(t, err, llm.ErrTimeout)
			var ae *llm.APIError
			require.ErrorAs(t, err, &ae, "the server's answer stays in the error")
			assert.Equal(t, tt.replies[len(tt.replies)-1].Status, ae.Status)
		})
	}
}

// TestWholeCallWithinItsTimeoutInABubble: the same rule with the real
// clock and timers, inside a testing/synctest bubble (the fake server's
// replies served in process): the attempts and the waits share one
// deadline, so a slow answer after a wait is cut at the call's timeout, not
// a timeout after the wait.
func TestWholeCallWithinItsTimeoutInABubble(t *testing.T) {
	t.Run("a slow answer after a wait", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.RateLimited("1"), llmtest.Slow(time.Hour, llmtest.Text("late")))
		synctest.Test(t, func(t *testing.T) {
			c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "m", Timeout: 4 * time.Second},
				llm.Options{HTTPClient: &http.Client{Transport: srv.Transport()}})
			require.NoError(t, err)
			start := time.Now()
			_, err = c.Complete(context.Background(), "hi")
			require.ErrorIs(t, err, llm.ErrTimeout)
			assert.Equal(t, 4*time.Second, time.Since(start))
		})
	})
	t.Run("Retry-After an hour", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.RateLimited("3600"))
		synctest.Test(t, func(t *testing.T) {
			c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "m", Timeout: 4 * time.Second},
				llm.Options{HTTPClient: &http.Client{Transport: srv.Transport()}})
			require.NoError(t, err)
			start := time.Now()
			_, err = c.Complete(context.Background(), "hi")
			require.ErrorIs(t, err, llm.ErrTimeout)
			assert.Contains(t, err.Error(), "the server asked to wait 30s")
			assert.Zero(t, time.Since(start), "no wait that cannot end in time")
		})
	})
	t.Run("waits that fit", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.RateLimited("1"), llmtest.RateLimited("1.5"), llmtest.Text("ok"))
		synctest.Test(t, func(t *testing.T) {
			c, err := llm.NewClient(llm.Config{URL: srv.URL, Model: "m", Timeout: 4 * time.Second},
				llm.Options{HTTPClient: &http.Client{Transport: srv.Transport()}})
			require.NoError(t, err)
			start := time.Now()
			got, err := c.Complete(context.Background(), "hi")
			require.NoError(t, err)
			assert.Equal(t, "ok", got)
			assert.Equal(t, 2500*time.Millisecond, time.Since(start), "the waits the server asked for, no more")
		})
	})
}
