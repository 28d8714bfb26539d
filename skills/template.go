package skills

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// A derived placeholder is computed from the world snapshot at invocation
// time, in the style of seed 001's {target_location}.
type derived struct {
	produces action.ParamType
	doc      string
	check    func(name string, s *Spec) error
	resolve  func(name string, s *Spec, w *world.Snapshot, p Params) (any, error)
}

// DefaultSearchRadius is how far derived location placeholders search when
// the skill has no int "radius" parameter.
const DefaultSearchRadius = 32

func searchRadius(s *Spec, p Params) int {
	if ps, ok := s.Params["radius"]; ok && ps.Type == action.TypeInt {
		return p.Int("radius")
	}
	return DefaultSearchRadius
}

func noCheck(string, *Spec) error { return nil }

// nearestTagged finds the nearest block carrying tag, or the nearest machine
// of that kind, within radius of the player.
func nearestTagged(w *world.Snapshot, tag string, radius int) (world.BlockPos, bool) {
	var best world.BlockPos
	bestD, found := 0, false
	if hits := w.NearestBlocks(radius, surfaceLook, tag); len(hits) > 0 {
		// One with air over it first: a bucket fills at the first liquid
		// source the look from the eyes meets (1.7.10 ItemBucket's ray
		// trace), the top of a lake, not a source under the water or
		// under the ground beside a bot in a pit below it.
		h := hits[0]
		if i := slices.IndexFunc(hits, func(h world.BlockHit) bool {
			q := h.Pos.Add(0, 1, 0)
			return w.BlockAt(q).IsAir() && w.Known(q)
		}); i >= 0 {
			h = hits[i]
		}
		best, bestD, found = h.Pos, h.DistSq, true
	}
	if ms := w.MachinesOfKind(tag, radius); len(ms) > 0 {
		d := ms[0].Pos.DistSq(w.Feet())
		if !found || d < bestD || (d == bestD && ms[0].Pos.Less(best)) {
			best, found = ms[0].Pos, true
		}
	}
	return best, found
}

// surfaceLook is how many of the nearest matching blocks target_location
// weighs to prefer one it can reach from the surface.
const surfaceLook = 512

// OpenToAir reports whether a block has a face on air: a player reaches it
// without digging to it. Air read where nothing is known (past the edge
// of the loaded world) is not taken for air.
func OpenToAir(w *world.Snapshot, p world.BlockPos) bool {
	for _, d := range [][3]int{{0, 1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}, {0, -1, 0}} {
		if q := p.Add(d[0], d[1], d[2]); w.BlockAt(q).IsAir() && w.Known(q) {
			return true
		}
	}
	return false
}

// surfaceFirst orders the nearest hits so that a block open to the air
// (a face a player can reach without digging to it) and no lower than
// floor, the block the player stands on, comes first, then any open one,
// then the rest, each group nearest first: mining a buried block or
// digging downwards makes a pit the player may walk into and not climb
// out of. Of the buried ones (a gravel pocket in the stone) the one that
// is least work to reach comes first (DigWork), as a player digs down to
// a shallow pocket near by.
func surfaceFirst(w *world.Snapshot, hits []world.BlockHit, floor int) []world.BlockHit {
	open := func(p world.BlockPos) bool { return OpenToAir(w, p) }
	rank := func(h world.BlockHit) int {
		switch {
		case open(h.Pos) && h.Pos.Y >= floor:
			return 0
		case open(h.Pos):
			return 1
		}
		return 2 + DigWork(w, h.Pos)
	}
	out := slices.Clone(hits)
	ranks := make(map[world.BlockPos]int, len(out))
	for _, h := range out {
		ranks[h.Pos] = rank(h)
	}
	slices.SortStableFunc(out, func(a, b world.BlockHit) int { return ranks[a.Pos] - ranks[b.Pos] })
	return out
}

// digWalks is how many blocks of walking take as long as digging one:
// stone with a wooden pickaxe (23 ticks) against a block walked (4.6;
// path.DefaultCosts).
const digWalks = 5

// DigWork is the work of reaching a buried block from the player, in
// blocks walked: its cover dug through (digWalks each) and the way there
// across the ground.
func DigWork(w *world.Snapshot, p world.BlockPos) int {
	feet := w.Feet()
	dx, dz := float64(p.X-feet.X), float64(p.Z-feet.Z)
	return Cover(w, p)*digWalks + int(math.Round(math.Hypot(dx, dz)))
}

// maxCover bounds Cover's count.
const maxCover = 64

// Cover is how many blocks lie between a block and the air above it, up
// to maxCover: what digging straight down to it breaks. Water is not
// cover (a player swims down to the gravel of a lake's floor).
func Cover(w *world.Snapshot, p world.BlockPos) int {
	n := 0
	for q, i := p.Add(0, 1, 0), 0; i < maxCover; q, i = q.Add(0, 1, 0), i+1 {
		b := w.BlockAt(q)
		if b.IsAir() {
			break
		}
		if b.ID != "minecraft:water" && b.ID != "minecraft:flowing_water" {
			n++
		}
	}
	return n
}

var derivedTable = map[string]derived{
	"position": {
		produces: action.TypeBlockPos,
		doc:      "the block position of the player's feet",
		check:    noCheck,
		resolve: func(_ string, _ *Spec, w *world.Snapshot, _ Params) (any, error) {
			return w.Feet(), nil
		},
	},
	"target_location": {
		produces: action.TypeBlockPos,
		doc:      "the nearest block matching the target parameter (a block id, or a semantic tag / machine kind for string targets) within the radius parameter (default 32); for a block id, never the block under the player's feet, and among the 512 nearest, first one open to the air and no lower than the block the player stands on, then one open to the air; a block a hostile mob guards (it, or the way to it, within the mob's follow range) comes after every other",
		check: func(_ string, s *Spec) error {
			ps, ok := s.Params["target"]
			if !ok {
				return fmt.Errorf("needs a parameter named target (block_id or string)")
			}
			if ps.Type != action.TypeBlockID && ps.Type != action.TypeString {
				return fmt.Errorf("parameter target must be a block_id or string, not %s", ps.Type)
			}
			return nil
		},
		resolve: func(_ string, s *Spec, w *world.Snapshot, p Params) (any, error) {
			target := p.String("target")
			radius := searchRadius(s, p)
			if s.Params["target"].Type == action.TypeString {
				if pos, ok := nearestTagged(w, target, radius); ok {
					return pos, nil
				}
			} else {
				id, meta, _ := world.SplitID(target)
				var hits []world.BlockHit
				if w.Blocks != nil {
					// Never the block the player stands on: digging
					// straight down drops it into a hole it may not
					// climb out of.
					below := w.Feet().Down()
					hits = w.Blocks.Nearest(w.Feet(), radius, surfaceLook, func(b world.Block) bool {
						return b.ID == id && (meta < 0 || b.Meta == meta)
					})
					hits = slices.DeleteFunc(hits, func(h world.BlockHit) bool { return h.Pos == below })
					hits = AwayFromMobs(w, rules.Default().Mobs, surfaceFirst(w, hits, below.Y))
				}
				if len(hits) > 0 {
					return hits[0].Pos, nil
				}
			}
			return nil, Failf(CodeNoTarget, "no %s within %d blocks", target, radius)
		},
	},
	"nearest": {
		produces: action.TypeBlockPos,
		doc:      "{nearest:TAG}: the nearest block with semantic tag TAG (among the 512 nearest, first one with air over it: the surface of a lake), or machine of kind TAG, within the radius parameter (default 32)",
		check: func(name string, _ *Spec) error {
			if _, tag, _ := strings.Cut(name, ":"); tag == "" {
				return fmt.Errorf("write {nearest:TAG}, e.g. {nearest:water_source}")
			}
			return nil
		},
		resolve: func(name string, s *Spec, w *world.Snapshot, p Params) (any, error) {
			_, tag, _ := strings.Cut(name, ":")
			radius := searchRadius(s, p)
			if pos, ok := nearestTagged(w, tag, radius); ok {
				return pos, nil
			}
			return nil, Failf(CodeNoTarget, "no block tagged %s within %d blocks", tag, radius)
		},
	},
	"player": {
		produces: action.TypeString,
		doc:      "the player's name",
		check:    noCheck,
		resolve: func(_ string, _ *Spec, w *world.Snapshot, _ Params) (any, error) {
			return w.Player.Name, nil
		},
	},
	"dimension": {
		produces: action.TypeString,
		doc:      "the player's dimension",
		check:    noCheck,
		resolve: func(_ string, _ *Spec, w *world.Snapshot, _ Params) (any, error) {
			return w.Player.Dimension, nil
		},
	},
	"tech_state": {
		produces: action.TypeString,
		doc:      "the inferred tech tier",
		check:    noCheck,
		resolve: func(_ string, _ *Spec, w *world.Snapshot, _ Params) (any, error) {
			return w.TechState, nil
		},
	},
}

func lookupDerived(name string) (derived, bool) {
	base, _, _ := strings.Cut(name, ":")
	d, ok := derivedTable[base]
	if !ok {
		return derived{}, false
	}
	if strings.Contains(name, ":") && base != "nearest" {
		return derived{}, false
	}
	return d, true
}

// DerivedPlaceholders documents the placeholders a template may use besides
// its own parameters, sorted by name.
func DerivedPlaceholders() map[string]string {
	out := make(map[string]string, len(derivedTable))
	for name, d := range derivedTable {
		key := name
		if name == "nearest" {
			key = "nearest:TAG"
		}
		out[key] = fmt.Sprintf("%s (%s)", d.doc, d.produces)
	}
	return out
}

func derivedNames() string {
	names := make([]string, 0, len(derivedTable))
	for n := range DerivedPlaceholders() {
		names = append(names, "{"+n+"}")
	}
	sort.Strings(names)
	return "derived: " + strings.Join(names, ", ")
}

// Template executes a template spec's action_sequence: each step's
// placeholders are replaced with parameter values or derived values, then the
// step is built into a typed action. It needs no Go code per skill.
type Template struct {
	Spec *Spec
}

var _ Implementation = Template{}

// Name implements Implementation.
func (t Template) Name() string { return t.Spec.Name }

// SuggestActions implements Implementation.
func (t Template) SuggestActions(w *world.Snapshot, p Params) ([]action.Action, error) {
	cache := map[string]any{}
	out := make([]action.Action, 0, len(t.Spec.ActionSequence))
	for i, step := range t.Spec.ActionSequence {
		spec, _ := action.SpecOf(step.Kind)
		vals := make(map[string]any, len(step.Params))
		for k, raw := range step.Params {
			v, err := t.substitute(raw, w, p, cache)
			if err != nil {
				return nil, err
			}
			if ap, ok := spec.Param(k); ok && ap.Type == action.TypeString {
				if _, isStr := v.(string); !isStr {
					v = text(v)
				}
			}
			vals[k] = v
		}
		a, err := action.FromParams(step.Kind, vals)
		if err != nil {
			return nil, Failf(CodeInvalidParams, "action_sequence[%d]: %v", i, err)
		}
		out = append(out, a)
	}
	return out, nil
}

func (t Template) value(name string, w *world.Snapshot, p Params, cache map[string]any) (any, error) {
	if v, ok := cache[name]; ok {
		return v, nil
	}
	var v any
	if _, ok := t.Spec.Params[name]; ok {
		v = p[name]
	} else if d, ok := lookupDerived(name); ok {
		var err error
		if v, err = d.resolve(name, t.Spec, w, p); err != nil {
			return nil, err
		}
	} else {
		return nil, Failf(CodeInternal, "unknown placeholder {%s}", name)
	}
	cache[name] = v
	return v, nil
}

func (t Template) substitute(raw any, w *world.Snapshot, p Params, cache map[string]any) (any, error) {
	str, ok := raw.(string)
	if !ok || !strings.Contains(str, "{") {
		return raw, nil
	}
	if m := placeholderRE.FindStringSubmatch(str); m != nil && m[0] == str {
		return t.value(m[1], w, p, cache)
	}
	var firstErr error
	out := placeholderRE.ReplaceAllStringFunc(str, func(ph string) string {
		v, err := t.value(ph[1:len(ph)-1], w, p, cache)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return ph
		}
		return text(v)
	})
	if firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}

// text renders a parameter value inside a string: positions as "x y z",
// durations as ticks, the rest as Go prints them.
func text(v any) string {
	if pos, ok := v.(world.BlockPos); ok {
		return fmt.Sprintf("%d %d %d", pos.X, pos.Y, pos.Z)
	}
	return fmt.Sprint(v)
}
