package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

const (
	mortar = "gregtech:gt.metatool.01:24"
	knife  = "gregtech:gt.metatool.01:34"
	form   = "dreamcraft:item.WoodenBrickForm"
	pulp   = "gregtech:gt.metaitem.01:2809"
)

// TestGridToolsWear: a new flint mortar does 32 crafts (12,800 damage, 400
// a craft) and is gone after the 32nd, which still gives its wood pulp; a
// craft asking for more than the tools held still do is refused whole.
func TestGridToolsWear(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: \""+mortar+"\", count: 1}\n    - {item: minecraft:log, count: 40}\n")
	inv := snap(t, s).Inventory
	m := inv.Slots[inv.Find(world.MustItem(mortar))]
	assert.Equal(t, 12800, m.MaxDamage, "a scenario's mortar without wear is a new one")
	assert.Equal(t, 0, m.Damage)

	r := exec(t, s, action.Craft{Item: pulp, Count: 31})
	require.True(t, r.OK(), r.Error)
	inv = snap(t, s).Inventory
	m = inv.Slots[inv.Find(world.MustItem(mortar))]
	assert.Equal(t, 31*400, m.Damage)

	r = exec(t, s, action.Craft{Item: pulp, Count: 2})
	assert.Equal(t, ipc.Rejected, r.Code)
	assert.Contains(t, r.Error, "the tools matching ore:craftingToolMortar held do 1 more crafts, 2 asked")

	r = exec(t, s, action.Craft{Item: pulp, Count: 1})
	require.True(t, r.OK(), r.Error)
	inv = snap(t, s).Inventory
	assert.Equal(t, 64, inv.Count(world.MustItem(pulp)), "the last craft still gives its output")
	assert.Less(t, inv.Find(world.MustItem(mortar)), 0, "the mortar broke on its 32nd craft")
	r = exec(t, s, action.Craft{Item: pulp, Count: 1})
	assert.Equal(t, ipc.Rejected, r.Code)
}

// TestWoodenBrickFormLastsPastItsMaximum: the form survives at damage 300
// and the 301st craft uses it up; a crafted form is new.
func TestWoodenBrickFormLastsPastItsMaximum(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: \""+form+"\", count: 1, max_durability: 300, durability: 2}\n"+
		"    - {item: minecraft:clay_ball, count: 12}\n    - {item: minecraft:sand, count: 20}\n"+
		"    - {item: \""+knife+"\", count: 1, max_durability: 12800, durability: 100}\n    - {item: \"TConstruct:blankPattern:0\", count: 1}\n"+
		"blocks:\n  - {block: minecraft:crafting_table, pos: [9, 64, 9]}\n")
	table := world.Pos(9, 64, 9)
	r := exec(t, s, action.Craft{Item: "dreamcraft:item.UnfiredCokeOvenBrick", Count: 3, Table: &table})
	require.True(t, r.OK(), r.Error)
	inv := snap(t, s).Inventory
	assert.Less(t, inv.Find(world.MustItem(form)), 0, "damage 298: two crafts to 300, the third uses it up")
	assert.Equal(t, 9, inv.CountID("dreamcraft:item.UnfiredCokeOvenBrick"))

	// The knife at 100 of 12,800 does one more craft: the form it cuts is new.
	r = exec(t, s, action.Craft{Item: form, Count: 1})
	require.True(t, r.OK(), r.Error)
	inv = snap(t, s).Inventory
	f := inv.Slots[inv.Find(world.MustItem(form))]
	assert.Equal(t, 300, f.MaxDamage)
	assert.Equal(t, 0, f.Damage)
	assert.Less(t, inv.Find(world.MustItem(knife)), 0, "the knife's last craft")
}
