package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/rs/zerolog"
	openai "github.com/sashabaranov/go-openai"

	"github.com/gtnh-agent/gtnh-agent/skills/knowledge/rank"
)

// Bounds on what the model server may send and on retries.
const (
	// maxErrorBytes bounds the part of an error body kept for messages.
	maxErrorBytes = 4 << 10
	// defaultRetries is how often a 429 or 5xx answer is retried.
	defaultRetries = 3
	// defaultMaxRetryWait caps one wait, whatever Retry-After asks.
	defaultMaxRetryWait = 30 * time.Second
	// firstBackoff is the wait before the first retry when the server
	// gives no Retry-After; it doubles with each retry.
	firstBackoff = 500 * time.Millisecond
)

// maxResponseBytes bounds one response body: a chat completion or a batch
// of embeddings is far smaller. A variable for the test that checks it.
var maxResponseBytes int64 = 16 << 20

// Options are the client's collaborators; the zero value is the real world.
type Options struct {
	// HTTPClient sends the requests (default: a client of its own with no
	// overall timeout; each call has Config.Timeout).
	HTTPClient *http.Client
	// Sleep waits between retries (default: a timer that ends early when
	// ctx is done). Tests pass a recorder.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock for latency and for what is left of a call's
	// timeout (default time.Now).
	Now func() time.Time
	// Retries bounds the retries of a 429 or 5xx answer (default 3;
	// negative: none).
	Retries int
	// MaxRetryWait caps one wait between retries (default 30s).
	MaxRetryWait time.Duration
	// Log receives a line per retry (never the key).
	Log zerolog.Logger
	// Getenv reads the key's variable (default os.Getenv).
	Getenv func(string) string
}

// Client talks to an OpenAI-compatible server (Ollama, vLLM, llama.cpp's
// server, a hosted API) through the go-openai library, of which it uses
// chat completions and embeddings. It reads no OPENAI_* variable: the URL,
// model and key come from Config alone. Client retries 429 and 5xx answers
// itself, honouring Retry-After (capped) within the call's timeout, and
// stops at once when ctx is done. The key never appears in an error, a log
// line or a trace.
type Client struct {
	cfg  Config
	key  secret
	opts Options
	api  *openai.Client
}

// NewClient builds a client. The key is read from the environment variable
// cfg.KeyEnv names (GTNH_AGENT_LLM_KEY by default); local servers need
// none.
func NewClient(cfg Config, opts Options) (*Client, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Sleep == nil {
		opts.Sleep = sleepCtx
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Retries == 0 {
		opts.Retries = defaultRetries
	}
	if opts.Retries < 0 {
		opts.Retries = 0
	}
	if opts.MaxRetryWait <= 0 {
		opts.MaxRetryWait = defaultMaxRetryWait
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	c := &Client{cfg: cfg, key: secret(opts.Getenv(cfg.KeyEnv)), opts: opts}
	// Every setting is ours: the library reads nothing from the
	// environment, and sends no Authorization header without a key.
	ac := openai.DefaultConfig(string(c.key))
	ac.BaseURL = cfg.URL
	ac.HTTPClient = capturingDoer{hc: hc}
	c.api = openai.NewClientWithConfig(ac)
	return c, nil
}

// String describes the client without its key.
func (c *Client) String() string {
	return fmt.Sprintf("llm.Client{url: %s, model: %s, key: %s}", c.cfg.URL, c.cfg.Model, c.key)
}

// GoString implements fmt.GoStringer, without the key.
func (c *Client) GoString() string { return c.String() }

// Config returns the client's configuration, defaults applied.
func (c *Client) Config() Config { return c.cfg }

// HasKey reports whether an API key was found in the environment.
func (c *Client) HasKey() bool { return c.key != "" }

// Redact removes the API key from a text.
func (c *Client) Redact(s string) string { return c.key.redact(s) }

// secret is the API key: printed as [REDACTED].
type secret string

// String implements fmt.Stringer.
func (secret) String() string { return "[REDACTED]" }

// GoString implements fmt.GoStringer.
func (secret) GoString() string { return "[REDACTED]" }

// MarshalJSON keeps the key out of JSON.
func (secret) MarshalJSON() ([]byte, error) { return []byte(`"[REDACTED]"`), nil }

func (s secret) redact(text string) string {
	if s == "" {
		return text
	}
	return strings.ReplaceAll(text, string(s), "[REDACTED]")
}

// APIError is an error answer from the model server.
type APIError struct {
	// Status is the HTTP status.
	Status int
	// Message is the server's message (bounded, the key removed).
	Message string
	// RetryAfter is what the server asked to wait (0 when it did not say).
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("the model server answered HTTP %d %s", e.Status, http.StatusText(e.Status))
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// Retryable reports whether the request may succeed when repeated: too many
// requests, a timeout on the server's side, or a server error.
func (e *APIError) Retryable() bool {
	return e.Status == http.StatusTooManyRequests || e.Status == http.StatusRequestTimeout ||
		(e.Status >= 500 && e.Status != http.StatusNotImplemented)
}

// RejectsTools reports whether the error says the server does not take
// tool calls (an HTTP 400, 404, 422 or 501 naming tools or functions).
func (e *APIError) RejectsTools() bool {
	switch e.Status {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusUnprocessableEntity, http.StatusNotImplemented:
	default:
		return false
	}
	m := strings.ToLower(e.Message)
	return strings.Contains(m, "tool") || strings.Contains(m, "function")
}

// ErrTimeout is a model call that took longer than Config.Timeout.
var ErrTimeout = errors.New("the model did not answer in time")

// callStats is what one logical call cost: attempts, wall time waiting for
// the server (answers and the waits between retries), and what happened
// (retries, waits, the timeout).
type callStats struct {
	Attempts int
	Latency  time.Duration
	Events   []string
}

// capture records the HTTP status, headers and error body of one attempt,
// whatever the library makes of them. It travels in the request's context
// to capturingDoer.
type capture struct {
	status int
	header http.Header
	body   []byte
}

type captureKey struct{}

// capturingDoer sends the library's requests: it fills the attempt's
// capture and bounds every response body.
type capturingDoer struct{ hc *http.Client }

func (d capturingDoer) Do(req *http.Request) (*http.Response, error) {
	res, err := d.hc.Do(req)
	if err != nil || res == nil {
		return res, err
	}
	cp, _ := req.Context().Value(captureKey{}).(*capture)
	if cp == nil {
		cp = &capture{}
	}
	cp.status, cp.header = res.StatusCode, res.Header
	if res.StatusCode >= 400 {
		b, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBytes))
		res.Body.Close()
		cp.body = b
		res.Body = io.NopCloser(bytes.NewReader(b))
		return res, nil
	}
	res.Body = &limitedBody{rc: res.Body, left: maxResponseBytes}
	return res, nil
}

// limitedBody fails a response body that grows past its limit.
type limitedBody struct {
	rc   io.ReadCloser
	left int64
}

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, fmt.Errorf("the model server's answer is larger than %d bytes", maxResponseBytes)
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.rc.Read(p)
	l.left -= int64(n)
	return n, err
}

func (l *limitedBody) Close() error { return l.rc.Close() }

// do runs one logical call with its retries, all within Config.Timeout:
// the attempts and the waits between them share one deadline, and a wait
// the server asks for that would end past it is not waited for (the call
// fails at once as a timeout). fn makes one attempt.
func (c *Client) do(ctx context.Context, what string, fn func(ctx context.Context) error) (callStats, error) {
	var st callStats
	timeout := c.cfg.Timeout
	deadline := c.opts.Now().Add(timeout)
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return st, fmt.Errorf("%s: %w", what, err)
		}
		cp := &capture{}
		start := c.opts.Now()
		err := fn(context.WithValue(cctx, captureKey{}, cp))
		st.Latency += c.opts.Now().Sub(start)
		st.Attempts++
		if err == nil {
			return st, nil
		}
		if ctx.Err() != nil {
			return st, fmt.Errorf("%s: %w", what, ctx.Err())
		}
		if errors.Is(cctx.Err(), context.DeadlineExceeded) {
			st.Events = append(st.Events, fmt.Sprintf("%s: no answer within %v", what, timeout))
			return st, fmt.Errorf("%s: %w (timeout %v)", what, ErrTimeout, timeout)
		}
		if cp.status < 400 {
			// A transport error or an answer that did not decode.
			return st, fmt.Errorf("%s: %s", what, c.key.redact(err.Error()))
		}
		apiErr := &APIError{Status: cp.status, Message: c.key.redact(errorMessage(cp.body)), RetryAfter: retryAfter(cp.header, c.opts.Now())}
		if !apiErr.Retryable() || attempt >= c.opts.Retries {
			return st, fmt.Errorf("%s: %w", what, apiErr)
		}
		wait, why := apiErr.RetryAfter, "Retry-After"
		if wait <= 0 {
			wait, why = firstBackoff<<attempt, "backoff"
		}
		if wait > c.opts.MaxRetryWait {
			wait, why = c.opts.MaxRetryWait, why+", capped"
		}
		if left := deadline.Sub(c.opts.Now()); wait >= left {
			// Waiting would spend the rest of the timeout and leave no
			// time to ask again: give up now rather than at the deadline.
			st.Events = append(st.Events, fmt.Sprintf("%s: HTTP %d, a wait of %v (%s) is more than the %v left of the %v timeout: not retried",
				what, cp.status, wait, why, max(left, 0).Round(time.Millisecond), timeout))
			return st, fmt.Errorf("%s: %w (timeout %v; the server asked to wait %v): %w", what, ErrTimeout, timeout, wait, apiErr)
		}
		st.Events = append(st.Events, fmt.Sprintf("%s: HTTP %d, retry %d/%d in %v (%s)", what, cp.status, attempt+1, c.opts.Retries, wait, why))
		c.opts.Log.Warn().Int("status", cp.status).Dur("wait", wait).Int("retry", attempt+1).Str("call", what).Msg("the model server asked to wait; retrying")
		start = c.opts.Now()
		err = c.opts.Sleep(cctx, wait)
		st.Latency += c.opts.Now().Sub(start)
		if err != nil {
			if ctx.Err() != nil {
				return st, fmt.Errorf("%s: %w", what, ctx.Err())
			}
			st.Events = append(st.Events, fmt.Sprintf("%s: no answer within %v", what, timeout))
			return st, fmt.Errorf("%s: %w (timeout %v)", what, ErrTimeout, timeout)
		}
	}
}

// errorMessage extracts a readable message from an error body: OpenAI's
// {"error": {"message": …}}, Ollama's {"error": "…"}, or the text itself,
// on one line and bounded.
func errorMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	msg := ""
	if json.Unmarshal(body, &v) == nil {
		var obj struct {
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(v.Error, &obj) == nil && obj.Message != "":
			msg = obj.Message
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			msg = s
		case v.Message != "":
			msg = v.Message
		case v.Detail != "":
			msg = v.Detail
		}
	}
	if msg == "" {
		msg = string(body)
	}
	return oneLine(msg, 300)
}

// retryAfter reads Retry-After-Ms, then Retry-After (seconds or an HTTP
// date); 0 when absent or unreadable.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 && ms < 1e9 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s > 0 && s < 1e6 {
			return time.Duration(s * float64(time.Second))
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// chatResult is one chat completion with what it cost.
type chatResult struct {
	Completion *openai.ChatCompletionResponse
	Stats      callStats
}

// informational are the fields of a chat completion that only describe it:
// a server that sends one of them in another JSON type (a model name that
// is an object) has its answer taken all the same.
var informational = []string{"id", "object", "created", "model", "system_fingerprint", "service_tier", "usage"}

func informationalField(field string) bool {
	for _, f := range informational {
		if field == f || strings.HasPrefix(field, f+".") {
			return true
		}
	}
	return false
}

// chat sends one chat completion request.
func (c *Client) chat(ctx context.Context, req openai.ChatCompletionRequest) (chatResult, error) {
	req.Model = c.cfg.Model
	var res openai.ChatCompletionResponse
	st, err := c.do(ctx, "chat completion", func(ctx context.Context) error {
		var err error
		res, err = c.api.CreateChatCompletion(ctx, req)
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && informationalField(te.Field) {
			res.Model = "" // not a name: the configured one stands
			return nil
		}
		return err
	})
	if err != nil {
		return chatResult{Stats: st}, err
	}
	return chatResult{Completion: &res, Stats: st}, nil
}

// Complete sends one prompt as a user message and returns the model's text
// (selection.Model).
func (c *Client) Complete(ctx context.Context, prompt string) (string, error) {
	r, err := c.chat(ctx, openai.ChatCompletionRequest{
		Messages: []openai.ChatCompletionMessage{userMessage(prompt)},
	})
	if err != nil {
		return "", err
	}
	if len(r.Completion.Choices) == 0 {
		return "", errors.New("chat completion: the answer has no choices")
	}
	m := r.Completion.Choices[0].Message
	if m.Refusal != "" {
		return "", fmt.Errorf("chat completion: the model refused: %s", c.key.redact(oneLine(m.Refusal, 200)))
	}
	return m.Content, nil
}

// Embed returns one vector per text from /v1/embeddings with
// Config.EmbeddingModel (rank.Embedder).
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return c.embed(ctx, c.cfg.EmbeddingModel, texts)
}

// Embedder is the client's /v1/embeddings with the given model, whatever
// Config.EmbeddingModel says (the knowledge configuration may name it).
func (c *Client) Embedder(model string) rank.Embedder {
	return rank.EmbedderFunc(func(ctx context.Context, texts []string) ([][]float32, error) {
		return c.embed(ctx, model, texts)
	})
}

func (c *Client) embed(ctx context.Context, model string, texts []string) ([][]float32, error) {
	if model == "" {
		return nil, errors.New("embeddings: no embedding model configured (llm.embedding_model)")
	}
	if len(texts) == 0 {
		return nil, nil
	}
	var res openai.EmbeddingResponse
	_, err := c.do(ctx, "embeddings", func(ctx context.Context) error {
		var err error
		res, err = c.api.CreateEmbeddings(ctx, openai.EmbeddingRequestStrings{
			Model:          openai.EmbeddingModel(model),
			Input:          texts,
			EncodingFormat: openai.EmbeddingEncodingFormatFloat,
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(res.Data) != len(texts) {
		return nil, fmt.Errorf("embeddings: asked for %d vectors, got %d", len(texts), len(res.Data))
	}
	out := make([][]float32, len(texts))
	dim := -1
	for _, d := range res.Data {
		if d.Index < 0 || d.Index >= len(texts) || out[d.Index] != nil {
			return nil, fmt.Errorf("embeddings: bad or repeated index %d", d.Index)
		}
		if dim >= 0 && len(d.Embedding) != dim {
			return nil, fmt.Errorf("embeddings: vectors of different lengths (%d and %d)", dim, len(d.Embedding))
		}
		dim = len(d.Embedding)
		if d.Embedding == nil {
			d.Embedding = []float32{} // marks the index as given
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}

// oneLine joins a text's lines and bounds it to n bytes.
func oneLine(s string, n int) string {
	s = strings.ToValidUTF8(s, "?")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' ' // a server's text must not steer the terminal
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut-- // never split a character
		}
		s = s[:cut] + "…"
	}
	return s
}
