package remote

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEventQueue(t *testing.T) {
	q := newEventQueue(3)
	q.push("time", []byte("t1"))
	q.push("", []byte("a"))
	q.push("time", []byte("t2"))
	q.push("b:1,2,3", []byte("b1"))
	q.push("", []byte("dropped"))
	q.push("b:1,2,3", []byte("b2"))
	q.push("other", []byte("dropped too"))
	items, dropped := q.take()
	var lines []string
	for _, it := range items {
		lines = append(lines, string(it.line))
	}
	assert.Equal(t, []string{"t2", "a", "b2"}, lines, "the latest value in the first one's place; a full queue still coalesces")
	assert.Equal(t, int64(2), dropped)
	items, dropped = q.take()
	assert.Empty(t, items)
	assert.Zero(t, dropped, "the count restarts")
	q.push("time", []byte("t3"))
	items, _ = q.take()
	assert.Len(t, items, 1, "keys are forgotten with what was taken")
	q.close()
	q.push("time", []byte("t4"))
	items, _ = q.take()
	assert.Empty(t, items)
}
