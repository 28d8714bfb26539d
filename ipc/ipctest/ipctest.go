// Package ipctest is a conformance suite for body implementations: any
// ipc.Conn — a Body behind ipc.InProcess, the remote client in front of a
// served body, a body of your own — can run it from a test:
//
//	func TestMyBody(t *testing.T) {
//		ipctest.TestBody(t, func(t *testing.T) ipc.Conn {
//			return ipc.InProcess(newMyBody(t))
//		}, ipctest.Options{Walk: &walk, Break: &log})
//	}
//
// The suite checks the contract of docs/ipc.md and checks effects rather
// than trusting results: a successful move_to must change the observed
// position, a successful break_block must leave air in the next
// observation.
package ipctest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Options describe what the body's world offers the suite.
type Options struct {
	// Walk is a position the player can walk to from where it starts, at
	// least two blocks away; nil skips the move_to effect check.
	Walk *world.BlockPos
	// Break is a block the player can break after walking to Walk (or from
	// its start when Walk is nil); nil skips the break_block effect check.
	Break *world.BlockPos
	// ActionTimeout bounds each action the suite runs (0: 10 s).
	ActionTimeout time.Duration
	// Prompt is how soon after its context is cancelled an action must
	// return (0: 2 s).
	Prompt time.Duration
}

func (o Options) actionTimeout() time.Duration {
	if o.ActionTimeout > 0 {
		return o.ActionTimeout
	}
	return 10 * time.Second
}

func (o Options) prompt() time.Duration {
	if o.Prompt > 0 {
		return o.Prompt
	}
	return 2 * time.Second
}

// unknownKind is an action no body supports: its kind is not in the
// taxonomy.
type unknownKind struct{}

func (unknownKind) Kind() action.Kind { return "ipctest_fly" }
func (unknownKind) Validate() error   { return nil }

// TestBody runs the conformance suite. open returns a fresh connection to a
// body in its starting world; the suite calls it once per subtest and
// closes what it returns (closing twice, to check that Close is
// idempotent).
func TestBody(t *testing.T, open func(t *testing.T) ipc.Conn, opts Options) {
	s := &suite{open: open, opts: opts}
	t.Run("Hello", s.hello)
	t.Run("Observe", s.observe)
	t.Run("ConcurrentObserve", s.concurrentObserve)
	t.Run("ResultCodes", s.resultCodes)
	t.Run("UnsupportedAction", s.unsupported)
	t.Run("InvalidParams", s.invalidParams)
	t.Run("Cancelled", s.cancelled)
	t.Run("CancelInFlight", s.cancelInFlight)
	t.Run("MoveTo", s.moveTo)
	t.Run("BreakBlock", s.breakBlock)
	t.Run("Close", s.close)
}

type suite struct {
	open func(t *testing.T) ipc.Conn
	opts Options
}

// conn opens a connection and closes it when the subtest ends.
func (s *suite) conn(t *testing.T) ipc.Conn {
	t.Helper()
	c := s.open(t)
	require.NotNil(t, c, "open returned no connection")
	t.Cleanup(func() { c.Close() })
	return c
}

func (s *suite) ctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.actionTimeout())
	t.Cleanup(cancel)
	return ctx
}

func (s *suite) info(t *testing.T, c ipc.Conn) ipc.Info {
	t.Helper()
	info, err := c.Hello(s.ctx(t))
	require.NoError(t, err, "hello")
	return info
}

func (s *suite) snapshot(t *testing.T, c ipc.Conn) *world.Snapshot {
	t.Helper()
	snap, err := c.Observe(s.ctx(t))
	require.NoError(t, err, "observe")
	require.NotNil(t, snap, "observe returned no snapshot and no error")
	return snap
}

// execute runs a under the suite's time limit and checks what every result
// must satisfy: no transport error, a code of the taxonomy, ticks not
// negative.
func (s *suite) execute(t *testing.T, c ipc.Conn, a action.Action) ipc.Result {
	t.Helper()
	res, err := c.Execute(s.ctx(t), a)
	require.NoError(t, err, "execute %s: a transport error", a.Kind())
	checkResult(t, a, res)
	return res
}

func checkResult(t *testing.T, a action.Action, res ipc.Result) {
	t.Helper()
	assert.True(t, res.Code.Valid(), "%s: result code %q is not in the taxonomy", a.Kind(), res.Code)
	assert.GreaterOrEqual(t, res.Ticks, int64(0), "%s: negative ticks", a.Kind())
	if !res.OK() {
		assert.NotEmpty(t, res.Error, "%s: a %s result says nothing about why", a.Kind(), res.Code)
	}
}

func (s *suite) hello(t *testing.T) {
	c := s.conn(t)
	info := s.info(t, c)
	assert.NotEmpty(t, info.Name, "the body has no name")
	require.NotEmpty(t, info.Supports, "the body supports no action kind")
	seen := map[action.Kind]bool{}
	for _, k := range info.Supports {
		assert.True(t, k.Valid(), "supported kind %q is not an action kind", k)
		assert.False(t, seen[k], "kind %q is listed twice", k)
		seen[k] = true
	}
	again := s.info(t, c)
	assert.Equal(t, info, again, "hello answers differently the second time")
}

func (s *suite) observe(t *testing.T) {
	c := s.conn(t)
	first := s.snapshot(t, c)
	checkSnapshot(t, first)
	second := s.snapshot(t, c)
	checkSnapshot(t, second)
	assert.GreaterOrEqual(t, second.Tick, first.Tick, "the tick went backwards between two observations")
	if supports(s.info(t, c), action.KindWait) {
		res := s.execute(t, c, action.Wait{Ticks: 5})
		third := s.snapshot(t, c)
		assert.GreaterOrEqual(t, third.Tick, second.Tick, "the tick went backwards across an action")
		if res.OK() {
			assert.Greater(t, third.Tick, second.Tick, "a successful wait of 5 ticks left the clock where it was")
		}
	}
}

func checkSnapshot(t *testing.T, snap *world.Snapshot) {
	t.Helper()
	assert.GreaterOrEqual(t, snap.Tick, int64(0), "negative tick")
	assert.NotEmpty(t, snap.Player.Dimension, "the snapshot has no player (no dimension)")
	p := snap.Player.Pos
	for _, v := range []float64{p.X, p.Y, p.Z} {
		assert.False(t, math.IsNaN(v) || math.IsInf(v, 0), "player position %v is not finite", p)
	}
	assert.GreaterOrEqual(t, snap.Player.Health, 0.0, "negative health")
	assert.NotNil(t, snap.Blocks, "the snapshot has no block source")
	for i, st := range snap.Inventory.Slots {
		assert.GreaterOrEqual(t, st.Count, 0, "slot %d holds %d %s", i, st.Count, st.ID)
	}
}

func (s *suite) concurrentObserve(t *testing.T) {
	c := s.conn(t)
	// With Options.Break, every snapshot must read the same block there
	// as a lone observation does.
	var probe world.BlockPos
	var want world.Block
	if s.opts.Break != nil {
		probe = *s.opts.Break
		want = s.snapshot(t, c).BlockAt(probe)
	}
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				snap, err := c.Observe(s.ctx(t))
				if err != nil {
					errs <- err
					return
				}
				if snap == nil || snap.Player.Dimension == "" {
					errs <- errors.New("an empty snapshot")
					return
				}
				if s.opts.Break != nil {
					if got := snap.BlockAt(probe); got.ID != want.ID || got.Meta != want.Meta {
						errs <- fmt.Errorf("the block at %v reads %s, alone %s", probe, describe(got), describe(want))
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent observe: %v", err)
	}
}

// samples returns a well-formed action of each kind, aimed near the player.
func samples(snap *world.Snapshot) map[action.Kind]action.Action {
	feet := snap.Player.Pos.Block()
	below := feet.Down()
	return map[action.Kind]action.Action{
		action.KindMoveTo:         action.MoveTo{Pos: feet, Radius: 1},
		action.KindBreakBlock:     action.BreakBlock{Pos: feet.Add(0, 1, 0)},
		action.KindPlaceBlock:     action.PlaceBlock{Pos: feet.Add(1, 0, 0), Item: "minecraft:dirt", Face: "up"},
		action.KindUseItem:        action.UseItem{Item: "minecraft:apple"},
		action.KindInteract:       action.Interact{Pos: &below},
		action.KindEquip:          action.Equip{Item: "minecraft:stick"},
		action.KindOpenContainer:  action.OpenContainer{Pos: below},
		action.KindCloseContainer: action.CloseContainer{},
		action.KindTransferItems:  action.TransferItems{Pos: below, Item: "minecraft:dirt", Count: 1, Direction: action.Deposit},
		action.KindCraft:          action.Craft{Item: "minecraft:stick", Count: 1},
		action.KindWait:           action.Wait{Ticks: 1},
		action.KindChat:           action.Chat{Message: "ipctest"},
		action.KindAttack:         action.Attack{Entity: 1},
		action.KindDropItem:       action.DropItem{Item: "minecraft:dirt", Count: 1},
	}
}

// invalid returns an action of each kind whose parameters are malformed.
func invalid() map[action.Kind]action.Action {
	return map[action.Kind]action.Action{
		action.KindMoveTo:        action.MoveTo{Radius: -1},
		action.KindPlaceBlock:    action.PlaceBlock{Item: "minecraft:dirt", Face: "sideways"},
		action.KindUseItem:       action.UseItem{Item: ""},
		action.KindInteract:      action.Interact{},
		action.KindEquip:         action.Equip{Item: ""},
		action.KindTransferItems: action.TransferItems{Item: "minecraft:dirt", Count: 0, Direction: action.Deposit},
		action.KindCraft:         action.Craft{Item: "minecraft:stick", Count: 0},
		action.KindWait:          action.Wait{Ticks: 0},
		action.KindChat:          action.Chat{Message: ""},
		action.KindAttack:        action.Attack{Entity: -1},
		action.KindDropItem:      action.DropItem{Item: "minecraft:dirt", Count: 0},
	}
}

func supports(info ipc.Info, k action.Kind) bool {
	return action.NewKindSet(info.Supports...).Has(k)
}

func (s *suite) resultCodes(t *testing.T) {
	c := s.conn(t)
	info := s.info(t, c)
	for _, k := range info.Supports {
		a, ok := samples(s.snapshot(t, c))[k]
		if !ok {
			continue
		}
		res := s.execute(t, c, a)
		t.Logf("%s: %s %s", k, res.Code, res.Error)
		assert.NotEqual(t, ipc.UnsupportedAction, res.Code, "%s is listed as supported", k)
		assert.NotEqual(t, ipc.Internal, res.Code, "%s: the body failed internally: %s", k, res.Error)
	}
	// Observing still works after every kind ran.
	checkSnapshot(t, s.snapshot(t, c))
}

func (s *suite) unsupported(t *testing.T) {
	c := s.conn(t)
	res := s.execute(t, c, unknownKind{})
	assert.Equal(t, ipc.UnsupportedAction, res.Code, "an action kind outside the taxonomy: %s", res.Error)
	info := s.info(t, c)
	snap := s.snapshot(t, c)
	for k, a := range samples(snap) {
		if supports(info, k) {
			continue
		}
		res := s.execute(t, c, a)
		assert.Equal(t, ipc.UnsupportedAction, res.Code, "%s is not listed as supported: %s", k, res.Error)
	}
}

func (s *suite) invalidParams(t *testing.T) {
	c := s.conn(t)
	info := s.info(t, c)
	before := s.snapshot(t, c)
	n := 0
	for k, a := range invalid() {
		if !supports(info, k) {
			continue
		}
		n++
		res := s.execute(t, c, a)
		assert.Equal(t, ipc.InvalidParams, res.Code, "%s with malformed parameters %+v: %s", k, a, res.Error)
		assert.Zero(t, res.Ticks, "%s: a refused action took game time", k)
	}
	if n == 0 {
		t.Skip("the body supports no kind with parameters to get wrong")
	}
	after := s.snapshot(t, c)
	assert.Equal(t, before.Player.Pos, after.Player.Pos, "refused actions moved the player")
	assert.Equal(t, before.Inventory, after.Inventory, "refused actions changed the inventory")
}

// cancelled: an action whose context is already cancelled is interrupted
// and has no effect.
func (s *suite) cancelled(t *testing.T) {
	c := s.conn(t)
	info := s.info(t, c)
	before := s.snapshot(t, c)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var a action.Action = action.Wait{Ticks: 20}
	if s.opts.Walk != nil && supports(info, action.KindMoveTo) {
		a = action.MoveTo{Pos: *s.opts.Walk}
	} else if !supports(info, action.KindWait) {
		t.Skip("the body supports neither move_to nor wait")
	}
	res, err := c.Execute(ctx, a)
	require.NoError(t, err, "a cancelled context is not a transport failure")
	checkResult(t, a, res)
	assert.Equal(t, ipc.Interrupted, res.Code, "an action with a cancelled context: %s", res.Error)
	after := s.snapshot(t, c)
	assert.Equal(t, before.Player.Pos, after.Player.Pos, "an action cancelled before it started moved the player")
}

// cancelInFlight: cancelling a long action makes it return promptly, as
// interrupted — or as ok when the body had finished it (a simulator
// computes a long wait in less time than the suite waits before
// cancelling).
func (s *suite) cancelInFlight(t *testing.T) {
	c := s.conn(t)
	if !supports(s.info(t, c), action.KindWait) {
		t.Skip("the body does not support wait")
	}
	a := action.Wait{Ticks: 1 << 16}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type out struct {
		res ipc.Result
		err error
		at  time.Time
	}
	done := make(chan out, 1)
	go func() {
		res, err := c.Execute(ctx, a)
		done <- out{res, err, time.Now()}
	}()
	time.Sleep(50 * time.Millisecond)
	cancelled := time.Now()
	cancel()
	select {
	case o := <-done:
		require.NoError(t, o.err, "a cancelled action is not a transport failure")
		checkResult(t, a, o.res)
		if o.at.After(cancelled) && o.res.Code != ipc.OK {
			assert.Equal(t, ipc.Interrupted, o.res.Code, "an action cancelled in flight: %s", o.res.Error)
		}
	case <-time.After(s.opts.prompt()):
		t.Fatalf("a cancelled wait did not return within %v", s.opts.prompt())
	}
	// The body is still usable.
	checkSnapshot(t, s.snapshot(t, c))
}

func near(p world.Vec3, target world.BlockPos, radius float64) bool {
	c := target.Center()
	dx, dz := p.X-c.X, p.Z-c.Z
	return math.Sqrt(dx*dx+dz*dz) <= radius+1.5 && math.Abs(p.Y-float64(target.Y)) <= 2
}

// walk moves to opts.Walk and checks the effect.
func (s *suite) walk(t *testing.T, c ipc.Conn) {
	t.Helper()
	target := *s.opts.Walk
	before := s.snapshot(t, c)
	require.False(t, near(before.Player.Pos, target, 0.5), "Options.Walk %v must be away from the start %v", target, before.Player.Pos)
	res := s.execute(t, c, action.MoveTo{Pos: target, Radius: 0.5})
	require.Equal(t, ipc.OK, res.Code, "move_to %v: %s", target, res.Error)
	after := s.snapshot(t, c)
	assert.NotEqual(t, before.Player.Pos, after.Player.Pos, "move_to reported ok but the player did not move")
	assert.True(t, near(after.Player.Pos, target, 0.5), "move_to %v reported ok but the player is at %v", target, after.Player.Pos)
	assert.GreaterOrEqual(t, after.Tick, before.Tick, "the tick went backwards across move_to")
}

func (s *suite) moveTo(t *testing.T) {
	if s.opts.Walk == nil {
		t.Skip("Options.Walk is not set")
	}
	c := s.conn(t)
	if !supports(s.info(t, c), action.KindMoveTo) {
		t.Skip("the body does not support move_to")
	}
	s.walk(t, c)
}

func (s *suite) breakBlock(t *testing.T) {
	if s.opts.Break == nil {
		t.Skip("Options.Break is not set")
	}
	c := s.conn(t)
	info := s.info(t, c)
	if !supports(info, action.KindBreakBlock) {
		t.Skip("the body does not support break_block")
	}
	if s.opts.Walk != nil && supports(info, action.KindMoveTo) {
		s.walk(t, c)
	}
	target := *s.opts.Break
	before := s.snapshot(t, c)
	require.False(t, before.BlockAt(target).IsAir(), "Options.Break %v is air", target)
	res := s.execute(t, c, action.BreakBlock{Pos: target})
	require.Equal(t, ipc.OK, res.Code, "break_block %v: %s", target, res.Error)
	after := s.snapshot(t, c)
	assert.True(t, after.BlockAt(target).IsAir(), "break_block %v reported ok but the next observation shows %s", target, describe(after.BlockAt(target)))
}

func describe(b world.Block) string { return fmt.Sprintf("%s:%d", b.ID, b.Meta) }

func (s *suite) close(t *testing.T) {
	c := s.open(t)
	s.snapshot(t, c)
	done := make(chan [2]error, 1)
	go func() {
		first := c.Close()
		done <- [2]error{first, c.Close()}
	}()
	select {
	case errs := <-done:
		assert.NoError(t, errs[0], "the first close")
		assert.NoError(t, errs[1], "a second close must be a no-op")
	case <-time.After(s.opts.prompt()):
		t.Fatalf("close did not return within %v", s.opts.prompt())
	}
	ctx := s.ctx(t)
	_, err := c.Observe(ctx)
	assert.Error(t, err, "observe on a closed connection")
	res, err := c.Execute(ctx, action.Wait{Ticks: 1})
	assert.True(t, err != nil || !res.OK(), "execute on a closed connection succeeded")
}

// Pipes returns the two ends of a connection over OS pipes, the way a
// child process's stdin and stdout join its parent: what one end writes,
// the other reads. Both are closed when the test ends.
func Pipes(t testing.TB) (a, b io.ReadWriteCloser) {
	t.Helper()
	r1, w1, err := os.Pipe()
	if err != nil {
		t.Fatalf("ipctest: pipe: %v", err)
	}
	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatalf("ipctest: pipe: %v", err)
	}
	a, b = pipeEnd{r: r2, w: w1}, pipeEnd{r: r1, w: w2}
	t.Cleanup(func() { a.Close(); b.Close() })
	return a, b
}

// pipeEnd joins the read end of one OS pipe and the write end of another.
type pipeEnd struct{ r, w *os.File }

func (p pipeEnd) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeEnd) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipeEnd) Close() error {
	p.w.Close()
	return p.r.Close()
}
