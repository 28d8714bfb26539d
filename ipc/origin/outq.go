package origin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// outQueue holds the encoded lines waiting for the writer. World updates
// (events) never block their producer: time_update and position_update keep
// only the newest, and when the events waiting exceed the byte budget they
// are all dropped, the client gets a lagged notice, and the producer is told
// to resend the world in full once the queue has drained (resync). Replies
// (action_result, error) are never dropped; a producer of replies waits
// while maxReplies are queued, which slows the client's own requests down,
// never the body.
type outQueue struct {
	mu     sync.Mutex
	wake   chan struct{} // capacity 1: something to write
	room   chan struct{} // capacity 1: a reply left the queue
	fifo   []entry
	bytes  int // bytes of the events in fifo
	limit  int
	nrep   int // replies in fifo
	maxRep int
	// time and pos hold the newest coalesced update, nil when none waits.
	time, pos []byte
	dropped   int  // events dropped since the last lagged notice
	resync    bool // events were dropped: the mirror must start over
	closed    bool
	// finished: the last line is queued; next reports errFinished once
	// the queue is empty.
	finished bool
}

// errFinished ends the writer after the last line of a session it ended.
var errFinished = errors.New("origin: the session's last line is written")

type entry struct {
	line  []byte
	reply bool
}

func newOutQueue(limit, maxReplies int) *outQueue {
	return &outQueue{wake: make(chan struct{}, 1), room: make(chan struct{}, 1), limit: limit, maxRep: maxReplies}
}

// encode renders a message as one line.
func encode(o Out) []byte {
	msg := struct {
		Type    string          `json:"type"`
		ID      json.RawMessage `json:"id,omitempty"`
		Payload any             `json:"payload"`
	}{o.Type, o.ID, o.Payload}
	b, err := json.Marshal(msg)
	if err != nil {
		// Every payload is a plain struct of numbers and strings; a failure
		// is a bug, reported to the client rather than crashing.
		b, _ = json.Marshal(map[string]any{"type": TypeError, "payload": map[string]any{
			"code": "internal", "message": fmt.Sprintf("encoding %s: %v", o.Type, err)}})
	}
	return append(b, '\n')
}

func (q *outQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// event queues a world update without blocking. It reports false when the
// queue overflowed and dropped the waiting events: the caller must resync.
func (q *outQueue) event(o Out) bool {
	line := encode(o)
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return true
	}
	switch o.Type {
	case TypeTimeUpdate:
		q.time = line
	case TypePositionUpdate:
		q.pos = line
	default:
		if q.bytes+len(line) > q.limit {
			q.overflow()
			return false
		}
		q.fifo = append(q.fifo, entry{line: line})
		q.bytes += len(line)
	}
	q.signal()
	return true
}

// overflow drops every waiting event, keeping the replies. Called with mu.
func (q *outQueue) overflow() {
	kept := q.fifo[:0]
	for _, e := range q.fifo {
		if e.reply {
			kept = append(kept, e)
		} else {
			q.dropped++
		}
	}
	clear(q.fifo[len(kept):])
	q.fifo = kept
	q.bytes = 0
	q.dropped++ // the event that did not fit
	q.resync = true
	q.signal()
}

// needResync reports (once) that events were dropped, and whether the queue
// has drained enough (under half its budget) to take a full update now.
func (q *outQueue) needResync() (need, ready bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.resync, q.bytes < q.limit/2
}

// resynced clears the resync flag once the full update was queued.
func (q *outQueue) resynced() {
	q.mu.Lock()
	q.resync = false
	q.mu.Unlock()
}

// reply queues a reply, waiting while too many replies wait already. The
// coalesced updates waiting go first, so a result follows the position it
// led to.
func (q *outQueue) reply(ctx context.Context, o Out) error {
	line := encode(o)
	for {
		q.mu.Lock()
		if q.closed {
			q.mu.Unlock()
			return context.Canceled
		}
		if q.nrep < q.maxRep {
			for _, p := range [][]byte{q.time, q.pos} {
				if p != nil {
					q.fifo = append(q.fifo, entry{line: p})
					q.bytes += len(p)
				}
			}
			q.time, q.pos = nil, nil
			q.fifo = append(q.fifo, entry{line: line, reply: true})
			q.nrep++
			q.signal()
			q.mu.Unlock()
			return nil
		}
		q.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-q.room:
		}
	}
}

// next returns the next line to write, waiting for one: a lagged notice
// first when events were dropped, then the coalesced updates, then the
// queue in order.
func (q *outQueue) next(ctx context.Context) ([]byte, error) {
	for {
		q.mu.Lock()
		var line []byte
		switch {
		case q.dropped > 0:
			line = encode(Out{Type: TypeLagged, Payload: map[string]int{"dropped": q.dropped}})
			q.dropped = 0
		case q.time != nil:
			line, q.time = q.time, nil
		case q.pos != nil:
			line, q.pos = q.pos, nil
		case len(q.fifo) > 0:
			e := q.fifo[0]
			q.fifo[0] = entry{}
			q.fifo = q.fifo[1:]
			line = e.line
			if e.reply {
				q.nrep--
				select {
				case q.room <- struct{}{}:
				default:
				}
			} else {
				q.bytes -= len(line)
			}
		}
		finished := q.finished
		q.mu.Unlock()
		if line != nil {
			return line, nil
		}
		if finished {
			return nil, errFinished
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-q.wake:
		}
	}
}

// finish queues o as the last line, past the reply limit (one line more at
// most), and makes further messages no-ops: next reports errFinished once
// everything queued is written.
func (q *outQueue) finish(o Out) {
	line := encode(o)
	q.mu.Lock()
	if !q.closed {
		q.fifo = append(q.fifo, entry{line: line, reply: true})
		q.nrep++
		q.closed, q.finished = true, true
	}
	q.mu.Unlock()
	q.signal()
	select {
	case q.room <- struct{}{}:
	default:
	}
}

// close makes further messages no-ops and wakes waiting repliers.
func (q *outQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	select {
	case q.room <- struct{}{}:
	default:
	}
}
