package memory

import (
	"context"
	"sync/atomic"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Conn records every snapshot observed through a body's connection into
// the store, under the server's name and the dimension the snapshot names.
// Memory never fails a run: an error is logged once and recording stops.
// Observe may be called from several goroutines at once (a served body's
// watcher and its queries): the store serialises the writes.
type Conn struct {
	ipc.Conn
	store  *Store
	server string
	log    zerolog.Logger
	broken atomic.Bool
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
	if _, rerr := rec.Observe(snap); rerr != nil && !c.broken.Swap(true) {
		c.log.Warn().Err(rerr).Str("file", c.store.Path()).Msg("memory: recording stopped for this run")
	}
	return snap, nil
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
