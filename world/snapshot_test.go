package world

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBlockPosGeometry(t *testing.T) {
	p := Pos(1, 64, -2)
	assert.Equal(t, BlockPos{X: 1, Y: 64, Z: -2}, p)
	assert.Equal(t, Pos(2, 62, 1), p.Add(1, -2, 3))
	assert.Equal(t, Pos(1, 65, -2), p.Up())
	assert.Equal(t, Pos(1, 63, -2), p.Down())
	assert.Equal(t, 0, p.DistSq(p))
	assert.Equal(t, 1+4+9, p.DistSq(Pos(2, 66, 1)))
	assert.Equal(t, Vec3{X: 1.5, Y: 64.5, Z: -1.5}, p.Center())
	assert.Equal(t, "(1, 64, -2)", p.String())

	less := []struct {
		a, b BlockPos
		want bool
	}{
		{Pos(0, 1, 0), Pos(0, 2, 0), true},  // Y first
		{Pos(9, 1, 9), Pos(0, 2, 0), true},  // Y wins over Z and X
		{Pos(0, 1, 1), Pos(0, 1, 2), true},  // then Z
		{Pos(9, 1, 1), Pos(0, 1, 2), true},  // Z wins over X
		{Pos(1, 1, 1), Pos(2, 1, 1), true},  // then X
		{Pos(1, 1, 1), Pos(1, 1, 1), false}, // irreflexive
		{Pos(0, 2, 0), Pos(0, 1, 0), false},
	}
	for _, tc := range less {
		assert.Equal(t, tc.want, tc.a.Less(tc.b), "%v < %v", tc.a, tc.b)
	}

	v := Vec3{X: -0.5, Y: 64.99, Z: 3.0}
	assert.Equal(t, Pos(-1, 64, 3), v.Block(), "negative coordinates floor, not truncate")
	assert.InDelta(t, 0.25+1+4, Vec3{}.DistSq(Vec3{X: 0.5, Y: 1, Z: -2}), 1e-9)
	assert.Equal(t, "(-0.50, 64.99, 3.00)", v.String())
}

func TestSparseBlocks(t *testing.T) {
	s := NewSparseBlocks()
	s.SetID(Pos(0, 64, 0), "minecraft:log", 0).
		SetID(Pos(1, 64, 0), "minecraft:dirt", 0)
	assert.Equal(t, 2, s.Len())
	assert.Equal(t, "minecraft:log", s.BlockAt(Pos(0, 64, 0)).ID)
	assert.True(t, s.BlockAt(Pos(0, 64, 0)).HasTag("tree"), "SetID fills tags")
	assert.True(t, s.BlockAt(Pos(5, 5, 5)).IsAir())

	s.Set(Pos(1, 64, 0), Air)
	assert.Equal(t, 1, s.Len(), "setting air removes the block")
	s.Set(Pos(0, 64, 0), Block{ID: "minecraft:air"})
	assert.Equal(t, 0, s.Len())
	s.Set(Pos(3, 3, 3), Block{ID: "mod:x", Tags: []string{"custom"}})
	assert.Equal(t, []string{"custom"}, s.BlockAt(Pos(3, 3, 3)).Tags)
}

func TestSparseBlocksNearest(t *testing.T) {
	center := Pos(0, 64, 0)
	s := NewSparseBlocks()
	// Four logs at distance² 4, inserted in an order that differs from the
	// tie-break order, plus nearer and farther blocks.
	s.SetID(Pos(2, 64, 0), "minecraft:log", 0)  // d²=4, Y64 Z0 X2
	s.SetID(Pos(0, 64, -2), "minecraft:log", 0) // d²=4, Y64 Z-2
	s.SetID(Pos(0, 66, 0), "minecraft:log", 0)  // d²=4, Y66
	s.SetID(Pos(-2, 64, 0), "minecraft:log", 0) // d²=4, Y64 Z0 X-2
	s.SetID(Pos(0, 62, 0), "minecraft:log", 0)  // d²=4, Y62
	s.SetID(Pos(1, 64, 0), "minecraft:dirt", 0) // d²=1
	s.SetID(Pos(0, 64, 5), "minecraft:log", 0)  // d²=25
	s.SetID(Pos(6, 64, 0), "minecraft:log", 0)  // d²=36, outside radius 5
	s.SetID(center, "minecraft:water", 0)       // d²=0

	logs := func(b Block) bool { return b.HasTag("log") }
	positions := func(hits []BlockHit) []BlockPos {
		var out []BlockPos
		for _, h := range hits {
			out = append(out, h.Pos)
		}
		return out
	}

	tieOrder := []BlockPos{Pos(0, 62, 0), Pos(0, 64, -2), Pos(-2, 64, 0), Pos(2, 64, 0), Pos(0, 66, 0)}

	tests := []struct {
		name   string
		radius int
		k      int
		match  func(Block) bool
		want   []BlockPos
	}{
		{"ties by Y, Z, X", 5, 0, logs, append(append([]BlockPos{}, tieOrder...), Pos(0, 64, 5))},
		{"k limits", 5, 2, logs, tieOrder[:2]},
		{"k 1", 5, 1, logs, tieOrder[:1]},
		{"negative k is unlimited", 5, -1, logs, append(append([]BlockPos{}, tieOrder...), Pos(0, 64, 5))},
		{"radius is inclusive", 2, 0, logs, tieOrder},
		{"radius excludes farther", 1, 0, logs, nil},
		{"radius 6 reaches the far log", 6, 0, logs, append(append([]BlockPos{}, tieOrder...), Pos(0, 64, 5), Pos(6, 64, 0))},
		{"nil match takes every block", 1, 0, nil, []BlockPos{center, Pos(1, 64, 0)}},
		{"radius 0 is the centre only", 0, 0, nil, []BlockPos{center}},
		{"no match", 10, 0, func(b Block) bool { return b.HasTag("lava") }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Repeat: map iteration order is random, results must not be.
			for range 20 {
				hits := s.Nearest(center, tc.radius, tc.k, tc.match)
				assert.Equal(t, tc.want, positions(hits))
				for i := 1; i < len(hits); i++ {
					assert.LessOrEqual(t, hits[i-1].DistSq, hits[i].DistSq)
				}
				for _, h := range hits {
					assert.Equal(t, h.Pos.DistSq(center), h.DistSq)
					assert.Equal(t, s.BlockAt(h.Pos), h.Block)
				}
			}
		})
	}
}

func TestSortHits(t *testing.T) {
	hits := []BlockHit{
		{Pos: Pos(1, 0, 0), DistSq: 1},
		{Pos: Pos(0, 0, 0), DistSq: 0},
		{Pos: Pos(0, 0, 1), DistSq: 1},
		{Pos: Pos(-1, 0, 0), DistSq: 1},
	}
	SortHits(hits)
	assert.Equal(t, []BlockPos{Pos(0, 0, 0), Pos(-1, 0, 0), Pos(1, 0, 0), Pos(0, 0, 1)},
		[]BlockPos{hits[0].Pos, hits[1].Pos, hits[2].Pos, hits[3].Pos})
}

func testSnapshot() *Snapshot {
	blocks := NewSparseBlocks().
		SetID(Pos(3, 64, 0), "minecraft:log", 0).
		SetID(Pos(-5, 64, 0), "minecraft:water", 0).
		SetID(Pos(1, 64, 1), "minecraft:flowing_water", 0)
	return &Snapshot{
		Tick:      100,
		Player:    Player{Name: "agent", Pos: Vec3{X: 0.5, Y: 64, Z: 0.5}, Dimension: Overworld, Health: 20, Food: 20},
		Inventory: NewInventory(NewStack("minecraft:log", 0, 2)),
		Blocks:    blocks,
		Entities: []Entity{
			{ID: 1, Kind: EntityMob, Name: "zombie", Pos: Vec3{X: 5, Y: 64, Z: 5}},
			{ID: 2, Kind: EntityItem, Pos: Vec3{X: 1, Y: 64, Z: 1}, Item: &ItemStack{ID: "minecraft:sapling", Count: 1}},
			{ID: 3, Kind: EntityMob, Name: "skeleton", Pos: Vec3{X: 9, Y: 64, Z: 9}},
		},
		Machines: []Machine{
			{Kind: MachineCokeOven, Pos: Pos(10, 64, 0), Formed: true},
			{Kind: MachineCokeOven, Pos: Pos(0, 64, -4), Formed: true},
			{Kind: MachineCokeOven, Pos: Pos(-4, 64, 0)},
			{Kind: MachineChest, Pos: Pos(1, 64, 0)},
		},
		TechState: "steam_age",
	}
}

func TestSnapshotQueries(t *testing.T) {
	w := testSnapshot()
	assert.Equal(t, Pos(0, 64, 0), w.Feet())
	assert.Equal(t, "minecraft:log", w.BlockAt(Pos(3, 64, 0)).ID)

	hits := w.NearestBlocks(10, 0, "water_source")
	require.Len(t, hits, 1)
	assert.Equal(t, Pos(-5, 64, 0), hits[0].Pos)

	hits = w.NearestBlocks(10, 0, "water")
	require.Len(t, hits, 2)
	assert.Equal(t, Pos(1, 64, 1), hits[0].Pos)

	hits = w.NearestBlocks(10, 0, "log", "water_source")
	require.Len(t, hits, 2)
	assert.Equal(t, Pos(3, 64, 0), hits[0].Pos)
	assert.Empty(t, w.NearestBlocks(2, 0, "log"))
	assert.Empty(t, w.NearestBlocks(10, 0))

	ovens := w.MachinesOfKind(MachineCokeOven, 8)
	require.Len(t, ovens, 2)
	// Both at d²=16: tie broken by Z before X.
	assert.Equal(t, Pos(0, 64, -4), ovens[0].Pos)
	assert.Equal(t, Pos(-4, 64, 0), ovens[1].Pos)
	assert.Len(t, w.MachinesOfKind(MachineCokeOven, 10), 3)
	assert.Empty(t, w.MachinesOfKind(MachineSteamBoiler, 100))

	mobs := w.EntitiesOfKind(EntityMob)
	require.Len(t, mobs, 2)
	assert.Equal(t, "zombie", mobs[0].Name)
	assert.Equal(t, "skeleton", mobs[1].Name)
	assert.Empty(t, w.EntitiesOfKind(EntityPlayer))

	m := Machine{
		Slots:  map[string]ItemStack{"fuel": NewStack("minecraft:coal", 0, 3)},
		Fluids: map[string]FluidTank{"water": {Fluid: "water", Amount: 500, Capacity: 1000}},
	}
	assert.Equal(t, 3, m.Slot("fuel").Count)
	assert.True(t, m.Slot("input").Empty())
	assert.Equal(t, 500, m.Fluid("water").Amount)
	assert.Equal(t, FluidTank{}, m.Fluid("steam"))
}

func TestSnapshotWithoutBlocks(t *testing.T) {
	w := &Snapshot{Player: Player{Pos: Vec3{X: -0.5, Y: 70, Z: 2.2}}}
	assert.NotPanics(t, func() {
		assert.True(t, w.BlockAt(Pos(0, 0, 0)).IsAir())
		assert.Nil(t, w.NearestBlocks(100, 0, "log"))
	})
	assert.Equal(t, Pos(-1, 70, 2), w.Feet())
}
