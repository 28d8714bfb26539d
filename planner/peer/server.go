package peer

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// PlannerServerOptions configure a PlannerServer.
type PlannerServerOptions struct {
	// Planner answers the plan requests. Required.
	Planner loop.Planner
	// Name says what the planner is, in the hello reply.
	Name string
	// Token, when not empty, must be presented in the hello. It is never
	// logged.
	Token string
	// MaxMessage limits one message line (0: wire.DefaultMaxMessage).
	MaxMessage int
	Log        zerolog.Logger
}

// PlannerServer serves a loop.Planner over the wire protocol: it answers
// an agent's hello as a planner and each plan request with the planner's
// decision. While it plans, the planner can ask the agent about the world
// with the Agent that AgentOf finds in its context.
type PlannerServer struct {
	opts PlannerServerOptions
	wg   sync.WaitGroup
}

// NewPlannerServer checks the options.
func NewPlannerServer(opts PlannerServerOptions) (*PlannerServer, error) {
	if opts.Planner == nil {
		return nil, errors.New("peer: PlannerServerOptions.Planner is required")
	}
	opts.MaxMessage = wire.Limit(opts.MaxMessage)
	return &PlannerServer{opts: opts}, nil
}

// Serve accepts agents on l until it is closed, serving each in its own
// goroutine; it waits for them before it returns.
func (s *PlannerServer) Serve(l net.Listener) error {
	defer s.wg.Wait()
	for {
		c, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("peer: accepting: %w", err)
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.ServeConn(c)
		}()
	}
}

// Agent is the agent a plan request came from: the planner asks it about
// the world (observe, block_at, blocks_in, nearest, path, catalog).
type Agent struct{ pc *plannerConn }

type agentKey struct{}

// AgentOf returns the agent whose plan request ctx belongs to (nil outside
// a PlannerServer's Plan call).
func AgentOf(ctx context.Context) *Agent {
	a, _ := ctx.Value(agentKey{}).(*Agent)
	return a
}

// Call sends a request to the agent and decodes its reply into out; an
// error reply is a *wire.Error.
func (a *Agent) Call(ctx context.Context, typ string, req, out any) error {
	return a.pc.call(ctx, typ, req, out)
}

// maxIncoming bounds an agent's plan requests answered at once.
const maxIncoming = 32

// plannerConn is one agent's connection to a PlannerServer.
type plannerConn struct {
	s   *PlannerServer
	rwc io.ReadWriteCloser
	w   *wire.Writer
	ctx context.Context

	mu       sync.Mutex
	hello    bool
	nextID   uint64
	pending  map[string]chan *wire.Message
	incoming map[string]context.CancelFunc
	wg       sync.WaitGroup
}

// ServeConn serves one agent until the connection ends; it closes rwc.
func (s *PlannerServer) ServeConn(rwc io.ReadWriteCloser) {
	ctx, cancel := context.WithCancel(context.Background())
	pc := &plannerConn{s: s, rwc: rwc, w: wire.NewWriter(rwc, s.opts.MaxMessage), ctx: ctx,
		pending: map[string]chan *wire.Message{}, incoming: map[string]context.CancelFunc{}}
	r := wire.NewReader(rwc, s.opts.MaxMessage)
	for {
		line, err := r.Next()
		var tl *wire.TooLargeError
		if errors.As(err, &tl) {
			pc.reply(nil, wire.TypeError, wire.Errorf(wire.CodeTooLarge, "%v", tl))
			continue
		}
		if err != nil {
			break
		}
		pc.handle(line)
	}
	cancel()
	rwc.Close()
	pc.mu.Lock()
	for _, ch := range pc.pending {
		close(ch)
	}
	pc.pending = map[string]chan *wire.Message{}
	pc.mu.Unlock()
	pc.wg.Wait()
}

func (pc *plannerConn) reply(id json.RawMessage, typ string, payload any) {
	line, err := wire.Encode(id, typ, payload)
	if err != nil {
		line, _ = wire.Encode(id, wire.TypeError, wire.Errorf(wire.CodeInternal, "%v", err))
	}
	if err := pc.w.WriteLine(line); err != nil && wire.CodeOf(err) == wire.CodeTooLarge {
		line, _ = wire.Encode(id, wire.TypeError, err)
		pc.w.WriteLine(line)
	}
}

func (pc *plannerConn) handle(line []byte) {
	m, err := wire.Decode(line)
	if err != nil {
		var id json.RawMessage
		if m != nil {
			id = m.ID
		}
		pc.reply(id, wire.TypeError, err)
		return
	}
	switch {
	case m.Type == wire.TypeReply || m.Type == wire.TypeError:
		pc.mu.Lock()
		ch := pc.pending[string(m.ID)]
		delete(pc.pending, string(m.ID))
		pc.mu.Unlock()
		if ch != nil {
			ch <- m
		}
		return
	case m.Type == wire.TypeCancel && len(m.ID) == 0:
		var n wire.CancelNotice
		if json.Unmarshal(m.Payload, &n) == nil {
			pc.mu.Lock()
			if cancel := pc.incoming[string(n.ID)]; cancel != nil {
				cancel()
			}
			pc.mu.Unlock()
		}
		return
	case m.IsEvent():
		return // a planner subscribes to nothing
	}
	pc.mu.Lock()
	hello := pc.hello
	_, dup := pc.incoming[string(m.ID)]
	busy := len(pc.incoming) >= maxIncoming
	pc.mu.Unlock()
	switch {
	case m.Type == wire.TypeHello:
		typ, out := pc.answerHello(m.Payload)
		pc.reply(m.ID, typ, out)
		return
	case m.Type != wire.TypePlan:
		pc.reply(m.ID, wire.TypeError, wire.Errorf(wire.CodeUnknownType, "a planner answers hello and plan, not %q", m.Type))
		return
	case !hello:
		pc.reply(m.ID, wire.TypeError, wire.Errorf(wire.CodeUnauthorized, "send hello first"))
		return
	case dup:
		pc.reply(m.ID, wire.TypeError, wire.Errorf(wire.CodeBadRequest, "request id %s is already in flight", m.ID))
		return
	case busy:
		pc.reply(m.ID, wire.TypeError, wire.Errorf(wire.CodeBusy, "%d requests in flight", maxIncoming))
		return
	}
	ctx, cancel := context.WithCancel(context.WithValue(pc.ctx, agentKey{}, &Agent{pc}))
	pc.mu.Lock()
	pc.incoming[string(m.ID)] = cancel
	pc.mu.Unlock()
	pc.wg.Add(1)
	go func() {
		defer pc.wg.Done()
		out, err := pc.plan(ctx, m.Payload)
		cancel()
		pc.mu.Lock()
		delete(pc.incoming, string(m.ID))
		pc.mu.Unlock()
		if err != nil {
			pc.reply(m.ID, wire.TypeError, err)
			return
		}
		pc.reply(m.ID, wire.TypeReply, out)
	}()
}

// answerHello returns the reply type and payload for a hello.
func (pc *plannerConn) answerHello(payload json.RawMessage) (string, any) {
	var h wire.Hello
	if err := wire.DecodePayload(payload, &h); err != nil {
		return wire.TypeError, err
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	switch {
	case pc.hello:
		return wire.TypeError, wire.Errorf(wire.CodeBadRequest, "hello was already sent on this connection")
	case h.Protocol != wire.Version:
		return wire.TypeError, wire.Errorf(wire.CodeVersion, "protocol %d is not supported (this planner speaks %d)", h.Protocol, wire.Version)
	case pc.s.opts.Token != "" && subtle.ConstantTimeCompare([]byte(h.Token), []byte(pc.s.opts.Token)) != 1:
		return wire.TypeError, wire.Errorf(wire.CodeUnauthorized, "missing or wrong token")
	case h.Role != wire.RoleAgent:
		return wire.TypeError, wire.Errorf(wire.CodeUnsupported, "a planner serves agents, not role %q", h.Role)
	}
	pc.hello = true
	return wire.TypeReply, wire.Welcome{Protocol: wire.Version, Role: wire.RolePlanner, Name: pc.s.opts.Name,
		Actions: []string{}, Events: []string{}, Requests: wire.PlannerRequests, MaxMessage: pc.s.opts.MaxMessage}
}

// plan decodes a plan request, asks the planner and encodes its decision.
func (pc *plannerConn) plan(ctx context.Context, payload json.RawMessage) (out any, err error) {
	defer func() {
		if v := recover(); v != nil {
			pc.s.opts.Log.Error().Interface("panic", v).Msg("planner panicked")
			out, err = nil, wire.Errorf(wire.CodeInternal, "the planner failed")
		}
	}()
	var req wire.PlanRequest
	if err := wire.DecodePayload(payload, &req); err != nil {
		return nil, err
	}
	var goal loop.Goal
	var obs loop.Observation
	var catalog []*registry.Description
	for _, p := range []struct {
		what string
		raw  json.RawMessage
		v    any
	}{{"goal", req.Goal, &goal}, {"observation", req.Observation, &obs}, {"catalog", req.Catalog, &catalog}} {
		if len(p.raw) == 0 {
			return nil, wire.Errorf(wire.CodeBadRequest, "plan: no %s", p.what)
		}
		if err := json.Unmarshal(p.raw, p.v); err != nil {
			return nil, wire.Errorf(wire.CodeBadRequest, "plan: %s: %v", p.what, err)
		}
	}
	dec, err := pc.s.opts.Planner.Plan(ctx, goal, obs, catalog)
	if err != nil {
		if ctx.Err() != nil {
			return nil, wire.Errorf(wire.CodeCancelled, "plan cancelled")
		}
		return nil, wire.Errorf(wire.CodeInternal, "%v", err)
	}
	a := wire.PlanAnswer{Done: dec.Done, Reason: dec.Reason}
	if dec.Invocation != nil {
		a.Invocation = &wire.PlanInvocation{Skill: dec.Invocation.Skill, Params: dec.Invocation.Params}
	}
	return a, nil
}

func (pc *plannerConn) call(ctx context.Context, typ string, req, out any) error {
	ch := make(chan *wire.Message, 1)
	pc.mu.Lock()
	pc.nextID++
	id := json.RawMessage(strconv.Quote("q" + strconv.FormatUint(pc.nextID, 10)))
	pc.pending[string(id)] = ch
	pc.mu.Unlock()
	forget := func() {
		pc.mu.Lock()
		delete(pc.pending, string(id))
		pc.mu.Unlock()
	}
	line, err := wire.Encode(id, typ, req)
	if err == nil {
		err = pc.w.WriteLine(line)
	}
	if err != nil {
		forget()
		return fmt.Errorf("sending %s: %w", typ, err)
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return fmt.Errorf("%w: the agent closed the connection", remote.ErrClosed)
		}
		if m.Type == wire.TypeError {
			var e wire.Error
			if err := json.Unmarshal(m.Payload, &e); err != nil {
				return fmt.Errorf("%s: unreadable error reply: %w", typ, err)
			}
			return &e
		}
		if out == nil {
			return nil
		}
		if err := json.Unmarshal(m.Payload, out); err != nil {
			return fmt.Errorf("%s reply: %w", typ, err)
		}
		return nil
	case <-ctx.Done():
		forget()
		if line, err := wire.Encode(nil, wire.TypeCancel, wire.CancelNotice{ID: id}); err == nil {
			pc.w.WriteLine(line)
		}
		return ctx.Err()
	}
}
