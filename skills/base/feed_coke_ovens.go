package base

import (
	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func init() { registry.Provide(FeedCokeOvens{}) }

// FeedCokeOvens loads fuel into the input slot of nearby Railcraft coke ovens.
//
// GTNH behaviour: the Railcraft coke oven is the first multiblock of a GTNH
// game, a hollow 3x3x3 of 26 coke oven bricks, built in the stone age before
// any steam machine. It needs no power: it turns coal into coal coke (and
// 500 mB of creosote oil) and logs into charcoal (250 mB of creosote), slowly,
// one item at a time, from a single 64-item input slot. Coke and charcoal
// fuel the steam age (boilers, the bronze blast furnace) and creosote treats
// wood. An incomplete structure does nothing, so unformed ovens are skipped.
//
// For each formed oven within radius, nearest first, whose input holds fewer
// than per_oven items, the skill deposits the difference (or what the
// inventory has left): move_to (radius 3), open_container,
// transfer_items{deposit, slot "input"}, close_container. An input slot that
// already holds an item only takes more of the same item (oak logs do not
// stack with birch logs, coal does not stack with charcoal). It stops when
// the inventory runs out of fuel.
//
// An oven whose contents the body does not know (world.Machine's
// ContentsUnknown: a live server sends a Railcraft oven's slots only to a
// player with its window open) is not fed blind: its input may already hold
// fuel (a deposit would pass per_oven) or another item (the fuel would not
// go in). It is looked into first: move_to, open_container,
// close_container, as a player opens an oven before filling it. The look
// makes its contents known, so the next invocation deposits what fits; the
// look alone deposits nothing and so does not meet the skill's declared
// effects. An oven is looked into only when the inventory holds the fuel.
//
// Every oven already at per_oven is nothing to do (no actions, no error); no
// formed oven in range is no_target; ovens wanting fuel (or whose contents
// are unknown) with none in the inventory is missing_items. Collecting the coke and draining creosote is
// maintain_coke_ovens' job: a full output slot or creosote tank stops an
// oven however much fuel it has.
type FeedCokeOvens struct{}

// Name implements skills.Implementation.
func (FeedCokeOvens) Name() string { return "feed_coke_ovens" }

// SuggestActions implements skills.Implementation.
func (FeedCokeOvens) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	radius := intParam(p, "radius", 24)
	perOven := intParam(p, "per_oven", 16)
	fuel, fuelName, err := itemParam(p, "fuel", "ore:gemCoal")
	if err != nil {
		return nil, err
	}

	ovens, unformed := formedOnly(w.MachinesOfKind(world.MachineCokeOven, radius))
	if len(ovens) == 0 {
		if len(unformed) > 0 {
			return nil, skills.Failf(skills.CodeNoTarget,
				"%d coke oven(s) within %d blocks but none is formed (at %s): finish the hollow 3x3x3 of 26 coke oven bricks first",
				len(unformed), radius, positions(unformed))
		}
		return nil, skills.Failf(skills.CodeNoTarget, "no coke oven within %d blocks of %s", radius, w.Feet())
	}

	fp := newPool(w.Inventory, fuel)
	var plan depositPlan
	unknown := 0
	for _, oven := range ovens {
		if oven.ContentsUnknown {
			// Looked into only while there is fuel to put in afterwards.
			unknown++
			if fp.total() > 0 {
				plan.acts = append(plan.acts, action.MoveTo{Pos: oven.Pos, Radius: workRadius},
					action.OpenContainer{Pos: oven.Pos}, action.CloseContainer{})
			}
			continue
		}
		p := planDeposits([]world.Machine{oven}, "input", perOven, fuel, fp)
		plan.acts = append(plan.acts, p.acts...)
		plan.needy += p.needy
		plan.blocked = append(plan.blocked, p.blocked...)
	}
	switch {
	case len(plan.acts) > 0:
		return plan.acts, nil
	case unknown > 0 && fp.total() == 0:
		return nil, skills.Failf(skills.CodeMissingItems,
			"%d coke oven(s) may want fuel (%d not looked into yet) but the inventory holds no %s", plan.needy+unknown, unknown, fuelName)
	case plan.needy > 0 && fp.total() == 0:
		return nil, skills.Failf(skills.CodeMissingItems, "%d coke oven(s) want fuel but the inventory holds no %s", plan.needy, fuelName)
	case plan.needy > 0:
		return nil, skills.Failf(skills.CodeMissingItems,
			"%d coke oven(s) want fuel but their input slots hold a kind of %s the inventory lacks (a slot only stacks the same item)", plan.needy, fuelName)
	case len(plan.blocked) > 0:
		return nil, skills.Failf(skills.CodeNoTarget,
			"every coke oven below %d items holds another input than %s (at %s); wait for it to burn down or feed that item instead",
			perOven, fuelName, positions(plan.blocked))
	}
	return nil, nil
}
