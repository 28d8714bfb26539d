package sim_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// saplingField is a flat plain of size×size with an oak sapling every
// `every` blocks in x and z (grass at 63, saplings at 64), at a fixed time
// of day (6000: noon).
func saplingField(t testing.TB, size, every, timeOfDay int, extra string) (*sim.Sim, []world.BlockPos) {
	t.Helper()
	var b strings.Builder
	var ps []world.BlockPos
	for z := 2; z < size-2; z += every {
		for x := 2; x < size-2; x += every {
			fmt.Fprintf(&b, "\n  - {block: \"minecraft:sapling\", pos: [%d, 64, %d]}", x, z)
			ps = append(ps, world.Pos(x, 64, z))
		}
	}
	sc, err := sim.ParseScenario("saplings.yaml", []byte(fmt.Sprintf(`name: saplings
seed: 11
size: {x: %d, z: %d}
generator: flat
ground_y: 63
time: %d
player:
  pos: [0, 64, 0]
  dimension: overworld
  health: 20
  food: 20
  inventory: []
blocks: %s%s
`, size, size, timeOfDay, b.String(), extra)))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s, ps
}

func waitOK(t *testing.T, s *sim.Sim, ticks int) {
	t.Helper()
	r := wait(t, s, ticks)
	require.Equal(t, ipc.OK, r.Code, r.Error)
}

// TestSaplingsGrowAtTheGamesRate: oak saplings in the light grow into
// trees after two of BlockSapling.updateTick's 1-in-7 successes, each
// random tick reaching a block 3 times in 4,096 a tick: 2 × 7 × 4096 / 3
// = 19,115 ticks on average. 400 saplings measure it within 10 % (the
// mean of 400 has a spread of about 3.5 %).
func TestSaplingsGrowAtTheGamesRate(t *testing.T) {
	if testing.Short() {
		t.Skip("grows 400 trees over about 100,000 game ticks (2 s); the rate is checked without -short")
	}
	s, ps := saplingField(t, 124, 6, 6000, "")
	require.Len(t, ps, 400)
	grownAt := map[world.BlockPos]int{}
	const step = 250
	for tick := step; len(grownAt) < len(ps) && tick <= 400_000; tick += step {
		waitOK(t, s, step)
		w := s.State().Snapshot()
		for _, p := range ps {
			if _, done := grownAt[p]; !done && w.BlockAt(p).ID == "minecraft:log" {
				grownAt[p] = tick - step/2
			}
		}
	}
	require.Len(t, grownAt, len(ps), "every sapling grew")
	sum := 0
	for _, t := range grownAt {
		sum += t
	}
	mean := float64(sum) / float64(len(ps))
	assert.InDelta(t, 19115, mean, 1912, "mean ticks to a tree")
}

// TestSaplingGrowsAnOak: the tree is WorldGenTrees' oak — a trunk of 4
// to 6 logs from the sapling's place, leaves over its top in a 5×5 and a
// 3×3 crown, the grass under it turned to dirt; a sapling changes nothing
// before its second success (the stage bit, metadata 8, comes first).
func TestSaplingGrowsAnOak(t *testing.T) {
	s, ps := saplingField(t, 16, 16, 6000, "")
	require.Len(t, ps, 1)
	p := ps[0]
	waitOK(t, s, 20)
	w := s.State().Snapshot()
	assert.Equal(t, "minecraft:sapling", w.BlockAt(p).ID, "a sapling does not grow at once")
	staged := false
	for range 400 {
		waitOK(t, s, 500)
		w = s.State().Snapshot()
		if b := w.BlockAt(p); b.ID == "minecraft:sapling" && b.Meta&8 != 0 {
			staged = true
		}
		if w.BlockAt(p).ID == "minecraft:log" {
			break
		}
	}
	require.Equal(t, "minecraft:log", w.BlockAt(p).ID, "grown within 200,000 ticks")
	assert.True(t, staged, "the stage bit was set on the way")
	trunk := 0
	for y := p.Y; w.BlockAt(world.Pos(p.X, y, p.Z)).ID == "minecraft:log"; y++ {
		trunk++
	}
	assert.GreaterOrEqual(t, trunk, 4)
	assert.LessOrEqual(t, trunk, 6)
	top := p.Y + trunk
	assert.Equal(t, "minecraft:leaves", w.BlockAt(world.Pos(p.X, top, p.Z)).ID, "leaves above the trunk")
	assert.Equal(t, "minecraft:leaves", w.BlockAt(world.Pos(p.X+2, top-3, p.Z)).ID, "the lower crown reaches 2 out")
	assert.True(t, w.BlockAt(world.Pos(p.X+2, top-1, p.Z)).IsAir(), "the upper crown only 1")
	assert.True(t, w.BlockAt(world.Pos(p.X+1, top, p.Z+1)).IsAir(), "the top layer's corners are bare")
	assert.True(t, w.BlockAt(world.Pos(p.X, top-4, p.Z+1)).IsAir(), "no leaves below the crown")
	assert.Equal(t, "minecraft:dirt", w.BlockAt(p.Down()).ID, "the grass under the tree is dirt")
	assert.True(t, w.BlockAt(p.Up()).HasTag("log"))
}

// TestSaplingNeedsLightAndRoom: at midnight (the sky's light 4 above the
// sapling, under BlockSapling's 9) nothing grows; a block two above the
// sapling leaves no room for the tree (WorldGenTrees' space check), and
// the sapling stays; a sapling whose soil is dug away pops off.
func TestSaplingNeedsLightAndRoom(t *testing.T) {
	dark, ps := saplingField(t, 16, 16, 18000, "")
	waitOK(t, dark, 200_000)
	assert.Equal(t, "minecraft:sapling", dark.State().Snapshot().BlockAt(ps[0]).ID, "no growth in the dark")
	assert.Zero(t, dark.State().Snapshot().BlockAt(ps[0]).Meta&8, "not even the stage bit")

	roofed, ps := saplingField(t, 16, 16, 6000, `
  - {block: "minecraft:stone", pos: [2, 66, 2]}`)
	waitOK(t, roofed, 200_000)
	b := roofed.State().Snapshot().BlockAt(ps[0])
	assert.Equal(t, "minecraft:sapling", b.ID, "no room: no tree")
	assert.NotZero(t, b.Meta&8, "the light was enough for the stage bit")

	bare, ps := saplingField(t, 16, 16, 6000, `
  - {block: "minecraft:air", pos: [2, 63, 2]}`)
	waitOK(t, bare, 200_000)
	assert.Equal(t, "minecraft:air", blockAt(bare, 2, 64, 2), "no soil: the sapling popped off")
	_ = ps
}

// TestPlacedSaplingGrows: a sapling the player plants gets random ticks
// too.
func TestPlacedSaplingGrows(t *testing.T) {
	s := flatPlain(t, `[{item: "minecraft:sapling", count: 1}]`, `[]`)
	r := s.Execute(context.Background(), action.PlaceBlock{Pos: world.Pos(10, 64, 8), Item: "minecraft:sapling", Face: "up"})
	require.Equal(t, ipc.OK, r.Code, r.Error)
	for range 400 {
		waitOK(t, s, 500)
		if blockAt(s, 10, 64, 8) == "minecraft:log" {
			break
		}
	}
	assert.Equal(t, "minecraft:log", blockAt(s, 10, 64, 8))
}

// BenchmarkSaplingWait is the cost of a minute's wait (1,200 ticks) over
// a tree farm of 16 saplings: their random ticks are drawn every tick of
// every action (at midnight, so nothing grows and the farm stays).
func BenchmarkSaplingWait(b *testing.B) {
	s, ps := saplingField(b, 40, 9, 18000, "")
	if len(ps) != 16 {
		b.Fatalf("%d saplings, want 16", len(ps))
	}
	for b.Loop() {
		if r := s.Execute(context.Background(), action.Wait{Ticks: 1200}); r.Code != ipc.OK {
			b.Fatal(r.Error)
		}
	}
}
