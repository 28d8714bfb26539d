package gtnh

import (
	"fmt"
	"math"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// The entities the server shows: players, dropped items and mobs, their
// moves and metadata, and the items the player collects.

func fixedPos(x, y, z int32) world.Vec3 {
	return world.Vec3{X: proto17.Fixed(x), Y: proto17.Fixed(y), Z: proto17.Fixed(z)}
}

func (c *Client) onSpawnPlayer(s *session, p *proto17.SpawnPlayer) {
	c.putEntity(s, p.EntityID, world.Entity{Kind: world.EntityPlayer, Name: p.Name, Pos: fixedPos(p.X, p.Y, p.Z)})
	c.seePlayer(s, p)
}

func (c *Client) onSpawnObject(s *session, p *proto17.SpawnObject) {
	if p.Type == proto17.ObjectFallingBlock {
		// Sand or gravel falling (EntityFallingBlock): the block changes
		// that come with it (air where it was, the block where it lands)
		// are what the world model keeps; a digging route that finds the
		// block back in its way plans again.
		c.skip("SpawnObject(falling block)")
		return
	}
	if p.Type != proto17.ObjectItem {
		c.skip("SpawnObject(other)")
		return
	}
	c.putEntity(s, p.EntityID, world.Entity{Kind: world.EntityItem, Pos: fixedPos(p.X, p.Y, p.Z)})
}

func (c *Client) onSpawnMob(s *session, p *proto17.SpawnMob) {
	h, _ := mobHealth(p.Metadata)
	c.putEntity(s, p.EntityID, world.Entity{Kind: world.EntityMob, Name: mobName(p.Type), Pos: fixedPos(p.X, p.Y, p.Z), Health: h})
}

// metaKeyHealth is a living entity's health in its metadata
// (EntityLivingBase.entityInit: dataWatcher.addObject(6, maxHealth), a
// float).
const metaKeyHealth = 6

// mobHealth is the health a living entity's metadata carries, when it does
// and the value is a health (a finite float, not negative).
func mobHealth(m proto17.Metadata) (float64, bool) {
	e, ok := m.Get(metaKeyHealth)
	if !ok || e.Type != proto17.MetaFloat || math.IsNaN(float64(e.Float)) || math.IsInf(float64(e.Float), 0) || e.Float < 0 {
		return 0, false
	}
	return float64(e.Float), true
}

// onEntityStatus forgets a mob that died (EntityStatus 3: its body lies 20
// ticks before the server destroys it, and it is no threat and no target
// meanwhile) and counts the hurts of the bot's own player.
func (c *Client) onEntityStatus(s *session, p *proto17.EntityStatus) {
	c.mu.Lock()
	own := p.EntityID == s.entityID
	tracked := s.entities[p.EntityID]
	if own && p.Status == proto17.StatusHurt {
		c.stats.Hurts++
	}
	c.mu.Unlock()
	if !tracked || p.Status != proto17.StatusDead {
		return
	}
	c.state.Update(func(tx *world.Tx) {
		if e, ok := tx.Entity(int(p.EntityID)); ok && e.Kind == world.EntityMob {
			tx.RemoveEntity(int(p.EntityID))
		}
	})
	c.notify()
}

func (c *Client) onDestroyEntities(s *session, p *proto17.DestroyEntities) {
	c.mu.Lock()
	for _, id := range p.IDs {
		delete(s.entities, id)
		delete(s.players, id)
	}
	c.notifyLocked()
	c.mu.Unlock()
	c.state.Update(func(tx *world.Tx) {
		for _, id := range p.IDs {
			tx.RemoveEntity(int(id))
		}
	})
}

func (c *Client) onRelativeMove(s *session, p *proto17.EntityRelativeMove) {
	dx, dy, dz := p.Delta()
	c.moveEntity(s, p.EntityID, func(v world.Vec3) world.Vec3 { return world.Vec3{X: v.X + dx, Y: v.Y + dy, Z: v.Z + dz} })
}

func (c *Client) onLookAndRelativeMove(s *session, p *proto17.EntityLookAndRelativeMove) {
	dx, dy, dz := p.Delta()
	c.moveEntity(s, p.EntityID, func(v world.Vec3) world.Vec3 { return world.Vec3{X: v.X + dx, Y: v.Y + dy, Z: v.Z + dz} })
}

func (c *Client) onTeleport(s *session, p *proto17.EntityTeleport) {
	c.moveEntity(s, p.EntityID, func(world.Vec3) world.Vec3 { return fixedPos(p.X, p.Y, p.Z) })
}

func (c *Client) forgetEntity(s *session, id int32) {
	c.markUnknown(fmt.Sprintf("entity %d", id))
	c.mu.Lock()
	delete(s.entities, id)
	c.mu.Unlock()
	c.state.Update(func(tx *world.Tx) { tx.RemoveEntity(int(id)) })
}

func (c *Client) putEntity(s *session, id int32, e world.Entity) {
	e.ID = int(id)
	c.mu.Lock()
	if !s.entities[id] && len(s.entities) >= maxEntities {
		countName(c.stats.Skipped, "entity over limit")
		c.mu.Unlock()
		return
	}
	s.entities[id] = true
	c.notifyLocked()
	c.mu.Unlock()
	c.known(fmt.Sprintf("entity %d", id))
	c.state.Update(func(tx *world.Tx) { tx.PutEntity(e) })
}

func (c *Client) moveEntity(s *session, id int32, to func(world.Vec3) world.Vec3) {
	c.mu.Lock()
	ok := s.entities[id]
	c.mu.Unlock()
	if !ok {
		return
	}
	c.state.Update(func(tx *world.Tx) {
		if e, ok := tx.Entity(int(id)); ok {
			e.Pos = to(e.Pos)
			tx.PutEntity(e)
		}
	})
	c.notify()
}

func (c *Client) onMetadata(s *session, p *proto17.EntityMetadata) {
	c.mu.Lock()
	self := p.EntityID == s.entityID
	c.mu.Unlock()
	if self {
		// The player's own watched data: object 1 is the air supply
		// (EntityLivingBase.getAir), sent when it changes.
		if e, ok := p.Metadata.Get(1); ok && e.Type == proto17.MetaShort {
			c.state.Update(func(tx *world.Tx) { tx.SetAir(int(e.Int)) })
			c.notify()
		}
		return
	}
	slot, isItem := p.Metadata.Item()
	health, isHealth := mobHealth(p.Metadata)
	if !isItem && !isHealth {
		return
	}
	c.mu.Lock()
	tracked := s.entities[p.EntityID]
	c.mu.Unlock()
	if !tracked {
		return
	}
	c.state.Update(func(tx *world.Tx) {
		e, ok := tx.Entity(int(p.EntityID))
		switch {
		case ok && isItem && e.Kind == world.EntityItem:
			st := toStack(slot, tx.Resolver().IDs(), c.rules)
			e.Item = &st
			tx.PutEntity(e)
		case ok && isHealth && e.Kind == world.EntityMob:
			e.Health = health
			tx.PutEntity(e)
		}
	})
	c.notify()
}

// onCollect forgets a collected item and, when the bot collected it,
// records it. Both happen under c.mu: a reader that sees the item gone from
// the world and then takes c.mu finds it recorded (break_block's
// collectDrops reads them in that order).
func (c *Client) onCollect(s *session, p *proto17.CollectItem) {
	var item *world.ItemStack
	c.mu.Lock()
	c.state.Update(func(tx *world.Tx) {
		if e, ok := tx.Entity(int(p.CollectedID)); ok {
			item = e.Item
		}
		tx.RemoveEntity(int(p.CollectedID))
	})
	delete(s.entities, p.CollectedID)
	if p.CollectorID == s.entityID {
		s.collected = append(s.collected, collected{entity: p.CollectedID, item: item, tick: c.ticks.Load()})
		s.collectedN++
		if len(s.collected) > maxCollected {
			s.collected = s.collected[len(s.collected)-maxCollected:]
		}
	}
	c.notifyLocked()
	c.mu.Unlock()
}
