package path

// entry is an element of an open set: a node of a search and its priority.
// Every search of the package (the A* of Finder, the Router's search over
// portals, the Dijkstra searches inside a region) uses it, so there is one
// heap. A search pushes a node again when it lowers its cost and skips the
// stale entry when it is popped, which keeps pushes O(log n) without a
// position index.
type entry struct {
	f int64 // the estimated total cost (A*) or the cost so far (Dijkstra)
	h int64 // the estimate of the cost left; 0 in a Dijkstra search
	n int32 // the node
	// kind tells what the Router's entry stands for (kindNode, kindGoal,
	// kindFrontier); kindNode in the other searches.
	kind uint8
}

// before orders the open set: lower f, then lower h (deeper nodes first,
// which expands fewer ties), then the higher kind (a goal or frontier entry
// before a node of the same cost), then the older node. It is a strict
// order, so the searches pop ties the same way on every run.
func (a entry) before(b entry) bool {
	if a.f != b.f {
		return a.f < b.f
	}
	if a.h != b.h {
		return a.h < b.h
	}
	if a.kind != b.kind {
		return a.kind > b.kind
	}
	return a.n < b.n
}

// openSet is a binary min-heap of entries, kept between searches so a
// search allocates only when it outgrows the last one. The zero value is
// empty.
//
// It is not generic: a heap parameterised on its element calls the
// element's order through the instantiation's dictionary, an indirect call
// per comparison that is not inlined, and pushes and pops get about a third
// slower (BenchmarkOpenSet measures both); the searches share the element
// type instead.
type openSet struct {
	s []entry
}

// Len is the number of entries.
func (h *openSet) Len() int { return len(h.s) }

// reset empties the heap and keeps its storage.
func (h *openSet) reset() { h.s = h.s[:0] }

// push adds e.
func (h *openSet) push(e entry) {
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

// pop removes and returns the first entry; the heap must not be empty.
func (h *openSet) pop() entry {
	s := h.s
	top := s[0]
	last := s[len(s)-1]
	s = s[:len(s)-1]
	n := len(s)
	i := 0
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
