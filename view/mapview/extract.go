package mapview

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Bounds of what Extract reads.
const (
	// MaxSide is the most blocks an area may have on a side (a radius of
	// 1024 around a centre): 4 million columns.
	MaxSide = 2049
	// TopY is the highest block of the world; an Options.MaxY above it is
	// the surface.
	TopY = chunk.WorldHeight - 1
	// MaxMarkers bounds the ore and machine markers of one map; the nearest
	// to the centre are kept.
	MaxMarkers = 4096
)

// ErrTooLarge is wrapped by the errors of an area or image over the bounds.
var ErrTooLarge = errors.New("too large")

// Area is a rectangle of columns, corners included.
type Area struct {
	MinX int `json:"min_x"`
	MinZ int `json:"min_z"`
	MaxX int `json:"max_x"`
	MaxZ int `json:"max_z"`
}

// Around is the square of columns within radius blocks of the centre's
// column (2·radius+1 on a side).
func Around(center world.BlockPos, radius int) Area {
	return Area{MinX: center.X - radius, MinZ: center.Z - radius, MaxX: center.X + radius, MaxZ: center.Z + radius}
}

// Width is the number of columns from west to east (x).
func (a Area) Width() int { return a.MaxX - a.MinX + 1 }

// Depth is the number of columns from north to south (z).
func (a Area) Depth() int { return a.MaxZ - a.MinZ + 1 }

// Contains reports whether the column of p lies in the area.
func (a Area) Contains(p world.BlockPos) bool {
	return p.X >= a.MinX && p.X <= a.MaxX && p.Z >= a.MinZ && p.Z <= a.MaxZ
}

// Validate checks that the area is not empty and at most MaxSide a side.
func (a Area) Validate() error {
	if a.MaxX < a.MinX || a.MaxZ < a.MinZ {
		return fmt.Errorf("map area: empty (x %d..%d, z %d..%d)", a.MinX, a.MaxX, a.MinZ, a.MaxZ)
	}
	// Max ≥ Min here, so the difference as unsigned is exact even where
	// the signed one wraps (bounds near the int limits).
	if w, d := uint64(a.MaxX-a.MinX)+1, uint64(a.MaxZ-a.MinZ)+1; w > MaxSide || d > MaxSide || w == 0 || d == 0 {
		return fmt.Errorf("map area: %d×%d columns is %w (at most %d a side: a radius of at most %d)", w, d, ErrTooLarge, MaxSide, (MaxSide-1)/2)
	}
	return nil
}

// Options choose what Extract reads.
type Options struct {
	Area Area `json:"area"`
	// MaxY, when set, is the depth filter: the highest block looked at, so
	// that a map at MaxY 40 shows what lies at y 40 and below (caves,
	// ores under the surface). Nil looks from the top of the world.
	MaxY *int `json:"max_y,omitempty"`
	// Overlay is what the caller knows beyond the snapshot.
	Overlay Overlay `json:"overlay"`
}

// Overlay is what a map shows that a snapshot does not hold.
type Overlay struct {
	// Yaw is the bot's facing in degrees, as the game counts it (0 faces
	// south, +z; 90 west, -x; 180 north; 270 east); nil when unknown.
	Yaw *float64 `json:"yaw,omitempty"`
	// Path is the planned path of the current move, feet positions in
	// order; Target is where the move goes.
	Path   []world.BlockPos `json:"path,omitempty"`
	Target *world.BlockPos  `json:"target,omitempty"`
	// Events are the digs and placements to mark, oldest first.
	Events []Event `json:"events,omitempty"`
}

// Event kinds.
const (
	EventDig   = "dig"
	EventPlace = "place"
)

// Event is a block the bot dug or placed.
type Event struct {
	Kind  string         `json:"kind"` // EventDig or EventPlace
	Pos   world.BlockPos `json:"pos"`
	Block string         `json:"block,omitempty"`
	Tick  int64          `json:"tick,omitempty"`
}

// Column is one column of a map: the height of its top visible block and
// the index of its look in Map.Looks. Y is -1 for a column with no block
// (KindUnknown, KindVoid).
type Column struct {
	Y int `json:"y"`
	K int `json:"k"`
}

// Marker kinds.
const (
	MarkerBot     = "bot"
	MarkerMachine = "machine"
	MarkerOre     = "ore"
	MarkerTarget  = "target"
	MarkerDig     = EventDig
	MarkerPlace   = EventPlace
)

// Marker is something drawn over the columns.
type Marker struct {
	Kind  string         `json:"kind"`
	Pos   world.BlockPos `json:"pos"`
	Label string         `json:"label,omitempty"`
	// Yaw is the bot's facing (MarkerBot only, when known).
	Yaw *float64 `json:"yaw,omitempty"`
}

// Map is a top-down view of the world model: Columns row by row from north
// to south (z), each row from west to east (x), so the column at (x, z) is
// Columns[(z-Area.MinZ)*Area.Width() + x-Area.MinX].
type Map struct {
	Tick    int64    `json:"tick"`
	Area    Area     `json:"area"`
	MaxY    *int     `json:"max_y,omitempty"`
	Looks   []Look   `json:"looks"`
	Columns []Column `json:"columns"`
	// Markers: machines, then ores, then digs and placements, then the
	// move's target, then the bot (the order they are drawn in).
	Markers []Marker `json:"markers,omitempty"`
	// Path is the planned path of the current move, inside the area.
	Path []world.BlockPos `json:"path,omitempty"`
}

// At returns the column at (x, z) and its look; ok is false outside the
// area.
func (m *Map) At(x, z int) (Column, Look, bool) {
	if !m.Area.Contains(world.Pos(x, 0, z)) {
		return Column{}, Look{}, false
	}
	c := m.Columns[(z-m.Area.MinZ)*m.Area.Width()+x-m.Area.MinX]
	return c, m.Looks[c.K], true
}

// Extract reads the map of a snapshot: the top visible block of every
// column of opts.Area at or below opts.MaxY, and the markers.
func Extract(snap *world.Snapshot, opts Options) (*Map, error) {
	if snap == nil {
		return nil, errors.New("map: no snapshot")
	}
	a := opts.Area
	if err := a.Validate(); err != nil {
		return nil, err
	}
	top := TopY
	if opts.MaxY != nil {
		if *opts.MaxY < 0 {
			return nil, fmt.Errorf("map: the depth filter's highest y %d is below the world (0..%d)", *opts.MaxY, TopY)
		}
		top = min(*opts.MaxY, TopY)
	}
	m := &Map{Tick: snap.Tick, Area: a, MaxY: opts.MaxY, Columns: make([]Column, a.Width()*a.Depth())}
	x := newExtractor(snap, m)
	var ores []Marker
	for z := a.MinZ; z <= a.MaxZ; z++ {
		row := (z - a.MinZ) * a.Width()
		for cx := a.MinX; cx <= a.MaxX; cx++ {
			c, look, isOre := x.column(cx, z, top)
			m.Columns[row+cx-a.MinX] = c
			if isOre {
				ores = append(ores, Marker{Kind: MarkerOre, Pos: world.Pos(cx, c.Y, z), Label: look.Label})
			}
		}
	}
	m.Markers = markers(snap, m, ores, opts.Overlay)
	for _, p := range opts.Overlay.Path {
		if a.Contains(p) {
			m.Path = append(m.Path, p)
		}
	}
	return m, nil
}

// extractor finds the top blocks of columns, reading chunk storage
// directly when the snapshot has it.
type extractor struct {
	snap     *world.Snapshot
	m        *Map
	chunks   *chunk.Chunks
	plain    bool                     // the blocks are chunks alone: no position carries tags
	machines map[[2]int]world.Machine // by column: the highest machine
	looks    map[Look]int
	byState  map[chunk.StateID]stateLook
}

// stateLook is the look of a chunk state without position tags.
type stateLook struct {
	k     int
	ntags int
	ore   bool
}

func newExtractor(snap *world.Snapshot, m *Map) *extractor {
	x := &extractor{snap: snap, m: m, looks: map[Look]int{}, byState: map[chunk.StateID]stateLook{}, machines: map[[2]int]world.Machine{}}
	x.chunks, _ = world.ChunksOf(snap.Blocks)
	_, x.plain = snap.Blocks.(*chunk.Chunks)
	for _, mc := range snap.Machines {
		k := [2]int{mc.Pos.X, mc.Pos.Z}
		if old, ok := x.machines[k]; !ok || mc.Pos.Y > old.Pos.Y {
			x.machines[k] = mc
		}
	}
	return x
}

// look returns the index of l in the map's looks, adding it.
func (x *extractor) look(l Look) int {
	if k, ok := x.looks[l]; ok {
		return k
	}
	k := len(x.m.Looks)
	x.m.Looks = append(x.m.Looks, l)
	x.looks[l] = k
	return k
}

// column returns the column at (cx, z) seen from top down.
func (x *extractor) column(cx, z, top int) (Column, Look, bool) {
	p := world.Pos(cx, 0, z)
	var col *chunk.Column
	if x.chunks != nil {
		col = x.chunks.Column(cx>>4, z>>4) // loaded exactly when known
	}
	if (x.chunks != nil && col == nil) || (x.chunks == nil && !x.snap.Known(p)) {
		l := lookOf(KindUnknown, KindUnknown)
		return Column{Y: -1, K: x.look(l)}, l, false
	}
	y, st := x.topOf(col, cx, z, top)
	if y < 0 {
		l := lookOf(KindVoid, KindVoid)
		return Column{Y: -1, K: x.look(l)}, l, false
	}
	p.Y = y
	mc, hasMachine := x.machines[[2]int{cx, z}]
	if hasMachine && mc.Pos.Y == y {
		l := Classify(world.Air, mc.Kind)
		return Column{Y: y, K: x.look(l)}, l, false
	}
	if x.plain {
		if sl, ok := x.byState[st]; ok {
			return Column{Y: y, K: sl.k}, x.m.Looks[sl.k], sl.ore
		}
	}
	b := x.snap.BlockAt(p)
	if x.chunks != nil {
		// The look of a state is the same everywhere unless the position
		// carries tags of its own (a GregTech ore told apart by its tile).
		if sl, ok := x.byState[st]; ok && sl.ntags == len(b.Tags) {
			return Column{Y: y, K: sl.k}, x.m.Looks[sl.k], sl.ore
		}
	}
	l := Classify(b, "")
	k := x.look(l)
	if x.chunks != nil && len(b.Tags) == len(x.chunks.Resolver().Block(st).Tags) {
		x.byState[st] = stateLook{k: k, ntags: len(b.Tags), ore: l.Kind == KindOre}
	}
	return Column{Y: y, K: k}, l, l.Kind == KindOre
}

// topOf returns the y of the highest non-air block at or below top, and its
// state when the snapshot has chunk storage (col is the column's); -1 when
// there is none.
func (x *extractor) topOf(col *chunk.Column, cx, z, top int) (int, chunk.StateID) {
	if col == nil {
		for y := top; y >= 0; y-- {
			if !x.snap.BlockAt(world.Pos(cx, y, z)).IsAir() {
				return y, chunk.AirState
			}
		}
		return -1, chunk.AirState
	}
	for cy := top >> 4; cy >= 0; cy-- {
		sec := col.Section(cy)
		if sec == nil || sec.IsEmpty() {
			continue
		}
		for y := min(top, cy<<4|15); y >= cy<<4; y-- {
			if st := sec.Get(cx&15, y&15, z&15); !st.IsAir() {
				return y, st
			}
		}
	}
	return -1, chunk.AirState
}

// markers collects the markers of a map in drawing order.
func markers(snap *world.Snapshot, m *Map, ores []Marker, ov Overlay) []Marker {
	a := m.Area
	cx, cz := float64(a.MinX+a.MaxX)/2, float64(a.MinZ+a.MaxZ)/2
	near := func(list []Marker) []Marker {
		if len(list) <= MaxMarkers {
			return list
		}
		d := func(p world.BlockPos) float64 { return math.Hypot(float64(p.X)-cx, float64(p.Z)-cz) }
		slices.SortStableFunc(list, func(x, y Marker) int {
			if dx, dy := d(x.Pos), d(y.Pos); dx != dy {
				if dx < dy {
					return -1
				}
				return 1
			}
			return 0
		})
		return list[:MaxMarkers]
	}
	var mach []Marker
	for _, mc := range snap.Machines {
		if a.Contains(mc.Pos) {
			mach = append(mach, Marker{Kind: MarkerMachine, Pos: mc.Pos, Label: mc.Kind})
		}
	}
	out := append(near(mach), near(ores)...)
	var events []Marker
	for _, e := range ov.Events {
		if a.Contains(e.Pos) && (e.Kind == EventDig || e.Kind == EventPlace) {
			events = append(events, Marker{Kind: e.Kind, Pos: e.Pos, Label: e.Block})
		}
	}
	if len(events) > MaxMarkers {
		events = events[len(events)-MaxMarkers:] // the latest
	}
	out = append(out, events...)
	if ov.Target != nil && a.Contains(*ov.Target) {
		out = append(out, Marker{Kind: MarkerTarget, Pos: *ov.Target})
	}
	if feet := snap.Feet(); a.Contains(feet) {
		out = append(out, Marker{Kind: MarkerBot, Pos: feet, Label: snap.Player.Name, Yaw: ov.Yaw})
	}
	return out
}
