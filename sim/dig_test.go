package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
	"github.com/gtnh-agent/gtnh-agent/world/path/digroute"
)

// inPit: a flat world whose ground is made of wall (the 5×5 around the
// shaft, from the grass down), a 1×1 shaft 3 deep under the player at
// (8, 64, 8), the player at its bottom, holding inv (YAML list items).
func inPit(t *testing.T, wall, inv string) *Sim {
	t.Helper()
	sc, err := ParseScenario("pit.yaml", []byte("name: pit\nseed: 5\nsize: {x: 16, z: 16}\nplayer:\n  pos: [8, 61, 8]\n"+
		"  inventory: ["+inv+"]\nblocks:\n"+
		"  - {block: "+wall+", from: [6, 58, 6], to: [10, 63, 10]}\n"+
		"  - {block: minecraft:air, from: [8, 61, 8], to: [8, 63, 8]}\n"))
	require.NoError(t, err)
	s, err := New(sc, Options{})
	require.NoError(t, err)
	require.Equal(t, world.Pos(8, 61, 8), snap(t, s).Feet(), "the player starts at the bottom of the pit")
	return s
}

// TestClimbOutOfAPit: three blocks down a 1×1 shaft no walk or jump gets
// out; move_to digs a staircase into the wall with what the player has
// (here a shovel through dirt), and that staircase is one a player walks:
// back down and up again without breaking anything more.
func TestClimbOutOfAPit(t *testing.T) {
	s := inPit(t, "minecraft:dirt", `{item: minecraft:wooden_pickaxe, max_durability: 64}, {item: minecraft:wooden_shovel, max_durability: 64}`)
	out := world.Pos(3, 64, 8)
	r := exec(t, s, action.MoveTo{Pos: out})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, out, snap(t, s).Feet())
	dug := r.Details["dug"].(int)
	assert.Positive(t, dug, "the way out is dug")
	assert.Zero(t, r.Details["placed"], "dirt digs faster than a pillar builds")
	w := snap(t, s)
	shovel := w.Inventory.Slots[w.Inventory.Find(world.MustItem("minecraft:wooden_shovel"))]
	assert.Equal(t, dug, shovel.Damage, "the shovel wore once a block")
	pick := w.Inventory.Slots[w.Inventory.Find(world.MustItem("minecraft:wooden_pickaxe"))]
	assert.Zero(t, pick.Damage, "a pickaxe digs dirt no faster than a hand and is not used")
	assert.Positive(t, w.Inventory.CountID("minecraft:dirt"), "the dug dirt is in the inventory")

	r = exec(t, s, action.MoveTo{Pos: world.Pos(8, 61, 8)})
	require.True(t, r.OK(), r.Error)
	assert.NotContains(t, r.Details, "dug", "back down the staircase on foot")
	r = exec(t, s, action.MoveTo{Pos: out})
	require.True(t, r.OK(), r.Error)
	assert.NotContains(t, r.Details, "dug", "and up it again: a staircase a player climbs")
}

// TestPillarOutOfAStonePit: a pit in stone with no pickaxe: the walls stay,
// and the player jumps and places the dirt and cobblestone it carries
// under its feet, one block a jump, until it can jump out: two blocks for
// a pit three deep.
func TestPillarOutOfAStonePit(t *testing.T) {
	s := inPit(t, "minecraft:stone", `{item: minecraft:dirt, count: 1}, {item: minecraft:cobblestone, count: 5}`)
	r := exec(t, s, action.MoveTo{Pos: world.Pos(3, 64, 8)})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, world.Pos(3, 64, 8), snap(t, s).Feet())
	assert.Equal(t, 2, r.Details["placed"], "two blocks up, then a jump")
	assert.Zero(t, r.Details["dug"])
	w := snap(t, s)
	assert.Zero(t, w.Inventory.CountID("minecraft:dirt"), "dirt first")
	assert.Equal(t, 4, w.Inventory.CountID("minecraft:cobblestone"))
	assert.Equal(t, "minecraft:dirt", w.BlockAt(world.Pos(8, 61, 8)).ID, "the shaft is filled from the bottom")
	assert.Equal(t, "minecraft:cobblestone", w.BlockAt(world.Pos(8, 62, 8)).ID)
	assert.True(t, w.BlockAt(world.Pos(8, 63, 8)).IsAir())
}

// TestNoWayOutIsAClearFailure: an obsidian pit, no pickaxe and too little
// to pillar with (none, or one block where two are needed): move_to fails
// at once, naming what it lacks, and changes nothing; the hand would take
// 5,000 ticks a block, past what a route breaks by hand.
func TestNoWayOutIsAClearFailure(t *testing.T) {
	for _, c := range []struct {
		inv    string
		cobble int
	}{{"", 0}, {`{item: minecraft:cobblestone, count: 1}`, 1}} {
		t.Run(fmt.Sprintf("%d cobblestone", c.cobble), func(t *testing.T) {
			s := inPit(t, "minecraft:obsidian", c.inv)
			r := exec(t, s, action.MoveTo{Pos: world.Pos(3, 64, 8)})
			require.Equal(t, ipc.Unreachable, r.Code, r.Error)
			assert.Contains(t, r.Error, "walking or digging")
			assert.Contains(t, r.Error, "minecraft:obsidian needs a pickaxe of harvest level 5")
			w := snap(t, s)
			assert.Equal(t, world.Pos(8, 61, 8), w.Feet(), "nothing moved")
			assert.Equal(t, c.cobble, w.Inventory.CountID("minecraft:cobblestone"), "nothing placed")
			assert.True(t, w.BlockAt(world.Pos(8, 62, 8)).IsAir())
		})
	}
}

// TestPunchOutOfAStonePit: a stone pit, no pickaxe and nothing to pillar
// with: move_to breaks a staircase out by hand, each block at the hand's
// 150 ticks, and gets nothing from it (stone drops only to a pickaxe).
func TestPunchOutOfAStonePit(t *testing.T) {
	s := inPit(t, "minecraft:stone", "")
	r := exec(t, s, action.MoveTo{Pos: world.Pos(3, 64, 8)})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, true, r.Details["by_hand"])
	dug, _ := r.Details["dug"].(int)
	require.Positive(t, dug)
	assert.GreaterOrEqual(t, r.Ticks, int64(dug)*150, "%d blocks by hand", dug)
	w := snap(t, s)
	assert.Equal(t, world.Pos(3, 64, 8), w.Feet())
	assert.Zero(t, w.Inventory.CountID("minecraft:cobblestone"), "nothing drops to the hand")
}

// buried: the flat world (grass, three blocks of dirt, stone below) with a
// coal ore block ten blocks under the player's feet, the player holding
// inv (YAML list items).
func buried(t *testing.T, inv string) (*Sim, world.BlockPos) {
	t.Helper()
	ore := world.Pos(8, 53, 8)
	return small(t, "  inventory: ["+inv+"]\nblocks:\n  - {block: minecraft:coal_ore, pos: [8, 53, 8]}\n"), ore
}

// TestTunnelToABuriedBlock: no walk reaches a block under the ground;
// move_to digs down to it with the inventory's best tool for each block (a
// shovel through the dirt, the pickaxe through the stone, each wearing
// once a block), leaves the target standing and ends within reach of it.
func TestTunnelToABuriedBlock(t *testing.T) {
	s, ore := buried(t, `{item: minecraft:wooden_pickaxe, max_durability: 64}, {item: minecraft:wooden_shovel, max_durability: 64}`)
	r := exec(t, s, action.MoveTo{Pos: ore, Radius: 3})
	require.True(t, r.OK(), r.Error)
	w := snap(t, s)
	assert.LessOrEqual(t, w.Feet().DistSq(ore), 9, "within 3 of the ore")
	assert.Equal(t, "minecraft:coal_ore", w.BlockAt(ore).ID, "the target itself is not dug")
	pick := w.Inventory.Slots[w.Inventory.Find(world.MustItem("minecraft:wooden_pickaxe"))]
	shovel := w.Inventory.Slots[w.Inventory.Find(world.MustItem("minecraft:wooden_shovel"))]
	stone := w.Inventory.CountID("minecraft:cobblestone")
	soil := w.Inventory.CountID("minecraft:dirt")
	assert.Positive(t, stone, "stone dug with the pickaxe gives cobblestone")
	assert.Positive(t, soil, "grass and dirt dug with the shovel give dirt")
	assert.Equal(t, stone, pick.Damage, "the pickaxe wore once a stone")
	assert.Equal(t, soil, shovel.Damage, "the shovel once a dirt or grass block")
	assert.Equal(t, stone+soil, r.Details["dug"])
	// Ticks: walking plus each block's break time with its tool (stone
	// 1.5 × 30 / 2 = 22.5, dirt 0.5 × 30 / 2 = 7.5, grass 9 with wood).
	assert.Greater(t, float64(r.Ticks), 22.5*float64(stone)+7.5*float64(soil))

	b := exec(t, s, action.Equip{Item: "tool:pickaxe"})
	require.True(t, b.OK(), b.Error)
	b = exec(t, s, action.BreakBlock{Pos: ore})
	require.True(t, b.OK(), b.Error)
	assert.Equal(t, 0, snap(t, s).Inventory.CountID("minecraft:coal"), "in GTNH coal ore needs a pickaxe of level 1 (IguanaTinkerTweaks' ore dictionary levels): a wooden one gets nothing")
	assert.Equal(t, false, b.Details["harvested"])
}

// TestNoToolForTheStoneIsAClearFailure: the same ore with only a shovel:
// the stone above it cannot be dug (bare hands would take 150 ticks a
// block and get nothing), so move_to fails at once and says why.
func TestNoToolForTheStoneIsAClearFailure(t *testing.T) {
	s, ore := buried(t, `{item: minecraft:wooden_shovel, max_durability: 64}`)
	r := exec(t, s, action.MoveTo{Pos: ore, Radius: 3})
	require.Equal(t, ipc.Unreachable, r.Code, r.Error)
	assert.Contains(t, r.Error, "minecraft:stone needs a pickaxe")
	assert.Equal(t, world.Pos(8, 64, 8), snap(t, s).Feet(), "nothing was dug")
	assert.Zero(t, snap(t, s).Inventory.CountID("minecraft:dirt"))
}

// TestHandDigsWhatAWrongToolDigsNoFaster: with only a pickaxe, dirt is dug
// by hand (the pickaxe is no faster on it) and the pickaxe does not wear.
func TestHandDigsWhatAWrongToolDigsNoFaster(t *testing.T) {
	s := inPit(t, "minecraft:dirt", `{item: minecraft:wooden_pickaxe, max_durability: 64}`)
	r := exec(t, s, action.MoveTo{Pos: world.Pos(3, 64, 8)})
	require.True(t, r.OK(), r.Error)
	assert.Positive(t, r.Details["dug"])
	w := snap(t, s)
	assert.Zero(t, w.Inventory.Slots[w.Inventory.Find(world.MustItem("minecraft:wooden_pickaxe"))].Damage)
}

// TestDiggingLeavesThePlayersThingsStanding: a digging route never breaks
// the block it goes to, a machine (a placed furnace), a chest, a crafting
// table or a blueprint's block (a coke oven brick block); the same stone
// beside them it digs.
func TestDiggingLeavesThePlayersThingsStanding(t *testing.T) {
	s := small(t, "  inventory: [{item: minecraft:wooden_pickaxe, max_durability: 64}, {item: minecraft:furnace, count: 1}]\nblocks:\n"+
		"  - {block: minecraft:chest, pos: [3, 64, 3]}\n  - {block: minecraft:crafting_table, pos: [4, 64, 3]}\n"+
		"  - {block: \"Railcraft:machine.alpha:7\", pos: [5, 64, 3]}\n  - {block: minecraft:stone, pos: [6, 64, 3]}\n")
	r := exec(t, s, action.PlaceBlock{Pos: world.Pos(9, 64, 8), Item: "minecraft:furnace", Face: "up"})
	require.True(t, r.OK(), r.Error)
	dest := world.Pos(6, 64, 3)
	s.state.Update(func(tx *world.Tx) {
		opt := s.digPlanner(tx).Options(path.Near(dest, 3), false, digroute.Blockers{})
		assert.Equal(t, float64(digroute.Weight), opt.Weight, "the simulator's digging searches are weighted")
		ticks := opt.DigTicks
		for _, p := range []world.BlockPos{{X: 3, Y: 64, Z: 3}, {X: 4, Y: 64, Z: 3}, {X: 5, Y: 64, Z: 3}, {X: 9, Y: 64, Z: 8}, dest} {
			assert.Negative(t, ticks(p.X, p.Y, p.Z), "%s at %v stays", tx.BlockAt(p).ID, p)
		}
		assert.Equal(t, rules.BreakTicks(1.5, 2, true), ticks(7, 59, 3), "stone with the wooden pickaxe (speed 2)")
		assert.Equal(t, rules.BreakTicks(0.5, 1, true), ticks(7, 62, 3), "dirt by hand: the pickaxe is no faster")
	})
}

// TestMoveToKeepsItsKeepList: out of a stone pit with a pickaxe, the way
// cut through the walls is the cheap one; told to keep the walls beside
// the pit's column (a site's ground, say), move_to pillars up with the
// cobblestone held instead and leaves them standing, and with nothing to
// pillar with it digs down and round under them.
func TestMoveToKeepsItsKeepList(t *testing.T) {
	var walls []world.BlockPos
	for y := 61; y <= 63; y++ {
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			walls = append(walls, world.Pos(8+d[0], y, 8+d[1]))
		}
	}
	const pick = `{item: minecraft:wooden_pickaxe, max_durability: 64}`
	s := inPit(t, "minecraft:stone", pick+`, {item: minecraft:cobblestone, count: 3}`)
	r := exec(t, s, action.MoveTo{Pos: world.Pos(3, 64, 8), Keep: walls})
	require.True(t, r.OK(), r.Error)
	w := snap(t, s)
	assert.Equal(t, world.Pos(3, 64, 8), w.Feet())
	for _, p := range walls {
		assert.Equal(t, "minecraft:stone", w.BlockAt(p).ID, "%v kept", p)
	}
	assert.Positive(t, r.Details["placed"], "pillared up")

	s = inPit(t, "minecraft:stone", pick)
	r = exec(t, s, action.MoveTo{Pos: world.Pos(3, 64, 8), Keep: walls})
	require.True(t, r.OK(), r.Error)
	w = snap(t, s)
	assert.NotEqual(t, world.Pos(8, 61, 8), w.Feet(), "out of the pit, down and round under the kept walls")
	for _, p := range walls {
		assert.Equal(t, "minecraft:stone", w.BlockAt(p).ID, "%v kept", p)
	}

	s = inPit(t, "minecraft:stone", pick)
	r = exec(t, s, action.MoveTo{Pos: world.Pos(3, 64, 8)})
	require.True(t, r.OK(), r.Error)
	assert.Positive(t, r.Details["dug"], "without the list, the staircase through the wall")
}
