package chain

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// TestImportantToolsFromIron: "Important Tools" from an inventory of iron
// ingots and sticks at a crafting table. The hammer comes first (it needs
// no tool), plates are hammered, the file is made of plates, rods are
// filed; then the wrench, the screwdriver and the saw (blade, then the saw).
// GregTech's recipes fix what the five cost: 22 ingots (hammer 6, wrench 6,
// four plates of two, two rods of one) and 4 sticks (hammer, file,
// screwdriver, saw), and how the tools wear in the grid: the hammer did 7
// crafts (4 plates, screwdriver, wrench, blade) at 400 damage, the file 4
// (2 rods, screwdriver, blade) at 400.
func TestImportantToolsFromIron(t *testing.T) {
	s := simOf(t, "../../examples/important_tools.yaml")
	out, steps := runTier(t, s, Planner{}, "have 1 gregtech:gt.metatool.01:12 and have 1 gregtech:gt.metatool.01:16 and have 1 gregtech:gt.metatool.01:18 and have 1 gregtech:gt.metatool.01:22 and have 1 gregtech:gt.metatool.01:10")
	require.True(t, out.GoalMet, "%+v", out)
	var did []string
	for _, st := range steps {
		require.Equal(t, loop.Success, st.Verdict, "%s: %s", st.Invocation, st.Error)
		did = append(did, st.Invocation.String())
	}
	assert.Equal(t, []string{
		"basic_crafting count=1 item=gregtech:gt.metatool.01:12",
		"basic_crafting count=1 item=gregtech:gt.metatool.01:16",
		"basic_crafting count=2 item=gregtech:gt.metaitem.01:17032",
		"basic_crafting count=1 item=gregtech:gt.metatool.01:18",
		"basic_crafting count=2 item=gregtech:gt.metaitem.01:23032",
		"basic_crafting count=1 item=gregtech:gt.metatool.01:22",
		"basic_crafting count=2 item=gregtech:gt.metaitem.01:17032",
		"basic_crafting count=1 item=gregtech:gt.metaitem.02:7032",
		"basic_crafting count=1 item=gregtech:gt.metatool.01:10",
	}, did)
	w, err := s.Observe(context.Background())
	require.NoError(t, err)
	inv := w.Inventory
	assert.Equal(t, 72-22, inv.Count(game.MustItem("minecraft:iron_ingot")), "22 ingots for the five tools")
	assert.Equal(t, 8-4, inv.Count(game.MustItem("minecraft:stick")), "a stick each for the hammer, file, screwdriver and saw")
	for _, left := range []string{"gregtech:gt.metaitem.01:17032", "gregtech:gt.metaitem.01:23032", "gregtech:gt.metaitem.02:7032"} {
		assert.Zero(t, inv.Count(game.MustItem(left)), "no part is made beyond what the tools take: %s", left)
	}
	damage := map[int]int{}
	for _, st := range inv.Slots {
		if st.ID == "gregtech:gt.metatool.01" {
			assert.Equal(t, 25600, st.MaxDamage, "an iron tool: 100 × 256")
			damage[st.Meta] = st.Damage
		}
	}
	assert.Equal(t, map[int]int{12: 7 * 400, 18: 4 * 400, 16: 0, 22: 0, 10: 0}, damage)
}
