package mapview

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// forestBase is the embedded scenario's world at its start.
func forestBase(t testing.TB) *world.Snapshot {
	t.Helper()
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	snap, err := s.Observe(t.Context())
	require.NoError(t, err)
	return snap
}

// oreWorld is a chunk-backed world: grass at y 63 over dirt and stone,
// with an iron ore at (5, 40, 5) under the grass, a GregTech ore told
// apart by its position tag at (9, 30, 9) and the same block untagged
// beside it, and a lava pool at y 63 at
// (2, 63, 12).
func oreWorld(t testing.TB) *world.Snapshot {
	t.Helper()
	ids := rules.Default().StartIDs().Clone()
	require.NoError(t, ids.SetBlock(4000, "gregtech:gt.blockores"))
	st := world.NewState(world.StateOptions{Rules: rules.Default(), IDs: ids})
	st.Update(func(tx *world.Tx) {
		for x := range 16 {
			for z := range 16 {
				for y := 0; y < 60; y++ {
					require.NoError(t, tx.SetBlock(world.Pos(x, y, z), "minecraft:stone", 0))
				}
				for y := 60; y < 63; y++ {
					require.NoError(t, tx.SetBlock(world.Pos(x, y, z), "minecraft:dirt", 0))
				}
				require.NoError(t, tx.SetBlock(world.Pos(x, 63, z), "minecraft:grass", 0))
			}
		}
		require.NoError(t, tx.SetBlock(world.Pos(5, 40, 5), "minecraft:iron_ore", 0))
		require.NoError(t, tx.SetBlock(world.Pos(9, 30, 9), "gregtech:gt.blockores", 0))
		tx.SetBlockTags(world.Pos(9, 30, 9), []string{"ore:oreNetherrackCopper"})
		require.NoError(t, tx.SetBlock(world.Pos(8, 30, 9), "gregtech:gt.blockores", 0)) // its tile not seen yet
		require.NoError(t, tx.SetBlock(world.Pos(2, 63, 12), "minecraft:lava", 0))
		tx.MovePlayer(world.Vec3{X: 3.5, Y: 64, Z: 4.5})
	})
	return st.Snapshot()
}

func intp(v int) *int { return &v }

func TestExtractForestBase(t *testing.T) {
	snap := forestBase(t)
	m, err := Extract(snap, Options{Area: Around(world.Pos(32, 0, 32), 31)})
	require.NoError(t, err)
	require.Len(t, m.Columns, 63*63)

	c, l, ok := m.At(52, 46) // the pond
	require.True(t, ok)
	assert.Equal(t, KindWater, l.Kind)
	assert.Equal(t, 63, c.Y)

	_, l, _ = m.At(31, 25) // the gravel patch
	assert.Equal(t, KindGravel, l.Kind)
	_, l, _ = m.At(60, 60)
	assert.Equal(t, KindGrass, l.Kind, "the plain")

	_, l, _ = m.At(44, 26) // a coke oven the world model knows
	assert.Equal(t, KindMachine, l.Kind)
	_, l, _ = m.At(46, 36)
	assert.Equal(t, Look{Kind: KindMachine, Label: "steam_boiler", Color: hex(KindColor(KindMachine))}, l, "a machine is labelled with its kind")

	kinds := map[string]int{}
	for _, mk := range m.Markers {
		kinds[mk.Kind]++
	}
	assert.Equal(t, 1, kinds[MarkerBot])
	assert.Equal(t, len(snap.Machines), kinds[MarkerMachine], "every machine of the scenario is in the area")
	bot := m.Markers[len(m.Markers)-1]
	assert.Equal(t, MarkerBot, bot.Kind, "the bot is drawn last")
	assert.Equal(t, world.Pos(24, 64, 32), bot.Pos)
}

func TestExtractOutsideTheWorld(t *testing.T) {
	snap := forestBase(t)
	m, err := Extract(snap, Options{Area: Around(world.Pos(0, 0, 0), 40)})
	require.NoError(t, err)
	c, l, ok := m.At(-40, -40)
	require.True(t, ok)
	assert.Equal(t, KindUnknown, l.Kind, "no column is loaded there")
	assert.Equal(t, -1, c.Y)
	_, _, ok = m.At(41, 0)
	assert.False(t, ok)
}

func TestDepthFilterRevealsOres(t *testing.T) {
	snap := oreWorld(t)
	area := Area{MinX: 0, MinZ: 0, MaxX: 15, MaxZ: 15}

	m, err := Extract(snap, Options{Area: area})
	require.NoError(t, err)
	c, l, _ := m.At(5, 5)
	assert.Equal(t, KindGrass, l.Kind, "from the top the ore is under the grass")
	assert.Equal(t, 63, c.Y)
	_, l, _ = m.At(2, 12)
	assert.Equal(t, KindLava, l.Kind)

	m, err = Extract(snap, Options{Area: area, MaxY: intp(40)})
	require.NoError(t, err)
	c, l, _ = m.At(5, 5)
	assert.Equal(t, KindOre, l.Kind, "at y 40 and below the iron ore shows")
	assert.Equal(t, "Iron ore", l.Label)
	assert.Equal(t, 40, c.Y)
	c, l, _ = m.At(6, 5)
	assert.Equal(t, KindStone, l.Kind)
	assert.Equal(t, 40, c.Y)
	var ores []Marker
	for _, mk := range m.Markers {
		if mk.Kind == MarkerOre {
			ores = append(ores, mk)
		}
	}
	require.Len(t, ores, 1, "one ore in the slice")
	assert.Equal(t, world.Pos(5, 40, 5), ores[0].Pos)

	m, err = Extract(snap, Options{Area: area, MaxY: intp(39)})
	require.NoError(t, err)
	_, l, _ = m.At(5, 5)
	assert.Equal(t, KindStone, l.Kind, "below the ore, stone again")

	m, err = Extract(snap, Options{Area: area, MaxY: intp(30)})
	require.NoError(t, err)
	_, l, _ = m.At(9, 9)
	assert.Equal(t, KindOre, l.Kind)
	assert.Equal(t, "Copper ore", l.Label, "a GregTech ore is named by its ore dictionary tag")
	_, l, _ = m.At(8, 9)
	assert.Equal(t, KindOre, l.Kind)
	assert.Equal(t, "ore", l.Label, "the same block without the tag: an ore of a material not known yet")
	_, l, _ = m.At(9, 8)
	assert.Equal(t, KindStone, l.Kind)
}

func TestExtractSparseBlocks(t *testing.T) {
	blocks := world.NewSparseBlocks().
		SetID(world.Pos(0, 10, 0), "minecraft:stone", 0).
		SetID(world.Pos(0, 12, 0), "minecraft:sand", 0).
		SetID(world.Pos(1, 5, 0), "minecraft:log", 0)
	snap := &world.Snapshot{Blocks: blocks}
	m, err := Extract(snap, Options{Area: Area{MaxX: 2}})
	require.NoError(t, err)
	c, l, _ := m.At(0, 0)
	assert.Equal(t, Column{Y: 12, K: c.K}, c)
	assert.Equal(t, KindSand, l.Kind)
	_, l, _ = m.At(1, 0)
	assert.Equal(t, KindLog, l.Kind)
	c, l, _ = m.At(2, 0)
	assert.Equal(t, KindVoid, l.Kind)
	assert.Equal(t, -1, c.Y)
	m, err = Extract(snap, Options{Area: Area{MaxX: 2}, MaxY: intp(11)})
	require.NoError(t, err)
	c, l, _ = m.At(0, 0)
	assert.Equal(t, KindStone, l.Kind)
	assert.Equal(t, 10, c.Y)
}

func TestExtractBounds(t *testing.T) {
	snap := &world.Snapshot{Blocks: world.NewSparseBlocks()}
	_, err := Extract(snap, Options{Area: Around(world.Pos(0, 0, 0), 1025)})
	require.ErrorIs(t, err, ErrTooLarge)
	assert.ErrorContains(t, err, "at most 2049 a side")
	_, err = Extract(snap, Options{Area: Around(world.Pos(0, 0, 0), 1024), MaxY: intp(-1)})
	assert.ErrorContains(t, err, "below the world")
	_, err = Extract(snap, Options{Area: Area{MinX: 3, MaxX: 2}})
	assert.ErrorContains(t, err, "empty")
	assert.NoError(t, Around(world.Pos(0, 0, 0), 1024).Validate(), "2049 a side")
	assert.ErrorIs(t, Area{MaxZ: 2049}.Validate(), ErrTooLarge, "2050 deep")
	huge := Area{MinX: -1 << 62, MaxX: 1 << 62}
	assert.True(t, errors.Is(huge.Validate(), ErrTooLarge))
	_, err = Extract(nil, Options{Area: Area{}})
	assert.Error(t, err)
}

func TestOverlayMarkers(t *testing.T) {
	snap := oreWorld(t)
	yaw := 90.0
	target := world.Pos(12, 64, 4)
	m, err := Extract(snap, Options{Area: Area{MaxX: 15, MaxZ: 15}, Overlay: Overlay{
		Yaw:    &yaw,
		Path:   []world.BlockPos{world.Pos(3, 64, 4), world.Pos(4, 64, 4), world.Pos(40, 64, 4)},
		Target: &target,
		Events: []Event{{Kind: EventDig, Pos: world.Pos(7, 63, 7)}, {Kind: EventPlace, Pos: world.Pos(8, 64, 7)}, {Kind: "other", Pos: world.Pos(1, 1, 1)}},
	}})
	require.NoError(t, err)
	assert.Equal(t, []world.BlockPos{world.Pos(3, 64, 4), world.Pos(4, 64, 4)}, m.Path, "the path inside the area")
	var kinds []string
	for _, mk := range m.Markers {
		kinds = append(kinds, mk.Kind)
	}
	assert.Equal(t, []string{MarkerDig, MarkerPlace, MarkerTarget, MarkerBot}, kinds)
	assert.Equal(t, &yaw, m.Markers[3].Yaw)
}

// wideWorld is 16×16 chunk columns (256×256 blocks) of stone up to y 47
// and hills of dirt, grass, sand and water above, for the benchmarks.
func wideWorld(t testing.TB) *world.Snapshot {
	t.Helper()
	st := world.NewState(world.StateOptions{Rules: rules.Default()})
	res := st.Resolver()
	state := func(name string) chunk.StateID {
		s, ok := res.State(name, 0)
		require.True(t, ok, name)
		return s
	}
	stone, dirt, grass, sand, water := state("minecraft:stone"), state("minecraft:dirt"), state("minecraft:grass"), state("minecraft:sand"), state("minecraft:water")
	st.Update(func(tx *world.Tx) {
		for cx := range 16 {
			for cz := range 16 {
				col := chunk.NewColumn(cx, cz)
				for cy := range 3 {
					col.SetSection(cy, chunk.NewUniformSection(stone))
				}
				var top [chunk.SectionVolume]chunk.StateID
				for x := range 16 {
					for z := range 16 {
						wx, wz := cx*16+x, cz*16+z
						h := 2 + (wx*7+wz*13)%12 // 50..61
						for y := range h {
							top[chunk.SectionIndex(x, y, z)] = dirt
						}
						switch {
						case h < 4:
							top[chunk.SectionIndex(x, h, z)] = water
						case h < 6:
							top[chunk.SectionIndex(x, h, z)] = sand
						default:
							top[chunk.SectionIndex(x, h, z)] = grass
						}
					}
				}
				col.SetSection(3, chunk.NewSection(&top))
				tx.LoadColumn(col)
			}
		}
		tx.MovePlayer(world.Vec3{X: 128.5, Y: 62, Z: 128.5})
	})
	return st.Snapshot()
}
