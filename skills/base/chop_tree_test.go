package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// trunk adds a column of oak logs from y0 to y1 at (x, z) and a few leaves
// around its top.
func trunk(b *world.SparseBlocks, x, y0, y1, z int) *world.SparseBlocks {
	for y := y0; y <= y1; y++ {
		b.SetID(world.Pos(x, y, z), "minecraft:log", 0)
	}
	for _, o := range horizontal[:4] {
		b.SetID(world.Pos(x+o[0], y1, z+o[1]), "minecraft:leaves", 0)
	}
	b.SetID(world.Pos(x, y1+1, z), "minecraft:leaves", 0)
	return b
}

// forest is grass at y=63 from -12..12 with the given trunks (x, height, z)
// standing on it.
func forest(trees ...[3]int) *world.SparseBlocks {
	b := ground(world.NewSparseBlocks(), 63, -12, -12, 12, 12)
	for _, t := range trees {
		trunk(b, t[0], 64, 63+t[1], t[2])
	}
	return b
}

func breaks(acts []action.Action) []world.BlockPos {
	var out []world.BlockPos
	for _, a := range acts {
		if b, ok := a.(action.BreakBlock); ok {
			out = append(out, b.Pos)
		}
	}
	return out
}

// requireReachable replays the plan: every break must be within reach of the
// standing spot of the last exact move_to, and no block is broken twice.
func requireReachable(t *testing.T, acts []action.Action) {
	t.Helper()
	var stand *world.BlockPos
	seen := map[world.BlockPos]bool{}
	for i, a := range acts {
		switch a := a.(type) {
		case action.MoveTo:
			require.Zero(t, a.Radius, "action %d: chop_tree moves to exact standing spots", i)
			stand = ptr(a.Pos)
		case action.BreakBlock:
			require.NotNil(t, stand, "action %d: break before any move", i)
			require.True(t, canReach(*stand, a.Pos), "action %d: %s out of reach from %s", i, a.Pos, *stand)
			require.False(t, seen[a.Pos], "action %d: %s broken twice", i, a.Pos)
			seen[a.Pos] = true
		}
	}
}

func TestChopTree(t *testing.T) {
	short := forest([3]int{5, 5, 0})
	tall := forest([3]int{5, 8, 0})
	logs := func(x, y0, y1, z int) []action.Action {
		var out []action.Action
		for y := y0; y <= y1; y++ {
			out = append(out, action.BreakBlock{Pos: world.Pos(x, y, z)})
		}
		return out
	}
	cat := func(parts ...[]action.Action) []action.Action {
		var out []action.Action
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}

	tests := []struct {
		name string
		w    *world.Snapshot
		raw  map[string]any
		want []action.Action
	}{
		{
			name: "by hand: stand beside the trunk facing the player and break it bottom-up",
			w:    snap(at(0, 64, 0), short, world.Inventory{}),
			want: cat([]action.Action{action.MoveTo{Pos: world.Pos(4, 64, 0)}}, logs(5, 64, 68, 0)),
		},
		{
			name: "equips the best axe first",
			w: snap(at(0, 64, 0), short, world.NewInventory(
				stack("minecraft:dirt", 0, 10),
				world.NewTool("minecraft:stone_axe", 0, 100, 131),
				world.NewTool("minecraft:iron_axe", 0, 200, 250),
			)),
			want: cat([]action.Action{action.Equip{Item: "minecraft:iron_axe"}, action.MoveTo{Pos: world.Pos(4, 64, 0)}}, logs(5, 64, 68, 0)),
		},
		{
			name: "a GregTech axe is named with its metadata",
			w: snap(at(0, 64, 0), short, world.NewInventory(
				stack("minecraft:dirt", 0, 10),
				world.NewTool("gregtech:gt.metatool.01", 6, 500, 800),
			)),
			raw:  map[string]any{"require_axe": true},
			want: cat([]action.Action{action.Equip{Item: "gregtech:gt.metatool.01:6"}, action.MoveTo{Pos: world.Pos(4, 64, 0)}}, logs(5, 64, 68, 0)),
		},
		{
			name: "an axe already in hand is not equipped again",
			w:    snap(at(0, 64, 0), short, world.NewInventory(world.NewTool("minecraft:stone_axe", 0, 100, 131))),
			want: cat([]action.Action{action.MoveTo{Pos: world.Pos(4, 64, 0)}}, logs(5, 64, 68, 0)),
		},
		{
			name: "a tall trunk needs a second standing spot under the top logs",
			w:    snap(at(0, 64, 0), tall, world.Inventory{}),
			want: cat(
				[]action.Action{action.MoveTo{Pos: world.Pos(4, 64, 0)}}, logs(5, 64, 69, 0),
				[]action.Action{action.MoveTo{Pos: world.Pos(5, 66, 0)}}, logs(5, 70, 71, 0),
			),
		},
		{
			name: "a trunk whose bottom logs are gone is approached from the ground below",
			w: snap(at(0, 64, 0), func() *world.SparseBlocks {
				b := forest([3]int{5, 5, 0})
				b.SetID(world.Pos(5, 64, 0), "minecraft:air", 0)
				return b
			}(), world.Inventory{}),
			want: cat([]action.Action{action.MoveTo{Pos: world.Pos(4, 64, 0)}}, logs(5, 65, 68, 0)),
		},
		{
			name: "a half-felled trunk whose base is among the leaves is felled from the ground",
			w: snap(at(0, 64, 0), func() *world.SparseBlocks {
				b := forest([3]int{5, 5, 0})
				for y := 64; y <= 66; y++ {
					b.SetID(world.Pos(5, y, 0), "minecraft:air", 0)
				}
				b.SetID(world.Pos(4, 66, 0), "minecraft:leaves", 0)
				return b
			}(), world.Inventory{}),
			want: cat([]action.Action{action.MoveTo{Pos: world.Pos(4, 64, 0)}}, logs(5, 67, 68, 0)),
		},
		{
			name: "approaches from the player's side",
			w:    snap(at(5, 64, 9), short, world.Inventory{}),
			want: cat([]action.Action{action.MoveTo{Pos: world.Pos(5, 64, 1)}}, logs(5, 64, 68, 0)),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			acts := checkActions(t, ChopTree{}, tc.w, tc.raw)
			require.Equal(t, tc.want, acts)
			requireReachable(t, acts)
		})
	}
}

func TestChopTreeWholeTree(t *testing.T) {
	// A trunk with a diagonal branch and a long low limb, and a second tree
	// nearby that must be left alone while min_logs is met.
	b := forest([3]int{5, 6, 0}, [3]int{-4, 4, 0})
	b.SetID(world.Pos(6, 68, 1), "minecraft:log", 0) // diagonal from (5,67,0)
	b.SetID(world.Pos(7, 69, 2), "minecraft:log", 0) // diagonal again
	for x := 6; x <= 10; x++ {
		b.SetID(world.Pos(x, 65, 0), "minecraft:log", 0) // a low limb reaching out
	}
	w := snap(at(1, 64, 0), b, world.Inventory{})
	acts := checkActions(t, ChopTree{}, w, nil)
	requireReachable(t, acts)

	got := breaks(acts)
	assert.Len(t, got, 6+2+5)
	assert.Contains(t, got, world.Pos(7, 69, 2))
	assert.Contains(t, got, world.Pos(10, 65, 0))
	for _, p := range got {
		assert.NotEqual(t, -4, p.X, "the second tree is not needed for min_logs 4")
	}
	for i := 1; i < len(got); i++ {
		assert.False(t, got[i].Less(got[i-1]), "logs are broken bottom-up: %s after %s", got[i], got[i-1])
	}
	// A tree this small is felled from the ground: every standing spot is on
	// the grass, never up in the air.
	for _, a := range acts {
		if m, ok := a.(action.MoveTo); ok {
			assert.True(t, w.BlockAt(m.Pos.Down()).HasTag("grass"), "standing spot %s is not on the ground", m.Pos)
		}
	}
}

func TestChopTreeMinLogs(t *testing.T) {
	// Three 3-log trees at increasing distance.
	b := forest([3]int{3, 3, 0}, [3]int{-6, 3, 0}, [3]int{0, 3, 10})
	w := snap(at(0, 64, 0), b, world.Inventory{})

	got := breaks(checkActions(t, ChopTree{}, w, map[string]any{"min_logs": 2}))
	assert.Len(t, got, 3, "the nearest tree covers min_logs 2")

	acts := checkActions(t, ChopTree{}, w, map[string]any{"min_logs": 4})
	got = breaks(acts)
	assert.Len(t, got, 6, "a second tree is needed for min_logs 4")
	assert.Equal(t, world.Pos(3, 64, 0), got[0], "nearest tree first")
	assert.Equal(t, world.Pos(-6, 64, 0), got[3])
	requireReachable(t, acts)

	// Fewer logs in range than min_logs: chop what there is.
	got = breaks(checkActions(t, ChopTree{}, w, map[string]any{"min_logs": 100, "radius": 8}))
	assert.Len(t, got, 6, "the tree at z=10 is out of radius 8")
}

func TestChopTreeFailures(t *testing.T) {
	tree := forest([3]int{5, 5, 0})
	tests := []struct {
		name string
		w    *world.Snapshot
		raw  map[string]any
		code skills.Code
	}{
		{"no tree at all", snap(at(0, 64, 0), ground(world.NewSparseBlocks(), 63, -5, -5, 5, 5), world.Inventory{}), nil, skills.CodeNoTarget},
		{"tree out of radius", snap(at(0, 64, 0), tree, world.Inventory{}), map[string]any{"radius": 3}, skills.CodeNoTarget},
		{"require_axe without an axe", snap(at(0, 64, 0), tree, world.NewInventory(stack("minecraft:stick", 0, 4))), map[string]any{"require_axe": true}, skills.CodeMissingTool},
		{"require_axe with a broken axe", snap(at(0, 64, 0), tree, world.NewInventory(world.NewTool("minecraft:stone_axe", 0, 0, 131))), map[string]any{"require_axe": true}, skills.CodeMissingTool},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			acts, err := run(t, ChopTree{}, tc.w, tc.raw)
			requireFailure(t, err, tc.code)
			assert.Nil(t, acts)
		})
	}
}

func TestChopTreeBoundsTheFloodFill(t *testing.T) {
	// A wall of logs far bigger than any tree: the fill stops at 256.
	b := world.NewSparseBlocks()
	for x := 0; x < 20; x++ {
		for y := 64; y < 84; y++ {
			b.SetID(world.Pos(x, y, 3), "minecraft:log", 0)
		}
	}
	w := snap(at(0, 64, 0), b, world.Inventory{})
	acts := checkActions(t, ChopTree{}, w, map[string]any{"radius": 64})
	assert.Len(t, breaks(acts), treeMaxLogs)
}

// TestChopTreeFromTheGroundBelowAStep: a tree on a step of the ground
// whose sides at its base's level are leaves, a table or air over a drop
// (a felled neighbour's hole) is chopped from the lower ground beside the
// step, where a player stands and reaches up, not from a spot the body
// cannot get to (it was asked to stand over the drop with leaves at its
// head: no route, and the skill stayed blocked).
func TestChopTreeFromTheGroundBelowAStep(t *testing.T) {
	b := ground(world.NewSparseBlocks(), 63, -12, -12, 12, 12)
	b.SetID(world.Pos(3, 64, 0), "minecraft:dirt", 0) // the step the tree stands on
	trunk(b, 3, 65, 68, 0)
	// Around the base, at its level: leaves, a crafting table, and to the
	// west nothing under the feet, leaves at the head.
	b.SetID(world.Pos(3, 65, -1), "minecraft:leaves", 0)
	b.SetID(world.Pos(3, 65, 1), "minecraft:crafting_table", 0)
	b.SetID(world.Pos(4, 65, 0), "minecraft:leaves", 0)
	b.SetID(world.Pos(2, 66, 0), "minecraft:leaves", 0)
	for _, o := range horizontal[4:] {
		b.SetID(world.Pos(3+o[0], 65, o[1]), "minecraft:leaves", 0)
	}
	w := snap(at(0, 64, 0), b, world.Inventory{})
	acts := checkActions(t, ChopTree{}, w, map[string]any{"min_logs": 1})
	require.NotEmpty(t, acts)
	mv, ok := acts[0].(action.MoveTo)
	require.True(t, ok, "%v", acts)
	assert.Equal(t, world.Pos(2, 64, 0), mv.Pos, "on the ground west of the step, facing the player")
	assert.Len(t, breaks(acts), 4)
	requireReachable(t, acts)
}

// TestChopTreeFromTwoBlocksOut: a short oak on a rise whose leaves reach
// down to its base, all round: no spot beside the trunk is clear, at its
// level or below. The tree is chopped from clear ground two blocks out,
// whence the base and the logs above are within reach (the body was sent
// into the leaves: no route, and chop_tree stayed blocked).
func TestChopTreeFromTwoBlocksOut(t *testing.T) {
	b := ground(world.NewSparseBlocks(), 63, -12, -12, 12, 12)
	for dz := -1; dz <= 1; dz++ {
		for dx := -1; dx <= 1; dx++ {
			b.SetID(world.Pos(3+dx, 64, dz), "minecraft:dirt", 0) // the rise
			if dx != 0 || dz != 0 {
				b.SetID(world.Pos(3+dx, 65, dz), "minecraft:leaves", 0)
				b.SetID(world.Pos(3+dx, 66, dz), "minecraft:leaves", 0)
			}
		}
	}
	trunk(b, 3, 65, 68, 0)
	w := snap(at(-2, 64, 0), b, world.Inventory{})
	acts := checkActions(t, ChopTree{}, w, map[string]any{"min_logs": 1})
	require.NotEmpty(t, acts)
	mv, ok := acts[0].(action.MoveTo)
	require.True(t, ok, "%v", acts)
	assert.Equal(t, 2, max(abs(mv.Pos.X-3), abs(mv.Pos.Z)), "two blocks out: %v", mv.Pos)
	assert.Equal(t, 64, mv.Pos.Y, "on the ground beside the rise")
	assert.Len(t, breaks(acts), 4)
	requireReachable(t, acts)
}

// TestChopTreeInADip: a trunk whose base log sits level with the ground
// around it (a tree in a dip), its leaves down to the ground two blocks
// all round. No spot beside the trunk is clear: at the base's level is
// the ground itself, a block up the leaves. The tree is felled from the
// ground beside the trunk, a block up, through its leaves (the body
// breaks them); before, the bot was sent into the ground beside the
// base, which no route reaches (seed 2's quest run: chop_tree blocked
// on the last logs of Tinker-Time's barricades).
func TestChopTreeInADip(t *testing.T) {
	b := ground(world.NewSparseBlocks(), 64, -12, -12, 12, 12)
	b.SetID(world.Pos(3, 63, 0), "minecraft:dirt", 0)
	for dz := -2; dz <= 2; dz++ {
		for dx := -2; dx <= 2; dx++ {
			if dx != 0 || dz != 0 {
				b.SetID(world.Pos(3+dx, 65, dz), "minecraft:leaves", 0)
				b.SetID(world.Pos(3+dx, 66, dz), "minecraft:leaves", 0)
			}
		}
	}
	trunk(b, 3, 64, 67, 0)
	w := snap(at(-3, 65, 0), b, world.Inventory{})
	acts := checkActions(t, ChopTree{}, w, map[string]any{"min_logs": 1})
	require.NotEmpty(t, acts)
	mv, ok := acts[0].(action.MoveTo)
	require.True(t, ok, "%v", acts)
	assert.Equal(t, 65, mv.Pos.Y, "on the ground beside the trunk: %v", mv.Pos)
	assert.Equal(t, 1, max(abs(mv.Pos.X-3), abs(mv.Pos.Z)), "beside the trunk: %v", mv.Pos)
	assert.Equal(t, "minecraft:leaves", w.BlockAt(mv.Pos).ID, "through the leaves")
	assert.Len(t, breaks(acts), 4)
	requireReachable(t, acts)
}

// TestChopTreeFromWhereItStands: a tree grown on a dirt pillar beside the
// one the bot stands on, the ground four blocks below; no dirt to pillar
// with. The base and the logs above are within reach from where the bot
// stands, and it fells the tree from there; before, it was sent into the
// air beside the trunk (a pillar, with no dirt for one) or onto leaves
// beside it, which no walk leads to (seed 0's quest run: chop_tree
// blocked in Tinker-Time).
func TestChopTreeFromWhereItStands(t *testing.T) {
	for _, leavesBelow := range []bool{false, true} {
		b := ground(world.NewSparseBlocks(), 63, -12, -12, 12, 12)
		for y := 64; y <= 67; y++ {
			b.SetID(world.Pos(-1, y, -2), "minecraft:dirt", 0) // the bot's pillar
		}
		for y := 64; y <= 68; y++ {
			b.SetID(world.Pos(0, y, 1), "minecraft:dirt", 0) // the tree's
		}
		trunk(b, 0, 69, 72, 1)
		for dz := 1; dz <= 4; dz++ {
			for dx := -2; dx <= 2; dx++ {
				if dx != 0 || dz != 1 {
					b.SetID(world.Pos(dx, 70, dz), "minecraft:leaves", 0)
					b.SetID(world.Pos(dx, 71, dz), "minecraft:leaves", 0)
				}
			}
		}
		if leavesBelow {
			b.SetID(world.Pos(0, 68, 0), "minecraft:leaves", 0) // the spot beside the trunk stands on leaves
		}
		w := snap(at(-1, 68, -2), b, world.Inventory{})
		acts := checkActions(t, ChopTree{}, w, map[string]any{"min_logs": 1})
		require.NotEmpty(t, acts)
		mv, ok := acts[0].(action.MoveTo)
		require.True(t, ok, "%v", acts)
		assert.Equal(t, world.Pos(-1, 68, -2), mv.Pos, "where it stands (leaves below the spot beside the trunk: %v)", leavesBelow)
		assert.Len(t, breaks(acts), 4)
		requireReachable(t, acts)
	}
}

// TestChopTreeAwayFromMobs: of two trees, the one a creeper stands by is
// left for the one no mob guards, though farther (skills.AwayFromMobs):
// the bot that fled the creeper does not walk back to it.
func TestChopTreeAwayFromMobs(t *testing.T) {
	b := forest([3]int{4, 3, 0}, [3]int{-9, 3, 0})
	w := snap(at(0, 64, 0), b, world.Inventory{})
	w.TimeOfDay = 6000
	acts, err := ChopTree{}.SuggestActions(w, skills.Params{"min_logs": 3})
	require.NoError(t, err)
	assert.Equal(t, world.Pos(4, 64, 0), breaks(acts)[0], "no mob: the nearest tree")
	w.Entities = []world.Entity{{ID: 523, Kind: world.EntityMob, Name: "creeper", Pos: world.Vec3{X: 8.5, Y: 64, Z: 0.5}, Health: 20}}
	acts, err = ChopTree{}.SuggestActions(w, skills.Params{"min_logs": 3})
	require.NoError(t, err)
	assert.Equal(t, world.Pos(-9, 64, 0), breaks(acts)[0], "a creeper by the near tree: the far one")
}
