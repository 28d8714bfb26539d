package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/rulestest"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// oreWorld is a small natural world with veins, the player holding inv,
// and a stone cell at p for the test to turn into an ore.
func oreWorld(t *testing.T, inv string) *Sim {
	t.Helper()
	sc, err := ParseScenario("t.yaml", []byte("name: t\nseed: 5\nsize: {x: 32, z: 32}\ngenerator: natural\nore_veins: 1\nground_y: 64\n"+
		"player:\n  pos: [16, 70, 16]\n  inventory: ["+inv+"]\n"))
	require.NoError(t, err)
	set, err := rulestest.WithTestPickaxe()
	require.NoError(t, err)
	s, err := New(sc, Options{Rules: set})
	require.NoError(t, err)
	return s
}

// putOre makes the cell at p (stone) an ore of a material.
func putOre(t *testing.T, s *Sim, p world.BlockPos, material string, small bool) {
	t.Helper()
	var err error
	s.state.Update(func(tx *world.Tx) {
		require.NoError(t, tx.SetBlock(p, "minecraft:stone", 0))
		err = s.placeOre(tx, s.rules.Ores, p.X, p.Y, p.Z, material, small)
	})
	require.NoError(t, err)
	b := snap(t, s).BlockAt(p)
	require.Equal(t, "gregtech:gt.blockores", b.ID)
}

// TestMiningGregTechOres: a GregTech ore breaks by its harvest level
// (TileEntityOres: the tool quality, a small ore one less): a wooden
// pickaxe (level 0) gets nothing from chalcopyrite (1) but a small copper
// ore (0) gives a crushed copper ore or an impure copper dust; a pickaxe of
// level 3 (the test's GregTech pickaxe) gets the raw chalcopyrite ore and the raw magnetite (2), which
// the furnace makes a copper and an iron ingot.
func TestMiningGregTechOres(t *testing.T) {
	t.Run("wooden pickaxe", func(t *testing.T) {
		s := oreWorld(t, `{item: minecraft:wooden_pickaxe, max_durability: 64}`)
		p := snap(t, s).Feet().Down().Add(1, 0, 0) // in reach
		putOre(t, s, p, "Chalcopyrite", false)
		assert.Equal(t, 1, snap(t, s).BlockAt(p).Meta, "the metadata is the harvest level")
		require.True(t, exec(t, s, action.Equip{Item: "tool:pickaxe"}).OK())
		r := exec(t, s, action.BreakBlock{Pos: p})
		require.True(t, r.OK(), r.Error)
		assert.Equal(t, false, r.Details["harvested"])
		assert.Zero(t, snap(t, s).Inventory.CountID("gregtech:gt.metaitem.03"))
		// Hardness 1 + level 1 = 2; the wrong level breaks at the slow
		// rate: 2 × 100 / 2 = 100 ticks.
		assert.Equal(t, int64(100), r.Ticks)

		putOre(t, s, p, "Copper", true)
		assert.Equal(t, 0, snap(t, s).BlockAt(p).Meta)
		r = exec(t, s, action.BreakBlock{Pos: p})
		require.True(t, r.OK(), r.Error)
		inv := snap(t, s).Inventory
		crushed, impure := inv.Count(world.MustItem("gregtech:gt.metaitem.01:5035")), inv.Count(world.MustItem("gregtech:gt.metaitem.01:3035"))
		assert.Equal(t, 1, crushed+impure, "a small copper ore gives one crushed ore or one impure dust")
	})
	t.Run("level 3 pickaxe", func(t *testing.T) {
		s := oreWorld(t, `{item: "gregtech:gt.metatool.01:2", max_durability: 250}`)
		p := snap(t, s).Feet().Down().Add(1, 0, 0)
		require.True(t, exec(t, s, action.Equip{Item: "tool:pickaxe"}).OK())
		for _, c := range []struct {
			material string
			raw      string
			level    int
		}{
			{"Chalcopyrite", "gregtech:gt.metaitem.03:5855", 1},
			{"Magnetite", "gregtech:gt.metaitem.03:5870", 2},
			{"CassiteriteSand", "gregtech:gt.metaitem.03:5937", 1},
		} {
			putOre(t, s, p, c.material, false)
			assert.Equal(t, c.level, snap(t, s).BlockAt(p).Meta, c.material)
			r := exec(t, s, action.BreakBlock{Pos: p})
			require.True(t, r.OK(), r.Error)
			assert.Equal(t, 1, snap(t, s).Inventory.Count(world.MustItem(c.raw)), c.material)
		}
		for raw, want := range map[string]string{
			"gregtech:gt.metaitem.03:5855": "gregtech:gt.metaitem.01:11035",
			"gregtech:gt.metaitem.03:5870": "minecraft:iron_ingot",
			"gregtech:gt.metaitem.03:5937": "gregtech:gt.metaitem.01:11057",
		} {
			id, meta, err := world.SplitID(raw)
			require.NoError(t, err)
			r, ok := s.rules.Smelt.Recipe(s.rules.Stack(id, meta, 1))
			require.True(t, ok, raw)
			assert.Equal(t, want, r.Output, raw)
		}
	})
}

// TestVeinLayers: a vein's nine layers from one below its bottom hold what
// WorldgenGTOreLayer puts there: the secondary in the lowest four, the
// in-between in layers 3 to 6, the primary in the top four, the sporadic
// anywhere among them; nothing outside its extent; and the vein placer's
// small ores of all four materials in the chunk.
func TestVeinLayers(t *testing.T) {
	s := oreWorld(t, "")
	o := s.rules.Ores
	var mix rules.OreMix
	for _, m := range o.Mixes() {
		if m.Name == "copper" {
			mix = m
		}
	}
	require.Equal(t, "Chalcopyrite", mix.Primary)
	v := vein{mix: mix, seedX: 16, seedZ: 16, bottom: 20, west: 10, east: 40, north: 12, south: 38}
	rng := rand.New(rand.NewPCG(1, 2))
	var err error
	s.state.Update(func(tx *world.Tx) {
		// A clean block of stone for the vein: y 10 to 40 over the chunk.
		for x := 0; x < 32; x++ {
			for z := 0; z < 32; z++ {
				for y := 10; y <= 40; y++ {
					if e := tx.SetBlock(world.Pos(x, y, z), "minecraft:stone", 0); e != nil {
						err = e
					}
				}
			}
		}
		if err == nil {
			err = s.veinChunk(tx, rng, v, 0, 0)
		}
	})
	require.NoError(t, err)
	w := snap(t, s)
	layers := map[string][2]int{ // material -> the lowest and highest y it may take
		"ore:oreIron":         {19, 22},
		"ore:orePyrite":       {22, 25},
		"ore:oreChalcopyrite": {24, 27},
		"ore:oreCopper":       {19, 27},
	}
	found := map[string]int{}
	small := map[string]int{}
	for x := 0; x < 32; x++ {
		for z := 0; z < 32; z++ {
			for y := 1; y < 80; y++ {
				b := w.BlockAt(world.Pos(x, y, z))
				if b.ID != o.Block {
					continue
				}
				for _, tag := range b.Tags {
					if r, ok := layers[tag]; ok {
						found[tag]++
						assert.True(t, y >= r[0] && y <= r[1], "%s at y %d, outside %v", tag, y, r)
						// chunk 0's part of the vein, shifted by 2
						assert.True(t, x >= 10 && x < 18 && z >= 12 && z < 18, "%s at %d %d outside the chunk's part of the vein", tag, x, z)
					}
					if len(tag) > len("ore:oreSmall") && tag[:len("ore:oreSmall")] == "ore:oreSmall" && y >= 10 && y <= 40 {
						// the stone laid for the test: the world's own
						// veins' small ores lie elsewhere
						small[tag]++
						assert.True(t, x >= 2 && x < 18 && z >= 2 && z < 18, "small ore at %d %d outside the chunk", x, z)
					}
				}
			}
		}
	}
	for tag := range layers {
		assert.Positive(t, found[tag], tag)
	}
	// A cell's chance falls with its distance to the far edges: at the
	// vein's west edge (x 10, 30 blocks from its east edge) about 1 in 10
	// per roll, so far from every cell of the column's 54 holds ore.
	edge := 0
	for z := 12; z < 18; z++ {
		for y := 19; y <= 27; y++ {
			if w.BlockAt(world.Pos(10, y, z)).ID == o.Block {
				edge++
			}
		}
	}
	assert.Less(t, edge, 30, "ores at the vein's west edge")
	// The primary's chances: its four layers over 8 × 6 cells.
	assert.Greater(t, found["ore:oreChalcopyrite"], found["ore:oreCopper"], "the sporadic is rarer")
	// (18-10) × (18-12) × density 3 / 10 × 2 = 28 rounds of four small
	// ores, at y 10 to 199: those landing in the stone (y 10 to 40).
	assert.NotEmpty(t, small)
	total := 0
	for _, n := range small {
		total += n
	}
	// Each lands in y 10 to 40 with odds 31 in 160 (the sporadic's 31 in
	// 190): about 21 of the 112.
	assert.True(t, total >= 8 && total <= 40, "%d small ores in the test's stone, want about 21", total)
}

// TestDrawVeins: every vein drawn has stone at 5 or more of the 9 cells
// from its bottom up at its seed chunk's centre (GregTech's placement
// test) and a material the simulator places; its bottom lies within its
// mix's heights, its extent around its seed chunk within the mix's size.
func TestDrawVeins(t *testing.T) {
	s := oreWorld(t, "")
	o := s.rules.Ores
	var veins []vein
	for seed := range uint64(20) {
		s.state.Update(func(tx *world.Tx) {
			veins = append(veins, s.drawVeins(tx, rand.New(rand.NewPCG(seed, 7)))...)
		})
	}
	require.NotEmpty(t, veins)
	w := snap(t, s)
	for _, v := range veins {
		placed := false
		for _, name := range []string{v.mix.Primary, v.mix.Secondary, v.mix.Between, v.mix.Sporadic} {
			for _, m := range o.Materials() {
				placed = placed || m.Name == name
			}
		}
		assert.True(t, placed, "%s has no material the simulator places", v.mix.Name)
		x, z := min(max(v.seedX+7, 0), 31), min(max(v.seedZ+9, 0), 31)
		stone := 0
		for i := range 9 {
			b := w.BlockAt(world.Pos(x, v.bottom+i, z))
			if b.ID == "minecraft:stone" || b.ID == o.Block {
				stone++
			}
		}
		assert.GreaterOrEqual(t, stone, 5, "%s at bottom %d", v.mix.Name, v.bottom)
		assert.True(t, v.bottom >= v.mix.MinY && v.bottom < v.mix.MaxY-5, "%s bottom %d", v.mix.Name, v.bottom)
		assert.True(t, v.west > v.seedX-v.mix.Size && v.west <= v.seedX && v.east >= v.seedX+16 && v.east < v.seedX+16+v.mix.Size, "%s x %d..%d", v.mix.Name, v.west, v.east)
	}
}
