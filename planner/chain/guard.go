package chain

import (
	"slices"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// A hostile mob guards a hunt's way only when it could come for the bot
// (guardMob): one that cannot leaves the farm animals to the hunt. A
// zombie that fell into an old shelter pit, or stands in a closed cave
// under the field, lives through the day in the shade, and before this
// rule held every hunt in a 96-block world back (its follow range is 40
// blocks) while the bot starved beside the animals.

// trapFlood bounds the places trapped looks at: a mob that walks farther
// than this many places is on open ground, and can come.
const trapFlood = 1024

// trapDrop is the highest drop a mob's path takes (1.7.10
// PathFinder.getSafePoint gives up below 3 blocks of fall: a walking
// mob's path finding, EntityAIAttackOnCollide's way to its target).
const trapDrop = 3

// comes reports whether a hostile mob could come for the bot on its hunt
// for prey: not a spider in the open by day (it attacks only in the dark:
// 1.7.10 EntitySpider.findPlayerToAttack, below half brightness; the
// defend reflex leaves it alone the same way), and not a mob trapped away
// from both the bot and the prey (trapped). A mob shut in with the prey
// (a den in a closed cave) guards it: the hunt would open the way. A mob
// that ended the last step (its result names it as the threat) comes,
// whatever the rules above judge: the guard and the defend reflex met it,
// and a hunt past it would be ended and sent fleeing again.
func (s *search) comes(e world.Entity, k rules.MobKind, prey world.Entity) bool {
	if s.lastThreat(e) {
		return true
	}
	if loop.Neutral(s.Mobs, s.w, e) {
		return false
	}
	return !s.trapped(e, k, prey)
}

// lastThreat reports whether the last step's result names e as the mob
// that ended it (ipc.DetailThreat).
func (s *search) lastThreat(e world.Entity) bool {
	if s.last == nil {
		return false
	}
	for _, r := range s.last.Results {
		if th, ok := ipc.ThreatOf(r); ok && th.Entity == e.ID {
			return true
		}
	}
	return false
}

// trapped reports whether a hostile mob has no way to the bot nor to the
// prey from where it stands: a spider (it climbs walls) walled in on
// every side (path.Room) away from both; a walking mob whose walk —
// steps up of one block, drops of up to trapDrop — ends within trapFlood
// places without coming within two blocks of the bot's feet or the
// prey's, over known blocks only. A way that reaches unknown blocks,
// water or lava, or runs past trapFlood places, counts as a way out: the
// mob may come.
func (s *search) trapped(e world.Entity, k rules.MobKind, prey world.Entity) bool {
	if s.w.Blocks == nil {
		return false
	}
	key := [2]int{e.ID, prey.ID}
	if t, ok := s.traps[key]; ok {
		return t
	}
	ends := []world.BlockPos{s.w.Feet(), prey.Pos.Block()}
	var t bool
	if k.Name == "spider" {
		room, closed := path.Room(s.w, e.Pos.Block())
		t = closed && !slices.ContainsFunc(room, func(p world.BlockPos) bool { return nearAny(p, ends) })
	} else {
		t = s.walkTrapped(e.Pos.Block(), ends)
	}
	if s.traps == nil {
		s.traps = map[[2]int]bool{}
	}
	s.traps[key] = t
	return t
}

// nearAny reports whether p is within two blocks of any of ends.
func nearAny(p world.BlockPos, ends []world.BlockPos) bool {
	for _, q := range ends {
		if abs(p.X-q.X) <= 2 && abs(p.Z-q.Z) <= 2 && abs(p.Y-q.Y) <= 2 {
			return true
		}
	}
	return false
}

// walkTrapped floods the places a walking mob with its feet in from can
// stand on, until it comes near one of ends (see trapped). Only air and full walls are judged: any other
// block on the way (a liquid, a slab, a carpet, the unknown) ends the
// flood as a possible way out.
func (s *search) walkTrapped(from world.BlockPos, ends []world.BlockPos) bool {
	w := s.w
	cell := func(p world.BlockPos) path.Cell {
		if !w.Known(p) {
			return path.Unknown
		}
		return path.ClassifyByTags(w.BlockAt(p))
	}
	// judged: air or a wall; anything else is no telling.
	judged := func(c path.Cell) bool { return c == path.Passable || c == path.Solid || c == path.Fence }
	if cell(from.Down()) != path.Solid || cell(from) != path.Passable {
		return false // not standing on a floor the flood can judge
	}
	seen := map[world.BlockPos]bool{from: true}
	queue := []world.BlockPos{from}
	for i := 0; i < len(queue); i++ {
		if len(queue) > trapFlood {
			return false
		}
		p := queue[i]
		if nearAny(p, ends) {
			return false // it reaches the bot, or the prey
		}
		over := cell(p.Add(0, 2, 0))
		if !judged(over) {
			return false
		}
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			n := p.Add(d[0], 0, d[1])
			feet, head := cell(n), cell(n.Up())
			if !judged(feet) || !judged(head) {
				return false
			}
			next := n
			switch {
			case feet == path.Fence || head != path.Passable:
				continue // a fence no mob jumps, or no room for the body
			case feet == path.Solid:
				// A step up onto the wall, with room over the head on
				// both sides.
				top := cell(n.Add(0, 2, 0))
				if !judged(top) {
					return false
				}
				if over != path.Passable || top != path.Passable {
					continue
				}
				next = n.Up()
			default:
				// Open: walk on, or drop to the floor below.
				fell := 0
				for {
					below := cell(next.Down())
					if below == path.Solid {
						break
					}
					if below != path.Passable {
						return false
					}
					next = next.Down()
					if fell++; fell > trapDrop {
						break
					}
				}
				if fell > trapDrop {
					continue
				}
			}
			if !seen[next] {
				seen[next] = true
				queue = append(queue, next)
			}
		}
	}
	return true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
