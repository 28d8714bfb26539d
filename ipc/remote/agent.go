package remote

import (
	"context"
	"encoding/json"

	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// AgentHandler answers what a planner may ask its agent while it plans:
// observe (the snapshot without blocks) and the world queries, from the
// world the loop drives. Use it as ClientOptions.Handle.
func AgentHandler(observe func(context.Context) (*world.Snapshot, error), catalog CatalogFunc) func(ctx context.Context, typ string, payload json.RawMessage) (any, error) {
	q := Queries{Observe: observe, Catalog: catalog}
	return func(ctx context.Context, typ string, payload json.RawMessage) (any, error) {
		switch typ {
		case wire.TypeObserve:
			var req wire.ObserveRequest
			if err := decode(payload, &req); err != nil {
				return nil, err
			}
			switch req.Blocks {
			case "", "none":
			case "delta":
				return nil, wire.Errorf(wire.CodeUnsupported, "an agent answering its planner sends no block deltas; use block_at, blocks_in and nearest")
			default:
				return nil, wire.Errorf(wire.CodeBadRequest, "blocks must be none or delta, not %q", req.Blocks)
			}
			snap, err := q.snapshot(ctx)
			if err != nil {
				return nil, err
			}
			return wire.Observation{Snapshot: snap}, nil
		case wire.TypeHello, wire.TypeExecute, wire.TypePlan:
			return nil, wire.Errorf(wire.CodeUnsupported, "an agent does not answer %s from its planner", typ)
		}
		return q.Answer(ctx, typ, payload)
	}
}
