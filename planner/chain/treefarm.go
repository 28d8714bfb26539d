package chain

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// The tree farm: when a skill that gathers from trees (chop_tree) has no
// tree in reach, the planner grows them, as a GTNH player does once the
// trees around the base are felled — not bonemeal (GTNH makes it a
// mid-game item), not walking ever farther, but saplings in the ground:
//
//  1. saplings in the inventory are planted (a skill tagged plants_trees:
//     plant_sapling);
//  2. while fewer than farmSize saplings stand in reach, leaves are broken
//     for more (a skill tagged gathers_saplings: gather_saplings; a leaf
//     block drops a sapling 1 time in 20);
//  3. otherwise time passes (a skill tagged passes_time: wait_for) until a
//     sapling has grown into a tree, about 19,000 ticks each in the light
//     (1.7.10's BlockSapling, as the simulator grows them).
const (
	// farmSize is how many saplings the planner keeps in the ground before
	// it waits: with 16, a tree grows every 1,200 ticks or so on average.
	farmSize = 16
	// growWait is one wait for the saplings, in ticks (a minute).
	growWait = 1200
)

// tagged returns the best-ranked available skill whose effects carry the
// tag, or nil.
func (s *search) tagged(tag string) *registry.Description {
	for _, d := range s.ranked(s.catalog) {
		if slices.Contains(d.Effects.Tags, tag) {
			return d
		}
	}
	return nil
}

// regrow plans the next step of the tree farm for a gatherer of trees
// with none within limit blocks; farm is false when d does not gather from
// trees. With no step, why says what is missing.
func (s *search) regrow(d *registry.Description, limit int) (inv *loop.Invocation, farm bool, why string) {
	if !slices.Contains(d.Preconditions.SemanticTagsAnyOf, "tree") {
		return nil, false, ""
	}
	var tried []string
	held := s.w.Inventory.Count(world.MustItem("ore:treeSapling"))
	if planter := s.tagged("plants_trees"); planter != nil && held > 0 {
		n := held
		if pd, has := planter.Params["count"]; has && pd.Max != nil {
			n = min(n, int(*pd.Max))
		}
		inv := &loop.Invocation{Skill: planter.Name, Params: map[string]any{"count": n}}
		if !s.blocked[inv.String()] {
			return inv, true, ""
		}
		tried = append(tried, inv.String()+" is blocked")
	}
	planted := len(s.w.NearestBlocks(limit, 0, "sapling"))
	if planted < farmSize {
		if g := s.tagged("gathers_saplings"); g != nil {
			inv, why := s.leavesStep(g)
			if inv != nil {
				return inv, true, ""
			}
			tried = append(tried, why)
		}
	}
	if planted > 0 {
		if w := s.tagged("passes_time"); w != nil {
			inv := &loop.Invocation{Skill: w.Name}
			if param := durationParam(w); param != "" {
				inv.Params = map[string]any{param: growWait}
			}
			if !s.blocked[inv.String()] {
				return inv, true, ""
			}
			tried = append(tried, inv.String()+" is blocked")
		}
	}
	why = fmt.Sprintf("%d saplings planted within %d blocks, %d held", planted, limit, held)
	if len(tried) > 0 {
		why += "; " + strings.Join(tried, "; ")
	}
	return nil, true, why
}

// leavesStep is the gathering of saplings from the nearest leaves, with
// the radius that reaches them (first the walk towards them when they are
// far or far above), or why there is none.
func (s *search) leavesStep(g *registry.Description) (*loop.Invocation, string) {
	def, limit := 16, 16
	if rp, has := g.Params["radius"]; has {
		if n, isNum := number(rp.Default); isNum {
			def, limit = n, n
		}
		if rp.Max != nil {
			limit = max(limit, int(*rp.Max))
		}
	}
	hits := s.w.NearestBlocks(limit, 1, "leaves")
	if len(hits) == 0 {
		return nil, fmt.Sprintf("no leaves within %d blocks for %s", limit, g.Name)
	}
	if walk := s.walkFirst(hits[0]); walk != nil {
		// Far, or far above (the bottom of a mine): walked to a leg a
		// step, as trees are.
		return walk, ""
	}
	inv := &loop.Invocation{Skill: g.Name}
	if hits[0].DistSq > def*def {
		inv.Params = map[string]any{"radius": int(math.Ceil(math.Sqrt(float64(hits[0].DistSq))))}
	}
	if s.blocked[inv.String()] {
		// The nearest leaves were out of reach from the ground: look as
		// far as the skill goes for others.
		wide := &loop.Invocation{Skill: g.Name, Params: map[string]any{"radius": limit}}
		if limit <= def || s.blocked[wide.String()] {
			return nil, inv.String() + " is blocked"
		}
		return wide, ""
	}
	return inv, ""
}
