package rules

import "github.com/gtnh-agent/gtnh-agent/game"

// Collision shapes of 1.7.10 blocks: the one table the simulator, the
// pathfinder (world/path) and the live client's movement read, so that where
// a bot thinks it can stand is where the server lets it stand.
//
// Sources, all Minecraft 1.7.10 (MCP names): BlockSlab.setBlockBoundsBasedOnState
// (bottom 0–0.5, top 0.5–1 when meta&8), BlockSnow.getCollisionBoundingBoxFromPool
// (height (meta&7)/8: one layer has none), BlockCarpet.func_150089_b (1/16),
// BlockTrapDoor.func_150117_e (3/16 thick: bottom, top when meta&8, or
// upright along the edge given by meta&3 when open, meta&4),
// BlockDoor.func_150011_b and func_150012_g (3/16 panel; facing and open
// from the lower half, hinge from the upper), BlockFence and BlockWall
// (collision boxes 1.5 high), BlockFenceGate.getCollisionBoundingBoxFromPool
// (none when open, a 1.5-high bar across the cell when closed),
// BlockChest (1/16 inset, 0.875 high), BlockSoulSand (0.875),
// BlockFarmland (0.9375), BlockBed (0.5625). Stairs and every block not
// listed are taken as full cubes: a body that keeps out of a full cube keeps
// out of any smaller box in it, so the guess costs a jump, never a reset.

// Box is an axis-aligned box in a block cell, in blocks from the cell's
// lower north-west corner. MaxY may pass 1: fences and walls reach 1.5.
type Box struct {
	MinX, MinY, MinZ, MaxX, MaxY, MaxZ float64
}

// Shape is a block's collision shape.
type Shape struct {
	// Boxes are the collision boxes; none for blocks the player walks
	// through.
	Boxes []Box
	// Open marks an open door, trapdoor or fence gate: a panel along one
	// edge of the cell (or nothing) that a body passes beside. The
	// pathfinder treats it as passable.
	Open bool
}

// Common shapes.
var (
	// ShapeEmpty has no collision (air, plants, torches).
	ShapeEmpty = Shape{}
	// ShapeFull is the full cube.
	ShapeFull = Shape{Boxes: []Box{{0, 0, 0, 1, 1, 1}}}
)

// Empty reports whether nothing collides.
func (s Shape) Empty() bool { return len(s.Boxes) == 0 }

// Top is the height of the shape's highest point above the cell's floor (0
// when empty).
func (s Shape) Top() float64 {
	t := 0.0
	for _, b := range s.Boxes {
		t = max(t, b.MaxY)
	}
	return t
}

// Floor reports whether the shape is a floor: one box that covers the whole
// cell from its bottom, so a player stands anywhere on it at Top.
func (s Shape) Floor() bool {
	if len(s.Boxes) != 1 {
		return false
	}
	b := s.Boxes[0]
	return b.MinX == 0 && b.MinZ == 0 && b.MaxX == 1 && b.MaxZ == 1 && b.MinY == 0
}

// noCollision are the vanilla blocks without a collision box.
var noCollision = map[string]bool{
	"minecraft:air": true, "minecraft:tallgrass": true, "minecraft:deadbush": true,
	"minecraft:yellow_flower": true, "minecraft:red_flower": true, "minecraft:double_plant": true,
	"minecraft:brown_mushroom": true, "minecraft:red_mushroom": true, "minecraft:sapling": true,
	"minecraft:torch": true, "minecraft:redstone_torch": true, "minecraft:unlit_redstone_torch": true,
	"minecraft:redstone_wire": true, "minecraft:wheat": true, "minecraft:carrots": true,
	"minecraft:potatoes": true, "minecraft:nether_wart": true, "minecraft:reeds": true,
	"minecraft:vine": true, "minecraft:rail": true, "minecraft:golden_rail": true,
	"minecraft:detector_rail": true, "minecraft:activator_rail": true, "minecraft:lever": true,
	"minecraft:stone_button": true, "minecraft:wooden_button": true,
	"minecraft:stone_pressure_plate": true, "minecraft:wooden_pressure_plate": true,
	"minecraft:light_weighted_pressure_plate": true, "minecraft:heavy_weighted_pressure_plate": true,
	"minecraft:standing_sign": true, "minecraft:wall_sign": true, "minecraft:tripwire": true,
	"minecraft:tripwire_hook": true, "minecraft:ladder": true, "minecraft:fire": true,
	"minecraft:web": true, "minecraft:portal": true, "minecraft:pumpkin_stem": true,
	"minecraft:melon_stem": true, "minecraft:water": true, "minecraft:flowing_water": true,
	"minecraft:lava": true, "minecraft:flowing_lava": true,
}

const (
	panel    = 0.1875 // doors and trapdoors: 3/16 thick
	tallTop  = 1.5    // fences, walls, closed gates
	gateMin  = 0.375  // a closed gate's bar, across the middle
	gateMax  = 0.625  //
	chestIn  = 0.0625 // a chest's inset
	doorOpen = 4
)

// KnownShape returns the collision shape of a block state and whether the
// table knows the block; unknown blocks (most mod blocks) are left to the
// caller, who usually takes them as full cubes or reads their tags. other
// gives the block dy cells above (+1) or below (−1) for blocks whose shape
// depends on it (a door's two halves share one state); nil reads as air.
func KnownShape(b game.Block, other func(dy int) game.Block) (Shape, bool) {
	if b.ID == "" || noCollision[b.ID] {
		return ShapeEmpty, true
	}
	m := b.Meta
	box := func(x0, y0, z0, x1, y1, z1 float64) Shape { return Shape{Boxes: []Box{{x0, y0, z0, x1, y1, z1}}} }
	switch b.ID {
	case "minecraft:stone_slab", "minecraft:wooden_slab":
		if m&8 != 0 {
			return box(0, 0.5, 0, 1, 1, 1), true
		}
		return box(0, 0, 0, 1, 0.5, 1), true
	case "minecraft:snow_layer":
		if h := float64(m&7) / 8; h > 0 {
			return box(0, 0, 0, 1, h, 1), true
		}
		return ShapeEmpty, true
	case "minecraft:carpet":
		return box(0, 0, 0, 1, 1.0/16, 1), true
	case "minecraft:trapdoor":
		if m&4 != 0 {
			s := Shape{Open: true}
			switch m & 3 {
			case 0:
				s.Boxes = []Box{{0, 0, 1 - panel, 1, 1, 1}}
			case 1:
				s.Boxes = []Box{{0, 0, 0, 1, 1, panel}}
			case 2:
				s.Boxes = []Box{{1 - panel, 0, 0, 1, 1, 1}}
			default:
				s.Boxes = []Box{{0, 0, 0, panel, 1, 1}}
			}
			return s, true
		}
		if m&8 != 0 {
			return box(0, 1-panel, 0, 1, 1, 1), true
		}
		return box(0, 0, 0, 1, panel, 1), true
	case "minecraft:fence", "minecraft:nether_brick_fence", "minecraft:cobblestone_wall":
		// The real boxes depend on the neighbours a fence joins; the whole
		// cell 1.5 high is the safe cover of all of them.
		return box(0, 0, 0, 1, tallTop, 1), true
	case "minecraft:fence_gate":
		if m&4 != 0 {
			return Shape{Open: true}, true
		}
		if m&3 == 0 || m&3 == 2 {
			return box(0, 0, gateMin, 1, tallTop, gateMax), true
		}
		return box(gateMin, 0, 0, gateMax, tallTop, 1), true
	case "minecraft:wooden_door", "minecraft:iron_door":
		return doorShape(m, other), true
	case "minecraft:chest", "minecraft:trapped_chest", "minecraft:ender_chest":
		return box(chestIn, 0, chestIn, 1-chestIn, 0.875, 1-chestIn), true
	case "minecraft:soul_sand":
		return box(0, 0, 0, 1, 0.875, 1), true
	case "minecraft:farmland":
		return box(0, 0, 0, 1, 0.9375, 1), true
	case "minecraft:bed":
		return box(0, 0, 0, 1, 0.5625, 1), true
	}
	return Shape{}, false
}

// ShapeOf is KnownShape with unknown blocks taken as full cubes.
func ShapeOf(b game.Block, other func(dy int) game.Block) Shape {
	if s, ok := KnownShape(b, other); ok {
		return s
	}
	return ShapeFull
}

// doorShape is BlockDoor.func_150011_b over func_150012_g's combined
// state: facing and open from the lower half, hinge from the upper. A half
// whose other half is unknown is taken as open with both possible panels
// (its own facing, when it is the lower half).
func doorShape(meta int, other func(dy int) game.Block) Shape {
	upper := meta&8 != 0
	var lower, top int
	haveLower, haveTop := !upper, upper
	if upper {
		top = meta
	} else {
		lower = meta
	}
	if other != nil {
		dy := 1
		if upper {
			dy = -1
		}
		if o := other(dy); o.ID == "minecraft:wooden_door" || o.ID == "minecraft:iron_door" {
			if upper {
				lower, haveLower = o.Meta, true
			} else {
				top, haveTop = o.Meta, true
			}
		}
	}
	if !haveLower {
		// Facing unknown: any of the four edges may hold the panel.
		return Shape{Open: true, Boxes: []Box{
			{0, 0, 0, 1, 1, panel}, {0, 0, 1 - panel, 1, 1, 1}, {0, 0, 0, panel, 1, 1}, {1 - panel, 0, 0, 1, 1, 1}}}
	}
	facing, open := lower&3, lower&doorOpen != 0
	if !haveTop {
		s := doorPanel(facing, open, false)
		if open {
			s.Boxes = append(s.Boxes, doorPanel(facing, open, true).Boxes...)
		}
		return s
	}
	return doorPanel(facing, open, top&1 != 0)
}

// doorPanel is one case of BlockDoor.func_150011_b.
func doorPanel(facing int, open, hinge bool) Shape {
	west := Box{0, 0, 0, panel, 1, 1}
	east := Box{1 - panel, 0, 0, 1, 1, 1}
	north := Box{0, 0, 0, 1, 1, panel}
	south := Box{0, 0, 1 - panel, 1, 1, 1}
	var b Box
	switch facing {
	case 0:
		b = west
		if open {
			b = north
			if hinge {
				b = south
			}
		}
	case 1:
		b = north
		if open {
			b = east
			if hinge {
				b = west
			}
		}
	case 2:
		b = east
		if open {
			b = south
			if hinge {
				b = north
			}
		}
	default:
		b = south
		if open {
			b = west
			if hinge {
				b = east
			}
		}
	}
	return Shape{Boxes: []Box{b}, Open: open}
}
