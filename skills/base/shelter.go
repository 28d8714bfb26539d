package base

import (
	"math"
	"sort"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

func init() { registry.Provide(Shelter{}) }

// coverBlocks are the blocks the shelter's roof may be made of, in the
// order they are taken: full blocks that do not fall (sand and gravel
// would fall on the head).
var coverBlocks = path.SealBlocks

// shelterSearch is how far from the feet (in blocks, each way) the
// shelter looks for ground to dig into.
const shelterSearch = 3

// Shelter walls the bot in for the night the way a player does: it digs
// three blocks straight down (the body falls into the pit, the ground
// around it is the wall) and puts a block over its head, against the
// pit's side. The ground must hold: the blocks beside the feet and the head
// at the bottom and the one under the pit solid, the three dug ones
// diggable (no bedrock, no liquid), so it looks for such a column within 3
// blocks, nearest first, and walks there first when it is not here. The
// roof is a block from the inventory (dirt, cobblestone, stone, planks,
// logs) or the dirt the dig gives (grass and dirt drop dirt). Where no
// ground within reach holds a pit, it builds its walls where it stands
// from the blocks it holds (sealHere, as wall_in does). A bot
// already walled in (path.Enclosed) waits there for the given ticks
// instead; with none given that is no_target. A shelter the memory
// remembers within 16 blocks that is still whole enough to close again
// comes before a new pit (see reuse). While it waits walled in it mines
// a block of its walls where that leaves the room closed (wallToMine), or
// else the floor under its feet (floorToMine), or else it drives a strip
// tunnel on from its room, walling off what lies behind (tunnelToMine),
// so a night is work.
type Shelter struct {
	Rules *rules.Set
}

var _ skills.RuleUser = Shelter{}

// Name implements skills.Implementation.
func (Shelter) Name() string { return "shelter" }

// WithRules implements skills.RuleUser.
func (Shelter) WithRules(set *rules.Set) skills.Implementation { return Shelter{Rules: set} }

// SuggestActions implements skills.Implementation.
func (sk Shelter) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	feet := w.Feet()
	set := sk.Rules
	if set == nil {
		set = rules.Default()
	}
	if path.Enclosed(w, feet) {
		wait := intParam(p, "wait", 0)
		if wait <= 0 {
			return nil, skills.Failf(skills.CodeNoTarget, "already walled in at %v", feet)
		}
		var equip []action.Action
		if slot, ok := shelterPick(w, set); ok {
			// The pickaxe a hand takes for "tool:pickaxe" (the highest
			// level), or, when that one is worn, this one by its id.
			item := "tool:pickaxe"
			if set.Mining.BestTool(w.Inventory, world.MustItem(item), 0) != slot {
				item = w.Inventory.Slots[slot].ID
			}
			equip = []action.Action{action.Equip{Item: item}}
		} else if w.Inventory.BestTool(world.MustItem("tool:pickaxe"), 1) >= 0 {
			// Only pickaxes near their end: the hand could be one of
			// them, and what it mines would wear it. It waits.
			return []action.Action{action.Wait{Ticks: action.Ticks(wait)}}, nil
		}
		if at, ok := sk.wallToMine(w, set, feet); ok {
			return append(equip, action.BreakBlock{Pos: at}, action.Wait{Ticks: action.Ticks(wait)}), nil
		}
		if at, ok := sk.floorToMine(w, set, feet); ok {
			return append(equip, action.BreakBlock{Pos: at}, action.Wait{Ticks: action.Ticks(wait)}), nil
		}
		if acts, ok := sk.tunnelToMine(w, set, feet); ok {
			return append(append(equip, acts...), action.Wait{Ticks: action.Ticks(wait)}), nil
		}
		return []action.Action{action.Wait{Ticks: action.Ticks(wait)}}, nil
	}
	if acts, ok := sk.reuse(w, feet); ok {
		return acts, nil
	}
	var sites []world.BlockPos
	for dz := -shelterSearch; dz <= shelterSearch; dz++ {
		for dx := -shelterSearch; dx <= shelterSearch; dx++ {
			sites = append(sites, feet.Add(dx, 0, dz))
		}
	}
	sort.SliceStable(sites, func(i, j int) bool { return sites[i].DistSq(feet) < sites[j].DistSq(feet) })
	for _, top := range sites {
		if top != feet {
			// Another column: the player stands on its ground.
			at, ok := standIn(w, top.X, top.Z, feet.Y+1, feet.Y-1)
			if !ok {
				continue
			}
			top = at
		}
		cover, ok := sk.pit(w, set, top)
		if !ok {
			continue
		}
		var acts []action.Action
		if top != feet {
			acts = append(acts, action.MoveTo{Pos: top})
		}
		for dy := 1; dy <= 3; dy++ {
			acts = append(acts, action.BreakBlock{Pos: top.Add(0, -dy, 0)})
		}
		return append(acts, action.PlaceBlock{Pos: top.Down(), Item: cover, Face: "auto"}), nil
	}
	// No ground to dig into (a pillar in a mined-out hall, a floor one
	// block thick over a cave, sand): it builds its walls where it stands
	// from the blocks it holds, as the defend reflex walls in.
	if acts, ok := sealHere(w, feet); ok {
		return acts, nil
	}
	return nil, skills.Failf(skills.CodeNoTarget, "no ground to dig a shelter into within %d blocks of %v (or no block for its roof), and no wall to build there: a cell around the feet and the head is liquid, unknown or holds a mob, has nothing to place against, or the inventory holds too few blocks of one kind (dirt, cobblestone, stone, planks, logs)", shelterSearch, feet)
}

// sealHere walls the bot in where it stands with blocks from the
// inventory (path.Seal, path.SealWith): a block in every open cell beside
// the feet and the head and above the head.
func sealHere(w *world.Snapshot, feet world.BlockPos) ([]action.Action, bool) {
	seal, ok := path.Seal(w, feet)
	if !ok {
		return nil, false
	}
	cover, ok := path.SealWith(w.Inventory, len(seal))
	if !ok {
		return nil, false
	}
	acts := make([]action.Action, 0, len(seal))
	for _, c := range seal {
		acts = append(acts, action.PlaceBlock{Pos: c, Item: cover, Face: "auto"})
	}
	return acts, true
}

// Bounds of the room the bot mines out of its walls while it waits (each
// way from the feet it stands on; it does not move, so every block stays
// within reach).
const (
	roomSide  = 2 // blocks beside the feet, each way
	roomBelow = 1 // blocks below the feet
)

// wallToMine picks the block of the shelter's walls the bot mines while it
// waits, as a player in a pit at night mines around it: a block with a
// pickaxe in the inventory that harvests it (stone gives cobblestone, coal
// ore coal), with a sure drop, next to the room the bot is walled into,
// within roomSide blocks beside the feet and from roomBelow below to the
// head's level (never the roof's level, which is the ground's), not the
// floor under the feet, and only where mining it leaves the room closed:
// every other block around it known and solid, nothing that falls (sand,
// gravel) above it, no machine. Blocks that need the pickaxe come first
// (ore and stone over dirt), then the nearest to the eyes.
func (sk Shelter) wallToMine(w *world.Snapshot, set *rules.Set, feet world.BlockPos) (world.BlockPos, bool) {
	pick := digger(w, set)
	room, ok := path.Room(w, feet)
	if !ok || len(room) >= path.RoomCells {
		return world.BlockPos{}, false
	}
	inRoom := map[world.BlockPos]bool{}
	for _, c := range room {
		inRoom[c] = true
	}
	machines := map[world.BlockPos]bool{}
	for _, m := range w.Machines {
		machines[m.Pos] = true
	}
	solid := func(p world.BlockPos) bool {
		return w.Known(p) && path.ClassifyByTags(w.BlockAt(p)) == path.Solid
	}
	eye := world.Vec3{X: float64(feet.X) + 0.5, Y: float64(feet.Y) + eyeHeight, Z: float64(feet.Z) + 0.5}
	sides := [6][3]int{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}
	var best world.BlockPos
	bestTool, bestD, found := false, 0.0, false
	for _, c := range room {
		for _, d := range sides {
			at := c.Add(d[0], d[1], d[2])
			if inRoom[at] || at == feet.Down() || machines[at] ||
				abs(at.X-feet.X) > roomSide || abs(at.Z-feet.Z) > roomSide || at.Y < feet.Y-roomBelow || at.Y > feet.Y+1 ||
				!solid(at) {
				continue
			}
			b := w.BlockAt(at)
			rule, known := set.Mining.Block(b.ID)
			if !known || rule.Hardness < 0 || fallingBlocks[b.ID] || !set.Mining.Harvests(rule, pick, 0) {
				continue
			}
			if drop, random := set.Drops.Of(b); random || drop.Item == "" {
				continue
			}
			closed := !fallingBlocks[w.BlockAt(at.Up()).ID]
			for _, e := range sides {
				if n := at.Add(e[0], e[1], e[2]); !inRoom[n] && !solid(n) {
					closed = false
				}
			}
			if !closed && !fallingBlocks[w.BlockAt(at.Up()).ID] {
				// Behind it a pocket of an earlier night's room (a
				// remembered shelter closed again): mined, the room
				// joins the pocket, which is fine if the whole stays
				// a closed room, with no mob shut in the pocket
				// (path.Sheltered).
				closed = path.Sheltered(withAir(w, at), feet, set.Mobs)
			}
			dist := math.Sqrt(eye.DistSq(at.Center()))
			if !closed || dist > reach {
				continue
			}
			better := !found || rule.NeedsTool && !bestTool ||
				rule.NeedsTool == bestTool && (dist < bestD || dist == bestD && at.Less(best))
			if better {
				best, bestTool, bestD, found = at, rule.NeedsTool, dist, true
			}
		}
	}
	return best, found
}

// floorToMine picks the floor under the feet for the bot to mine while it
// waits when no wall can be (a pit dug beside its own tunnels, whose every
// wall opens into one): a block the pickaxe harvests with a sure drop, not
// a machine, over solid ground, and only where the room stays closed once
// the bot has dropped into it. That bounds the depth too: a room counts as
// closed only within path.RoomReach (4) blocks of the feet, so the feet go
// at most four blocks under the room's top — three under the pit's
// bottom, a climb out in the morning still makes. A level lower, the
// walls are another layer of rock, away from the tunnels, for the next
// waits to mine.
func (sk Shelter) floorToMine(w *world.Snapshot, set *rules.Set, feet world.BlockPos) (world.BlockPos, bool) {
	room, ok := path.Room(w, feet)
	if !ok || len(room) >= path.RoomCells {
		return world.BlockPos{}, false
	}
	floor := feet.Down()
	solid := func(p world.BlockPos) bool {
		return w.Known(p) && path.ClassifyByTags(w.BlockAt(p)) == path.Solid
	}
	for _, m := range w.Machines {
		if m.Pos == floor || m.Pos == floor.Down() {
			return world.BlockPos{}, false
		}
	}
	if !solid(floor) || !solid(floor.Down()) {
		return world.BlockPos{}, false
	}
	b := w.BlockAt(floor)
	rule, known := set.Mining.Block(b.ID)
	if !known || rule.Hardness < 0 || fallingBlocks[b.ID] || !set.Mining.Harvests(rule, digger(w, set), 0) {
		return world.BlockPos{}, false
	}
	if drop, random := set.Drops.Of(b); random || drop.Item == "" {
		return world.BlockPos{}, false
	}
	if !path.Sheltered(withAir(w, floor), floor, set.Mobs) {
		return world.BlockPos{}, false
	}
	return floor, true
}

// shelterKeepUses is how many uses a pickaxe keeps from the shelter's
// mining: the night's walls (a block every half minute, about 18) would
// otherwise wear the last pickaxe out, and with it the climb out in the
// morning and the goal's next mining (a Tinkers' iron pickaxe lost in a
// pit leaves the ores of harvest level 2 out of reach). It is the uses
// left at which the goal planner makes a spare before a step that needs
// the pickaxe, so a worn one is replaced by day, not in the pit.
const shelterKeepUses = 8

// shelterPick is the pickaxe the shelter mines with while it waits: of
// those held with more than shelterKeepUses uses left (or unbreakable),
// the highest harvest level, then the most uses left. ok is false when
// there is none.
func shelterPick(w *world.Snapshot, set *rules.Set) (int, bool) {
	slot := set.Mining.BestTool(w.Inventory, world.MustItem("tool:pickaxe"), shelterKeepUses+1)
	return slot, slot >= 0
}

// digger is what the bot mines its shelter's walls with: its pickaxe
// (shelterPick), or the hand (empty) without one — dirt drops for a hand,
// stone and ore do not (config/mining.yaml).
func digger(w *world.Snapshot, set *rules.Set) world.ItemStack {
	if slot, ok := shelterPick(w, set); ok {
		return w.Inventory.Slots[slot]
	}
	return world.ItemStack{}
}

// withBlocks is w with the blocks at some positions changed, for asking
// what mining or placing them would leave.
func withBlocks(w *world.Snapshot, set map[world.BlockPos]world.Block) *world.Snapshot {
	c := *w
	c.Blocks = overlay{BlockSource: w.Blocks, set: set}
	return &c
}

// withAir is w with the block at p mined (air).
func withAir(w *world.Snapshot, p world.BlockPos) *world.Snapshot {
	return withBlocks(w, map[world.BlockPos]world.Block{p: world.Air})
}

// overlay is a block source with a few blocks changed; BlockAt and Known
// see them (what path.Room reads), Nearest does not.
type overlay struct {
	world.BlockSource
	set map[world.BlockPos]world.Block
}

func (o overlay) BlockAt(p world.BlockPos) world.Block {
	if b, ok := o.set[p]; ok {
		return b
	}
	return o.BlockSource.BlockAt(p)
}

// Known is the source's (see world.Snapshot.Known).
func (o overlay) Known(p world.BlockPos) bool {
	if k, ok := o.BlockSource.(interface{ Known(world.BlockPos) bool }); ok {
		return k.Known(p)
	}
	return true
}

// fallingBlocks fall into a room mined under them (BlockFalling in 1.7.10).
var fallingBlocks = map[string]bool{"minecraft:sand": true, "minecraft:gravel": true}

// pit checks that a pit three deep under a player standing at top walls
// it in, and returns the block its roof is made of.
func (sk Shelter) pit(w *world.Snapshot, set *rules.Set, top world.BlockPos) (string, bool) {
	cell := func(p world.BlockPos) path.Cell {
		if !w.Known(p) {
			return path.Unknown
		}
		return path.ClassifyByTags(w.BlockAt(p))
	}
	for dy := 1; dy <= 3; dy++ {
		p := top.Add(0, -dy, 0)
		if cell(p) != path.Solid || w.BlockAt(p).ID == "minecraft:bedrock" {
			return "", false
		}
	}
	if cell(top.Add(0, -4, 0)) != path.Solid {
		return "", false
	}
	sideAtRoof := false
	for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		for dy := 2; dy <= 3; dy++ {
			if cell(top.Add(d[0], -dy, d[1])) != path.Solid {
				return "", false
			}
		}
		if cell(top.Add(d[0], -1, d[1])) == path.Solid {
			sideAtRoof = true
		}
	}
	if !sideAtRoof {
		return "", false // nothing to put the roof against
	}
	for _, id := range coverBlocks {
		if w.Inventory.CountID(id) > 0 {
			return id, true
		}
	}
	// The dig's own drops: what the two upper blocks give by hand.
	for dy := 1; dy <= 2; dy++ {
		b := w.BlockAt(top.Add(0, -dy, 0))
		if d, random := set.Drops.Of(b); !random && d.Item == "minecraft:dirt" {
			return d.Item, true
		}
	}
	return "", false
}

// tunnelToMine drives a strip-mine tunnel on from the room the bot is
// walled into when neither a wall nor the floor can be mined (a room mined
// out to its bounds, a pit beside the bot's own tunnels), as a player
// spends a night underground: from a cell of the room it can stand in
// (the floor solid, the head's cell in the room), it mines the two blocks
// ahead (feet and head; the pickaxe harvests both with a sure drop, none
// falls, nothing that falls above, no machine, solid ground under them)
// and steps in, only where the bot ends in a closed room (path.Enclosed:
// every cell it reaches within path.RoomReach blocks of the feet, at most
// path.RoomCells, solid and seen all round), so the tunnel never opens
// the room to a cave or a mob. Where the room with the tunnel would no
// longer be one, it walls itself in where it stepped (path.Seal, as
// wall_in does, with the blocks of path.SealWith, dirt first): the way it
// came, a block where it stood and one above, and any cave the two
// blocks opened into, so the new room is the tunnel's two cells; in
// solid rock that is 2 blocks placed every 5 blocks of tunnel, 8 mined.
// In ground mined through (a room walled in with placed blocks in a
// cave, a pillar in a hall) it tunnels through a wall and closes what
// lies open round the new cells, the fewest blocks first, until the
// walls are rock again and mining them keeps the room closed. The straight way on comes first, then the cells
// nearest the feet, then the block that needs the pickaxe (stone over
// dirt).
func (sk Shelter) tunnelToMine(w *world.Snapshot, set *rules.Set, feet world.BlockPos) ([]action.Action, bool) {
	room, ok := path.Room(w, feet)
	if !ok {
		return nil, false
	}
	pick := digger(w, set)
	if pick.Empty() {
		return nil, false // stone by hand drops nothing
	}
	inRoom := map[world.BlockPos]bool{}
	for _, c := range room {
		inRoom[c] = true
	}
	machines := map[world.BlockPos]bool{}
	for _, m := range w.Machines {
		machines[m.Pos] = true
	}
	solid := func(p world.BlockPos) bool {
		return w.Known(p) && path.ClassifyByTags(w.BlockAt(p)) == path.Solid
	}
	mineable := func(p world.BlockPos) (needsTool, ok bool) {
		if !solid(p) || machines[p] || fallingBlocks[w.BlockAt(p).ID] {
			return false, false
		}
		b := w.BlockAt(p)
		rule, known := set.Mining.Block(b.ID)
		if !known || rule.Hardness < 0 || !set.Mining.Harvests(rule, pick, 0) {
			return false, false
		}
		if drop, random := set.Drops.Of(b); random || drop.Item == "" {
			return false, false
		}
		return rule.NeedsTool, true
	}
	type way struct {
		stand, ahead world.BlockPos
		straight     bool
		tool         bool
		dist         int
	}
	var ways []way
	dirs := [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	for _, s := range room {
		if !inRoom[s.Up()] || !solid(s.Down()) {
			continue
		}
		for _, d := range dirs {
			a := s.Add(d[0], 0, d[1])
			h := a.Up()
			t1, ok1 := mineable(a)
			t2, ok2 := mineable(h)
			if !ok1 || !ok2 || !solid(a.Down()) || fallingBlocks[w.BlockAt(h.Up()).ID] {
				continue
			}
			back := s.Add(-d[0], 0, -d[1])
			ways = append(ways, way{stand: s, ahead: a, straight: inRoom[back] && inRoom[back.Up()], tool: t1 || t2,
				dist: abs(s.X-feet.X) + abs(s.Y-feet.Y) + abs(s.Z-feet.Z)})
		}
	}
	sort.SliceStable(ways, func(i, j int) bool {
		a, b := ways[i], ways[j]
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		if a.straight != b.straight {
			return a.straight
		}
		if a.tool != b.tool {
			return a.tool
		}
		return a.ahead.Less(b.ahead)
	})
	// The first way that keeps a closed room with no block placed, else
	// the one that needs the fewest.
	var best []action.Action
	bestPlaced := 0
	for _, wy := range ways {
		a, h := wy.ahead, wy.ahead.Up()
		var acts []action.Action
		if wy.stand != feet {
			acts = append(acts, action.MoveTo{Pos: wy.stand})
		}
		acts = append(acts, action.BreakBlock{Pos: a}, action.BreakBlock{Pos: h}, action.MoveTo{Pos: a})
		dug := withBlocks(w, map[world.BlockPos]world.Block{a: world.Air, h: world.Air})
		if path.Sheltered(dug, a, set.Mobs) {
			return acts, true
		}
		seal, ok := path.Seal(dug, a)
		if !ok || best != nil && len(seal) >= bestPlaced {
			continue
		}
		cover, ok := path.SealWith(w.Inventory, len(seal))
		if !ok {
			continue
		}
		// Sealed, the room is the tunnel's two cells, which were rock:
		// no mob is in them.
		for _, c := range seal {
			acts = append(acts, action.PlaceBlock{Pos: c, Item: cover, Face: "auto"})
		}
		best, bestPlaced = acts, len(seal)
	}
	return best, best != nil
}
