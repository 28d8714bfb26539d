package base

import (
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func init() { registry.Provide(FeedSteamBoiler{}) }

// FeedSteamBoiler puts solid fuel into nearby GregTech coal boilers.
//
// GTNH behaviour: the small coal boiler (bronze, and the high-pressure steel
// one) is the power source of the steam age. It burns solid fuel from one
// fuel slot and heats up slowly (steam comes only above 100 °C); its water
// is refilled by hand or by pipe. Its fuel slot takes only coal, charcoal,
// lignite and coke (and their blocks) and other solid fuels that burn at
// least 2000 ticks (GT5-Unofficial MTEBoilerBronze.getCombustionPotential,
// the GUI's fuel slot filter): logs and planks (300 ticks) are refused, so
// a fuel outside boilerFuels is an invalid parameter before anything is
// done.
// A GregTech boiler that burns fuel with no water keeps heating, and once
// it is hot and dry, the first water that reaches it makes it explode,
// taking the boiler and the blocks around it. So this skill never adds fuel
// to a boiler whose water tank is empty: such a boiler must get water first
// (refill_water_tanks, which in turn refuses to water a dry boiler that is
// already hot; that one has to cool down or be broken and replaced).
//
// For each boiler within radius, nearest first, whose fuel slot holds fewer
// than amount items and whose water is above 0, the skill deposits the
// difference (or what the inventory has left): move_to (radius 3),
// open_container, transfer_items{deposit, slot "fuel"}, close_container. A
// fuel slot that already holds an item only takes more of the same item.
//
// A boiler whose contents the body does not know (world.Machine's
// ContentsUnknown: a live server sends a GregTech boiler's fuel slot and
// water only to a player with its window open) is not fuelled blind: its
// water may be gone and its fuel slot may hold enough, or another fuel. It
// is looked into first: move_to, open_container, close_container. The look
// makes its fuel slot and water known, so the next invocation fuels it by
// what the window showed; the look alone deposits nothing and so does not
// meet the declared effects. A boiler is looked into only when the
// inventory holds the fuel.
//
// Dry boilers are skipped; when every boiler wanting fuel is dry the skill
// fails with unsafe, naming them. Every boiler at amount is nothing to do
// (no actions, no error); no boiler in range is no_target; boilers wanting
// fuel (or whose contents are unknown) with none in the inventory is
// missing_items.
type FeedSteamBoiler struct{}

// boilerFuelNames are the fuel names the skill accepts: what
// MTEBoilerBronze.getCombustionPotential (GT5-Unofficial
// src/main/java/gregtech/common/tileentities/boilers/MTEBoilerBronze.java)
// lets into the fuel slot: materials Coal, Lignite and Charcoal, ore
// fuelCoke and coke blocks (Railcraft's cube), and any fuel burning at least
// 2000 ticks (a blaze rod burns 2400). The steel boiler (MTEBoilerSteel)
// inherits the rule.
var boilerFuelNames = []string{
	"ore:gemCoal", "ore:gemCharcoal", "ore:gemLignite", "ore:fuelCoke",
	"ore:blockCoal", "ore:blockCharcoal", "ore:blockLignite", "ore:blockFuelCoke",
	"minecraft:coal", "minecraft:coal:0", "minecraft:coal:1", "minecraft:coal_block",
	"Railcraft:fuel.coke", "Railcraft:cube:0", "minecraft:blaze_rod",
}

var boilerFuels = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range boilerFuelNames {
		m[n] = true
	}
	return m
}()

// Name implements skills.Implementation.
func (FeedSteamBoiler) Name() string { return "feed_steam_boiler" }

// SuggestActions implements skills.Implementation.
func (FeedSteamBoiler) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	radius := intParam(p, "radius", 24)
	amount := intParam(p, "amount", 16)
	fuel, fuelName, err := itemParam(p, "fuel", "ore:gemCoal")
	if err != nil {
		return nil, err
	}
	if !boilerFuels[fuelName] {
		return nil, skills.Failf(skills.CodeInvalidParams,
			"parameter \"fuel\": a GregTech coal boiler does not take %s: it burns only coal, charcoal, lignite and coke and solid fuels burning at least 2000 ticks (logs and planks burn 300 and are refused); use one of %s",
			fuelName, strings.Join(boilerFuelNames, ", "))
	}

	boilers := w.MachinesOfKind(world.MachineSteamBoiler, radius)
	if len(boilers) == 0 {
		return nil, skills.Failf(skills.CodeNoTarget, "no steam boiler within %d blocks of %s", radius, w.Feet())
	}

	fp := newPool(w.Inventory, fuel)
	var wet, dry []world.Machine
	var looks []action.Action
	unknown := 0
	for _, b := range boilers {
		if b.ContentsUnknown {
			// Looked into only while there is fuel to put in afterwards.
			unknown++
			if fp.total() > 0 {
				looks = append(looks, action.MoveTo{Pos: b.Pos, Radius: workRadius},
					action.OpenContainer{Pos: b.Pos}, action.CloseContainer{})
			}
			continue
		}
		if cur := b.Slot("fuel"); !cur.Empty() && cur.Count >= min(amount, stackSize) {
			continue // fuelled enough
		}
		if b.Fluid("water").Amount <= 0 {
			dry = append(dry, b)
			continue
		}
		wet = append(wet, b)
	}

	plan := planDeposits(wet, "fuel", amount, fuel, fp)
	switch {
	case len(looks)+len(plan.acts) > 0:
		return append(looks, plan.acts...), nil
	case len(dry) > 0:
		return nil, skills.Failf(skills.CodeUnsafe,
			"boiler(s) at %s have no water: fuel would heat them dry and a hot dry GregTech boiler explodes when water reaches it; refill water first (refill_water_tanks), and let a hot dry boiler cool down before watering it",
			positions(dry))
	case unknown > 0 && fp.total() == 0:
		return nil, skills.Failf(skills.CodeMissingItems,
			"%d boiler(s) may want fuel (%d not looked into yet) but the inventory holds no %s", plan.needy+unknown, unknown, fuelName)
	case plan.needy > 0 && fp.total() == 0:
		return nil, skills.Failf(skills.CodeMissingItems, "%d boiler(s) want fuel but the inventory holds no %s", plan.needy, fuelName)
	case plan.needy > 0:
		return nil, skills.Failf(skills.CodeMissingItems,
			"%d boiler(s) want fuel but their fuel slots hold a kind of %s the inventory lacks (a slot only stacks the same item)", plan.needy, fuelName)
	case len(plan.blocked) > 0:
		return nil, skills.Failf(skills.CodeNoTarget,
			"every boiler below %d fuel holds another fuel than %s (at %s); feed that fuel instead or wait for it to burn down",
			amount, fuelName, positions(plan.blocked))
	}
	return nil, nil
}
