package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/game"
)

// TestShippedCraftingTools: GTNH 2.8.4's grid tools: a flint mortar does 32
// crafts, a flint knife 128 (12,800 damage at 400 and 100 a craft), a
// wooden brick form 301 (300 damage, one a craft, used up past its
// maximum); GregTech's iron tools hold 25,600: the hard hammer, file and
// screwdriver 64 crafts (400 a craft), the wrench 32 (800), the saw 128
// (200).
func TestShippedCraftingTools(t *testing.T) {
	g := Default().Grid
	for _, c := range []struct {
		id   string
		meta int
		uses int
	}{
		{"gregtech:gt.metatool.01", 24, 32},
		{"gregtech:gt.metatool.01", 34, 128},
		{"dreamcraft:item.WoodenBrickForm", 0, 301},
		{"gregtech:gt.metatool.01", 12, 64},
		{"gregtech:gt.metatool.01", 18, 64},
		{"gregtech:gt.metatool.01", 22, 64},
		{"gregtech:gt.metatool.01", 16, 32},
		{"gregtech:gt.metatool.01", 10, 128},
	} {
		st := g.New(newStack(c.id, c.meta, 1))
		require.Positive(t, st.MaxDamage, c.id)
		assert.Equal(t, c.uses, g.Uses(st), "%s:%d", c.id, c.meta)
		n := 0
		for !st.Empty() {
			st = g.AfterCraft(st)
			n++
		}
		assert.Equal(t, c.uses, n, "%s:%d crafts until it is gone", c.id, c.meta)
	}
	// The materials a GregTech tool's NBT names, as the quest book's
	// "Important Tools" shows them: an iron head on a wooden handle, the
	// wrench all iron.
	for meta, want := range map[int]GTMaterials{12: {"Iron", "Wood"}, 18: {"Iron", "Wood"}, 22: {"Iron", "Wood"}, 10: {"Iron", "Wood"}, 16: {"Iron", "Iron"}, 24: {"Flint", "Stone"}, 34: {"Flint", "Wood"}} {
		ct, ok := g.Get(newStack("gregtech:gt.metatool.01", meta, 1))
		require.True(t, ok, meta)
		require.NotNil(t, ct.GregTech, meta)
		assert.Equal(t, want, *ct.GregTech, "gt.metatool.01:%d", meta)
	}
	assert.Equal(t, -1, g.Uses(newStack("minecraft:flint", 0, 1)), "flint does not wear in the grid")
	assert.Equal(t, -1, g.Uses(newStack("gregtech:gt.metatool.01", 24, 1)), "a stack without a wear limit says nothing")
	worn := g.New(newStack("gregtech:gt.metatool.01", 24, 1))
	worn.Damage = 12400
	assert.Equal(t, 1, g.Uses(worn))
	inv := game.NewInventory(worn, g.New(newStack("gregtech:gt.metatool.01", 24, 1)))
	assert.Equal(t, 33, g.UsesIn(inv, game.MustItem("ore:craftingToolMortar")))
}

func TestParseCraftingToolsErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"{}\n", "tools"},
		{"tools:\n  - {item: minecraft:flint, max_damage: 0, damage_per_craft: 1, breaks: at_max}\n", "max_damage: must be within 1.."},
		{"tools:\n  - {item: minecraft:flint, max_damage: 10, damage_per_craft: 1, breaks: never}\n", `breaks: must be at_max or past_max, got "never"`},
		{"tools:\n  - {item: \"ore:\", max_damage: 10, damage_per_craft: 1, breaks: at_max}\n", "ore-dictionary name expected"},
		{"tools:\n  - {item: minecraft:flint, max_damage: 10, breaks: at_max}\n", "damage_per_craft"},
	} {
		_, err := ParseCraftingTools("g.yaml", []byte(c.yaml))
		require.Error(t, err, c.yaml)
		assert.Contains(t, err.Error(), c.want, c.yaml)
		assert.Contains(t, err.Error(), "g.yaml:", c.yaml)
	}
}

func FuzzParseCraftingTools(f *testing.F) {
	f.Add([]byte("tools:\n  - {item: \"gregtech:gt.metatool.01:24\", max_damage: 12800, damage_per_craft: 400, breaks: at_max}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ParseCraftingTools("f.yaml", data)
		if err != nil {
			located(t, err)
			return
		}
		for _, ct := range g.All() {
			if ct.MaxDamage < 1 || ct.DamagePerCraft < 1 {
				t.Fatalf("%+v accepted", ct)
			}
			if u := ct.Uses(0); u < 1 || u > ct.MaxDamage+1 {
				t.Fatalf("a new tool does %d crafts: %+v", u, ct)
			}
		}
	})
}
