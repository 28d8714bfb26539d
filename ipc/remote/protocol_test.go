package remote_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// raw is a line-level client, for what the Go client never sends.
type raw struct {
	t  *testing.T
	c  net.Conn
	sc *bufio.Scanner
}

func rawDial(t *testing.T, addr string) *raw {
	t.Helper()
	a, err := wire.ParseAddr(addr)
	require.NoError(t, err)
	c, err := wire.Dial(context.Background(), a)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	sc := bufio.NewScanner(c)
	sc.Buffer(nil, 16<<20)
	return &raw{t: t, c: c, sc: sc}
}

func (r *raw) send(line string) {
	r.t.Helper()
	_, err := r.c.Write([]byte(line + "\n"))
	require.NoError(r.t, err)
}

// next reads the next message that is not an event.
func (r *raw) next() wire.Message {
	r.t.Helper()
	r.c.SetReadDeadline(testdeadline.At(r.t))
	for {
		require.True(r.t, r.sc.Scan(), "no reply: %v", r.sc.Err())
		var m wire.Message
		require.NoError(r.t, json.Unmarshal(r.sc.Bytes(), &m), r.sc.Text())
		assert.Equal(r.t, wire.Version, m.V)
		if m.Type == wire.TypeReply || m.Type == wire.TypeError {
			return m
		}
	}
}

func (r *raw) expectError(id string, code wire.ErrorCode) string {
	r.t.Helper()
	m := r.next()
	require.Equal(r.t, wire.TypeError, m.Type, string(m.Payload))
	assert.Equal(r.t, id, string(m.ID))
	var e wire.Error
	require.NoError(r.t, json.Unmarshal(m.Payload, &e))
	assert.Equal(r.t, code, e.Code, e.Message)
	return e.Message
}

func (r *raw) expectReply(id string, out any) {
	r.t.Helper()
	m := r.next()
	require.Equal(r.t, wire.TypeReply, m.Type, string(m.Payload))
	assert.Equal(r.t, id, string(m.ID))
	if out != nil {
		require.NoError(r.t, json.Unmarshal(m.Payload, out))
	}
}

const helloLine = `{"v":1,"id":1,"type":"hello","payload":{"protocol":1,"role":"agent","name":"raw"}}`

// TestBadMessagesKeepTheConnection: malformed JSON, an unknown type, a
// wrong version, a request before hello and an over-long line each get an
// error reply, and the connection goes on.
func TestBadMessagesKeepTheConnection(t *testing.T) {
	for _, network := range []string{"unix", "tcp"} {
		t.Run(network, func(t *testing.T) {
			addr, _ := serve(t, remote.ServerOptions{Body: newSim(t, 0), MaxMessage: 4096}, network)
			r := rawDial(t, addr)
			r.send(`{"v":1,"id":7,"type":"observe"}`)
			r.expectError("7", wire.CodeUnauthorized)
			r.send(`{"v":1,"id":`)
			r.expectError("", wire.CodeBadRequest)
			r.send(helloLine)
			var w wire.Welcome
			r.expectReply("1", &w)
			assert.Equal(t, "sim", w.Name)
			assert.Equal(t, 4096, w.MaxMessage)
			r.send(`{"v":1,"id":"abc","type":"frobnicate"}`)
			r.expectError(`"abc"`, wire.CodeUnknownType)
			r.send(`{"v":2,"id":3,"type":"observe"}`)
			r.expectError("3", wire.CodeVersion)
			r.send(`{"v":1,"id":{"x":1},"type":"observe"}`)
			r.expectError("", wire.CodeBadRequest)
			r.send(`{"v":1,"id":4}`)
			r.expectError("4", wire.CodeBadRequest)
			r.send(`{"v":1,"id":5,"type":"observe","payload":` + strings.Repeat(" ", 1<<20) + `{}}`)
			msg := r.expectError("", wire.CodeTooLarge)
			assert.Contains(t, msg, "exceeds the limit of 4096 bytes")
			r.send(`{"v":1,"id":6,"type":"observe","payload":{"bogus":1}}`)
			r.expectError("6", wire.CodeBadRequest)
			r.send(`{"v":1,"type":"whatever"}`)
			r.expectError("", wire.CodeUnknownType)
			r.send(`{"v":1,"id":8,"type":"hello","payload":{"protocol":1,"role":"agent"}}`)
			r.expectError("8", wire.CodeBadRequest)
			var obs wire.Observation
			r.send(`{"v":1,"id":9,"type":"observe"}`)
			r.expectReply("9", &obs)
			assert.Equal(t, "Bot", obs.Snapshot.Player.Name)
			assert.Nil(t, obs.Blocks, "no blocks unless asked")
		})
	}
}

func TestHello(t *testing.T) {
	addr, _ := serve(t, remote.ServerOptions{Body: newSim(t, 0), Token: "tok-123"}, "tcp")
	for _, tc := range []struct {
		payload string
		code    wire.ErrorCode
	}{
		{`{"protocol":1,"role":"agent"}`, wire.CodeUnauthorized},
		{`{"protocol":1,"role":"agent","token":"tok-124"}`, wire.CodeUnauthorized},
		{`{"protocol":2,"role":"agent","token":"tok-123"}`, wire.CodeVersion},
		{`{"protocol":1,"role":"planner","token":"tok-123"}`, wire.CodeUnsupported},
		{`{"protocol":1,"role":"observer","token":"tok-123","events":["weather"]}`, wire.CodeBadRequest},
		{`{"protocol":1,"role":"observer","token":"tok-123","events":["time"]}`, ""},
	} {
		r := rawDial(t, addr)
		r.send(`{"v":1,"id":1,"type":"hello","payload":` + tc.payload + `}`)
		if tc.code == "" {
			var w wire.Welcome
			r.expectReply("1", &w)
			assert.Equal(t, wire.RoleBody, w.Role)
			assert.Contains(t, w.Actions, "move_to")
			assert.Equal(t, wire.Events, w.Events)
			continue
		}
		msg := r.expectError("1", tc.code)
		assert.NotContains(t, msg, "tok-12", "errors never show a token")
		if tc.code == wire.CodeUnauthorized {
			// One guess per connection.
			assert.False(t, r.sc.Scan(), "the connection closes after a wrong token")
			assert.NoError(t, r.sc.Err(), "closed (EOF), not a read timeout")
			continue
		}
		// Still not authenticated.
		r.send(`{"v":1,"id":2,"type":"observe"}`)
		r.expectError("2", wire.CodeUnauthorized)
	}
}

// TestQueries answers every world query as the in-process snapshot does.
func TestQueries(t *testing.T) {
	w := newSim(t, 0)
	reg := shipped(t)
	catalog := func(tech string, packs []string) (json.RawMessage, error) {
		if packs == nil {
			packs = reg.Packs().Names()
		}
		d, err := reg.DescribeForTechState(tech, packs)
		if err != nil {
			return nil, err
		}
		return json.Marshal(d)
	}
	addr, _ := serve(t, remote.ServerOptions{Body: w, Catalog: catalog}, "unix")
	c := dial(t, addr, remote.ClientOptions{Role: wire.RoleObserver})
	ctx := context.Background()
	snap, err := w.Observe(ctx)
	require.NoError(t, err)
	feet := snap.Feet()
	logs := snap.NearestBlocks(48, 3, "log")
	require.NotEmpty(t, logs)

	var b wire.BlockReply
	require.NoError(t, c.Call(ctx, wire.TypeBlockAt, wire.BlockAtRequest{Pos: logs[0].Pos}, &b))
	assert.Equal(t, logs[0].Block, b.Block)

	var in wire.BlocksReply
	lo, hi := feet.Add(-3, -2, -3), feet.Add(3, 2, 3)
	require.NoError(t, c.Call(ctx, wire.TypeBlocksIn, wire.BlocksInRequest{From: hi, To: lo}, &in))
	n := 0
	for y := lo.Y; y <= hi.Y; y++ {
		for z := lo.Z; z <= hi.Z; z++ {
			for x := lo.X; x <= hi.X; x++ {
				if p := world.Pos(x, y, z); !snap.BlockAt(p).IsAir() {
					require.Less(t, n, len(in.Blocks))
					assert.Equal(t, wire.PosBlock{Pos: p, Block: snap.BlockAt(p)}, in.Blocks[n])
					n++
				}
			}
		}
	}
	assert.Len(t, in.Blocks, n)
	assert.Greater(t, n, 0)
	err = c.Call(ctx, wire.TypeBlocksIn, wire.BlocksInRequest{From: lo, To: lo.Add(32, 32, 32)}, nil)
	assert.Equal(t, wire.CodeTooLarge, wire.CodeOf(err), "%v", err)
	err = c.Call(ctx, wire.TypeBlocksIn, wire.BlocksInRequest{From: world.Pos(-1<<40, 0, 0), To: world.Pos(1<<40, 0, 0)}, nil)
	assert.Equal(t, wire.CodeTooLarge, wire.CodeOf(err), "%v", err)
	// 2³² × 2³² × 1 is 0 in 64-bit arithmetic: each side is checked first.
	err = c.Call(ctx, wire.TypeBlocksIn, wire.BlocksInRequest{From: world.Pos(-1<<31, -1<<31, 0), To: world.Pos(1<<31-1, 1<<31-1, 0)}, nil)
	assert.Equal(t, wire.CodeTooLarge, wire.CodeOf(err), "%v", err)
	require.NoError(t, c.Call(ctx, wire.TypeBlocksIn, wire.BlocksInRequest{From: lo, To: lo.Add(31, 31, 31)}, nil), "32³ is the limit")

	var hits wire.HitsReply
	require.NoError(t, c.Call(ctx, wire.TypeNearest, wire.NearestRequest{Match: wire.Matcher{Tags: []string{"log"}}, Radius: 48, K: 3}, &hits))
	assert.Equal(t, logs, hits.Hits)
	require.NoError(t, c.Call(ctx, wire.TypeNearest, wire.NearestRequest{Match: wire.Matcher{IDs: []string{logs[0].Block.ID}}, Radius: 48, K: 3}, &hits))
	assert.Equal(t, logs, hits.Hits)
	for _, bad := range []wire.NearestRequest{{Radius: 129, K: 1}, {Radius: 5, K: 0}, {Radius: -1, K: 1}, {Radius: 5, K: 1025}} {
		err := c.Call(ctx, wire.TypeNearest, bad, nil)
		assert.Equal(t, wire.CodeBadRequest, wire.CodeOf(err), "%+v: %v", bad, err)
	}

	var route wire.PathReply
	target := logs[0].Pos
	require.NoError(t, c.Call(ctx, wire.TypePath, wire.PathRequest{To: target, Radius: 3}, &route))
	assert.True(t, route.Found, "%+v", route)
	assert.Equal(t, "reached", route.Reason)
	assert.Greater(t, route.Length, 0)
	assert.Greater(t, route.Cost, 0.0)
	assert.LessOrEqual(t, route.End.DistSq(target), 9)
	require.NoError(t, c.Call(ctx, wire.TypePath, wire.PathRequest{From: &feet, To: feet}, &route))
	assert.Equal(t, wire.PathReply{Found: true, Reason: "reached", End: feet}, route)

	var cat wire.CatalogReply
	require.NoError(t, c.Call(ctx, wire.TypeCatalog, wire.CatalogRequest{}, &cat))
	assert.Equal(t, snap.TechState, cat.TechState)
	want, err := catalog(snap.TechState, nil)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(cat.Skills))
	err = c.Call(ctx, wire.TypeCatalog, wire.CatalogRequest{Packs: []string{"no_such_pack"}}, nil)
	assert.Equal(t, wire.CodeBadRequest, wire.CodeOf(err), "%v", err)

	_, err = c.Execute(ctx, action.Wait{Ticks: 5})
	assert.Equal(t, wire.CodeUnsupported, wire.CodeOf(err), "an observer does not act: %v", err)
}

// blocking is a body whose actions wait until released or cancelled.
type blocking struct {
	started chan struct{}
	release chan struct{}
	ended   chan error
}

func newBlocking() *blocking {
	return &blocking{started: make(chan struct{}, 8), release: make(chan struct{}), ended: make(chan error, 8)}
}

func (b *blocking) Info() ipc.Info {
	return ipc.Info{Name: "blocking", Supports: action.Kinds()}
}

func (b *blocking) Observe(context.Context) (*world.Snapshot, error) {
	return &world.Snapshot{Tick: 1, Inventory: world.NewInventory()}, nil
}

func (b *blocking) Execute(ctx context.Context, a action.Action) ipc.Result {
	b.started <- struct{}{}
	select {
	case <-b.release:
		b.ended <- nil
		return ipc.Result{Code: ipc.OK, Ticks: 1}
	case <-ctx.Done():
		b.ended <- ctx.Err()
		return ipc.Failf(ipc.Interrupted, 0, "%v", ctx.Err())
	}
}

// waitFor polls cond until it holds, up to shortly before go test's
// -timeout: only a broken server gets there, however loaded the machine.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := testdeadline.At(t)
	for !cond() {
		if !deadline.IsZero() && time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		// Sleep reason: cond reads the server's counters (connections,
		// events received by a client callback), which have no event to
		// wait on; the poll decides nothing by its timing.
		time.Sleep(2 * time.Millisecond)
	}
}

// goroutineParked says whether a goroutine whose stack holds every one of
// frames is parked in the state (runtime.Stack's "[IO wait", for one).
func goroutineParked(state string, frames ...string) bool {
	buf := make([]byte, 4<<20)
	n := runtime.Stack(buf, true)
next:
	for _, g := range strings.Split(string(buf[:n]), "\n\n") {
		if !strings.Contains(g, state) {
			continue
		}
		for _, f := range frames {
			if !strings.Contains(g, f) {
				continue next
			}
		}
		return true
	}
	return false
}

// TestOneActionAtATime: actions sent on one connection run one after
// another, in order; an execute from another connection while one runs is
// busy; queries are answered meanwhile.
func TestOneActionAtATime(t *testing.T) {
	b := newBlocking()
	addr, _ := serve(t, remote.ServerOptions{Body: b}, "unix")
	c := dial(t, addr, remote.ClientOptions{})
	other := dial(t, addr, remote.ClientOptions{})
	ctx := context.Background()
	done := make(chan ipc.Result, 2)
	for range 2 {
		go func() {
			res, err := c.Execute(ctx, action.Wait{Ticks: 1})
			assert.NoError(t, err)
			done <- res
		}()
	}
	<-b.started
	_, err := other.Execute(ctx, action.Wait{Ticks: 1})
	assert.Equal(t, wire.CodeBusy, wire.CodeOf(err), "%v", err)
	select {
	case <-b.started:
		t.Fatal("a second action started while the first runs")
	case <-time.After(20 * time.Millisecond):
	}
	snap, err := c.Observe(ctx)
	require.NoError(t, err, "queries are answered while an action runs")
	assert.Equal(t, int64(1), snap.Tick)
	var b2 wire.BlockReply
	require.NoError(t, other.Call(ctx, wire.TypeBlockAt, wire.BlockAtRequest{}, &b2))
	b.release <- struct{}{}
	assert.Equal(t, ipc.OK, (<-done).Code)
	<-b.started // the queued one runs now
	b.release <- struct{}{}
	assert.Equal(t, ipc.OK, (<-done).Code)
}

// TestCancelAndDrop: cancelling a request's context cancels it on the
// server; a dropped connection cancels what it had in flight and is freed.
func TestCancelAndDrop(t *testing.T) {
	b := newBlocking()
	addr, srv := serve(t, remote.ServerOptions{Body: b}, "unix")
	c := dial(t, addr, remote.ClientOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan ipc.Result, 1)
	go func() {
		res, err := c.Execute(ctx, action.Wait{Ticks: 1})
		assert.NoError(t, err)
		done <- res
	}()
	<-b.started
	assert.Equal(t, 1, srv.InFlight())
	cancel()
	assert.Equal(t, ipc.Interrupted, (<-done).Code)
	assert.ErrorIs(t, <-b.ended, context.Canceled, "the body saw the cancellation")
	waitFor(t, "the request to end", func() bool { return srv.InFlight() == 0 })

	// A dropped connection.
	c2 := dial(t, addr, remote.ClientOptions{})
	go c2.Execute(context.Background(), action.Wait{Ticks: 1})
	<-b.started
	require.Equal(t, 2, srv.Conns())
	c2.Close()
	assert.ErrorIs(t, <-b.ended, context.Canceled)
	waitFor(t, "the connection to be freed", func() bool { return srv.Conns() == 1 && srv.InFlight() == 0 })

	// Closing the server tells the client.
	srv.Close()
	select {
	case <-c.Done():
	case <-testdeadline.After(t):
		t.Fatal("the client did not notice the server closing")
	}
	_, err := c.Execute(context.Background(), action.Wait{Ticks: 1})
	assert.ErrorIs(t, err, ipc.ErrClosed)
}

type events struct {
	mu   sync.Mutex
	list []string
	by   map[string][]json.RawMessage
}

func (e *events) on(kind string, p json.RawMessage) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.by == nil {
		e.by = map[string][]json.RawMessage{}
	}
	e.list = append(e.list, kind)
	e.by[kind] = append(e.by[kind], append(json.RawMessage(nil), p...))
}

func (e *events) get(kind string) []json.RawMessage {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.by[kind]
}

// TestEvents: an observer hears what an agent's actions change.
func TestEvents(t *testing.T) {
	w := newSim(t, 0)
	addr, srv := serve(t, remote.ServerOptions{Body: w, Poll: -1}, "unix")
	var ev events
	obs := dial(t, addr, remote.ClientOptions{Role: wire.RoleObserver, Events: wire.Events, OnEvent: ev.on})
	_ = obs
	agent := dial(t, addr, remote.ClientOptions{})
	ctx := context.Background()
	snap, err := agent.Observe(ctx)
	require.NoError(t, err)
	log := snap.NearestBlocks(48, 1, "log")[0].Pos
	res, err := agent.Execute(ctx, action.MoveTo{Pos: log, Radius: 3})
	require.NoError(t, err)
	require.True(t, res.OK(), res.Error)
	res, err = agent.Execute(ctx, action.BreakBlock{Pos: log})
	require.NoError(t, err)
	require.True(t, res.OK(), res.Error)
	waitFor(t, "block_change", func() bool { return len(ev.get(wire.EventBlockChange)) > 0 })
	waitFor(t, "inventory", func() bool { return len(ev.get(wire.EventInventory)) > 0 })
	after, err := agent.Observe(ctx)
	require.NoError(t, err)
	var bc wire.BlockChangeEvent
	found := false
	for _, p := range ev.get(wire.EventBlockChange) {
		require.NoError(t, json.Unmarshal(p, &bc))
		if bc.Pos == log {
			found = true
			assert.True(t, bc.Block.IsAir())
		}
	}
	assert.True(t, found, "the broken log is reported")
	var tm wire.TimeEvent
	tl := ev.get(wire.EventTime)
	require.NotEmpty(t, tl)
	require.NoError(t, json.Unmarshal(tl[len(tl)-1], &tm))
	assert.Equal(t, after.Tick, tm.Tick)
	var pe wire.PositionEvent
	pl := ev.get(wire.EventPosition)
	require.NotEmpty(t, pl)
	require.NoError(t, json.Unmarshal(pl[len(pl)-1], &pe))
	assert.Equal(t, after.Player.Pos, pe.Pos)
	var ie wire.InventoryEvent
	il := ev.get(wire.EventInventory)
	require.NoError(t, json.Unmarshal(il[len(il)-1], &ie))
	assert.Equal(t, after.Inventory, ie.Inventory)

	srv.Close()
	waitFor(t, "disconnect", func() bool { return len(ev.get(wire.EventDisconnect)) == 1 })
}

// churn is a body whose every action replaces all its entities, so each
// comparison yields many events that do not coalesce.
type churn struct {
	mu sync.Mutex
	n  int
}

func (c *churn) Info() ipc.Info { return ipc.Info{Name: "churn", Supports: action.Kinds()} }
func (c *churn) Observe(context.Context) (*world.Snapshot, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := &world.Snapshot{Tick: int64(c.n)}
	for i := range 200 {
		s.Entities = append(s.Entities, world.Entity{ID: c.n*1000 + i, Kind: world.EntityMob, Name: strings.Repeat("z", 200)})
	}
	return s, nil
}
func (c *churn) Execute(context.Context, action.Action) ipc.Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return ipc.Result{Code: ipc.OK, Ticks: 1}
}

// TestSlowReaderDoesNotStallTheBody: an observer that does not read makes
// the server drop its events, never wait; it then gets a lagged notice.
func TestSlowReaderDoesNotStallTheBody(t *testing.T) {
	body := &churn{}
	addr, _ := serve(t, remote.ServerOptions{Body: body, Poll: -1, EventQueue: 64}, "unix")
	r := rawDial(t, addr)
	r.send(`{"v":1,"id":1,"type":"hello","payload":{"protocol":1,"role":"observer","events":["entity","entity_gone","time"]}}`)
	r.expectReply("1", nil)
	agent := dial(t, addr, remote.ClientOptions{})
	// An observer that reads: its time event for a tick says the watcher
	// compared the world after that action, so no two actions share a
	// comparison (their events would be coalesced).
	ticks := make(chan struct{}, 512)
	dial(t, addr, remote.ClientOptions{Role: wire.RoleObserver, Events: []string{wire.EventTime},
		OnEvent: func(string, json.RawMessage) { ticks <- struct{}{} }})
	// No wall-clock bound on the 300 round trips: under load they can take
	// longer than any fixed figure; a lost event hangs until go test's
	// -timeout, which names this test.
	ctx := t.Context()
	for i := range 300 {
		res, err := agent.Execute(ctx, action.Wait{Ticks: 1})
		require.NoError(t, err, "action %d", i)
		require.True(t, res.OK())
		select {
		case <-ticks:
		case <-ctx.Done():
			t.Fatalf("no time event after action %d", i)
		}
	}
	// Now read: somewhere there is a lagged notice with a count.
	r.c.SetReadDeadline(testdeadline.At(t))
	lagged := int64(0)
	for lagged == 0 && r.sc.Scan() {
		var m wire.Message
		require.NoError(t, json.Unmarshal(r.sc.Bytes(), &m))
		if m.Type == wire.EventLagged {
			var l wire.LaggedEvent
			require.NoError(t, json.Unmarshal(m.Payload, &l))
			lagged = l.Dropped
		}
	}
	assert.Greater(t, lagged, int64(0), "dropped events are counted: %v", r.sc.Err())
}

// TestStdio: a body served on a pair of pipes, as a child's stdin and
// stdout would be.
func TestStdio(t *testing.T) {
	srv, err := remote.NewServer(remote.ServerOptions{Body: newSim(t, 0)})
	require.NoError(t, err)
	defer srv.Close()
	clientEnd, serverEnd := pipePair(t)
	go srv.ServeConn(serverEnd)
	c, err := remote.NewClient(context.Background(), clientEnd, remote.ClientOptions{})
	require.NoError(t, err)
	defer c.Close()
	want, err := ipc.InProcess(newSim(t, 0)).Observe(context.Background())
	require.NoError(t, err)
	got, err := c.Observe(context.Background())
	require.NoError(t, err)
	assert.Equal(t, want.NearestBlocks(32, 5, "log"), got.NearestBlocks(32, 5, "log"))
	res, err := c.Execute(context.Background(), action.Chat{Message: "hi"})
	require.NoError(t, err)
	assert.Equal(t, ipc.OK, res.Code, res.Error)
	res, err = c.Execute(context.Background(), action.Wait{Ticks: 0})
	require.NoError(t, err)
	assert.Equal(t, ipc.InvalidParams, res.Code, "validated as in process")
}

// TestServerHousekeeping: a connection that never says hello is closed; a
// peer that does not read does not keep Close from returning.
func TestServerHousekeeping(t *testing.T) {
	addr, srv := serve(t, remote.ServerOptions{Body: newSmall(), HelloTimeout: 50 * time.Millisecond}, "unix")
	r := rawDial(t, addr)
	r.c.SetReadDeadline(testdeadline.At(t))
	require.True(t, r.sc.Scan())
	assert.Contains(t, r.sc.Text(), `"type":"disconnect"`)
	assert.Contains(t, r.sc.Text(), "no hello")
	assert.False(t, r.sc.Scan(), "then the connection closes")
	assert.NoError(t, r.sc.Err(), "closed (EOF), not a read timeout")
	waitFor(t, "the connection to be freed", func() bool { return srv.Conns() == 0 })

	// A client that floods requests and never reads, on a server with the
	// default hello time, so that a hello read late on a loaded machine
	// cannot end the connection before the flood fills it.
	addr, srv = serve(t, remote.ServerOptions{Body: newSmall()}, "unix")
	deaf := rawDial(t, addr)
	deaf.send(helloLine)
	var written atomic.Int64
	go func() {
		line := []byte(`{"v":1,"id":"x","type":"blocks_in","payload":{"from":{"x":0,"y":0,"z":0},"to":{"x":15,"y":15,"z":15}}}` + "\n")
		for {
			if _, err := deaf.c.Write(line); err != nil {
				return
			}
			written.Add(1)
		}
	}()
	// The server is stuck writing to the deaf peer once the flood waits on
	// the socket: the server no longer reads, both directions are full.
	waitFor(t, "the deaf connection to fill its buffers", func() bool {
		return written.Load() > 0 && goroutineParked("[IO wait", "TestServerHousekeeping.func", ").Write(")
	})
	require.Equal(t, 1, srv.Conns(), "the deaf connection is still open, its buffers full")
	closed := make(chan struct{})
	go func() {
		srv.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-testdeadline.After(t):
		t.Fatal("Close waits for a peer that does not read")
	}
}

// details is a body whose results carry details that a decode into
// map[string]any would change: a struct's field order, an integer past
// 2^53.
type details struct{ *small }

func (d details) Execute(context.Context, action.Action) ipc.Result {
	return ipc.Result{Code: ipc.OK, Ticks: 2, Details: map[string]any{
		"hit":   struct{ Zed, Alpha int }{1, 2},
		"big":   int64(1<<60 + 1),
		"ratio": 0.1,
		"text":  "<a & b>",
	}}
}

// TestResultDetailsVerbatim: a result's details reach the trace as the
// body wrote them.
func TestResultDetailsVerbatim(t *testing.T) {
	body := details{newSmall()}
	addr, _ := serve(t, remote.ServerOptions{Body: body}, "unix")
	c := dial(t, addr, remote.ClientOptions{})
	want, err := ipc.InProcess(body).Execute(context.Background(), action.Wait{Ticks: 2})
	require.NoError(t, err)
	got, err := c.Execute(context.Background(), action.Wait{Ticks: 2})
	require.NoError(t, err)
	enc := func(r ipc.Result) string {
		var buf strings.Builder
		e := json.NewEncoder(&buf)
		e.SetEscapeHTML(false)
		require.NoError(t, e.Encode(r))
		return buf.String()
	}
	assert.Equal(t, enc(want), enc(got))
	assert.Contains(t, enc(got), `"hit":{"Zed":1,"Alpha":2}`)
}

// TestClientRefusesOversizedReplies: a reply over the client's limit ends
// the connection with a clear error instead of a request that never
// returns.
func TestClientRefusesOversizedReplies(t *testing.T) {
	addr, _ := serve(t, remote.ServerOptions{Body: newSim(t, 0)}, "unix")
	c := dial(t, addr, remote.ClientOptions{MaxMessage: 2048})
	err := c.Call(context.Background(), wire.TypeObserve, wire.ObserveRequest{}, nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, ipc.ErrClosed)
	assert.ErrorContains(t, err, "exceeds the limit")
	select {
	case <-c.Done():
	case <-testdeadline.After(t):
		t.Fatal("the client did not end")
	}
}

// TestClientAnswersThePeer: a peer may ask the client too (a planner asking
// its agent about the world); the client answers through its Handle hook,
// here with the world queries over its own body.
func TestClientAnswersThePeer(t *testing.T) {
	w := newSim(t, 0)
	sock := sockPath(t)
	l, err := wire.Listen(wire.Addr{Network: "unix", Address: sock}, wire.ListenOptions{})
	require.NoError(t, err)
	defer l.Close()
	peer := make(chan net.Conn, 1)
	go func() {
		c, err := l.Accept()
		if err == nil {
			peer <- c
		}
	}()
	q := remote.Queries{Observe: w.Observe}
	ctx := context.Background()
	done := make(chan *remote.Client, 1)
	go func() {
		c, err := remote.Dial(ctx, "unix://"+sock, remote.ClientOptions{Handle: q.Answer})
		assert.NoError(t, err)
		done <- c
	}()
	var pc net.Conn
	select {
	case pc = <-peer:
	case <-testdeadline.After(t):
		t.Fatal("the client did not connect")
	}
	defer pc.Close()
	r := &raw{t: t, c: pc, sc: bufio.NewScanner(pc)}
	r.c.SetReadDeadline(testdeadline.At(t))
	require.True(t, r.sc.Scan())
	var hello wire.Message
	require.NoError(t, json.Unmarshal(r.sc.Bytes(), &hello))
	require.Equal(t, wire.TypeHello, hello.Type)
	r.send(`{"v":1,"id":` + string(hello.ID) + `,"type":"reply","payload":{"protocol":1,"role":"planner","name":"peer","actions":[],"events":[],"requests":["plan"],"max_message":4194304}}`)
	c := <-done
	require.NotNil(t, c)
	defer c.Close()
	assert.Equal(t, "peer", c.Welcome().Name)

	snap, err := w.Observe(ctx)
	require.NoError(t, err)
	logs := snap.NearestBlocks(48, 2, "log")
	r.send(`{"v":1,"id":"q1","type":"nearest","payload":{"match":{"tags":["log"]},"radius":48,"k":2}}`)
	var hits wire.HitsReply
	r.expectReply(`"q1"`, &hits)
	assert.Equal(t, logs, hits.Hits)
	r.send(`{"v":1,"id":"q2","type":"plan","payload":{}}`)
	r.expectError(`"q2"`, wire.CodeUnknownType)
	r.send(`{"v":1,"id":"q3","type":"nearest","payload":{"radius":500,"k":1}}`)
	r.expectError(`"q3"`, wire.CodeBadRequest)
}
