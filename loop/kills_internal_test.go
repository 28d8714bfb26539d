package loop

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// field is a world with the player at the origin and mobs (id, name, x).
func field(mobs ...world.Entity) *world.Snapshot {
	return &world.Snapshot{Player: world.Player{Pos: world.Vec3{X: 0.5, Y: 64, Z: 0.5}}, Entities: mobs}
}

func beast(id int, name string, x float64) world.Entity {
	return world.Entity{ID: id, Kind: world.EntityMob, Name: name, Pos: world.Vec3{X: x, Y: 64, Z: 0.5}}
}

func attacks(ids ...int) ([]action.Envelope, []ipc.Result) {
	var envs []action.Envelope
	var res []ipc.Result
	for _, id := range ids {
		envs = append(envs, action.Envelope{Action: action.Attack{Entity: id}})
		res = append(res, ipc.Result{Code: ipc.OK, Details: map[string]any{"killed": true}})
	}
	return envs, res
}

// TestKillWatch: a kill is a mob the bot hit that a later observation no
// longer shows near the bot. What the body says of its attacks ("killed")
// is not taken: a hit mob still in the world is alive; a mob gone without
// a hit, or gone after a refused attack, is no kill; a hit mob gone far
// away left sight rather than died; a mob followed as it is knocked back
// counts where it was last seen.
func TestKillWatch(t *testing.T) {
	before := field(beast(1, "pig", 2), beast(2, "pig", 3), beast(3, "cow", 4), beast(4, "cow", 5), beast(5, "sheep", 6))
	k := newKillWatch()
	envs, res := attacks(1, 2, 3)
	envs = append(envs, action.Envelope{Action: action.Attack{Entity: 5}}, action.Envelope{Action: action.MoveTo{Pos: world.Pos(1, 64, 1)}})
	res = append(res, ipc.Failf(ipc.Unreachable, 0, "too far"), ipc.Result{Code: ipc.OK})
	k.hits(envs, res, before)
	// Pig 1 is gone; pig 2 lives on (the body said "killed"); cow 3 was
	// knocked back to x = 40; cow 4 (not hit) and sheep 5 (the attack
	// refused) are gone.
	got := k.see(field(beast(2, "pig", 3), beast(3, "cow", 40)))
	assert.Equal(t, map[string]int{"pig": 1}, got)
	// Cow 3 dies where it was last seen, 40 blocks off: within sight.
	got = k.see(field(beast(2, "pig", 3)))
	assert.Equal(t, map[string]int{"cow": 1}, got)
	assert.Equal(t, map[string]int{"pig": 1, "cow": 1}, k.kills)
	// Hit again, pig 2 is followed out to 100 blocks and vanishes there:
	// it left the server's sight; no kill.
	envs, res = attacks(2)
	k.hits(envs, res, field(beast(2, "pig", 3)))
	assert.Nil(t, k.see(field(beast(2, "pig", 100))))
	assert.Nil(t, k.see(field()))
	assert.Empty(t, k.hit, "let go")
	// At the edge of sight: 64 blocks counts, 65 does not.
	for _, c := range []struct {
		x    float64
		want int
	}{{64.5, 1}, {65.5, 0}} {
		k := newKillWatch()
		envs, res := attacks(7)
		k.hits(envs, res, field(beast(7, "chicken", c.x)))
		assert.Equal(t, c.want, k.see(field())["chicken"], "x %g", c.x)
	}
	// A dropped item with the id is no mob to kill, nor an entity the
	// world did not show.
	k = newKillWatch()
	envs, res = attacks(9)
	item := world.Entity{ID: 9, Kind: world.EntityItem, Name: "minecraft:porkchop", Pos: world.Vec3{X: 1, Y: 64, Z: 0.5}}
	k.hits(envs, res, field(item))
	assert.Nil(t, k.see(field()))
	k = newKillWatch()
	envs, res = attacks(10)
	k.hits(envs, res, field())
	assert.Nil(t, k.see(&world.Snapshot{}), "entity 10 was never seen, so never hit")
	assert.Empty(t, k.hit)
}

// TestKillGoalCounts: the loop's goal holds when the kills seen reach the
// count, its Check says how many are still wanted, and anchoring starts
// the count again.
func TestKillGoalCounts(t *testing.T) {
	g, err := GoalParser{}.Parse("kill 2 pig and kill 1 cow")
	assert.NoError(t, err)
	w := field()
	assert.Equal(t, []string{"killed 0/2 pig", "killed 0/1 cow"}, g.Check(w, nil, false).Unmet)
	g.Kills[0].Seen, g.Kills[1].Seen = 2, 1
	assert.True(t, g.Check(w, nil, false).Met)
	a := g.Anchor(w)
	assert.Equal(t, 0, a.Kills[0].Seen)
	assert.Equal(t, 2, g.Kills[0].Seen, "the goal given is not changed")
	g.Kills[0].Seen = 1
	assert.Equal(t, []string{"killed 1/2 pig"}, g.Check(w, nil, false).Unmet)
}

// TestParseKillClause: kill COUNT MOB names a mob kind of the table; a
// wrong one is told with the nearest name.
func TestParseKillClause(t *testing.T) {
	g, err := GoalParser{}.Parse("kill 5 pig and collect 2 minecraft:log")
	assert.NoError(t, err)
	assert.Equal(t, []KillGoal{{Mob: "pig", Count: 5}}, g.Kills)
	for _, c := range []struct{ goal, want string }{
		{"kill pig", `"kill pig": write kill COUNT MOB, e.g. kill 5 pig`},
		{"kill 0 pig", `"kill 0 pig": count must be a positive integer`},
		{"kill 2 pgi", `"kill 2 pgi": no mob "pgi" (did you mean "pig"?)`},
		{"kill 2 Pig", `no mob "Pig"`},
		{"slay 2 pig", "a goal clause starts with collect, have, kill, reach, build, run, quest or line"},
	} {
		_, err := GoalParser{}.Parse(c.goal)
		if assert.Error(t, err, c.goal) {
			assert.Contains(t, err.Error(), c.want, c.goal)
		}
	}
}
