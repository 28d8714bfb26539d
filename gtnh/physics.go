package gtnh

import (
	"math"
	"time"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// Player body dimensions and 1.7.10 movement constants.
const (
	halfWidth    = 0.3
	bodyHeight   = 1.8
	jumpVelocity = 0.42
	gravity      = 0.08
	drag         = 0.98
	swimSpeed    = 0.1
	// stuckTicks without progress abort a move.
	stuckTicks = 40
	// fullPositionEvery: a position is sent at least this often even when
	// nothing moved, as the vanilla client does.
	fullPositionEvery = 20
)

// waypoint is the centre of a path step the body walks to (feet).
type waypoint struct {
	x, y, z float64
	move    path.Move
}

// motion is the player's body as the client simulates it between the
// server's corrections.
type motion struct {
	x, y, z    float64 // feet
	yaw, pitch float32
	onGround   bool
	vy         float64
	route      []waypoint
	// stuck is set when the route made no progress for stuckTicks.
	stuck bool
	// corrections counts server position corrections (0x08).
	corrections int
	best        float64
	sinceBest   int
	sinceSent   int
	sentLook    [2]float32
	sentPos     [3]float64
}

func (m motion) feet() world.Vec3 { return world.Vec3{X: m.x, Y: m.y, Z: m.z} }

// eye is the position of the eyes.
func (m motion) eye() world.Vec3 { return world.Vec3{X: m.x, Y: m.y + proto17.EyeHeight, Z: m.z} }

// lookAt turns the head towards a point.
func (m *motion) lookAt(p world.Vec3) {
	dx, dy, dz := p.X-m.x, p.Y-(m.y+proto17.EyeHeight), p.Z-m.z
	m.yaw = float32(math.Atan2(-dx, dz) * 180 / math.Pi)
	m.pitch = float32(-math.Atan2(dy, math.Hypot(dx, dz)) * 180 / math.Pi)
}

// cells answers the body's block queries.
type cells func(x, y, z int) path.Cell

// collides reports whether the body at feet (x, y, z) overlaps a solid
// block.
func collides(g cells, x, y, z float64) bool {
	const eps = 1e-4
	for bx := int(math.Floor(x - halfWidth + eps)); bx <= int(math.Floor(x+halfWidth-eps)); bx++ {
		for bz := int(math.Floor(z - halfWidth + eps)); bz <= int(math.Floor(z+halfWidth-eps)); bz++ {
			for by := int(math.Floor(y + eps)); by <= int(math.Floor(y+bodyHeight-eps)); by++ {
				if g(bx, by, bz) == path.Solid {
					return true
				}
			}
		}
	}
	return false
}

// supported reports whether a solid block is right under the body.
func supported(g cells, x, y, z float64) bool {
	if y-math.Floor(y) > 1e-3 {
		return false
	}
	return collides(g, x, y-0.01, z) && !collides(g, x, y, z)
}

// step advances the body one tick; it reports whether the position changed.
func (m *motion) step(g cells) bool {
	ox, oy, oz := m.x, m.y, m.z
	inWater := g(ifloor(m.x), ifloor(m.y), ifloor(m.z)) == path.Water || g(ifloor(m.x), ifloor(m.y+1), ifloor(m.z)) == path.Water
	var hx, hz float64
	if len(m.route) > 0 {
		wp := m.route[0]
		dx, dz := wp.x-m.x, wp.z-m.z
		dist := math.Hypot(dx, dz)
		speed := WalkSpeed
		if inWater {
			speed = WalkSpeed / 2
		}
		if dist > speed {
			hx, hz = dx/dist*speed, dz/dist*speed
		} else {
			hx, hz = dx, dz
		}
		if dist > 1e-6 {
			m.yaw = float32(math.Atan2(-dx, dz) * 180 / math.Pi)
			m.pitch = 0
		}
		switch {
		case inWater && wp.y > m.y+0.05:
			m.vy = swimSpeed
		case inWater && wp.y < m.y-0.05:
			m.vy = -swimSpeed
		case inWater:
			m.vy = 0
		case m.onGround && wp.y > m.y+0.5 && dist < 1.6:
			m.vy, m.onGround = jumpVelocity, false
		}
	} else if inWater {
		m.vy = 0
	}
	// Vertical: gravity out of water, then collisions.
	if !m.onGround || inWater {
		ny := m.y + m.vy
		switch {
		case m.vy < 0 && collides(g, m.x, ny, m.z):
			ny = math.Floor(ny) + 1
			if collides(g, m.x, ny, m.z) {
				ny = m.y
			}
			m.vy, m.onGround = 0, true
		case m.vy > 0 && collides(g, m.x, ny, m.z):
			ny, m.vy = m.y, 0
		}
		m.y = ny
		if !inWater && !m.onGround {
			m.vy = (m.vy - gravity) * drag
		}
	}
	// Horizontal, one axis at a time (slides along walls).
	if hx != 0 && !collides(g, m.x+hx, m.y, m.z) {
		m.x += hx
	}
	if hz != 0 && !collides(g, m.x, m.y, m.z+hz) {
		m.z += hz
	}
	if m.onGround && !inWater && !supported(g, m.x, m.y, m.z) {
		m.onGround, m.vy = false, 0
	}
	if !m.onGround && !inWater && supported(g, m.x, m.y, m.z) && m.vy <= 0 {
		m.onGround, m.vy = true, 0
	}
	m.advanceRoute(inWater)
	return m.x != ox || m.y != oy || m.z != oz
}

// advanceRoute pops reached waypoints and watches for lack of progress.
func (m *motion) advanceRoute(inWater bool) {
	if len(m.route) == 0 {
		return
	}
	wp := m.route[0]
	horiz := math.Hypot(wp.x-m.x, wp.z-m.z)
	settled := m.onGround || inWater
	if horiz < 1e-3 && settled && math.Abs(wp.y-m.y) < 0.55 {
		m.route = m.route[1:]
		m.best, m.sinceBest = math.Inf(1), 0
		return
	}
	d := horiz + math.Abs(wp.y-m.y)
	if d < m.best-1e-3 {
		m.best, m.sinceBest = d, 0
		return
	}
	m.sinceBest++
	if m.sinceBest > stuckTicks {
		m.route, m.stuck = nil, true
	}
}

func ifloor(v float64) int { return int(math.Floor(v)) }

// tickLoop runs the body: one step and one movement packet per tick.
func (c *Client) tickLoop(s *session) {
	defer s.wg.Done()
	t := time.NewTicker(c.cfg.Tick)
	defer t.Stop()
	for {
		select {
		case <-s.ended:
			return
		case <-t.C:
		}
		if err := c.tick(s); err != nil {
			s.endAfterWrite(err)
			return
		}
		// Idle time: pack the sections chunk packets left as wire arrays.
		c.state.CompactChunks(c.cfg.CompactPerTick)
	}
}

// tick steps the body and sends its movement packet.
func (c *Client) tick(s *session) error {
	c.mu.Lock()
	if !s.spawned {
		c.mu.Unlock()
		return nil
	}
	b := &s.body
	var moved bool
	loaded := s.loaded[[2]int{ifloor(b.x) >> 4, ifloor(b.z) >> 4}]
	c.state.Update(func(tx *world.Tx) {
		if loaded {
			// A body in an unloaded column stays put, as the vanilla
			// client's does.
			moved = b.step(txCells(tx, s.loaded))
		}
		tx.AdvanceTick(1)
		if moved {
			tx.MovePlayer(b.feet())
		}
	})
	var p proto17.Packet
	look := [2]float32{b.yaw, b.pitch}
	b.sinceSent++
	switch {
	case moved || b.sinceSent >= fullPositionEvery:
		p = &proto17.ServerboundPlayerPositionAndLook{X: b.x, FeetY: b.y, HeadY: b.y + proto17.EyeHeight, Z: b.z,
			Yaw: b.yaw, Pitch: b.pitch, OnGround: b.onGround}
		b.sinceSent, b.sentLook = 0, look
	case look != b.sentLook:
		p = &proto17.PlayerLook{Yaw: b.yaw, Pitch: b.pitch, OnGround: b.onGround}
		b.sentLook = look
	default:
		p = &proto17.Player{OnGround: b.onGround}
	}
	c.ticks.Add(1)
	c.notifyLocked()
	c.mu.Unlock()
	return c.send(s, p)
}

// txCells classifies blocks for the body; unloaded columns are Unknown
// (and never solid).
func txCells(tx *world.Tx, loaded map[[2]int]bool) cells {
	res := tx.Resolver()
	return func(x, y, z int) path.Cell {
		if y < 0 {
			return path.Solid
		}
		if y > 255 {
			return path.Passable
		}
		if !loaded[[2]int{x >> 4, z >> 4}] {
			return path.Unknown
		}
		return path.ClassifyByTags(res.Block(tx.StateAt(world.Pos(x, y, z))))
	}
}

// onPosition applies a Player Position And Look: the server placed the
// player (at spawn, or correcting a move). Any route stops; the client
// confirms with the exact position, which the server waits for before it
// accepts further moves.
func (c *Client) onPosition(s *session, p *proto17.PlayerPositionAndLook) error {
	c.mu.Lock()
	b := &s.body
	b.x, b.y, b.z, b.yaw, b.pitch = p.X, p.FeetY(), p.Z, p.Yaw, p.Pitch
	b.vy, b.onGround = 0, false
	if s.loaded[[2]int{ifloor(p.X) >> 4, ifloor(p.Z) >> 4}] {
		c.state.Update(func(tx *world.Tx) { b.onGround = supported(txCells(tx, s.loaded), b.x, b.y, b.z) })
	}
	b.route = nil
	first := s.inGame && !s.spawned
	if first {
		s.spawned = true
	} else if s.spawned {
		b.corrections++
		c.stats.Corrections++
	}
	b.sinceSent = 0
	b.sentLook = [2]float32{p.Yaw, p.Pitch}
	c.notifyLocked()
	c.mu.Unlock()
	c.state.Update(func(tx *world.Tx) { tx.MovePlayer(world.Vec3{X: p.X, Y: p.FeetY(), Z: p.Z}) })
	err := c.send(s, &proto17.ServerboundPlayerPositionAndLook{X: p.X, FeetY: p.FeetY(), HeadY: p.Y, Z: p.Z,
		Yaw: p.Yaw, Pitch: p.Pitch, OnGround: false})
	// Only now may actions start: the confirmation goes out first.
	c.mu.Lock()
	joined := s.maybeJoined()
	c.mu.Unlock()
	if first {
		c.log.Info().Float64("x", p.X).Float64("y", p.FeetY()).Float64("z", p.Z).Msg("spawned")
	}
	if joined {
		c.log.Info().Msg("in the world")
	}
	return err
}
