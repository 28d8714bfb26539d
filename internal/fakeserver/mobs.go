package fakeserver

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// The world's dangers on the test server, by config/mobs.yaml's rules: the
// clock (Time Update), hostile mobs that appear when night falls, walk to
// the nearest player and hit it, the player's attacks on them, and a
// player's death, dropped inventory and respawn.

// Mob is a hostile mob of the test server's world: a kind of
// config/mobs.yaml ("zombie") and where it appears.
type Mob struct {
	Kind    string
	X, Y, Z float64
}

// mob is a hostile mob in the world.
type mob struct {
	eid    int32
	kind   rules.MobKind
	pos    world.Vec3
	sent   [3]int32 // the fixed-point position the players were told
	yaw    int8
	health float64
	// hurt is the hurt resistance left (EntityLivingBase.hurtResistantTime)
	// and lastHurt the damage that set it.
	hurt     int
	lastHurt float64
	cooldown int // ticks until it may hit again
	fire     int // ticks left burning
	dying    int // ticks since it died (0: alive)
}

// playerHurtResistance is EntityLivingBase.maxHurtResistantTime: a hit sets
// hurtResistantTime to 20, and while it is above 10 only a stronger hit
// hurts, by the difference (attackEntityFrom).
const playerHurtResistance = 20

// deathTicks is how long a dead mob's body lies before the server removes
// it (EntityLivingBase.onDeathUpdate: deathTime reaches 20).
const deathTicks = 20

// timeUpdateTicks is how often a player is sent the time
// (MinecraftServer.updateTimeLightAndEntities: tickCounter % 20 == 0).
const timeUpdateTicks = 20

// worldTimeLocked is the world time at server tick t.
func (s *Server) worldTimeLocked(t int) int64 { return s.opts.StartTime + int64(t) }

// timeNow is the Time Update for now.
func (s *Server) timeNow() *proto17.TimeUpdate {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.timePacket(s.tick())
}

// timePacket is the Time Update at server tick t.
func (s *Server) timePacket(t int) *proto17.TimeUpdate {
	return &proto17.TimeUpdate{WorldAge: int64(t), TimeOfDay: s.worldTimeLocked(t)}
}

// mobPackets show a mob to one player: Spawn Mob with its health in the
// metadata, and its head's turn.
func mobPackets(c *conn, m *mob) []outgoing {
	var out outbox
	out.to(c, StageNone, &proto17.SpawnMob{EntityID: m.eid, Type: uint8(m.kind.EntityType), X: m.sent[0], Y: m.sent[1], Z: m.sent[2],
		Yaw: m.yaw, HeadYaw: m.yaw, Metadata: healthMeta(m.health)})
	out.to(c, StageNone, &proto17.EntityHeadLook{EntityID: m.eid, HeadYaw: m.yaw})
	return out
}

// healthMeta is a living entity's health in its metadata (key 6, a float:
// EntityLivingBase.entityInit).
func healthMeta(h float64) proto17.Metadata {
	return proto17.Metadata{{Key: 6, Type: proto17.MetaFloat, Float: float32(h)}}
}

// runWorldLocked runs the world's clock up to the current server tick:
// Time Updates every 20 ticks, mobs appearing at nightfall, moving,
// burning, hitting and dying, dropped items despawning.
func (s *Server) runWorldLocked(out *outbox) {
	now := s.tick()
	mobs := rules.Default().Mobs
	for ; s.clockTick < now; s.clockTick++ {
		t := s.clockTick + 1
		if t%timeUpdateTicks == 0 {
			out.all(s, StageNone, s.timePacket(t))
		}
		wt := s.worldTimeLocked(t)
		day := mobs.IsDaytime(wt)
		if len(s.pendingMobs) > 0 {
			// Hostile mobs come when night falls; animals are there from
			// the world's making (SpawnerAnimals.performWorldGenSpawning).
			kept := s.pendingMobs[:0]
			for _, pm := range s.pendingMobs {
				if kind, _ := mobs.Kind(pm.Kind); !day || kind.Passive() {
					s.spawnMobLocked(out, pm)
				} else {
					kept = append(kept, pm)
				}
			}
			s.pendingMobs = kept
		}
		for _, m := range s.sortedMobsLocked() {
			s.mobTickLocked(out, m, day, t)
		}
		for eid, it := range s.items {
			// Forge's EntityItem: removed when its age reaches lifespan.
			gone := t-it.born >= mobs.Player.ItemLifespan
			if !gone && s.liquidAtLocked(it.pos.Block()) == "lava" {
				// Entity.onEntityUpdate → setOnFireFromLava: lava_damage
				// a tick, and EntityItem.attackEntityFrom has no hurt
				// resistance: an item of item_health 5 burns in its
				// second tick in lava.
				it.hurt += mobs.Player.LavaDamage
				if gone = it.hurt >= mobs.Player.ItemHealth; gone {
					s.burned = append(s.burned, DroppedItem{EntityID: it.eid, Pos: it.pos, Item: s.itemOf(0, it.stack)})
					s.logf("item %d (%v) burned in lava at %v", eid, s.itemOf(0, it.stack), it.pos)
				}
			}
			if gone {
				delete(s.items, eid)
				out.all(s, StageNone, &proto17.DestroyEntities{IDs: []int32{eid}})
				s.notifyLocked()
			}
		}
		for _, c := range s.conns {
			if c.playing && c.hurt > 0 {
				c.hurt--
			}
			if c.playing && !c.dead {
				s.liquidTickLocked(out, c, t)
			}
		}
	}
}

// sortedMobsLocked are the mobs in entity id order (the world's order of
// events does not depend on a map's).
func (s *Server) sortedMobsLocked() []*mob {
	out := make([]*mob, 0, len(s.mobs))
	for id := s.firstMob; id <= s.nextEID && len(out) < len(s.mobs); id++ {
		if m := s.mobs[id]; m != nil {
			out = append(out, m)
		}
	}
	return out
}

// spawnMobLocked puts a mob in the world and shows it to every player.
func (s *Server) spawnMobLocked(out *outbox, pm Mob) {
	kind, _ := rules.Default().Mobs.Kind(pm.Kind)
	s.nextEID++
	m := &mob{eid: s.nextEID, kind: kind, pos: world.Vec3{X: pm.X, Y: pm.Y, Z: pm.Z}, health: kind.Health}
	m.sent = [3]int32{proto17.ToFixed(m.pos.X), proto17.ToFixed(m.pos.Y), proto17.ToFixed(m.pos.Z)}
	if s.firstMob == 0 {
		s.firstMob = m.eid
	}
	s.mobs[m.eid] = m
	for _, c := range s.conns {
		if c.playing {
			out.add(mobPackets(c, m)...)
		}
	}
	s.logf("a %s appears at %v (entity %d)", kind.Name, m.pos, m.eid)
	s.notifyLocked()
}

// mobTickLocked is one tick of a mob: a dead one's body lies until it is
// removed; a living one burns in the daylight under the open sky (zombie,
// skeleton), walks straight at the nearest living player within its follow
// range (the test server's ground is flat: no path finding, no falling)
// and hits it within reach every attack interval.
func (s *Server) mobTickLocked(out *outbox, m *mob, day bool, t int) {
	mobs := rules.Default().Mobs
	if m.dying > 0 {
		if m.dying++; m.dying > deathTicks {
			delete(s.mobs, m.eid)
			out.all(s, StageNone, &proto17.DestroyEntities{IDs: []int32{m.eid}})
			s.notifyLocked()
		}
		return
	}
	if m.hurt > 0 {
		m.hurt--
	}
	if m.cooldown > 0 {
		m.cooldown--
	}
	if m.kind.BurnsInDaylight && day && s.openSkyLocked(m.pos) {
		m.fire = max(m.fire, mobs.Player.BurnTicks)
	}
	if m.fire > 0 {
		// Entity.onEntityUpdate: fire damage when fire % 20 == 0.
		if m.fire%mobs.Player.FirePeriod == 0 {
			s.hurtMobLocked(out, m, mobs.Player.FireDamage, nil)
		}
		m.fire--
		if m.dying > 0 {
			return
		}
	}
	target := s.targetLocked(m)
	if target == nil {
		return
	}
	dx, dz := target.pos.X-m.pos.X, target.pos.Z-m.pos.Z
	dist := math.Hypot(dx, dz)
	reach := m.kind.Attack.Reach
	if dist > reach*0.9 {
		step := math.Min(m.kind.WalkSpeed(), dist-reach*0.9)
		m.pos.X += dx / dist * step
		m.pos.Z += dz / dist * step
		dist -= step
	}
	m.yaw = int8(math.Round(math.Atan2(-dx, dz) * 128 / math.Pi))
	s.sendMoveLocked(out, m)
	if m.kind.Attack.Kind == rules.AttackMelee && dist <= reach && m.cooldown == 0 {
		m.cooldown = m.kind.Attack.Interval
		src := damageSource{typ: "mob", killer: entityName(m.kind.Name), by: fmt.Sprintf("a %s (entity %d)", m.kind.Name, m.eid)}
		s.hurtPlayerLocked(out, target, m.kind.Attack.Damage, src, t)
	}
}

// openSkyLocked reports whether nothing stands above the mob's head in its
// column (the sky's light reaches it).
func (s *Server) openSkyLocked(p world.Vec3) bool {
	b := p.Block()
	for y := b.Y + 2; y < 256; y++ {
		if !s.stateAt(world.Pos(b.X, y, b.Z)).IsAir() {
			return false
		}
	}
	return true
}

// targetLocked is the nearest living player within the mob's follow range.
func (s *Server) targetLocked(m *mob) *conn {
	var best *conn
	bestD := m.kind.FollowRange * m.kind.FollowRange
	for _, c := range s.conns {
		if !c.playing || c.dead {
			continue
		}
		if d := c.pos.DistSq(m.pos); d <= bestD {
			best, bestD = c, d
		}
	}
	return best
}

// sendMoveLocked tells the players where the mob went: Entity Look And
// Relative Move by the change of its fixed-point position, or Entity
// Teleport when that change does not fit a byte (over 4 blocks), as
// EntityTrackerEntry does; and its head's turn.
func (s *Server) sendMoveLocked(out *outbox, m *mob) {
	to := [3]int32{proto17.ToFixed(m.pos.X), proto17.ToFixed(m.pos.Y), proto17.ToFixed(m.pos.Z)}
	d := [3]int32{to[0] - m.sent[0], to[1] - m.sent[1], to[2] - m.sent[2]}
	fits := true
	for _, v := range d {
		fits = fits && v >= math.MinInt8 && v <= math.MaxInt8
	}
	if fits {
		out.all(s, StageNone, &proto17.EntityLookAndRelativeMove{EntityID: m.eid, DX: int8(d[0]), DY: int8(d[1]), DZ: int8(d[2]), Yaw: m.yaw})
	} else {
		out.all(s, StageNone, &proto17.EntityTeleport{EntityID: m.eid, X: to[0], Y: to[1], Z: to[2], Yaw: m.yaw})
	}
	out.all(s, StageNone, &proto17.EntityHeadLook{EntityID: m.eid, HeadYaw: m.yaw})
	m.sent = to
}

// hurtPlayerLocked applies a hit to a player by EntityLivingBase.
// attackEntityFrom's hurt resistance (normal difficulty: the damage as
// it is, no armour, no knockback): the player's health, Update Health to
// the player and Entity Status 2 (hurt) to every player. At 0 health the
// player dies.
func (s *Server) hurtPlayerLocked(out *outbox, c *conn, dmg float64, src damageSource, t int) {
	by := src.by
	if c.dead {
		return
	}
	switch {
	case c.hurt > playerHurtResistance/2 && dmg <= c.lastHurt:
		return
	case c.hurt > playerHurtResistance/2:
		dmg, c.lastHurt = dmg-c.lastHurt, dmg
	default:
		c.lastHurt, c.hurt = dmg, playerHurtResistance
	}
	c.health = math.Max(0, c.health-dmg)
	s.hits = append(s.hits, Hit{Tick: t, Attacker: by, Target: c.name, Damage: dmg, HealthAfter: c.health})
	if c.health <= 0 {
		// EntityPlayerMP.onDeath tells every player at once
		// (ServerConfigurationManager.sendChatMsg); the health goes out
		// later in the tick (onUpdateEntity), so the message comes first.
		out.all(s, StageNone, &proto17.Chat{JSON: deathChatJSON(c.name, src)})
	}
	out.to(c, StageNone, &proto17.UpdateHealth{Health: float32(c.health), Food: int16(c.food), Saturation: float32(c.saturation)})
	out.all(s, StageNone, &proto17.EntityStatus{EntityID: c.eid, Status: proto17.StatusHurt})
	s.logf("conn %d: hit by %s for %g, health %g", c.id, by, dmg, c.health)
	if c.health <= 0 {
		s.killPlayerLocked(out, c, by)
	}
	s.notifyLocked()
}

// damageSource is a 1.7.10 DamageSource as this server deals it: its damage
// type, which names the death message ("death.attack." + typ:
// DamageSource.func_151519_b), the mob that dealt it ("" for none) and how
// the hits and deaths are logged. The sources: a mob's hit "mob"
// (DamageSource.causeMobDamage), lava "lava", burning "onFire", drowning
// "drown" (DamageSource's constants).
type damageSource struct {
	typ, killer, by string
}

// entityName is a mob's name as a death message carries it: its EntityList
// name ("Zombie", "Skeleton", "Spider", "Creeper"), which a server turns
// into the same English words (Entity.func_145748_c_ →
// getCommandSenderName → StatCollector "entity.Zombie.name").
func entityName(kind string) string {
	if kind == "" {
		return ""
	}
	return strings.ToUpper(kind[:1]) + kind[1:]
}

// deathChatJSON is the death message of a player as 1.7.10 sends it in
// chat: CombatTracker.func_151521_b's ChatComponentTranslation
// "death.attack.<type>" (DamageSource.func_151519_b; EntityDamageSource's
// adds the mob), with the player's name as EntityPlayer.func_145748_c_
// makes it (a text with a "/msg <name> " click event) and the mob's name as
// a plain string (a component with no style serializes as its text).
func deathChatJSON(player string, src damageSource) string {
	type click struct {
		Action string `json:"action"`
		Value  string `json:"value"`
	}
	type name struct {
		Text       string `json:"text"`
		ClickEvent click  `json:"clickEvent"`
	}
	with := []any{name{Text: player, ClickEvent: click{Action: "suggest_command", Value: "/msg " + player + " "}}}
	if src.killer != "" {
		with = append(with, src.killer)
	}
	b, _ := json.Marshal(map[string]any{"translate": "death.attack." + src.typ, "with": with})
	return string(b)
}

// killPlayerLocked kills a player: Entity Status 3 (dead) to every player,
// and its inventory dropped where it died (InventoryPlayer.dropAllItems),
// each stack an item entity that can be picked up after drop_pickup_delay
// and lies until item_lifespan. The client asks to respawn (Client Status
// 0).
func (s *Server) killPlayerLocked(out *outbox, c *conn, by string) {
	mobs := rules.Default().Mobs
	c.dead = true
	c.eating, c.dig = nil, nil
	s.deaths = append(s.deaths, Death{Player: c.name, Pos: c.pos, Cause: by})
	out.all(s, StageNone, &proto17.EntityStatus{EntityID: c.eid, Status: proto17.StatusDead})
	at := c.pos.Block()
	for i := range c.inv {
		if c.inv[i].Empty() || i == 0 {
			c.inv[i] = proto17.Slot{}
			continue
		}
		out.add(s.spawnItemLocked(at, c.inv[i])...)
		// dropPlayerItemWithRandomChoice: delayBeforeCanPickup 40.
		s.items[s.nextEID].delay = mobs.Player.DropPickupDelay
		c.inv[i] = proto17.Slot{}
	}
	c.cursor = proto17.Slot{}
	s.logf("conn %d: %s died (%s) at %v", c.id, c.name, by, c.pos)
}

// respawn answers Client Status 0 of a dead player as
// ServerConfigurationManager.respawnPlayer does: Respawn, the player at the
// spawn with a full bar and health and an empty inventory, the world's
// chunks, items and mobs again (the client dropped its world).
func (c *conn) respawn() error {
	s := c.s
	mobs := rules.Default().Mobs
	s.mu.Lock()
	if !c.dead {
		s.mu.Unlock()
		return nil
	}
	c.dead, c.hurt, c.lastHurt, c.fire, c.air = false, 0, 0, 0, mobs.Player.MaxAir
	c.health, c.food = mobs.Player.RespawnHealth, mobs.Player.RespawnFood
	c.saturation = min(rules.Default().Food.Stats.StartSaturation, float64(c.food))
	c.pos = s.Spawn()
	pos := c.pos
	c.awaitTeleport = &pos
	c.window = nil
	var out outbox
	out.to(c, StageNone, &proto17.Respawn{Dimension: 0, Difficulty: 1, GameMode: 0, LevelType: "default"})
	out.to(c, StageNone, positionPacket(pos))
	out.to(c, StageNone, s.timePacket(s.clockTick))
	out.to(c, StageNone, &proto17.UpdateHealth{Health: float32(c.health), Food: int16(c.food), Saturation: float32(c.saturation)})
	out.to(c, StageNone, &proto17.WindowItems{WindowID: 0, Items: append([]proto17.Slot(nil), c.inv[:]...)})
	s.respawns++
	s.notifyLocked()
	s.mu.Unlock()
	out.deliver()
	if err := c.sendChunks(); err != nil {
		return err
	}
	s.mu.Lock()
	out = nil
	for _, it := range s.items {
		out.add(s.itemPackets(c, it)...)
	}
	for _, m := range s.sortedMobsLocked() {
		if m.dying == 0 {
			out.add(mobPackets(c, m)...)
		}
	}
	s.mu.Unlock()
	out.deliver()
	s.logf("conn %d: %s respawned at %v", c.id, c.name, pos)
	return nil
}

// attackLocked is Use Entity with the attack action
// (NetHandlerPlayServer.processUseEntity: the target within 6 blocks, then
// EntityPlayer.attackTargetEntityWithCurrentItem: the held item's damage,
// config/mobs.yaml's combat table). Attacking anything but a living mob,
// or from too far, or while dead, is refused.
func (c *conn) attackLocked(out *outbox, p *proto17.UseEntity) {
	s := c.s
	m := s.mobs[p.Target]
	switch {
	case c.dead:
		s.refuseLocked(c.id, "attack", "entity %d: the player is dead", p.Target)
		return
	case m == nil || m.dying > 0:
		s.refuseLocked(c.id, "attack", "entity %d: no living mob", p.Target)
		return
	case c.pos.DistSq(m.pos) >= 36:
		s.refuseLocked(c.id, "attack", "entity %d: %.2f blocks away (6 at most)", p.Target, math.Sqrt(c.pos.DistSq(m.pos)))
		return
	}
	held, _ := c.heldLocked()
	dmg := rules.Default().Mobs.WeaponDamage(s.stackOf(held))
	s.hurtMobLocked(out, m, dmg, c)
}

// hurtMobLocked applies damage to a mob with the hurt resistance rule:
// while its hurt resistance is above 10, only a stronger hit hurts, by the
// difference. A hurt mob is sent as Entity Status 2 with its new health in
// its metadata; a player's hit knocks it back (config/mobs.yaml's
// knockback, the slide it makes at once); at 0 health it dies (Entity
// Status 3), drops its loot and lies 20 ticks before it is destroyed.
func (s *Server) hurtMobLocked(out *outbox, m *mob, dmg float64, by *conn) {
	mobs := rules.Default().Mobs
	switch {
	case m.hurt > mobs.Combat.HurtCooldown && dmg <= m.lastHurt:
		return
	case m.hurt > mobs.Combat.HurtCooldown:
		dmg, m.lastHurt = dmg-m.lastHurt, dmg
	default:
		m.lastHurt, m.hurt = dmg, 2*mobs.Combat.HurtCooldown
	}
	m.health = math.Max(0, m.health-dmg)
	who := "fire"
	if by != nil {
		who = by.name
		if d := math.Hypot(m.pos.X-by.pos.X, m.pos.Z-by.pos.Z); d > 0 {
			push := rules.Slide(mobs.Combat.Knockback)
			m.pos.X += (m.pos.X - by.pos.X) / d * push
			m.pos.Z += (m.pos.Z - by.pos.Z) / d * push
			s.sendMoveLocked(out, m)
		}
	}
	s.hits = append(s.hits, Hit{Tick: s.clockTick, Attacker: who, Target: fmt.Sprintf("%s %d", m.kind.Name, m.eid), Damage: dmg, HealthAfter: m.health})
	out.all(s, StageNone, &proto17.EntityStatus{EntityID: m.eid, Status: proto17.StatusHurt})
	out.all(s, StageNone, &proto17.EntityMetadata{EntityID: m.eid, Metadata: healthMeta(m.health)})
	if m.health <= 0 {
		m.dying = 1
		out.all(s, StageNone, &proto17.EntityStatus{EntityID: m.eid, Status: proto17.StatusDead})
		rng := rand.New(rand.NewPCG(uint64(m.eid), 0x9E3779B97F4A7C15))
		for _, d := range m.kind.Drops {
			n := d.Min + rng.IntN(d.Max-d.Min+1)
			id, meta := d.Item.ID()
			num, ok := s.ids.ItemID(id)
			if n == 0 || !ok {
				continue
			}
			out.add(s.spawnItemLocked(m.pos.Block(), proto17.Slot{ID: int16(num), Count: int32(n), Damage: int16(max(meta, 0))})...)
		}
		s.logf("the %s (entity %d) died", m.kind.Name, m.eid)
	}
	s.notifyLocked()
}

// Hit is one hit of the test server's combat: a mob on a player, a player
// on a mob, or fire on a mob.
type Hit struct {
	Tick        int
	Attacker    string // a player's name, "a zombie (entity 101)", "fire"
	Target      string // a player's name, "zombie 101"
	Damage      float64
	HealthAfter float64
}

// Death is a player's death on the test server.
type Death struct {
	Player string
	Pos    world.Vec3
	Cause  string
}

// Hits returns the hits so far, in order.
func (s *Server) Hits() []Hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Hit(nil), s.hits...)
}

// Deaths returns the players' deaths so far, in order.
func (s *Server) Deaths() []Death {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Death(nil), s.deaths...)
}

// Respawns counts the respawns the server made.
func (s *Server) Respawns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.respawns
}

// MobInfo is a mob as the test server knows it.
type MobInfo struct {
	EntityID int32
	Kind     string
	Pos      world.Vec3
	Health   float64
	Dead     bool
}

// Mobs returns the mobs in the world (the dead ones until their bodies
// are removed), by entity id; mobs waiting for the night are not there
// yet.
func (s *Server) Mobs() []MobInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []MobInfo
	for _, m := range s.sortedMobsLocked() {
		out = append(out, MobInfo{EntityID: m.eid, Kind: m.kind.Name, Pos: m.pos, Health: m.health, Dead: m.dying > 0})
	}
	return out
}

// WorldTime is the world time now (Options.StartTime plus the server's
// ticks); its time of day is WorldTime modulo 24000.
func (s *Server) WorldTime() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.worldTimeLocked(s.tick())
}
