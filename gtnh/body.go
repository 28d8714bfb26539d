package gtnh

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

var (
	_ ipc.Body       = (*Client)(nil)
	_ ipc.ChatSource = (*Client)(nil)
)

// Info implements ipc.Body: the client executes every action kind.
func (c *Client) Info() ipc.Info { return ipc.Info{Name: "gtnh", Supports: action.Kinds()} }

// Observe implements ipc.Body: a snapshot of the world as the server sent
// it. While a reconnect is under way it waits for it.
func (c *Client) Observe(ctx context.Context) (*world.Snapshot, error) {
	if _, err := c.live(ctx); err != nil {
		return nil, err
	}
	return c.state.Snapshot(), nil
}

// live returns the playing session, waiting for a reconnect when one is
// configured.
func (c *Client) live(ctx context.Context) (*session, error) {
	if !c.opened.Load() {
		return nil, ErrNotConnected
	}
	wait := c.cfg.LoginTimeout + c.cfg.Reconnect.Max
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for {
		c.mu.Lock()
		s, ch := c.sess, c.changed
		// Joined, not just spawned: a reconnecting session is current from
		// Login Success on, but its world is loaded only once joined.
		ok := s != nil && s.isJoined() && s.cause() == nil
		c.mu.Unlock()
		if ok {
			return s, nil
		}
		select {
		case <-c.doneCh:
			if err := c.Err(); err != nil {
				return nil, fmt.Errorf("%w: %v", ErrNotConnected, err)
			}
			return nil, ErrClosed
		default:
		}
		if !c.cfg.Reconnect.Enabled {
			return nil, ErrNotConnected
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: %v", ErrNotConnected, ctx.Err())
		case <-ch:
		case <-time.After(c.cfg.Tick):
		}
	}
}

// Execute implements ipc.Body. Each action runs under its time limit and
// reports a code of the ipc taxonomy; Ticks counts the client's ticks it
// took.
func (c *Client) Execute(ctx context.Context, a action.Action) ipc.Result {
	if err := ctx.Err(); err != nil {
		return ipc.Failf(ipc.Interrupted, 0, "%v", err)
	}
	s, err := c.live(ctx)
	if err != nil {
		return ipc.Failf(ipc.IOError, 0, "%v", err)
	}
	start := c.ticks.Load()
	c.mu.Lock()
	deaths, told := c.stats.Deaths, c.deathMsgs
	c.mu.Unlock()
	actx, cancel := context.WithTimeout(ctx, c.cfg.timeoutOf(a))
	defer cancel()
	stopGuard := func() (ipc.Threat, bool) { return ipc.Threat{}, false }
	if g, ok := ipc.GuardOf(ctx); ok {
		// A mob coming near ends the action where it is (ipc.Guard): a
		// walk stops, a dig is left, a wait ends.
		actx, stopGuard = c.watchMobs(actx, s, newGuardWatch(g, c.rules.Mobs, c.state.Snapshot()))
	}
	x := &act{c: c, s: s, ctx: actx, parent: ctx}
	res := x.run(a)
	if th, ok := stopGuard(); ok {
		if res.Details == nil {
			res.Details = map[string]any{}
		}
		res.Details[ipc.DetailThreat] = th.Detail()
		if res.Code != ipc.OK {
			res.Code, res.Error = ipc.Interrupted, fmt.Sprintf("%s interrupted: %s", a.Kind(), th)
		}
	}
	res.Ticks = c.ticks.Load() - start
	c.mu.Lock()
	died, at := c.stats.Deaths > deaths, c.diedAt
	msg, hasMsg := c.deathMsg, c.deathMsgs > told
	c.mu.Unlock()
	if died {
		// As in the simulator: a death ends the action, and the result
		// says where the inventory fell and, as the server told it in
		// chat (1.7.10 sends the message before the health of 0), why.
		if res.Details == nil {
			res.Details = map[string]any{}
		}
		res.Details["died"], res.Details["died_at"] = true, at
		why := ""
		if hasMsg {
			res.Details["death_cause"], res.Details["death_message"] = msg.Text, msg.Key
			why = ": " + msg.Text
		}
		if res.Code == ipc.OK {
			res.Code, res.Error = ipc.Rejected, fmt.Sprintf("the player died at %v during the %s%s", at.Block(), a.Kind(), why)
		}
	}
	if res.Code != ipc.OK {
		c.log.Info().Str("action", string(a.Kind())).Str("code", string(res.Code)).Str("error", res.Error).Msg("action failed")
	}
	return res
}

// act is one action being executed.
type act struct {
	c      *Client
	s      *session
	ctx    context.Context // with the action's time limit
	parent context.Context // the caller's
	// walkOnly keeps move_to from digging: set while a digging route is
	// carried out, so that walking to a drop never starts a dig of its own.
	walkOnly bool
}

func (x *act) run(a action.Action) ipc.Result {
	switch a := a.(type) {
	case action.MoveTo:
		return x.moveTo(a)
	case action.BreakBlock:
		return x.breakBlock(a)
	case action.PlaceBlock:
		return x.placeBlock(a)
	case action.UseItem:
		return x.useItem(a)
	case action.Interact:
		return x.interact(a)
	case action.Equip:
		return x.equip(a)
	case action.OpenContainer:
		return x.openContainer(a)
	case action.CloseContainer:
		return x.closeContainer()
	case action.TransferItems:
		return x.transfer(a)
	case action.Craft:
		return x.craft(a)
	case action.Wait:
		if err := x.c.waitTicks(x.ctx, x.s, int64(a.Ticks)); err != nil {
			return x.fail(err, "waiting")
		}
		return ipc.Result{Code: ipc.OK}
	case action.Chat:
		return x.chat(a)
	case action.Attack:
		return x.attack(a)
	case action.DropItem:
		return x.dropItem(a)
	}
	return ipc.Failf(ipc.UnsupportedAction, 0, "the GTNH client has no rule for %s", a.Kind())
}

// errRejected marks a refusal by the server.
var errRejected = errors.New("rejected by the server")

// fail maps an error to a result: the caller's cancellation is
// Interrupted, the action's own deadline Timeout, a lost connection
// IOError, a server refusal Rejected.
func (x *act) fail(err error, what string) ipc.Result {
	switch {
	case x.parent.Err() != nil:
		return ipc.Failf(ipc.Interrupted, 0, "%s: %v", what, x.parent.Err())
	case errors.Is(err, context.DeadlineExceeded):
		return ipc.Failf(ipc.Timeout, 0, "%s: no answer from the server within the time limit", what)
	case errors.Is(err, ErrNotConnected), errors.Is(err, ErrClosed):
		return ipc.Failf(ipc.IOError, 0, "%s: %v", what, err)
	case errors.Is(err, errRejected):
		return ipc.Failf(ipc.Rejected, 0, "%s: %v", what, err)
	}
	return ipc.Failf(ipc.IOError, 0, "%s: %v", what, err)
}

// within waits for cond up to n ticks; false when the ticks passed first.
func (x *act) within(n int64, cond func() bool) (bool, error) {
	end := x.c.ticks.Load() + n
	var met bool
	err := x.c.waitFor(x.ctx, x.s, func() bool {
		met = cond()
		return met || x.c.ticks.Load() >= end
	})
	return met, err
}

// serverWait waits for the server (cond) up to n of the client's ticks;
// false when they passed first. The client ticks at the game's rate
// (Config.Tick, DefaultTick), so n ticks are the time the server takes for
// n of its own.
func (x *act) serverWait(n int64, cond func() bool) (bool, error) { return x.within(n, cond) }

// answer waits for the server's answer (cond) up to answerTicks ticks;
// false when they passed first.
func (x *act) answer(cond func() bool) (bool, error) { return x.serverWait(answerTicks, cond) }

// blockAt reads one block (c.mu may be held).
func (x *act) blockAt(p world.BlockPos) world.Block {
	var b world.Block
	x.c.state.Update(func(tx *world.Tx) { b = tx.BlockAt(p) })
	return b
}

// loaded reports whether p's column is loaded.
func (x *act) loaded(p world.BlockPos) bool {
	x.c.mu.Lock()
	defer x.c.mu.Unlock()
	return x.s.loaded[[2]int{p.X >> 4, p.Z >> 4}]
}

// body returns a copy of the body.
func (x *act) body() motion {
	x.c.mu.Lock()
	defer x.c.mu.Unlock()
	b := x.s.body
	b.route = nil
	return b
}

// reach checks the distance from the eyes to a block's centre.
func (x *act) reach(p world.BlockPos) (ipc.Result, bool) {
	b := x.body()
	if d := math.Sqrt(b.eye().DistSq(p.Center())); d > Reach+0.01 {
		return ipc.Failf(ipc.Unreachable, 0, "%v is %.2f blocks from the eyes; reach is %.1f", p, d, Reach), false
	}
	return ipc.Result{}, true
}

// look turns to a point and tells the server.
func (x *act) look(p world.Vec3) error {
	x.c.mu.Lock()
	b := &x.s.body
	b.lookAt(p)
	pk := &proto17.PlayerLook{Yaw: b.yaw, Pitch: b.pitch, OnGround: b.onGround}
	b.sentLook = [2]float32{b.yaw, b.pitch}
	x.c.mu.Unlock()
	return x.c.send(x.s, pk)
}

func (x *act) swing() error {
	x.c.mu.Lock()
	id := x.s.entityID
	x.c.mu.Unlock()
	return x.c.send(x.s, &proto17.Animation{EntityID: id, Animation: proto17.AnimationSwingArm})
}

// faceToward is the face of block p that looks towards point e.
func faceToward(p world.BlockPos, e world.Vec3) int8 {
	c := p.Center()
	dx, dy, dz := e.X-c.X, e.Y-c.Y, e.Z-c.Z
	ax, ay, az := math.Abs(dx), math.Abs(dy), math.Abs(dz)
	switch {
	case ay >= ax && ay >= az && dy > 0:
		return proto17.FaceTop
	case ay >= ax && ay >= az:
		return proto17.FaceBottom
	case ax >= az && dx > 0:
		return proto17.FaceEast
	case ax >= az:
		return proto17.FaceWest
	case dz > 0:
		return proto17.FaceSouth
	}
	return proto17.FaceNorth
}

// faceOffsets are the normals of the faces, by face id.
var faceOffsets = [6][3]int{{0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}, {-1, 0, 0}, {1, 0, 0}}

// faceNames maps the action vocabulary's faces to face ids.
var faceNames = map[string]int8{"down": proto17.FaceBottom, "up": proto17.FaceTop, "north": proto17.FaceNorth,
	"south": proto17.FaceSouth, "west": proto17.FaceWest, "east": proto17.FaceEast}

// faceCursor is the hit point on a face, in 1/16 block.
func faceCursor(face int8) (uint8, uint8, uint8) {
	o := faceOffsets[face]
	cur := func(v int) uint8 { return uint8(8 + 8*v) }
	return cur(o[0]), cur(o[1]), cur(o[2])
}

// ChatSince implements ipc.ChatSource: the received lines numbered seq or
// later, of the last 256, as the chat log keeps them (the operator secret
// already replaced by [REDACTED]).
func (c *Client) ChatSince(seq uint64) ([]ipc.ChatLine, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []ipc.ChatLine
	for _, m := range c.chatLog {
		if m.Seq >= seq {
			out = append(out, ipc.ChatLine{Seq: m.Seq, From: m.Sender, Text: m.Text, Tick: m.Tick})
		}
	}
	return out, c.chatSeq + 1
}
