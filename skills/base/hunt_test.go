package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// pastureSnap: the player at (0, 64, 0) holding inv, with mobs (name, x,
// z, health) on the ground around it.
func pastureSnap(inv world.Inventory, mobs ...world.Entity) *world.Snapshot {
	w := snap(at(0, 64, 0), nil, inv)
	for i, m := range mobs {
		m.ID = 10 + i
		m.Kind = world.EntityMob
		m.Pos.Y = 64
		w.Entities = append(w.Entities, m)
	}
	return w
}

func sheepAt(x, z, health float64) world.Entity {
	return world.Entity{Name: "sheep", Pos: world.Vec3{X: x, Z: z}, Health: health}
}

func sword() world.ItemStack {
	st := stack("minecraft:wooden_sword", 0, 1)
	st.MaxDamage = 59
	return st
}

// TestHuntKillsTheNearestSheep: for 2 wool it equips the sword (5 damage
// against a fist's 1), kills the two nearest sheep with two hits each from
// one approach, and walks to each drop; the third sheep is left alone.
func TestHuntKillsTheNearestSheep(t *testing.T) {
	inv := world.NewInventory(stack("minecraft:dirt", 0, 1), sword())
	w := pastureSnap(inv, sheepAt(20.5, 0.5, 8), sheepAt(5.5, 0.5, 8), sheepAt(0.5, 8.5, 8))
	acts := checkActions(t, Hunt{}, w, map[string]any{"target": "sheep", "item": "minecraft:wool", "count": 2})
	require.NotEmpty(t, acts)
	assert.Equal(t, action.Equip{Item: "minecraft:wooden_sword"}, acts[0])
	var attacked []int
	moves := 0
	for _, a := range acts[1:] {
		switch a := a.(type) {
		case action.Attack:
			attacked = append(attacked, a.Entity)
		case action.MoveTo:
			moves++
		}
	}
	assert.Equal(t, []int{11, 11, 12, 12}, attacked, "the nearest first, then the nearest to it")
	assert.Equal(t, 4, moves, "one approach a sheep and one walk to each drop")
	assert.Equal(t, action.Wait{Ticks: dropPickupWait}, acts[len(acts)-1])

	// A hurt sheep needs one hit; a spider's string (0 to 2 a kill) is
	// one kill an item asked for.
	w = pastureSnap(inv, sheepAt(3.5, 0.5, 4))
	acts = checkActions(t, Hunt{}, w, map[string]any{"target": "sheep", "item": "minecraft:wool:0", "count": 1})
	assert.Equal(t, 1, countKind(acts, action.KindAttack))
	w = pastureSnap(inv, world.Entity{Name: "spider", Pos: world.Vec3{X: 3.5, Z: 0.5}}, world.Entity{Name: "spider", Pos: world.Vec3{X: 6.5, Z: 0.5}})
	acts = checkActions(t, Hunt{}, w, map[string]any{"target": "spider", "item": "minecraft:string", "count": 2})
	assert.Equal(t, 8, countKind(acts, action.KindAttack), "16 health: 4 sword hits each")
	assert.Equal(t, 2+2+2, countKind(acts, action.KindMoveTo), "an approach every two hits, a walk to each drop")

	// Bare-handed (a fist hits for 1): eight hits, walking up before
	// every second one.
	w = pastureSnap(world.NewInventory(stack("minecraft:dirt", 0, 1)), sheepAt(3.5, 0.5, 8))
	acts = checkActions(t, Hunt{}, w, map[string]any{"target": "sheep", "item": "minecraft:wool", "count": 1})
	assert.Equal(t, 8, countKind(acts, action.KindAttack))
	assert.Equal(t, 4+1, countKind(acts, action.KindMoveTo))
	assert.Zero(t, countKind(acts, action.KindEquip), "nothing hits harder than the fist")
}

func countKind(acts []action.Action, k action.Kind) int {
	n := 0
	for _, a := range acts {
		if a.Kind() == k {
			n++
		}
	}
	return n
}

func TestHuntFailures(t *testing.T) {
	inv := world.NewInventory(sword())
	_, err := run(t, Hunt{}, pastureSnap(inv, sheepAt(40.5, 0.5, 8)), map[string]any{"target": "sheep", "item": "minecraft:wool"})
	f := requireFailure(t, err, skills.CodeNoTarget)
	assert.Contains(t, f.Error(), "no sheep within 32 blocks")
	_, err = run(t, Hunt{}, pastureSnap(inv, sheepAt(4.5, 0.5, 8)), map[string]any{"target": "sheep", "item": "minecraft:string"})
	f = requireFailure(t, err, skills.CodeInvalidParams)
	assert.Contains(t, f.Error(), "a sheep does not drop minecraft:string")
	_, err = run(t, Hunt{}, pastureSnap(inv, sheepAt(4.5, 0.5, 8)), map[string]any{"target": "enderman", "item": "minecraft:ender_pearl"})
	f = requireFailure(t, err, skills.CodeInvalidParams)
	assert.Contains(t, f.Error(), `no mob "enderman"`)
}
