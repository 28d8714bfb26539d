package llm

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/planner/llm/llmtest"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"seconds", map[string]string{"Retry-After": "2"}, 2 * time.Second},
		{"fraction", map[string]string{"Retry-After": "0.25"}, 250 * time.Millisecond},
		{"milliseconds first", map[string]string{"Retry-After-Ms": "150", "Retry-After": "9"}, 150 * time.Millisecond},
		{"http date", map[string]string{"Retry-After": now.Add(3 * time.Second).Format(http.TimeFormat)}, 3 * time.Second},
		{"date in the past", map[string]string{"Retry-After": now.Add(-time.Hour).Format(http.TimeFormat)}, 0},
		{"negative", map[string]string{"Retry-After": "-5"}, 0},
		{"zero", map[string]string{"Retry-After": "0"}, 0},
		{"huge", map[string]string{"Retry-After": "1e300"}, 0},
		{"garbage", map[string]string{"Retry-After": "soon"}, 0},
		{"none", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			assert.Equal(t, tt.want, retryAfter(h, now))
		})
	}
}

func TestRetryableStatuses(t *testing.T) {
	for status, want := range map[int]bool{429: true, 408: true, 500: true, 502: true, 503: true, 504: true,
		501: false, 400: false, 401: false, 403: false, 404: false, 422: false} {
		assert.Equal(t, want, (&APIError{Status: status}).Retryable(), "HTTP %d", status)
	}
}

func TestRejectsTools(t *testing.T) {
	assert.True(t, (&APIError{Status: 400, Message: "tools param requires --jinja flag"}).RejectsTools())
	assert.True(t, (&APIError{Status: 400, Message: "registry.ollama.ai/library/gemma:2b does not support tools"}).RejectsTools())
	assert.True(t, (&APIError{Status: 422, Message: "Function calling is not enabled"}).RejectsTools())
	assert.False(t, (&APIError{Status: 400, Message: "context length exceeded"}).RejectsTools())
	assert.False(t, (&APIError{Status: 500, Message: "tool parser crashed"}).RejectsTools(), "a server error is retried, not a fallback")
}

func TestResponseBodyIsBounded(t *testing.T) {
	old := maxResponseBytes
	maxResponseBytes = 1 << 10
	t.Cleanup(func() { maxResponseBytes = old })
	srv := llmtest.New(t, llmtest.Text(strings.Repeat("a", 4<<10)))
	c, err := NewClient(Config{URL: srv.URL, Model: "m"}, Options{})
	require.NoError(t, err)
	_, err = c.Complete(context.Background(), "hi")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "larger than 1024 bytes")
}

func TestObservationIsBounded(t *testing.T) {
	counts := map[string]int{}
	for i := range 500 {
		counts["mod:item_"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+string(rune('a'+i/26))] = i + 1
	}
	kept, more := boundedCounts(counts, maxInventoryKinds)
	assert.Len(t, kept, maxInventoryKinds)
	assert.Equal(t, len(counts)-maxInventoryKinds, more)
	for _, n := range kept {
		assert.Greater(t, n, 500-maxInventoryKinds, "the largest stacks are kept")
	}
}

func TestBound(t *testing.T) {
	assert.Equal(t, "short", bound("short", 10))
	got := bound(strings.Repeat("é", 10), 5) // 2-byte runes: the cut moves back to a rune start
	assert.True(t, strings.HasPrefix(got, "éé\n\n[cut: 16 more bytes]"), got)
}
