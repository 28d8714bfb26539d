package origin

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/syncbuf"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// testScenario: a flat 32×32 plain at y 63, a 4-high oak at (11, 8), the
// player at (8, 64, 8) holding dirt.
const testScenario = `
name: origin_test
seed: 7
size: {x: 32, z: 32}
generator: flat
ground_y: 63
player:
  pos: [8, 64, 8]
  dimension: overworld
  health: 20
  food: 20
  inventory:
    - {item: "minecraft:dirt", count: 4}
trees:
  - {at: [11, 8], height: 4}
`

func newSim(t *testing.T) *sim.Sim {
	t.Helper()
	sc, err := sim.ParseScenario("origin_test.yaml", []byte(testScenario))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}

// msg is a received message.
type msg struct {
	Type    string          `json:"type"`
	ID      json.RawMessage `json:"id"`
	Payload json.RawMessage `json:"payload"`
}

func (m msg) decode(t *testing.T, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(m.Payload, v), "%s payload %s", m.Type, m.Payload)
}

// client is a scripted origin bot core.
type client struct {
	t    *testing.T
	c    net.Conn
	in   chan msg
	seen []msg
}

// serve starts the adapter for body on a loopback listener and connects.
func serve(t *testing.T, body ipc.Body, opts Options) (*client, <-chan error) {
	t.Helper()
	ln, err := Listen("tcp://127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- Serve(ctx, ln, body, opts) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-errc:
			assert.NoError(t, err)
		case <-testdeadline.After(t):
			t.Error("Serve did not return after cancel")
		}
	})
	return dial(t, ln.Addr().String()), errc
}

func dial(t *testing.T, addr string) *client {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	cl := &client{t: t, c: c, in: make(chan msg, 4096)}
	go func() {
		defer close(cl.in)
		sc := bufio.NewScanner(c)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var m msg
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				panic(fmt.Sprintf("adapter sent a line that is not JSON: %q", sc.Text()))
			}
			cl.in <- m
		}
	}()
	return cl
}

func (cl *client) send(typ string, payload any) {
	cl.t.Helper()
	b, err := json.Marshal(map[string]any{"type": typ, "payload": payload})
	require.NoError(cl.t, err)
	cl.raw(string(b))
}

func (cl *client) raw(line string) {
	cl.t.Helper()
	_, err := cl.c.Write([]byte(line + "\n"))
	require.NoError(cl.t, err)
}

// until reads messages until one of type typ arrives, and returns it; the
// messages read on the way are kept in seen.
func (cl *client) until(typ string) msg {
	cl.t.Helper()
	timeout := testdeadline.After(cl.t)
	for {
		select {
		case m, ok := <-cl.in:
			require.True(cl.t, ok, "connection closed while waiting for %s", typ)
			cl.seen = append(cl.seen, m)
			if m.Type == typ {
				return m
			}
		case <-timeout:
			cl.t.Fatalf("no %s before go test's -timeout; seen %v", typ, types(cl.seen))
		}
	}
}

func types(ms []msg) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Type
	}
	return out
}

// result waits for the next action_result.
func (cl *client) result() ActionResult {
	cl.t.Helper()
	var r ActionResult
	cl.until(TypeActionResult).decode(cl.t, &r)
	return r
}

// errorReply waits for the next error message.
func (cl *client) errorReply() errorPayload {
	cl.t.Helper()
	var e errorPayload
	cl.until(TypeError).decode(cl.t, &e)
	return e
}

// take returns and forgets the messages of a type seen so far.
func (cl *client) take(typ string) []msg {
	var out, rest []msg
	for _, m := range cl.seen {
		if m.Type == typ {
			out = append(out, m)
		} else {
			rest = append(rest, m)
		}
	}
	cl.seen = rest
	return out
}

// blockIn reads a block out of a chunk_data.
func blockIn(t *testing.T, cd ChunkData, p world.BlockPos) PaletteEntry {
	t.Helper()
	require.Equal(t, p.X>>4, cd.ChunkX)
	require.Equal(t, p.Z>>4, cd.ChunkZ)
	sec := cd.Blocks.Sections[p.Y>>4]
	if sec == nil {
		return PaletteEntry{ID: "minecraft:air"}
	}
	require.Len(t, sec, chunk.SectionVolume)
	return cd.Blocks.Palette[sec[chunk.SectionIndex(p.X, p.Y, p.Z)]]
}

// chunkAt finds the newest chunk_data of a column among ms.
func chunkAt(t *testing.T, ms []msg, cx, cz int) (ChunkData, bool) {
	t.Helper()
	var found ChunkData
	ok := false
	for _, m := range ms {
		var cd ChunkData
		m.decode(t, &cd)
		if cd.ChunkX == cx && cd.ChunkZ == cz {
			found, ok = cd, true
		}
	}
	return found, ok
}

func TestServeWalkDigPlace(t *testing.T) {
	cl, _ := serve(t, newSim(t), Options{Poll: -1})

	// The first update tells everything.
	var dim DimensionChange
	cl.until(TypeDimensionChange).decode(t, &dim)
	assert.Equal(t, world.Overworld, dim.Dimension)
	var win WindowItems
	cl.until(TypeWindowItems).decode(t, &win)
	require.Len(t, win.Items, 36)
	require.NotNil(t, win.Items[0])
	assert.Equal(t, Item{ID: "minecraft:dirt", Count: 4}, *win.Items[0])
	assert.Nil(t, win.Items[1])
	cl.send(TypeMoveStep, map[string]any{"x": 10, "y": 64, "z": 8, "radius": 0})
	r := cl.result()
	assert.Equal(t, ActionResult{Request: TypeMoveStep, Action: "move_to", OK: true, Code: ipc.OK, Ticks: r.Ticks}, r)
	assert.Positive(t, r.Ticks)
	chunks := cl.take(TypeChunkData)
	assert.Len(t, chunks, 4, "a 32×32 world has 2×2 columns, all within the view radius")
	cd, ok := chunkAt(t, chunks, 0, 0)
	require.True(t, ok)
	assert.Equal(t, PaletteEntry{ID: "minecraft:log"}, blockIn(t, cd, world.Pos(11, 64, 8)))
	assert.Equal(t, PaletteEntry{ID: "minecraft:grass"}, blockIn(t, cd, world.Pos(11, 63, 8)))
	assert.Equal(t, PaletteEntry{ID: "minecraft:bedrock"}, blockIn(t, cd, world.Pos(3, 0, 3)))
	assert.Equal(t, PaletteEntry{ID: "minecraft:air"}, blockIn(t, cd, world.Pos(3, 200, 3)))
	pos := cl.take(TypePositionUpdate)
	require.NotEmpty(t, pos)
	var pu PositionUpdate
	pos[len(pos)-1].decode(t, &pu)
	assert.Equal(t, PositionUpdate{X: 10.5, Y: 64, Z: 8.5, Yaw: -90, Pitch: 0, OnGround: true}, pu, "faces +x, where it walked")
	times := cl.take(TypeTimeUpdate)
	var tu TimeUpdate
	times[len(times)-1].decode(t, &tu)
	assert.Equal(t, r.Ticks, tu.Tick, "the walk took the world's clock forward")

	// A dig: start, then its stop, is one break.
	cl.send(TypeBlockDig, map[string]any{"status": "start", "x": 11, "y": 64, "z": 8, "face": 4})
	cl.send(TypeBlockDig, map[string]any{"status": "stop", "x": 11, "y": 64, "z": 8, "face": 4})
	r = cl.result()
	assert.True(t, r.OK, "%+v", r)
	assert.Equal(t, "break_block", r.Action)
	assert.Equal(t, TypeBlockDig, r.Request)
	slots := cl.take(TypeSetSlot)
	require.Len(t, slots, 1)
	var ss SetSlot
	slots[0].decode(t, &ss)
	assert.Equal(t, SetSlot{Slot: 1, Item: &Item{ID: "minecraft:log", Count: 1}}, ss)
	cd, ok = chunkAt(t, cl.take(TypeChunkData), 0, 0)
	require.True(t, ok, "the changed column is sent again")
	assert.Equal(t, PaletteEntry{ID: "minecraft:air"}, blockIn(t, cd, world.Pos(11, 64, 8)))
	assert.Equal(t, PaletteEntry{ID: "minecraft:log"}, blockIn(t, cd, world.Pos(11, 65, 8)))
	pos = cl.take(TypePositionUpdate)
	require.Len(t, pos, 1, "the look turned to the log")
	pos[0].decode(t, &pu)
	assert.InDelta(t, -90, pu.Yaw, 1e-9)
	assert.InDelta(t, -atanDeg(64.5-(64+1.62), 1), pu.Pitch, 1e-9)

	// Place the held dirt on the ground's top face at (10, 63, 9): the
	// block goes to (10, 64, 9).
	cl.send(TypeBlockPlace, map[string]any{"x": 10, "y": 63, "z": 9, "face": 1})
	r = cl.result()
	assert.True(t, r.OK, "%+v", r)
	assert.Equal(t, "place_block", r.Action)
	cd, ok = chunkAt(t, cl.take(TypeChunkData), 0, 0)
	require.True(t, ok)
	assert.Equal(t, PaletteEntry{ID: "minecraft:dirt"}, blockIn(t, cd, world.Pos(10, 64, 9)))
	slots = cl.take(TypeSetSlot)
	require.Len(t, slots, 1)
	slots[0].decode(t, &ss)
	assert.Equal(t, SetSlot{Slot: 0, Item: &Item{ID: "minecraft:dirt", Count: 3}}, ss)

	// Interact with a block; use the held item in the air.
	cl.send(TypeInteract, map[string]any{"kind": "block", "x": 11, "y": 65, "z": 8})
	r = cl.result()
	assert.True(t, r.OK, "%+v", r)
	assert.Equal(t, "interact", r.Action)
	cl.send(TypeUseItem, map[string]any{"target": "air"})
	r = cl.result()
	assert.True(t, r.OK, "%+v", r)
	assert.Equal(t, "use_item", r.Action)

	// A failing action: the body's code comes back.
	cl.send(TypeBlockDig, map[string]any{"status": "start", "x": 30, "y": 64, "z": 30})
	cl.send(TypeBlockDig, map[string]any{"status": "stop", "x": 30, "y": 64, "z": 30})
	r = cl.result()
	assert.False(t, r.OK)
	assert.Equal(t, ipc.Unreachable, r.Code)
}

func atanDeg(dy, d float64) float64 {
	return math.Atan2(dy, d) * 180 / math.Pi
}

func TestServeErrorsKeepTheConnection(t *testing.T) {
	cl, _ := serve(t, newSim(t), Options{Poll: -1, MaxLine: 256})
	cl.until(TypeWindowItems)

	for _, c := range []struct {
		name, line string
		code       ErrorCode
		request    string
	}{
		{"malformed JSON", `{"type": "move_step", "payload": {`, BadRequest, ""},
		{"not an object", `[1, 2]`, BadRequest, ""},
		{"unknown type", `{"type": "fly", "payload": {}}`, UnknownType, "fly"},
		{"too large", `{"type": "move_step", "payload": {"x": 1, "pad": "` + strings.Repeat("a", 300) + `"}}`, TooLarge, ""},
		{"missing field", `{"type": "move_step", "payload": {"x": 1, "y": 64}}`, BadRequest, TypeMoveStep},
		{"stop without start", `{"type": "block_dig", "payload": {"status": "stop", "x": 11, "y": 64, "z": 8}}`, BadRequest, TypeBlockDig},
		{"abort without start", `{"type": "block_dig", "payload": {"status": "abort"}}`, BadRequest, TypeBlockDig},
	} {
		cl.raw(c.line)
		e := cl.errorReply()
		assert.Equal(t, c.code, e.Code, c.name)
		assert.Equal(t, c.request, e.Request, c.name)
		assert.NotEmpty(t, e.Message, c.name)
	}
	// An id is echoed.
	cl.raw(`{"type": "fly", "id": "q7", "payload": {}}`)
	m := cl.until(TypeError)
	assert.JSONEq(t, `"q7"`, string(m.ID))

	// A stop at another block than the start is refused; the start stays
	// and its own stop breaks the block.
	cl.send(TypeMoveStep, map[string]any{"x": 10, "y": 64, "z": 8})
	require.True(t, cl.result().OK)
	cl.raw(`{"type": "block_dig", "id": 1, "payload": {"status": "start", "x": 11, "y": 64, "z": 8}}`)
	cl.send(TypeBlockDig, map[string]any{"status": "stop", "x": 11, "y": 65, "z": 8})
	e := cl.errorReply()
	assert.Equal(t, BadRequest, e.Code)
	assert.Contains(t, e.Message, "started at (11, 64, 8)")
	cl.send(TypeBlockDig, map[string]any{"status": "start", "x": 11, "y": 65, "z": 8})
	e = cl.errorReply()
	assert.Equal(t, BadRequest, e.Code, "a second start elsewhere while one is under way")
	cl.send(TypeBlockDig, map[string]any{"status": "stop", "x": 11, "y": 64, "z": 8})
	m = cl.until(TypeActionResult)
	var r ActionResult
	m.decode(t, &r)
	assert.True(t, r.OK, "%+v", r)
	assert.JSONEq(t, `1`, string(m.ID), "a stop without an id answers with the start's")

	// Abort ends a pending dig with interrupted.
	cl.send(TypeBlockDig, map[string]any{"status": "start", "x": 11, "y": 65, "z": 8})
	cl.send(TypeBlockDig, map[string]any{"status": "abort", "x": 11, "y": 65, "z": 8})
	r = cl.result()
	assert.Equal(t, ActionResult{Request: TypeBlockDig, Code: ipc.Interrupted, Error: r.Error}, r)
	cl.send(TypeBlockDig, map[string]any{"status": "stop", "x": 11, "y": 65, "z": 8})
	assert.Equal(t, BadRequest, cl.errorReply().Code, "the aborted dig is gone")

	// Nothing held and no item named: the place fails, the connection lives.
	cl.send(TypeBlockPlace, map[string]any{"x": 10, "y": 63, "z": 9, "face": "up", "item": "minecraft:cobblestone"})
	r = cl.result()
	assert.Equal(t, ipc.InvalidParams, r.Code, "%+v", r)
	cl.send(TypeMoveStep, map[string]any{"x": 9, "y": 64, "z": 8})
	assert.True(t, cl.result().OK, "still serving")
}

func TestServeDigTimeout(t *testing.T) {
	cl, _ := serve(t, newSim(t), Options{Poll: -1, DigTimeout: 50 * time.Millisecond})
	cl.until(TypeWindowItems)
	cl.send(TypeBlockDig, map[string]any{"status": "start", "x": 11, "y": 64, "z": 8})
	r := cl.result()
	assert.Equal(t, ipc.Timeout, r.Code)
	assert.Equal(t, TypeBlockDig, r.Request)
	cl.send(TypeBlockDig, map[string]any{"status": "stop", "x": 11, "y": 64, "z": 8})
	assert.Equal(t, BadRequest, cl.errorReply().Code)
}

// blocking is a body whose actions wait for their context to end.
type blocking struct {
	*sim.Sim
	started chan struct{}
	ended   chan ipc.Result
}

func (b *blocking) Execute(ctx context.Context, a action.Action) ipc.Result {
	close(b.started)
	<-ctx.Done()
	r := ipc.Failf(ipc.Interrupted, 0, "%v", ctx.Err())
	b.ended <- r
	return r
}

func TestServeDisconnectCancelsTheAction(t *testing.T) {
	body := &blocking{Sim: newSim(t), started: make(chan struct{}), ended: make(chan ipc.Result, 1)}
	cl, _ := serve(t, body, Options{Poll: -1})
	cl.until(TypeWindowItems)
	cl.send(TypeMoveStep, map[string]any{"x": 20, "y": 64, "z": 20})
	<-body.started
	cl.c.Close()
	select {
	case r := <-body.ended:
		assert.Equal(t, ipc.Interrupted, r.Code)
	case <-testdeadline.After(t):
		t.Fatal("the action was not cancelled when the client left")
	}
}

func TestServeAbortCancelsABreakInFlight(t *testing.T) {
	body := &blocking{Sim: newSim(t), started: make(chan struct{}), ended: make(chan ipc.Result, 1)}
	cl, _ := serve(t, body, Options{Poll: -1})
	cl.until(TypeWindowItems)
	cl.send(TypeBlockDig, map[string]any{"status": "start", "x": 11, "y": 64, "z": 8})
	cl.send(TypeBlockDig, map[string]any{"status": "stop", "x": 11, "y": 64, "z": 8})
	<-body.started
	cl.send(TypeBlockDig, map[string]any{"status": "abort"})
	r := cl.result()
	assert.Equal(t, ipc.Interrupted, r.Code)
	assert.Equal(t, "break_block", r.Action)
}

func TestServeOneClientAtATime(t *testing.T) {
	ln, err := Listen("127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go Serve(ctx, ln, newSim(t), Options{Poll: -1})
	first := dial(t, ln.Addr().String())
	first.until(TypeWindowItems)
	second := dial(t, ln.Addr().String())
	e := second.errorReply()
	assert.Equal(t, Busy, e.Code)
	first.send(TypeMoveStep, map[string]any{"x": 9, "y": 64, "z": 8})
	assert.True(t, first.result().OK, "the first client is still served")
}

func TestListenLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "tcp://0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0", "example.com:0", "nonsense", "unix:///tmp/origin.sock"} {
		_, err := Listen(addr)
		assert.Error(t, err, addr)
	}
	_, err := Listen("unix:///tmp/origin.sock")
	assert.ErrorContains(t, err, "loopback TCP only")
	for _, addr := range []string{"127.0.0.1:0", "tcp://127.0.0.1:0", "localhost:0"} {
		ln, err := Listen(addr)
		if assert.NoError(t, err, addr) {
			ln.Close()
		}
	}
	assert.ErrorContains(t, ListenAndServe(context.Background(), "0.0.0.0:0", newSim(t), Options{}), "loopback only")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.NoError(t, ListenAndServe(ctx, "127.0.0.1:0", newSim(t), Options{}), "a cancelled serve ends cleanly")

	// Serve itself refuses a listener that is not on loopback.
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	require.NoError(t, err)
	ctx, cancel = context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err = Serve(ctx, ln, newSim(t), Options{})
	assert.ErrorContains(t, err, "loopback")
}

// TestServeSlowClientLagsAndResyncs: a client that reads nothing while the
// world changes does not stall the body; its updates are dropped, and once
// it reads it gets a lagged notice and the world in full.
func TestServeSlowClientLagsAndResyncs(t *testing.T) {
	body := newChurner(t)
	ln, err := Listen("127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs syncbuf.Buffer
	lg := zerolog.New(&logs)
	go Serve(ctx, ln, body, Options{Poll: 5 * time.Millisecond, QueueBytes: 64 << 10, Log: &lg})
	c, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer c.Close()
	// Not reading: the kernel buffers fill up, then the queue. Meanwhile the
	// world keeps changing (another owner of the body breaks and places
	// blocks), and every change must go through at once. It churns until
	// the adapter says it dropped updates, however slow the machine.
	for steps := 0; !strings.Contains(logs.String(), "client too slow"); steps++ {
		require.Less(t, steps, 100000, "the queue never overflowed: %s", logs.String())
		body.churn(t, 1)
	}
	cl := &client{t: t, c: c, in: make(chan msg, 1<<16)}
	go func() {
		defer close(cl.in)
		sc := bufio.NewScanner(c)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var m msg
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				cl.in <- m
			}
		}
	}()
	var lag struct{ Dropped int }
	cl.until(TypeLagged).decode(t, &lag)
	assert.Positive(t, lag.Dropped)
	cl.until(TypeDimensionChange) // the resync starts with the dimension
	cl.until(TypeWindowItems)
}

// TestServePythonBotCore drives the adapter from Python (standard library
// only), as the origin agent's bot core would, with its defaults: a dig and
// a place end to end.
func TestServePythonBotCore(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	ln, err := Listen("127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go Serve(ctx, ln, newSim(t), Options{Poll: -1})
	cmdCtx, cmdCancel := testdeadline.WithCancel(t, "the Python bot core")
	defer cmdCancel()
	out, err := exec.CommandContext(cmdCtx, py, "testdata/bot_core.py", fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.JSONEq(t, `{"before": "minecraft:log", "after": "minecraft:air", "walked": true, "dug": true,
		"placed": true, "placed_block": "minecraft:dirt",
		"position": [10.5, 64, 8.5], "slot1": {"id": "minecraft:log", "meta": 0, "count": 1}}`, string(out))
}

// TestServeConnClientLeaves: a client that hangs up ends ServeConn
// without an error.
func TestServeConnClientLeaves(t *testing.T) {
	ln, err := Listen("127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	errc := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			errc <- err
			return
		}
		errc <- ServeConn(context.Background(), c, newSim(t), Options{Poll: time.Millisecond})
	}()
	cl := dial(t, ln.Addr().String())
	cl.until(TypeWindowItems)
	cl.send(TypeMoveStep, map[string]any{"x": 9, "y": 64, "z": 8})
	cl.c.Close()
	select {
	case err := <-errc:
		assert.NoError(t, err)
	case <-testdeadline.After(t):
		t.Fatal("ServeConn did not return after the client left")
	}
}

// TestServeConnEndsWhileWriting: a session ended from outside while the
// writer is stuck on a client that reads nothing ends without an error.
func TestServeConnEndsWhileWriting(t *testing.T) {
	body := newChurner(t)
	ln, err := Listen("127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			errc <- err
			return
		}
		errc <- ServeConn(ctx, c, body, Options{Poll: time.Millisecond})
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer c.Close()
	// Churn until the session's writer waits on the socket the client
	// does not read.
	for steps := 0; !writerStuck(); steps++ {
		require.Less(t, steps, 100000, "the writer never blocked")
		body.churn(t, 1)
	}
	cancel()
	select {
	case err := <-errc:
		assert.NoError(t, err)
	case <-testdeadline.After(t):
		t.Fatal("ServeConn did not return")
	}
}

// writerStuck says whether a session's writer is parked writing to its
// connection (the client reads nothing and the socket buffers are full).
func writerStuck() bool {
	buf := make([]byte, 4<<20)
	n := runtime.Stack(buf, true)
	for _, g := range strings.Split(string(buf[:n]), "\n\n") {
		if strings.Contains(g, "[IO wait") && strings.Contains(g, "origin.(*session).write(") {
			return true
		}
	}
	return false
}

// churner is the simulator whose world the test changes, one change per
// look the adapter takes (Observe), so the adapter sees every change
// however fast or slow the machine.
type churner struct {
	*sim.Sim
	looked chan struct{}
	n      int
}

func newChurner(t *testing.T) *churner {
	return &churner{Sim: newSim(t), looked: make(chan struct{}, 1)}
}

func (c *churner) Observe(ctx context.Context) (*world.Snapshot, error) {
	snap, err := c.Sim.Observe(ctx)
	select {
	case c.looked <- struct{}{}:
	default:
	}
	return snap, err
}

// churn changes a block in each of the four columns of the test world,
// steps times, each after the adapter looked at the last, and checks that
// no change hangs on the adapter (the wait is bounded by go test's
// -timeout through testdeadline, not by a figure of wall time).
func (c *churner) churn(t *testing.T, steps int) {
	t.Helper()
	for range steps {
		select { // a look from before this change does not count
		case <-c.looked:
		default:
		}
		n := c.n
		c.n++
		changed := make(chan struct{})
		go func() {
			defer close(changed)
			c.update(t, n)
		}()
		testdeadline.Recv(t, changed, "a change to the world (did it wait on the adapter?)")
		select {
		case <-c.looked:
		case <-testdeadline.After(t):
			t.Fatal("the adapter stopped looking at the world")
		}
	}
}

// update makes churn's n-th change.
func (c *churner) update(t *testing.T, n int) {
	c.State().Update(func(tx *world.Tx) {
		for _, p := range []world.BlockPos{world.Pos(n%16, 70, 5), world.Pos(16+n%16, 70, 5), world.Pos(n%16, 70, 20), world.Pos(16+n%16, 70, 20)} {
			b := "minecraft:stone" // then air, and again: every step changes the block
			if n/16%2 == 1 {
				b = "minecraft:air"
			}
			assert.NoError(t, tx.SetBlock(p, b, 0))
		}
		tx.AdvanceTick(1)
	})
}

// gated is the simulator with a gate: each action waits until the test
// lets one through.
type gated struct {
	*sim.Sim
	waiting chan struct{}
	pass    chan struct{}
}

func (g *gated) Execute(ctx context.Context, a action.Action) ipc.Result {
	g.waiting <- struct{}{}
	select {
	case <-g.pass:
	case <-ctx.Done():
		return ipc.Failf(ipc.Interrupted, 0, "%v", ctx.Err())
	}
	return g.Sim.Execute(ctx, a)
}

// TestServeBusy: behind a running action, MaxPending actions wait; one more
// is refused with busy, and the waiting ones run in order afterwards.
func TestServeBusy(t *testing.T) {
	body := &gated{Sim: newSim(t), waiting: make(chan struct{}, 8), pass: make(chan struct{}, 8)}
	cl, _ := serve(t, body, Options{Poll: -1, MaxPending: 2})
	cl.until(TypeWindowItems)
	cl.raw(`{"type":"move_step","id":"walk","payload":{"x":9,"y":64,"z":8}}`)
	<-body.waiting
	for i := range 3 {
		cl.raw(fmt.Sprintf(`{"type":"use_item","id":%d,"payload":{"target":"air","item":"minecraft:dirt"}}`, i))
	}
	m := cl.until(TypeError)
	var e errorPayload
	m.decode(t, &e)
	assert.Equal(t, Busy, e.Code)
	assert.JSONEq(t, `2`, string(m.ID), "the third is one too many")
	for _, id := range []string{`"walk"`, `0`, `1`} {
		body.pass <- struct{}{}
		m := cl.until(TypeActionResult)
		assert.JSONEq(t, id, string(m.ID))
		var r ActionResult
		m.decode(t, &r)
		assert.True(t, r.OK, "%+v", r)
	}
}

// TestServeOriginDefaults: the origin bot core's own message shapes, with
// its defaults (face "auto") and the keys it passes through, dig a log and
// place a block; the world the adapter sends shows both.
func TestServeOriginDefaults(t *testing.T) {
	cl, _ := serve(t, newSim(t), Options{Poll: -1})
	cl.until(TypeWindowItems)
	cl.raw(`{"type": "move_step", "payload": {"x": 10, "y": 64, "z": 8, "radius": 0, "sprint": false}}`)
	require.True(t, cl.result().OK)
	cl.take(TypeChunkData)

	cl.raw(`{"type": "block_dig", "payload": {"status": "start", "x": 11, "y": 64, "z": 8, "face": "auto", "hand": "main", "sequence": 1}}`)
	cl.raw(`{"type": "block_dig", "payload": {"status": "stop", "x": 11, "y": 64, "z": 8, "face": "auto", "hand": "main", "sequence": 2}}`)
	r := cl.result()
	require.True(t, r.OK, "%+v", r)
	assert.Equal(t, "break_block", r.Action)
	cd, ok := chunkAt(t, cl.take(TypeChunkData), 0, 0)
	require.True(t, ok)
	assert.Equal(t, PaletteEntry{ID: "minecraft:air"}, blockIn(t, cd, world.Pos(11, 64, 8)), "the log is dug")

	// The ground two blocks south is seen from above: its top is clicked
	// and the held dirt goes on it.
	cl.raw(`{"type": "block_place", "payload": {"x": 10, "y": 63, "z": 10, "face": "auto", "hand": "main", "cursor": [0.5, 1, 0.5]}}`)
	r = cl.result()
	require.True(t, r.OK, "%+v", r)
	assert.Equal(t, "place_block", r.Action)
	cd, ok = chunkAt(t, cl.take(TypeChunkData), 0, 0)
	require.True(t, ok)
	assert.Equal(t, PaletteEntry{ID: "minecraft:dirt"}, blockIn(t, cd, world.Pos(10, 64, 10)))

	// That dirt, two blocks south at the feet's level: its north side
	// faces the eyes more than its top, so the next goes north of it.
	cl.raw(`{"type": "block_place", "payload": {"x": 10, "y": 64, "z": 10, "face": "auto"}}`)
	r = cl.result()
	require.True(t, r.OK, "%+v", r)
	cd, ok = chunkAt(t, cl.take(TypeChunkData), 0, 0)
	require.True(t, ok)
	assert.Equal(t, PaletteEntry{ID: "minecraft:dirt"}, blockIn(t, cd, world.Pos(10, 64, 9)))
	assert.Equal(t, PaletteEntry{ID: "minecraft:air"}, blockIn(t, cd, world.Pos(10, 65, 10)), "not on its top")

	cl.raw(`{"type": "use_item", "payload": {"target": "self", "hand": "main"}}`)
	r = cl.result()
	assert.True(t, r.OK, "%+v", r)
	assert.Equal(t, "use_item", r.Action)
}

// advance moves the fake clock of the synctest bubble it runs in by d, once
// every goroutine of the bubble is blocked.
func advance(d time.Duration) {
	<-time.After(d)
	synctest.Wait()
}

// pipeClient is a client on one end of a net.Pipe whose lines arrive on in;
// in closes when the adapter closes the connection.
func pipeClient(c net.Conn) <-chan msg {
	in := make(chan msg, 4096)
	go func() {
		defer close(in)
		sc := bufio.NewScanner(c)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var m msg
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				in <- m
			}
		}
	}()
	return in
}

// drain returns the messages waiting on in and whether it is still open.
func drain(in <-chan msg) (ms []msg, open bool) {
	for {
		select {
		case m, ok := <-in:
			if !ok {
				return ms, false
			}
			ms = append(ms, m)
		default:
			return ms, true
		}
	}
}

// TestServeConnIdleTimeout: a client that sends nothing for the idle
// timeout is told so and disconnected; every line it sends, and every
// result, starts the wait again. Time is the synctest bubble's.
func TestServeConnIdleTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		server, client := net.Pipe()
		errc := make(chan error, 1)
		go func() {
			errc <- ServeConn(context.Background(), server, newSim(t), Options{Poll: -1, IdleTimeout: time.Minute})
		}()
		in := pipeClient(client)
		advance(time.Minute - time.Millisecond)
		ms, open := drain(in)
		require.True(t, open, "closed before the idle timeout")
		assert.NotContains(t, types(ms), TypeError)

		// A blank line is a line: the wait starts again.
		_, err := client.Write([]byte("\n"))
		require.NoError(t, err)
		advance(time.Minute - time.Millisecond)
		_, open = drain(in)
		require.True(t, open, "a line did not restart the idle wait")

		// An action: its result starts the wait again too.
		_, err = client.Write([]byte(`{"type":"move_step","payload":{"x":9,"y":64,"z":8}}` + "\n"))
		require.NoError(t, err)
		synctest.Wait()
		ms, open = drain(in)
		require.True(t, open)
		require.Contains(t, types(ms), TypeActionResult)
		advance(time.Minute - time.Millisecond)
		_, open = drain(in)
		require.True(t, open, "closed less than the idle timeout after the result")

		advance(time.Millisecond)
		ms, open = drain(in)
		assert.False(t, open, "still open after the idle timeout")
		require.NotEmpty(t, ms)
		last := ms[len(ms)-1]
		require.Equal(t, TypeError, last.Type)
		var e errorPayload
		last.decode(t, &e)
		assert.Equal(t, Idle, e.Code)
		assert.Contains(t, e.Message, "1m0s")
		assert.NoError(t, <-errc)
	})
}

// held is a body whose actions wait until the test releases them.
type held struct {
	*sim.Sim
	release chan struct{}
}

func (h *held) Execute(ctx context.Context, a action.Action) ipc.Result {
	select {
	case <-h.release:
	case <-ctx.Done():
		return ipc.Failf(ipc.Interrupted, 0, "%v", ctx.Err())
	}
	return h.Sim.Execute(ctx, a)
}

// TestServeConnNotIdleWhileActing: a client waiting for a long action, or
// with a dig started and not yet stopped, is not idle; the wait counts
// from the result.
func TestServeConnNotIdleWhileActing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		body := &held{Sim: newSim(t), release: make(chan struct{})}
		server, client := net.Pipe()
		errc := make(chan error, 1)
		go func() {
			errc <- ServeConn(context.Background(), server, body, Options{Poll: -1, IdleTimeout: time.Minute, DigTimeout: 90 * time.Second})
		}()
		in := pipeClient(client)
		send := func(line string) {
			_, err := client.Write([]byte(line + "\n"))
			require.NoError(t, err)
		}
		// A dig start and no stop: its timeout's result comes at 90 s, and
		// the idle wait starts there.
		send(`{"type":"block_dig","payload":{"status":"start","x":11,"y":64,"z":8,"face":"auto"}}`)
		advance(90 * time.Second)
		ms, open := drain(in)
		require.True(t, open, "closed while a dig waited for its stop")
		require.Contains(t, types(ms), TypeActionResult, "the dig timed out")
		advance(time.Minute - time.Millisecond)
		_, open = drain(in)
		require.True(t, open, "closed less than the idle timeout after the dig's result")

		// A move that takes 10.5 minutes.
		send(`{"type":"move_step","payload":{"x":9,"y":64,"z":8}}`)
		advance(10*time.Minute + 30*time.Second)
		ms, open = drain(in)
		require.True(t, open, "closed while an action ran")
		assert.NotContains(t, types(ms), TypeError)
		close(body.release)
		synctest.Wait()
		ms, _ = drain(in)
		require.Contains(t, types(ms), TypeActionResult)
		advance(time.Minute - time.Millisecond)
		_, open = drain(in)
		require.True(t, open, "closed less than the idle timeout after the move's result")
		advance(time.Millisecond)
		_, open = drain(in)
		assert.False(t, open, "still open a minute after the last result")
		assert.NoError(t, <-errc)
	})
}

// TestServeConnEquipFailureEndsTheUse: a use on an entity that must hold
// another item first stops at a failed equip; the result is the equip's.
func TestServeConnEquipFailureEndsTheUse(t *testing.T) {
	cl, _ := serve(t, newSim(t), Options{Poll: -1})
	cl.until(TypeWindowItems)
	cl.raw(`{"type":"use_item","payload":{"target":"entity","entity_id":12345,"item":"minecraft:shears"}}`)
	r := cl.result()
	assert.Equal(t, ActionResult{Request: TypeUseItem, Action: "equip", Code: ipc.InvalidParams, Error: r.Error}, r)
	// Holding it already: the entity is right-clicked at once.
	cl.raw(`{"type":"use_item","payload":{"target":"entity","entity_id":12345,"item":"minecraft:dirt"}}`)
	r = cl.result()
	assert.Equal(t, "interact", r.Action, "%+v", r)
}

// TestOptionsDefaults: zero options take the documented defaults; a
// negative idle timeout means none.
func TestOptionsDefaults(t *testing.T) {
	o := Options{}.withDefaults()
	assert.Equal(t, Options{MaxLine: 64 << 10, ViewRadius: 4, Poll: 250 * time.Millisecond, DigTimeout: 30 * time.Second,
		QueueBytes: 16 << 20, MaxPending: 16, IdleTimeout: 5 * time.Minute, Log: o.Log}, o)
	assert.Equal(t, -time.Second, Options{IdleTimeout: -time.Second}.withDefaults().IdleTimeout)
}

// TestServeConnDropsAClientThatReadsNothing: a write that the client does
// not take within the idle timeout ends the session, though the client
// keeps sending.
func TestServeConnDropsAClientThatReadsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		server, client := net.Pipe()
		defer client.Close()
		errc := make(chan error, 1)
		go func() {
			errc <- ServeConn(context.Background(), server, newSim(t), Options{Poll: -1, IdleTimeout: time.Minute})
		}()
		ended := func() bool {
			select {
			case err := <-errc:
				assert.NoError(t, err)
				return true
			default:
				return false
			}
		}
		// The first update's first line waits for the client from the start.
		advance(30 * time.Second)
		require.False(t, ended())
		_, err := client.Write([]byte("\n"))
		require.NoError(t, err, "the adapter reads while its write waits")
		advance(30*time.Second - time.Millisecond)
		require.False(t, ended(), "ended before a write waited the idle timeout")
		advance(time.Millisecond)
		assert.True(t, ended(), "a client that read nothing for the idle timeout is still served")
	})
}

// pipeListener is a loopback listener whose connections are the test's
// net.Pipe ends, so Serve runs inside a synctest bubble.
type pipeListener struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error { l.once.Do(func() { close(l.closed) }); return nil }

func (l *pipeListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 25600} }

func (l *pipeListener) dial() net.Conn {
	server, client := net.Pipe()
	l.conns <- server
	return client
}

// TestServeIdleClientFreesTheSlot: while a silent client holds the only
// slot, another is refused as busy; once the first times out, the next is
// served.
func TestServeIdleClientFreesTheSlot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ln := &pipeListener{conns: make(chan net.Conn), closed: make(chan struct{})}
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() { errc <- Serve(ctx, ln, newSim(t), Options{Poll: -1, IdleTimeout: time.Minute}) }()
		first := pipeClient(ln.dial())
		synctest.Wait()
		second := pipeClient(ln.dial())
		synctest.Wait()
		ms, open := drain(second)
		require.False(t, open)
		require.Len(t, ms, 1)
		var e errorPayload
		ms[0].decode(t, &e)
		assert.Equal(t, Busy, e.Code)

		advance(time.Minute)
		_, open = drain(first)
		require.False(t, open, "the silent client was not disconnected")
		third := ln.dial()
		in := pipeClient(third)
		_, err := third.Write([]byte(`{"type":"move_step","payload":{"x":9,"y":64,"z":8}}` + "\n"))
		require.NoError(t, err)
		synctest.Wait()
		ms, open = drain(in)
		require.True(t, open)
		assert.Contains(t, types(ms), TypeActionResult, "the next client is served")
		third.Close()
		cancel()
		assert.NoError(t, <-errc)
	})
}
