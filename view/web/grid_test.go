package web_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/view/mapview"
	"github.com/gtnh-agent/gtnh-agent/view/web"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestColumnGrid: mapview's extraction in the page's form: each column's top block and height, water and lava by
// kind, GregTech ores named by their ore dictionary tag and marked below
// the surface, and columns the world does not know left out.
func TestColumnGrid(t *testing.T) {
	b := world.NewSparseBlocks()
	b.SetID(world.Pos(0, 64, 0), "minecraft:grass", 0)
	b.SetID(world.Pos(1, 62, 0), "minecraft:water", 0)
	b.SetID(world.Pos(-1, 11, 0), "minecraft:lava", 0)
	ore := world.NewBlock("gregtech:gt.blockores", 0)
	ore.Tags = append(ore.Tags, "ore:oreBrownLimonite")
	b.Set(world.Pos(0, 30, 1), ore)
	b.SetID(world.Pos(0, 50, 1), "minecraft:stone", 0)
	s := &world.Snapshot{Blocks: b}
	g := web.ColumnGrid(s, 0, 0, 1, 255)
	require.Equal(t, 3, g.W)
	at := func(x, z int) (mapview.Look, int) {
		i := (z-g.Z0)*g.W + (x - g.X0)
		return g.Looks[g.K[i]], g.Y[i]
	}
	l, y := at(0, 0)
	assert.Equal(t, "grass", l.Kind)
	assert.Equal(t, 64, y)
	l, y = at(1, 0)
	assert.Equal(t, "water", l.Kind)
	assert.Equal(t, 62, y)
	l, _ = at(-1, 0)
	assert.Equal(t, "lava", l.Kind)
	l, y = at(0, 1)
	assert.Equal(t, "stone", l.Kind, "the ore lies under the stone")
	assert.Equal(t, 50, y)
	l, y = at(1, 1)
	assert.Equal(t, -1, y, "nothing there")
	assert.Equal(t, mapview.KindVoid, l.Kind)
	assert.Empty(t, g.Ores, "an ore under the surface is not on the surface map")

	g = web.ColumnGrid(s, 0, 0, 1, 40)
	l, y = at(0, 1)
	assert.Equal(t, "ore", l.Kind, "the slice at y 40 shows the ore")
	assert.Equal(t, "Brown Limonite ore", l.Label)
	assert.Equal(t, 30, y)
	require.Len(t, g.Ores, 1)
	assert.Equal(t, "Brown Limonite ore", g.Ores[0].Name)
	assert.Equal(t, world.Pos(0, 30, 1), g.Ores[0].Pos)
	g = web.ColumnGrid(s, 0, 0, 1, 20)
	assert.Empty(t, g.Ores, "an ore above the slice is not marked")

	g = web.ColumnGrid(nil, 5, 5, 500, 999)
	assert.Equal(t, 2*web.MaxRadius+1, g.W, "the radius is clamped")
	assert.Equal(t, 255, g.MaxY)
	for i, k := range g.K {
		require.Equal(t, mapview.KindUnknown, g.Looks[k].Kind)
		require.Equal(t, -1, g.Y[i])
	}
}

func TestTimeOfDay(t *testing.T) {
	for tick, want := range map[int64]string{0: "06:00", 6000: "12:00", 18000: "00:00", 23999: "05:59", 24000 + 1000: "07:00", -1000: "05:00"} {
		assert.Equal(t, want, web.TimeOfDay(tick), "tick %d", tick)
	}
}
