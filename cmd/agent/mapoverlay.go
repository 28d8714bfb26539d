package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/view/mapview"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// mapTracker follows a run's steps for its map: the blocks dug and placed,
// the last move and which way the bot faced last.
type mapTracker struct {
	mu     sync.Mutex
	events []mapview.Event // the latest mapview.MaxMarkers
	yaw    *float64
	move   *lastMove
}

// lastMove is the last move_to that ran: where it started and where it went.
type lastMove struct {
	from   world.BlockPos
	target world.BlockPos
	radius float64
}

// step takes one finished step: each action that ran with its result.
func (t *mapTracker) step(r loop.StepRecord) {
	t.mu.Lock()
	defer t.mu.Unlock()
	pos := r.Before.Pos
	for i, res := range r.Results {
		if i >= len(r.Actions) {
			break
		}
		pos = t.acted(pos, r.Actions[i].Action, res, r.Before.Tick)
	}
}

// action takes one action a served body executed (agent serve) from feet
// at pos, and returns where the feet are after it.
func (t *mapTracker) action(pos world.BlockPos, a action.Action, res ipc.Result, tick int64) world.BlockPos {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.acted(pos, a, res, tick)
}

// acted marks one action that ran from feet at pos, and returns where the
// feet are after it (t.mu held).
func (t *mapTracker) acted(pos world.BlockPos, a action.Action, res ipc.Result, tick int64) world.BlockPos {
	switch a := a.(type) {
	case action.MoveTo:
		if res.Code == ipc.OK || res.Code == ipc.Unreachable || res.Code == ipc.Timeout {
			t.move = &lastMove{from: pos, target: a.Pos, radius: a.Radius}
		}
		if to, ok := detailPos(res.Details, "to"); ok && res.OK() {
			t.face(pos, to)
			pos = to
		}
	case action.BreakBlock:
		if res.OK() {
			t.face(pos, a.Pos)
			t.add(mapview.Event{Kind: mapview.EventDig, Pos: a.Pos, Tick: tick})
		}
	case action.PlaceBlock:
		if res.OK() {
			t.face(pos, a.Pos)
			t.add(mapview.Event{Kind: mapview.EventPlace, Pos: a.Pos, Block: a.Item, Tick: tick})
		}
	case action.Interact:
		if a.Pos != nil && res.OK() {
			t.face(pos, *a.Pos)
		}
	case action.OpenContainer:
		if res.OK() {
			t.face(pos, a.Pos)
		}
	}
	return pos
}

func (t *mapTracker) add(e mapview.Event) {
	if len(t.events) == mapview.MaxMarkers {
		t.events = slices.Delete(t.events, 0, 1)
	}
	t.events = append(t.events, e)
}

// face turns the bot from one position towards another (unchanged when
// they share a column).
func (t *mapTracker) face(from, to world.BlockPos) {
	dx, dz := float64(to.X-from.X), float64(to.Z-from.Z)
	if dx == 0 && dz == 0 {
		return
	}
	yaw := math.Mod(math.Atan2(-dx, dz)*180/math.Pi+360, 360)
	t.yaw = &yaw
}

// detailPos reads a block position from an action result's details: a
// world.BlockPos in this process, a JSON object from a trace or a body
// over the wire.
func detailPos(details map[string]any, key string) (world.BlockPos, bool) {
	v, ok := details[key]
	if !ok {
		return world.BlockPos{}, false
	}
	if p, ok := v.(world.BlockPos); ok {
		return p, true
	}
	data, err := json.Marshal(v)
	if err != nil {
		return world.BlockPos{}, false
	}
	var p world.BlockPos
	return p, json.Unmarshal(data, &p) == nil && strings.Contains(string(data), `"x"`)
}

// overlay is what the map shows beyond the snapshot: the facing, the
// digs and placements, and the path of the last move as the pathfinder
// plans it from where the move started, in the world of snap.
func (t *mapTracker) overlay(snap *world.Snapshot) mapview.Overlay {
	t.mu.Lock()
	defer t.mu.Unlock()
	ov := mapview.Overlay{Yaw: t.yaw, Events: slices.Clone(t.events)}
	if t.move != nil && snap.Blocks != nil {
		target := t.move.target
		ov.Target = &target
		ov.Path = plannedPath(snap, t.move.from, path.Near(target, t.move.radius))
	}
	return ov
}

// pathNodes bounds the search for a map's path: a map is drawn once, at
// the end, and never waits long for it.
const pathNodes = 200_000

// plannedPath is the walking path from start to goal, or one that digs and
// places when there is none; the best partial path when neither is found.
func plannedPath(snap *world.Snapshot, start world.BlockPos, goal path.Target) []world.BlockPos {
	g := path.NewBlockGrid(snap.Blocks, path.ClassifyByTags)
	res, err := path.Find(g, start, goal, path.Options{MaxNodes: pathNodes})
	if err == nil && !res.Complete {
		if dug, err := path.Find(g, start, goal, path.Options{MaxNodes: pathNodes, Dig: true, Place: true}); err == nil && dug.Complete {
			res = dug
		}
	}
	if err != nil {
		return nil
	}
	return res.Path()
}

// mapFlags are the flags of a map picture: where, how large, how deep.
type mapFlags struct {
	center        string
	radius, scale int
	maxY          int
	asJSON        bool

	// Set by check.
	centerX, centerZ int
	hasCenter        bool
}

// defaultMapRadius is the blocks a map shows on each side of its centre.
const defaultMapRadius = 48

// register adds the flags to fs, each name after prefix ("map-" for agent
// run, where they sit beside --map-out).
func (f *mapFlags) register(fsSet *flag.FlagSet, prefix string) {
	fsSet.StringVar(&f.center, prefix+"center", "", "the column X,Z at the centre of the map (default: the bot's)")
	fsSet.IntVar(&f.radius, prefix+"radius", defaultMapRadius, fmt.Sprintf("blocks shown on each side of the centre (1..%d)", (mapview.MaxSide-1)/2))
	fsSet.IntVar(&f.scale, prefix+"scale", mapview.DefaultScale, fmt.Sprintf("pixels per block (1..%d)", mapview.MaxScale))
	fsSet.IntVar(&f.maxY, prefix+"max-y", -1, fmt.Sprintf("show what lies at this height and below: caves, ores under the surface (0..%d; -1: from the top)", mapview.TopY))
	if prefix == "" {
		fsSet.BoolVar(&f.asJSON, "json", false, "write the map as JSON (columns, looks, markers) instead of a PNG")
	}
}

// check validates the flags, with the flag names as the command spells
// them.
func (f *mapFlags) check(cmd, prefix string) error {
	if f.radius < 1 || f.radius > (mapview.MaxSide-1)/2 {
		return usagef("%s: --%sradius %d: want 1..%d blocks", cmd, prefix, f.radius, (mapview.MaxSide-1)/2)
	}
	if f.maxY < -1 || f.maxY > mapview.TopY {
		return usagef("%s: --%smax-y %d: want 0..%d, or -1 to look from the top", cmd, prefix, f.maxY, mapview.TopY)
	}
	if f.scale < 1 || f.scale > mapview.MaxScale {
		return usagef("%s: --%sscale %d: want 1..%d pixels per block", cmd, prefix, f.scale, mapview.MaxScale)
	}
	if !f.asJSON {
		if _, _, err := mapview.ImageSize(mapview.Around(world.BlockPos{}, f.radius), mapview.RenderOptions{Scale: f.scale}); err != nil {
			return usagef("%s: --%sscale %d with --%sradius %d: %v", cmd, prefix, f.scale, prefix, f.radius, err)
		}
	}
	if f.center != "" {
		xs, zs, ok := strings.Cut(f.center, ",")
		x, errX := strconv.Atoi(strings.TrimSpace(xs))
		z, errZ := strconv.Atoi(strings.TrimSpace(zs))
		if !ok || errX != nil || errZ != nil || x < -30_000_000 || x > 30_000_000 || z < -30_000_000 || z > 30_000_000 {
			return usagef("%s: --%scenter %q: want the column as X,Z, e.g. 24,32 (within the world's ±30,000,000)", cmd, prefix, f.center)
		}
		f.centerX, f.centerZ, f.hasCenter = x, z, true
	}
	return nil
}

// drawnMap is a map written to a file, for the lines that report it.
type drawnMap struct {
	m             *mapview.Map
	width, height int // pixels; 0 for JSON
}

// writeMap draws the map of snap with the tracker's overlay (nil: none)
// and writes it to file as a PNG, or as JSON.
func (f *mapFlags) writeMap(file string, snap *world.Snapshot, t *mapTracker) (*drawnMap, error) {
	center := snap.Feet()
	if f.hasCenter {
		center = world.Pos(f.centerX, 0, f.centerZ)
	}
	opts := mapview.Options{Area: mapview.Around(center, f.radius)}
	if f.maxY >= 0 {
		y := f.maxY
		opts.MaxY = &y
	}
	if t != nil {
		opts.Overlay = t.overlay(snap)
	}
	m, err := mapview.Extract(snap, opts)
	if err != nil {
		return nil, err
	}
	out, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	d := &drawnMap{m: m}
	if f.asJSON {
		enc := json.NewEncoder(out)
		err = enc.Encode(m)
	} else {
		img, rerr := mapview.Render(m, mapview.RenderOptions{Scale: f.scale})
		if rerr != nil {
			out.Close()
			return nil, rerr
		}
		d.width, d.height = img.Bounds().Dx(), img.Bounds().Dy()
		err = mapview.WritePNG(out, img)
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", file, err)
	}
	return d, nil
}

// report prints what a map shows: its size, the bot, the kinds of columns
// with their colours (the legend) and the markers.
func (d *drawnMap) report(w io.Writer, file string, scale int) {
	a := d.m.Area
	if d.width > 0 {
		fmt.Fprintf(w, "wrote %s: %d×%d pixels, %d×%d columns (x %d..%d, z %d..%d), %d pixels a block\n",
			file, d.width, d.height, a.Width(), a.Depth(), a.MinX, a.MaxX, a.MinZ, a.MaxZ, scale)
	} else {
		fmt.Fprintf(w, "wrote %s: %d×%d columns (x %d..%d, z %d..%d) as JSON\n", file, a.Width(), a.Depth(), a.MinX, a.MaxX, a.MinZ, a.MaxZ)
	}
	if d.m.MaxY != nil {
		fmt.Fprintf(w, "depth: at y %d and below\n", *d.m.MaxY)
	}
	counts := map[int]int{}
	for _, c := range d.m.Columns {
		counts[c.K]++
	}
	ks := slices.SortedFunc(maps.Keys(counts), func(x, y int) int {
		return cmp.Or(cmp.Compare(counts[y], counts[x]), cmp.Compare(d.m.Looks[x].Label, d.m.Looks[y].Label))
	})
	fmt.Fprintln(w, "columns:")
	for _, k := range ks {
		l := d.m.Looks[k]
		fmt.Fprintf(w, "  %-24s %s %7d\n", l.Label, l.Color, counts[k])
	}
	marks := map[string]int{}
	for _, mk := range d.m.Markers {
		marks[mk.Kind]++
		if mk.Kind == mapview.MarkerBot {
			facing := ""
			if mk.Yaw != nil {
				facing = ", facing " + compass(*mk.Yaw)
			}
			fmt.Fprintf(w, "bot: at %v%s\n", mk.Pos, facing)
		}
	}
	if marks[mapview.MarkerBot] == 0 {
		fmt.Fprintln(w, "bot: outside the map")
	}
	fmt.Fprintf(w, "markers: %d machines, %d ores, %d digs, %d placements, path of %d blocks\n",
		marks[mapview.MarkerMachine], marks[mapview.MarkerOre], marks[mapview.MarkerDig], marks[mapview.MarkerPlace], len(d.m.Path))
}

// compass names a yaw: south, west, north or east (the nearest).
func compass(yaw float64) string {
	names := []string{"south", "west", "north", "east"}
	return names[int(math.Mod(math.Round(yaw/90)+4, 4))]
}

// mapBody marks on agent serve's --map-out picture each action a client
// has the served body execute, from where the player stood: where the last
// observation through it showed, or where the last move it saw ended.
func mapBody(b ipc.Body, t *mapTracker) ipc.Body {
	mb := &mappedBody{Body: b, t: t}
	if cs, ok := b.(ipc.ChatSource); ok {
		return mappedChatBody{mappedBody: mb, ChatSource: cs}
	}
	return mb
}

type mappedBody struct {
	ipc.Body
	t *mapTracker

	mu   sync.Mutex
	feet world.BlockPos
	tick int64
}

type mappedChatBody struct {
	*mappedBody
	ipc.ChatSource
}

var (
	_ ipc.Body       = (*mappedBody)(nil)
	_ ipc.ChatSource = mappedChatBody{}
)

func (b *mappedBody) Observe(ctx context.Context) (*world.Snapshot, error) {
	s, err := b.Body.Observe(ctx)
	if err == nil && s != nil {
		b.mu.Lock()
		b.feet, b.tick = s.Feet(), s.Tick
		b.mu.Unlock()
	}
	return s, err
}

func (b *mappedBody) Execute(ctx context.Context, a action.Action) ipc.Result {
	res := b.Body.Execute(ctx, a)
	b.mu.Lock()
	b.feet = b.t.action(b.feet, a, res, b.tick)
	b.mu.Unlock()
	return res
}
