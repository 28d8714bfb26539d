package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// crown is a felled oak's crown: leaves in a 3×3 at y over (cx, cz).
func crown(b *world.SparseBlocks, cx, y, cz int) *world.SparseBlocks {
	for dz := -1; dz <= 1; dz++ {
		for dx := -1; dx <= 1; dx++ {
			b.SetID(world.Pos(cx+dx, y, cz+dz), "minecraft:leaves", 0)
		}
	}
	return b
}

func TestGatherSaplings(t *testing.T) {
	empty := world.NewInventory()
	t.Run("leaves within reach are broken from where the player stands", func(t *testing.T) {
		w := snap(at(0, 64, 0), crown(ground(world.NewSparseBlocks(), 63, -6, -6, 6, 6), 0, 67, 0), empty)
		acts := checkActions(t, GatherSaplings{}, w, map[string]any{"leaves": 3})
		require.Len(t, acts, 3)
		for _, a := range acts {
			b, ok := a.(action.BreakBlock)
			require.True(t, ok, "no move: %v", a)
			assert.Equal(t, 67, b.Pos.Y)
		}
		assert.Equal(t, action.BreakBlock{Pos: world.Pos(0, 67, 0)}, acts[0], "the nearest first")
	})
	t.Run("a crown out of reach: the player walks under it, on the ground", func(t *testing.T) {
		w := snap(at(0, 64, 0), crown(ground(world.NewSparseBlocks(), 63, -6, -6, 12, 6), 10, 67, 0), empty)
		acts := checkActions(t, GatherSaplings{}, w, nil)
		require.Len(t, acts, 10, "one move, nine leaves")
		mv, ok := acts[0].(action.MoveTo)
		require.True(t, ok)
		assert.Equal(t, world.Pos(9, 64, 0), mv.Pos, "the column of the nearest leaf, on the ground")
		for _, a := range acts[1:] {
			_, ok := a.(action.BreakBlock)
			assert.True(t, ok)
		}
	})
	t.Run("the leaf the player stands on is left", func(t *testing.T) {
		w := snap(at(0, 68, 0), crown(ground(world.NewSparseBlocks(), 63, -6, -6, 6, 6), 0, 67, 0), empty)
		acts := checkActions(t, GatherSaplings{}, w, nil)
		require.Len(t, acts, 8, "the crown but the leaf underfoot")
		for _, a := range acts {
			assert.NotEqual(t, action.BreakBlock{Pos: world.Pos(0, 67, 0)}, a)
		}
	})
	t.Run("a leaf no ground reaches is left", func(t *testing.T) {
		b := ground(world.NewSparseBlocks(), 63, -6, -6, 6, 6).SetID(world.Pos(3, 80, 0), "minecraft:leaves", 0).
			SetID(world.Pos(3, 71, 0), "minecraft:leaves", 0). // ground 7 below: out of reach

			SetID(world.Pos(0, 67, 0), "minecraft:leaves", 0)
		acts := checkActions(t, GatherSaplings{}, snap(at(0, 64, 0), b, empty), nil)
		assert.Equal(t, []action.Action{action.BreakBlock{Pos: world.Pos(0, 67, 0)}}, acts)
	})
}

func TestGatherSaplingsFailures(t *testing.T) {
	field := ground(world.NewSparseBlocks(), 63, -4, -4, 4, 4)
	tests := []struct {
		name string
		w    *world.Snapshot
		raw  map[string]any
		code skills.Code
		msg  string
	}{
		{"no leaves", snap(at(0, 64, 0), field, world.NewInventory()), nil, skills.CodeNoTarget, "no leaves within 16"},
		{"leaves out of radius", snap(at(0, 64, 0), crown(ground(world.NewSparseBlocks(), 63, -4, -4, 30, 4), 25, 67, 0), world.NewInventory()), nil, skills.CodeNoTarget, "no leaves within 16"},
		{"leaves too high", snap(at(0, 64, 0), crown(ground(world.NewSparseBlocks(), 63, -4, -4, 4, 4), 0, 75, 0), world.NewInventory()), nil, skills.CodeNoTarget, "no ground within reach of the 9 leaf blocks"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			acts, err := run(t, GatherSaplings{}, tc.w, tc.raw)
			f := requireFailure(t, err, tc.code)
			assert.Contains(t, f.Msg, tc.msg)
			assert.Nil(t, acts)
		})
	}
}

// TestGatherSaplingsBoundedByTime: a step takes leaves until its walks
// (at walking pace, half again the straight way) and its breaking (six
// ticks a leaf) would pass its ticks, 600 unless given; the first leaf
// always.
func TestGatherSaplingsBoundedByTime(t *testing.T) {
	empty := world.NewInventory()
	// Five felled oaks' crowns in a row, 10 blocks apart: the player walks
	// 9 blocks to the first (62.5 ticks reckoned) and 10 to each next
	// (69.5), and breaks nine leaves under each at six ticks a leaf: the
	// crowns are done at 116.5, 240.0, 363.5 and 487.0 ticks, and the walk
	// to the fifth ends at 556.5.
	b := ground(world.NewSparseBlocks(), 63, -6, -6, 56, 6)
	for x := 10; x <= 50; x += 10 {
		crown(b, x, 67, 0)
	}
	count := func(acts []action.Action) (moves, breaks int) {
		for _, a := range acts {
			switch a.(type) {
			case action.MoveTo:
				moves++
			case action.BreakBlock:
				breaks++
			}
		}
		return
	}
	w := snap(at(0, 64, 0), b, empty)
	for _, tc := range []struct {
		ticks         any
		moves, breaks int
	}{
		{nil, 5, 43},   // 600: seven leaves of the fifth crown (598.5)
		{611, 5, 45},   // the whole fifth crown at 610.5
		{610, 5, 44},   // one short
		{488, 4, 36},   // four crowns (487.0 and a hair)
		{487, 4, 35},   // one short
		{556, 4, 36},   // the walk to the fifth and its first leaf (562.5) do not fit
		{563, 5, 37},   // they do
		{12000, 5, 45}, // the leaves run out first
	} {
		raw := map[string]any{"radius": 64}
		if tc.ticks != nil {
			raw["ticks"] = tc.ticks
		}
		moves, breaks := count(checkActions(t, GatherSaplings{}, w, raw))
		assert.Equal(t, tc.moves, moves, "ticks %v: walks", tc.ticks)
		assert.Equal(t, tc.breaks, breaks, "ticks %v: leaves", tc.ticks)
	}

	// Leaves over the head: six ticks each.
	over := snap(at(0, 64, 0), crown(ground(world.NewSparseBlocks(), 63, -6, -6, 6, 6), 0, 67, 0), empty)
	_, breaks := count(checkActions(t, GatherSaplings{}, over, map[string]any{"ticks": 18}))
	assert.Equal(t, 3, breaks, "18 ticks: three leaves")
	_, breaks = count(checkActions(t, GatherSaplings{}, over, map[string]any{"ticks": 17}))
	assert.Equal(t, 2, breaks, "17 ticks: two")
	_, breaks = count(checkActions(t, GatherSaplings{}, over, map[string]any{"ticks": 1}))
	assert.Equal(t, 1, breaks, "the first leaf always")
	_, err := spec(t, "gather_saplings").ResolveParams(map[string]any{"ticks": 0})
	require.Error(t, err, "at least a tick")
}

// TestGatherSaplingsLooksAsFarAsItsRadius: leaves 40 blocks away (past
// the default tag radius of 32) pass the preconditions, so a step asked
// with the radius that reaches them runs.
func TestGatherSaplingsLooksAsFarAsItsRadius(t *testing.T) {
	w := snap(at(0, 64, 0), crown(ground(world.NewSparseBlocks(), 63, -6, -6, 46, 6), 40, 67, 0), world.NewInventory())
	require.NoError(t, skills.CheckPreconditions(spec(t, "gather_saplings"), w, rules.Default().Tiers))
	acts := checkActions(t, GatherSaplings{}, w, map[string]any{"radius": 41})
	require.NotEmpty(t, acts)
	far := snap(at(0, 64, 0), crown(ground(world.NewSparseBlocks(), 63, -6, -6, 76, 6), 70, 67, 0), world.NewInventory())
	assert.Error(t, skills.CheckPreconditions(spec(t, "gather_saplings"), far, rules.Default().Tiers), "70 blocks: past its largest radius")
}
