package remote_test

import (
	"context"
	"encoding/json"
	"errors"
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
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestChatEvents: over a unix socket, a chat action in the simulator
// reaches a subscriber as a chat event from the player, valid against
// chat.json; a line said before subscribing is not sent, and a connection
// that did not ask for chat gets none.
func TestChatEvents(t *testing.T) {
	s := schemas(t)
	w := newSim(t, 0)
	addr, _ := serve(t, remote.ServerOptions{Body: w, Poll: -1}, "unix")
	agent := dial(t, addr, remote.ClientOptions{})
	ctx := context.Background()
	res, err := agent.Execute(ctx, action.Chat{Message: "before anyone listens"})
	require.NoError(t, err)
	require.True(t, res.OK(), res.Error)

	var ev, other events
	obs := dial(t, addr, remote.ClientOptions{Role: wire.RoleObserver, Events: []string{wire.EventChat}, OnEvent: ev.on})
	dial(t, addr, remote.ClientOptions{Role: wire.RoleObserver, Events: []string{wire.EventTime}, OnEvent: other.on})
	info, err := obs.Hello(ctx)
	require.NoError(t, err)
	assert.Contains(t, info.Name, "sim")
	for _, m := range []string{"hello there", "hello there", "bye"} {
		res, err = agent.Execute(ctx, action.Chat{Message: m})
		require.NoError(t, err)
		require.True(t, res.OK(), res.Error)
	}
	snap, err := agent.Observe(ctx)
	require.NoError(t, err)
	waitFor(t, "three chat events", func() bool { return len(ev.get(wire.EventChat)) >= 3 })
	waitFor(t, "time events", func() bool { return len(other.get(wire.EventTime)) > 0 })
	var texts []string
	var last int64
	for _, p := range ev.get(wire.EventChat) {
		validate(t, s, "chat", p, string(p))
		var c wire.ChatEvent
		require.NoError(t, json.Unmarshal(p, &c))
		assert.Equal(t, "Bot", c.From)
		assert.Equal(t, snap.Player.Name, c.From)
		assert.GreaterOrEqual(t, c.Tick, last)
		assert.LessOrEqual(t, c.Tick, snap.Tick)
		last = c.Tick
		texts = append(texts, c.Text)
	}
	assert.Equal(t, []string{"hello there", "hello there", "bye"}, texts, "each line once, none coalesced, none from before")
	assert.Empty(t, ev.get(wire.EventLagged))
	assert.Empty(t, other.get(wire.EventChat), "chat only to those who asked")
}

// plainBody hides everything but ipc.Body of the body it wraps.
type plainBody struct{ ipc.Body }

// chatBody is a body whose chat log the test writes.
type chatBody struct {
	ipc.Body
	mu   sync.Mutex
	log  []ipc.ChatLine
	next uint64
}

func (b *chatBody) ChatSince(seq uint64) ([]ipc.ChatLine, uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []ipc.ChatLine
	for _, m := range b.log {
		if m.Seq >= seq {
			out = append(out, m)
		}
	}
	return out, b.next
}

// add logs n lines, keeping only the newest keep (the log is bounded).
func (b *chatBody) add(keep int, texts ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, x := range texts {
		b.log = append(b.log, ipc.ChatLine{Seq: b.next, From: "Alice", Text: x, Tick: int64(b.next)})
		b.next++
	}
	if len(b.log) > keep {
		b.log = b.log[len(b.log)-keep:]
	}
}

// TestHelloListsChatOnlyFromChatSources: a body that does not report chat
// does not list chat in hello.
func TestHelloListsChatOnlyFromChatSources(t *testing.T) {
	addr, _ := serve(t, remote.ServerOptions{Body: plainBody{newSim(t, 0)}, Poll: -1}, "unix")
	r := rawDial(t, addr)
	r.send(`{"v":1,"id":1,"type":"hello","payload":{"protocol":1,"role":"observer"}}`)
	var wel wire.Welcome
	r.expectReply("1", &wel)
	assert.NotContains(t, wel.Events, wire.EventChat)
	assert.Contains(t, wel.Events, wire.EventTime)

	addr, _ = serve(t, remote.ServerOptions{Body: &chatBody{Body: newSim(t, 0), next: 1}, Poll: -1}, "unix")
	r = rawDial(t, addr)
	r.send(`{"v":1,"id":1,"type":"hello","payload":{"protocol":1,"role":"observer"}}`)
	r.expectReply("1", &wel)
	assert.Contains(t, wel.Events, wire.EventChat)
}

// TestChatLostAndDropped: lines the body's log lost before the server
// read them count as dropped (a lagged notice before the lines after the
// gap); the rest arrive in order, one event each, alike lines too.
func TestChatLostAndDropped(t *testing.T) {
	b := &chatBody{Body: newSim(t, 0), next: 1}
	addr, _ := serve(t, remote.ServerOptions{Body: b, Poll: 5 * time.Millisecond}, "unix")
	r := rawDial(t, addr)
	r.send(`{"v":1,"id":1,"type":"hello","payload":{"protocol":1,"role":"observer","events":["chat"]}}`)
	var wel wire.Welcome
	r.expectReply("1", &wel)
	var other events
	dial(t, addr, remote.ClientOptions{Role: wire.RoleObserver, Events: []string{wire.EventTime}, OnEvent: other.on})
	agent := dial(t, addr, remote.ClientOptions{})
	// Write 6 lines of which the log keeps 3: 3 lost.
	b.add(3, "a", "b", "c", "d", "e", "f")
	var got []string
	var dropped int64
	r.c.SetReadDeadline(testdeadline.At(t))
	for len(got) < 3 && r.sc.Scan() {
		var m wire.Message
		require.NoError(t, json.Unmarshal(r.sc.Bytes(), &m))
		switch m.Type {
		case wire.EventLagged:
			var l wire.LaggedEvent
			require.NoError(t, json.Unmarshal(m.Payload, &l))
			dropped += l.Dropped
		case wire.EventChat:
			var c wire.ChatEvent
			require.NoError(t, json.Unmarshal(m.Payload, &c))
			got = append(got, c.Text)
		}
	}
	assert.Equal(t, []string{"d", "e", "f"}, got)
	assert.Equal(t, int64(3), dropped)
	// A time event after the chat: a lagged notice for the lost chat would
	// have come before it, on the same connection.
	res, err := agent.Execute(context.Background(), action.Wait{Ticks: 1})
	require.NoError(t, err)
	require.True(t, res.OK(), res.Error)
	waitFor(t, "a time event after the chat", func() bool { return len(other.get(wire.EventTime)) > 0 })
	assert.Empty(t, other.get(wire.EventLagged), "lost chat is no loss to a connection that did not ask for chat")

	// Lines alike are each an event of their own.
	b.add(100, "x", "x", "x")
	got = nil
	r.c.SetReadDeadline(testdeadline.At(t))
	for len(got) < 3 && r.sc.Scan() {
		var m wire.Message
		require.NoError(t, json.Unmarshal(r.sc.Bytes(), &m))
		require.Equal(t, wire.EventChat, m.Type, string(r.sc.Bytes()))
		var c wire.ChatEvent
		require.NoError(t, json.Unmarshal(m.Payload, &c))
		assert.Equal(t, "Alice", c.From)
		got = append(got, c.Text)
	}
	assert.Equal(t, []string{"x", "x", "x"}, got)

	// Lines the log lost entirely are reported without waiting for the
	// next line.
	b.add(0, "gone", "gone")
	r.c.SetReadDeadline(testdeadline.At(t))
	require.True(t, r.sc.Scan())
	var m wire.Message
	require.NoError(t, json.Unmarshal(r.sc.Bytes(), &m))
	require.Equal(t, wire.EventLagged, m.Type, string(r.sc.Bytes()))
	var l wire.LaggedEvent
	require.NoError(t, json.Unmarshal(m.Payload, &l))
	assert.Equal(t, int64(2), l.Dropped)
}

// gatedBody holds Observe, after the first free calls, until the test
// opens the gate; held (when made) hears when a call starts waiting.
type gatedBody struct {
	*chatBody
	gate chan struct{}
	held chan struct{}
	free atomic.Int32
}

func (b *gatedBody) Observe(ctx context.Context) (*world.Snapshot, error) {
	if b.free.Add(-1) >= 0 {
		return b.chatBody.Observe(ctx)
	}
	select {
	case b.held <- struct{}{}:
	default:
	}
	select {
	case <-b.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return b.chatBody.Observe(ctx)
}

// TestChatSaidBeforeTheWatcherRunsIsSent: a line said after the welcome
// but before the server's watcher first looks at the body (a loaded
// machine) still reaches the subscriber; a line said before the hello
// does not.
func TestChatSaidBeforeTheWatcherRunsIsSent(t *testing.T) {
	b := &gatedBody{chatBody: &chatBody{Body: newSim(t, 0)}, gate: make(chan struct{})}
	b.free.Store(1) // the first subscriber's baseline
	b.add(100, "before the hello")
	addr, _ := serve(t, remote.ServerOptions{Body: b, Poll: -1}, "unix")
	var ev, late events
	dial(t, addr, remote.ClientOptions{Role: wire.RoleObserver, Events: []string{wire.EventChat}, OnEvent: ev.on})
	b.add(100, "one", "two") // the watcher is held in Observe
	dial(t, addr, remote.ClientOptions{Role: wire.RoleObserver, Events: []string{wire.EventChat}, OnEvent: late.on})
	b.add(100, "three")
	close(b.gate)
	waitFor(t, "three chat events", func() bool { return len(ev.get(wire.EventChat)) >= 3 })
	waitFor(t, "one chat event", func() bool { return len(late.get(wire.EventChat)) >= 1 })
	texts := func(e *events) []string {
		var out []string
		for _, p := range e.get(wire.EventChat) {
			var c wire.ChatEvent
			require.NoError(t, json.Unmarshal(p, &c))
			out = append(out, c.Text)
		}
		return out
	}
	assert.Equal(t, []string{"one", "two", "three"}, texts(&ev))
	assert.Equal(t, []string{"three"}, texts(&late), "a later subscriber gets only what was said after its welcome")
}

// TestEventsFromTheWelcome: a subscriber hears of every change after its
// welcome, even when the actions come before the server's watcher has
// compared the world once (with no polling, nothing else would notice).
func TestEventsFromTheWelcome(t *testing.T) {
	// The watcher's first look at the body after the welcome (which looked
	// once) waits until the actions are done, so it sees the world after
	// them.
	b := &gatedBody{chatBody: &chatBody{Body: newSim(t, 0)}, gate: make(chan struct{}), held: make(chan struct{}, 1)}
	b.free.Store(1)
	addr, _ := serve(t, remote.ServerOptions{Body: b, Poll: -1}, "unix")
	agent := dial(t, addr, remote.ClientOptions{})
	var ev events
	dial(t, addr, remote.ClientOptions{Role: wire.RoleObserver, Events: []string{wire.EventTime}, OnEvent: ev.on})
	select {
	case <-b.held:
	case <-testdeadline.After(t):
		t.Fatal("the watcher did not look at the body for the subscriber")
	}
	res, err := agent.Execute(context.Background(), action.Wait{Ticks: 5})
	require.NoError(t, err)
	require.True(t, res.OK(), res.Error)
	close(b.gate)
	waitFor(t, "a time event", func() bool { return len(ev.get(wire.EventTime)) > 0 })
}

// TestEventsToASubscriberWelcomedDuringAComparison: a subscriber welcomed
// while the watcher's comparison waits for the body hears of the changes
// that comparison finds, made after its welcome: the comparison tells the
// subscribers there are once the body has answered, not those there were
// when it began.
func TestEventsToASubscriberWelcomedDuringAComparison(t *testing.T) {
	b := &gatedBody{chatBody: &chatBody{Body: newSim(t, 0)}, gate: make(chan struct{}), held: make(chan struct{}, 1)}
	b.free.Store(1) // the first subscriber's baseline
	addr, _ := serve(t, remote.ServerOptions{Body: b, Poll: -1}, "unix")
	agent := dial(t, addr, remote.ClientOptions{})
	var first, late events
	dial(t, addr, remote.ClientOptions{Role: wire.RoleObserver, Events: []string{wire.EventTime}, OnEvent: first.on})
	select {
	case <-b.held:
	case <-testdeadline.After(t):
		t.Fatal("the watcher did not compare for the first subscriber")
	}
	dial(t, addr, remote.ClientOptions{Role: wire.RoleObserver, Events: []string{wire.EventTime}, OnEvent: late.on})
	res, err := agent.Execute(context.Background(), action.Wait{Ticks: 5})
	require.NoError(t, err)
	require.True(t, res.OK(), res.Error)
	close(b.gate)
	waitFor(t, "a time event to the first subscriber", func() bool { return len(first.get(wire.EventTime)) > 0 })
	waitFor(t, "a time event to the later one", func() bool { return len(late.get(wire.EventTime)) > 0 })
}

// TestEachChangeReportedOnce: a comparison starts from the snapshot the
// one before it took, so a change is reported once: comparisons that find
// nothing new (subscribers joining) send no event again.
func TestEachChangeReportedOnce(t *testing.T) {
	b := &chatBody{Body: newSim(t, 0)}
	addr, _ := serve(t, remote.ServerOptions{Body: b, Poll: -1}, "unix")
	agent := dial(t, addr, remote.ClientOptions{})
	var ev events
	dial(t, addr, remote.ClientOptions{Role: wire.RoleObserver, Events: []string{wire.EventTime, wire.EventChat}, OnEvent: ev.on})
	res, err := agent.Execute(context.Background(), action.Wait{Ticks: 5})
	require.NoError(t, err)
	require.True(t, res.OK(), res.Error)
	waitFor(t, "a time event", func() bool { return len(ev.get(wire.EventTime)) > 0 })
	// Its welcome comes after the comparison that sent the time event
	// (a baseline waits for a comparison to finish).
	dial(t, addr, remote.ClientOptions{Role: wire.RoleObserver, Events: []string{wire.EventTime}})
	// A comparison after this line sends it after anything it found.
	b.add(100, "mark")
	dial(t, addr, remote.ClientOptions{Role: wire.RoleObserver, Events: []string{wire.EventChat}})
	waitFor(t, "the chat line", func() bool { return len(ev.get(wire.EventChat)) > 0 })
	assert.Len(t, ev.get(wire.EventTime), 1, "the time changed once: %v", ev.list)
}

// failFirst is a simulator whose first fails Observe calls fail; calls
// counts them all.
type failFirst struct {
	*sim.Sim
	fails atomic.Int32
	calls atomic.Int32
}

func (b *failFirst) Observe(ctx context.Context) (*world.Snapshot, error) {
	b.calls.Add(1)
	if b.fails.Add(-1) >= 0 {
		return nil, errors.New("not now")
	}
	return b.Sim.Observe(ctx)
}

// TestEventsAfterAFailedBaseline: when the body cannot give a new
// subscriber's baseline, the watcher's next look at the world is where the
// comparisons start, and the changes after it are reported.
func TestEventsAfterAFailedBaseline(t *testing.T) {
	b := &failFirst{Sim: newSim(t, 0)}
	b.fails.Store(1)
	addr, _ := serve(t, remote.ServerOptions{Body: b, Poll: -1}, "unix")
	agent := dial(t, addr, remote.ClientOptions{})
	var ev events
	dial(t, addr, remote.ClientOptions{Role: wire.RoleObserver, Events: []string{wire.EventTime}, OnEvent: ev.on})
	waitFor(t, "the watcher's look after the failed baseline", func() bool { return b.calls.Load() >= 2 })
	res, err := agent.Execute(context.Background(), action.Wait{Ticks: 5})
	require.NoError(t, err)
	require.True(t, res.OK(), res.Error)
	waitFor(t, "a time event", func() bool { return len(ev.get(wire.EventTime)) > 0 })
}
