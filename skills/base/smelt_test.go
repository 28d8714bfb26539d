package base

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func furnaceAt(x, y, z int, slots map[string]world.ItemStack) world.Machine {
	if slots == nil {
		slots = map[string]world.ItemStack{}
	}
	return world.Machine{Kind: world.MachineFurnace, Pos: world.Pos(x, y, z), Formed: true, Slots: slots}
}

func TestSmelt(t *testing.T) {
	floor := func() *world.SparseBlocks { return ground(world.NewSparseBlocks(), 63, -2, -2, 2, 2) }
	cobble := stack("minecraft:cobblestone", 0, 8)
	f := world.Pos(3, 64, 0)
	smeltAt := func(at world.BlockPos, input string, ops int, fuel string, fuels int) []action.Action {
		return []action.Action{
			action.MoveTo{Pos: at, Radius: 3},
			action.OpenContainer{Pos: at},
			action.TransferItems{Pos: at, Item: input, Count: ops, Direction: action.Deposit, Slot: "input"},
			action.TransferItems{Pos: at, Item: fuel, Count: fuels, Direction: action.Deposit, Slot: "fuel"},
			action.Wait{Ticks: action.Ticks(ops * 200)},
			action.TransferItems{Pos: at, Item: "minecraft:stone", Count: ops, Direction: action.Withdraw, Slot: "output"},
			action.CloseContainer{},
		}
	}
	tests := []struct {
		name string
		w    *world.Snapshot
		raw  map[string]any
		want []action.Action
	}{
		{"stone at the nearest furnace, planks burn 300 ticks: 2 for 3 items",
			snap(at(0, 64, 0), floor(), world.NewInventory(cobble, stack("minecraft:planks", 0, 4)), furnaceAt(3, 64, 0, nil)),
			map[string]any{"item": "minecraft:stone", "count": 3},
			smeltAt(f, "minecraft:cobblestone", 3, "minecraft:planks", 2)},
		{"coal when there are too few planks",
			snap(at(0, 64, 0), floor(), world.NewInventory(cobble, stack("minecraft:planks", 0, 1), stack("minecraft:coal", 0, 1)), furnaceAt(3, 64, 0, nil)),
			map[string]any{"item": "minecraft:stone", "count": 8},
			smeltAt(f, "minecraft:cobblestone", 8, "minecraft:coal", 1)},
		{"a named fuel",
			snap(at(0, 64, 0), floor(), world.NewInventory(cobble, stack("minecraft:planks", 0, 4), stack("minecraft:log", 0, 2)), furnaceAt(3, 64, 0, nil)),
			map[string]any{"item": "minecraft:stone", "count": 2, "fuel": "ore:logWood"},
			smeltAt(f, "minecraft:cobblestone", 2, "minecraft:log", 2)},
		{"the furnace in the inventory is placed next to the player",
			snap(at(0, 64, 0), floor(), world.NewInventory(cobble, stack("minecraft:planks", 0, 4), stack("minecraft:furnace", 0, 1))),
			map[string]any{"item": "minecraft:stone", "count": 1},
			append([]action.Action{action.PlaceBlock{Pos: world.Pos(0, 64, -1), Item: "minecraft:furnace", Face: "up"}},
				smeltAt(world.Pos(0, 64, -1), "minecraft:cobblestone", 1, "minecraft:planks", 1)...)}, // the first free side (north)
		{"planks left in the fuel slot burn too, and more planks go on them (not the coal)",
			snap(at(0, 64, 0), floor(), world.NewInventory(cobble, stack("minecraft:planks", 0, 4), stack("minecraft:coal", 1, 1)),
				furnaceAt(3, 64, 0, map[string]world.ItemStack{"fuel": stack("minecraft:planks", 0, 2)})),
			map[string]any{"item": "minecraft:stone", "count": 8},
			smeltAt(f, "minecraft:cobblestone", 8, "minecraft:planks", 4)},
		{"enough fuel left in the slot: none added",
			snap(at(0, 64, 0), floor(), world.NewInventory(cobble, stack("minecraft:planks", 0, 4)),
				furnaceAt(3, 64, 0, map[string]world.ItemStack{"fuel": stack("minecraft:planks", 0, 8)})),
			map[string]any{"item": "minecraft:stone", "count": 3},
			slices.Delete(smeltAt(f, "minecraft:cobblestone", 3, "", 0), 3, 4)},
		{"too few of the slot's fuel at hand: it comes out, the charcoal goes in",
			snap(at(0, 64, 0), floor(), world.NewInventory(cobble, stack("minecraft:coal", 1, 1)),
				furnaceAt(3, 64, 0, map[string]world.ItemStack{"fuel": stack("minecraft:planks", 0, 1)})),
			map[string]any{"item": "minecraft:stone", "count": 8},
			slices.Insert(smeltAt(f, "minecraft:cobblestone", 8, "minecraft:coal:1", 1), 3,
				action.Action(action.TransferItems{Pos: f, Item: "minecraft:planks:0", Count: 1, Direction: action.Withdraw, Slot: "fuel"}))},
		{"another batch's input comes out first",
			snap(at(0, 64, 0), floor(), world.NewInventory(cobble, stack("minecraft:planks", 0, 4)),
				furnaceAt(3, 64, 0, map[string]world.ItemStack{"input": stack("dreamcraft:item.UnfiredCokeOvenBrick", 0, 4)})),
			map[string]any{"item": "minecraft:stone", "count": 3},
			slices.Insert(smeltAt(f, "minecraft:cobblestone", 3, "minecraft:planks", 2), 2,
				action.Action(action.TransferItems{Pos: f, Item: "dreamcraft:item.UnfiredCokeOvenBrick:0", Count: 4, Direction: action.Withdraw, Slot: "input"}))},
		{"another item left in the output comes out first",
			snap(at(0, 64, 0), floor(), world.NewInventory(cobble, stack("minecraft:planks", 0, 4)),
				furnaceAt(3, 64, 0, map[string]world.ItemStack{"output": stack("IguanaTweaksTConstruct:clayBucketFired", 0, 1)})),
			map[string]any{"item": "minecraft:stone", "count": 3},
			slices.Insert(smeltAt(f, "minecraft:cobblestone", 3, "minecraft:planks", 2), 2,
				action.Action(action.TransferItems{Pos: f, Item: "IguanaTweaksTConstruct:clayBucketFired:0", Count: 1, Direction: action.Withdraw, Slot: "output"}))},
		{"the same recipe's input cooking in the slot counts: only the rest goes in, all of it comes out",
			snap(at(0, 64, 0), floor(), world.NewInventory(cobble, stack("minecraft:planks", 0, 4)),
				furnaceAt(3, 64, 0, map[string]world.ItemStack{"input": stack("minecraft:cobblestone", 0, 2)})),
			map[string]any{"item": "minecraft:stone", "count": 5},
			[]action.Action{
				action.MoveTo{Pos: f, Radius: 3},
				action.OpenContainer{Pos: f},
				action.TransferItems{Pos: f, Item: "minecraft:cobblestone", Count: 3, Direction: action.Deposit, Slot: "input"},
				action.TransferItems{Pos: f, Item: "minecraft:planks", Count: 4, Direction: action.Deposit, Slot: "fuel"},
				action.Wait{Ticks: action.Ticks(5 * 200)},
				action.TransferItems{Pos: f, Item: "minecraft:stone", Count: 5, Direction: action.Withdraw, Slot: "output"},
				action.CloseContainer{},
			}},
		{"the item already made in the output counts: it is taken with the rest",
			snap(at(0, 64, 0), floor(), world.NewInventory(cobble, stack("minecraft:planks", 0, 4)),
				furnaceAt(3, 64, 0, map[string]world.ItemStack{"output": stack("minecraft:stone", 0, 2)})),
			map[string]any{"item": "minecraft:stone", "count": 3},
			[]action.Action{
				action.MoveTo{Pos: f, Radius: 3},
				action.OpenContainer{Pos: f},
				action.TransferItems{Pos: f, Item: "minecraft:cobblestone", Count: 1, Direction: action.Deposit, Slot: "input"},
				action.TransferItems{Pos: f, Item: "minecraft:planks", Count: 1, Direction: action.Deposit, Slot: "fuel"},
				action.Wait{Ticks: action.Ticks(200)},
				action.TransferItems{Pos: f, Item: "minecraft:stone", Count: 3, Direction: action.Withdraw, Slot: "output"},
				action.CloseContainer{},
			}},
		{"pos names the furnace: a farther one the batch was left in, not the nearest",
			snap(at(0, 64, 0), floor(), world.NewInventory(stack("minecraft:planks", 0, 4)),
				furnaceAt(3, 64, 0, nil), furnaceAt(40, 64, 0, map[string]world.ItemStack{"output": stack("minecraft:stone", 0, 4)})),
			map[string]any{"item": "minecraft:stone", "count": 4, "pos": "40,64,0"},
			[]action.Action{
				action.MoveTo{Pos: world.Pos(40, 64, 0), Radius: 3},
				action.OpenContainer{Pos: world.Pos(40, 64, 0)},
				action.TransferItems{Pos: world.Pos(40, 64, 0), Item: "minecraft:stone", Count: 4, Direction: action.Withdraw, Slot: "output"},
				action.CloseContainer{},
			}},
		{"all of it made already: nothing goes in, no wait",
			snap(at(0, 64, 0), floor(), world.NewInventory(stack("minecraft:planks", 0, 4)),
				furnaceAt(3, 64, 0, map[string]world.ItemStack{"output": stack("minecraft:stone", 0, 4)})),
			map[string]any{"item": "minecraft:stone", "count": 4},
			[]action.Action{
				action.MoveTo{Pos: f, Radius: 3},
				action.OpenContainer{Pos: f},
				action.TransferItems{Pos: f, Item: "minecraft:stone", Count: 4, Direction: action.Withdraw, Slot: "output"},
				action.CloseContainer{},
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, checkActions(t, Smelt{}, tc.w, tc.raw))
		})
	}
}

func TestSmeltFailures(t *testing.T) {
	floor := ground(world.NewSparseBlocks(), 63, -2, -2, 2, 2)
	furnace := furnaceAt(3, 64, 0, nil)
	for _, c := range []struct {
		name string
		w    *world.Snapshot
		raw  map[string]any
		code skills.Code
		msg  string
	}{
		{"GTNH makes no charcoal in the furnace", snap(at(0, 64, 0), floor, world.NewInventory(stack("minecraft:log", 0, 8)), furnace),
			map[string]any{"item": "minecraft:coal:1"}, skills.CodeInvalidParams, "GTNH makes charcoal in the coke oven"},
		{"no input", snap(at(0, 64, 0), floor, world.NewInventory(stack("minecraft:planks", 0, 8)), furnace),
			map[string]any{"item": "minecraft:stone", "count": 2}, skills.CodeMissingItems, "needs 2 minecraft:cobblestone (have 0)"},
		{"no fuel", snap(at(0, 64, 0), floor, world.NewInventory(stack("minecraft:cobblestone", 0, 2)), furnace),
			map[string]any{"item": "minecraft:stone"}, skills.CodeMissingItems, "nothing to burn"},
		{"too little of each fuel", snap(at(0, 64, 0), floor, world.NewInventory(stack("minecraft:cobblestone", 0, 8), stack("minecraft:planks", 0, 2), stack("minecraft:stick", 0, 3)), furnace),
			map[string]any{"item": "minecraft:stone", "count": 8}, skills.CodeMissingItems, "6 minecraft:planks (have 2)"},
		{"a fuel that does not burn", snap(at(0, 64, 0), floor, world.NewInventory(stack("minecraft:cobblestone", 0, 8), stack("minecraft:dirt", 0, 8)), furnace),
			map[string]any{"item": "minecraft:stone", "fuel": "minecraft:dirt"}, skills.CodeInvalidParams, "does not burn"},
		{"no furnace", snap(at(0, 64, 0), floor, world.NewInventory(stack("minecraft:cobblestone", 0, 2), stack("minecraft:planks", 0, 2))),
			map[string]any{"item": "minecraft:stone"}, skills.CodeMissingItems, "6 cobblestone around 3 flint"},
		{"pos where no furnace is known", snap(at(0, 64, 0), floor, world.NewInventory(stack("minecraft:cobblestone", 0, 2), stack("minecraft:planks", 0, 2)), furnace),
			map[string]any{"item": "minecraft:stone", "pos": "9,64,9"}, skills.CodeNoTarget, "no furnace known at 9,64,9"},
		{"pos that is not x,y,z", snap(at(0, 64, 0), floor, world.NewInventory(stack("minecraft:cobblestone", 0, 2), stack("minecraft:planks", 0, 2)), furnace),
			map[string]any{"item": "minecraft:stone", "pos": "9,64"}, skills.CodeInvalidParams, `parameter "pos": "9,64" is not x,y,z`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := run(t, Smelt{}, c.w, c.raw)
			f := requireFailure(t, err, c.code)
			assert.Contains(t, f.Error(), c.msg)
		})
	}
}

// TestSmeltByLoadedRules: bound to a rule set with a modpack's furnace
// recipes (sand into glass, which GTNH removes), the skill smelts by
// them; the shipped set refuses.
func TestSmeltByLoadedRules(t *testing.T) {
	base := rules.Default()
	sm, err := base.Smelt.WithRecipes([]rules.SmeltRecipe{{Input: world.MustItem("minecraft:sand"), Output: "minecraft:glass", Count: 1}})
	require.NoError(t, err)
	bound := Smelt{}.WithRules(base.WithRecipes(nil, sm))
	w := snap(at(0, 64, 0), ground(world.NewSparseBlocks(), 63, -2, -2, 2, 2), world.NewInventory(stack("minecraft:sand", 0, 2), stack("minecraft:planks", 0, 2)), furnaceAt(3, 64, 0, nil))
	raw := map[string]any{"item": "minecraft:glass", "count": 2}
	acts := checkActions(t, bound, w, raw)
	assert.Contains(t, acts, action.TransferItems{Pos: world.Pos(3, 64, 0), Item: "minecraft:sand", Count: 2, Direction: action.Deposit, Slot: "input"})
	_, err = run(t, Smelt{}, w, raw)
	assert.Error(t, err, "GTNH's furnace makes no glass")
}

// TestSmeltTheHeldInput: of the furnace recipes for an item, the one whose
// input is held: tin from raw cassiterite sand (two ingots a raw ore) when
// no raw tin ore is held.
func TestSmeltTheHeldInput(t *testing.T) {
	floor := ground(world.NewSparseBlocks(), 63, -2, -2, 2, 2)
	w := snap(at(0, 64, 0), floor, world.NewInventory(stack("gregtech:gt.metaitem.03", 5937, 2), stack("minecraft:planks", 0, 4)), furnaceAt(3, 64, 0, nil))
	acts, err := Smelt{}.SuggestActions(w, skills.Params{"item": "gregtech:gt.metaitem.01:11057", "count": 4})
	require.NoError(t, err)
	var in *action.TransferItems
	for _, a := range acts {
		if tr, ok := a.(action.TransferItems); ok && tr.Slot == "input" {
			in = &tr
		}
	}
	require.NotNil(t, in, "%v", acts)
	assert.Equal(t, "gregtech:gt.metaitem.03:5937", in.Item)
	assert.Equal(t, 2, in.Count)
}
