package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func saw() world.ItemStack { return world.NewTool("gregtech:gt.metatool.01", 10, 400, 512) }

func TestBasicCrafting(t *testing.T) {
	floor := func() *world.SparseBlocks { return ground(world.NewSparseBlocks(), 63, -2, -2, 2, 2) }
	planks := stack("minecraft:planks", 0, 16)
	logs := stack("minecraft:log", 0, 4)
	flint := stack("minecraft:flint", 0, 3)

	tests := []struct {
		name string
		w    *world.Snapshot
		raw  map[string]any
		want []action.Action
	}{
		{
			name: "planks by hand: 2 per log in GTNH",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 2))),
			raw:  map[string]any{"item": "minecraft:planks", "count": 4},
			want: []action.Action{action.Craft{Item: "minecraft:planks", Count: 2}},
		},
		{
			name: "odd counts round up to whole operations",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 3))),
			raw:  map[string]any{"item": "minecraft:planks", "count": 5},
			want: []action.Action{action.Craft{Item: "minecraft:planks", Count: 3}},
		},
		{
			name: "a saw in the inventory doubles the yield",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 2), saw())),
			raw:  map[string]any{"item": "minecraft:planks", "count": 8},
			want: []action.Action{action.Craft{Item: "minecraft:planks", Count: 2}},
		},
		{
			name: "a worn-out saw does not count",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 4), world.NewTool("gregtech:gt.metatool.01", 10, 0, 512))),
			raw:  map[string]any{"item": "minecraft:planks", "count": 8},
			want: []action.Action{action.Craft{Item: "minecraft:planks", Count: 4}},
		},
		{
			name: "sticks with a saw: 4 from 2 planks, saw over planks at a crafting table",
			w: snap(at(0, 64, 0), floor().SetID(world.Pos(2, 64, 1), "minecraft:crafting_table", 0),
				world.NewInventory(stack("minecraft:planks", 0, 2), saw())),
			raw: map[string]any{"item": "minecraft:stick", "count": 4},
			want: []action.Action{
				action.MoveTo{Pos: world.Pos(2, 64, 1), Radius: 3},
				action.Craft{Item: "minecraft:stick", Count: 1, Table: pos(2, 64, 1)},
			},
		},
		{
			name: "a flint mortar with 2 crafts left makes 4 wood pulp",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 3), world.NewTool("gregtech:gt.metatool.01", 24, 800, 12800))),
			raw:  map[string]any{"item": "gregtech:gt.metaitem.01:2809", "count": 4},
			want: []action.Action{action.Craft{Item: "gregtech:gt.metaitem.01:2809", Count: 2}},
		},
		{
			name: "GTNH torches: 5 from a coal coke",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:stick", 0, 2), stack("Railcraft:fuel.coke", 0, 2))),
			raw:  map[string]any{"item": "minecraft:torch", "count": 10},
			want: []action.Action{action.Craft{Item: "minecraft:torch", Count: 2}},
		},
		{
			name: "GTNH torches: 2 from a charcoal",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:stick", 0, 3), stack("minecraft:coal", 1, 3))),
			raw:  map[string]any{"item": "minecraft:torch", "count": 6},
			want: []action.Action{action.Craft{Item: "minecraft:torch", Count: 3}},
		},
		{
			name: "the GTNH crafting table: 2 flint and 2 logs in the inventory grid",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 2), flint)),
			raw:  map[string]any{"item": "minecraft:crafting_table"},
			want: []action.Action{action.Craft{Item: "minecraft:crafting_table", Count: 1}},
		},
		{
			name: "metadata 0 finds the plain recipe",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:stick", 0, 1), stack("minecraft:coal", 0, 1))),
			raw:  map[string]any{"item": "minecraft:torch:0", "count": 3},
			want: []action.Action{action.Craft{Item: "minecraft:torch", Count: 1}},
		},
		{
			name: "a Tinkers' part at its part builder, 40 blocks off: walked to, not a crafting table",
			w: snap(at(0, 64, 0), floor().SetID(world.Pos(2, 64, 1), "minecraft:crafting_table", 0).
				SetID(world.Pos(40, 64, 0), "TConstruct:ToolStationBlock", 10).SetID(world.Pos(-40, 64, 0), "TConstruct:ToolStationBlock", 1),
				world.NewInventory(flint, stack("TConstruct:woodPattern", 2, 1))),
			raw: map[string]any{"item": "TConstruct:pickaxeHead:3"},
			want: []action.Action{
				action.MoveTo{Pos: world.Pos(-40, 64, 0), Radius: 3},
				action.Craft{Item: "TConstruct:pickaxeHead:3", Count: 1, Table: pos(-40, 64, 0)},
			},
		},
		{
			name: "a Tinkers' station from the inventory placed next to the player",
			w:    snap(at(0, 64, 0), floor(), world.NewInventory(stack("TConstruct:blankPattern", 0, 1), stack("TConstruct:ToolStationBlock", 10, 1), stack("TConstruct:ToolStationBlock", 1, 1))),
			raw:  map[string]any{"item": "TConstruct:woodPattern:9"},
			want: []action.Action{
				action.PlaceBlock{Pos: world.Pos(0, 64, -1), Item: "TConstruct:ToolStationBlock:10", Face: "up"},
				action.Craft{Item: "TConstruct:woodPattern:9", Count: 1, Table: pos(0, 64, -1)},
			},
		},
		{
			name: "3x3 at the nearest crafting table",
			w: snap(at(0, 64, 0), floor().
				SetID(world.Pos(6, 64, 0), "minecraft:crafting_table", 0).
				SetID(world.Pos(3, 64, 1), "minecraft:crafting_table", 0), world.NewInventory(planks, logs, flint)),
			raw: map[string]any{"item": "minecraft:chest"},
			want: []action.Action{
				action.MoveTo{Pos: world.Pos(3, 64, 1), Radius: 3},
				action.Craft{Item: "minecraft:chest", Count: 1, Table: pos(3, 64, 1)},
			},
		},
		{
			name: "3x3 with a crafting table from the inventory placed next to the player",
			w:    snap(at(0, 64, 0), floor(), world.NewInventory(planks, logs, flint, stack("minecraft:crafting_table", 0, 1))),
			raw:  map[string]any{"item": "minecraft:chest"},
			want: []action.Action{
				action.PlaceBlock{Pos: world.Pos(0, 64, -1), Item: "minecraft:crafting_table", Face: "up"},
				action.Craft{Item: "minecraft:chest", Count: 1, Table: pos(0, 64, -1)},
			},
		},
		{
			name: "the table goes where there is ground and room",
			w: snap(at(0, 64, 0), world.NewSparseBlocks().
				SetID(world.Pos(0, 63, -1), "minecraft:water", 0).
				SetID(world.Pos(0, 63, 1), "minecraft:stone", 0).SetID(world.Pos(0, 64, 1), "minecraft:stone", 0).
				SetID(world.Pos(-1, 63, 0), "minecraft:dirt", 0), world.NewInventory(planks, logs, flint, stack("minecraft:crafting_table", 0, 1))),
			raw: map[string]any{"item": "minecraft:chest"},
			want: []action.Action{
				action.PlaceBlock{Pos: world.Pos(-1, 64, 0), Item: "minecraft:crafting_table", Face: "up"},
				action.Craft{Item: "minecraft:chest", Count: 1, Table: pos(-1, 64, 0)},
			},
		},
		{
			name: "down a pit, the table goes on its rim, still within reach",
			w:    snap(at(0, 64, 0), pitWalls(2), world.NewInventory(planks, logs, flint, stack("minecraft:crafting_table", 0, 1))),
			raw:  map[string]any{"item": "minecraft:chest"},
			want: []action.Action{
				action.PlaceBlock{Pos: world.Pos(0, 66, -1), Item: "minecraft:crafting_table", Face: "up"},
				action.Craft{Item: "minecraft:chest", Count: 1, Table: pos(0, 66, -1)},
			},
		},
		{
			name: "wading in a lake, the table goes on the nearest shore, walked to first",
			w:    snap(at(0, 64, 0), lake(), world.NewInventory(planks, logs, flint, stack("minecraft:crafting_table", 0, 1))),
			raw:  map[string]any{"item": "minecraft:chest"},
			want: []action.Action{
				action.MoveTo{Pos: world.Pos(-5, 64, 0), Radius: 3},
				action.PlaceBlock{Pos: world.Pos(-5, 64, 0), Item: "minecraft:crafting_table", Face: "up"},
				action.Craft{Item: "minecraft:chest", Count: 1, Table: pos(-5, 64, 0)},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, checkActions(t, BasicCrafting{}, tc.w, tc.raw))
		})
	}
}

func TestBasicCraftingFailures(t *testing.T) {
	tests := []struct {
		name string
		w    *world.Snapshot
		raw  map[string]any
		code skills.Code
		msg  []string
	}{
		{
			name: "not enough logs",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 1))),
			raw:  map[string]any{"item": "minecraft:planks", "count": 4},
			code: skills.CodeMissingItems,
			msg:  []string{"2 ore:logWood (have 1)"},
		},
		{
			name: "short of everything: the preferred saw recipe is reported",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 1), saw())),
			raw:  map[string]any{"item": "minecraft:planks", "count": 8},
			code: skills.CodeMissingItems,
			msg:  []string{"2 ore:logWood (have 1)", "ore:craftingToolSaw"},
		},
		{
			name: "a flint mortar with 2 crafts left does not last 3",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 3), world.NewTool("gregtech:gt.metatool.01", 24, 800, 12800))),
			raw:  map[string]any{"item": "gregtech:gt.metaitem.01:2809", "count": 6},
			code: skills.CodeMissingTool,
			msg:  []string{"takes 3 crafts", "ore:craftingToolMortar held does 2 more"},
		},
		{
			name: "crafting table without flint",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 8))),
			raw:  map[string]any{"item": "minecraft:crafting_table"},
			code: skills.CodeMissingItems,
			msg:  []string{"2 minecraft:flint (have 0)"},
		},
		{
			name: "3x3 without any crafting table",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:planks", 0, 8), stack("minecraft:log", 0, 4), stack("minecraft:flint", 0, 1))),
			raw:  map[string]any{"item": "minecraft:chest"},
			code: skills.CodeMissingItems,
			msg:  []string{"crafting table", "2 flint and 2 logs"},
		},
		{
			name: "crafting table too far away",
			w: snap(at(0, 64, 0), world.NewSparseBlocks().SetID(world.Pos(20, 64, 0), "minecraft:crafting_table", 0),
				world.NewInventory(stack("minecraft:planks", 0, 8), stack("minecraft:log", 0, 4), stack("minecraft:flint", 0, 1))),
			raw:  map[string]any{"item": "minecraft:chest"},
			code: skills.CodeMissingItems,
			msg:  []string{"crafting table"},
		},
		{
			name: "a Tinkers' part and no part builder",
			w: snap(at(0, 64, 0), world.NewSparseBlocks().SetID(world.Pos(70, 64, 0), "TConstruct:ToolStationBlock", 1),
				world.NewInventory(stack("minecraft:stick", 0, 2), stack("TConstruct:woodPattern", 9, 1), stack("TConstruct:ToolStationBlock", 0, 1))),
			raw:  map[string]any{"item": "TConstruct:binding"},
			code: skills.CodeMissingItems,
			msg:  []string{"TConstruct:binding is made at TConstruct:ToolStationBlock:1 and there is none within 64 blocks nor in the inventory", "basic_crafting item=TConstruct:ToolStationBlock:1"},
		},
		{
			name: "a Tinkers' part without its pattern",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:flint", 0, 2), stack("TConstruct:ToolStationBlock", 1, 1))),
			raw:  map[string]any{"item": "TConstruct:shovelHead:3"},
			code: skills.CodeMissingTool,
			msg:  []string{"TConstruct:woodPattern:3"},
		},
		{
			name: "a table in the inventory but nowhere to put it",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:planks", 0, 8), stack("minecraft:log", 0, 4), stack("minecraft:flint", 0, 1), stack("minecraft:crafting_table", 0, 1))),
			raw:  map[string]any{"item": "minecraft:chest"},
			code: skills.CodeNoTarget,
			msg:  []string{"no free spot"},
		},
		{
			name: "a pit deeper than the reach: no rim within three blocks",
			w:    snap(at(0, 64, 0), pitWalls(4), world.NewInventory(stack("minecraft:planks", 0, 8), stack("minecraft:log", 0, 4), stack("minecraft:flint", 0, 1), stack("minecraft:crafting_table", 0, 1))),
			raw:  map[string]any{"item": "minecraft:chest"},
			code: skills.CodeNoTarget,
			msg:  []string{"no free spot"},
		},
		{
			name: "no recipe",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 64))),
			raw:  map[string]any{"item": "minecraft:diamond_pickaxe"},
			code: skills.CodeInvalidParams,
			msg:  []string{"no known crafting recipe", "minecraft:planks"},
		},
		{
			name: "an ore-dictionary name is not a recipe output",
			w:    snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 64))),
			raw:  map[string]any{"item": "ore:plankWood"},
			code: skills.CodeInvalidParams,
			msg:  []string{"ore:plankWood"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			acts, err := run(t, BasicCrafting{}, tc.w, tc.raw)
			f := requireFailure(t, err, tc.code)
			for _, m := range tc.msg {
				assert.Contains(t, f.Msg, m)
			}
			assert.Nil(t, acts)
		})
	}

	t.Run("item is required", func(t *testing.T) {
		_, err := spec(t, "basic_crafting").ResolveParams(map[string]any{})
		requireFailure(t, err, skills.CodeInvalidParams)
		_, err = BasicCrafting{}.SuggestActions(snap(at(0, 64, 0), nil, world.Inventory{}), skills.Params{})
		requireFailure(t, err, skills.CodeInvalidParams)
	})
}

// pitWalls: the player at (0, 64, 0) at the bottom of a 1×1 pit, depth
// blocks of stone around the feet column from y 64 up, on a stone floor.
func pitWalls(depth int) *world.SparseBlocks {
	b := world.NewSparseBlocks()
	for _, o := range horizontal {
		for y := 63; y < 64+depth; y++ {
			b.SetID(world.Pos(o[0], y, o[1]), "minecraft:stone", 0)
		}
	}
	return b.SetID(world.Pos(0, 63, 0), "minecraft:stone", 0)
}

// lake: the player at (0, 64, 0) in water from x -4 to 4 (y 63 and 64, on
// a stone bed), a shore of grass at x -5 and -6 (y 63) and none to the east.
func lake() *world.SparseBlocks {
	b := world.NewSparseBlocks()
	for x := -4; x <= 4; x++ {
		for z := -9; z <= 9; z++ {
			b.SetID(world.Pos(x, 62, z), "minecraft:stone", 0).
				SetID(world.Pos(x, 63, z), "minecraft:water", 0).
				SetID(world.Pos(x, 64, z), "minecraft:water", 0)
		}
	}
	for z := -9; z <= 9; z++ {
		b.SetID(world.Pos(-5, 63, z), "minecraft:grass", 0).SetID(world.Pos(-6, 63, z), "minecraft:grass", 0)
	}
	return b
}
