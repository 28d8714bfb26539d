package llm_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/llm"
	"github.com/gtnh-agent/gtnh-agent/llm/llmtest"
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
		"not JSON":   `<html>502 Bad Gateway</html>`,
		"no choices": `{"id":"x","object":"chat.completion","choices":[]}`,
		"truncated":  `{"id":"x","choices":[{"message":{"content":"hel`,
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
