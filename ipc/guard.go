package ipc

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// Guard asks a body to watch for hostile mobs while it executes an action,
// as a player keeps an eye on the tunnel behind while digging: when a
// hostile mob comes within Range blocks of the player that was not that
// near when the action began, or a mob hurts the player, the body ends the
// action early (a walk where it stands, a wait at once; an action that
// cannot stop half-way, such as a block broken, when it is done) and names
// the mob in the result's details under [DetailThreat]. A walk or wait cut
// short ends [Interrupted]; an action that finished keeps its code. The
// caller then deals with the mob and carries on. Every threat a body
// reports took game time (at least a tick), so a caller that keeps trying
// never loops without the world moving on.
//
// The guard travels in the action's context ([WithGuard]): bodies in this
// process honour it; a body in another process does not see it.
type Guard struct {
	// Range is how near, in blocks from the player's feet, a hostile mob
	// ends the action; 0 or less guards nothing.
	Range float64
	// Facing are the entity ids of the mobs the action deals with (a
	// fight's target, walked up to): their coming near ends nothing, and
	// a hurt ends the action only while another hostile mob is within
	// Range (the faced mob's own hits and arrows are the fight's).
	Facing []int
}

// Faces reports whether the guard leaves the entity id out (Facing).
func (g Guard) Faces(id int) bool { return slices.Contains(g.Facing, id) }

type guardKey struct{}

// WithGuard returns a context that carries g to the body executing an
// action under it.
func WithGuard(ctx context.Context, g Guard) context.Context {
	return context.WithValue(ctx, guardKey{}, g)
}

// GuardOf returns the guard a context carries, if one with a range does.
func GuardOf(ctx context.Context) (Guard, bool) {
	g, ok := ctx.Value(guardKey{}).(Guard)
	return g, ok && g.Range > 0
}

// DetailThreat is the result detail naming the mob that ended an action
// under a [Guard]: a [Threat].
const DetailThreat = "threat"

// Threat is the mob that ended a guarded action.
type Threat struct {
	Entity int     `json:"entity"`
	Mob    string  `json:"mob"`
	Dist   float64 `json:"distance"`
	// Hurt: the mob hurt the player (it had come near unseen, or shoots).
	Hurt bool `json:"hurt,omitempty"`
}

// String says it in words: "a zombie (entity 12) 5.0 blocks away".
func (t Threat) String() string {
	s := fmt.Sprintf("a %s (entity %d) %.1f blocks away", t.Mob, t.Entity, t.Dist)
	if t.Hurt {
		s += ", hurting the player"
	}
	return s
}

// Detail is the threat as a result detail: the form it has after a trip
// through JSON, so a remote body's and an in-process body's read alike.
func (t Threat) Detail() map[string]any {
	d := map[string]any{"entity": t.Entity, "mob": t.Mob, "distance": math.Round(t.Dist*10) / 10}
	if t.Hurt {
		d["hurt"] = true
	}
	return d
}

// ThreatOf reads the threat a result's details name, if any.
func ThreatOf(r Result) (Threat, bool) {
	d, ok := r.Details[DetailThreat].(map[string]any)
	if !ok {
		return Threat{}, false
	}
	var t Threat
	switch e := d["entity"].(type) {
	case int:
		t.Entity = e
	case float64:
		t.Entity = int(e)
	}
	t.Mob, _ = d["mob"].(string)
	switch v := d["distance"].(type) {
	case float64:
		t.Dist = v
	case int:
		t.Dist = float64(v)
	}
	t.Hurt, _ = d["hurt"].(bool)
	return t, t.Mob != ""
}
