package chain

import (
	"fmt"
	"slices"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// GregTech's ores are one block (gregtech:gt.blockores) whose material the
// world model holds as the block's ore dictionary tag (ore:oreChalcopyrite)
// and whose harvest level is its metadata. A raw ore (gregtech:gt.metaitem.03
// at 5000 + the material id, config/ores.yaml) comes from the nearest
// regular ore of its material, mined by a skill tagged mines_gt_ore
// (mine_gt_ore: target the tag, drop the raw ore), with a pickaxe of the
// material's harvest level.

// oreMinerTag marks the skill that mines GregTech ores.
const oreMinerTag = "mines_gt_ore"

// oreSearchRadius is how far the plan looks for an ore (mine_gt_ore's
// largest radius).
const oreSearchRadius = 64

func (g Planner) ores() *rules.Ores {
	if g.Ores != nil {
		return g.Ores
	}
	return rules.Default().Ores
}

// rawOreMaterial is the material of a raw ore item ("modid:name:meta"),
// false for any other item.
func (s *search) rawOreMaterial(item string) (rules.OreMaterial, bool) {
	o := s.ores()
	id, meta, err := world.SplitID(item)
	if err != nil || id != o.RawItem || meta < o.RawOffset {
		return rules.OreMaterial{}, false
	}
	return o.MaterialByID(meta - o.RawOffset)
}

// oreInSight finds the nearest regular ore of a material within reach of
// the search: its position and the radius to ask for (0: the skill's
// default of 32 reaches it).
func (s *search) oreInSight(m rules.OreMaterial) (world.BlockPos, int, bool) {
	tag := s.ores().Tag(m, false)
	hits := s.w.NearestBlocks(oreSearchRadius, 1, tag)
	if len(hits) == 0 {
		return world.BlockPos{}, 0, false
	}
	radius := 0
	if d := hits[0].Pos.DistSq(s.w.Feet()); d > 32*32 {
		radius = oreSearchRadius
	}
	return hits[0].Pos, radius, true
}

// oreMiner is the producer of a raw ore: a skill tagged mines_gt_ore, when
// an ore of its material is in the world model.
func (s *search) oreMiner(d *registry.Description, item string) (producer, bool) {
	if !slices.Contains(d.Effects.Tags, oreMinerTag) {
		return producer{}, false
	}
	m, ok := s.rawOreMaterial(item)
	if !ok {
		return producer{}, false
	}
	if _, radius, ok := s.oreInSight(m); ok {
		return producer{desc: d, ore: s.ores().Tag(m, false), oreLevel: m.HarvestLevel(false), radius: radius}, true
	}
	return producer{}, false
}

// oreStep is the mining step of a raw ore, after its pickaxe: the
// skill's tools first (a pickaxe at all), then one of the ore's harvest
// level or an error saying which level the inventory lacks.
func (s *search) oreStep(p producer, item string, depth int) (*loop.Invocation, error) {
	if sub, err := s.tools(p.desc, depth); err != nil || sub != nil {
		return sub, err
	}
	if best := s.bestLevel("pickaxe"); best < p.oreLevel {
		return nil, fmt.Errorf("%s drops nothing without a pickaxe of harvest level %d or more, and the best in the inventory is level %d", p.ore, p.oreLevel, best)
	}
	inv := &loop.Invocation{Skill: p.desc.Name, Params: map[string]any{"target": p.ore, "drop": item}}
	if p.radius > 0 {
		inv.Params["radius"] = p.radius
	}
	return inv, nil
}

// pickSmelt chooses among the furnace recipes for an item: one whose input
// the inventory holds, else one whose input is a raw ore with an ore of its
// material in sight, else the first (which then says what it lacks).
func (s *search) pickSmelt(rs []rules.SmeltRecipe) rules.SmeltRecipe {
	for _, r := range rs {
		if s.w.Inventory.Count(r.Input) > 0 {
			return r
		}
	}
	for _, r := range rs {
		if m, ok := s.rawOreMaterial(r.Input.String()); ok {
			if _, _, ok := s.oreInSight(m); ok {
				return r
			}
		}
	}
	return rs[0]
}
