package game

import (
	"fmt"
	"math"
)

// BlockPos is the integer position of a block.
type BlockPos struct {
	X int `json:"x" yaml:"x"`
	Y int `json:"y" yaml:"y"`
	Z int `json:"z" yaml:"z"`
}

// Pos is shorthand for BlockPos{x, y, z}.
func Pos(x, y, z int) BlockPos { return BlockPos{X: x, Y: y, Z: z} }

// Add returns p offset by (dx, dy, dz).
func (p BlockPos) Add(dx, dy, dz int) BlockPos { return BlockPos{p.X + dx, p.Y + dy, p.Z + dz} }

// Up returns the block above p.
func (p BlockPos) Up() BlockPos { return p.Add(0, 1, 0) }

// Down returns the block below p.
func (p BlockPos) Down() BlockPos { return p.Add(0, -1, 0) }

// DistSq is the squared Euclidean distance between two block positions.
func (p BlockPos) DistSq(q BlockPos) int {
	dx, dy, dz := p.X-q.X, p.Y-q.Y, p.Z-q.Z
	return dx*dx + dy*dy + dz*dz
}

// Center is the centre of the block in world coordinates.
func (p BlockPos) Center() Vec3 {
	return Vec3{float64(p.X) + 0.5, float64(p.Y) + 0.5, float64(p.Z) + 0.5}
}

// Less orders positions by Y, then Z, then X; used to break distance ties
// deterministically.
func (p BlockPos) Less(q BlockPos) bool {
	if p.Y != q.Y {
		return p.Y < q.Y
	}
	if p.Z != q.Z {
		return p.Z < q.Z
	}
	return p.X < q.X
}

func (p BlockPos) String() string { return fmt.Sprintf("(%d, %d, %d)", p.X, p.Y, p.Z) }

// Vec3 is a position in continuous world coordinates (an entity's feet).
type Vec3 struct {
	X float64 `json:"x" yaml:"x"`
	Y float64 `json:"y" yaml:"y"`
	Z float64 `json:"z" yaml:"z"`
}

// Block returns the position of the block containing v.
func (v Vec3) Block() BlockPos {
	return BlockPos{int(math.Floor(v.X)), int(math.Floor(v.Y)), int(math.Floor(v.Z))}
}

// DistSq is the squared Euclidean distance between v and w.
func (v Vec3) DistSq(w Vec3) float64 {
	dx, dy, dz := v.X-w.X, v.Y-w.Y, v.Z-w.Z
	return dx*dx + dy*dy + dz*dz
}

func (v Vec3) String() string { return fmt.Sprintf("(%.2f, %.2f, %.2f)", v.X, v.Y, v.Z) }
