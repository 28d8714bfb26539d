package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func withMob(w *world.Snapshot, id int, kind string, x, z float64) *world.Snapshot {
	w.Entities = append(w.Entities, world.Entity{ID: id, Kind: world.EntityMob, Name: kind, Pos: world.Vec3{X: x, Y: 64, Z: z}})
	return w
}

func TestFight(t *testing.T) {
	w, _ := stoneFloor()
	w.Inventory = world.NewInventory(world.NewStack("minecraft:dirt", 0, 5), world.NewStack("minecraft:stone_sword", 0, 1))
	withMob(w, 9, "zombie", 2.5, 0.5)
	acts, err := Fight{}.SuggestActions(w, skills.Params{"entity": 9})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.Equip{Item: "minecraft:stone_sword"}, action.Attack{Entity: 9}}, acts, "the sword in hand, then the hit")

	w.Inventory.Held = 1
	acts, err = Fight{}.SuggestActions(w, skills.Params{"entity": 9})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.Attack{Entity: 9}}, acts, "already in hand")

	far := withMob(w, 10, "skeleton", 8.5, 0.5)
	acts, err = Fight{}.SuggestActions(far, skills.Params{"entity": 10})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.MoveTo{Pos: world.Pos(8, 64, 0), Radius: 2}, action.Attack{Entity: 10}}, acts, "out of reach: closer first")

	acts, err = Fight{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	assert.Equal(t, action.Attack{Entity: 9}, acts[len(acts)-1], "no entity: the nearest hostile")

	_, err = Fight{}.SuggestActions(w, skills.Params{"entity": 99})
	requireFailure(t, err, skills.CodeNoTarget)

	// A farm animal nearer than the zombie is no hostile to fight.
	withMob(w, 11, "cow", 1.5, 0.5)
	acts, err = Fight{}.SuggestActions(w, skills.Params{})
	require.NoError(t, err)
	assert.Equal(t, action.Attack{Entity: 9}, acts[len(acts)-1], "the zombie, not the cow")
}

func TestFleeGoesAway(t *testing.T) {
	w, _ := stoneFloor()
	withMob(w, 3, "creeper", 3.5, 0.5) // east of the player
	acts, err := Flee{}.SuggestActions(w, skills.Params{"entity": 3, "distance": 8})
	require.NoError(t, err)
	require.Len(t, acts, 1)
	mv := acts[0].(action.MoveTo)
	assert.Equal(t, world.Pos(-8, 64, 0), mv.Pos, "straight west, away from it")
	// The floor ends 10 blocks out: 16 west has no ground, so it turns.
	acts, err = Flee{}.SuggestActions(w, skills.Params{"entity": 3, "distance": 16})
	if err == nil {
		mv = acts[0].(action.MoveTo)
		assert.LessOrEqual(t, mv.Pos.X, 0, "never towards the mob")
	} else {
		requireFailure(t, err, skills.CodeNoTarget)
	}
}
