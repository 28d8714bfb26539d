package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// QueryTypes are the world queries Queries answers.
var QueryTypes = []string{wire.TypeBlockAt, wire.TypeBlocksIn, wire.TypeNearest, wire.TypePath, wire.TypeCatalog, wire.TypeRecall}

// Queries answers the world queries from snapshots: the body server uses
// it, and so can any peer that holds a world (an agent answering its
// planner's queries from its body).
type Queries struct {
	// Observe returns the world now. Required.
	Observe func(context.Context) (*world.Snapshot, error)
	// Catalog answers catalog (nil: unsupported).
	Catalog CatalogFunc
}

// Answer answers one query; the error is a *wire.Error for anything the
// asker got wrong (unknown_type for a type that is not a query).
func (q Queries) Answer(ctx context.Context, typ string, payload json.RawMessage) (any, error) {
	switch typ {
	case wire.TypeBlockAt:
		return q.blockAt(ctx, payload)
	case wire.TypeBlocksIn:
		return q.blocksIn(ctx, payload)
	case wire.TypeNearest:
		return q.nearest(ctx, payload)
	case wire.TypePath:
		return q.path(ctx, payload)
	case wire.TypeCatalog:
		return q.catalog(ctx, payload)
	case wire.TypeRecall:
		return q.recall(ctx, payload)
	}
	return nil, wire.Errorf(wire.CodeUnknownType, "%q is not a world query", typ)
}

func (q Queries) snapshot(ctx context.Context) (*world.Snapshot, error) {
	snap, err := q.Observe(ctx)
	if err != nil {
		return nil, fmt.Errorf("observing: %w", err)
	}
	if snap == nil {
		return nil, fmt.Errorf("the body returned no snapshot")
	}
	return snap, nil
}

func (q Queries) blockAt(ctx context.Context, payload json.RawMessage) (any, error) {
	var req wire.BlockAtRequest
	if err := decode(payload, &req); err != nil {
		return nil, err
	}
	snap, err := q.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return wire.BlockReply{Block: snap.BlockAt(req.Pos)}, nil
}

func (q Queries) blocksIn(ctx context.Context, payload json.RawMessage) (any, error) {
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
	snap, err := q.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return blocksJSON(snap, lo, hi)
}

// blocksJSON is the blocks_in reply for the box lo..hi as JSON: the form
// wire.BlocksReply marshals to, written from the blocks read, so a box of
// 32,768 blocks is one buffer of exactly its JSON and not a slice of Go
// blocks besides. Each kind of block is encoded once; a first pass over the
// box sizes the buffer.
func blocksJSON(snap *world.Snapshot, lo, hi world.BlockPos) (json.RawMessage, error) {
	kinds := map[string][]byte{}
	var failed error
	each := func(f func(x, y, z int, block []byte)) {
		for y := lo.Y; y <= hi.Y; y++ {
			for z := lo.Z; z <= hi.Z; z++ {
				for x := lo.X; x <= hi.X; x++ {
					b := snap.BlockAt(world.Pos(x, y, z))
					if b.IsAir() {
						continue
					}
					key := b.ID + "\x00" + strconv.Itoa(b.Meta) + "\x00" + strings.Join(b.Tags, ",")
					enc, ok := kinds[key]
					if !ok {
						var buf bytes.Buffer
						e := json.NewEncoder(&buf)
						e.SetEscapeHTML(false) // as the envelope is encoded
						if err := e.Encode(b); err != nil {
							failed = err
							return
						}
						enc = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
						kinds[key] = enc
					}
					f(x, y, z, enc)
				}
			}
		}
	}
	const (
		head, tail = `{"blocks":[`, `]}`
		pos, y, z  = `{"pos":{"x":`, `,"y":`, `,"z":`
		block      = `},"block":`
	)
	var digits [20]byte
	size, n := len(head)+len(tail), 0
	each(func(bx, by, bz int, enc []byte) {
		size += len(pos) + len(y) + len(z) + len(block) + len(enc) + 1 +
			len(strconv.AppendInt(digits[:0], int64(bx), 10)) +
			len(strconv.AppendInt(digits[:0], int64(by), 10)) +
			len(strconv.AppendInt(digits[:0], int64(bz), 10))
		n++
	})
	if failed != nil {
		return nil, failed
	}
	out := make([]byte, 0, size+max(n-1, 0))
	out = append(out, head...)
	each(func(bx, by, bz int, enc []byte) {
		if len(out) > len(head) {
			out = append(out, ',')
		}
		out = append(out, pos...)
		out = strconv.AppendInt(out, int64(bx), 10)
		out = append(out, y...)
		out = strconv.AppendInt(out, int64(by), 10)
		out = append(out, z...)
		out = strconv.AppendInt(out, int64(bz), 10)
		out = append(out, block...)
		out = append(out, enc...)
		out = append(out, '}')
	})
	return append(out, tail...), nil
}

func (q Queries) nearest(ctx context.Context, payload json.RawMessage) (any, error) {
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
	snap, err := q.snapshot(ctx)
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

func (q Queries) path(ctx context.Context, payload json.RawMessage) (any, error) {
	var req wire.PathRequest
	if err := decode(payload, &req); err != nil {
		return nil, err
	}
	if req.Radius < 0 || req.Radius > wire.MaxNearestRadius {
		return nil, wire.Errorf(wire.CodeBadRequest, "radius %g out of range 0..%d", req.Radius, wire.MaxNearestRadius)
	}
	snap, err := q.snapshot(ctx)
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

func (q Queries) catalog(ctx context.Context, payload json.RawMessage) (any, error) {
	if q.Catalog == nil {
		return nil, wire.Errorf(wire.CodeUnsupported, "this server has no skill catalog")
	}
	var req wire.CatalogRequest
	if err := decode(payload, &req); err != nil {
		return nil, err
	}
	tech := req.TechState
	if tech == "" {
		snap, err := q.snapshot(ctx)
		if err != nil {
			return nil, err
		}
		tech = snap.TechState
	}
	skills, err := q.Catalog(tech, req.Packs)
	if err != nil {
		return nil, wire.Errorf(wire.CodeBadRequest, "%v", err)
	}
	return wire.CatalogReply{TechState: tech, Skills: skills}, nil
}

// recall answers from the memory the snapshot carries (a body that
// remembers: agent serve --memory FILE, or an agent run with memory).
func (q Queries) recall(ctx context.Context, payload json.RawMessage) (any, error) {
	var req wire.RecallRequest
	if err := decode(payload, &req); err != nil {
		return nil, err
	}
	id, meta, err := world.SplitID(req.Block)
	if err != nil {
		return nil, wire.Errorf(wire.CodeBadRequest, "block: %v", err)
	}
	if req.MaxDistance < 1 || req.MaxDistance > wire.MaxRecallDistance {
		return nil, wire.Errorf(wire.CodeBadRequest, "max_distance %d out of range 1..%d", req.MaxDistance, wire.MaxRecallDistance)
	}
	if req.K < 1 || req.K > wire.MaxRecallK {
		return nil, wire.Errorf(wire.CodeBadRequest, "k %d out of range 1..%d", req.K, wire.MaxRecallK)
	}
	snap, err := q.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	if snap.Recall == nil {
		return nil, wire.Errorf(wire.CodeUnsupported, "the body remembers nothing (agent serve --memory FILE, or a run with memory)")
	}
	pos := snap.Recall.RecallBlocks(id, meta, snap.Feet(), req.MaxDistance, req.K)
	if pos == nil {
		pos = []world.BlockPos{}
	}
	return wire.RecallReply{Positions: pos}, nil
}
