package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReaderLines(t *testing.T) {
	r := NewReader(strings.NewReader("a\r\n\n  \nbb\nlast"), 0)
	var got []string
	for {
		line, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		got = append(got, string(line))
	}
	assert.Equal(t, []string{"a", "bb", "last"}, got)
}

func TestReaderLimit(t *testing.T) {
	limit := 1024
	exact := strings.Repeat("x", limit)
	over := strings.Repeat("y", limit+1)
	huge := strings.Repeat("z", 200_000) // longer than the read buffer
	r := NewReader(strings.NewReader(exact+"\n"+over+"\n"+huge+"\nok\n"+huge), limit)
	line, err := r.Next()
	require.NoError(t, err)
	assert.Len(t, line, limit, "a line of exactly the limit passes")
	_, err = r.Next()
	var tl *TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.Equal(t, int64(limit+1), tl.Discarded)
	_, err = r.Next()
	require.ErrorAs(t, err, &tl)
	assert.Equal(t, int64(len(huge)), tl.Discarded)
	line, err = r.Next()
	require.NoError(t, err)
	assert.Equal(t, "ok", string(line), "the stream goes on after a refused line")
	_, err = r.Next()
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "an over-long last line without its newline")
}

// endless is a line of n bytes that is never held in memory.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	if e.n == 0 {
		return 0, io.EOF
	}
	k := int64(len(p))
	if k > e.n {
		k = e.n
	}
	for i := range p[:k] {
		p[i] = 'a'
	}
	e.n -= k
	if e.n == 0 {
		p[k-1] = '\n'
	}
	return int(k), nil
}

// TestReaderDoesNotHoldTooLargeLines: a 256 MiB line is skipped with a
// bounded allocation (the read buffer and the limit, not the line).
func TestReaderDoesNotHoldTooLargeLines(t *testing.T) {
	r := NewReader(io.MultiReader(&endless{n: 256 << 20}, strings.NewReader("{}\n")), 4096)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := r.Next()
	var tl *TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.Equal(t, int64(256<<20-1), tl.Discarded)
	runtime.ReadMemStats(&after)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "allocated while skipping")
	line, err := r.Next()
	require.NoError(t, err)
	assert.Equal(t, "{}", string(line))
}

func TestWriterRefusesTooLarge(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, 1024)
	require.NoError(t, w.WriteLine([]byte(`{"a":1}`)))
	err := w.WriteLine(bytes.Repeat([]byte("x"), 1025))
	assert.Equal(t, CodeTooLarge, CodeOf(err))
	assert.Equal(t, "{\"a\":1}\n", buf.String())
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		line string
		code ErrorCode
		id   string
	}{
		{`{"v":1,"id":1,"type":"observe"}`, "", "1"},
		{`{"v":1,"id":"a-b","type":"observe","payload":{"blocks":"delta"}}`, "", `"a-b"`},
		{`{"v":1,"type":"time","payload":{"tick":3}}`, "", ""},
		{`{"v":1,"id":null,"type":"time"}`, "", ""},
		{`{"v":1,"id":1`, CodeBadRequest, ""},
		{`[1,2]`, CodeBadRequest, ""},
		{`{"v":2,"id":5,"type":"observe"}`, CodeVersion, "5"},
		{`{"id":5,"type":"observe"}`, CodeVersion, "5"},
		{`{"v":1,"id":5}`, CodeBadRequest, "5"},
		{`{"v":1,"id":true,"type":"observe"}`, CodeBadRequest, ""},
		{`{"v":1,"id":[1],"type":"observe"}`, CodeBadRequest, ""},
		{`{"v":1,"id":"` + strings.Repeat("x", 70) + `","type":"observe"}`, CodeBadRequest, ""},
	} {
		m, err := Decode([]byte(tc.line))
		if tc.code == "" {
			require.NoError(t, err, tc.line)
			assert.Equal(t, tc.id, string(m.ID), tc.line)
			continue
		}
		assert.Equal(t, tc.code, CodeOf(err), "%s: %v", tc.line, err)
		if tc.id != "" {
			require.NotNil(t, m, tc.line)
			assert.Equal(t, tc.id, string(m.ID), tc.line)
		}
	}
	m, err := Decode([]byte(`{"v":1,"type":"time"}`))
	require.NoError(t, err)
	assert.True(t, m.IsEvent())
	assert.False(t, m.IsRequest())
	m, err = Decode([]byte(`{"v":1,"id":2,"type":"reply"}`))
	require.NoError(t, err)
	assert.False(t, m.IsEvent())
	assert.False(t, m.IsRequest())
}

// TestEncodeIsTheWholeEnvelope: the one-pass encoding is the bytes the
// envelope marshalled as a whole gives, for ids, events and payloads of
// every shape.
func TestEncodeIsTheWholeEnvelope(t *testing.T) {
	for _, tc := range []struct {
		id      string
		typ     string
		payload any
	}{
		{"1", TypeReply, map[string]any{"a": []int{1, 2}, "b": "<&>"}},
		{`"x-y"`, TypeError, Errorf(CodeBusy, "m")},
		{"", EventTime, TimeEvent{Tick: 3}},
		{"", EventDisconnect, nil},
		{"7", TypeReply, json.RawMessage(` { "spaced" : [ 1 , 2 ] } `)},
		{"8", `odd "type" <x>`, (*TimeEvent)(nil)},
		{" 9 ", TypeReply, "text\nwith\u2028separators"},
		{"10", TypeReply, json.RawMessage(nil)},
		{"11", TypeReply, json.RawMessage(`{"a":"<&>"}`)},
	} {
		got, err := Encode(json.RawMessage(tc.id), tc.typ, tc.payload)
		require.NoError(t, err, tc)
		assert.Equal(t, string(envelopeOf(t, json.RawMessage(tc.id), tc.typ, tc.payload)), string(got), tc)
		m, err := Decode(got)
		require.NoError(t, err, string(got))
		assert.Equal(t, tc.typ, m.Type)
	}
	_, err := Encode(json.RawMessage("{"), TypeReply, nil)
	assert.ErrorContains(t, err, "the id of a reply")
	_, err = Encode(nil, TypeReply, json.RawMessage("{"))
	assert.ErrorContains(t, err, "the reply payload")
}

// TestReaderSetMax: a reader started with a small limit (a server before
// hello) takes longer lines once raised, and does not keep a long line's
// buffer after it.
func TestReaderSetMax(t *testing.T) {
	long := strings.Repeat("x", 200_000)
	r := NewReaderSize(strings.NewReader(long+"\n"+long+"\nok\n"), 1024, 16)
	assert.Equal(t, 1024, r.Max())
	_, err := r.Next()
	var tl *TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.Equal(t, 1024, tl.Limit)
	r.SetMax(1 << 20)
	line, err := r.Next()
	require.NoError(t, err)
	assert.Len(t, line, len(long))
	line, err = r.Next()
	require.NoError(t, err)
	assert.Equal(t, "ok", string(line))
	assert.LessOrEqual(t, cap(r.buf), keepLineBuffer, "the long line's buffer is let go")
}

// TestReaderStopAtTooLarge: a reader told to stop gives up on a long line
// as soon as it passes the limit, without reading the rest, and stays
// stopped.
func TestReaderStopAtTooLarge(t *testing.T) {
	src := &endless{n: 1 << 30}
	r := NewReaderSize(src, 4096, 1024)
	r.StopAtTooLarge(true)
	_, err := r.Next()
	var tl *TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.Equal(t, 4096, tl.Limit)
	assert.Greater(t, src.n, int64(1<<30-16<<10), "read no more than the limit and a buffer")
	_, err2 := r.Next()
	assert.Same(t, err, err2, "the stream stays ended")
	// A line within the limit, and a long line ending in the first read,
	// are as without it.
	r = NewReaderSize(strings.NewReader("short\n"+strings.Repeat("y", 600)+"\n"), 1024, 512)
	r.StopAtTooLarge(true)
	line, err := r.Next()
	require.NoError(t, err)
	assert.Equal(t, "short", string(line))
	line, err = r.Next()
	require.NoError(t, err)
	assert.Len(t, line, 600)
}

// TestEncodeAllocatesTheLineOnce: a big reply built as JSON is copied
// into a line of its size, once: no growing buffers, no second envelope.
func TestEncodeAllocatesTheLineOnce(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation figures differ under the race detector")
	}
	payload := json.RawMessage(`{"blocks":[` + strings.Repeat(`{"pos":{"x":1,"y":2,"z":3},"block":{"id":"minecraft:stone"}},`, 40000) + `{}]}`)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	line, err := Encode(json.RawMessage("12"), TypeReply, payload)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(len(line))*11/10, "allocated for a line of %d bytes", len(line))
}

func TestEncodeKeepsText(t *testing.T) {
	line, err := Encode([]byte("3"), TypeReply, map[string]string{"error": "<b> & </b>"})
	require.NoError(t, err)
	assert.Equal(t, `{"v":1,"id":3,"type":"reply","payload":{"error":"<b> & </b>"}}`, string(line))
}
