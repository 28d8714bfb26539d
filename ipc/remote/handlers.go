package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// handler answers one request; a *wire.Error becomes an error reply with
// its code, any other error an internal one.
type handler func(ctx context.Context, c *conn, payload json.RawMessage) (any, error)

var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		wire.TypeHello:    handleHello,
		wire.TypeExecute:  handleExecute,
		wire.TypeObserve:  handleObserve,
		wire.TypeBlockAt:  handleBlockAt,
		wire.TypeBlocksIn: handleBlocksIn,
		wire.TypeNearest:  handleNearest,
		wire.TypePath:     handlePath,
		wire.TypeCatalog:  handleCatalog,
	}
}

// decode parses a request payload strictly: unknown fields are errors, so a
// misspelt field is reported rather than ignored.
func decode(payload json.RawMessage, v any) error {
	if len(payload) == 0 {
		payload = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return wire.Errorf(wire.CodeBadRequest, "payload: %v", err)
	}
	return nil
}

func handleHello(ctx context.Context, c *conn, payload json.RawMessage) (any, error) {
	var h wire.Hello
	if err := decode(payload, &h); err != nil {
		return nil, err
	}
	c.mu.Lock()
	again := c.hello
	c.mu.Unlock()
	if again {
		return nil, wire.Errorf(wire.CodeBadRequest, "hello was already sent on this connection")
	}
	if h.Protocol != wire.Version {
		return nil, wire.Errorf(wire.CodeVersion, "protocol %d is not supported (this body speaks %d)", h.Protocol, wire.Version)
	}
	if !c.srv.checkToken(h.Token) {
		// One guess per connection: the connection closes after the
		// reply.
		c.mu.Lock()
		c.closeAfter = true
		c.mu.Unlock()
		if h.Token == "" {
			return nil, wire.Errorf(wire.CodeUnauthorized, "this server needs a token in hello")
		}
		return nil, wire.Errorf(wire.CodeUnauthorized, "wrong token")
	}
	switch h.Role {
	case wire.RoleAgent, wire.RoleObserver:
	default:
		return nil, wire.Errorf(wire.CodeUnsupported, "a body serves agents and observers, not role %q", h.Role)
	}
	subs := map[string]bool{}
	for _, e := range h.Events {
		if !slices.Contains(wire.Events, e) {
			return nil, wire.Errorf(wire.CodeBadRequest, "unknown event kind %q", e)
		}
		subs[e] = true
	}
	c.mu.Lock()
	c.hello, c.role, c.subs = true, h.Role, subs
	c.mu.Unlock()
	if len(subs) > 0 {
		c.srv.watch.changed()
	}
	c.log = c.log.With().Str("peer", h.Name).Str("role", h.Role).Logger()
	return c.srv.welcome(), nil
}

func handleExecute(ctx context.Context, c *conn, payload json.RawMessage) (any, error) {
	c.mu.Lock()
	role := c.role
	c.mu.Unlock()
	if role != wire.RoleAgent {
		return nil, wire.Errorf(wire.CodeUnsupported, "an observer cannot execute actions")
	}
	if len(bytes.TrimSpace(payload)) == 0 || bytes.TrimSpace(payload)[0] != '{' {
		return nil, wire.Errorf(wire.CodeBadRequest, "execute needs an action object")
	}
	a, err := action.Unmarshal(payload)
	if err != nil {
		return ipc.Failf(ipc.InvalidParams, 0, "%v", err), nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !c.srv.execMu.TryLock() {
		return nil, wire.Errorf(wire.CodeBusy, "another connection's action is running")
	}
	res, err := ipc.InProcess(c.srv.opts.Body).Execute(ctx, a)
	c.srv.execMu.Unlock()
	c.srv.watch.changed()
	if err != nil {
		return nil, err
	}
	return res, nil
}

func (c *conn) snapshot(ctx context.Context) (*world.Snapshot, error) {
	snap, err := c.srv.opts.Body.Observe(ctx)
	if err != nil {
		return nil, fmt.Errorf("observing: %w", err)
	}
	if snap == nil {
		return nil, fmt.Errorf("the body returned no snapshot")
	}
	return snap, nil
}

func handleObserve(ctx context.Context, c *conn, payload json.RawMessage) (any, error) {
	var req wire.ObserveRequest
	if err := decode(payload, &req); err != nil {
		return nil, err
	}
	switch req.Blocks {
	case "", "none", "delta":
	default:
		return nil, wire.Errorf(wire.CodeBadRequest, "blocks must be none or delta, not %q", req.Blocks)
	}
	c.obsMu.Lock()
	defer c.obsMu.Unlock()
	snap, err := c.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	out := wire.Observation{Snapshot: snap}
	if req.Blocks == "delta" {
		var chunks *world.Chunks
		if snap.Blocks != nil {
			var ok bool
			if chunks, ok = snap.Blocks.(*world.Chunks); !ok {
				return nil, wire.Errorf(wire.CodeUnsupported, "this body's blocks are not chunk storage; use the block queries")
			}
		}
		// The blocks get what the message limit leaves after the
		// snapshot, with a margin: the delta's size is an estimate.
		snapJSON, err := json.Marshal(snap)
		if err != nil {
			return nil, err
		}
		out.Blocks = c.tracker.Delta(chunks, req.Base, (c.srv.opts.MaxMessage-len(snapJSON))*3/4)
	}
	return out, nil
}

func handleBlockAt(ctx context.Context, c *conn, payload json.RawMessage) (any, error) {
	var req wire.BlockAtRequest
	if err := decode(payload, &req); err != nil {
		return nil, err
	}
	snap, err := c.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return wire.BlockReply{Block: snap.BlockAt(req.Pos)}, nil
}

func handleBlocksIn(ctx context.Context, c *conn, payload json.RawMessage) (any, error) {
	var req wire.BlocksInRequest
	if err := decode(payload, &req); err != nil {
		return nil, err
	}
	lo := world.Pos(min(req.From.X, req.To.X), min(req.From.Y, req.To.Y), min(req.From.Z, req.To.Z))
	hi := world.Pos(max(req.From.X, req.To.X), max(req.From.Y, req.To.Y), max(req.From.Z, req.To.Z))
	const span = int64(1) << 26 // past the world border
	dx, dy, dz := int64(hi.X)-int64(lo.X)+1, int64(hi.Y)-int64(lo.Y)+1, int64(hi.Z)-int64(lo.Z)+1
	if dx > span || dy > span || dz > span || dx*dy*dz > wire.MaxBlocksIn {
		return nil, wire.Errorf(wire.CodeTooLarge, "a box of %d×%d×%d blocks exceeds %d blocks", dx, dy, dz, wire.MaxBlocksIn)
	}
	snap, err := c.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	out := wire.BlocksReply{Blocks: []wire.PosBlock{}}
	for y := lo.Y; y <= hi.Y; y++ {
		for z := lo.Z; z <= hi.Z; z++ {
			for x := lo.X; x <= hi.X; x++ {
				p := world.Pos(x, y, z)
				if b := snap.BlockAt(p); !b.IsAir() {
					out.Blocks = append(out.Blocks, wire.PosBlock{Pos: p, Block: b})
				}
			}
		}
	}
	return out, nil
}

func handleNearest(ctx context.Context, c *conn, payload json.RawMessage) (any, error) {
	var req wire.NearestRequest
	if err := decode(payload, &req); err != nil {
		return nil, err
	}
	if req.Radius < 0 || req.Radius > wire.MaxNearestRadius {
		return nil, wire.Errorf(wire.CodeBadRequest, "radius %d out of range 0..%d", req.Radius, wire.MaxNearestRadius)
	}
	if req.K < 1 || req.K > wire.MaxNearestK {
		return nil, wire.Errorf(wire.CodeBadRequest, "k %d out of range 1..%d", req.K, wire.MaxNearestK)
	}
	snap, err := c.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	center := snap.Feet()
	if req.Center != nil {
		center = *req.Center
	}
	out := wire.HitsReply{Hits: []world.BlockHit{}}
	if snap.Blocks != nil {
		if hits := snap.Blocks.Nearest(center, req.Radius, req.K, req.Match.Func()); hits != nil {
			out.Hits = hits
		}
	}
	return out, nil
}

// pathBudget bounds a path query, like the simulator's own moves.
var pathBudget = path.Options{MaxNodes: 200_000, MaxTime: 2 * time.Second}

func handlePath(ctx context.Context, c *conn, payload json.RawMessage) (any, error) {
	var req wire.PathRequest
	if err := decode(payload, &req); err != nil {
		return nil, err
	}
	if req.Radius < 0 || req.Radius > wire.MaxNearestRadius {
		return nil, wire.Errorf(wire.CodeBadRequest, "radius %g out of range 0..%d", req.Radius, wire.MaxNearestRadius)
	}
	snap, err := c.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	if snap.Blocks == nil {
		return nil, wire.Errorf(wire.CodeUnsupported, "this body has no blocks to search")
	}
	from := snap.Feet()
	if req.From != nil {
		from = *req.From
	}
	res, err := path.NewFinder().Find(path.NewBlockGrid(snap.Blocks, nil), from, path.Near(req.To, req.Radius), pathBudget)
	if err != nil {
		return nil, wire.Errorf(wire.CodeBadRequest, "%v", err)
	}
	out := wire.PathReply{Found: res.Complete, Reason: string(res.Reason), Cost: res.Cost, End: from}
	if n := len(res.Steps); n > 0 {
		out.Length = n - 1 // the first step is the start
		out.End = res.Steps[n-1].Pos
	}
	return out, nil
}

func handleCatalog(ctx context.Context, c *conn, payload json.RawMessage) (any, error) {
	if c.srv.opts.Catalog == nil {
		return nil, wire.Errorf(wire.CodeUnsupported, "this server has no skill catalog")
	}
	var req wire.CatalogRequest
	if err := decode(payload, &req); err != nil {
		return nil, err
	}
	tech := req.TechState
	if tech == "" {
		snap, err := c.snapshot(ctx)
		if err != nil {
			return nil, err
		}
		tech = snap.TechState
	}
	skills, err := c.srv.opts.Catalog(tech, req.Packs)
	if err != nil {
		return nil, wire.Errorf(wire.CodeBadRequest, "%v", err)
	}
	return wire.CatalogReply{TechState: tech, Skills: skills}, nil
}
