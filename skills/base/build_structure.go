package base

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func init() { registry.Provide(BuildStructure{}) }

// buildSearchRadius is how far build_structure looks for a site by default.
const buildSearchRadius = 16

// siteHeights is how far above and below the player's feet a site's floor
// may lie: far enough to find the ground around a quarry or a night's
// shelter the player stands at the bottom of (the shelter is three blocks
// deep, often dug into the floor of a quarry).
const siteHeights = 8

// BuildStructure builds a multiblock of config/blueprints.yaml (the
// Railcraft coke oven) block by block, the way a player does.
//
// GTNH behaviour: Railcraft's coke oven forms by itself once its 26 coke
// oven blocks stand around an air centre with no other oven block touching
// it; there is no controller to right-click and no tool. A misplaced block
// would have to be broken and placed again (the simulator's mining table
// does not let coke oven blocks break at all), so the skill chooses the
// whole site before it places anything.
//
// The site is flat and free: the ground under the pattern and the one-block
// ring around it is solid, the pattern's cells are air, the ring has room
// to stand (two blocks of air), and the shell holds none of the blocks the
// blueprint forbids there. Sites are tried nearest the player first (or
// exactly at pos, the pattern's lowest north-west corner). Cells are placed
// bottom layer first, each against a face already there (the ground, or a
// block placed before), from standing spots on the ring: outside the
// structure, so the player is never walled in; the player walks to another
// ring spot only when the next cell is out of reach, and then to the one
// that reaches most of what is left.
type BuildStructure struct{}

// Name implements skills.Implementation.
func (BuildStructure) Name() string { return "build_structure" }

// SuggestActions implements skills.Implementation.
func (BuildStructure) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	name := p.String("name")
	set := rules.Default().Builds
	bp, ok := set.Get(name)
	if !ok {
		return nil, skills.Failf(skills.CodeInvalidParams, "parameter \"name\": no blueprint %q%s (known: %s)",
			name, suggest.DidYouMean(name, set.Names()), strings.Join(set.Names(), ", "))
	}
	radius := intParam(p, "radius", buildSearchRadius)
	var short []string
	for _, bc := range bp.Blocks() {
		if have := w.Inventory.Count(world.MustItem(bc.Block.String())); have < bc.Count {
			short = append(short, fmt.Sprintf("%d more %s (needs %d, have %d)", bc.Count-have, bc.Block, bc.Count, have))
		}
	}
	if len(short) > 0 {
		return nil, skills.Failf(skills.CodeMissingItems, "building %s needs %s", name, strings.Join(short, ", "))
	}
	var origin world.BlockPos
	if raw := p.String("pos"); raw != "" {
		o, err := parsePos(raw)
		if err != nil {
			return nil, skills.Failf(skills.CodeInvalidParams, "parameter \"pos\": %v", err)
		}
		if why := siteProblem(w, bp, o); why != "" {
			return nil, skills.Failf(skills.CodeNoTarget, "cannot build %s at %v: %s", name, o, why)
		}
		if !withinRadius(w.Feet(), masterOf(bp, o), radius) {
			return nil, skills.Failf(skills.CodeInvalidParams, "parameter \"pos\": %v is more than %d blocks from the player at %v", o, radius, w.Feet())
		}
		origin = o
	} else {
		o, ok := findSite(w, bp, radius)
		if !ok {
			return nil, skills.Failf(skills.CodeNoTarget, "no flat, free %d×%d site with a ring to stand on within %d blocks of %v for %s",
				bp.SizeX, bp.SizeZ, radius, w.Feet(), name)
		}
		origin = o
	}
	return placements(w, bp, origin)
}

// parsePos reads "x,y,z" (spaces allowed).
func parsePos(s string) (world.BlockPos, error) {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	if len(parts) != 3 {
		return world.BlockPos{}, fmt.Errorf("%q is not x,y,z", s)
	}
	var v [3]int
	for i, part := range parts {
		n, err := strconv.Atoi(part)
		if err != nil {
			return world.BlockPos{}, fmt.Errorf("%q is not x,y,z: %q is not a whole number", s, part)
		}
		v[i] = n
	}
	return world.Pos(v[0], v[1], v[2]), nil
}

func masterOf(bp *rules.Blueprint, origin world.BlockPos) world.BlockPos {
	return origin.Add(bp.Master.X, bp.Master.Y, bp.Master.Z)
}

func withinRadius(a, b world.BlockPos, radius int) bool {
	dx, dy, dz := a.X-b.X, a.Y-b.Y, a.Z-b.Z
	return dx*dx+dy*dy+dz*dz <= radius*radius
}

// solidGround is a block a structure can stand on and a player walk on.
func solidGround(b world.Block) bool {
	return !b.IsAir() && !b.HasTag("liquid") && !b.HasTag("replaceable") && !b.HasTag("plant") && !b.HasTag("leaves")
}

// siteProblem says why the pattern cannot be built with its lowest
// north-west corner at origin ("" when it can).
func siteProblem(w *world.Snapshot, bp *rules.Blueprint, origin world.BlockPos) string {
	for x := -1; x <= bp.SizeX; x++ {
		for z := -1; z <= bp.SizeZ; z++ {
			floor := origin.Add(x, -1, z)
			if !solidGround(w.BlockAt(floor)) {
				return fmt.Sprintf("no solid ground at %v", floor)
			}
			inside := x >= 0 && z >= 0 && x < bp.SizeX && z < bp.SizeZ
			height := 2 // a ring spot: room to stand
			if inside {
				height = bp.SizeY
			}
			for y := 0; y < height; y++ {
				if c := origin.Add(x, y, z); !w.BlockAt(c).IsAir() {
					return fmt.Sprintf("%v is not free (%s)", c, w.BlockAt(c).ID)
				}
			}
		}
	}
	s := bp.ShellWidth
	for y := -s; y < bp.SizeY+s; y++ {
		for z := -s; z < bp.SizeZ+s; z++ {
			for x := -s; x < bp.SizeX+s; x++ {
				c := origin.Add(x, y, z)
				b := w.BlockAt(c)
				for _, f := range bp.Forbid {
					if f.Is(b.ID, b.Meta) {
						return fmt.Sprintf("%v holds %s, which must not touch it", c, f)
					}
				}
			}
		}
	}
	if f := w.Feet(); inBox(bp, origin, f) || inBox(bp, origin, f.Up()) {
		return "the player stands in it"
	}
	return ""
}

func inBox(bp *rules.Blueprint, origin, p world.BlockPos) bool {
	return bp.Inside(rules.Offset{X: p.X - origin.X, Y: p.Y - origin.Y, Z: p.Z - origin.Z})
}

// findSite returns the free site nearest the player whose master is within
// radius, scanning floors from the feet's height outwards.
func findSite(w *world.Snapshot, bp *rules.Blueprint, radius int) (world.BlockPos, bool) {
	feet := w.Feet()
	best, bestD := world.BlockPos{}, math.MaxInt
	for dy := 0; dy <= 2*siteHeights; dy++ {
		y := feet.Y - dy/2 // 0, +1, -1, +2, -2, …
		if dy%2 == 1 {
			y = feet.Y + (dy+1)/2
		}
		for dz := -radius; dz <= radius; dz++ {
			for dx := -radius; dx <= radius; dx++ {
				o := world.Pos(feet.X+dx-bp.Master.X, y, feet.Z+dz-bp.Master.Z)
				m := masterOf(bp, o)
				if !withinRadius(feet, m, radius) {
					continue
				}
				d := (m.X-feet.X)*(m.X-feet.X) + (m.Z-feet.Z)*(m.Z-feet.Z) + (m.Y-feet.Y)*(m.Y-feet.Y)
				if d >= bestD {
					continue
				}
				if siteProblem(w, bp, o) == "" {
					best, bestD = o, d
				}
			}
		}
	}
	return best, bestD != math.MaxInt
}

// unplaced lists the pattern's block cells not placed yet.
func unplaced(bp *rules.Blueprint, origin world.BlockPos, placed map[world.BlockPos]bool) []world.BlockPos {
	var out []world.BlockPos
	for _, o := range bp.Offsets() {
		if p := origin.Add(o.X, o.Y, o.Z); !bp.Cell(o).Air && !placed[p] {
			out = append(out, p)
		}
	}
	return out
}

// faces are the directions from a cell to a neighbour it can be placed
// against, and the face of that neighbour clicked.
var faces = []struct {
	dx, dy, dz int
	face       string
}{
	{0, -1, 0, "up"}, {-1, 0, 0, "east"}, {1, 0, 0, "west"}, {0, 0, -1, "south"}, {0, 0, 1, "north"}, {0, 1, 0, "down"},
}

// placements orders the pattern's blocks so that each rests on a face that
// is already there and emits move_to a ring spot when the next cell is out
// of reach from where the player stands.
func placements(w *world.Snapshot, bp *rules.Blueprint, origin world.BlockPos) ([]action.Action, error) {
	placed := map[world.BlockPos]bool{}
	solid := func(p world.BlockPos) bool {
		if placed[p] {
			return true
		}
		if inBox(bp, origin, p) {
			return false // not yet built (the site is air)
		}
		return solidGround(w.BlockAt(p))
	}
	var ring []world.BlockPos
	for z := -1; z <= bp.SizeZ; z++ {
		for x := -1; x <= bp.SizeX; x++ {
			if x == -1 || z == -1 || x == bp.SizeX || z == bp.SizeZ {
				ring = append(ring, origin.Add(x, 0, z))
			}
		}
	}
	// The walks to the ring leave the site's ground standing: from the
	// bottom of a pit, a digging route up could come out through it and
	// take the ground from under the first layer (no face to place on).
	var keep []world.BlockPos
	for z := -1; z <= bp.SizeZ; z++ {
		for x := -1; x <= bp.SizeX; x++ {
			keep = append(keep, origin.Add(x, -1, z))
		}
	}
	var acts []action.Action
	stand, standing := world.BlockPos{}, false
	for _, r := range ring {
		if r == w.Feet() {
			stand, standing = r, true // already on the ring
		}
	}
	for y := 0; y < bp.SizeY; y++ {
		var todo []rules.Offset
		for _, o := range bp.Offsets() {
			if o.Y == y && !bp.Cell(o).Air {
				todo = append(todo, o)
			}
		}
		for len(todo) > 0 {
			progress := false
			for i, o := range todo {
				p := origin.Add(o.X, o.Y, o.Z)
				face := ""
				for _, f := range faces {
					if solid(p.Add(f.dx, f.dy, f.dz)) {
						face = f.face
						break
					}
				}
				if face == "" {
					continue
				}
				if !standing || !canReach(stand, p) {
					spot, ok := nearestSpot(ring, stand, standing, p, unplaced(bp, origin, placed))
					if !ok {
						return nil, skills.Failf(skills.CodeNoTarget, "no spot around %s reaches %v", bp.Name, p)
					}
					stand, standing = spot, true
					acts = append(acts, action.MoveTo{Pos: spot, Radius: 0, Keep: keep})
				}
				acts = append(acts, action.PlaceBlock{Pos: p, Item: bp.Cell(o).Block.String(), Face: face})
				placed[p] = true
				todo = append(todo[:i], todo[i+1:]...)
				progress = true
				break
			}
			if !progress {
				return nil, skills.Failf(skills.CodeNoTarget, "layer %d of %s has cells with no face to place against", y, bp.Name)
			}
		}
	}
	return acts, nil
}

// nearestSpot picks the ring spot that reaches p and, of those, the one
// that reaches most of the cells still to place (fewer walks), then the
// nearest to where the player stands (to p when the player is not on the
// ring yet), then the first in ring order.
func nearestSpot(ring []world.BlockPos, from world.BlockPos, standing bool, p world.BlockPos, left []world.BlockPos) (world.BlockPos, bool) {
	best, bestN, bestD := world.BlockPos{}, -1, math.MaxInt
	for _, s := range ring {
		if !canReach(s, p) {
			continue
		}
		n := 0
		for _, c := range left {
			if canReach(s, c) {
				n++
			}
		}
		ref := p
		if standing {
			ref = from
		}
		d := (s.X-ref.X)*(s.X-ref.X) + (s.Z-ref.Z)*(s.Z-ref.Z)
		if n > bestN || n == bestN && d < bestD {
			best, bestN, bestD = s, n, d
		}
	}
	return best, bestN >= 0
}
