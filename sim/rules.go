package sim

import (
	"fmt"
	"math"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

func (s *Sim) apply(tx *world.Tx, a action.Action) ipc.Result {
	switch x := a.(type) {
	case action.MoveTo:
		return s.moveTo(tx, x)
	case action.BreakBlock:
		return s.breakBlock(tx, x)
	case action.PlaceBlock:
		return s.placeBlock(tx, x)
	case action.UseItem:
		return s.useItem(tx, x)
	case action.Interact:
		if x.Pos != nil {
			if r, ok := s.reachable(tx, *x.Pos); !ok {
				return r
			}
		}
		return ipc.Result{Code: ipc.OK, Ticks: 2}
	case action.Equip:
		return s.equip(tx, x)
	case action.OpenContainer:
		if r, ok := s.reachable(tx, x.Pos); !ok {
			return r
		}
		if _, ok := tx.Machine(x.Pos); !ok {
			return ipc.Failf(ipc.InvalidParams, 0, "no container at %v", x.Pos)
		}
		p := x.Pos
		s.open = &p
		return ipc.Result{Code: ipc.OK, Ticks: 2}
	case action.CloseContainer:
		s.open = nil
		return ipc.Result{Code: ipc.OK, Ticks: 1}
	case action.TransferItems:
		return s.transfer(tx, x)
	case action.Craft:
		return s.craft(tx, x)
	case action.Wait:
		return ipc.Result{Code: ipc.OK, Ticks: int64(x.Ticks)}
	case action.Chat:
		s.said(tx.Player().Name, x.Message, tx.Tick())
		return ipc.Result{Code: ipc.OK, Ticks: 1}
	case action.Attack:
		return s.attack(tx, x)
	case action.DropItem:
		return s.throwItems(tx, x)
	}
	return ipc.Failf(ipc.UnsupportedAction, 0, "the simulator has no rule for %s", a.Kind())
}

// grid is the pathfinder's view of the state: cells classified by the
// block's tags, cached per block state; outside the scenario is Unknown.
type grid struct {
	s  *Sim
	tx *world.Tx
}

func (g grid) Cell(x, y, z int) path.Cell {
	if x < 0 || z < 0 || x >= g.s.sc.SizeX || z >= g.s.sc.SizeZ || y < 0 || y > 255 {
		return path.Unknown
	}
	st := g.tx.StateAt(world.Pos(x, y, z))
	if c, ok := g.s.cells[st]; ok {
		return c
	}
	c := path.ClassifyByTags(g.tx.Resolver().Block(st))
	g.s.cells[st] = c
	return c
}

// feet is the pathfinder's cell of the player's feet (path.FeetCell: on a
// chest, the cell above it).
func (s *Sim) feet(tx *world.Tx) world.BlockPos {
	p := tx.Player().Pos
	return path.FeetCell(grid{s, tx}, int(math.Floor(p.X)), p.Y, int(math.Floor(p.Z)))
}

// moveMaxNodes is the exact search's node budget for move_to; past it the
// long-route planner plans the route.
var moveMaxNodes = 200000

// moveTo follows the pathfinder's optimal walking path (a long route's
// from the long-route planner when the exact search runs out of nodes); it
// costs the path's ticks at walking speed. When no walking path exists it
// digs one (digRoute): through what the inventory's tools harvest, placing
// dirt or cobblestone to pillar or bridge. The player ends standing at the real height of the
// ground: half a block up on a bottom slab, on top of a carpet.
func (s *Sim) moveTo(tx *world.Tx, a action.MoveTo) ipc.Result {
	start := s.feet(tx)
	goal := path.Near(a.Pos, a.Radius)
	if goal.Reached(start) {
		return ipc.Result{Code: ipc.OK, Ticks: 0, Details: map[string]any{"steps": 0}}
	}
	opt := path.Options{MaxNodes: moveMaxNodes}
	res, err := s.finder.Find(grid{s, tx}, start, goal, opt)
	if err != nil {
		return ipc.Failf(ipc.InvalidParams, 0, "move_to %v: %v", a.Pos, err)
	}
	if res.Reason == path.NodeBudget {
		// A long route: the long-route planner's portals over 16×16
		// regions (within 2 % of the optimum on the benchmark routes),
		// kept from earlier routes where the columns did not change.
		r, err := s.routerFor(tx, opt.MaxNodes)
		if err != nil {
			return ipc.Failf(ipc.InvalidParams, 0, "move_to %v: %v", a.Pos, err)
		}
		rt, err := r.Find(start, goal)
		if err != nil {
			return ipc.Failf(ipc.InvalidParams, 0, "move_to %v: %v", a.Pos, err)
		}
		res = rt.Result
	}
	details := map[string]any{}
	dug := 0
	byHand := false
	if !res.Complete {
		// No walking path: dig (a buried target, the way out of a pit).
		var dr path.Result
		var why string
		dr, why, byHand, err = s.digRoute(tx, start, goal, a.Keep)
		if err != nil {
			return ipc.Failf(ipc.InvalidParams, 0, "move_to %v: %v", a.Pos, err)
		}
		if !dr.Complete {
			return digFailure(a, start, dr, why)
		}
		if !s.guarded {
			var placed int
			dug, placed, err = s.followDigRoute(tx, dr, byHand)
			if err != nil {
				return ipc.Failf(ipc.Internal, 0, "move_to %v: %v", a.Pos, err)
			}
			details["dug"], details["placed"] = dug, placed
		}
		if byHand {
			details["by_hand"] = true
		}
		res = dr
	}
	end := start
	if len(res.Steps) > 0 {
		end = res.Steps[len(res.Steps)-1].Pos
	}
	s.route.Set(res.Steps)
	if s.guarded {
		// Guarded: the way is taken as its time passes (guardedAdvance),
		// so a mob that comes near stops the walk part way.
		s.walk = &walk{steps: res.Steps, byHand: byHand}
		s.exhaust(s.walkExhaustion(start, res.Steps))
		details["steps"] = len(res.Steps)
		return ipc.Result{Code: ipc.OK, Ticks: int64(math.Ceil(res.Cost)), Details: details}
	}
	tx.MovePlayer(world.Vec3{X: float64(end.X) + 0.5, Y: standHeight(tx, end), Z: float64(end.Z) + 0.5})
	s.exhaust(s.walkExhaustion(start, res.Steps) + float64(dug)*s.rules.Food.Exhaustion.BreakBlock)
	details["steps"], details["to"] = len(res.Steps), end
	return ipc.Result{Code: ipc.OK, Ticks: int64(math.Ceil(res.Cost)), Details: details}
}

// reachable checks the survival reach from the eyes to the block's centre.
func (s *Sim) reachable(tx *world.Tx, p world.BlockPos) (ipc.Result, bool) {
	f := s.feet(tx)
	eye := world.Vec3{X: float64(f.X) + 0.5, Y: float64(f.Y) + eyeHeight, Z: float64(f.Z) + 0.5}
	if d := math.Sqrt(eye.DistSq(p.Center())); d > reach+1e-9 {
		return ipc.Failf(ipc.Unreachable, 0, "%v is %.2f blocks from the eyes; reach is %.1f", p, d, reach), false
	}
	return ipc.Result{}, true
}

// breakBlock mines a block with the held item: the time follows 1.7.10
// (hardness, tool speed, whether the tool's class and harvest level let it
// harvest the block), the held tool wears on every block with hardness
// (rules.Wear) and breaks past its durability, and the drops (seeded
// chances) go to the inventory — none when the block was not harvested.
// Details carry "harvested": false when the held item could not harvest
// the block, and "tool_broke" when the tool broke.
func (s *Sim) breakBlock(tx *world.Tx, a action.BreakBlock) ipc.Result {
	if r, ok := s.reachable(tx, a.Pos); !ok {
		return r
	}
	b := tx.BlockAt(a.Pos)
	if b.IsAir() {
		return ipc.Failf(ipc.Rejected, 0, "nothing to break at %v", a.Pos)
	}
	if o := s.rules.Ores; o != nil && b.ID == o.Block {
		b.Tags = append(b.Tags, tx.PositionTags(a.Pos)...) // the ore's material
	}
	info := s.ruleOf(b)
	if info.Hardness < 0 {
		return ipc.Failf(ipc.Rejected, 0, "%s at %v cannot be broken", b.ID, a.Pos)
	}
	inv := tx.Inventory()
	held := inv.HeldStack()
	if s.rules.Mining.MinesNothing(held.ID) {
		return ipc.Failf(ipc.Rejected, 0, "the held %s digs nothing in GTNH (IguanaTinkerTweaks' disableRegularTools: dig speed 0 whatever the block): hold another tool or none to break %s at %v", held.ID, b.ID, a.Pos)
	}
	speed := s.toolSpeed(held, info.Tool)
	harvest := s.canHarvest(info, held)
	ticks := int64(0)
	if info.Hardness > 0 {
		ticks = int64(math.Ceil(rules.BreakTicks(info.Hardness, speed, harvest)))
	}
	tx.SetBlock(a.Pos, "minecraft:air", 0)
	s.blockChanged(tx, a.Pos)
	worn := rules.Worn(held, rules.Wear(held, info.Hardness))
	inv.Slots[inv.Held] = worn
	var got []string
	if harvest {
		for _, d := range s.drops(b) {
			if s.give(&inv, d) {
				got = append(got, describeStack(d))
			}
		}
	}
	tx.SetInventory(inv)
	if harvest {
		s.exhaust(s.rules.Food.Exhaustion.BreakBlock) // Block.harvestBlock
	}
	details := map[string]any{"block": b.ID, "drops": got}
	if !harvest {
		details["harvested"] = false // the tool's class or harvest level falls short: no drops
	}
	if !held.Empty() && worn.Empty() {
		details["tool_broke"] = describeStack(held)
	}
	return ipc.Result{Code: ipc.OK, Ticks: max(ticks, 1), Details: details}
}

// drops are the items a broken block yields: the shipped drop table
// (config/drops.yaml), and the rolled drops of leaves with vanilla's
// chances (tall grass gives nothing in GTNH).
func (s *Sim) drops(b world.Block) []world.ItemStack {
	if o := s.rules.Ores; o != nil && b.ID == o.Block {
		return s.oreDrops(o, b)
	}
	d, random := s.rules.Drops.Of(b)
	if !random {
		return []world.ItemStack{s.rules.Stack(d.Item, d.Meta, d.Count)}
	}
	switch b.ID {
	case "minecraft:leaves", "minecraft:leaves2":
		// vanilla 1.7.10 BlockLeaves: a sapling 1 in 20, an oak apple 1 in 200
		var out []world.ItemStack
		if s.rng.IntN(20) == 0 {
			out = append(out, s.rules.Stack("minecraft:sapling", b.Meta&3, 1))
		}
		if b.ID == "minecraft:leaves" && b.Meta&3 == 0 && s.rng.IntN(200) == 0 {
			out = append(out, s.rules.Stack("minecraft:apple", 0, 1))
		}
		return out
	case "minecraft:tallgrass":
		// Vanilla 1.7.10 BlockTallGrass drops wheat seeds 1 in 8; GTNH's
		// Hunger Overhaul takes them out (GTNewHorizons/GT-New-Horizons-Modpack
		// config/HungerOverhaul.cfg at 275bedc2897179a04b30f9b31c4cf13dca3e48a8:
		// removeTallGrassSeeds=true; seeds come from a hoe on grass near
		// water, seedChance=25), so tall grass broken by hand gives nothing.
		return nil
	}
	return nil
}

// stackLimit is how many items of a kind share a slot.
func stackLimit(st world.ItemStack) int {
	switch {
	case st.MaxDamage > 0, st.ID == "minecraft:water_bucket", st.ID == "minecraft:lava_bucket", st.HasTag("ore:cellWater"):
		return 1
	case st.ID == "IguanaTweaksTConstruct:clayBucketWater":
		// IguanaTinkerTweaks 2.6.6 items/BaseClayBucket extends vanilla
		// ItemBucket, whose filled buckets stack to 1.
		return 1
	case st.ID == "minecraft:bucket", st.ID == "IguanaTweaksTConstruct:clayBucketFired":
		// IguanaTinkerTweaks 2.6.6 claybuckets/IguanaItems:
		// clayBucketFired.setMaxStackSize(16), as the iron bucket.
		return 16
	}
	return stackMax
}

func sameItem(a, b world.ItemStack) bool {
	// A Tinkers' tool never stacks (its NBT differs from tool to tool).
	return a.ID == b.ID && a.Meta == b.Meta && a.MaxDamage == 0 && b.MaxDamage == 0 && a.Tinker == nil && b.Tinker == nil
}

// give puts a stack into the inventory (merging first); it reports false
// when it did not all fit (the rest is lost, as items left on the ground).
func (s *Sim) give(inv *world.Inventory, st world.ItemStack) bool {
	left := st.Count
	limit := stackLimit(st)
	for i := range inv.Slots {
		if left == 0 {
			break
		}
		if !inv.Slots[i].Empty() && sameItem(inv.Slots[i], st) && inv.Slots[i].Count < limit {
			n := min(left, limit-inv.Slots[i].Count)
			inv.Slots[i].Count += n
			left -= n
		}
	}
	for i := range inv.Slots {
		if left == 0 {
			break
		}
		if inv.Slots[i].Empty() {
			n := min(left, limit)
			c := st
			c.Count = n
			inv.Slots[i] = c
			left -= n
		}
	}
	return left == 0
}

// take removes n items matching m, lowest slots first; false (and nothing
// removed) when there are fewer.
func take(inv *world.Inventory, m world.ItemMatcher, n int) (world.ItemStack, bool) {
	if inv.Count(m) < n {
		return world.ItemStack{}, false
	}
	var taken world.ItemStack
	for i := range inv.Slots {
		if n == 0 {
			break
		}
		if !m.Matches(inv.Slots[i]) {
			continue
		}
		k := min(n, inv.Slots[i].Count)
		if taken.Empty() {
			taken = inv.Slots[i]
			taken.Count = 0
		}
		taken.Count += k
		inv.Slots[i].Count -= k
		if inv.Slots[i].Count == 0 {
			inv.Slots[i] = world.ItemStack{}
		}
		n -= k
	}
	return taken, true
}

func (s *Sim) placeBlock(tx *world.Tx, a action.PlaceBlock) ipc.Result {
	if r, ok := s.reachable(tx, a.Pos); !ok {
		return r
	}
	m, err := world.ParseItemMatcher(a.Item)
	if err != nil {
		return ipc.Failf(ipc.InvalidParams, 0, "%v", err)
	}
	inv := tx.Inventory()
	slot := inv.Find(m)
	if slot < 0 {
		return ipc.Failf(ipc.InvalidParams, 0, "no %s in the inventory", a.Item)
	}
	block, meta, ok := blockForItem(inv.Slots[slot])
	if held := inv.Slots[slot]; !ok && (len(s.rules.Builds.Using(held.ID, held.Meta)) > 0 || s.rules.Recipes.IsStation(held.ID, held.Meta)) {
		// A blueprint's block (a coke oven block) and a station some
		// recipe is made at (a Tinkers' part builder) place themselves.
		block, meta, ok = held.ID, held.Meta, true
	}
	if !ok {
		return ipc.Failf(ipc.Rejected, 0, "%s is not a placeable block", describeStack(inv.Slots[slot]))
	}
	here := tx.BlockAt(a.Pos)
	if !here.IsAir() && !here.HasTag("replaceable") {
		return ipc.Failf(ipc.Rejected, 0, "%v is occupied by %s", a.Pos, here.ID)
	}
	if s.feet(tx) == a.Pos || s.feet(tx).Up() == a.Pos {
		return ipc.Failf(ipc.Rejected, 0, "the player stands at %v", a.Pos)
	}
	if mb := s.mobIn(a.Pos); mb != nil {
		return ipc.Failf(ipc.Rejected, 0, "a %s (entity %d) stands in %v", mb.kind.Name, mb.id, a.Pos)
	}
	support := false
	for _, d := range [][3]int{{0, -1, 0}, {0, 1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}} {
		nb := tx.BlockAt(a.Pos.Add(d[0], d[1], d[2]))
		if !nb.IsAir() && !nb.HasTag("liquid") && !nb.HasTag("replaceable") {
			support = true
			break
		}
	}
	if !support {
		return ipc.Failf(ipc.Rejected, 0, "no face to place against at %v", a.Pos)
	}
	if block == "minecraft:sapling" {
		if below := tx.BlockAt(a.Pos.Down()); !below.HasTag("soil") {
			return ipc.Failf(ipc.Rejected, 0, "a sapling needs grass or dirt below, found %s", below.ID)
		}
	}
	take(&inv, world.MustItem(describeStack(inv.Slots[slot])+metaSuffix(inv.Slots[slot])), 1)
	tx.SetInventory(inv)
	if err := tx.SetBlock(a.Pos, block, meta); err != nil {
		return ipc.Failf(ipc.Internal, 0, "%v", err)
	}
	if block == saplingBlock {
		s.trackSapling(a.Pos)
	}
	if block == "minecraft:furnace" {
		// A placed furnace is a machine: its window holds input, fuel
		// and output.
		tx.PutMachine(world.Machine{Kind: world.MachineFurnace, Pos: a.Pos, Formed: true,
			Slots: map[string]world.ItemStack{}, Fluids: map[string]world.FluidTank{}})
		s.furnaces[a.Pos] = &furnaceCore{}
	}
	if block == "minecraft:chest" {
		// A placed chest is a container of 27 slots, "0" to "26".
		tx.PutMachine(world.Machine{Kind: world.MachineChest, Pos: a.Pos, Formed: true,
			Slots: map[string]world.ItemStack{}, Fluids: map[string]world.FluidTank{}})
	}
	s.blockChanged(tx, a.Pos)
	return ipc.Result{Code: ipc.OK, Ticks: 4}
}

// metaSuffix pins a matcher to metadata 0 when the id alone would match
// other variants.
func metaSuffix(st world.ItemStack) string {
	if st.Meta == 0 {
		return ":0"
	}
	return ""
}

func (s *Sim) equip(tx *world.Tx, a action.Equip) ipc.Result {
	m, err := world.ParseItemMatcher(a.Item)
	if err != nil {
		return ipc.Failf(ipc.InvalidParams, 0, "%v", err)
	}
	inv := tx.Inventory()
	slot := s.rules.Mining.BestTool(inv, m, 0)
	if slot < 0 {
		return ipc.Failf(ipc.InvalidParams, 0, "no %s in the inventory", a.Item)
	}
	if slot >= 9 {
		// Swap it into the selected hotbar slot, as a player would.
		inv.Slots[slot], inv.Slots[inv.Held] = inv.Slots[inv.Held], inv.Slots[slot]
	} else {
		inv.Held = slot
	}
	tx.SetInventory(inv)
	return ipc.Result{Code: ipc.OK, Ticks: 1}
}

// useItem handles buckets and cells: filling at a water source, pouring
// into tanks and boilers (a hot, dry GregTech boiler explodes), draining
// creosote from coke ovens; a food used in the air is eaten (see eat).
func (s *Sim) useItem(tx *world.Tx, a action.UseItem) ipc.Result {
	m, err := world.ParseItemMatcher(a.Item)
	if err != nil {
		return ipc.Failf(ipc.InvalidParams, 0, "%v", err)
	}
	inv := tx.Inventory()
	slot := inv.Find(m)
	if slot < 0 {
		return ipc.Failf(ipc.InvalidParams, 0, "no %s in the inventory", a.Item)
	}
	st := inv.Slots[slot]
	if a.Target == nil {
		if r, ok := s.eat(tx, inv, slot); ok {
			return r
		}
		return ipc.Result{Code: ipc.OK, Ticks: 4}
	}
	if r, ok := s.reachable(tx, *a.Target); !ok {
		return r
	}
	empty := st.HasTag("container_empty")
	full := st.HasTag("container_water")
	filled, emptied := s.waterContainer(st)
	if mach, ok := tx.Machine(*a.Target); ok {
		switch {
		case full && mach.Kind == world.MachineSteamBoiler:
			return s.waterBoiler(tx, mach, &inv, st, emptied)
		case full && mach.Kind == world.MachineWaterTank:
			tank := mach.Fluids["water"]
			if tank.Capacity-tank.Amount < bucketMB {
				return ipc.Failf(ipc.Rejected, 4, "the %s at %v has no room for another bucket", mach.Kind, mach.Pos)
			}
			tank.Fluid = "water"
			tank.Amount += bucketMB
			mach.Fluids["water"] = tank
			tx.PutMachine(mach)
			take(&inv, world.MustItem(describeStack(st)+metaSuffix(st)), 1)
			s.give(&inv, emptied)
			tx.SetInventory(inv)
			return ipc.Result{Code: ipc.OK, Ticks: 4}
		case empty && mach.Kind == world.MachineCokeOven:
			tank := mach.Fluids["creosote"]
			if tank.Amount < bucketMB {
				return ipc.Failf(ipc.Rejected, 4, "the coke oven at %v holds %d mB of creosote, less than a bucket", mach.Pos, tank.Amount)
			}
			tank.Amount -= bucketMB
			mach.Fluids["creosote"] = tank
			tx.PutMachine(mach)
			take(&inv, world.MustItem(describeStack(st)+metaSuffix(st)), 1)
			s.give(&inv, s.rules.Stack("Railcraft:fluid.creosote.bucket", 0, 1))
			tx.SetInventory(inv)
			return ipc.Result{Code: ipc.OK, Ticks: 4}
		}
		return ipc.Failf(ipc.Rejected, 4, "using %s on the %s at %v does nothing", describeStack(st), mach.Kind, mach.Pos)
	}
	target := tx.BlockAt(*a.Target)
	if st.ID == "IguanaTweaksTConstruct:clayBucketFired" && target.HasTag("water_source") {
		// IguanaTinkerTweaks ClayBucketHandler: the fired clay bucket
		// takes water as an iron bucket does.
		take(&inv, world.MustItem(describeStack(st)+metaSuffix(st)), 1)
		s.give(&inv, s.rules.Stack("IguanaTweaksTConstruct:clayBucketWater", 0, 1))
		tx.SetInventory(inv)
		return ipc.Result{Code: ipc.OK, Ticks: 4}
	}
	if empty && target.HasTag("water_source") {
		// Ponds are treated as infinite water sources (as a 2×2 pool is).
		take(&inv, world.MustItem(describeStack(st)+metaSuffix(st)), 1)
		s.give(&inv, filled)
		tx.SetInventory(inv)
		return ipc.Result{Code: ipc.OK, Ticks: 4}
	}
	return ipc.Failf(ipc.Rejected, 4, "using %s on %s at %v does nothing", describeStack(st), target.ID, *a.Target)
}

// waterBoiler is MTEBoiler.onRightclick with a water container in hand: a
// water bucket pours into the water tank (as much as fits: GregTech fills
// the tank up to its capacity and hands back an empty bucket whatever it
// took); anything else, an IC2 water cell among them, opens the boiler's
// GUI instead, where a cell goes into the fluid input slot. Adding water
// does not explode a dry hot boiler here: the boiler's own tick does
// (runBoiler), within the next 10 ticks.
func (s *Sim) waterBoiler(tx *world.Tx, mach world.Machine, inv *world.Inventory, st, emptied world.ItemStack) ipc.Result {
	if st.ID != "minecraft:water_bucket" {
		return ipc.Failf(ipc.Rejected, 4, "right-clicking the %s at %v with %s opens its GUI and pours nothing: a water cell goes into the boiler's fluid input slot (open_container, then transfer_items into slot fluid_in)", mach.Kind, mach.Pos, describeStack(st))
	}
	tank := mach.Fluids["water"]
	filled := min(bucketMB, max(0, tank.Capacity-tank.Amount))
	tank.Fluid = "water"
	tank.Amount += filled
	mach.Fluids["water"] = tank
	tx.PutMachine(mach)
	take(inv, world.MustItem(describeStack(st)+metaSuffix(st)), 1)
	s.give(inv, emptied)
	tx.SetInventory(*inv)
	return ipc.Result{Code: ipc.OK, Ticks: 4, Details: map[string]any{"filled_mb": filled, "spilled_mb": bucketMB - filled}}
}

// waterContainer gives the filled and the emptied form of a bucket or cell.
func (s *Sim) waterContainer(st world.ItemStack) (filled, emptied world.ItemStack) {
	if st.ID == "IC2:itemCellEmpty" {
		return s.rules.Stack("IC2:itemCellEmpty", 1, 1), s.rules.Stack("IC2:itemCellEmpty", 0, 1)
	}
	return s.rules.Stack("minecraft:water_bucket", 0, 1), s.rules.Stack("minecraft:bucket", 0, 1)
}

func (s *Sim) transfer(tx *world.Tx, a action.TransferItems) ipc.Result {
	if s.open == nil || *s.open != a.Pos {
		return ipc.Failf(ipc.Rejected, 0, "the container at %v is not open", a.Pos)
	}
	mach, ok := tx.Machine(a.Pos)
	if !ok {
		return ipc.Failf(ipc.InvalidParams, 0, "no container at %v", a.Pos)
	}
	m, err := world.ParseItemMatcher(a.Item)
	if err != nil {
		return ipc.Failf(ipc.InvalidParams, 0, "%v", err)
	}
	inv := tx.Inventory()
	slotName := a.Slot
	if a.Direction == action.Deposit {
		if slotName == "" {
			slotName = firstFreeSlot(mach, m)
		}
		cur := mach.Slots[slotName]
		have := inv.Count(m)
		if have < a.Count {
			return ipc.Failf(ipc.InvalidParams, 0, "only %d %s in the inventory, %d asked", have, a.Item, a.Count)
		}
		if probe := inv.Slots[inv.Find(m)]; !s.accepts(mach, slotName, probe) {
			if mach.Kind == world.MachineSteamBoiler && slotName == "fuel" {
				return ipc.Failf(ipc.Rejected, 0, "the %s's fuel slot does not accept %s: a GregTech coal boiler burns only coal, charcoal, lignite, coke and fuels burning at least %d ticks", mach.Kind, describeStack(probe), boilerMinBurn)
			}
			return ipc.Failf(ipc.Rejected, 0, "the %s's %s slot does not accept %s", mach.Kind, slotName, describeStack(probe))
		}
		probe := inv.Slots[inv.Find(m)]
		if !cur.Empty() && !sameItem(cur, probe) {
			return ipc.Failf(ipc.Rejected, 0, "the %s slot holds %s", slotName, describeStack(cur))
		}
		room := stackLimit(probe) - cur.Count
		if room < a.Count {
			return ipc.Failf(ipc.Rejected, 0, "the %s slot has room for %d, %d asked", slotName, room, a.Count)
		}
		moved, _ := take(&inv, world.MustItem(describeStack(probe)+metaSuffix(probe)), a.Count)
		if cur.Empty() {
			cur = moved
		} else {
			cur.Count += moved.Count
		}
		mach.Slots[slotName] = cur
	} else {
		if slotName == "" {
			slotName = firstMatchingSlot(mach, m)
		}
		cur := mach.Slots[slotName]
		if !m.Matches(cur) || cur.Count < a.Count {
			return ipc.Failf(ipc.Rejected, 0, "the %s slot of the %s at %v holds %d %s, %d asked", slotName, mach.Kind, a.Pos, max(0, cur.Count), a.Item, a.Count)
		}
		out := cur
		out.Count = a.Count
		if !s.give(&inv, out) {
			return ipc.Failf(ipc.Rejected, 0, "the inventory has no room for %d %s", a.Count, a.Item)
		}
		cur.Count -= a.Count
		if cur.Count == 0 {
			delete(mach.Slots, slotName)
		} else {
			mach.Slots[slotName] = cur
		}
	}
	tx.SetInventory(inv)
	tx.PutMachine(mach)
	return ipc.Result{Code: ipc.OK, Ticks: 2}
}

// accepts says what machine slots take: coke oven input takes what it can
// coke (TileCokeOven.isItemValidForSlot), a boiler's fuel slot what it
// burns and its fluid input slot water containers (MTEBoiler.addUIWidgets:
// the fluid output and ash slots take nothing); other machines' slots take
// anything.
func (s *Sim) accepts(m world.Machine, slot string, st world.ItemStack) bool {
	switch {
	case m.Kind == world.MachineCokeOven && slot == "input":
		_, ok := s.rules.Coke.Recipe(st)
		return ok
	case m.Kind == world.MachineCokeOven && slot == "output":
		return false
	case m.Kind == world.MachineSteamBoiler && slot == "fuel":
		// The GUI's fuel slot filter is MTEBoilerBronze.isItemValidFuel
		// (MTEBoiler.createFuelSlot).
		return boilerAccepts(st)
	case m.Kind == world.MachineSteamBoiler && slot == "fluid_in":
		// isItemValidFluidFilledItem: a container of water.
		return st.HasTag("container_water")
	case m.Kind == world.MachineSteamBoiler:
		return false
	case m.Kind == world.MachineFurnace && slot == "input":
		// SlotFurnace / TileEntityFurnace.isItemValidForSlot lets
		// anything into the input; the simulator takes only what smelts.
		_, ok := s.rules.Smelt.Recipe(st)
		return ok
	case m.Kind == world.MachineFurnace && slot == "fuel":
		return s.rules.Smelt.BurnTicks(st) > 0
	case m.Kind == world.MachineFurnace:
		return false // the output slot takes nothing
	}
	return true
}

func firstFreeSlot(m world.Machine, it world.ItemMatcher) string {
	for i := 0; i < 27; i++ {
		name := fmt.Sprint(i)
		if cur := m.Slots[name]; cur.Empty() || it.Matches(cur) && cur.Count < stackMax {
			return name
		}
	}
	return "26"
}

func firstMatchingSlot(m world.Machine, it world.ItemMatcher) string {
	names := make([]string, 0, len(m.Slots))
	for n := range m.Slots {
		names = append(names, n)
	}
	sortSlots(names)
	for _, n := range names {
		if it.Matches(m.Slots[n]) {
			return n
		}
	}
	return ""
}

// craft crafts a.Count operations of the first recipe for a.Item whose
// tools are held, whose grid is there and whose ingredients the inventory
// covers. A tool that wears in the grid (config/crafting_tools.yaml: the
// flint mortar and knife, the wooden brick form) loses its damage per craft
// on each operation and is gone after its last; the operations must fit in
// the crafts the held tools still do. A crafted grid tool is new.
func (s *Sim) craft(tx *world.Tx, a action.Craft) ipc.Result {
	recipes := s.rules.Recipes.For(a.Item)
	if len(recipes) == 0 {
		return ipc.Failf(ipc.InvalidParams, 0, "no recipe makes %s", a.Item)
	}
	inv := tx.Inventory()
	var worn []string
	for _, r := range recipes {
		ok := true
		for _, tool := range r.Tools {
			uses := s.rules.Grid.UsesIn(inv, tool)
			switch {
			case uses == 0:
				ok = false
			case uses > 0 && uses < a.Count:
				ok = false
				worn = append(worn, fmt.Sprintf("the tools matching %s held do %d more crafts, %d asked", tool, uses, a.Count))
			}
		}
		if !ok {
			continue
		}
		if r.NeedsTable() {
			if a.Table == nil {
				continue
			}
			if tx.BlockAt(*a.Table).ID != "minecraft:crafting_table" {
				return ipc.Failf(ipc.InvalidParams, 0, "no crafting table at %v", *a.Table)
			}
			if res, ok := s.reachable(tx, *a.Table); !ok {
				return res
			}
		}
		if r.AtStation() {
			// Made in the station's own window (a Tinkers' stencil
			// table, part builder or tool station): the block must be
			// there and within reach.
			if a.Table == nil {
				continue
			}
			id, meta, _ := world.SplitID(r.Station)
			if b := tx.BlockAt(*a.Table); b.ID != id || b.Meta != max(meta, 0) {
				return ipc.Failf(ipc.InvalidParams, 0, "%s is made at %s, and %v holds %s", r.Output, r.Station, *a.Table, describeBlock(b))
			}
			if res, ok := s.reachable(tx, *a.Table); !ok {
				return res
			}
		}
		for _, in := range r.Ingredients {
			ok = ok && inv.Count(in.Item) >= in.Count*a.Count
		}
		if !ok {
			continue
		}
		var tinker *world.TinkerTool
		for _, in := range r.Ingredients {
			got, _ := take(&inv, in.Item, in.Count*a.Count)
			if t, ok := s.rules.Mining.TinkerTool(r.Output, got); ok && r.AtStation() {
				// The tool station writes the head's material into
				// the tool's NBT (config/mining.yaml's tinkers).
				tinker = t
			}
		}
		for _, tool := range r.Tools {
			for range a.Count {
				s.wearGridTool(&inv, tool)
			}
		}
		id, meta, _ := world.SplitID(r.Output)
		if meta < 0 {
			meta = 0
		}
		made := s.rules.Stack(id, meta, r.Count*a.Count)
		made.Tinker = tinker
		if _, ok := s.rules.Grid.Get(made); ok {
			// Grid tools do not stack: each is a new one.
			for range made.Count {
				one := made
				one.Count = 1
				if !s.give(&inv, s.rules.Grid.New(one)) {
					return ipc.Failf(ipc.Rejected, 0, "the inventory has no room for %d %s", r.Count*a.Count, r.Output)
				}
			}
		} else if !s.give(&inv, made) {
			return ipc.Failf(ipc.Rejected, 0, "the inventory has no room for %d %s", r.Count*a.Count, r.Output)
		}
		for _, back := range r.Returns {
			// The containers the grid gives back (vanilla
			// SlotCrafting.onPickupFromSlot: into the inventory).
			bid, bmeta, _ := world.SplitID(back)
			if !s.give(&inv, s.rules.Stack(bid, max(bmeta, 0), a.Count)) {
				return ipc.Failf(ipc.Rejected, 0, "the inventory has no room for the %d %s given back", a.Count, back)
			}
		}
		tx.SetInventory(inv)
		return ipc.Result{Code: ipc.OK, Ticks: int64(10 * a.Count), Details: map[string]any{"made": r.Count * a.Count}}
	}
	if len(worn) > 0 {
		return ipc.Failf(ipc.Rejected, 0, "%d × %s: %s", a.Count, a.Item, strings.Join(worn, "; "))
	}
	return ipc.Failf(ipc.Rejected, 0, "missing ingredients (or a crafting table) for %d × %s", a.Count, a.Item)
}

// wearGridTool wears the first stack matching a recipe's tool that still
// does a craft by one craft (the tool the player left in the grid).
func (s *Sim) wearGridTool(inv *world.Inventory, tool world.ItemMatcher) {
	for i, st := range inv.Slots {
		if !tool.Matches(st) || s.rules.Grid.Uses(st) == 0 {
			continue
		}
		if s.rules.Grid.Uses(st) < 0 {
			return // it does not wear
		}
		if st.Count > 1 {
			// One of the stack goes into the grid and wears there.
			inv.Slots[i].Count--
			st.Count = 1
			if w := s.rules.Grid.AfterCraft(st); !w.Empty() {
				s.give(inv, w)
			}
			return
		}
		inv.Slots[i] = s.rules.Grid.AfterCraft(st)
		return
	}
}

// Give puts count of an item ("modid:name" or "modid:name:meta") into the
// player's inventory as a server does when the player claims a quest's
// rewards (BetterQuesting's RewardItem: what does not fit is dropped at
// the player's feet; here it is lost, and the error says how many). It
// waits for an action under way to end.
func (s *Sim) Give(item string, count int) error {
	id, meta, err := world.SplitID(item)
	if err != nil || strings.HasPrefix(item, "ore:") || strings.HasPrefix(item, "tool:") {
		return fmt.Errorf("give %q: an item id expected (modid:name or modid:name:meta)", item)
	}
	if count < 1 {
		return fmt.Errorf("give %d %s: the count must be at least 1", count, item)
	}
	s.acting <- struct{}{}
	defer func() { <-s.acting }()
	fit := true
	s.state.Update(func(tx *world.Tx) {
		inv := tx.Inventory()
		fit = s.give(&inv, s.rules.Grid.New(s.rules.Stack(id, max(meta, 0), count)))
		tx.SetInventory(inv)
	})
	if !fit {
		return fmt.Errorf("%d %s: the inventory had no room for all of them", count, item)
	}
	return nil
}
