package web

import (
	"github.com/gtnh-agent/gtnh-agent/view/mapview"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Bounds of a map request.
const (
	// MaxRadius is the largest map radius, in blocks (a square of
	// 2·MaxRadius+1 columns on a side).
	MaxRadius = 64
	// DefaultRadius is the radius of a request that names none.
	DefaultRadius = 48
	topY          = mapview.TopY
)

// OreMark is an ore on the map, named by its material as the map picture
// names it ("Copper ore").
type OreMark struct {
	Pos  world.BlockPos `json:"pos"`
	Name string         `json:"name"`
}

// Grid is the map the page draws: mapview's extraction of the world from
// above (the same columns, looks and palette as agent map's picture), in a
// compact form. Columns run west to east, then north to south: column
// (x, z) is index (z−Z0)·W + (x−X0), its look Looks[K[i]] and its height
// Y[i] (−1 where nothing is known or only air lies below MaxY). A page
// shades a column by mapview.Shade(Y, the Y of the column north of it).
type Grid struct {
	X0    int            `json:"x0"`
	Z0    int            `json:"z0"`
	W     int            `json:"w"`
	H     int            `json:"h"`
	MaxY  int            `json:"max_y"`
	Looks []mapview.Look `json:"looks"`
	K     []int          `json:"k"`
	Y     []int          `json:"y"`
	Ores  []OreMark      `json:"ores"`
}

// ColumnGrid reads the columns within r blocks of (cx, cz) (r is clamped
// to 1..MaxRadius) from the top of the world, or from maxY down when
// maxY < 255 (a depth slice that shows what lies under it).
func ColumnGrid(s *world.Snapshot, cx, cz, r, maxY int) Grid {
	r = min(max(r, 1), MaxRadius)
	maxY = min(max(maxY, 0), topY)
	side := 2*r + 1
	g := Grid{X0: cx - r, Z0: cz - r, W: side, H: side, MaxY: maxY,
		K: make([]int, side*side), Y: make([]int, side*side), Ores: []OreMark{}}
	var m *mapview.Map
	if s != nil {
		opts := mapview.Options{Area: mapview.Around(world.Pos(cx, 0, cz), r)}
		if maxY < topY {
			opts.MaxY = &maxY
		}
		m, _ = mapview.Extract(s, opts) // the area and depth are within bounds
	}
	if m == nil {
		for _, l := range mapview.Kinds() {
			if l.Kind == mapview.KindUnknown {
				g.Looks = []mapview.Look{l}
			}
		}
		for i := range g.Y {
			g.Y[i] = -1
		}
		return g
	}
	g.Looks = m.Looks
	for i, c := range m.Columns {
		g.K[i], g.Y[i] = c.K, c.Y
	}
	for _, mk := range m.Markers {
		if mk.Kind == mapview.MarkerOre {
			g.Ores = append(g.Ores, OreMark{Pos: mk.Pos, Name: mk.Label})
		}
	}
	return g
}
