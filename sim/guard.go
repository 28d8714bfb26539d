package sim

import (
	"fmt"
	"math"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// guardSlice is how often, in game ticks, a guarded action looks around:
// a quarter of a second, in which a zombie (2.3 blocks a second) walks
// 0.6 blocks and a player 1.1.
const guardSlice = 5

// guardClose is the second line a mob crossing ends a guarded action at,
// even one that was already within the guard's range when the action
// began: 3 blocks, where a creeper starts to swell (1.7.10
// EntityAICreeperSwell.shouldExecute: getDistanceSqToEntity < 9.0) and a
// zombie's arm reaches (EntityAIAttackOnCollide: the attacker's width
// doubled, squared, plus the target's width: about 2 blocks).
const guardClose = 3

// guardWatch follows the hostile mobs around the player during one guarded
// action: the band each is in (0 far, 1 within the guard's range, 2 within
// guardClose), so a mob that comes nearer than it was ends the action, and
// one that stays where it was does not end the next action again.
type guardWatch struct {
	rng  float64
	band map[int]int
	// g is the guard: its Facing mobs are left out.
	g ipc.Guard
}

// guardStart notes where the hostile mobs stand as a guarded action begins.
func (s *Sim) guardStart(tx *world.Tx, g ipc.Guard) *guardWatch {
	w := &guardWatch{rng: g.Range, band: map[int]int{}, g: g}
	darkness := s.rules.Mobs.SkyDarkness(s.timeAt(tx.Tick()))
	for _, mb := range s.danger.mobs {
		if b, _ := w.bandOf(s, tx, mb, darkness); b > 0 {
			w.band[mb.id] = b
		}
	}
	return w
}

// bandOf is the band a mob is in and its distance from the feet: 0 for a
// passive mob and for a spider in the light (1.7.10
// EntitySpider.findPlayerToAttack: only below half brightness; the
// simulator's rule is mobs.yaml's hostile_light_max, as for its attacks).
func (w *guardWatch) bandOf(s *Sim, tx *world.Tx, mb *mob, darkness int) (int, float64) {
	if mb.kind.Passive() || w.g.Faces(mb.id) {
		return 0, 0
	}
	if mb.kind.HostileLightMax < 15 && s.lightAt(tx, mb.pos.Block(), darkness) > mb.kind.HostileLightMax {
		return 0, 0
	}
	d := math.Sqrt(mb.pos.DistSq(tx.Player().Pos))
	switch {
	case d <= min(guardClose, w.rng):
		return 2, d
	case d <= w.rng:
		return 1, d
	}
	return 0, d
}

// threatened looks around after a slice of a guarded action: the nearest
// mob that came into a nearer band, or, when a mob hurt the player in the
// slice (s.danger.hurtBy names the mob), the nearest hostile mob within
// its follow range — with mobs faced (ipc.Guard.Facing), the nearest other
// one within the guard's range, for the faced mob's hits are the
// action's own.
func (s *Sim) threatened(tx *world.Tx, w *guardWatch) (ipc.Threat, bool) {
	darkness := s.rules.Mobs.SkyDarkness(s.timeAt(tx.Tick()))
	var th ipc.Threat
	found := false
	hurt := s.hurtByMob()
	var nearest *mob
	nearestD := math.Inf(1)
	for _, mb := range s.danger.mobs {
		b, d := w.bandOf(s, tx, mb, darkness)
		if b > w.band[mb.id] && (!found || d < th.Dist) {
			th, found = ipc.Threat{Entity: mb.id, Mob: mb.kind.Name, Dist: d}, true
		}
		if b == 0 {
			delete(w.band, mb.id)
		} else {
			w.band[mb.id] = b
		}
		reach := mb.kind.FollowRange
		if len(w.g.Facing) > 0 {
			reach = w.rng
		}
		if d = math.Sqrt(mb.pos.DistSq(tx.Player().Pos)); !mb.kind.Passive() && !w.g.Faces(mb.id) && d < nearestD && d <= reach {
			nearest, nearestD = mb, d
		}
	}
	if !found && hurt && nearest != nil {
		th, found = ipc.Threat{Entity: nearest.id, Mob: nearest.kind.Name, Dist: nearestD, Hurt: true}, true
	}
	return th, found
}

// hurtByMob reports whether a mob (a hit, an arrow, an explosion) hurt the
// player in the last slice of time.
func (s *Sim) hurtByMob() bool {
	for cause := range s.danger.hurtBy {
		for _, k := range s.mobKinds {
			if strings.HasPrefix(cause, k.Name) {
				return true
			}
		}
	}
	return false
}

// walk is a guarded move_to under way: the route is taken step by step as
// its game time passes (each step's digging and placing when the body
// gets there), so a walk a mob cuts short leaves the player where the
// time had brought it, with only the blocks on the way there dug.
type walk struct {
	steps       []path.Step
	next        int // the first step not taken yet
	dug, placed int
	byHand      bool // the route breaks by hand what nothing held harvests
}

// walkTo takes the walk's steps whose cost (ticks from the start) is done
// by tick at, and puts the player on the last one taken.
func (s *Sim) walkTo(tx *world.Tx, at float64) error {
	wk := s.walk
	moved := false
	for wk.next < len(wk.steps) && wk.steps[wk.next].Cost <= at {
		dug, placed, err := s.digStep(tx, wk.steps[wk.next], wk.byHand)
		wk.dug, wk.placed = wk.dug+dug, wk.placed+placed
		s.exhaust(float64(dug) * s.rules.Food.Exhaustion.BreakBlock)
		if err != nil {
			return err
		}
		wk.next++
		moved = true
	}
	if moved {
		p := wk.steps[wk.next-1].Pos
		tx.MovePlayer(world.Vec3{X: float64(p.X) + 0.5, Y: standHeight(tx, p), Z: float64(p.Z) + 0.5})
	}
	return nil
}

// interruptible reports whether an action can stop half-way: a walk and a
// wait can; a block being broken, placed or crafted is finished first.
func interruptible(a action.Action) bool {
	switch a.(type) {
	case action.MoveTo, action.Wait:
		return true
	}
	return false
}

// guardedAdvance lets the time of a guarded action pass in slices of
// guardSlice ticks, taking a walk's steps as their time comes, and ends it
// when a mob comes near (see guardWatch): a walk or a wait where it is, at
// the end of the slice; anything else when it is done. It returns the
// world's events.
func (s *Sim) guardedAdvance(a action.Action, res *ipc.Result, w *guardWatch, cancelled func() error) []string {
	var events []string
	var threat *ipc.Threat
	total := res.Ticks
	done := int64(0)
	for done < total {
		if done > 0 {
			if err := cancelled(); err != nil {
				res.Code, res.Ticks = ipc.Interrupted, done
				res.Error = fmt.Sprintf("%s interrupted after %d of %d ticks: %v", a.Kind(), done, total, err)
				break
			}
		}
		n := min(guardSlice, total-done)
		var werr error
		var th ipc.Threat
		var seen bool
		s.state.Update(func(tx *world.Tx) {
			if s.walk != nil {
				werr = s.walkTo(tx, float64(done))
			}
			events = append(events, s.advance(tx, n)...)
			if s.danger.diedIn != "" {
				s.walk = nil // respawned: the walk is over
				return
			}
			th, seen = s.threatened(tx, w)
		})
		done += n
		if werr != nil {
			s.walk = nil
			res.Code, res.Ticks = ipc.Internal, done
			res.Error = fmt.Sprintf("move_to: %v", werr)
			return events
		}
		if seen && threat == nil {
			threat = &th
		}
		if threat != nil && interruptible(a) && done < total {
			res.Code, res.Ticks = ipc.Interrupted, done
			res.Error = fmt.Sprintf("interrupted after %d of %d ticks: %s", done, total, threat)
			break
		}
	}
	if s.walk != nil {
		s.state.Update(func(tx *world.Tx) {
			// The rest of the way, or as far as the time taken goes.
			to := math.Inf(1)
			if res.Code != ipc.OK {
				to = float64(res.Ticks)
			}
			if err := s.walkTo(tx, to); err != nil {
				res.Code, res.Error = ipc.Internal, fmt.Sprintf("move_to: %v", err)
			}
			if res.Details == nil {
				res.Details = map[string]any{}
			}
			if s.walk.dug > 0 || s.walk.placed > 0 {
				res.Details["dug"], res.Details["placed"] = s.walk.dug, s.walk.placed
			}
			res.Details["to"] = s.feet(tx)
			s.gravity(tx, res)
		})
		s.walk = nil
	}
	if threat != nil {
		if res.Details == nil {
			res.Details = map[string]any{}
		}
		res.Details[ipc.DetailThreat] = threat.Detail()
	}
	return events
}
