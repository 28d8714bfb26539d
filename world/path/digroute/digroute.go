package digroute

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// ScaffoldItems are the blocks a digging route places to pillar up or
// bridge a gap, in the order they are used: blocks a player has plenty of
// and that stand where they are put (sand and gravel fall).
var ScaffoldItems = []string{"minecraft:dirt", "minecraft:cobblestone"}

// ScaffoldCount is how many scaffold blocks the inventory holds.
func ScaffoldCount(inv world.Inventory) int {
	n := 0
	for _, id := range ScaffoldItems {
		n += inv.Count(world.MustItem(id))
	}
	return n
}

// ScaffoldSlot is the inventory slot of the scaffold block a route places
// next (-1 when none is left), and its item id.
func ScaffoldSlot(inv world.Inventory) (int, string) {
	for _, id := range ScaffoldItems {
		if slot := inv.Find(world.MustItem(id)); slot >= 0 {
			return slot, id
		}
	}
	return -1, ""
}

// Tooling is how one world judges tools: whether a stack harvests a block
// (makes it drop; the harvest level included) and its mining speed
// against a tool class. The simulator and the live client assume
// different grades for tools the mining table does not know.
type Tooling struct {
	Harvests func(rule rules.BlockRule, st world.ItemStack) bool
	// Speed is the mining speed of the stack in inventory slot slot
	// (-1: the empty hand) against a tool class.
	Speed func(slot int, st world.ItemStack, class string) float64
}

// BestTool is the inventory slot that breaks a block fastest while still
// harvesting it (-1: the empty hand, or whatever is held when no tool
// helps), and the ticks it takes; ok is false when nothing harvests a
// block that needs a tool: a route does not dig through stone with bare
// hands (150 ticks a block, and nothing to show for it).
func BestTool(inv world.Inventory, rule rules.BlockRule, t Tooling) (slot int, ticks float64, ok bool) {
	if rule.Hardness < 0 {
		return -1, 0, false
	}
	slot, ticks = -1, math.Inf(1)
	try := func(i int, st world.ItemStack) {
		if !t.Harvests(rule, st) {
			return
		}
		d := 0.0
		if rule.Hardness > 0 {
			d = rules.BreakTicks(rule.Hardness, t.Speed(i, st, rule.Tool), true)
		}
		if d < ticks {
			slot, ticks = i, d
		}
	}
	try(-1, world.ItemStack{})
	for i, st := range inv.Slots {
		if !st.Empty() {
			try(i, st)
		}
	}
	return slot, ticks, !math.IsInf(ticks, 1)
}

// KeepKind reports whether a digging route must leave a block of this kind
// standing wherever it is: containers, liquids, crafting tables, a
// blueprint's blocks and the stations recipes are made at (a Tinkers' part
// builder) are the player's own or not the route's to move.
func KeepKind(set *rules.Set, b world.Block) bool {
	if b.HasTag("container") || b.HasTag("liquid") || b.ID == "minecraft:crafting_table" {
		return true
	}
	if set != nil && set.Recipes != nil && set.Recipes.IsStation(b.ID, b.Meta) {
		return true
	}
	return set != nil && set.Builds != nil && len(set.Builds.Using(b.ID, b.Meta)) > 0
}

// Blockers records, for the failure message, the blocks a digging search
// could not break for want of a tool.
type Blockers map[string]string

// String is the blockers as "; id needs a tool, …" ("" when none).
func (d Blockers) String() string {
	if len(d) == 0 {
		return ""
	}
	ids := make([]string, 0, len(d))
	for id := range d {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id + " needs " + d[id]
	}
	return "; " + strings.Join(parts, ", ")
}

// MaxNodes bounds a digging search: digging is for the way out of a pit
// or down to a nearby block, and a search that finds no way (no pickaxe
// for the stone) stops here instead of digging through the whole
// countryside's soil in its head.
const MaxNodes = 20000

// Weight is the heuristic weight of the digging searches, the simulator's
// and the live client's (Planner.Weight, path.Options.Weight).
// The heuristic prices a block as walked (4.6 ticks) while a route through
// stone breaks two a block (23 ticks each with a wooden pickaxe), so plain
// A* to a gravel pocket 16 blocks down floods the whole surface within
// the route's cost before it tunnels, and runs out of MaxNodes: seed 0's
// quest run failed so 12 times on one pocket, which a player reaches with
// a short staircase. Weighted 3, that search finds a route 0.6 % dearer
// than the cheapest in 7,305 nodes (plain A* needs 37,050); a route costs
// at most 3 times the cheapest.
const Weight = 3

// TrapNodes bounds the cells a walled-in bot's search goes through (its
// room, a pit's floor, the soil it may dig by hand around them): a search
// that ends with no more than these searched is a trap that Route breaks
// out of by hand.
const TrapNodes = 256

// MaxHandTicks bounds a route broken by hand: two minutes of game time,
// sixteen blocks of stone at 150 ticks, a staircase out of a deep pit; a
// player does not punch through obsidian (5,000 ticks a block).
const MaxHandTicks = 2400

// Planner plans digging routes over one world.
type Planner struct {
	// Finder searches; Grid is the world as the search sees it.
	Finder *path.Finder
	Grid   path.Grid
	// State and Block read the world's block at a position (its state
	// keys a cache of dig times: the time depends on the block's state
	// and the inventory only, and a search asks about the same kinds of
	// block again and again).
	State func(p world.BlockPos) chunk.StateID
	Block func(p world.BlockPos) world.Block
	// Rule is the hardness, tool class and harvest level of a block.
	Rule func(b world.Block) rules.BlockRule
	// Keep reports blocks a route must leave standing by position (a
	// machine, the player's furnace), beyond KeepKind's and the goal's.
	Keep func(p world.BlockPos) bool
	// Rules are the game's rules (KeepKind's blueprints and stations); nil keeps
	// containers, liquids and crafting tables only.
	Rules     *rules.Set
	Tools     Tooling
	Inventory world.Inventory
	// Weight is the search's heuristic weight (path.Options.Weight; 0:
	// plain A*). Both bodies use the package's Weight.
	Weight float64
	// ByHand is set by Route when the route it returned breaks blocks
	// by hand that need a tool nothing held has (its last way out).
	ByHand bool
}

// HandTicks is the time the hand takes to break a block that needs a tool
// nothing held has: 1.7.10 lets a player break it all the same at the slow
// rate, hardness × 100 ticks at the hand's speed instead of × 30 (Forge
// 1.7.10 ForgeHooks.blockStrength; config/mining.yaml), and it drops
// nothing. ok is false for an unbreakable block.
func HandTicks(rule rules.BlockRule, t Tooling) (ticks float64, ok bool) {
	if rule.Hardness < 0 {
		return 0, false
	}
	return rules.BreakTicks(rule.Hardness, t.Speed(-1, world.ItemStack{}, rule.Tool), false), true
}

// BreakTool is the slot a route's block is broken with (-1: the hand, or
// whatever is held): the best harvesting tool, or, on a route planned by
// hand (Planner.ByHand), the hand for a block nothing held harvests. ok is
// false when neither may break it.
func BreakTool(inv world.Inventory, rule rules.BlockRule, t Tooling, byHand bool) (slot int, ok bool) {
	if slot, _, ok := BestTool(inv, rule, t); ok {
		return slot, true
	}
	if _, ok := HandTicks(rule, t); ok && byHand {
		return -1, true
	}
	return -1, false
}

// digTicks is the time to break a block (of any position) with the
// inventory's best harvesting tool, -1 when a route must not break it.
// On the search by hand (Route's last way out) a block nothing held
// harvests takes the hand's slow time.
func (p *Planner) digTicks(b world.Block, blocked Blockers, byHand bool) float64 {
	if KeepKind(p.Rules, b) {
		return -1
	}
	rule := p.Rule(b)
	_, t, ok := BestTool(p.Inventory, rule, p.Tools)
	if !ok && byHand {
		if t, ok := HandTicks(rule, p.Tools); ok {
			return t
		}
	}
	if !ok {
		if rule.Hardness >= 0 {
			blocked[b.ID] = "a " + rule.Tool
			if rule.Level > 0 {
				blocked[b.ID] = fmt.Sprintf("a %s of harvest level %d", rule.Tool, rule.Level)
			}
		}
		return -1
	}
	return t
}

// dropsColumn reports whether breaking q lets sand or gravel resting on it
// fall past q into the open cell below (rules.Falls): the cells a route
// opens under a block are the player's own — the head room above the feet
// for a jump or a pillar — and the falling block, which passes through
// the player, would land on the feet. Sand or gravel that can only refill
// q itself is dug again by whoever follows the route.
func (p *Planner) dropsColumn(q world.BlockPos) bool {
	if !rules.Falls(p.Block(q.Up()).ID) {
		return false
	}
	below := p.Block(q.Down())
	return rules.FallsThrough(below.ID) || below.IsAir()
}

// Options are the search options of a route to goal that may break
// blocks (each costed by the fastest harvesting tool and the block's
// hardness) and, when place is set, place scaffold blocks. A goal with a
// radius is a block to come near (the gravel to mine), which the route
// leaves standing; a goal without one is where the feet go (the spot
// beside a trunk a tree is felled from), which the route clears like any
// other cell (the leaves a tree grows down to the ground).
func (p *Planner) Options(goal path.Target, place bool, blocked Blockers) path.Options {
	return p.options(goal, place, blocked, false)
}

// options are Options, by hand or not (see Route).
func (p *Planner) options(goal path.Target, place bool, blocked Blockers, byHand bool) path.Options {
	byState := map[chunk.StateID]float64{}
	keepGoal := goal.Radius > 0
	return path.Options{
		MaxNodes: MaxNodes,
		Weight:   p.Weight,
		Dig:      true,
		Place:    place,
		DigTicks: func(x, y, z int) float64 {
			q := world.Pos(x, y, z)
			if (keepGoal && q == goal.Pos) || (p.Keep != nil && p.Keep(q)) || p.dropsColumn(q) {
				return -1
			}
			st := p.State(q)
			if t, ok := byState[st]; ok {
				return t
			}
			t := p.digTicks(p.Block(q), blocked, byHand)
			byState[st] = t
			return t
		},
	}
}

// Route plans a route from start to goal that digs, and places scaffold
// blocks while the inventory holds enough for the whole route (a route
// without placements is tried next). When no route is found, why says
// what was missing: the tools some blocks need, the scaffold blocks.
//
// The last way out is the hand. When the search went through every cell
// it could reach with the tools held, TrapNodes or fewer, and none is the
// goal (the bot is walled in: a pit or a room of stone and no pickaxe,
// which the wooden one's wearing out leaves), and some of the walls were
// left standing for want of a tool, the route is planned again breaking
// those by hand at the slow rate (HandTicks), as a player punches out of
// stone, when it costs at most MaxHandTicks; ByHand is then set, and the
// route's followers break with BreakTool. A bot on open ground never
// comes to this: its search has far more cells to go through.
func (p *Planner) Route(start world.BlockPos, goal path.Target) (res path.Result, why string, err error) {
	p.ByHand = false
	blocked := Blockers{}
	res, exhausted, err := p.route(start, goal, blocked, false)
	if err != nil || res.Complete {
		return res, "", err
	}
	if exhausted && res.Expanded <= TrapNodes && len(blocked) > 0 {
		hand, _, err := p.route(start, goal, Blockers{}, true)
		if err != nil {
			return hand, "", err
		}
		if hand.Complete && hand.Cost <= MaxHandTicks {
			p.ByHand = true
			return hand, "", nil
		}
	}
	why = blocked.String()
	if ScaffoldCount(p.Inventory) == 0 {
		why += "; no dirt or cobblestone to pillar or bridge with"
	}
	res.Complete = false
	return res, why, nil
}

// route is one round of Route's searches, with and then without
// placements; exhausted reports that the last search stopped with every
// reachable cell searched (path.Unreachable).
func (p *Planner) route(start world.BlockPos, goal path.Target, blocked Blockers, byHand bool) (res path.Result, exhausted bool, err error) {
	have := ScaffoldCount(p.Inventory)
	for _, place := range []bool{true, false} {
		if place && have == 0 {
			continue
		}
		r, err := p.Finder.Find(p.Grid, start, goal, p.options(goal, place, blocked, byHand))
		if err != nil {
			return r, false, err
		}
		res = r
		if r.Complete && Placements(r) <= have {
			return r, false, nil
		}
	}
	res.Complete = false
	return res, res.Reason == path.Unreachable, nil
}

// Placements is the number of blocks a route places.
func Placements(r path.Result) int {
	n := 0
	for _, st := range r.Steps {
		n += len(st.Place)
	}
	return n
}
