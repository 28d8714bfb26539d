package path

import "github.com/gtnh-agent/gtnh-agent/world"

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
