package base

import (
	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func init() { registry.Provide(PlantSapling{}) }

// PlantSapling plants saplings from the inventory on grass or dirt nearby.
//
// GTNH behaviour: wood is renewable only through saplings, and early GTNH
// burns through a lot of it (charcoal in coke ovens, planks, creosote-treated
// wood), so a sustainable player replants what it chops. Saplings drop from
// decaying or broken leaves. A sapling needs a grass or dirt block with free
// space above it; saplings planted right next to each other or against a
// trunk stunt each other's growth (a tree needs room for its trunk and
// canopy), so the skill keeps one free block between a new sapling and any
// sapling or log.
//
// Spots are taken nearest first: a block tagged "grass" or "dirt" within
// radius whose block above is air (or a replaceable plant such as tall
// grass) and whose neighbours (the 26 around the new sapling) hold no sapling
// or log, nor a sapling planted earlier in the same invocation. For each
// spot the skill emits move_to (radius 3) and place_block on the soil's top
// face with the exact sapling item (oak "minecraft:sapling", birch
// "minecraft:sapling:2", …), using the inventory's saplings in slot order.
//
// Fewer saplings than count is a missing_items failure (the planner can ask
// for fewer); fewer free spots than count plants as many as fit and leaves
// the shortfall to effect verification; no spot at all is no_target.
type PlantSapling struct{}

// Name implements skills.Implementation.
func (PlantSapling) Name() string { return "plant_sapling" }

// SuggestActions implements skills.Implementation.
func (PlantSapling) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	radius := intParam(p, "radius", 8)
	count := intParam(p, "count", 1)
	if count < 1 {
		return nil, skills.Failf(skills.CodeInvalidParams, "parameter \"count\": must be at least 1, got %d", count)
	}

	inv := w.Inventory
	sapling := world.MustItem("ore:treeSapling")
	have := inv.Count(sapling)
	if have == 0 {
		return nil, skills.Failf(skills.CodeMissingItems,
			"no sapling (ore:treeSapling) in the inventory; saplings drop from leaves, so break or wait for the leaves of a felled tree")
	}
	if have < count {
		return nil, skills.Failf(skills.CodeMissingItems, "asked to plant %d saplings but the inventory holds only %d", count, have)
	}

	var spots []world.BlockPos
	for _, h := range w.NearestBlocks(radius, 0, "grass", "dirt") {
		if len(spots) == count {
			break
		}
		at := h.Pos.Up()
		if at == w.Feet() {
			continue // a block cannot be placed where the player stands
		}
		if above := w.BlockAt(at); !above.IsAir() && !above.HasTag("replaceable") {
			continue
		}
		if crowded(w, at, spots) {
			continue
		}
		spots = append(spots, at)
	}
	if len(spots) == 0 {
		return nil, skills.Failf(skills.CodeNoTarget,
			"no free grass or dirt within %d blocks of %s (a sapling needs air above the soil and no sapling or log next to it)", radius, w.Feet())
	}

	// Saplings in slot order, counted down locally.
	left := make([]int, len(inv.Slots))
	for i, s := range inv.Slots {
		if sapling.Matches(s) {
			left[i] = s.Count
		}
	}
	slot := 0
	acts := make([]action.Action, 0, 2*len(spots))
	for _, at := range spots {
		for left[slot] == 0 {
			slot++
		}
		left[slot]--
		acts = append(acts,
			action.MoveTo{Pos: at, Radius: workRadius},
			action.PlaceBlock{Pos: at, Item: itemRef(inv, inv.Slots[slot]), Face: "up"},
		)
	}
	return acts, nil
}

// crowded reports whether a sapling at p would touch another sapling or a log
// (in the world or among the planned spots).
func crowded(w *world.Snapshot, p world.BlockPos, planned []world.BlockPos) bool {
	for dy := -1; dy <= 1; dy++ {
		for dz := -1; dz <= 1; dz++ {
			for dx := -1; dx <= 1; dx++ {
				if dx == 0 && dy == 0 && dz == 0 {
					continue
				}
				b := w.BlockAt(p.Add(dx, dy, dz))
				if b.HasTag("sapling") || b.HasTag("log") {
					return true
				}
			}
		}
	}
	for _, q := range planned {
		if abs(q.X-p.X) <= 1 && abs(q.Y-p.Y) <= 1 && abs(q.Z-p.Z) <= 1 {
			return true
		}
	}
	return false
}
