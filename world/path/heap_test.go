package path

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// heapEntries are n entries with many ties on f and h, as the searches
// make them (costs are whole milli-ticks).
func heapEntries(n int) []entry {
	r := rand.New(rand.NewPCG(1, 2))
	es := make([]entry, n)
	for i := range es {
		es[i] = entry{f: int64(r.IntN(n / 40)), h: int64(r.IntN(8)), n: int32(i), kind: uint8(r.IntN(3))}
	}
	return es
}

// TestOpenSetPopsInOrder: with pushes and pops interleaved, every pop is
// the first of what the heap holds by entry.before, and a drained heap
// gives the rest sorted.
func TestOpenSetPopsInOrder(t *testing.T) {
	es := heapEntries(4000)
	var h openSet
	var held []entry // what the heap holds, for the reference
	for i, e := range es {
		h.push(e)
		held = append(held, e)
		if i%3 == 2 {
			got := h.pop()
			want := slices.MinFunc(held, cmpEntry)
			require.Equal(t, want, got, "pop %d", i)
			held = slices.DeleteFunc(held, func(x entry) bool { return x == got })
		}
		require.Equal(t, len(held), h.Len())
	}
	slices.SortFunc(held, cmpEntry)
	var rest []entry
	for h.Len() > 0 {
		rest = append(rest, h.pop())
	}
	assert.Equal(t, held, rest)
	for _, e := range es[:10] {
		h.push(e)
	}
	h.reset()
	assert.Zero(t, h.Len(), "reset empties the heap")
	h.push(entry{f: 3})
	assert.Equal(t, entry{f: 3}, h.pop(), "a reset heap works again")
}

func cmpEntry(a, b entry) int {
	switch {
	case a.before(b):
		return -1
	case b.before(a):
		return 1
	}
	return 0
}

// TestEntryOrder: the tie-breaks the searches rely on.
func TestEntryOrder(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b entry
	}{
		{"lower f first", entry{f: 1, h: 9, n: 9}, entry{f: 2}},
		{"then lower h (deeper)", entry{f: 5, h: 1, n: 9}, entry{f: 5, h: 2}},
		{"then the goal or frontier before a node", entry{f: 5, h: 1, n: 9, kind: kindGoal}, entry{f: 5, h: 1, n: 0, kind: kindNode}},
		{"then frontier before goal", entry{f: 5, kind: kindFrontier, n: 9}, entry{f: 5, kind: kindGoal}},
		{"then the older node", entry{f: 5, h: 1, n: 3}, entry{f: 5, h: 1, n: 4}},
	} {
		assert.True(t, c.a.before(c.b), c.name)
		assert.False(t, c.b.before(c.a), c.name)
	}
	assert.False(t, entry{f: 1, n: 2}.before(entry{f: 1, n: 2}), "strict")
}

// ordered is the order a generic heap would take from its element.
type ordered[E any] interface{ before(E) bool }

// genericHeap is openSet parameterised on its element, kept here to
// measure what the parameter costs (BenchmarkOpenSet).
type genericHeap[E ordered[E]] struct{ s []E }

func (h *genericHeap[E]) push(e E) {
	s := append(h.s, e)
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !e.before(s[p]) {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = e
	h.s = s
}

func (h *genericHeap[E]) pop() E {
	s := h.s
	top, last := s[0], s[len(s)-1]
	s = s[:len(s)-1]
	n, i := len(s), 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && s[r].before(s[c]) {
			c = r
		}
		if !s[c].before(last) {
			break
		}
		s[i] = s[c]
		i = c
	}
	if n > 0 {
		s[i] = last
	}
	h.s = s
	return top
}

// BenchmarkOpenSet pushes 200,000 entries, popping one after every third
// push, then drains the heap: openSet against the same heap parameterised
// on its element (the reason openSet is not generic).
func BenchmarkOpenSet(b *testing.B) {
	es := heapEntries(200_000)
	b.Run("openSet", func(b *testing.B) {
		var h openSet
		for b.Loop() {
			h.reset()
			for i, e := range es {
				h.push(e)
				if i%3 == 2 {
					h.pop()
				}
			}
			for h.Len() > 0 {
				h.pop()
			}
		}
	})
	b.Run("generic", func(b *testing.B) {
		var h genericHeap[entry]
		for b.Loop() {
			h.s = h.s[:0]
			for i, e := range es {
				h.push(e)
				if i%3 == 2 {
					h.pop()
				}
			}
			for len(h.s) > 0 {
				h.pop()
			}
		}
	})
}
