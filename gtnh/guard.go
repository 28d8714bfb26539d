package gtnh

import (
	"context"
	"errors"
	"math"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// guardEvery is how often, in the client's ticks, a guarded action looks
// at the mobs the server shows: a quarter of a second (a zombie walks 0.6
// blocks in it), as the simulator does.
const guardEvery = 5

// guardClose is the second line a mob crossing ends a guarded action at:
// 3 blocks, where a creeper starts to swell (1.7.10
// EntityAICreeperSwell.shouldExecute: getDistanceSqToEntity < 9.0) and a
// zombie's arm nearly reaches.
const guardClose = 3

// errThreat is the cause an action's context is cancelled with when a mob
// comes near under an ipc.Guard.
var errThreat = errors.New("a hostile mob came near")

// guardWatch follows the hostile mobs the server shows during one guarded
// action: the band each is in (0 far, 1 within the guard's range, 2 within
// guardClose), so one that comes nearer than it was ends the action, and
// the health, so a mob's hit ends it too.
type guardWatch struct {
	rng    float64
	mobs   *rules.Mobs
	band   map[int]int
	health float64
	// g is the guard: its Facing mobs are left out.
	g ipc.Guard
}

func newGuardWatch(g ipc.Guard, mobs *rules.Mobs, snap *world.Snapshot) *guardWatch {
	w := &guardWatch{rng: g.Range, mobs: mobs, band: map[int]int{}, health: snap.Player.Health, g: g}
	w.look(snap)
	return w
}

// look notes where the mobs stand now and returns the nearest that came
// into a nearer band; or, when the health fell, the nearest hostile mob
// within its follow range (the hit came from a mob the client cannot tell
// apart from the others: 1.7.10 sends only the new health). The mobs the
// guard faces (ipc.Guard.Facing) are left out, and with one faced a hurt
// counts only while another is within the guard's range: the faced mob's
// hits are the action's own.
func (w *guardWatch) look(snap *world.Snapshot) (ipc.Threat, bool) {
	day := w.mobs.IsDaytime(snap.TimeOfDay)
	var th ipc.Threat
	found := false
	near, nearD := world.Entity{}, math.Inf(1)
	seen := map[int]bool{}
	for _, e := range snap.Entities {
		k, ok := w.mobs.Kind(e.Name)
		if e.Kind != world.EntityMob || !ok || k.Passive() || w.g.Faces(e.ID) {
			continue
		}
		d := math.Sqrt(e.Pos.DistSq(snap.Player.Pos))
		reach := k.FollowRange
		if len(w.g.Facing) > 0 {
			reach = w.rng
		}
		if d <= reach && d < nearD {
			near, nearD = e, d
		}
		if day && k.HostileLightMax < w.mobs.Light.Max {
			// A spider by day: the client knows no light levels, and
			// 1.7.10's spider attacks only in the dark
			// (EntitySpider.findPlayerToAttack).
			continue
		}
		b := 0
		switch {
		case d <= min(guardClose, w.rng):
			b = 2
		case d <= w.rng:
			b = 1
		}
		if b > w.band[e.ID] && (!found || d < th.Dist) {
			th, found = ipc.Threat{Entity: e.ID, Mob: e.Name, Dist: d}, true
		}
		if b > 0 {
			seen[e.ID] = true
		}
		w.band[e.ID] = b
	}
	for id := range w.band {
		if !seen[id] {
			delete(w.band, id)
		}
	}
	hurt := snap.Player.Health < w.health
	w.health = snap.Player.Health
	if !found && hurt && !math.IsInf(nearD, 1) {
		th, found = ipc.Threat{Entity: near.ID, Mob: near.Name, Dist: nearD, Hurt: true}, true
	}
	return th, found
}

// watchMobs runs the watch beside an action: every guardEvery ticks it looks,
// and at the first threat it cancels the action's context with errThreat
// and keeps the threat. Stop it with the returned function, which says the
// threat, if one came.
func (c *Client) watchMobs(ctx context.Context, s *session, w *guardWatch) (context.Context, func() (ipc.Threat, bool)) {
	gctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	var th ipc.Threat
	var seen bool
	go func() {
		defer close(done)
		for {
			if err := c.waitTicks(gctx, s, guardEvery); err != nil {
				return
			}
			if t, ok := w.look(c.state.Snapshot()); ok {
				th, seen = t, true
				cancel(errThreat)
				return
			}
		}
	}()
	return gctx, func() (ipc.Threat, bool) {
		cancel(context.Canceled)
		<-done
		return th, seen
	}
}
