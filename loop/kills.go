package loop

import (
	"math"
	"sort"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// killSight is how far from the bot a hit mob may vanish and still count
// as killed. A server shows an animal or monster to a player within 80
// blocks (EntityTracker.trackEntity: IAnimals, 80) and takes it away
// when it dies (EntityStatus 3, then Destroy Entities) or leaves that
// range; a mob that vanishes well inside it did not walk away.
const killSight = 64

// killWatch judges kills from what the loop sees, not from what a body
// says of its attacks: a mob counts as killed by the bot when the bot hit
// it (an attack action the body carried out) and a later observation no
// longer shows it while the place it was last seen is within killSight of
// the bot.
type killWatch struct {
	hit   map[int]hitMob // by entity id
	kills map[string]int // by mob kind
}

// hitMob is a mob the bot hit, as last seen.
type hitMob struct {
	name string
	pos  world.Vec3
}

func newKillWatch() *killWatch {
	return &killWatch{hit: map[int]hitMob{}, kills: map[string]int{}}
}

// hits notes the mobs the step's attacks landed on (the attacks the body
// answered OK), named as the snapshot before the step shows them.
func (k *killWatch) hits(actions []action.Envelope, results []ipc.Result, before *world.Snapshot) {
	for i, env := range actions {
		a, ok := env.Action.(action.Attack)
		if !ok || i >= len(results) || !results[i].OK() {
			continue
		}
		if _, known := k.hit[a.Entity]; known {
			continue // hit again: see follows it
		}
		if e, ok := mobByID(before, a.Entity); ok {
			k.hit[a.Entity] = hitMob{name: e.Name, pos: e.Pos}
		}
	}
}

// see compares an observation with the mobs hit: one still shown is
// followed to where it is now; one gone near the bot is a kill, counted
// and returned by kind; one gone far away (out of sight of a server) is
// let go uncounted.
func (k *killWatch) see(w *world.Snapshot) map[string]int {
	if len(k.hit) == 0 {
		return nil
	}
	var got map[string]int
	ids := make([]int, 0, len(k.hit))
	for id := range k.hit {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		h := k.hit[id]
		if e, ok := mobByID(w, id); ok {
			h.pos = e.Pos
			k.hit[id] = h
			continue
		}
		delete(k.hit, id)
		if math.Sqrt(h.pos.DistSq(w.Player.Pos)) > killSight {
			continue
		}
		k.kills[h.name]++
		if got == nil {
			got = map[string]int{}
		}
		got[h.name]++
	}
	return got
}

// seeKills looks for kills in an observation and counts them for the
// goal's kill clauses; it returns the kills seen now.
func (l *Loop) seeKills(w *world.Snapshot) map[string]int {
	got := l.kills.see(w)
	for i := range l.goal.Kills {
		l.goal.Kills[i].Seen = l.kills.kills[l.goal.Kills[i].Mob]
	}
	return got
}

// mobByID finds a mob of the snapshot by its entity id.
func mobByID(w *world.Snapshot, id int) (world.Entity, bool) {
	for _, e := range w.Entities {
		if e.ID == id && e.Kind == world.EntityMob {
			return e, true
		}
	}
	return world.Entity{}, false
}
