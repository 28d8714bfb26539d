package chain

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// trunk is a column of n logs at (x, 64, z).
func trunk(b *world.SparseBlocks, x, z, n int) *world.SparseBlocks {
	for y := 0; y < n; y++ {
		b.SetID(world.Pos(x, 64+y, z), "minecraft:log", 0)
	}
	return b
}

// TestGatherersAskForWhatIsInRange: chop_tree is asked for the logs in its
// radius, not for the whole goal at once; the radius widens to reach the
// nearest tree; with no tree in the largest radius the planner says so.
func TestGatherersAskForWhatIsInRange(t *testing.T) {
	reg := shipped(t)
	tests := []struct {
		name   string
		blocks *world.SparseBlocks
		want   *loop.Invocation
		err    string
	}{
		{"the logs in range", trunk(world.NewSparseBlocks(), 5, 0, 10),
			&loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 10}}, ""},
		{"two trees in range", trunk(trunk(world.NewSparseBlocks(), 5, 0, 10), -4, 6, 7),
			&loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 17}}, ""},
		{"leaves are not logs", trunk(world.NewSparseBlocks(), 5, 0, 3).SetID(world.Pos(5, 67, 0), "minecraft:leaves", 0),
			&loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 3}}, ""},
		{"the radius widens to the nearest tree", trunk(world.NewSparseBlocks(), 30, 0, 5),
			&loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 1, "radius": 30}}, ""},
		{"just past the default radius", trunk(world.NewSparseBlocks(), 17, 0, 1),
			&loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 1, "radius": 17}}, ""},
		{"at the default radius", trunk(world.NewSparseBlocks(), 16, 0, 1),
			&loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 1}}, ""},
		{"at the largest radius: walked to first", trunk(world.NewSparseBlocks(), 64, 0, 1),
			&loop.Invocation{Skill: "walk_to", Params: map[string]any{"target": "minecraft:log", "near": 63, "leg": 200}}, ""},
		{"beyond the largest radius", trunk(world.NewSparseBlocks(), 65, 0, 1), nil,
			"stuck: no plan: cannot get 3000 minecraft:log: chop_tree: no block it gathers minecraft:log from (tagged tree) within 64 blocks, and no tree farm: 0 saplings planted within 64 blocks, 0 held; no leaves within 64 blocks for gather_saplings"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dec, err := plan(t, reg, "collect 3000 minecraft:log", snapshot("stone_age", tc.blocks))
			if tc.err != "" {
				require.ErrorIs(t, err, loop.ErrStuck)
				assert.Equal(t, tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, dec.Invocation)
		})
	}
	dec, err := plan(t, reg, "collect 4 minecraft:log", snapshot("stone_age", trunk(world.NewSparseBlocks(), 5, 0, 10)))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 4}}, dec.Invocation, "no more than the goal needs")
}

// TestCollectKeepsGoingInTheSimulator: "collect 3000 minecraft:log" in the
// default scenario fells every tree of the world, one successful step per
// patch of forest, instead of stalling after two steps with the trees
// around still standing; then it grows more (the tree farm: saplings
// gathered from the leaves, planted, waited for) and fells them too, until
// the step budget ends the run.
func TestCollectKeepsGoingInTheSimulator(t *testing.T) {
	reg := shipped(t)
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	start, err := s.Observe(context.Background())
	require.NoError(t, err)
	logs := len(start.NearestBlocks(200, 0, "log"))
	require.Greater(t, logs, 60, "the default forest")
	g, err := loop.ParseGoal("collect 3000 minecraft:log", reg.Tiers())
	require.NoError(t, err)
	var buf bytes.Buffer
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(s), Planner: Planner{}, Goal: g, Trace: &buf, MaxSteps: 100})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	assert.Equal(t, loop.MaxSteps, out.Reason, out.Why)
	assert.Greater(t, out.Steps, 2)
	st := out.Skills["chop_tree"]
	assert.Equal(t, st.Attempts, st.Successes, "every step promised what it could keep")
	for _, k := range []string{"gather_saplings", "plant_sapling", "wait_for"} {
		assert.Positive(t, out.Skills[k].Successes, "the tree farm: %s", k)
	}
	end, err := s.Observe(context.Background())
	require.NoError(t, err)
	assert.Greater(t, end.Inventory.CountID("minecraft:log"), logs, "the forest's logs, and those of trees grown from its saplings")
}

// TestMinePrefersOpenSources: a gravel pocket buried in stone 5 blocks
// away does not keep the bot from the open gravel 20 blocks off (the
// radius reaches the open one, which the mining skill takes first); with
// no open gravel in reach the buried pocket is mined.
func TestMinePrefersOpenSources(t *testing.T) {
	reg := shipped(t)
	pick := world.NewStack("minecraft:wooden_pickaxe", 0, 1)
	pick.MaxDamage = 59
	buried := func(b *world.SparseBlocks) *world.SparseBlocks {
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				for dz := -1; dz <= 1; dz++ {
					b.SetID(world.Pos(5+dx, 58+dy, dz), "minecraft:stone", 0)
				}
			}
		}
		return b.SetID(world.Pos(5, 58, 0), "minecraft:gravel", 0)
	}
	both := buried(world.NewSparseBlocks()).SetID(world.Pos(20, 63, 0), "minecraft:gravel", 0)
	dec, err := plan(t, reg, "have 1 minecraft:gravel", snapshot("stone_age", both, pick))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:gravel", "radius": 21}}, dec.Invocation, "20 east and one down")
	dec, err = plan(t, reg, "have 1 minecraft:gravel", snapshot("stone_age", buried(world.NewSparseBlocks()), pick))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:gravel"}}, dec.Invocation, "the pocket, within the default radius")

	// Pockets only: one 5 blocks off under 5 of stone (25 + 5 walks of
	// work), one 20 off under 1 (5 + 20): the radius reaches the shallow one.
	pockets := buried(world.NewSparseBlocks())
	for y := 59; y <= 63; y++ {
		pockets.SetID(world.Pos(5, y, 0), "minecraft:stone", 0)
	}
	pockets.SetID(world.Pos(20, 62, 0), "minecraft:gravel", 0).SetID(world.Pos(20, 63, 0), "minecraft:stone", 0)
	for _, d := range [][3]int{{1, 0, 0}, {-1, 0, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} {
		pockets.SetID(world.Pos(20+d[0], 62+d[1], d[2]), "minecraft:stone", 0)
	}
	dec, err = plan(t, reg, "have 1 minecraft:gravel", snapshot("stone_age", pockets, pick))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:gravel", "radius": 21}}, dec.Invocation, "the shallow pocket")
}

// TestDigToAPocketTakesAPickaxe: with no gravel open to the air, the
// pocket buried in stone is dug to with a pickaxe: without one the plan
// makes one first (a digging route breaks no stone by hand), and says so
// when it cannot; gravel under dirt only is dug to by hand.
func TestDigToAPocketTakesAPickaxe(t *testing.T) {
	reg := shipped(t)
	pocket := func(cover string) *world.SparseBlocks {
		b := world.NewSparseBlocks()
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				for dz := -1; dz <= 1; dz++ {
					b.SetID(world.Pos(5+dx, 58+dy, dz), "minecraft:stone", 0)
				}
			}
		}
		for y := 59; y <= 63; y++ {
			b.SetID(world.Pos(5, y, 0), cover, 0)
		}
		return b.SetID(world.Pos(5, 58, 0), "minecraft:gravel", 0)
	}
	makings := []world.ItemStack{world.NewStack("minecraft:planks", 0, 3), world.NewStack("minecraft:stick", 0, 2), world.NewStack("minecraft:crafting_table", 0, 1)}
	dec, err := plan(t, reg, "have 1 minecraft:gravel", snapshot("stone_age", pocket("minecraft:stone"), makings...))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:wooden_pickaxe", "count": 1}}, dec.Invocation, "the pickaxe first")

	_, err = plan(t, reg, "have 1 minecraft:gravel", snapshot("stone_age", pocket("minecraft:stone")))
	require.ErrorIs(t, err, loop.ErrStuck)
	assert.Contains(t, err.Error(), "digging down to the minecraft:gravel at (5, 58, 0) through minecraft:stone needs a tool:pickaxe")

	// Under dirt up to the air (an overhang of stone further up is not
	// dug through).
	dirt := pocket("minecraft:dirt").SetID(world.Pos(5, 66, 0), "minecraft:stone", 0)
	dec, err = plan(t, reg, "have 1 minecraft:gravel", snapshot("stone_age", dirt))
	require.NoError(t, err)
	assert.Equal(t, &loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:gravel"}}, dec.Invocation, "dirt is dug by hand")
}

// TestMineNotTheBlockUnderfoot: cobblestone is wanted and the bot stands on
// a cobblestone block, with stone four blocks off. The mining skill never
// takes the block under the player's feet, so the plan mines the stone,
// not the block it could not reach (Upgrade 2.0's 256 cobblestone: the
// bot on its own cobblestone floor planned "mine cobblestone" twice,
// the skill found none, and the quest was stuck).
func TestMineNotTheBlockUnderfoot(t *testing.T) {
	reg := shipped(t)
	b := world.NewSparseBlocks().SetID(world.Pos(0, 63, 0), "minecraft:cobblestone", 0).SetID(world.Pos(4, 63, 0), "minecraft:stone", 0)
	w := snapshot("stone_age", b, stack("minecraft:wooden_pickaxe", 1))
	dec, err := plan(t, reg, "collect 3 minecraft:cobblestone", w)
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.Equal(t, "mine_ore target=minecraft:stone", dec.Invocation.String())
}
