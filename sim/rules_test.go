package sim

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// small builds a 16×16 flat world with the given extras.
func small(t *testing.T, extra string) *Sim {
	t.Helper()
	sc, err := ParseScenario("t.yaml", []byte("name: t\nseed: 5\nsize: {x: 16, z: 16}\nplayer:\n  pos: [8, 64, 8]\n"+extra))
	require.NoError(t, err)
	s, err := New(sc, Options{})
	require.NoError(t, err)
	return s
}

func exec(t *testing.T, s *Sim, a action.Action) ipc.Result {
	t.Helper()
	return s.Execute(context.Background(), a)
}

func snap(t *testing.T, s *Sim) *world.Snapshot {
	t.Helper()
	w, err := s.Observe(context.Background())
	require.NoError(t, err)
	return w
}

func TestBreakTimeDependsOnTool(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: minecraft:dirt, count: 1}\n    - {item: minecraft:iron_axe, max_durability: 250}\ntrees:\n  - {at: [10, 8], height: 5}\n")
	log := world.Pos(10, 64, 8)
	hand := exec(t, s, action.BreakBlock{Pos: log.Add(0, 1, 0)})
	require.True(t, hand.OK(), hand.Error)
	require.NoError(t, func() error { r := exec(t, s, action.Equip{Item: "tool:axe"}); assert.True(t, r.OK()); return nil }())
	axe := exec(t, s, action.BreakBlock{Pos: log})
	require.True(t, axe.OK(), axe.Error)
	assert.Equal(t, int64(60), hand.Ticks, "a log by hand: hardness 2 → 60 ticks in 1.7.10")
	assert.Equal(t, int64(10), axe.Ticks, "with an iron axe (speed 6) → 10 ticks")
	w := snap(t, s)
	assert.Equal(t, 2, w.Inventory.CountID("minecraft:log"))
	axeSlot := w.Inventory.Find(world.MustItem("tool:axe"))
	assert.Equal(t, 249, w.Inventory.Slots[axeSlot].Durability(), "the axe wore by one, only when used")
	assert.True(t, w.BlockAt(log).IsAir())
}

func TestStoneNeedsAPickaxe(t *testing.T) {
	s := small(t, "blocks:\n  - {block: minecraft:stone, pos: [9, 64, 8]}\n")
	r := exec(t, s, action.BreakBlock{Pos: world.Pos(9, 64, 8)})
	require.True(t, r.OK())
	assert.Equal(t, 0, snap(t, s).Inventory.CountID("minecraft:cobblestone"), "stone broken by hand drops nothing")
	assert.Equal(t, int64(150), r.Ticks, "hardness 1.5 that the hand cannot harvest: 1.5 × 100 / speed 1 → 150 ticks")
}

func TestReachAndUnreachable(t *testing.T) {
	s := small(t, "blocks:\n  - {block: minecraft:cobblestone, from: [12, 64, 0], to: [12, 66, 15]}\n")
	r := exec(t, s, action.BreakBlock{Pos: world.Pos(14, 63, 8)})
	assert.Equal(t, ipc.Unreachable, r.Code, "6 blocks away")
	r = exec(t, s, action.MoveTo{Pos: world.Pos(3, 64, 3)})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, world.Pos(3, 64, 3), snap(t, s).Feet())
	assert.InDelta(t, 33, float64(r.Ticks), 2, "5 diagonal steps at walking speed")
	assert.NotContains(t, r.Details, "dug", "a walk digs nothing")

	// A 3-high wall of cobblestone cuts the world in two for a walker; with
	// no pickaxe the way across is a tunnel dug by hand under it, through
	// the grass and dirt, and the wall stands.
	r = exec(t, s, action.MoveTo{Pos: world.Pos(14, 64, 8)})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, world.Pos(14, 64, 8), snap(t, s).Feet())
	assert.Positive(t, r.Details["dug"], "no walking path: the route digs")
	w := snap(t, s)
	for z := 0; z < 16; z++ {
		for y := 64; y <= 66; y++ {
			assert.Equal(t, "minecraft:cobblestone", w.BlockAt(world.Pos(12, y, z)).ID, "the wall at z=%d y=%d: no pickaxe, no breaking it", z, y)
		}
	}
}

func TestPlaceBlockNeedsItemAndSupport(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: minecraft:cobblestone, count: 2}\n")
	r := exec(t, s, action.PlaceBlock{Pos: world.Pos(9, 66, 8), Item: "minecraft:cobblestone", Face: "auto"})
	assert.Equal(t, ipc.Rejected, r.Code, "nothing to place against in mid-air")
	r = exec(t, s, action.PlaceBlock{Pos: world.Pos(9, 64, 8), Item: "minecraft:cobblestone", Face: "auto"})
	require.True(t, r.OK(), r.Error)
	r = exec(t, s, action.PlaceBlock{Pos: world.Pos(9, 64, 8), Item: "minecraft:cobblestone", Face: "auto"})
	assert.Equal(t, ipc.Rejected, r.Code, "occupied")
	r = exec(t, s, action.PlaceBlock{Pos: world.Pos(8, 64, 8), Item: "minecraft:cobblestone", Face: "auto"})
	assert.Equal(t, ipc.Rejected, r.Code, "the player stands there")
	r = exec(t, s, action.PlaceBlock{Pos: world.Pos(7, 64, 8), Item: "minecraft:dirt", Face: "auto"})
	assert.Equal(t, ipc.InvalidParams, r.Code, "no dirt held")
	assert.Equal(t, 1, snap(t, s).Inventory.CountID("minecraft:cobblestone"))
}

func TestBucketsAndTanks(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: minecraft:bucket, count: 1}\nblocks:\n  - {block: minecraft:water, pos: [9, 63, 9]}\nmachines:\n  - kind: water_tank\n    pos: [7, 64, 8]\n    fluids: {water: {amount: 0, capacity: 16000}}\n")
	water, tank := world.Pos(9, 63, 9), world.Pos(7, 64, 8)
	require.True(t, exec(t, s, action.UseItem{Item: "minecraft:bucket", Target: &water}).OK())
	assert.Equal(t, 1, snap(t, s).Inventory.CountID("minecraft:water_bucket"))
	require.True(t, exec(t, s, action.UseItem{Item: "minecraft:water_bucket", Target: &tank}).OK())
	assert.Equal(t, 1000, machine(t, s, tank).Fluid("water").Amount)
	assert.Equal(t, 1, snap(t, s).Inventory.CountID("minecraft:bucket"))
}

func TestCraftingFollowsTheRecipeBook(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: minecraft:log, count: 3}\n    - {item: minecraft:flint, count: 1}\nblocks:\n  - {block: minecraft:crafting_table, pos: [9, 64, 9]}\n")
	require.True(t, exec(t, s, action.Craft{Item: "minecraft:planks", Count: 3}).OK())
	w := snap(t, s)
	assert.Equal(t, 6, w.Inventory.CountID("minecraft:planks"), "GTNH: 2 planks per log by hand")
	r := exec(t, s, action.Craft{Item: "minecraft:chest", Count: 1})
	assert.Equal(t, ipc.Rejected, r.Code, "a chest is 3x3: it needs the table")
	table := world.Pos(9, 64, 9)
	r = exec(t, s, action.Craft{Item: "minecraft:chest", Count: 1, Table: &table})
	assert.Equal(t, ipc.Rejected, r.Code, "8 planks are needed, 6 held: %s", r.Error)
	assert.Equal(t, 6, snap(t, s).Inventory.CountID("minecraft:planks"), "nothing consumed by a failed craft")
}

func TestSameSeedSameWorld(t *testing.T) {
	a, b := defaultWorld(t, 0), defaultWorld(t, 0)
	c := defaultWorld(t, 99)
	logs := func(s *Sim) []world.BlockHit { return snap(t, s).NearestBlocks(64, 0, "log") }
	assert.Equal(t, logs(a), logs(b))
	assert.NotEqual(t, logs(a), logs(c))
}

func defaultWorld(t *testing.T, seed int64) *Sim {
	sc, err := DefaultScenario()
	require.NoError(t, err)
	s, err := New(sc, Options{Seed: seed})
	require.NoError(t, err)
	return s
}

func machine(t *testing.T, s *Sim, p world.BlockPos) world.Machine {
	t.Helper()
	for _, m := range snap(t, s).Machines {
		if m.Pos == p {
			return m
		}
	}
	t.Fatalf("no machine at %v", p)
	return world.Machine{}
}

// TestChatHistoryIsBounded: a long run that keeps chatting does not grow
// the simulator; the newest messages are kept in order.
func TestChatHistoryIsBounded(t *testing.T) {
	s := small(t, "")
	for i := 1; i <= chatHistory+44; i++ {
		require.True(t, exec(t, s, action.Chat{Message: fmt.Sprint("m", i)}).OK())
	}
	got := s.Chat()
	require.Len(t, got, chatHistory)
	assert.Equal(t, "m45", got[0])
	assert.Equal(t, fmt.Sprint("m", chatHistory+44), got[len(got)-1])
	assert.LessOrEqual(t, cap(s.chat), 2*chatHistory)
}

// TestChatSince: the simulator reports the lines the player said, from
// the player, numbered in order, at the tick they were said; a call from
// the number it returned gets only the newer lines, and lines pushed out of
// the bounded history leave a gap.
func TestChatSince(t *testing.T) {
	s := small(t, "")
	none, next := s.ChatSince(0)
	assert.Empty(t, none)
	assert.Equal(t, uint64(1), next)
	tick := s.State().Snapshot().Tick
	require.True(t, exec(t, s, action.Chat{Message: "one"}).OK())
	require.True(t, exec(t, s, action.Chat{Message: "two"}).OK())
	got, next := s.ChatSince(next)
	require.Len(t, got, 2)
	assert.Equal(t, ipc.ChatLine{Seq: 1, From: "Bot", Text: "one", Tick: tick}, got[0])
	assert.Equal(t, ipc.ChatLine{Seq: 2, From: "Bot", Text: "two", Tick: tick + 1}, got[1])
	assert.Equal(t, uint64(3), next)
	got, next2 := s.ChatSince(next)
	assert.Empty(t, got)
	assert.Equal(t, next, next2)
	got, _ = s.ChatSince(2)
	require.Len(t, got, 1)
	assert.Equal(t, "two", got[0].Text)
	for i := range chatHistory {
		require.True(t, exec(t, s, action.Chat{Message: fmt.Sprint("m", i)}).OK())
	}
	got, next = s.ChatSince(next)
	require.Len(t, got, chatHistory)
	assert.Equal(t, uint64(3), got[0].Seq, "the oldest kept")
	assert.Equal(t, uint64(chatHistory+3), next)
	require.True(t, exec(t, s, action.Chat{Message: "last"}).OK())
	got, _ = s.ChatSince(3)
	require.Len(t, got, chatHistory)
	assert.Equal(t, uint64(4), got[0].Seq, "line 3 was pushed out: a gap")
	assert.Equal(t, "last", got[len(got)-1].Text)
}

// TestHarvestLevelAndWear: a wooden pickaxe breaks diamond ore at the slow
// rate and gets nothing; a diamond one digs nothing in GTNH
// (IguanaTinkerTweaks' disableRegularTools) and is refused, the ore left
// standing; a GregTech pickaxe (the simulator's iron grade) gets iron ore;
// a bare hand gets nothing from a gold block; every block with hardness
// wears the tool.
func TestHarvestLevelAndWear(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: minecraft:wooden_pickaxe, max_durability: 59}\n    - {item: minecraft:diamond_pickaxe, max_durability: 1561}\n    - {item: \"gregtech:gt.metatool.01:2\"}\n"+
		"blocks:\n  - {block: minecraft:diamond_ore, pos: [9, 64, 8]}\n  - {block: minecraft:diamond_ore, pos: [9, 65, 8]}\n  - {block: minecraft:iron_ore, pos: [7, 65, 8]}\n  - {block: minecraft:gold_block, pos: [7, 64, 8]}\n  - {block: minecraft:dirt, pos: [8, 64, 9]}\n  - {block: minecraft:sapling, pos: [8, 64, 7]}\n")
	require.True(t, exec(t, s, action.Equip{Item: "minecraft:wooden_pickaxe"}).OK())
	r := exec(t, s, action.BreakBlock{Pos: world.Pos(9, 64, 8)})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, int64(150), r.Ticks, "hardness 3 × 100 / wooden speed 2: the slow rate")
	assert.Equal(t, false, r.Details["harvested"])
	w := snap(t, s)
	assert.Equal(t, 0, w.Inventory.CountID("minecraft:diamond"), "a wooden pickaxe gets nothing from diamond ore")
	assert.Equal(t, 58, w.Inventory.HeldStack().Durability(), "the pickaxe wore anyway")

	r = exec(t, s, action.BreakBlock{Pos: world.Pos(8, 64, 9)})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, 57, snap(t, s).Inventory.HeldStack().Durability(), "dirt has hardness: a pickaxe wears on it too")
	r = exec(t, s, action.BreakBlock{Pos: world.Pos(8, 64, 7)})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, 57, snap(t, s).Inventory.HeldStack().Durability(), "a sapling breaks at once: no wear")

	require.True(t, exec(t, s, action.Equip{Item: "minecraft:diamond_pickaxe"}).OK())
	r = exec(t, s, action.BreakBlock{Pos: world.Pos(9, 65, 8)})
	require.Equal(t, ipc.Rejected, r.Code, r.Error)
	assert.Contains(t, r.Error, "the held minecraft:diamond_pickaxe digs nothing in GTNH")
	assert.Equal(t, "minecraft:diamond_ore", snap(t, s).BlockAt(world.Pos(9, 65, 8)).ID, "the ore stands")
	assert.Equal(t, 1561, snap(t, s).Inventory.HeldStack().Durability(), "nor did it wear")

	require.True(t, exec(t, s, action.Equip{Item: "gregtech:gt.metatool.01:2"}).OK())
	r = exec(t, s, action.BreakBlock{Pos: world.Pos(7, 65, 8)})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, int64(15), r.Ticks, "3 × 30 / the GregTech pickaxe's assumed speed 6")
	assert.NotContains(t, r.Details, "harvested", "harvested: only said when false")
	assert.Equal(t, 1, snap(t, s).Inventory.CountID("minecraft:iron_ore"))

	s2 := small(t, "blocks:\n  - {block: minecraft:gold_block, pos: [7, 64, 8]}\n")
	r = exec(t, s2, action.BreakBlock{Pos: world.Pos(7, 64, 8)})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, int64(300), r.Ticks, "a gold block by hand: 3 × 100")
	assert.Equal(t, 0, snap(t, s2).Inventory.CountID("minecraft:gold_block"), "the hand gets nothing from a gold block")
}

// TestToolBreaksAfterItsDurability: a wooden pickaxe (max damage 59) breaks
// on its 60th block, as ItemStack.attemptDamageItem has it.
func TestToolBreaksAfterItsDurability(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: minecraft:wooden_pickaxe, durability: 2, max_durability: 59}\n"+
		"blocks:\n  - {block: minecraft:stone, from: [9, 64, 7], to: [9, 66, 7]}\n")
	for i, y := range []int{64, 65} {
		r := exec(t, s, action.BreakBlock{Pos: world.Pos(9, y, 7)})
		require.True(t, r.OK(), r.Error)
		assert.Equal(t, int64(23), r.Ticks, "block %d at the wooden pickaxe's speed", i)
		assert.Nil(t, r.Details["tool_broke"])
	}
	assert.Equal(t, 0, snap(t, s).Inventory.HeldStack().Durability(), "no uses left, not broken yet")
	r := exec(t, s, action.BreakBlock{Pos: world.Pos(9, 66, 7)})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, "minecraft:wooden_pickaxe", r.Details["tool_broke"])
	w := snap(t, s)
	assert.True(t, w.Inventory.HeldStack().Empty(), "the pickaxe broke")
	assert.Equal(t, 3, w.Inventory.CountID("minecraft:cobblestone"))
}

// TestSimFollowsTheRulesItIsGiven: a world built with other rules (here
// logs twice as hard, with a tag table where they are no wood) breaks and
// tags by those, not by the shipped tables.
func TestSimFollowsTheRulesItIsGiven(t *testing.T) {
	shipped := rules.Default()
	mining, err := rules.ParseMiningRules("mining.yaml", []byte("blocks:\n  minecraft:log: {hardness: 4, tool: axe}\ntools:\n  - {prefix: \"minecraft:iron_\", speed: 6, durability: 250, harvest_level: 2}\n"))
	require.NoError(t, err)
	tags, err := rules.ParseTags("tags.yaml", []byte("blocks:\n  minecraft:log: [hard_log]\nitems: {}\n"))
	require.NoError(t, err)
	other := *shipped
	other.Mining, other.Tags = mining, tags

	sc, err := ParseScenario("t.yaml", []byte("name: t\nseed: 5\nsize: {x: 16, z: 16}\nplayer:\n  pos: [8, 64, 8]\ntrees:\n  - {at: [10, 8], height: 5}\n"))
	require.NoError(t, err)
	s, err := New(sc, Options{Rules: &other})
	require.NoError(t, err)
	log := world.Pos(10, 65, 8)
	assert.Equal(t, []string{"hard_log"}, snap(t, s).BlockAt(log).Tags, "the state tags blocks by the given table")
	r := exec(t, s, action.BreakBlock{Pos: log})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, int64(120), r.Ticks, "hardness 4 by hand: 4 × 30 / 1 → 120 ticks (the shipped 2 gives 60)")
	got := snap(t, s).Inventory.Slots[snap(t, s).Inventory.Find(world.MustItem("minecraft:log"))]
	assert.Empty(t, got.Tags, "the drop carries the given item tags (none), not the shipped ore:logWood")
}
