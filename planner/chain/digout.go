package chain

import (
	"fmt"
	"slices"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
	"github.com/gtnh-agent/gtnh-agent/world/path/digroute"
)

// The way out of walls: a bot walled in (a night's shelter dug into stone,
// the wooden pickaxe worn out on the way down) with nothing that breaks
// any of its walls makes the tool that does before anything else, as a
// player does, when the makings are at hand: the grid turns logs into
// planks and sticks, and a wooden pickaxe is made at a crafting table in
// the room or placed in it (config/recipes.yaml). Steps that would walk
// are left out of that plan, since every walk out of the room goes
// through its walls. When the tool cannot be made so, the plan goes on
// and the body's digging route punches out by hand (digroute's last way
// out), a block in 7.5 s or more.

// inPlace is the tag of the skills a walled-in bot can run where it
// stands: crafting in the grid, or at a table within reach.
const inPlace = "crafts_items"

// wallTool is what breaks the easiest wall of the room the feet are
// walled into: its tool class, when nothing held breaks any wall and a
// tool of harvest level 0 (the grid's wooden tools) would. ok is false
// when the feet are not walled in, a wall gives way to what is held (the
// hand digs dirt; the route does it), or no wall yields to a level-0 tool.
func (s *search) wallTool() (class string, room []world.BlockPos, ok bool) {
	if s.w.Blocks == nil {
		return "", nil, false
	}
	room, closed := path.Room(s.w, s.w.Feet())
	if !closed {
		return "", nil, false
	}
	in := make(map[world.BlockPos]bool, len(room))
	for _, p := range room {
		in[p] = true
	}
	keep := &rules.Set{Recipes: s.Recipes, Builds: s.Builds}
	var classes []string
	for _, p := range room {
		for _, d := range [6][3]int{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} {
			q := p.Add(d[0], d[1], d[2])
			if in[q] {
				continue
			}
			b := s.w.BlockAt(q)
			rule, known := s.Mining.Block(b.ID)
			switch {
			case !known || rule.Hardness < 0 || digroute.KeepKind(keep, b):
				continue // unknown to the table, unbreakable, or the bot's own (a table)
			case !rule.NeedsTool || s.bestLevel(rule.Tool) >= rule.Level:
				return "", nil, false // this wall gives way to what is held
			case rule.Level == 0 && !slices.Contains(classes, rule.Tool):
				classes = append(classes, rule.Tool)
			}
		}
	}
	if len(classes) == 0 {
		return "", nil, false
	}
	slices.Sort(classes)
	return classes[0], room, true
}

// digOut plans the first step towards the tool that breaks the room's
// walls (wallTool) with the skills that work in place; ok is false when
// there is no such tool to make, or it takes a step that walks or is
// blocked.
func (s *search) digOut() (inv *loop.Invocation, why string, ok bool) {
	class, room, ok := s.wallTool()
	if !ok {
		return nil, "", false
	}
	want := "tool:" + class
	m, err := world.ParseItemMatcher(want)
	if err != nil {
		return nil, "", false
	}
	s.inPlace, s.room = true, room
	defer func() { s.inPlace, s.room = false, nil }()
	mark := s.mark()
	inv, err = s.obtain(want, s.w.Inventory.Count(m)+1, 1)
	if err != nil || inv == nil {
		s.rollback(mark)
		return nil, "", false
	}
	return inv, fmt.Sprintf("walled in at %v with nothing that breaks the walls: a %s to dig out with, made where the bot stands", s.w.Feet(), class), true
}

// runsInPlace reports whether a producer's skill may serve a walled-in
// bot's plan (digOut): a crafting skill, nothing that walks.
func (s *search) runsInPlace(p producer) bool {
	return slices.Contains(p.desc.Effects.Tags, inPlace) && p.mine == "" && p.hunt == "" && !p.night && p.ore == ""
}

// tableAtHand reports whether the crafting table a 3x3 recipe needs is
// there: within basic_crafting's search radius, or, for a walled-in bot,
// within its reach of the feet (no walk).
func (s *search) tableAtHand() bool {
	radius := tableRadius
	if s.inPlace {
		radius = tableReach
	}
	return len(s.w.NearestBlocks(radius, 1, "crafting_table")) > 0
}

// tableReach is how far from the feet a crafting table is used without a
// walk (basic_crafting's work radius).
const tableReach = 3

// roomForTable reports whether the room a walled-in bot stands in has a
// cell besides the feet and the head with solid ground under it, where a
// crafting table is placed without a walk.
func (s *search) roomForTable() bool {
	feet := s.w.Feet()
	for _, c := range s.room {
		if c != feet && c != feet.Up() && path.ClassifyByTags(s.w.BlockAt(c.Down())) == path.Solid {
			return true
		}
	}
	return false
}
