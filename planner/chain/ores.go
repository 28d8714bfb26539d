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
		sub, err := s.betterPickaxe(p.oreLevel, depth)
		if err != nil {
			return nil, fmt.Errorf("%s drops nothing without a pickaxe of harvest level %d or more, and the best in the inventory is level %d: %w", p.ore, p.oreLevel, best, err)
		}
		return sub, nil
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

// betterPickaxe plans a pickaxe of at least a harvest level: the first
// recipe for a pickaxe that makes one of that level (a Tinkers' pickaxe
// on a head good enough, config/mining.yaml's tinkers) and whose parts can
// be had, its parts first, then the tool; an error saying what the
// candidates lack when none can be made.
func (s *search) betterPickaxe(level, depth int) (*loop.Invocation, error) {
	var firstErr error
	for _, item := range s.craftableWithTag("tool:pickaxe") {
		for _, r := range s.Recipes.For(item) {
			if s.craftedLevel(r) < level {
				continue
			}
			mark := s.mark()
			sub, err := s.recipeInputs(r, 1, depth)
			if err == nil && sub == nil {
				// Every part is there: the crafting step takes the first
				// recipe whose parts are held, and the better heads'
				// recipes come first (config/recipes.yaml).
				sub, err = s.obtain(item, s.w.Inventory.CountID(item)+1, depth+1)
			}
			if err != nil {
				s.rollback(mark)
				if firstErr == nil {
					firstErr = fmt.Errorf("a %s of level %d: %w", item, level, err)
				}
				continue
			}
			return sub, nil
		}
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("no recipe makes a pickaxe of harvest level %d or more", level)
	}
	return nil, firstErr
}

// craftedLevel is the harvest level of the tool a recipe makes: a
// Tinkers' tool's from the head among its ingredients, else the tool
// table's for its id (-1 for a tool that mines nothing or one the table
// does not know).
func (s *search) craftedLevel(r rules.Recipe) int {
	id, _, _ := world.SplitID(r.Output)
	for _, in := range r.Ingredients {
		exact, meta := in.Item.ID()
		if exact == "" {
			continue
		}
		if t, ok := s.Mining.TinkerTool(id, world.ItemStack{ID: exact, Meta: max(meta, 0), Count: 1}); ok {
			return t.HarvestLevel
		}
	}
	if m, ok := s.Mining.Material(id); ok && !m.MinesNothing {
		return m.Level
	}
	return -1
}
