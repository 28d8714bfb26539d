package base

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func init() { registry.Provide(BasicCrafting{}) }

// tableSearchRadius is how far basic_crafting looks for a crafting table.
const tableSearchRadius = 16

// stationSearchRadius is how far basic_crafting looks for a station (a
// Tinkers' part builder): farther than for a crafting table, since a
// station, unlike a table, is dear to make again (the part builder's
// barricades take string).
const stationSearchRadius = 64

// BasicCrafting crafts an item by hand (2x2 inventory grid) or at a crafting
// table (3x3), from the shipped recipe book (config/recipes.yaml).
//
// GTNH behaviour: GTNH rewrites the early recipes. Hand-crafting a log gives
// 2 planks instead of 4 and 2 planks give 2 sticks; a saw in the grid (a
// GregTech tool, not consumed but worn) restores the full yield, so the
// skill prefers a recipe whose tools the player holds. The crafting table
// itself needs 2 flint and 2 logs, and wooden tools and chests need the
// 3x3 grid of a table.
//
// The skill picks a recipe for item: recipes whose tools are all in the
// inventory (with durability left) first, then recipes without tools, each
// in file order, taking the first whose ingredients the inventory covers. It
// runs ceil(count / yield) crafting operations. Missing ingredients are a
// missing_items failure listing what is short; an item with no recipe is
// invalid_params.
//
// A recipe made at a station (Tinkers' Construct's stencil table, part
// builder and tool station: config/recipes.yaml's station) is made there:
// the nearest such block within 64 blocks, else one placed from the
// inventory, else a missing_items failure naming the station; its
// pattern, a tool, stays in the inventory.
//
// A 3x3 recipe needs a crafting table: the nearest block tagged
// crafting_table within 16 blocks (move_to it, radius 3, then craft there),
// else a crafting table from the inventory placed on a free spot next to the
// player's feet (air with solid ground, the four sides first), else a
// missing_items failure saying to craft a table first. A 2x2 recipe is
// crafted in the inventory grid without moving.
type BasicCrafting struct {
	// Rules holds the recipe book and the grid tools' wear (nil = the
	// shipped set).
	Rules *rules.Set
}

var _ skills.RuleUser = BasicCrafting{}

// Name implements skills.Implementation.
func (BasicCrafting) Name() string { return "basic_crafting" }

// WithRules implements skills.RuleUser.
func (BasicCrafting) WithRules(set *rules.Set) skills.Implementation {
	return BasicCrafting{Rules: set}
}

// SuggestActions implements skills.Implementation.
func (b BasicCrafting) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	set := b.Rules
	if set == nil {
		set = rules.Default()
	}
	item := p.String("item")
	if item == "" {
		return nil, skills.Failf(skills.CodeInvalidParams, "parameter \"item\" is required: the item id to craft, e.g. minecraft:planks")
	}
	count := intParam(p, "count", 1)
	if count < 1 {
		return nil, skills.Failf(skills.CodeInvalidParams, "parameter \"count\": must be at least 1, got %d", count)
	}

	book := set.Recipes
	recipes := book.For(item)
	if len(recipes) == 0 {
		if id, meta, err := world.SplitID(item); err == nil && meta == 0 {
			recipes = book.For(id)
		}
	}
	if len(recipes) == 0 {
		return nil, skills.Failf(skills.CodeInvalidParams,
			"no known crafting recipe for %s (basic_crafting knows: %s)", item, strings.Join(knownOutputs(book), ", "))
	}

	inv := w.Inventory
	// Recipes with tools held come first (the GTNH saw doubles planks and
	// sticks), then plain recipes.
	var ranked []rules.Recipe
	var lackingTools []string
	for _, r := range recipes {
		if len(r.Tools) == 0 {
			continue
		}
		if missing := missingTools(set, inv, r); len(missing) == 0 {
			ranked = append(ranked, r)
		} else {
			lackingTools = append(lackingTools, missing...)
		}
	}
	for _, r := range recipes {
		if len(r.Tools) == 0 {
			ranked = append(ranked, r)
		}
	}
	if len(ranked) == 0 {
		return nil, skills.Failf(skills.CodeMissingTool, "every recipe for %s needs a tool in the grid: %s", item, strings.Join(lackingTools, ", "))
	}

	var chosen *rules.Recipe
	var ops int
	for i := range ranked {
		n := ceilDiv(count, ranked[i].Count)
		if len(missingIngredients(inv, ranked[i], n)) == 0 {
			chosen, ops = &ranked[i], n
			break
		}
	}
	if chosen == nil {
		r := ranked[0]
		n := ceilDiv(count, r.Count)
		return nil, skills.Failf(skills.CodeMissingItems, "crafting %d %s (%d × %s) needs %s",
			count, r.Output, n, describeRecipe(r), strings.Join(missingIngredients(inv, r, n), ", "))
	}

	// A tool that wears in the grid (the flint mortar and knife, the
	// wooden brick form: config/crafting_tools.yaml) must last every
	// operation; the goal planner asks for no more than it does.
	for _, t := range chosen.Tools {
		if uses := set.Grid.UsesIn(inv, t); uses >= 0 && uses < ops {
			return nil, skills.Failf(skills.CodeMissingTool,
				"crafting %d %s takes %d crafts and the %s held does %d more before it breaks: craft fewer, or another %s first",
				count, chosen.Output, ops, t, uses, t)
		}
	}

	craft := action.Craft{Item: chosen.Output, Count: ops}
	if chosen.AtStation() {
		return atStation(w, *chosen, craft)
	}
	if !chosen.NeedsTable() {
		return []action.Action{craft}, nil
	}
	if tables := w.NearestBlocks(tableSearchRadius, 1, "crafting_table"); len(tables) > 0 {
		t := tables[0].Pos
		craft.Table = ptr(t)
		return []action.Action{action.MoveTo{Pos: t, Radius: workRadius}, craft}, nil
	}
	tableItem := world.MustItem("minecraft:crafting_table")
	if slot := inv.Find(tableItem); slot >= 0 {
		spot, walk, ok := placeSpot(w)
		if !ok {
			return nil, skills.Failf(skills.CodeNoTarget,
				"%s needs a crafting table and there is no free spot with solid ground within %d blocks of %s to place the one in the inventory", chosen.Output, spotSearch, w.Feet())
		}
		craft.Table = ptr(spot)
		return append(walk,
			action.PlaceBlock{Pos: spot, Item: itemRef(inv, inv.Slots[slot]), Face: "up"},
			craft,
		), nil
	}
	return nil, skills.Failf(skills.CodeMissingItems,
		"crafting table: %s needs the 3x3 grid and there is no crafting table within %d blocks nor in the inventory; craft one first (basic_crafting item=minecraft:crafting_table: 2 flint and 2 logs in GTNH)",
		chosen.Output, tableSearchRadius)
}

// atStation crafts a station recipe (a Tinkers' Construct part at the part
// builder): at the nearest station block within stationSearchRadius, else at
// one placed from the inventory next to the player, else a missing_items
// failure naming the station to make first.
func atStation(w *world.Snapshot, r rules.Recipe, craft action.Craft) ([]action.Action, error) {
	id, meta, err := world.SplitID(r.Station)
	if err != nil {
		return nil, skills.Failf(skills.CodeInvalidParams, "the recipe for %s names a bad station: %v", r.Output, err)
	}
	meta = max(meta, 0)
	if w.Blocks != nil {
		if hits := w.Blocks.Nearest(w.Feet(), stationSearchRadius, 1, func(b world.Block) bool { return b.ID == id && b.Meta == meta }); len(hits) > 0 {
			p := hits[0].Pos
			craft.Table = ptr(p)
			return []action.Action{action.MoveTo{Pos: p, Radius: workRadius}, craft}, nil
		}
	}
	station := world.MustItem(fmt.Sprintf("%s:%d", id, meta))
	if slot := w.Inventory.Find(station); slot >= 0 {
		spot, walk, ok := placeSpot(w)
		if !ok {
			return nil, skills.Failf(skills.CodeNoTarget,
				"%s is made at %s and there is no free spot with solid ground within %d blocks of %s to place the one in the inventory", r.Output, r.Station, spotSearch, w.Feet())
		}
		craft.Table = ptr(spot)
		return append(walk,
			action.PlaceBlock{Pos: spot, Item: itemRef(w.Inventory, w.Inventory.Slots[slot]), Face: "up"},
			craft,
		), nil
	}
	return nil, skills.Failf(skills.CodeMissingItems,
		"%s is made at %s and there is none within %d blocks nor in the inventory; craft one first (basic_crafting item=%s)",
		r.Output, r.Station, stationSearchRadius, r.Station)
}

// missingTools lists the recipe's tools the inventory lacks (or has worn out).
func missingTools(set *rules.Set, inv world.Inventory, r rules.Recipe) []string {
	var out []string
	for _, t := range r.Tools {
		if inv.BestTool(t, 1) < 0 || set.Grid.UsesIn(inv, t) == 0 {
			out = append(out, t.String())
		}
	}
	return out
}

// missingIngredients lists what is short for ops crafting operations, as
// "N matcher (have M)". Ingredients written with the same matcher are added up.
func missingIngredients(inv world.Inventory, r rules.Recipe, ops int) []string {
	var order []string
	need := map[string]int{}
	matcher := map[string]world.ItemMatcher{}
	for _, ing := range r.Ingredients {
		k := ing.Item.String()
		if _, seen := need[k]; !seen {
			order = append(order, k)
			matcher[k] = ing.Item
		}
		need[k] += ing.Count * ops
	}
	var out []string
	for _, k := range order {
		if have := inv.Count(matcher[k]); have < need[k] {
			out = append(out, fmt.Sprintf("%d %s (have %d)", need[k], k, have))
		}
	}
	return out
}

// describeRecipe writes a recipe compactly: "2x2: 1 ore:logWood -> 2",
// "at TConstruct:ToolStationBlock:1: 1 minecraft:flint -> 1".
func describeRecipe(r rules.Recipe) string {
	parts := make([]string, len(r.Ingredients))
	for i, ing := range r.Ingredients {
		parts[i] = fmt.Sprintf("%d %s", ing.Count, ing.Item)
	}
	where := r.Grid
	if r.AtStation() {
		where = "at " + r.Station
	}
	s := fmt.Sprintf("%s: %s -> %d", where, strings.Join(parts, " + "), r.Count)
	if len(r.Tools) > 0 {
		tools := make([]string, len(r.Tools))
		for i, t := range r.Tools {
			tools[i] = t.String()
		}
		s += " with " + strings.Join(tools, ", ")
	}
	return s
}

// knownOutputs lists the recipe book's outputs, sorted and deduplicated.
func knownOutputs(book *rules.Recipes) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range book.All() {
		if !seen[r.Output] {
			seen[r.Output] = true
			out = append(out, r.Output)
		}
	}
	sort.Strings(out)
	return out
}

// tableSpot finds where to place a crafting table (or a furnace): a block
// next to the player's feet that is air (or a replaceable plant) with
// solid ground below, the four sides first, then the diagonals; and when
// the player stands in a pit or a tunnel with walls all round, the same on
// the rim one, two or three blocks up, which is still within reach.
func tableSpot(w *world.Snapshot) (world.BlockPos, bool) {
	feet := w.Feet()
	for dy := 0; dy <= rimRise; dy++ {
		for _, o := range horizontal {
			c := feet.Add(o[0], dy, o[1])
			b := w.BlockAt(c)
			if (b.IsAir() || b.HasTag("replaceable")) && isSolid(w.BlockAt(c.Down())) {
				return c, true
			}
		}
	}
	return world.BlockPos{}, false
}

// spotSearch is how far placeSpot looks for ground to put a table or a
// furnace on when there is none at hand (the player wading in a lake).
const spotSearch = 8

// placeSpot finds where to place a crafting table or a furnace: tableSpot's
// spot at hand, else the nearest free block with solid ground below and
// room above within spotSearch blocks, and then the actions begin with a
// walk to within reach of it.
func placeSpot(w *world.Snapshot) (world.BlockPos, []action.Action, bool) {
	if spot, ok := tableSpot(w); ok {
		return spot, nil, true
	}
	feet := w.Feet()
	best, bestD := world.BlockPos{}, -1
	for dy := -2; dy <= rimRise; dy++ {
		for dx := -spotSearch; dx <= spotSearch; dx++ {
			for dz := -spotSearch; dz <= spotSearch; dz++ {
				c := feet.Add(dx, dy, dz)
				if dx == 0 && dz == 0 {
					continue // the player's own column
				}
				b, up := w.BlockAt(c), w.BlockAt(c.Up())
				if !(b.IsAir() || b.HasTag("replaceable")) || !isSolid(w.BlockAt(c.Down())) || !(up.IsAir() || up.HasTag("replaceable")) {
					continue
				}
				if d := c.DistSq(feet); bestD < 0 || d < bestD || d == bestD && c.Less(best) {
					best, bestD = c, d
				}
			}
		}
	}
	if bestD < 0 {
		return world.BlockPos{}, nil, false
	}
	return best, []action.Action{action.MoveTo{Pos: best, Radius: workRadius}}, true
}

// rimRise is how far above the feet tableSpot looks for a spot: a block
// beside the column three blocks up is 2.4 blocks from the eyes, within
// the 4.5-block reach.
const rimRise = 3

func ceilDiv(a, b int) int {
	if b <= 0 {
		return a
	}
	return (a + b - 1) / b
}
