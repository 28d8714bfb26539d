package memory

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// Conn records every snapshot observed through a body's connection into
// the store, under the server's name and the dimension the snapshot names,
// and what the actions tell: a result that says the bot died is a death
// (where, the error that tells why, the items it held at the last look), a
// look that finds the bot walled in a shelter.
// Memory never fails a run: an error is logged once and recording stops.
// Observe may be called from several goroutines at once (a served body's
// watcher and its queries): the store serialises the writes.
type Conn struct {
	ipc.Conn
	store  *Store
	server string
	log    zerolog.Logger
	broken atomic.Bool

	mu   sync.Mutex
	last lastLook
}

// lastLook is what a death is told with: the last snapshot's place, tick,
// world age and the items held.
type lastLook struct {
	place    Place
	tick     int64
	worldAge int64
	items    int
	shelter  world.BlockPos
	walled   bool
}

// Wrap returns conn recording into s; server names the world ("host:port"
// live, "sim/SCENARIO/SEED" in the simulator).
func Wrap(conn ipc.Conn, s *Store, server string, log zerolog.Logger) *Conn {
	return &Conn{Conn: conn, store: s, server: server, log: log}
}

// Observe observes through the connection, records what it saw and gives
// the snapshot the memory of its world to recall from.
func (c *Conn) Observe(ctx context.Context) (*world.Snapshot, error) {
	snap, err := c.Conn.Observe(ctx)
	if err != nil || snap == nil || c.broken.Load() {
		return snap, err
	}
	dim := snap.Player.Dimension
	if dim == "" {
		dim = "overworld"
	}
	rec := Recorder{Store: c.store, Place: Place{Server: c.server, Dimension: dim}}
	snap.Recall = recaller{s: c.store, p: rec.Place, log: c.log}
	if _, rerr := rec.Observe(snap); rerr != nil {
		c.stop(rerr)
	}
	look := lastLook{place: rec.Place, tick: snap.Tick, worldAge: snap.WorldAge}
	for _, st := range snap.Inventory.Slots {
		look.items += max(st.Count, 0)
	}
	feet := snap.Feet()
	look.walled = path.Enclosed(snap, feet)
	c.mu.Lock()
	known := c.last.walled && c.last.shelter == feet && c.last.place == rec.Place
	if look.walled {
		look.shelter = feet
	}
	c.last = look
	c.mu.Unlock()
	if look.walled && !known {
		if _, err := c.store.RecordShelter(rec.Place, Shelter{Pos: feet, Tick: snap.Tick}); err != nil {
			c.stop(err)
		}
	}
	return snap, nil
}

// stop ends the recording for the run, logging why once.
func (c *Conn) stop(err error) {
	if !c.broken.Swap(true) {
		c.log.Warn().Err(err).Str("file", c.store.Path()).Msg("memory: recording stopped for this run")
	}
}

// Execute runs the action through the connection; a result that says the
// bot died is remembered as a death.
func (c *Conn) Execute(ctx context.Context, a action.Action) (ipc.Result, error) {
	res, err := c.Conn.Execute(ctx, a)
	if err != nil || c.broken.Load() {
		return res, err
	}
	if died, _ := res.Details["died"].(bool); died {
		c.mu.Lock()
		look := c.last
		c.mu.Unlock()
		if look.place.Server == "" {
			return res, nil // nothing observed yet: no world to tell it of
		}
		at, ok := deathPos(res.Details["died_at"])
		if !ok {
			return res, nil
		}
		d := Death{Pos: at.Block(), Cause: deathCause(res), Tick: look.tick + res.Ticks, Items: look.items}
		if look.worldAge > 0 {
			d.WorldAge = look.worldAge + res.Ticks
		}
		if rerr := c.store.RecordDeath(look.place, d); rerr != nil {
			c.stop(rerr)
		}
	}
	return res, nil
}

// deathCause is why the bot died as the body tells it: the game's own
// death message ("death_cause": a server's chat, the simulator's words),
// else the step's error.
func deathCause(res ipc.Result) string {
	if c, ok := res.Details["death_cause"].(string); ok && c != "" {
		return c
	}
	return res.Error
}

// LastDeath is the latest death remembered of the world of the last look
// (the overworld before any).
func (c *Conn) LastDeath() (Death, bool, error) {
	c.mu.Lock()
	p := c.last.place
	c.mu.Unlock()
	if p.Server == "" {
		p = Place{Server: c.server, Dimension: "overworld"}
	}
	return c.store.LastDeath(p)
}

// deathPos reads where a result says the bot died: a world.Vec3 in the
// process, an object with x, y and z through a remote body.
func deathPos(v any) (world.Vec3, bool) {
	switch p := v.(type) {
	case world.Vec3:
		return p, true
	case map[string]any:
		x, ok1 := p["x"].(float64)
		y, ok2 := p["y"].(float64)
		z, ok3 := p["z"].(float64)
		return world.Vec3{X: x, Y: y, Z: z}, ok1 && ok2 && ok3
	}
	return world.Vec3{}, false
}

// recaller answers a snapshot's recall from one world's memory.
type recaller struct {
	s   *Store
	p   Place
	log zerolog.Logger
}

func (r recaller) RecallBlocks(id string, meta int, from world.BlockPos, maxDist, k int) []world.BlockPos {
	got, err := r.s.Recall(r.p, Query{Block: id, Meta: meta, From: from, MaxDist: maxDist, K: k})
	if err != nil {
		r.log.Warn().Err(err).Msg("memory: recall failed")
		return nil
	}
	out := make([]world.BlockPos, len(got))
	for i, g := range got {
		out[i] = g.Pos
	}
	return out
}

var _ world.ShelterRecaller = recaller{}

func (r recaller) RecallShelters(from world.BlockPos, maxDist, k int) []world.BlockPos {
	got, err := r.s.Shelters(r.p, from, maxDist, k)
	if err != nil {
		r.log.Warn().Err(err).Msg("memory: recall of shelters failed")
		return nil
	}
	out := make([]world.BlockPos, len(got))
	for i, g := range got {
		out[i] = g.Pos
	}
	return out
}

// Body records every snapshot observed from a served body, as Conn does
// for a connection (agent serve --memory FILE): a planner that asks the
// body server to recall gets its answer from the file.
type Body struct {
	ipc.Body
	c *Conn
}

// Remembers tells the body server that this body answers recall.
func (b *Body) Remembers() bool { return true }

// Observe observes the body, records what it saw and gives the snapshot the
// world's recall.
func (b *Body) Observe(ctx context.Context) (*world.Snapshot, error) { return b.c.Observe(ctx) }

// Execute runs the action on the body; a result that says the bot died is
// remembered as a death (see Conn.Execute).
func (b *Body) Execute(ctx context.Context, a action.Action) ipc.Result {
	res, _ := b.c.Execute(ctx, a) // bodyConn's Execute never fails
	return res
}

// chatBody is a Body whose body also reports chat.
type chatBody struct {
	*Body
	ipc.ChatSource
}

// WrapBody returns body recording into s (server names the world, as for
// Wrap). A body that reports chat still does.
func WrapBody(body ipc.Body, s *Store, server string, log zerolog.Logger) ipc.Body {
	b := &Body{Body: body, c: Wrap(bodyConn{body}, s, server, log)}
	if cs, ok := body.(ipc.ChatSource); ok {
		return chatBody{Body: b, ChatSource: cs}
	}
	return b
}

// bodyConn lets a Conn observe a body.
type bodyConn struct{ b ipc.Body }

func (c bodyConn) Hello(context.Context) (ipc.Info, error) { return c.b.Info(), nil }
func (c bodyConn) Observe(ctx context.Context) (*world.Snapshot, error) {
	return c.b.Observe(ctx)
}
func (c bodyConn) Execute(ctx context.Context, a action.Action) (ipc.Result, error) {
	return c.b.Execute(ctx, a), nil
}
func (c bodyConn) Close() error { return nil }
