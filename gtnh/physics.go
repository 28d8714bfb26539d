package gtnh

import (
	"math"
	"time"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
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

// cells answers the body's block queries: a block's cell class (water,
// for swimming) and its collision shape (rules.KnownShape, the table the
// pathfinder and the simulator share).
type cells struct {
	cell  func(x, y, z int) path.Cell
	shape func(x, y, z int) rules.Shape
}

// stepHeight is how high the player walks up without jumping (1.7.10
// EntityPlayer: Entity.stepHeight 0.5): onto a slab, from a slab onto a
// block.
const stepHeight = 0.5

// overlapping calls fn with each collision box (in world coordinates) that
// overlaps the body at feet (x, y, z), including boxes of the cell below
// the feet that reach above it (fences, 1.5 high).
func overlapping(g cells, x, y, z float64, fn func(minY, maxY float64) bool) bool {
	const eps = 1e-4
	x0, x1 := x-halfWidth+eps, x+halfWidth-eps
	z0, z1 := z-halfWidth+eps, z+halfWidth-eps
	y0, y1 := y+eps, y+bodyHeight-eps
	for bx := ifloor(x0); bx <= ifloor(x1); bx++ {
		for bz := ifloor(z0); bz <= ifloor(z1); bz++ {
			for by := ifloor(y0) - 1; by <= ifloor(y1); by++ {
				for _, b := range g.shape(bx, by, bz).Boxes {
					if float64(bx)+b.MaxX <= x0 || float64(bx)+b.MinX >= x1 ||
						float64(bz)+b.MaxZ <= z0 || float64(bz)+b.MinZ >= z1 ||
						float64(by)+b.MaxY <= y0 || float64(by)+b.MinY >= y1 {
						continue
					}
					if fn(float64(by)+b.MinY, float64(by)+b.MaxY) {
						return true
					}
				}
			}
		}
	}
	return false
}

// collides reports whether the body at feet (x, y, z) overlaps a block's
// collision box.
func collides(g cells, x, y, z float64) bool {
	return overlapping(g, x, y, z, func(float64, float64) bool { return true })
}

// topUnder is the highest top of the boxes the body at feet (x, y, z)
// overlaps, or y when it overlaps none: where a body that sank into them
// stands.
func topUnder(g cells, x, y, z float64) float64 {
	top := y
	overlapping(g, x, y, z, func(_, maxY float64) bool {
		top = max(top, maxY)
		return false
	})
	return top
}

// supported reports whether a collision box is right under the feet.
func supported(g cells, x, y, z float64) bool {
	return collides(g, x, y-0.01, z) && !collides(g, x, y, z)
}

// step advances the body one tick; it reports whether the position changed.
func (m *motion) step(g cells) bool {
	ox, oy, oz := m.x, m.y, m.z
	inWater := g.cell(ifloor(m.x), ifloor(m.y), ifloor(m.z)) == path.Water || g.cell(ifloor(m.x), ifloor(m.y+1), ifloor(m.z)) == path.Water
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
		case m.onGround && wp.y > m.y+stepHeight+1e-6 && dist < 1.6:
			// More than a step up: jump (a slab or a carpet is walked onto).
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
			// Land on the top of what the body sank into.
			ny = topUnder(g, m.x, ny, m.z)
			if ny > m.y || collides(g, m.x, ny, m.z) {
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
	// Horizontal, one axis at a time (slides along walls); on the ground a
	// block edge up to stepHeight is stepped onto, as Entity.moveEntity
	// does.
	if hx != 0 {
		m.moveAxis(g, hx, 0)
	}
	if hz != 0 {
		m.moveAxis(g, 0, hz)
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

// moveAxis moves the body horizontally by (dx, dz) unless blocked; a body
// on the ground climbs an edge of at most stepHeight on the way.
func (m *motion) moveAxis(g cells, dx, dz float64) {
	nx, nz := m.x+dx, m.z+dz
	if !collides(g, nx, m.y, nz) {
		m.x, m.z = nx, nz
		return
	}
	if !m.onGround {
		return
	}
	up := m.y + stepHeight
	if collides(g, m.x, up, m.z) || collides(g, nx, up, nz) {
		return // no head room to step up
	}
	ny := topUnder(g, nx, m.y, nz)
	if ny <= up+1e-9 && !collides(g, nx, ny, nz) {
		m.x, m.y, m.z = nx, ny, nz
	}
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
		if c.ticks.Load()%boilerRefreshTicks == 0 {
			c.refreshBoilers(s)
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

// txCells answers the body's block queries from the client's world:
// unloaded columns are Unknown and have no collision box (the body in one
// stays put); below the world is solid.
func txCells(tx *world.Tx, loaded map[[2]int]bool) cells {
	res := tx.Resolver()
	block := func(x, y, z int) (world.Block, bool) {
		if y < 0 || y > 255 || !loaded[[2]int{x >> 4, z >> 4}] {
			return world.Block{}, false
		}
		return res.Block(tx.StateAt(world.Pos(x, y, z))), true
	}
	return cells{
		cell: func(x, y, z int) path.Cell {
			if y < 0 {
				return path.Solid
			}
			if y > 255 {
				return path.Passable
			}
			b, ok := block(x, y, z)
			if !ok {
				return path.Unknown
			}
			return path.ClassifyByTags(b)
		},
		shape: func(x, y, z int) rules.Shape {
			if y < 0 {
				return rules.ShapeFull
			}
			b, ok := block(x, y, z)
			if !ok {
				return rules.ShapeEmpty
			}
			if c := path.ClassifyByTags(b); c == path.Passable || c == path.Water || c == path.Danger {
				if s, known := rules.KnownShape(b, nil); !known || s.Empty() {
					return rules.ShapeEmpty // plants, liquids, fire: nothing to collide with
				}
			}
			return rules.ShapeOf(b, func(dy int) world.Block { o, _ := block(x, y+dy, z); return o })
		},
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
