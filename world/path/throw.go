package path

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// An item a player throws away (Q, or a stack dropped outside the window)
// flies ahead and comes to rest a few blocks away, where the thrower picks
// it up only by walking to it. Minecraft 1.7.10 (MCP-Decompiled/1.7.10-12
// at 1b1a78f): EntityPlayer.func_146097_a starts the item at the eyes less
// 0.3 (Forge's eyeHeight, 1.62 above the feet) with a speed of 0.3 along
// the look and 0.1 up, and a pickup delay of 40 ticks; EntityItem.onUpdate
// pulls it down 0.04 a tick, then slows it by 0.98 in the air and by the
// ground's slipperiness (0.6) × 0.98 on the ground. The random nudge of at
// most 0.02 the game adds is left out, so a throw lands where this says.
const (
	throwSpeed   = 0.3
	throwLift    = 0.1
	throwFrom    = 1.62 - 0.3
	itemGravity  = 0.04
	airDrag      = 0.98
	groundDrag   = 0.6 * 0.98
	throwMaxTick = 200
)

// ThrowYaws are the directions a thrower tries, in Minecraft's yaw
// degrees (0 faces south, +z; 90 west, −x).
var ThrowYaws = []float64{0, 45, 90, 135, 180, 225, 270, 315}

// Throw follows an item thrown from a player standing at feet, looking
// level along yaw (degrees, Minecraft's convention: the motion is
// (−sin yaw, cos yaw)), through the blocks at gives, and returns where it
// comes to rest. ok is false when it falls out of the world.
func Throw(at func(world.BlockPos) world.Block, feet world.Vec3, yaw float64) (rest world.Vec3, ok bool) {
	r := yaw * math.Pi / 180
	p := world.Vec3{X: feet.X, Y: feet.Y + throwFrom, Z: feet.Z}
	vx, vy, vz := -math.Sin(r)*throwSpeed, throwLift, math.Cos(r)*throwSpeed
	onGround := false
	for range throwMaxTick {
		vy -= itemGravity
		if nx := p.X + vx; blocked(at, world.Vec3{X: nx, Y: p.Y, Z: p.Z}) {
			vx = 0
		} else {
			p.X = nx
		}
		if nz := p.Z + vz; blocked(at, world.Vec3{X: p.X, Y: p.Y, Z: nz}) {
			vz = 0
		} else {
			p.Z = nz
		}
		onGround = false
		if y, hit := fall(at, p, vy); hit {
			p.Y, vy, onGround = y, 0, true
		} else {
			p.Y += vy
		}
		if p.Y < 0 {
			return p, false
		}
		drag := airDrag
		if onGround {
			drag = groundDrag
		}
		vx, vy, vz = vx*drag, vy*airDrag, vz*drag
		if onGround && math.Hypot(vx, vz) < 1e-3 {
			break
		}
	}
	return p, true
}

// BestThrow is the direction of ThrowYaws an item thrown from feet comes to
// rest farthest from the thrower in (the first of equals), and where.
func BestThrow(at func(world.BlockPos) world.Block, feet world.Vec3) (yaw float64, rest world.Vec3, ok bool) {
	best := -1.0
	for _, y := range ThrowYaws {
		p, landed := Throw(at, feet, y)
		if !landed {
			continue
		}
		if d := math.Hypot(p.X-feet.X, p.Z-feet.Z); d > best+1e-9 {
			best, yaw, rest, ok = d, y, p, true
		}
	}
	return yaw, rest, ok
}

// blocked reports whether a point is inside a block's collision box.
func blocked(at func(world.BlockPos) world.Block, p world.Vec3) bool {
	c := p.Block()
	fx, fy, fz := p.X-float64(c.X), p.Y-float64(c.Y), p.Z-float64(c.Z)
	for _, b := range shapeAt(at, c).Boxes {
		if fx >= b.MinX && fx < b.MaxX && fy >= b.MinY && fy < b.MaxY && fz >= b.MinZ && fz < b.MaxZ {
			return true
		}
	}
	return false
}

// fall moves a point down by −vy (when vy < 0) and reports the top of the
// first collision box it meets on the way.
func fall(at func(world.BlockPos) world.Block, p world.Vec3, vy float64) (float64, bool) {
	if vy >= 0 {
		return 0, false
	}
	to := p.Y + vy
	for cy := int(math.Floor(p.Y)); cy >= int(math.Floor(to)) && cy >= 0; cy-- {
		c := world.Pos(int(math.Floor(p.X)), cy, int(math.Floor(p.Z)))
		fx, fz := p.X-float64(c.X), p.Z-float64(c.Z)
		top, hit := 0.0, false
		for _, b := range shapeAt(at, c).Boxes {
			if fx < b.MinX || fx >= b.MaxX || fz < b.MinZ || fz >= b.MaxZ {
				continue
			}
			if y := float64(cy) + b.MaxY; y <= p.Y+1e-9 && y >= to && (!hit || y > top) {
				top, hit = y, true
			}
		}
		if hit {
			return top, true
		}
	}
	return 0, false
}

func shapeAt(at func(world.BlockPos) world.Block, c world.BlockPos) rules.Shape {
	return rules.ShapeOf(at(c), func(dy int) world.Block { return at(c.Add(0, dy, 0)) })
}
