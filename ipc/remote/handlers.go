package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"slices"
	"time"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// handler answers one request; a *wire.Error becomes an error reply with
// its code, any other error an internal one.
type handler func(ctx context.Context, c *conn, payload json.RawMessage) (any, error)

var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		wire.TypeHello:   handleHello,
		wire.TypeExecute: handleExecute,
		wire.TypeObserve: handleObserve,
	}
	for _, t := range QueryTypes {
		handlers[t] = func(ctx context.Context, c *conn, payload json.RawMessage) (any, error) {
			return c.srv.queries.Answer(ctx, t, payload)
		}
	}
}

// decode parses a request payload strictly (wire.DecodePayload).
func decode(payload json.RawMessage, v any) error { return wire.DecodePayload(payload, v) }

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
	if c.srv.opts.Token != "" {
		// One guess per connection: a refused one closes it after the
		// reply. Repeated guesses from one address are slowed.
		host, now := c.peerHost(), time.Now()
		refuse := func(err error) (any, error) {
			c.mu.Lock()
			c.closeAfter = true
			c.mu.Unlock()
			return nil, err
		}
		if !c.srv.fails.Allowed(host, now) {
			c.log.Warn().Str("remote", host).Msg("hello refused unchecked: too many wrong tokens from this address")
			return refuse(wire.Errorf(wire.CodeUnauthorized, "too many wrong tokens from this address; try again in %s", authguard.Every))
		}
		if !c.srv.checkToken(h.Token) {
			c.srv.fails.Fail(host, now)
			c.log.Warn().Str("remote", host).Msg("hello refused: missing or wrong token")
			if h.Token == "" {
				return refuse(wire.Errorf(wire.CodeUnauthorized, "this server needs a token in hello"))
			}
			return refuse(wire.Errorf(wire.CodeUnauthorized, "wrong token"))
		}
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
	var chatFrom uint64
	if cs, ok := c.srv.opts.Body.(ipc.ChatSource); ok && subs[wire.EventChat] {
		_, chatFrom = cs.ChatSince(math.MaxUint64)
	}
	c.mu.Lock()
	c.hello, c.role, c.subs, c.chatNext = true, h.Role, subs, chatFrom
	c.mu.Unlock()
	if len(subs) > 0 {
		c.srv.watch.baseline()
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
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(payload, &head) == nil && head.Type != "" && !action.Kind(head.Type).Valid() {
		// A kind outside the taxonomy is one this body cannot execute,
		// as in process; bad parameters of a known kind are invalid_params.
		return ipc.Failf(ipc.UnsupportedAction, 0, "%s body does not support %q", c.srv.opts.Body.Info().Name, head.Type), nil
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
	return c.srv.queries.snapshot(ctx)
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
		var chunks *chunk.Chunks
		if snap.Blocks != nil {
			var ok bool
			if chunks, ok = world.ChunksOf(snap.Blocks); !ok {
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
