package path

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// testGrid is a small bounded world: outside its box is Unknown, except
// the open sky above it.
type testGrid struct {
	sx, sy, sz int
	c          []Cell
}

var _ Grid = (*testGrid)(nil)

func newTestGrid(sx, sy, sz int) *testGrid {
	g := &testGrid{sx: sx, sy: sy, sz: sz, c: make([]Cell, sx*sy*sz)}
	for i := range g.c {
		g.c[i] = Passable
	}
	return g
}

func (g *testGrid) Cell(x, y, z int) Cell {
	if x < 0 || x >= g.sx || z < 0 || z >= g.sz || y < 0 {
		return Unknown
	}
	if y >= g.sy {
		return Passable
	}
	return g.c[(y*g.sz+z)*g.sx+x]
}

func (g *testGrid) set(x, y, z int, c Cell) *testGrid {
	g.c[(y*g.sz+z)*g.sx+x] = c
	return g
}

// column fills x, z from y 0 up to (not including) top with solid.
func (g *testGrid) column(x, z, top int) *testGrid {
	for y := 0; y < top && y < g.sy; y++ {
		g.set(x, y, z, Solid)
	}
	return g
}

// shapeCells are the partial blocks of heightWorld's letters.
var shapeCells = map[rune]Cell{'s': Slab, 'c': Low, 'f': Fence}

// heightWorld builds a world from a map of columns, one character per
// column (rows are z, characters x): a digit is a solid column of that
// height, 'w' a height-1 floor under two blocks of water (y 1 and 2), 'l' a
// height-1 floor with lava at y 1, '#' solid up to the top of the box; 's',
// 'c' and 'f' put a slab, a carpet (Low) or a fence at y 1 on a height-1
// floor, 'S', 'C' and 'F' the same at y 2 on a height-2 floor.
func heightWorld(sy int, rows ...string) *testGrid {
	sz, sx := len(rows), len(rows[0])
	g := newTestGrid(sx, sy, sz)
	for z, row := range rows {
		if len(row) != sx {
			panic("heightWorld: ragged rows")
		}
		for x, ch := range row {
			switch {
			case ch >= '0' && ch <= '9':
				g.column(x, z, int(ch-'0'))
			case ch == 'w': // two-deep water over a height-1 floor
				g.column(x, z, 1)
				g.set(x, 1, z, Water).set(x, 2, z, Water)
			case ch == 'l': // lava pool at y 1
				g.column(x, z, 1)
				g.set(x, 1, z, Danger)
			case ch == '#':
				g.column(x, z, sy)
			case ch == 's' || ch == 'c' || ch == 'f': // a slab, carpet or fence on a height-1 floor
				g.column(x, z, 1).set(x, 1, z, shapeCells[ch])
			case ch == 'S' || ch == 'C' || ch == 'F': // the same on a height-2 floor
				g.column(x, z, 2).set(x, 2, z, shapeCells[ch+'a'-'A'])
			default:
				panic("heightWorld: bad column " + string(ch))
			}
		}
	}
	return g
}

// standable lists every position a player can stand at, in a fixed order.
func (g *testGrid) standable() []world.BlockPos {
	var out []world.BlockPos
	for y := 0; y < g.sy; y++ {
		for z := 0; z < g.sz; z++ {
			for x := 0; x < g.sx; x++ {
				if standableAt(g, x, y, z) {
					out = append(out, world.Pos(x, y, z))
				}
			}
		}
	}
	return out
}

// randomWorld is a seeded rough terrain with trees, overhangs, water and
// lava, small enough for exhaustive search from every position.
func randomWorld(seed uint64, sx, sz int) *testGrid {
	r := rand.New(rand.NewPCG(seed, 42))
	sy := 10
	g := newTestGrid(sx, sy, sz)
	h := make([]int, sx*sz)
	for i := range h {
		h[i] = 2 + r.IntN(3)
	}
	for pass := 0; pass < 2; pass++ { // smooth a little so there are slopes, not only spikes
		for z := 1; z < sz-1; z++ {
			for x := 1; x < sx-1; x++ {
				if r.IntN(3) == 0 {
					h[z*sx+x] = h[z*sx+x-1]
				}
			}
		}
	}
	for z := 0; z < sz; z++ {
		for x := 0; x < sx; x++ {
			g.column(x, z, h[z*sx+x])
		}
	}
	for i := 0; i < sx*sz/8; i++ {
		x, z := r.IntN(sx), r.IntN(sz)
		top := h[z*sx+x]
		switch r.IntN(6) {
		case 0: // tree trunk, 2-4 high
			for y := top; y < top+2+r.IntN(3) && y < sy; y++ {
				g.set(x, y, z, Solid)
			}
		case 1: // overhang: a floating block at head height
			if top+1 < sy {
				g.set(x, top+1, z, Solid)
			}
		case 2: // water replacing the top block (and one below)
			g.set(x, top-1, z, Water)
			if top >= 2 && r.IntN(2) == 0 {
				g.set(x, top-2, z, Water)
			}
		case 3: // lava
			g.set(x, top-1, z, Danger)
		case 4: // a pit
			for y := max(top-1-r.IntN(4), 1); y < top; y++ {
				g.set(x, y, z, Passable)
			}
		case 5: // a tall pillar
			for y := top; y < top+1+r.IntN(4) && y < sy; y++ {
				g.set(x, y, z, Solid)
			}
		}
	}
	if seed%2 == 0 {
		// Partial blocks on top of the ground, and a few overhead.
		for i := 0; i < sx*sz/6; i++ {
			x, z := r.IntN(sx), r.IntN(sz)
			top := h[z*sx+x]
			if g.Cell(x, top, z) != Passable {
				continue
			}
			g.set(x, top, z, [...]Cell{Slab, Slab, Low, Fence}[r.IntN(4)])
			if r.IntN(4) == 0 && top+2 < sy {
				g.set(x, top+2, z, Solid)
			}
		}
	}
	return g
}

func TestHeightWorld(t *testing.T) {
	g := heightWorld(6, "12", "w#")
	assert.Equal(t, Solid, g.Cell(0, 0, 0))
	assert.Equal(t, Passable, g.Cell(0, 1, 0))
	assert.Equal(t, Solid, g.Cell(1, 1, 0))
	assert.Equal(t, Water, g.Cell(0, 2, 1))
	assert.Equal(t, Solid, g.Cell(1, 5, 1))
	assert.Equal(t, Passable, g.Cell(1, 6, 1), "open sky above the box")
	assert.Equal(t, Unknown, g.Cell(-1, 1, 0))
	assert.Equal(t, Unknown, g.Cell(0, -1, 0))
	assert.Equal(t, []world.BlockPos{world.Pos(0, 1, 0), world.Pos(0, 1, 1), world.Pos(1, 2, 0), world.Pos(0, 2, 1)}, g.standable())
}

func TestClassifyByTags(t *testing.T) {
	for _, c := range []struct {
		b    world.Block
		want Cell
	}{
		{world.Air, Passable},
		{world.Block{ID: "minecraft:air"}, Passable},
		{world.NewBlock("minecraft:stone", 0), Solid},
		{world.NewBlock("minecraft:log", 0), Solid},
		{world.NewBlock("minecraft:leaves", 0), Solid},
		{world.NewBlock("minecraft:tallgrass", 1), Passable},
		{world.NewBlock("minecraft:sapling", 0), Passable},
		{world.NewBlock("minecraft:water", 0), Water},
		{world.NewBlock("minecraft:flowing_water", 3), Water},
		{world.NewBlock("minecraft:lava", 0), Danger},
		{world.NewBlock("minecraft:fire", 0), Danger},
		{world.NewBlock("minecraft:cactus", 0), Danger},
		{world.NewBlock("minecraft:torch", 1), Passable},
		{world.NewBlock("gregtech:gt.blockmachines", 1), Solid},
		{world.Block{ID: "SomeMod:mysteryBlock"}, Solid},
		{world.Block{ID: "SomeMod:acid", Tags: []string{"liquid", "hazard"}}, Danger},
		{world.Block{ID: "SomeMod:oil", Tags: []string{"liquid"}}, Water},
	} {
		assert.Equal(t, c.want, ClassifyByTags(c.b), "%s", c.b.ID)
	}
}

// loadedBlocks is a SparseBlocks that knows only x, z in 0..15.
type loadedBlocks struct{ *world.SparseBlocks }

func (l loadedBlocks) Loaded(p world.BlockPos) bool {
	return p.X >= 0 && p.X < 16 && p.Z >= 0 && p.Z < 16
}

func TestBlockGrid(t *testing.T) {
	src := world.NewSparseBlocks()
	for x := 0; x < 16; x++ {
		for z := 0; z < 16; z++ {
			src.SetID(world.Pos(x, 0, z), "minecraft:grass", 0)
		}
	}
	src.SetID(world.Pos(3, 1, 3), "minecraft:lava", 0)
	src.SetID(world.Pos(4, 1, 3), "minecraft:tallgrass", 1)
	src.SetID(world.Pos(5, 1, 3), "minecraft:water", 0)

	g := NewBlockGrid(loadedBlocks{src}, nil)
	require.NotNil(t, g.Loaded, "a LoadedReporter source fills Loaded")
	assert.Equal(t, Solid, g.Cell(0, 0, 0))
	assert.Equal(t, Passable, g.Cell(0, 1, 0))
	assert.Equal(t, Danger, g.Cell(3, 1, 3))
	assert.Equal(t, Passable, g.Cell(4, 1, 3))
	assert.Equal(t, Water, g.Cell(5, 1, 3))
	assert.Equal(t, Unknown, g.Cell(16, 1, 0), "outside the loaded area")
	assert.Equal(t, Unknown, g.Cell(0, -1, 0), "below the world")
	assert.Equal(t, Passable, g.Cell(0, 256, 0), "above the world")

	plain := NewBlockGrid(src, func(b world.Block) Cell {
		if b.IsAir() {
			return Passable
		}
		return Solid
	})
	assert.Nil(t, plain.Loaded)
	assert.Equal(t, Passable, plain.Cell(100, 1, 100), "without a LoadedReporter unknown positions read as air")
	assert.Equal(t, Solid, plain.Cell(3, 1, 3), "custom classifier")

	// The pathfinder walks around the lava over a BlockGrid.
	res, err := Find(g, world.Pos(2, 1, 3), At(world.Pos(4, 1, 3)), Options{})
	require.NoError(t, err)
	require.True(t, res.Complete)
	for _, p := range res.Path() {
		assert.NotEqual(t, world.Pos(3, 1, 3), p)
	}
	checkPath(t, g, res, Options{})
}

func TestBenchGrid(t *testing.T) {
	w := sharedWorld()
	g := NewBenchGrid(w)
	assert.Equal(t, Solid, g.Cell(10, 0, 10), "bedrock")
	assert.Equal(t, Unknown, g.Cell(-1, 70, 10))
	assert.Equal(t, Unknown, g.Cell(10, -1, 10))
	assert.Equal(t, Unknown, g.Cell(256, 70, 10))
	assert.Equal(t, Passable, g.Cell(10, 300, 10))
	top := int(w.Top[190*benchworld.SX+50])
	assert.Equal(t, Water, g.Cell(50, top, 190), "the pond")
	var sawGrass bool
	for z := 0; z < benchworld.SZ && !sawGrass; z++ {
		for x := 0; x < benchworld.SX; x++ {
			h := int(w.Top[z*benchworld.SX+x])
			if w.ID(x, h+1, z) == benchworld.TallGrass {
				assert.Equal(t, Passable, g.Cell(x, h+1, z))
				sawGrass = true
				break
			}
		}
	}
	assert.True(t, sawGrass)
	for id, want := range map[int]Cell{benchworld.Air: Passable, benchworld.Stone: Solid, benchworld.Grass: Solid,
		benchworld.Log: Solid, benchworld.Leaves: Solid, benchworld.TallGrass: Passable, benchworld.Water: Water,
		benchworld.Cobblestone: Solid, 10: Danger, 51: Danger, 81: Danger, 50: Passable, 3000: Solid} {
		assert.Equal(t, want, LegacyCell(id), "id %d", id)
	}
}

func TestCellAndMoveNames(t *testing.T) {
	assert.Equal(t, "water", Water.String())
	assert.Equal(t, "cell(9)", Cell(9).String())
	assert.Equal(t, "dig_down", MoveDigDown.String())
	assert.Equal(t, "move(99)", Move(99).String())
	var names []string
	for m := MoveStart; m <= MoveDigDown; m++ {
		names = append(names, m.String())
	}
	assert.Equal(t, "start walk swim jump drop swim_up swim_down bridge pillar dig_down", strings.Join(names, " "))
	assert.Equal(t, Solid, GridFunc(func(x, y, z int) Cell { return Solid }).Cell(0, 0, 0))
}
