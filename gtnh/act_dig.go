package gtnh

import (
	"errors"
	"fmt"
	"math"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/gtnh-agent/gtnh-agent/world/path"
	"github.com/gtnh-agent/gtnh-agent/world/path/digroute"
)

// errReplan ends a digging route early because the world is not as the
// route assumed: a block the server did not break, a placement it did not
// make, the player somewhere other than the route's last step (a drop
// walked to, a block change nobody expected). move_to plans again from
// where the player is.
var errReplan = errors.New("the world is not as the route assumed")

// replanError is errReplan with what was found.
type replanError struct{ why string }

func (e *replanError) Error() string { return e.why }
func (e *replanError) Unwrap() error { return errReplan }

func replan(format string, args ...any) error {
	return &replanError{why: fmt.Sprintf(format, args...)}
}

// tooling is how the live client judges tools: the shared mining table,
// tools it does not know taken as stone-grade (otherToolLevel, toolSpeed)
// so that a wrong guess digs longer, never too short, and Efficiency read
// from the stack's enchantments.
func (x *act) tooling() digroute.Tooling {
	m := x.c.rules.Mining
	return digroute.Tooling{
		Harvests: func(rule rules.BlockRule, st world.ItemStack) bool { return m.Harvests(rule, st, otherToolLevel) },
		Speed: func(slot int, st world.ItemStack, class string) float64 {
			var raw proto17.Slot
			if slot >= 0 {
				x.c.mu.Lock()
				raw = x.s.inv.player[x.s.inv.playerSlot(0, slot)]
				x.c.mu.Unlock()
			}
			return toolSpeed(m, st, raw, class)
		},
	}
}

// digRoute plans a route that digs and places over a snapshot of the
// client's world, with the planner the simulator uses (package digroute):
// blocks in columns the server has not sent, the machines the client
// knows and the move's keep list stay standing.
//
// byHand reports a route that breaks by hand what nothing held harvests
// (digroute.Planner.Route's last way out).
func (x *act) digRoute(snap *world.Snapshot, loaded map[[2]int]bool, start world.BlockPos, goal path.Target, keep []world.BlockPos) (r path.Result, why string, byHand bool, err error) {
	chunks, _ := world.ChunksOf(snap.Blocks)
	if chunks == nil {
		return path.Result{Reason: path.Unreachable}, "; no terrain known", false, nil
	}
	machines := map[world.BlockPos]bool{} // and the move's keep list
	for _, m := range snap.Machines {
		machines[m.Pos] = true
	}
	for _, q := range keep {
		machines[q] = true
	}
	p := &digroute.Planner{
		Finder: path.NewFinder(),
		Grid:   snapshotGrid(snap, loaded),
		State:  func(q world.BlockPos) chunk.StateID { return chunks.StateAt(q.X, q.Y, q.Z) },
		Block:  snap.BlockAt,
		Rule:   func(b world.Block) rules.BlockRule { return blockInfoOf(x.c.rules.Mining, b) },
		Keep: func(q world.BlockPos) bool {
			return machines[q] || !loaded[[2]int{q.X >> 4, q.Z >> 4}]
		},
		Rules:     x.c.rules,
		Tools:     x.tooling(),
		Inventory: snap.Inventory,
		Weight:    digroute.Weight,
	}
	r, why, err = p.Route(start, goal)
	return r, why, p.ByHand, err
}

// followDig carries out a digging route move by move over the protocol.
// Before each move the player must stand where the route put it; each
// block to break is broken with the inventory's best harvesting tool
// (break_block: the dig counts when the server's Block Change says air);
// a block to place is a scaffold block placed against a face, and a pillar
// is placed under the feet at the top of a jump; then the player steps.
// Drops of the broken blocks are collected by walking only (no digging
// inside a dig). On a route planned by hand, a block nothing held
// harvests is broken by hand (digroute.BreakTool). It returns the blocks
// broken and placed; errReplan (or errCorrected, errStuck) when the server
// disagreed with the route.
func (x *act) followDig(steps []path.Step, byHand bool) (dug, placed int, err error) {
	x.walkOnly = true
	defer func() { x.walkOnly = false }()
	corr := x.corrections()
	// where checks that the player stands where the route says and the
	// server has corrected nothing meanwhile (while a block was dug, say).
	where := func(ok ...world.BlockPos) error {
		if x.corrections() != corr {
			return errCorrected
		}
		here := x.feetCell()
		for _, p := range ok {
			if here == p {
				return nil
			}
		}
		return replan("the player stands at %v, not %v", here, ok[0])
	}
	for k := 1; k < len(steps); k++ {
		prev, st := steps[k-1].Pos, steps[k]
		if err := where(prev); err != nil {
			return dug, placed, err
		}
		for _, p := range st.Break {
			if err := x.digOut(p, byHand); err != nil {
				return dug, placed, err
			}
			dug++
			// Digging under the feet drops the player into the cell.
			if err := where(prev, steps[k].Pos); err != nil {
				return dug, placed, err
			}
		}
		switch st.Move {
		case path.MovePillar:
			if err := x.pillar(prev); err != nil {
				return dug, placed, err
			}
			placed++
			continue
		case path.MoveBridge:
			for _, p := range st.Place {
				slot, id := digroute.ScaffoldSlot(x.c.state.Snapshot().Inventory)
				if slot < 0 {
					return dug, placed, fmt.Errorf("no dirt or cobblestone left to place at %v", p)
				}
				if r := x.placeBlock(action.PlaceBlock{Pos: p, Item: id}); r.Code != ipc.OK {
					return dug, placed, replan("placing %s at %v: %s", id, p, r.Error)
				}
				placed++
			}
		}
		snap := x.c.state.Snapshot()
		for _, q := range []world.BlockPos{st.Pos, st.Pos.Up()} {
			if b := snap.BlockAt(q); path.ClassifyByTags(b) == path.Solid {
				return dug, placed, replan("%s at %v stands in the way", b.ID, q)
			}
		}
		if err := x.walk(route(steps[k:k+1], snapshotStandY(snap))); err != nil {
			return dug, placed, err
		}
	}
	return dug, placed, nil
}

// corrections is the number of position corrections the server has sent.
func (x *act) corrections() int {
	x.c.mu.Lock()
	defer x.c.mu.Unlock()
	return x.s.body.corrections
}

// feetCell is the cell of the player's feet now.
func (x *act) feetCell() world.BlockPos {
	b := x.body()
	x.c.mu.Lock()
	loaded := x.s.loaded
	x.c.mu.Unlock()
	var out world.BlockPos
	x.c.state.Update(func(tx *world.Tx) {
		g := path.GridFunc(func(cx, cy, cz int) path.Cell {
			if !loaded[[2]int{cx >> 4, cz >> 4}] {
				return path.Unknown
			}
			return path.ClassifyByTags(tx.BlockAt(world.Pos(cx, cy, cz)))
		})
		out = path.FeetCell(g, ifloor(b.x), b.y, ifloor(b.z))
	})
	return out
}

// digOut breaks one block of a route with the inventory's best harvesting
// tool, equipped first (nothing is equipped when the hand is as good), or
// by hand on a route planned so.
func (x *act) digOut(p world.BlockPos, byHand bool) error {
	b := x.blockAt(p)
	if b.IsAir() || path.ClassifyByTags(b) != path.Solid {
		return nil // gone already (a neighbour's drop, the server)
	}
	inv := x.c.state.Snapshot().Inventory
	slot, ok := digroute.BreakTool(inv, blockInfoOf(x.c.rules.Mining, b), x.tooling(), byHand)
	if !ok {
		return replan("nothing in the inventory harvests %s at %v", b.ID, p)
	}
	if slot >= 0 && slot != inv.Held {
		if err := x.hold(slot); err != nil {
			return err
		}
	}
	if r := x.breakBlock(action.BreakBlock{Pos: p}); r.Code != ipc.OK {
		if r.Code == ipc.IOError || r.Code == ipc.Interrupted {
			return errors.New(r.Error)
		}
		return replan("breaking %s at %v: %s", b.ID, p, r.Error)
	}
	return nil
}

// pillarRise is how far above the block it places the feet must be before
// a pillar's block is placed under them (the server refuses a block that
// would be inside the player); a jump's feet rise 1.25 blocks.
const pillarRise = 1.1

// pillar jumps in place and places a scaffold block in the cell at the top
// of the jump, against the top face of the block below; the body lands on
// it. The placement counts when the server's Block Change shows the block.
func (x *act) pillar(at world.BlockPos) error {
	slot, id := digroute.ScaffoldSlot(x.c.state.Snapshot().Inventory)
	if slot < 0 {
		return fmt.Errorf("no dirt or cobblestone left to pillar with at %v", at)
	}
	if err := x.hold(slot); err != nil {
		return err
	}
	x.c.mu.Lock()
	heldRaw := x.s.inv.heldSlot()
	held := x.s.inv.held
	b := &x.s.body
	b.route = []waypoint{{x: float64(at.X) + 0.5, y: float64(at.Y + 1), z: float64(at.Z) + 0.5, move: path.MovePillar}}
	b.stuck, b.best, b.sinceBest = false, math.Inf(1), 0
	corr := b.corrections
	x.c.mu.Unlock()
	if heldRaw.Empty() {
		return replan("the held slot is empty after taking %s", id)
	}
	stop := func() {
		x.c.mu.Lock()
		b.route = nil
		x.c.mu.Unlock()
	}
	// The feet above the cell, and a tick later, so that the server has
	// the position that leaves the cell free before the placement.
	corrected := false
	up, err := x.within(20, func() bool {
		corrected = b.corrections != corr
		return b.y >= float64(at.Y)+pillarRise || corrected
	})
	if err != nil {
		stop()
		return err
	}
	if !up || corrected {
		stop()
		return replan("the jump to pillar at %v did not rise", at)
	}
	if err := x.c.waitTicks(x.ctx, x.s, 1); err != nil {
		stop()
		return err
	}
	support := at.Down()
	if err := x.look(world.Vec3{X: float64(at.X) + 0.5, Y: float64(at.Y), Z: float64(at.Z) + 0.5}); err != nil {
		stop()
		return err
	}
	if err := x.placeAgainst(support, proto17.FaceTop, heldRaw); err != nil {
		stop()
		return err
	}
	_ = x.swing()
	ok, err := x.answer(func() bool {
		now := x.s.inv.player[invHotbar+held]
		shrunk := now.Empty() || now.ID != heldRaw.ID || now.Count < heldRaw.Count
		return shrunk && !x.blockAt(at).IsAir()
	})
	if err != nil {
		stop()
		return err
	}
	if !ok {
		stop()
		return replan("the server did not place %s at %v", id, at)
	}
	// Land on it.
	landed, err := x.within(40, func() bool { return len(b.route) == 0 || b.corrections != corr || b.stuck })
	if err != nil {
		stop()
		return err
	}
	x.c.mu.Lock()
	defer x.c.mu.Unlock()
	switch {
	case b.corrections != corr:
		b.route = nil
		return errCorrected
	case !landed || b.stuck:
		b.route, b.stuck = nil, false
		return errStuck
	}
	return nil
}
