package remote

import (
	"fmt"
	"math"
	"reflect"
	"sync"
	"time"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// maxBlockEvents bounds the block_change events one comparison produces;
// the rest count as dropped (the subscriber gets a lagged notice).
const maxBlockEvents = 16384

// watcher turns changes of the world into events: it compares the body's
// snapshots, taken after every action and, while someone subscribes, every
// Poll. Events are sourced from what a snapshot holds, so any body yields
// them: time, position, health, inventory, dimension, block changes,
// chunks loaded and unloaded, entities appearing, changing and leaving.
type watcher struct {
	srv  *Server
	kick chan struct{}
	done chan struct{}
	once sync.Once
	// mu orders a comparison pass and a new subscriber's baseline, so a
	// pass that saw no subscribers cannot drop the baseline taken for one.
	mu   sync.Mutex
	prev *world.Snapshot
}

func newWatcher(s *Server) *watcher {
	w := &watcher{srv: s, kick: make(chan struct{}, 1), done: make(chan struct{})}
	go w.run()
	return w
}

// changed asks for a comparison soon (after an action, a new subscriber).
func (w *watcher) changed() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

func (w *watcher) stop() { w.once.Do(func() { <-w.done }) }

// baseline makes sure the next comparison starts from a snapshot taken no
// later than now: called as a subscriber is welcomed, so every change after
// its welcome is reported even when the world changes before the watcher's
// goroutine next runs (without it, the first pass after a burst of actions
// would take the changed world as its starting point and report nothing).
// It does not wait for a pass in progress: a pass holds the lock only to
// compare, never while the body observes.
func (w *watcher) baseline() {
	w.mu.Lock()
	have := w.prev != nil
	w.mu.Unlock()
	if have {
		return
	}
	snap, err := w.srv.opts.Body.Observe(w.srv.ctx)
	if err != nil || snap == nil {
		return
	}
	w.mu.Lock()
	if w.prev == nil {
		w.prev = snap
	}
	w.mu.Unlock()
}

func (w *watcher) run() {
	defer close(w.done)
	var tick <-chan time.Time
	if w.srv.opts.Poll > 0 {
		t := time.NewTicker(w.srv.opts.Poll)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-w.srv.ctx.Done():
			return
		case <-w.kick:
		case <-tick:
		}
		w.pass()
	}
}

// pass compares the world with the last snapshot and sends the changes.
// The comparison reads the snapshot to start from, and the subscribers to
// tell, after the body observed: a baseline a new subscriber took meanwhile
// is the one compared against, and that subscriber hears of the changes.
func (w *watcher) pass() {
	w.mu.Lock()
	if len(w.srv.subscribers()) == 0 {
		w.prev = nil
		w.mu.Unlock()
		return
	}
	w.mu.Unlock()
	snap, err := w.srv.opts.Body.Observe(w.srv.ctx)
	if err != nil || snap == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	subs := w.srv.subscribers()
	cs, chats := w.srv.opts.Body.(ipc.ChatSource)
	if w.prev != nil {
		emit := func(kind, key string, payload any) {
			line, err := wire.Encode(nil, kind, payload)
			if err != nil {
				return
			}
			for _, c := range subs {
				c.event(kind, key, line)
			}
		}
		lostTo(subs, "", diff(w.prev, snap, emit))
	}
	if chats {
		chat(cs, subs)
	}
	w.prev = snap
}

// lostTo counts n dropped events for the subscribers (those of kind, or
// all when kind is ""), who get a lagged notice.
func lostTo(subs []*conn, kind string, n int64) {
	if n <= 0 {
		return
	}
	for _, c := range subs {
		if kind != "" && !c.wants(kind) {
			continue
		}
		c.queue.mu.Lock()
		c.queue.dropped += n
		c.queue.mu.Unlock()
		c.queue.signal()
	}
}

// chat sends each chat subscriber the lines the body received since its
// cursor (set when it subscribed, so nothing said before its welcome and
// everything said after it), none coalesced (a full queue drops them,
// counted). Lines the body's bounded log lost before they could be sent
// count as dropped, so the lagged notice comes before the lines that follow
// the gap. The subscribers are read after the world was observed, so one
// that subscribed meanwhile is served in this pass.
func chat(cs ipc.ChatSource, subs []*conn) {
	from, any := uint64(math.MaxUint64), false
	for _, c := range subs {
		if c.wants(wire.EventChat) {
			from, any = min(from, c.chatCursor()), true
		}
	}
	if !any {
		return
	}
	msgs, next := cs.ChatSince(from)
	lines := make([][]byte, len(msgs))
	for i, m := range msgs {
		lines[i], _ = wire.Encode(nil, wire.EventChat, wire.ChatEvent{From: m.From, Text: m.Text, Tick: m.Tick})
	}
	for _, c := range subs {
		if !c.wants(wire.EventChat) {
			continue
		}
		cur := c.chatCursor()
		for i, m := range msgs {
			if m.Seq < cur {
				continue
			}
			if m.Seq > cur {
				lostTo([]*conn{c}, wire.EventChat, int64(m.Seq-cur))
			}
			if lines[i] != nil {
				c.event(wire.EventChat, "", lines[i])
			}
			cur = m.Seq + 1
		}
		if next > cur {
			lostTo([]*conn{c}, wire.EventChat, int64(next-cur)) // lost, none left in the log
		}
		c.setChatCursor(next)
	}
}

// diff emits the events that turn a into b and returns how many block
// changes it left out (past maxBlockEvents).
func diff(a, b *world.Snapshot, emit func(kind, key string, payload any)) int64 {
	if a.Tick != b.Tick {
		emit(wire.EventTime, wire.EventTime, wire.TimeEvent{Tick: b.Tick})
	}
	if a.Player.Dimension != b.Player.Dimension {
		emit(wire.EventDimension, wire.EventDimension, wire.DimensionEvent{Dimension: b.Player.Dimension})
	}
	if a.Player.Pos != b.Player.Pos || a.Player.Dimension != b.Player.Dimension {
		emit(wire.EventPosition, wire.EventPosition, wire.PositionEvent{Pos: b.Player.Pos, Dimension: b.Player.Dimension})
	}
	if a.Player.Health != b.Player.Health || a.Player.Food != b.Player.Food {
		emit(wire.EventHealth, wire.EventHealth, wire.HealthEvent{Health: b.Player.Health, Food: b.Player.Food})
	}
	if !reflect.DeepEqual(a.Inventory, b.Inventory) {
		emit(wire.EventInventory, wire.EventInventory, wire.InventoryEvent{Inventory: b.Inventory})
	}
	old := make(map[int]world.Entity, len(a.Entities))
	for _, e := range a.Entities {
		old[e.ID] = e
	}
	for _, e := range b.Entities {
		if prev, ok := old[e.ID]; !ok || !reflect.DeepEqual(prev, e) {
			emit(wire.EventEntity, fmt.Sprintf("e:%d", e.ID), wire.EntityEvent{Entity: e})
		}
		delete(old, e.ID)
	}
	for _, e := range a.Entities {
		if _, gone := old[e.ID]; gone {
			emit(wire.EventEntityGone, "", wire.EntityGoneEvent{ID: e.ID})
		}
	}
	ca, _ := world.ChunksOf(a.Blocks)
	cb, _ := world.ChunksOf(b.Blocks)
	return diffChunks(ca, cb, emit)
}

func diffChunks(a, b *chunk.Chunks, emit func(kind, key string, payload any)) int64 {
	if a == b || b == nil {
		return 0
	}
	var lost int64
	budget := maxBlockEvents
	var sa, sb [chunk.SectionVolume]chunk.StateID
	seen := map[chunk.ChunkPos]bool{}
	b.ForEachColumn(func(cb *chunk.Column) {
		p := cb.Pos()
		seen[p] = true
		var ca *chunk.Column
		if a != nil {
			ca = a.Column(p.X, p.Z)
		}
		if ca == nil {
			emit(wire.EventChunkLoaded, "", wire.ChunkEvent{X: p.X, Z: p.Z})
			return
		}
		if ca == cb {
			return
		}
		for cy := 0; cy < chunk.ColumnSections; cy++ {
			x, y := ca.Section(cy), cb.Section(cy)
			if x == y {
				continue
			}
			states(x, &sa)
			states(y, &sb)
			for i := range sa {
				if sa[i] == sb[i] {
					continue
				}
				if budget == 0 {
					lost++
					continue
				}
				budget--
				pos := world.Pos(p.X*16+i&15, cy*16+i>>8, p.Z*16+(i>>4)&15)
				emit(wire.EventBlockChange, fmt.Sprintf("b:%d,%d,%d", pos.X, pos.Y, pos.Z),
					wire.BlockChangeEvent{Pos: pos, Block: b.Resolver().Block(sb[i])})
			}
		}
	})
	if a != nil {
		a.ForEachColumn(func(c *chunk.Column) {
			if !seen[c.Pos()] {
				emit(wire.EventChunkUnloaded, "", wire.ChunkEvent{X: c.Pos().X, Z: c.Pos().Z})
			}
		})
	}
	return lost
}

func states(s *chunk.Section, dst *[chunk.SectionVolume]chunk.StateID) {
	if s == nil {
		clear(dst[:])
		return
	}
	s.States(dst)
}
