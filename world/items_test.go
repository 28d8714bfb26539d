package world

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseItemMatcher(t *testing.T) {
	tests := []struct {
		in     string
		isTag  bool
		id     string
		meta   int
		errMsg string
	}{
		{in: "minecraft:log", id: "minecraft:log", meta: -1},
		{in: "minecraft:coal:1", id: "minecraft:coal", meta: 1},
		{in: "gregtech:gt.metatool.01:10", id: "gregtech:gt.metatool.01", meta: 10},
		{in: "ore:logWood", isTag: true, meta: -1},
		{in: "tool:axe", isTag: true, meta: -1},
		{in: "ore:", errMsg: "ore-dictionary name expected after ore:"},
		{in: "ore:log Wood", errMsg: "ore-dictionary name expected"},
		{in: "ore:a:b", errMsg: "ore-dictionary name expected"},
		{in: "tool:", errMsg: "tool class expected after tool:"},
		{in: "tool:a:b", errMsg: "tool class expected"},
		{in: "log", errMsg: "is not an item: expected modid:name, modid:name:meta, ore:Name or tool:class"},
		{in: "", errMsg: "is not an item"},
		{in: "minecraft:log:abc", errMsg: "is not an item"},
		{in: "minecraft:log:99999", errMsg: "is not an item"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			m, err := ParseItemMatcher(tc.in)
			if tc.errMsg != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.errMsg)
				assert.Panics(t, func() { MustItem(tc.in) })
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.isTag, m.IsTag())
			id, meta := m.ID()
			assert.Equal(t, tc.id, id)
			assert.Equal(t, tc.meta, meta)
			assert.Equal(t, tc.in, m.String())
			assert.NotPanics(t, func() { MustItem(tc.in) })
		})
	}
}

func TestItemMatcherMatches(t *testing.T) {
	log := NewStack("minecraft:log", 2, 4)
	coal := NewStack("minecraft:coal", 0, 8)
	charcoal := NewStack("minecraft:coal", 1, 3)
	axe := NewTool("minecraft:iron_axe", 0, 100, 250)
	gtSaw := NewTool("gregtech:gt.metatool.01", 10, 50, 100)
	tests := []struct {
		matcher string
		stack   ItemStack
		want    bool
	}{
		{"minecraft:log", log, true},
		{"minecraft:log:2", log, true},
		{"minecraft:log:0", log, false},
		{"minecraft:log2", log, false},
		{"ore:logWood", log, true},
		{"ore:plankWood", log, false},
		{"minecraft:coal:0", coal, true},
		{"minecraft:coal:0", charcoal, false},
		{"minecraft:coal", charcoal, true},
		{"ore:gemCoal", coal, true},
		{"ore:gemCoal", charcoal, false},
		{"ore:gemCharcoal", charcoal, true},
		{"tool:axe", axe, true},
		{"tool:pickaxe", axe, false},
		{"tool:saw", gtSaw, true},
		{"ore:craftingToolSaw", gtSaw, true},
		{"tool:axe", gtSaw, false},
		{"minecraft:log", ItemStack{}, false},
		{"minecraft:log", ItemStack{ID: "minecraft:log", Count: 0}, false},
		{"ore:logWood", ItemStack{ID: "minecraft:log", Count: 0, Tags: []string{"ore:logWood"}}, false},
		{"ore:logWood", ItemStack{ID: "mod:custom_log", Count: 1, Tags: []string{"ore:logWood"}}, true},
	}
	for _, tc := range tests {
		t.Run(tc.matcher+"/"+tc.stack.String(), func(t *testing.T) {
			assert.Equal(t, tc.want, MustItem(tc.matcher).Matches(tc.stack))
		})
	}
}

func TestItemStack(t *testing.T) {
	s := NewStack("minecraft:log", 0, 3)
	assert.Equal(t, "3×minecraft:log", s.String())
	assert.Equal(t, "1×minecraft:coal:1", NewStack("minecraft:coal", 1, 1).String())
	assert.Equal(t, -1, s.Durability(), "logs do not wear")
	assert.False(t, s.Empty())
	assert.True(t, ItemStack{}.Empty())
	assert.True(t, ItemStack{ID: "x:y", Count: -1}.Empty())

	tool := NewTool("minecraft:iron_axe", 0, 40, 250)
	assert.Equal(t, 1, tool.Count)
	assert.Equal(t, 250, tool.MaxDamage)
	assert.Equal(t, 210, tool.Damage)
	assert.Equal(t, 40, tool.Durability())
	assert.True(t, tool.HasTag("tool:axe"))
}

func TestInventory(t *testing.T) {
	inv := NewInventory(
		NewStack("minecraft:log", 0, 10),           // 0
		NewStack("minecraft:dirt", 0, 64),          // 1
		NewTool("minecraft:stone_axe", 0, 5, 131),  // 2: nearly broken
		NewStack("minecraft:log2", 1, 7),           // 3
		NewTool("minecraft:iron_axe", 0, 90, 250),  // 4
		NewTool("minecraft:iron_axe", 0, 90, 250),  // 5: tie with 4
		ItemStack{ID: "minecraft:log", Count: 0},   // 6: empty slot
		NewTool("minecraft:iron_axe", 0, 120, 250), // 7: best iron axe
		NewStack("minecraft:stick", 0, 2),          // 8
		// A non-damageable item tagged as a tool counts as unlimited.
		ItemStack{ID: "mod:magic_axe", Count: 1, Tags: []string{"tool:magic"}}, // 9
	)
	require.Len(t, inv.Slots, 36)

	t.Run("Count", func(t *testing.T) {
		assert.Equal(t, 17, inv.Count(MustItem("ore:logWood")))
		assert.Equal(t, 10, inv.Count(MustItem("minecraft:log")))
		assert.Equal(t, 10, inv.Count(MustItem("minecraft:log:0")))
		assert.Equal(t, 0, inv.Count(MustItem("minecraft:log:1")))
		assert.Equal(t, 7, inv.Count(MustItem("minecraft:log2:1")))
		assert.Equal(t, 4, inv.Count(MustItem("tool:axe")))
		assert.Equal(t, 0, inv.Count(MustItem("minecraft:diamond")))
		assert.Equal(t, 10, inv.CountID("minecraft:log"), "empty slots do not count")
		assert.Equal(t, 3, inv.CountID("minecraft:iron_axe"))
	})

	t.Run("Find", func(t *testing.T) {
		assert.Equal(t, 0, inv.Find(MustItem("ore:logWood")))
		assert.Equal(t, 3, inv.Find(MustItem("minecraft:log2")))
		assert.Equal(t, 2, inv.Find(MustItem("tool:axe")))
		assert.Equal(t, -1, inv.Find(MustItem("tool:pickaxe")))
	})

	t.Run("BestTool", func(t *testing.T) {
		tests := []struct {
			matcher string
			minDur  int
			want    int
		}{
			{"tool:axe", 0, 7},
			{"tool:axe", 120, 7},
			{"tool:axe", 121, -1},
			{"minecraft:stone_axe", 0, 2},
			{"minecraft:stone_axe", 5, 2},
			{"minecraft:stone_axe", 6, -1},
			{"tool:pickaxe", 0, -1},
			{"tool:magic", 1000000, 9},
			{"minecraft:log", 0, 0}, // not a tool: never wears
		}
		for _, tc := range tests {
			assert.Equal(t, tc.want, inv.BestTool(MustItem(tc.matcher), tc.minDur), "%s >= %d", tc.matcher, tc.minDur)
		}

		tie := NewInventory(
			NewTool("minecraft:iron_axe", 0, 90, 250),
			NewTool("minecraft:iron_axe", 0, 90, 250),
		)
		assert.Equal(t, 0, tie.BestTool(MustItem("tool:axe"), 1), "ties keep the first slot")
	})

	t.Run("Held and free slots", func(t *testing.T) {
		inv := inv
		inv.Held = 4
		assert.Equal(t, "minecraft:iron_axe", inv.HeldStack().ID)
		inv.Held = -1
		assert.True(t, inv.HeldStack().Empty())
		inv.Held = 99
		assert.True(t, inv.HeldStack().Empty())
		assert.Equal(t, 36-9, inv.FreeSlots())
		assert.Equal(t, 36, NewInventory().FreeSlots())
		assert.Equal(t, 0, Inventory{}.FreeSlots())
	})
}
