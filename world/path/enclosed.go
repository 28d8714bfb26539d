package path

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Bounds of a walled-in room (Enclosed): at most RoomCells open cells, none
// farther than RoomReach blocks (each axis) from the feet. Hostile mobs
// spawn at least 24 blocks from the player, so none can appear inside such
// a room.
const (
	RoomCells = 80
	RoomReach = 4
)

// Enclosed reports whether a body with its feet in cell feet is walled in:
// the open cells it can reach (the feet's cell and every cell connected to
// it through faces that is not Solid) form a closed room of at most
// RoomCells cells within RoomReach blocks of the feet, bounded on every
// side by known solid blocks, so nothing that walks reaches it and
// nothing sees it. The smallest room is a pit's two cells under a roof;
// a bot mining its walls from inside keeps a closed room. Unknown blocks
// count as open, and a liquid in the room leaves it open (water carries
// mobs; lava is no wall).
func Enclosed(w *world.Snapshot, feet world.BlockPos) bool {
	_, ok := Room(w, feet)
	return ok
}

// Room returns the open cells of the room a body with its feet in cell
// feet is walled into (see Enclosed), feet first, and whether it is one.
func Room(w *world.Snapshot, feet world.BlockPos) ([]world.BlockPos, bool) {
	cell := func(p world.BlockPos) Cell {
		if !w.Known(p) {
			return Unknown
		}
		return ClassifyByTags(w.BlockAt(p))
	}
	if cell(feet) == Solid {
		return nil, false
	}
	seen := map[world.BlockPos]bool{feet: true}
	room := []world.BlockPos{feet}
	for i := 0; i < len(room); i++ {
		p := room[i]
		switch cell(p) {
		case Unknown, Water, Danger:
			return nil, false
		}
		for _, d := range [6][3]int{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} {
			n := p.Add(d[0], d[1], d[2])
			if seen[n] || cell(n) == Solid {
				continue
			}
			if abs(n.X-feet.X) > RoomReach || abs(n.Y-feet.Y) > RoomReach || abs(n.Z-feet.Z) > RoomReach || len(room) >= RoomCells {
				return nil, false
			}
			seen[n] = true
			room = append(room, n)
		}
	}
	return room, true
}

// Sheltered reports whether a body with its feet in cell feet is walled
// in (Enclosed) with no hostile mob inside the walls: a mob shut into a
// pocket of the room (one that fell into an old shaft the room was then
// mined into) is no stranger beyond them. A skeleton there shoots as soon
// as it sees its target within its range (1.7.10's
// EntityAIArrowAttack.updateTask, n-dimens/minecraft-1.7,
// src/main/java/net/minecraft/entity/ai/EntityAIArrowAttack.java: the
// shot needs only EntitySenses.canSee and the distance), and a zombie
// hits what it reaches.
func Sheltered(w *world.Snapshot, feet world.BlockPos, mobs *rules.Mobs) bool {
	room, ok := Room(w, feet)
	if !ok {
		return false
	}
	_, in := MobIn(w, room, mobs)
	return !in
}

// MobIn returns a hostile mob (a kind of mobs that attacks) whose body is
// in one of the cells given, or false. The body is the mob's box on its
// feet: its width (up to a block) across and its height up; touching a
// cell's face is not being in it.
func MobIn(w *world.Snapshot, cells []world.BlockPos, mobs *rules.Mobs) (world.Entity, bool) {
	if len(cells) == 0 || mobs == nil {
		return world.Entity{}, false
	}
	in := make(map[world.BlockPos]bool, len(cells))
	for _, c := range cells {
		in[c] = true
	}
	for _, e := range w.Entities {
		if e.Kind != world.EntityMob {
			continue
		}
		k, ok := mobs.Kind(e.Name)
		if !ok || k.Passive() {
			continue
		}
		half := min(k.Width/2, 0.5)
		const eps = 1e-9
		x0, x1 := int(math.Floor(e.Pos.X-half+eps)), int(math.Floor(e.Pos.X+half-eps))
		z0, z1 := int(math.Floor(e.Pos.Z-half+eps)), int(math.Floor(e.Pos.Z+half-eps))
		y0, y1 := int(math.Floor(e.Pos.Y+eps)), int(math.Floor(e.Pos.Y+k.Height-eps))
		for x := x0; x <= x1; x++ {
			for y := y0; y <= y1; y++ {
				for z := z0; z <= z1; z++ {
					if in[world.Pos(x, y, z)] {
						return e, true
					}
				}
			}
		}
	}
	return world.Entity{}, false
}
