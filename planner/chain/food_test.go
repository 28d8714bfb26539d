package chain

import (
	"context"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestFoodReserve: with the food bar below full and the food held
// restoring fewer than 14 points, the planner hunts the nearest farm
// animal in reach for its meat before the goal's next step (a sword
// first); with enough held, a full bar, no food animal near, one on
// another level of the world or a zombie by the way, the goal goes on.
func TestFoodReserve(t *testing.T) {
	reg := shipped(t)
	sword := world.NewStack("minecraft:wooden_sword", 0, 1)
	sword.MaxDamage = 59
	hungry := func(food float64, mobs []world.Entity, stacks ...world.ItemStack) *world.Snapshot {
		w := withMobs(snapshot("stone_age", nil, stacks...), mobs...)
		w.Player.Food = food
		return w
	}
	at := func(name string, x, y, z float64) world.Entity {
		return world.Entity{Name: name, Pos: world.Vec3{X: x, Y: y, Z: z}}
	}
	pig := []world.Entity{mobAt("pig", 10.5, 3.5)}
	huntPig := "hunt count=1 item=minecraft:porkchop target=pig"
	tests := []struct {
		name string
		w    *world.Snapshot
		want string // "" = the goal's step, not the reserve's
	}{
		{"nothing held", hungry(15, pig, sword), huntPig},
		{"13 points held (four loaves and a porkchop)", hungry(15, pig, sword, stack("minecraft:bread", 4), stack("minecraft:porkchop", 1)), huntPig},
		{"14 points held (four loaves, two raw chickens)", hungry(15, pig, sword, stack("minecraft:bread", 4), stack("minecraft:chicken", 2)), ""},
		{"a full bar", hungry(20, pig, sword), ""},
		{"the bar one below full", hungry(19, pig, sword), huntPig},
		{"a sword first", hungry(15, pig, stack("minecraft:planks", 2), stack("minecraft:stick", 1), stack("minecraft:crafting_table", 1)),
			"basic_crafting count=1 item=minecraft:wooden_sword"},
		{"the nearest kind: a cow for beef", hungry(15, []world.Entity{mobAt("pig", 10.5, 3.5), mobAt("cow", 5.5, 0.5)}, sword), "hunt count=1 item=minecraft:beef target=cow"},
		{"a chicken", hungry(15, []world.Entity{mobAt("chicken", 3.5, 3.5)}, sword), "hunt count=1 item=minecraft:chicken target=chicken"},
		{"a sheep is no food", hungry(15, []world.Entity{mobAt("sheep", 3.5, 3.5)}, sword), ""},
		{"a zombie is no food to hunt", hungry(15, []world.Entity{mobAt("zombie", 30.5, 3.5)}, sword), ""},
		{"a pig 8 blocks up", hungry(15, []world.Entity{at("pig", 10.5, 72, 3.5)}, sword), huntPig},
		{"a pig 9 blocks up: another level", hungry(15, []world.Entity{at("pig", 10.5, 73, 3.5)}, sword), ""},
		{"a pig 9 blocks down", hungry(15, []world.Entity{at("pig", 10.5, 55, 3.5)}, sword), ""},
		{"a pig past the hunt's reach", hungry(15, []world.Entity{mobAt("pig", 80.6, 0.5)}, sword), ""},
		{"a pig past the default radius", hungry(15, []world.Entity{mobAt("pig", 40.5, 0.5)}, sword), "hunt count=1 item=minecraft:porkchop radius=40 target=pig"},
		{"no free slot for the meat", hungry(15, pig, append([]world.ItemStack{sword}, slices.Repeat([]world.ItemStack{stack("minecraft:cobblestone", 64)}, 35)...)...), ""},
		{"one free slot", hungry(15, pig, append([]world.ItemStack{sword}, slices.Repeat([]world.ItemStack{stack("minecraft:cobblestone", 64)}, 34)...)...), huntPig},
		{"a zombie by the way", hungry(15, []world.Entity{mobAt("pig", 10.5, 0.5), mobAt("zombie", 5.5, 6.5)}, sword), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dec, err := plan(t, reg, "collect 1 minecraft:log", tc.w)
			require.NoError(t, err)
			require.NotNil(t, dec.Invocation)
			require.NotNil(t, dec.Tree)
			if tc.want == "" {
				assert.NotEqual(t, "hunt", dec.Invocation.Skill)
				assert.NotEqual(t, "keep a food reserve", dec.Tree.Children[0].Label)
				return
			}
			assert.Equal(t, tc.want, dec.Invocation.String())
			assert.Equal(t, "keep a food reserve", dec.Tree.Children[0].Label, "the reserve is a part of the plan")
			assert.Contains(t, dec.Reason, "under the reserve of 14")
		})
	}
}

// TestReserveCooks: with raw meat held, fuel held and a furnace within 16
// blocks (or in the inventory), the reserve cooks the meat before it hunts
// more: a cooked porkchop restores 2 points under GTNH's values, a raw one
// 1. With no fuel, no furnace near, a full bar, or a goal that asks for
// the raw meat itself, it does not.
func TestReserveCooks(t *testing.T) {
	reg := shipped(t)
	sword := world.NewStack("minecraft:wooden_sword", 0, 1)
	sword.MaxDamage = 59
	pig := []world.Entity{mobAt("pig", 10.5, 3.5)}
	near := world.Machine{Kind: world.MachineFurnace, Pos: world.Pos(6, 64, 6)}
	far := world.Machine{Kind: world.MachineFurnace, Pos: world.Pos(20, 64, 0)}
	hungry := func(food float64, furnace *world.Machine, stacks ...world.ItemStack) *world.Snapshot {
		w := withMobs(snapshot("stone_age", nil, append([]world.ItemStack{sword}, stacks...)...), pig...)
		w.Player.Food = food
		if furnace != nil {
			w.Machines = []world.Machine{*furnace}
		}
		return w
	}
	cook := "smelt count=4 item=minecraft:cooked_porkchop" // four a step (smeltStepTicks)
	huntPig := "hunt count=1 item=minecraft:porkchop target=pig"
	tests := []struct {
		name, goal string
		w          *world.Snapshot
		want       string // "" = neither the reserve's cooking nor its hunt
	}{
		{"raw meat, planks, a furnace near", "collect 1 minecraft:log", hungry(15, &near, stack("minecraft:porkchop", 5), stack("minecraft:planks", 8)), cook},
		{"a furnace held", "collect 1 minecraft:log", hungry(15, nil, stack("minecraft:porkchop", 5), stack("minecraft:planks", 8), stack("minecraft:furnace", 1)), cook},
		{"enough raw meat held still cooks", "collect 1 minecraft:log", hungry(15, &near, stack("minecraft:porkchop", 5), stack("minecraft:beef", 14), stack("minecraft:planks", 8)),
			cook},
		{"no fuel: the hunt", "collect 1 minecraft:log", hungry(15, &near, stack("minecraft:porkchop", 5)), huntPig},
		{"the furnace 20 blocks away: the hunt", "collect 1 minecraft:log", hungry(15, &far, stack("minecraft:porkchop", 5), stack("minecraft:planks", 8)), huntPig},
		{"a full bar", "collect 1 minecraft:log", hungry(20, &near, stack("minecraft:porkchop", 5), stack("minecraft:planks", 8)), ""},
		{"cooked meat is not cooked again", "collect 1 minecraft:log", hungry(15, &near, stack("minecraft:cooked_porkchop", 5), stack("minecraft:planks", 8)), huntPig},
		{"the goal asks for the raw meat", "have 5 minecraft:porkchop and collect 1 minecraft:log", hungry(15, &near, stack("minecraft:porkchop", 5), stack("minecraft:planks", 8)), huntPig},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dec, err := plan(t, reg, tc.goal, tc.w)
			require.NoError(t, err)
			require.NotNil(t, dec.Invocation)
			if tc.want == "" {
				assert.NotEqual(t, "keep a food reserve", dec.Tree.Children[0].Label, dec.Reason)
				return
			}
			assert.Equal(t, tc.want, dec.Invocation.String(), dec.Reason)
			assert.Equal(t, "keep a food reserve", dec.Tree.Children[0].Label, "the cooking is the reserve's")
		})
	}
}

// TestReserveCooksOnlyBetter: a food whose cooked kind restores no more
// than it does stays as it is (here a food table where a cooked porkchop
// restores 1, as a raw one).
func TestReserveCooksOnlyBetter(t *testing.T) {
	reg := shipped(t)
	data, err := fs.ReadFile(config.FS, "food.yaml")
	require.NoError(t, err)
	same := strings.Replace(string(data), `{item: "minecraft:cooked_porkchop", hunger: 2,`, `{item: "minecraft:cooked_porkchop", hunger: 1,`, 1)
	require.NotEqual(t, string(data), same)
	food, err := rules.ParseFood("food.yaml", []byte(same))
	require.NoError(t, err)
	sword := world.NewStack("minecraft:wooden_sword", 0, 1)
	sword.MaxDamage = 59
	w := withMobs(snapshot("stone_age", nil, sword, stack("minecraft:porkchop", 5), stack("minecraft:planks", 8)), mobAt("pig", 10.5, 3.5))
	w.Player.Food = 15
	w.Machines = []world.Machine{{Kind: world.MachineFurnace, Pos: world.Pos(6, 64, 6)}}
	goal, err := loop.ParseGoal("collect 1 minecraft:log", reg.Tiers())
	require.NoError(t, err)
	catalog, err := reg.DescribeForTechState(w.TechState, reg.Packs().Names())
	require.NoError(t, err)
	obs := loop.Observation{Snapshot: w, Progress: goal.Check(w, reg.Tiers(), false)}
	dec, err := Planner{Food: food}.Plan(context.Background(), goal, obs, catalog)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.Equal(t, "hunt count=1 item=minecraft:porkchop target=pig", dec.Invocation.String(), dec.Reason)
}

// TestReserveCookBlocked: a cooking step that failed twice here (blocked
// until the world changes) gives way to the hunt.
func TestReserveCookBlocked(t *testing.T) {
	reg := shipped(t)
	sword := world.NewStack("minecraft:wooden_sword", 0, 1)
	sword.MaxDamage = 59
	w := withMobs(snapshot("stone_age", nil, sword, stack("minecraft:porkchop", 5), stack("minecraft:planks", 8)), mobAt("pig", 10.5, 3.5))
	w.Player.Food = 15
	w.Machines = []world.Machine{{Kind: world.MachineFurnace, Pos: world.Pos(6, 64, 6)}}
	cook := loop.Invocation{Skill: "smelt", Params: map[string]any{"item": "minecraft:cooked_porkchop", "count": 4}}
	dec, err := plan(t, reg, "collect 1 minecraft:log", w)
	require.NoError(t, err)
	require.Equal(t, cook.String(), dec.Invocation.String(), "unblocked, it cooks")
	dec, err = plan(t, reg, "collect 1 minecraft:log", w, cook)
	require.NoError(t, err)
	assert.Equal(t, "hunt count=1 item=minecraft:porkchop target=pig", dec.Invocation.String(), dec.Reason)
}
