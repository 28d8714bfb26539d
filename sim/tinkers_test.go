package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestTinkersStationsMakeTheParts: a station recipe (config/recipes.yaml)
// is made only at its own block within reach: a pattern at the stencil
// table, a head at the part builder with its pattern held (the pattern
// stays, the flint goes), the tool at the tool station; never in the
// inventory grid nor at another block.
func TestTinkersStationsMakeTheParts(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: \"TConstruct:blankPattern\", count: 2}\n    - {item: minecraft:flint, count: 2}\n    - {item: minecraft:stick, count: 2}\n"+
		"    - {item: \"TConstruct:ToolStationBlock\", count: 1}\n"+
		"blocks:\n  - {block: \"TConstruct:ToolStationBlock:10\", pos: [9, 64, 9]}\n  - {block: \"TConstruct:ToolStationBlock:1\", pos: [7, 64, 9]}\n"+
		"  - {block: minecraft:crafting_table, pos: [9, 64, 7]}\n")
	stencil, parts, table := world.Pos(9, 64, 9), world.Pos(7, 64, 9), world.Pos(9, 64, 7)

	r := exec(t, s, action.Craft{Item: "TConstruct:woodPattern:2", Count: 1})
	assert.Equal(t, ipc.Rejected, r.Code, "not in the inventory grid")
	r = exec(t, s, action.Craft{Item: "TConstruct:woodPattern:2", Count: 1, Table: &table})
	assert.Equal(t, ipc.InvalidParams, r.Code, "not at a crafting table")
	assert.Contains(t, r.Error, "TConstruct:woodPattern:2 is made at TConstruct:ToolStationBlock:10, and (9, 64, 7) holds minecraft:crafting_table")
	r = exec(t, s, action.Craft{Item: "TConstruct:pickaxeHead:3", Count: 1, Table: &parts})
	assert.Equal(t, ipc.Rejected, r.Code, "no pickaxe head pattern yet")

	r = exec(t, s, action.Craft{Item: "TConstruct:woodPattern:2", Count: 1, Table: &stencil})
	require.True(t, r.OK(), r.Error)
	r = exec(t, s, action.Craft{Item: "TConstruct:pickaxeHead:3", Count: 1, Table: &stencil})
	assert.Equal(t, ipc.InvalidParams, r.Code, "heads come from the part builder")
	r = exec(t, s, action.Craft{Item: "TConstruct:pickaxeHead:3", Count: 2, Table: &parts})
	require.True(t, r.OK(), r.Error)
	inv := snap(t, s).Inventory
	assert.Equal(t, 1, inv.CountID("TConstruct:blankPattern"), "a pattern takes one blank")
	assert.Equal(t, 1, inv.Count(world.MustItem("TConstruct:woodPattern:2")), "the pattern stays")
	assert.Equal(t, 2, inv.Count(world.MustItem("TConstruct:pickaxeHead:3")))
	assert.Zero(t, inv.CountID("minecraft:flint"), "a head takes one flint")

	// The tool station is placed from the inventory, as basic_crafting does.
	ts := world.Pos(9, 64, 8)
	r = exec(t, s, action.PlaceBlock{Pos: ts, Item: "TConstruct:ToolStationBlock", Face: "up"})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, world.Block{ID: "TConstruct:ToolStationBlock"}, withoutTags(snap(t, s).BlockAt(ts)))
	r = exec(t, s, action.Craft{Item: "TConstruct:pickaxe", Count: 1, Table: &ts})
	assert.Equal(t, ipc.Rejected, r.Code, "the pickaxe needs a binding")
	r = exec(t, s, action.Craft{Item: "TConstruct:binding", Count: 1, Table: &parts})
	assert.Equal(t, ipc.Rejected, r.Code, "and the binding its pattern")
}

// TestTinkersFlintPickaxeMinesStoneNotIron: the flint pickaxe the tool
// station makes harvests stone (harvest level 0, a new pickaxe's before
// its boost; config/mining.yaml) but not iron ore.
func TestTinkersFlintPickaxeMinesStoneNotIron(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: \"TConstruct:pickaxe\", count: 1}\n"+
		"blocks:\n  - {block: minecraft:stone, pos: [9, 64, 8]}\n  - {block: minecraft:iron_ore, pos: [7, 64, 8]}\n")
	r := exec(t, s, action.BreakBlock{Pos: world.Pos(9, 64, 8)})
	require.True(t, r.OK(), r.Error)
	r = exec(t, s, action.BreakBlock{Pos: world.Pos(7, 64, 8)})
	require.True(t, r.OK(), r.Error)
	inv := snap(t, s).Inventory
	assert.Equal(t, 1, inv.CountID("minecraft:cobblestone"))
	assert.Zero(t, inv.CountID("minecraft:iron_ore"), "iron ore needs more than a stone-level pickaxe")
}

func withoutTags(b world.Block) world.Block { b.Tags = nil; return b }

// TestTinkersKnifeBladeGivesAShard: a knife blade costs half a flint; the
// part builder gives the other half back as a flint shard.
func TestTinkersKnifeBladeGivesAShard(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: \"TConstruct:woodPattern:12\", count: 1}\n    - {item: minecraft:flint, count: 1}\n    - {item: minecraft:stick, count: 1}\n"+
		"blocks:\n  - {block: \"TConstruct:ToolStationBlock:1\", pos: [7, 64, 9]}\n  - {block: \"TConstruct:ToolStationBlock\", pos: [9, 64, 9]}\n")
	parts, tools := world.Pos(7, 64, 9), world.Pos(9, 64, 9)
	r := exec(t, s, action.Craft{Item: "TConstruct:knifeBlade:3", Count: 1, Table: &parts})
	require.True(t, r.OK(), r.Error)
	r = exec(t, s, action.Craft{Item: "TConstruct:ThrowingKnife", Count: 1, Table: &tools})
	require.True(t, r.OK(), r.Error)
	inv := snap(t, s).Inventory
	assert.Equal(t, 1, inv.Count(world.MustItem("TConstruct:toolShard:3")))
	assert.Equal(t, 1, inv.CountID("TConstruct:ThrowingKnife"))
	assert.Zero(t, inv.CountID("minecraft:flint")+inv.CountID("minecraft:stick")+inv.CountID("TConstruct:knifeBlade"))
}
