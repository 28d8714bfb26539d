package digroute_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/gtnh-agent/gtnh-agent/world/path"
	"github.com/gtnh-agent/gtnh-agent/world/path/digroute"
)

// pit is a world of ground at y 0..9 with a shaft dug at (0, 10..12, 0):
// the feet at its bottom stand three blocks under the ground's top, where
// walking starts at y 13.
type pit struct{}

func (pit) Cell(x, y, z int) path.Cell {
	switch {
	case y < 0:
		return path.Unknown
	case y <= 9:
		return path.Solid
	case y <= 12 && (x != 0 || z != 0):
		return path.Solid
	}
	return path.Passable
}

var stone = world.Block{ID: "minecraft:stone"}

// rock is stone's rule (config/mining.yaml); bedrock's cannot be broken.
var (
	rock    = rules.BlockRule{Hardness: 1.5, Tool: "pickaxe", NeedsTool: true}
	bedrock = rules.BlockRule{Hardness: -1}
)

// woodenPick harvests what needs no tool, and stone with a wooden pickaxe
// (speed 2); the hand's speed is 1.
var woodenPick = digroute.Tooling{
	Harvests: func(r rules.BlockRule, st world.ItemStack) bool {
		return !r.NeedsTool || st.ID == "minecraft:wooden_pickaxe"
	},
	Speed: func(_ int, st world.ItemStack, class string) float64 {
		if st.ID == "minecraft:wooden_pickaxe" && class == "pickaxe" {
			return 2
		}
		return 1
	},
}

// pitPlanner plans in the pit whose ground is of the rule given.
func pitPlanner(inv world.Inventory, ground rules.BlockRule) *digroute.Planner {
	return &digroute.Planner{
		Finder:    path.NewFinder(),
		Grid:      pit{},
		State:     func(world.BlockPos) chunk.StateID { return 1 },
		Block:     func(world.BlockPos) world.Block { return stone },
		Rule:      func(world.Block) rules.BlockRule { return ground },
		Tools:     woodenPick,
		Inventory: inv,
	}
}

// TestRouteOutOfAPit: with ground nothing breaks, the way out of the pit
// is a pillar of two blocks and a jump onto the rim; it is planned only
// when the inventory holds the two blocks, and a planner that has none
// says what it lacks.
func TestRouteOutOfAPit(t *testing.T) {
	goal := path.At(world.Pos(3, 13, 0))
	start := world.Pos(0, 10, 0)
	for _, tc := range []struct {
		dirt     int
		complete bool
		why      string
	}{
		{dirt: 2, complete: true},
		{dirt: 1, complete: false},
		{dirt: 0, complete: false, why: "no dirt or cobblestone to pillar or bridge with"},
	} {
		inv := world.NewInventory()
		if tc.dirt > 0 {
			inv = world.NewInventory(world.ItemStack{ID: "minecraft:dirt", Count: tc.dirt})
		}
		p := pitPlanner(inv, bedrock)
		res, why, err := p.Route(start, goal)
		require.NoError(t, err)
		assert.Equal(t, tc.complete, res.Complete, "%d dirt", tc.dirt)
		assert.False(t, p.ByHand, "nothing breaks the ground, not even the hand")
		if tc.complete {
			assert.Equal(t, 2, digroute.Placements(res))
		}
		if tc.why != "" {
			assert.Equal(t, "; "+tc.why, why)
		}
	}
}

// TestRouteOutOfAPitByHand: the pit's ground is stone and the wooden
// pickaxe is worn out. The search with what is held goes through the
// pit's three cells and stops (the bot is walled in), so the route breaks
// the stone by hand at its slow rate, a staircase up the wall, and says
// so. With two dirt to pillar with, or a pickaxe, no hand is needed.
func TestRouteOutOfAPitByHand(t *testing.T) {
	goal := path.At(world.Pos(3, 13, 0))
	start := world.Pos(0, 10, 0)
	p := pitPlanner(world.NewInventory(), rock)
	res, why, err := p.Route(start, goal)
	require.NoError(t, err)
	require.True(t, res.Complete, "%s after %d nodes%s", res.Reason, res.Expanded, why)
	assert.True(t, p.ByHand)
	breaks := 0
	for _, st := range res.Steps {
		breaks += len(st.Break)
	}
	assert.Positive(t, breaks, "a staircase cut by hand")
	hand := rules.BreakTicks(1.5, 1, false)
	assert.Equal(t, 150.0, hand, "stone by hand: 1.5 × 100 ticks")
	assert.GreaterOrEqual(t, res.Cost, float64(breaks)*hand, "each block at the hand's slow rate")
	again, _, err := p.Route(start, goal)
	require.NoError(t, err)
	assert.Equal(t, res.Steps, again.Steps, "the same route on a second planning")

	p = pitPlanner(world.NewInventory(world.ItemStack{ID: "minecraft:dirt", Count: 2}), rock)
	res, _, err = p.Route(start, goal)
	require.NoError(t, err)
	assert.True(t, res.Complete)
	assert.False(t, p.ByHand, "a pillar of dirt, no hand")

	p = pitPlanner(world.NewInventory(world.ItemStack{ID: "minecraft:wooden_pickaxe", Count: 1}), rock)
	res, _, err = p.Route(start, goal)
	require.NoError(t, err)
	assert.True(t, res.Complete)
	assert.False(t, p.ByHand, "the pickaxe digs the staircase")
}

// TestNoHandOnOpenGround: on open ground a target buried in stone with no
// pickaxe is no trap: the search runs out of nodes, not of cells, and the
// route does not tunnel by hand.
func TestNoHandOnOpenGround(t *testing.T) {
	p := &digroute.Planner{
		Finder: path.NewFinder(),
		Grid:   plain{},
		State:  func(world.BlockPos) chunk.StateID { return 1 },
		Block:  func(world.BlockPos) world.Block { return stone },
		Rule:   func(world.Block) rules.BlockRule { return rock },
		Tools:  woodenPick,
		Weight: digroute.Weight,
	}
	res, why, err := p.Route(world.Pos(0, 64, 0), path.Near(world.Pos(6, 48, 8), 3))
	require.NoError(t, err)
	assert.False(t, res.Complete)
	assert.Equal(t, path.NodeBudget, res.Reason)
	assert.False(t, p.ByHand)
	assert.Contains(t, why, "minecraft:stone needs a pickaxe")
}

// TestBreakTool: the best harvesting tool; the hand for a block nothing
// held harvests only on a route planned by hand; never for what cannot
// be broken.
func TestBreakTool(t *testing.T) {
	inv := world.NewInventory(world.ItemStack{ID: "minecraft:stick", Count: 1})
	_, ok := digroute.BreakTool(inv, rock, woodenPick, false)
	assert.False(t, ok)
	slot, ok := digroute.BreakTool(inv, rock, woodenPick, true)
	assert.True(t, ok)
	assert.Equal(t, -1, slot)
	_, ok = digroute.BreakTool(inv, bedrock, woodenPick, true)
	assert.False(t, ok)
	pick := world.NewInventory(world.ItemStack{ID: "minecraft:stick", Count: 1}, world.ItemStack{ID: "minecraft:wooden_pickaxe", Count: 1})
	slot, ok = digroute.BreakTool(pick, rock, woodenPick, true)
	assert.True(t, ok)
	assert.Equal(t, 1, slot, "the pickaxe, not the hand")
	ticks, ok := digroute.HandTicks(rock, woodenPick)
	assert.True(t, ok)
	assert.Equal(t, 150.0, ticks)
	_, ok = digroute.HandTicks(bedrock, woodenPick)
	assert.False(t, ok)
}

// TestKeepKind: containers, liquids, crafting tables, a blueprint's
// blocks and the Tinkers' stations stay standing; stone does not.
func TestKeepKind(t *testing.T) {
	set := rules.Default()
	for _, tc := range []struct {
		b    world.Block
		keep bool
	}{
		{world.Block{ID: "minecraft:chest", Tags: []string{"container"}}, true},
		{world.Block{ID: "minecraft:lava", Tags: []string{"liquid"}}, true},
		{world.Block{ID: "minecraft:crafting_table"}, true},
		{world.Block{ID: "Railcraft:machine.alpha", Meta: 7}, true},
		{world.Block{ID: "TConstruct:ToolStationBlock", Meta: 1}, true},
		{world.Block{ID: "TConstruct:ToolStationBlock", Meta: 0}, true},
		{stone, false},
	} {
		assert.Equal(t, tc.keep, digroute.KeepKind(set, tc.b), tc.b.ID)
	}
}

// TestBestTool: the fastest slot that harvests; none for a block that
// needs a tool nobody has, or one that cannot be broken.
func TestBestTool(t *testing.T) {
	tools := digroute.Tooling{
		Harvests: func(r rules.BlockRule, st world.ItemStack) bool {
			return !r.NeedsTool || st.ID == "minecraft:wooden_pickaxe"
		},
		Speed: func(_ int, st world.ItemStack, class string) float64 {
			if st.ID == "minecraft:wooden_pickaxe" && class == "pickaxe" {
				return 2
			}
			return 1
		},
	}
	inv := world.NewInventory(world.ItemStack{ID: "minecraft:stick", Count: 1}, world.ItemStack{ID: "minecraft:wooden_pickaxe", Count: 1})
	rock := rules.BlockRule{Hardness: 1.5, Tool: "pickaxe", NeedsTool: true}
	slot, ticks, ok := digroute.BestTool(inv, rock, tools)
	require.True(t, ok)
	assert.Equal(t, 1, slot)
	assert.Equal(t, rules.BreakTicks(1.5, 2, true), ticks)
	slot, _, ok = digroute.BestTool(inv, rules.BlockRule{Hardness: 0.5, Tool: "shovel"}, tools)
	assert.True(t, ok)
	assert.Equal(t, -1, slot, "the hand is as fast as anything here")
	_, _, ok = digroute.BestTool(world.NewInventory(), rock, tools)
	assert.False(t, ok)
	_, _, ok = digroute.BestTool(inv, rules.BlockRule{Hardness: -1}, tools)
	assert.False(t, ok)
}

// roofed is ground at y 0..12 with a hole at (0, 10..11, 0) under a roof
// of dirt at (0, 12, 0) that carries a block at (0, 13, 0) (gravel, say).
type roofed struct{ top, under world.Block }

func (r roofed) Block(p world.BlockPos) world.Block {
	switch {
	case p.Y < 0:
		return world.Block{}
	case p.X == 0 && p.Z == 0 && p.Y == 13:
		return r.top
	case p.X == 0 && p.Z == 0 && p.Y == 12:
		return world.Block{ID: "minecraft:dirt"}
	case p.X == 0 && p.Z == 0 && p.Y == 11:
		return r.under
	case p.X == 0 && p.Z == 0 && p.Y == 10:
		return world.Block{ID: "minecraft:air"}
	case p.Y <= 12:
		return stone
	}
	return world.Block{ID: "minecraft:air"}
}

func (r roofed) Cell(x, y, z int) path.Cell {
	if y < 0 {
		return path.Unknown
	}
	return path.ClassifyByTags(r.Block(world.Pos(x, y, z)))
}

// TestRouteLeavesTheGravelsRoof: breaking the roof over the head would let
// the gravel on it fall through the head room onto the feet (a falling
// block passes through the player), so the way out of the hole never
// breaks it and digs through the wall; a roof over a torch, which holds
// the gravel up, may go, and so may a roof with stone on it.
func TestRouteLeavesTheGravelsRoof(t *testing.T) {
	roof := world.Pos(0, 12, 0)
	gravel, air := world.Block{ID: "minecraft:gravel"}, world.Block{ID: "minecraft:air"}
	for _, tc := range []struct {
		top, under world.Block
		keep       bool
	}{
		{gravel, air, true},
		{gravel, world.Block{ID: "minecraft:torch", Tags: []string{"no_collision"}}, false},
		{stone, air, false},
	} {
		w := roofed{top: tc.top, under: tc.under}
		p := &digroute.Planner{
			Finder: path.NewFinder(), Grid: w,
			State: func(q world.BlockPos) chunk.StateID { return chunk.StateID(len(w.Block(q).ID)) },
			Block: w.Block,
			Rule: func(world.Block) rules.BlockRule {
				return rules.BlockRule{Hardness: 0.5, Tool: "shovel"}
			},
			Tools: digroute.Tooling{
				Harvests: func(rules.BlockRule, world.ItemStack) bool { return true },
				Speed:    func(int, world.ItemStack, string) float64 { return 1 },
			},
			Inventory: world.NewInventory(),
		}
		opt := p.Options(path.At(world.Pos(9, 99, 9)), false, digroute.Blockers{})
		broken := opt.DigTicks(roof.X, roof.Y, roof.Z) < 0
		assert.Equal(t, tc.keep, broken, "the roof under %s over %s", tc.top.ID, tc.under.ID)
		if !tc.keep {
			continue
		}
		res, _, err := p.Route(world.Pos(0, 10, 0), path.At(world.Pos(4, 13, 0)))
		require.NoError(t, err)
		require.True(t, res.Complete)
		for _, st := range res.Steps {
			assert.NotContains(t, st.Break, roof, "the roof under the gravel")
		}
	}
}

// plain is open ground without end: stone up to y 63, air above, so a walk
// across the top costs nothing to dig and a way down is all stone.
type plain struct{}

func (plain) Cell(_, y, _ int) path.Cell {
	if y <= 63 {
		return path.Solid
	}
	return path.Passable
}

// TestRouteDownToABuriedPocket: a gravel pocket 16 blocks under open
// ground, 6 and 8 blocks across, dug to with a wooden pickaxe (stone 23
// ticks a block). The heuristic prices each block as walked, a fifth of
// a dug one, so plain A* fills the open ground within the route's cost
// before it digs and runs out of MaxNodes (seed 0's quest run failed so
// 12 times on one pocket); the weighted search reaches it well inside the
// budget, at most Weight times the cheapest route's cost.
func TestRouteDownToABuriedPocket(t *testing.T) {
	p := &digroute.Planner{
		Finder: path.NewFinder(),
		Grid:   plain{},
		State:  func(world.BlockPos) chunk.StateID { return 1 },
		Block:  func(world.BlockPos) world.Block { return stone },
		Rule: func(world.Block) rules.BlockRule {
			return rules.BlockRule{Hardness: 1.5, Tool: "pickaxe", NeedsTool: true}
		},
		Tools: digroute.Tooling{
			Harvests: func(r rules.BlockRule, st world.ItemStack) bool {
				return !r.NeedsTool || st.ID == "minecraft:wooden_pickaxe"
			},
			Speed: func(_ int, st world.ItemStack, class string) float64 {
				if st.ID == "minecraft:wooden_pickaxe" && class == "pickaxe" {
					return 2
				}
				return 1
			},
		},
		Inventory: world.NewInventory(world.ItemStack{ID: "minecraft:wooden_pickaxe", Count: 1}),
		Weight:    digroute.Weight,
	}
	start, pocket := world.Pos(0, 64, 0), world.Pos(6, 48, 8)
	goal := path.Near(pocket, 3)

	res, why, err := p.Route(start, goal)
	require.NoError(t, err)
	require.True(t, res.Complete, "no route down to the pocket: %s after %d nodes%s", res.Reason, res.Expanded, why)
	assert.Less(t, res.Expanded, digroute.MaxNodes/2)

	// The same search unweighted: out of nodes before it digs.
	opt := p.Options(goal, false, digroute.Blockers{})
	require.Equal(t, float64(digroute.Weight), opt.Weight)
	opt.Weight = 1
	plainRes, err := p.Finder.Find(p.Grid, start, goal, opt)
	require.NoError(t, err)
	assert.False(t, plainRes.Complete)
	assert.Equal(t, path.NodeBudget, plainRes.Reason)

	// And with all the nodes it wants, its cheapest route bounds ours.
	opt.MaxNodes = 1_000_000
	best, err := p.Finder.Find(p.Grid, start, goal, opt)
	require.NoError(t, err)
	require.True(t, best.Complete)
	assert.LessOrEqual(t, res.Cost, digroute.Weight*best.Cost+1e-6)
	t.Logf("weighted: %d nodes, %.1f ticks; plain A*: %d nodes, %.1f ticks", res.Expanded, res.Cost, best.Expanded, best.Cost)
	assert.Greater(t, res.Cost, 16*rules.BreakTicks(1.5, 2, true), "the route digs through the stone")
}

// leafy is open ground (stone to y 63) with leaves at (3, 64..65, 0):
// where a tree's leaves come down to the ground beside its trunk.
type leafy struct{}

func (leafy) Block(p world.BlockPos) world.Block {
	switch {
	case p.Y <= 63:
		return stone
	case p.X == 3 && p.Z == 0 && p.Y <= 65:
		return world.Block{ID: "minecraft:leaves", Tags: []string{"leaves"}}
	}
	return world.Block{ID: "minecraft:air"}
}

func (l leafy) Cell(x, y, z int) path.Cell {
	if b := l.Block(world.Pos(x, y, z)); !b.IsAir() {
		return path.Solid
	}
	return path.Passable
}

// TestRouteClearsTheFeetsGoal: a goal the feet go to (no radius) inside
// leaves is reached by breaking them; a goal with a radius (a block to
// come near, such as the gravel to mine) is left standing.
func TestRouteClearsTheFeetsGoal(t *testing.T) {
	w := leafy{}
	p := &digroute.Planner{
		Finder: path.NewFinder(), Grid: w,
		State: func(q world.BlockPos) chunk.StateID { return chunk.StateID(len(w.Block(q).ID)) },
		Block: w.Block,
		Rule: func(b world.Block) rules.BlockRule {
			if b.HasTag("leaves") {
				return rules.BlockRule{Hardness: 0.2, Tool: "axe"}
			}
			return rules.BlockRule{Hardness: 1.5, Tool: "pickaxe", NeedsTool: true}
		},
		Tools: digroute.Tooling{
			Harvests: func(r rules.BlockRule, _ world.ItemStack) bool { return !r.NeedsTool },
			Speed:    func(int, world.ItemStack, string) float64 { return 1 },
		},
		Inventory: world.NewInventory(),
	}
	spot := world.Pos(3, 64, 0)
	res, why, err := p.Route(world.Pos(0, 64, 0), path.At(spot))
	require.NoError(t, err)
	require.True(t, res.Complete, "%s%s", res.Reason, why)
	assert.Equal(t, spot, res.Steps[len(res.Steps)-1].Pos)
	var broken []world.BlockPos
	for _, st := range res.Steps {
		broken = append(broken, st.Break...)
	}
	assert.ElementsMatch(t, []world.BlockPos{spot, spot.Up()}, broken)

	near := p.Options(path.Near(spot, 3), false, digroute.Blockers{})
	assert.Negative(t, near.DigTicks(spot.X, spot.Y, spot.Z), "the block come near to stays")
	assert.Positive(t, near.DigTicks(spot.X, spot.Y+1, spot.Z))
}
