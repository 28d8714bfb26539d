package chain

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/loop"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func shipped(t *testing.T) *registry.Registry {
	t.Helper()
	reg, err := registry.LoadConfig(config.FS, registry.Options{})
	require.NoError(t, err)
	require.NoError(t, reg.RegisterProvided())
	require.NoError(t, reg.Finalize())
	return reg
}

// forest is a world with one tall trunk of n logs five blocks away.
func forest(n int) *world.SparseBlocks {
	b := world.NewSparseBlocks()
	for y := 0; y < n; y++ {
		b.SetID(world.Pos(5, 64+y, 0), "minecraft:log", 0)
	}
	return b
}

// snapshot builds a world at a tier; nil blocks is a forest of 20 logs.
func snapshot(tier string, blocks *world.SparseBlocks, stacks ...world.ItemStack) *world.Snapshot {
	if blocks == nil {
		blocks = forest(20)
	}
	return &world.Snapshot{
		Player:    world.Player{Name: "Bot", Pos: world.Vec3{X: 0.5, Y: 64, Z: 0.5}, Dimension: world.Overworld, Health: 20, Food: 20},
		Inventory: world.NewInventory(stacks...),
		Blocks:    blocks,
		TechState: tier,
	}
}

func plan(t *testing.T, reg *registry.Registry, goalText string, w *world.Snapshot, blocked ...loop.Invocation) (loop.Decision, error) {
	t.Helper()
	goal, err := loop.ParseGoal(goalText, reg.Tiers())
	require.NoError(t, err)
	catalog, err := reg.DescribeForTechState(w.TechState, reg.Packs().Names())
	require.NoError(t, err)
	obs := loop.Observation{Snapshot: w, Progress: goal.Check(w, reg.Tiers(), false), Blocked: blocked}
	return Planner{}.Plan(context.Background(), goal, obs, catalog)
}

// planStoring is plan without the skill that throws items away: the
// planner then puts everything it does not keep into a chest.
func planStoring(t *testing.T, reg *registry.Registry, goalText string, w *world.Snapshot, blocked ...loop.Invocation) (loop.Decision, error) {
	t.Helper()
	goal, err := loop.ParseGoal(goalText, reg.Tiers())
	require.NoError(t, err)
	catalog, err := reg.DescribeForTechState(w.TechState, reg.Packs().Names())
	require.NoError(t, err)
	catalog = slices.DeleteFunc(slices.Clone(catalog), func(d *registry.Description) bool { return d.Name == dropSkill })
	obs := loop.Observation{Snapshot: w, Progress: goal.Check(w, reg.Tiers(), false), Blocked: blocked}
	return Planner{}.Plan(context.Background(), goal, obs, catalog)
}

func stack(id string, n int) world.ItemStack { return world.NewStack(id, 0, n) }

// gravel is a gravel block dx blocks east (dz south) of the player, on the
// ground.
func gravel(dx, dz int) *world.SparseBlocks {
	return world.NewSparseBlocks().SetID(world.Pos(dx, 63, dz), "minecraft:gravel", 0)
}

// clay and stone are a block of each n blocks east of the player.
func clay(n int) *world.SparseBlocks {
	return world.NewSparseBlocks().SetID(world.Pos(n, 63, 0), "minecraft:clay", 0)
}

func stone(n int) *world.SparseBlocks {
	return world.NewSparseBlocks().SetID(world.Pos(n, 63, 0), "minecraft:stone", 0)
}

func TestGoalPlannerChains(t *testing.T) {
	reg := shipped(t)
	table := world.NewSparseBlocks().SetID(world.Pos(2, 64, 2), "minecraft:crafting_table", 0)
	tests := []struct {
		name string
		goal string
		w    *world.Snapshot
		want *loop.Invocation
		done bool
		err  string
	}{
		{"logs come from chop_tree", "collect 16 minecraft:log", snapshot("stone_age", nil),
			&loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 16}}, false, ""},
		{"only the missing logs", "collect 16 minecraft:log", snapshot("stone_age", nil, stack("minecraft:log", 10)),
			&loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 6}}, false, ""},
		{"ore dictionary goals", "have 3 ore:logWood", snapshot("stone_age", nil),
			&loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 3}}, false, ""},
		{"planks need logs first (GTNH: 2 planks per log)", "have 4 minecraft:planks", snapshot("stone_age", nil),
			&loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 2}}, false, ""},
		{"then planks are crafted", "have 4 minecraft:planks", snapshot("stone_age", nil, stack("minecraft:log", 2)),
			&loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:planks", "count": 4}}, false, ""},
		{"sticks need planks need logs", "have 4 minecraft:stick", snapshot("stone_age", nil),
			&loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 2}}, false, ""},
		{"sticks from planks", "have 4 minecraft:stick", snapshot("stone_age", nil, stack("minecraft:planks", 4)),
			&loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:stick", "count": 4}}, false, ""},
		{"a chest needs a crafting table", "have 1 minecraft:chest", snapshot("stone_age", nil, stack("minecraft:planks", 8), stack("minecraft:flint", 3), stack("minecraft:log", 6)),
			&loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:crafting_table", "count": 1}}, false, ""},
		{"a chest at a table in reach (GTNH: 4 logs, 4 planks, a flint)", "have 1 minecraft:chest", snapshot("stone_age", table, stack("minecraft:planks", 4), stack("minecraft:log", 4), stack("minecraft:flint", 1)),
			&loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:chest", "count": 1}}, false, ""},
		{"GTNH flint is crafted from 3 gravel", "have 1 minecraft:chest", snapshot("stone_age", table, stack("minecraft:planks", 8), stack("minecraft:log", 4), stack("minecraft:gravel", 3)),
			&loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:flint", "count": 1}}, false, ""},
		{"gravel is mined for flint", "have 2 minecraft:flint", snapshot("stone_age", gravel(3, 0), stack("minecraft:gravel", 5)),
			&loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:gravel"}}, false, ""},
		{"gravel past the default radius is asked for", "have 1 minecraft:gravel", snapshot("stone_age", gravel(30, 0)),
			&loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:gravel", "radius": 31}}, false, ""}, // 30 east and one down: 30.02 blocks
		{"no gravel in reach, no flint", "have 1 minecraft:chest", snapshot("stone_age", table, stack("minecraft:planks", 8), stack("minecraft:log", 4)),
			nil, false, "cannot get 1 minecraft:flint: basic_crafting: no available skill produces minecraft:gravel"},
		{"clay balls from clay blocks", "have 8 minecraft:clay_ball", snapshot("stone_age", clay(4)),
			&loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:clay"}}, false, ""},
		{"cobblestone is mined with a pickaxe", "have 1 minecraft:cobblestone", snapshot("stone_age", stone(3), pickaxe(59)),
			&loop.Invocation{Skill: "mine_ore", Params: map[string]any{"target": "minecraft:stone"}}, false, ""},
		{"cobblestone needs a pickaxe first", "have 1 minecraft:cobblestone", snapshot("stone_age", stone(3).SetID(world.Pos(2, 64, 2), "minecraft:crafting_table", 0), stack("minecraft:planks", 3), stack("minecraft:stick", 2)),
			&loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:wooden_pickaxe", "count": 1}}, false, ""},
		{"ore:cobblestone comes from stone", "have 1 minecraft:furnace", snapshot("stone_age", stone(3).SetID(world.Pos(2, 64, 2), "minecraft:crafting_table", 0), pickaxe(59), stack("minecraft:flint", 3)),
			&loop.Invocation{Skill: "mine_ore", Params: map[string]any{"target": "minecraft:stone"}}, false, ""},
		{"stone is smelted from cobblestone with planks", "have 3 minecraft:stone", snapshot("stone_age", nil, stack("minecraft:cobblestone", 3), stack("minecraft:planks", 2), stack("minecraft:furnace", 1)),
			&loop.Invocation{Skill: "smelt", Params: map[string]any{"item": "minecraft:stone", "count": 3}}, false, ""},
		{"a furnace comes first", "have 3 minecraft:stone", snapshot("stone_age", table, stack("minecraft:cobblestone", 9), stack("minecraft:flint", 3)),
			&loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:furnace", "count": 1}}, false, ""},
		{"then fuel: planks for 600 ticks", "have 3 minecraft:stone", snapshot("stone_age", nil, stack("minecraft:cobblestone", 3), stack("minecraft:planks", 1), stack("minecraft:log", 1), stack("minecraft:furnace", 1)),
			&loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:planks", "count": 1}}, false, ""},
		{"a coal is fuel enough", "have 3 minecraft:stone", snapshot("stone_age", nil, stack("minecraft:cobblestone", 3), stack("minecraft:coal", 1), stack("minecraft:furnace", 1)),
			&loop.Invocation{Skill: "smelt", Params: map[string]any{"item": "minecraft:stone", "count": 3}}, false, ""},
		{"GTNH: no charcoal from the furnace, only from a coke oven", "have 1 minecraft:coal:1", snapshot("stone_age", nil, stack("minecraft:log", 8), stack("minecraft:furnace", 1)),
			nil, false, "cannot get 1 minecraft:coal:1: build coke_oven: "},
		{"the flint mortar wants ore:stone, smelted from cobblestone", "have 1 gregtech:gt.metatool.01:24", snapshot("stone_age", table, stack("minecraft:flint", 2), stack("minecraft:cobblestone", 5), stack("minecraft:planks", 4), stack("minecraft:furnace", 1)),
			&loop.Invocation{Skill: "smelt", Params: map[string]any{"item": "minecraft:stone", "count": 4}}, false, ""},
		{"a long batch is smelted a few items a step", "have 64 minecraft:stone", snapshot("stone_age", nil, stack("minecraft:cobblestone", 64), stack("minecraft:planks", 64), stack("minecraft:furnace", 1)),
			&loop.Invocation{Skill: "smelt", Params: map[string]any{"item": "minecraft:stone", "count": 4}}, false, ""},
		{"a recipe's missing tool is made first (the knife for the brick form)", "have 1 dreamcraft:item.WoodenBrickForm", snapshot("stone_age", nil, stack("minecraft:flint", 1), stack("minecraft:stick", 1), stack("TConstruct:blankPattern", 1)),
			&loop.Invocation{Skill: "basic_crafting", Params: map[string]any{"item": "gregtech:gt.metatool.01:34", "count": 1}}, false, ""},
		{"iron ore wants more than a wooden pickaxe", "have 1 minecraft:iron_ore", snapshot("stone_age", world.NewSparseBlocks().SetID(world.Pos(3, 63, 0), "minecraft:iron_ore", 0), pickaxe(59)),
			nil, false, "minecraft:iron_ore drops nothing without a pickaxe of harvest level 2 or more, and the best in the inventory is level 0"},
		{"goal met", "have 2 minecraft:log", snapshot("stone_age", nil, stack("minecraft:log", 2)), nil, true, ""},
		{"template skills by name", "run mine_block target=minecraft:gravel", snapshot("stone_age", nil),
			&loop.Invocation{Skill: "mine_block", Params: map[string]any{"target": "minecraft:gravel"}}, false, ""},
		{"gated skills are unavailable", "run fill_bucket", snapshot("stone_age", nil), nil, false, "not available at tier stone_age"},
		{"water buckets from fill_bucket", "have 1 minecraft:water_bucket", snapshot("steam_age", nil, stack("minecraft:bucket", 1)),
			&loop.Invocation{Skill: "fill_bucket"}, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dec, err := plan(t, reg, tc.goal, tc.w)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.done, dec.Done)
			assert.Equal(t, tc.want, dec.Invocation)
		})
	}
}

func TestGoalPlannerSkipsBlocked(t *testing.T) {
	reg := shipped(t)
	blocked := loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 4}}
	// A tree is felled whole by chop_tree, never mined a log at a time by
	// mine_block (which would leave the logs above floating).
	_, err := plan(t, reg, "collect 4 minecraft:log", snapshot("stone_age", nil), blocked)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "blocked")
	assert.ErrorIs(t, err, loop.ErrStuck, "the same world gives the same answer: the run is stuck")
}

func TestGoalPlannerNoPlanIsStuck(t *testing.T) {
	reg := shipped(t)
	_, err := plan(t, reg, "have 3 minecraft:diamond", snapshot("stone_age", nil))
	require.ErrorIs(t, err, loop.ErrStuck)
	assert.Contains(t, err.Error(), "no available skill produces minecraft:diamond")
	_, err = plan(t, reg, "run fill_bucket", snapshot("stone_age", nil))
	require.ErrorIs(t, err, loop.ErrStuck)
	assert.Contains(t, err.Error(), "not available at tier stone_age")
}

func TestGoalPlannerPrefersBetterMetrics(t *testing.T) {
	s := &search{}
	a := &registry.Description{Name: "a"}
	b := &registry.Description{Name: "b"}
	good, bad := 0.9, 0.2
	a.Metrics.SuccessRate = &bad
	b.Metrics.SuccessRate = &good
	got := s.ranked([]*registry.Description{a, b})
	assert.Equal(t, "b", got[0].Name)
	cheap, dear := 10.0, 50.0
	a.Metrics.SuccessRate, b.Metrics.SuccessRate = &good, &good
	a.Metrics.AvgCost, b.Metrics.AvgCost = &dear, &cheap
	assert.Equal(t, "b", s.ranked([]*registry.Description{a, b})[0].Name, "equal rates: the cheaper first")
}
