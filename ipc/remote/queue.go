package remote

import "sync"

// eventQueue is a connection's bounded queue of outgoing events. Pushing
// never blocks: an event with a coalescing key replaces the queued one with
// the same key (the latest position, the latest state of a block), and an
// event that finds the queue full is dropped and counted; the writer sends a
// lagged notice with the count before the next events.
type eventQueue struct {
	mu      sync.Mutex
	items   []queued
	keys    map[string]int
	max     int
	dropped int64
	closed  bool
	ready   chan struct{}
}

type queued struct {
	key  string
	line []byte
}

func newEventQueue(max int) *eventQueue {
	return &eventQueue{keys: map[string]int{}, max: max, ready: make(chan struct{}, 1)}
}

// push queues an event line; key "" never coalesces.
func (q *eventQueue) push(key string, line []byte) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	if key != "" {
		if i, ok := q.keys[key]; ok {
			q.items[i].line = line
			return
		}
	}
	if len(q.items) >= q.max {
		q.dropped++
		q.signal()
		return
	}
	if key != "" {
		q.keys[key] = len(q.items)
	}
	q.items = append(q.items, queued{key, line})
	q.signal()
}

func (q *eventQueue) signal() {
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// take removes everything queued and the count of dropped events.
func (q *eventQueue) take() ([]queued, int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	items, dropped := q.items, q.dropped
	q.items, q.dropped = nil, 0
	clear(q.keys)
	return items, dropped
}

func (q *eventQueue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.items = nil
	clear(q.keys)
}
