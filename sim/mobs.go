package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// The world's dangers (rules.Mobs, config/mobs.yaml). With night: true the
// time of day runs with the ticks; with mobs: true zombies, skeletons,
// spiders and creepers spawn in the dark around the player by
// SpawnerAnimals' rules, chase it, hit, shoot and explode, burn by day,
// despawn far away, and drop their items when they die; animals come by
// their own pass every 400 ticks (animals.go). A player whose
// health reaches 0 dies: its inventory lies where it died as item
// entities, which the player picks up by walking over them and which are
// gone after 6000 ticks, and it respawns at the scenario's start. Every
// random choice comes from the world's seeded generator, in a fixed order
// (mobs by id), so a seed and the same actions give the same fights.
//
// Simplifications, each on the side of fewer surprises: a mob walks
// straight at the player (no path search: a wall stops it, a step of one
// block does not, a spider climbs); an arrow in the line of sight always
// hits (no travel, no spread); an explosion breaks no blocks; no mob
// variants, weather or difficulty scaling beyond normal.

// mob is one hostile mob.
type mob struct {
	id       int
	kind     rules.MobKind
	pos      world.Vec3 // the feet, centred
	health   float64
	cooldown int // ticks to its next hit or shot (−1: not aimed yet)
	fuse     int // a creeper's ticks of swelling
	burn     int // ticks of fire left
	age      int // ticks since a player was within despawn_near
	chase    int // ticks it goes on chasing without seeing the player
	hurt     int // ticks of hurt resistance left
	lastHurt float64
	// wanderTo is where it walks with no target, while wandering.
	wanderTo  world.Vec3
	wandering bool
}

// droppedItem is an item entity lying in the world.
type droppedItem struct {
	id    int
	pos   world.Vec3
	stack world.ItemStack
	age   int
	delay int // ticks before it can be picked up
	// hurt is the damage it took (EntityItem.health falls from
	// item_health): lava burns it.
	hurt float64
}

// Death is one death of the player in the simulated world.
type Death struct {
	Tick  int64
	Pos   world.Vec3
	Cause string
}

// dangers is the mutable state of the world's dangers.
type dangers struct {
	mobs   []*mob
	drops  []*droppedItem
	nextID int
	deaths []Death
	// The player's hurt resistance (EntityLivingBase.hurtResistantTime).
	hurt     int
	lastHurt float64
	// fire is the ticks the player burns on (Entity.fire), set by lava.
	fire int
	// died is set when the player died during an action's time.
	died string
	// hurtBy sums the damage of an action's time by cause.
	hurtBy map[string]float64
	hits   map[string]int
	// los caches line of sight between cells for an action's time (see
	// sees); shown are the entity ids written into the world.
	los   map[[2]world.BlockPos]bool
	shown []int
	// tick is the game tick being run; diedIn, whether the player died
	// during the action's time.
	tick   int64
	diedIn string
	// The spawning chunks around the player's chunk, kept while the
	// player stays in it.
	chunkAt     [2]int
	chunksKnown bool
	inner       [][2]int
	counted     int
}

// Deaths returns the player's deaths so far.
func (s *Sim) Deaths() []Death { return append([]Death(nil), s.danger.deaths...) }

// timeAt is the time of day at a game tick.
func (s *Sim) timeAt(tick int64) int64 {
	if !s.sc.Night {
		return int64(s.sc.Time)
	}
	return int64(s.rules.Mobs.TimeOfDay(int64(s.sc.Time) + tick))
}

// spawnPoint is where the player respawns, the feet centred.
func (s *Sim) spawnPoint() world.Vec3 { return s.spawnAt }

// dangerTicks runs n ticks of mobs, dropped items and the food bar, tick
// by tick, so a hit and a heal fall in their order.
func (s *Sim) dangerTicks(tx *world.Tx, start, n int64) []string {
	s.danger.hurtBy, s.danger.hits = map[string]float64{}, map[string]int{}
	var events []string
	for i := int64(1); i <= n; i++ {
		tick := start + i
		s.danger.tick = tick
		tod := s.timeAt(tick)
		if s.sc.Mobs {
			s.spawnTick(tx, tod)
			if s.animalsDue(tick) {
				s.spawnAnimals(tx)
			}
			s.mobsTick(tx, tod)
		} else {
			// Without the dangers the mobs only stand: a hurt one's
			// resistance still wears off, so a second hit counts.
			for _, mb := range s.danger.mobs {
				if mb.hurt > 0 {
					mb.hurt--
				}
			}
		}
		s.dropsTick(tx)
		if s.danger.hurt > 0 {
			s.danger.hurt--
		}
		s.liquidTick(tx)
		events = append(events, s.tickHunger(tx, 1)...)
		if s.danger.died != "" {
			events = append(events, s.danger.died)
			s.danger.diedIn, s.danger.died = s.danger.died, ""
		}
	}
	causes := make([]string, 0, len(s.danger.hurtBy))
	for c := range s.danger.hurtBy {
		causes = append(causes, c)
	}
	sort.Strings(causes)
	for _, c := range causes {
		events = append(events, fmt.Sprintf("hurt: %g damage from %s (%d hits)", s.danger.hurtBy[c], c, s.danger.hits[c]))
	}
	s.syncEntities(tx)
	return events
}

// hurtPlayer deals a mob's damage to the player (EntityLivingBase.attackEntityFrom:
// within 10 ticks of a hit only the part above that hit counts) and
// kills it at 0. A mob's hit, arrow or explosion (DamageSource "mob",
// "arrow", "explosion") is blockable: it costs hunger.
func (s *Sim) hurtPlayer(tx *world.Tx, amount float64, cause string) {
	s.hurtPlayerAs(tx, amount, cause, "was killed by a "+cause, false)
}

// hurtPlayerAs is hurtPlayer with the words a death by it is told in
// ("drowned"), and whether its DamageSource bypasses armour. Each hit that
// counts adds the source's hunger damage to the exhaustion
// (EntityPlayer.damageEntity: addExhaustion(source.getHungerDamage())):
// 0.3 by default, 0 for a source made with setDamageBypassesArmor, as
// drowning ("drown") and burning ("onFire") are; lava's ("lava") is not.
func (s *Sim) hurtPlayerAs(tx *world.Tx, amount float64, cause, death string, unblockable bool) {
	d := &s.danger
	if d.hurt > 10 {
		if amount <= d.lastHurt {
			return
		}
		amount, d.lastHurt = amount-d.lastHurt, amount
	} else {
		d.lastHurt, d.hurt = amount, 20
	}
	p := tx.Player()
	p.Health = max(0, p.Health-amount)
	tx.SetPlayer(p)
	if unblockable {
		s.exhaust(s.rules.Food.Exhaustion.UnblockableDamage)
	} else {
		s.exhaust(s.rules.Food.Exhaustion.Damage)
	}
	d.hurtBy[cause] += amount
	d.hits[cause]++
	if p.Health <= 0 {
		d.died = s.dieHere(tx, death)
	}
}

// dieHere is a death during time passing: the inventory falls where the
// player died, and the player respawns at the start, full and new.
func (s *Sim) dieHere(tx *world.Tx, cause string) string {
	p := tx.Player()
	where := p.Pos
	s.dropInventory(tx, where)
	s.respawn(tx)
	s.danger.deaths = append(s.danger.deaths, Death{Tick: s.danger.tick, Pos: where, Cause: cause})
	return fmt.Sprintf("died: the player %s at %v; its items lie there for %d ticks; respawned at %v",
		cause, where, s.rules.Mobs.Player.ItemLifespan, s.spawnPoint())
}

// respawn puts the player back at the start with full health, the food
// level of respawn_food (Hunger Overhaul: 16 on normal difficulty) and an
// empty inventory (EntityPlayerMP.clonePlayer keeps none of them).
func (s *Sim) respawn(tx *world.Tx) {
	d := s.rules.Mobs.Player
	p := tx.Player()
	p.Pos = s.spawnPoint()
	p.Health, p.Food = d.RespawnHealth, float64(d.RespawnFood)
	tx.SetPlayer(p)
	s.hunger = s.rules.Food.NewHunger(d.RespawnFood, d.RespawnHealth) // a new FoodStats
	inv := tx.Inventory()
	for i := range inv.Slots {
		inv.Slots[i] = world.ItemStack{}
	}
	tx.SetInventory(inv)
	s.open = nil
	s.danger.hurt, s.danger.lastHurt, s.danger.fire = 0, 0, 0
	s.setAir(tx, s.rules.Mobs.Player.MaxAir)
}

// dropInventory lays every stack of the inventory at pos as an item
// entity that can be picked up after drop_pickup_delay ticks.
func (s *Sim) dropInventory(tx *world.Tx, pos world.Vec3) {
	for _, st := range tx.Inventory().Slots {
		if !st.Empty() {
			s.dropItem(pos, st, s.rules.Mobs.Player.DropPickupDelay)
		}
	}
}

func (s *Sim) dropItem(pos world.Vec3, st world.ItemStack, delay int) {
	s.danger.nextID++
	s.danger.drops = append(s.danger.drops, &droppedItem{id: s.danger.nextID, pos: pos, stack: st, delay: delay})
}

// dropsTick ages the dropped items (gone at item_lifespan), burns those in
// lava (with liquids on: Entity.setOnFireFromLava's lava_damage every
// tick, so an item of item_health 5 is gone in its second tick there), and
// lets the player pick up those its box, grown by pickup_range, touches.
func (s *Sim) dropsTick(tx *world.Tx) {
	if len(s.danger.drops) == 0 {
		return
	}
	rule := s.rules.Mobs.Player
	p := tx.Player()
	var inv world.Inventory
	invRead, changed := false, false
	kept := s.danger.drops[:0]
	for _, it := range s.danger.drops {
		it.age++
		if it.delay > 0 {
			it.delay--
		}
		if it.age >= rule.ItemLifespan {
			continue
		}
		if s.sc.Liquids && isLava(tx.BlockAt(it.pos.Block())) {
			if it.hurt += rule.LavaDamage; it.hurt >= rule.ItemHealth {
				continue // burned
			}
		}
		reach := bodyHalf + rule.PickupRange + 0.125 // the item's box is 0.25 wide
		if it.delay == 0 && math.Abs(it.pos.X-p.Pos.X) <= reach && math.Abs(it.pos.Z-p.Pos.Z) <= reach &&
			it.pos.Y >= p.Pos.Y-0.5 && it.pos.Y <= p.Pos.Y+playerHeight+0.5 {
			if !invRead {
				inv, invRead = tx.Inventory(), true
			}
			trial := world.Inventory{Slots: append([]world.ItemStack(nil), inv.Slots...), Held: inv.Held}
			if s.give(&trial, it.stack) {
				inv, changed = trial, true
				continue
			}
		}
		kept = append(kept, it)
	}
	for i := len(kept); i < len(s.danger.drops); i++ {
		s.danger.drops[i] = nil
	}
	s.danger.drops = kept
	if changed {
		tx.SetInventory(inv)
	}
}

// playerHeight is the player's height (EntityPlayer: setSize(0.6, 1.8)).
const playerHeight = 1.8

// syncEntities writes the mobs and dropped items into the world's
// entities, so snapshots show them.
func (s *Sim) syncEntities(tx *world.Tx) {
	for _, id := range s.danger.shown {
		tx.RemoveEntity(id)
	}
	s.danger.shown = s.danger.shown[:0]
	for _, m := range s.danger.mobs {
		tx.PutEntity(world.Entity{ID: m.id, Kind: world.EntityMob, Name: m.kind.Name, Pos: m.pos, Health: m.health})
		s.danger.shown = append(s.danger.shown, m.id)
	}
	for _, it := range s.danger.drops {
		st := it.stack
		tx.PutEntity(world.Entity{ID: it.id, Kind: world.EntityItem, Name: st.ID, Pos: it.pos, Item: &st})
		s.danger.shown = append(s.danger.shown, it.id)
	}
}

// eligibleChunks are the chunks within chunk_radius of the player's
// chunk that hold some of the world, and whether each is on the ring's
// edge (counted for the cap, never spawned in).
func (s *Sim) eligibleChunks(feet world.BlockPos) (inner [][2]int, count int) {
	r := s.rules.Mobs.Spawning.ChunkRadius
	pcx, pcz := feet.X>>4, feet.Z>>4
	if d := &s.danger; d.chunksKnown && d.chunkAt == [2]int{pcx, pcz} {
		return d.inner, d.counted
	}
	defer func() {
		d := &s.danger
		d.chunkAt, d.chunksKnown, d.inner, d.counted = [2]int{pcx, pcz}, true, inner, count
	}()
	maxCX, maxCZ := (s.sc.SizeX-1)>>4, (s.sc.SizeZ-1)>>4
	for cz := max(pcz-r, 0); cz <= min(pcz+r, maxCZ); cz++ {
		for cx := max(pcx-r, 0); cx <= min(pcx+r, maxCX); cx++ {
			count++
			if abs(cx-pcx) != r && abs(cz-pcz) != r {
				inner = append(inner, [2]int{cx, cz})
			}
		}
	}
	return inner, count
}

// spawnTick is SpawnerAnimals.findChunksForSpawning for monsters, over the
// chunks of the world: while the mobs number at most the cap, each inner
// chunk picks a random air block and starts packs_per_chunk packs there;
// a pack walks pack_tries steps and spawns a mob of a kind drawn by
// weight wherever one may stand, far enough from the player and the
// spawn, and dark enough (EntityMob.isValidLightLevel).
func (s *Sim) spawnTick(tx *world.Tx, tod int64) {
	m := s.rules.Mobs
	sp := m.Spawning
	p := tx.Player()
	feet := p.Pos.Block()
	inner, count := s.eligibleChunks(feet)
	limit := sp.MonsterCap * count / sp.CapChunks
	// The cap counts monsters only (SpawnerAnimals.findChunksForSpawning:
	// worldServer.countEntities(EnumCreatureType.monster's IMob class)):
	// a field of sheep leaves room for the night's spiders.
	monsters := 0
	for _, mb := range s.danger.mobs {
		if !mb.kind.Passive() {
			monsters++
		}
	}
	if monsters > limit {
		return
	}
	darkness := m.SkyDarkness(tod)
	kinds := s.mobKinds
	total := 0
	for _, k := range kinds {
		total += k.Weight
	}
	s.packPass(tx, s.rng, inner, kinds, total, s.spawnTop, true, func(_ rules.MobKind, at world.BlockPos, _ world.Vec3) bool {
		return s.skyLight(tx, at) <= s.rng.IntN(sp.SkyLightRandom) && s.lightAt(tx, at, darkness) <= s.rng.IntN(sp.LightRandom)
	})
}

// packPass is the heart of SpawnerAnimals.findChunksForSpawning, shared by
// the monsters' pass and the animals': in each chunk a random place in
// open air (the highest y top), then PacksPerChunk packs of PackTries
// tries, each stepping up to PackSpread blocks from the last; a try where
// a mob may spawn (canSpawnAt), at least MinPlayerDistance from the
// player and the world spawn, picks the pack's kind by weight the first
// time, and spawns it when may (the kind's own getCanSpawnHere) says so.
// With packMax a pack stops at its kind's pack_max (the monsters'; Forge's
// check never stops an animal's pack). It returns how many spawned; rng
// draws in the game's order.
func (s *Sim) packPass(tx *world.Tx, rng *rand.Rand, chunks [][2]int, kinds []rules.MobKind, total, top int, packMax bool, may func(k rules.MobKind, at world.BlockPos, centre world.Vec3) bool) int {
	sp := s.rules.Mobs.Spawning
	p := tx.Player()
	spawn := s.spawnPoint()
	minD2 := float64(sp.MinPlayerDistance * sp.MinPlayerDistance)
	all := 0
	for _, c := range chunks {
		x, z := c[0]*16+rng.IntN(16), c[1]*16+rng.IntN(16)
		y := rng.IntN(top)
		if s.normalCube(tx, world.Pos(x, y, z)) || !tx.BlockAt(world.Pos(x, y, z)).IsAir() {
			continue
		}
		for pack := 0; pack < sp.PacksPerChunk; pack++ {
			px, pz := x, z
			var kind *rules.MobKind
			spawned := 0
			for try := 0; try < sp.PackTries; try++ {
				px += rng.IntN(sp.PackSpread) - rng.IntN(sp.PackSpread)
				pz += rng.IntN(sp.PackSpread) - rng.IntN(sp.PackSpread)
				at := world.Pos(px, y, pz)
				if !s.canSpawnAt(tx, at) {
					continue
				}
				centre := world.Vec3{X: float64(px) + 0.5, Y: float64(y), Z: float64(pz) + 0.5}
				if centre.DistSq(p.Pos) < minD2 || centre.DistSq(spawn) < minD2 {
					continue
				}
				if kind == nil {
					w := rng.IntN(total)
					for i := range kinds {
						if w < kinds[i].Weight {
							kind = &kinds[i]
							break
						}
						w -= kinds[i].Weight
					}
				}
				if !may(*kind, at, centre) {
					continue
				}
				s.danger.nextID++
				s.danger.mobs = append(s.danger.mobs, &mob{id: s.danger.nextID, kind: *kind, pos: centre, health: kind.Health, cooldown: -1})
				spawned++
				all++
				if packMax && spawned >= kind.PackMax {
					break
				}
			}
		}
	}
	return all
}

// normalCube reports whether a block is a full solid cube.
func (s *Sim) normalCube(tx *world.Tx, p world.BlockPos) bool {
	return (grid{s, tx}).Cell(p.X, p.Y, p.Z) == path.Solid
}

// canSpawnAt is SpawnerAnimals.canCreatureTypeSpawnAtLocation for
// monsters: a block with a solid top below (not bedrock), and no solid
// block or liquid at the feet and no solid block at the head.
func (s *Sim) canSpawnAt(tx *world.Tx, p world.BlockPos) bool {
	g := grid{s, tx}
	if p.Y < 1 || p.X < 0 || p.Z < 0 || p.X >= s.sc.SizeX || p.Z >= s.sc.SizeZ {
		return false
	}
	if g.Cell(p.X, p.Y-1, p.Z) != path.Solid || tx.BlockAt(p.Down()).ID == "minecraft:bedrock" {
		return false
	}
	return g.Cell(p.X, p.Y, p.Z) == path.Passable && g.Cell(p.X, p.Y+1, p.Z) != path.Solid
}

// mobsTick runs every mob for one tick, in id order.
func (s *Sim) mobsTick(tx *world.Tx, tod int64) {
	m := s.rules.Mobs
	sp := m.Spawning
	darkness := m.SkyDarkness(tod)
	day := m.IsDaytime(tod)
	kept := s.danger.mobs[:0]
	for _, mb := range s.danger.mobs {
		p := tx.Player()
		if s.mobTick(tx, mb, p, darkness, day, sp) {
			kept = append(kept, mb)
		}
	}
	for i := len(kept); i < len(s.danger.mobs); i++ {
		s.danger.mobs[i] = nil
	}
	s.danger.mobs = kept
}

// mobTick runs one mob for one tick; false when it is gone.
func (s *Sim) mobTick(tx *world.Tx, mb *mob, p world.Player, darkness int, day bool, sp rules.SpawnRules) bool {
	m := s.rules.Mobs
	if mb.kind.Passive() {
		// A passive mob stands where it is, never despawns and never
		// attacks (the simulator does not let it wander).
		if mb.hurt > 0 {
			mb.hurt--
		}
		return true
	}
	dist := math.Sqrt(mb.pos.DistSq(p.Pos))
	// EntityLiving.despawnEntity.
	mb.age++
	switch {
	case dist > float64(sp.DespawnFar):
		return false
	case dist <= float64(sp.DespawnNear):
		mb.age = 0
	case mb.age > sp.DespawnAge && s.rng.IntN(sp.DespawnChance) == 0:
		return false
	}
	if mb.hurt > 0 {
		mb.hurt--
	}
	cell := mb.pos.Block()
	head := cell.Add(0, 1, 0)
	// The sun: EntityZombie/EntitySkeleton.onLivingUpdate.
	if mb.kind.BurnsInDaylight && day && s.seesSky(tx, head) {
		if l := s.lightAt(tx, head, darkness); l >= m.Light.SunBurnLight && s.rng.Float64()*30 < (brightness(l)-0.4)*2 {
			mb.burn = max(mb.burn, m.Player.BurnTicks)
		}
	}
	if mb.burn > 0 {
		mb.burn--
		if mb.burn%m.Player.FirePeriod == 0 {
			mb.health -= m.Player.FireDamage
			if mb.health <= 0 {
				s.mobDies(mb)
				return false
			}
		}
	}
	// Chasing: within its follow range, seen (or seen lately), and for
	// the spider only where it is dark.
	eye := world.Vec3{X: p.Pos.X, Y: p.Pos.Y + 1.62, Z: p.Pos.Z}
	mobEye := world.Vec3{X: mb.pos.X, Y: mb.pos.Y + mb.kind.Height*0.85, Z: mb.pos.Z}
	hostile := mb.kind.HostileLightMax >= 15 || s.lightAt(tx, cell, darkness) <= mb.kind.HostileLightMax
	if !hostile || dist > mb.kind.FollowRange || p.Health <= 0 {
		mb.chase, mb.fuse = 0, max(mb.fuse-1, 0)
		s.wander(tx, mb, darkness)
		return true
	}
	seen := s.sees(tx, mobEye, eye)
	if seen {
		mb.chase = 60 // EntityAITarget forgets an unseen target after 60 ticks
	} else if mb.chase > 0 {
		mb.chase--
	}
	if mb.chase == 0 {
		mb.fuse = max(mb.fuse-1, 0)
		s.wander(tx, mb, darkness)
		return true
	}
	mb.wandering = false
	a := mb.kind.Attack
	switch a.Kind {
	case rules.AttackMelee:
		s.walkTowards(tx, mb, p.Pos)
		if mb.cooldown > 0 {
			mb.cooldown--
		}
		if mb.cooldown <= 0 && s.meleeReaches(mb, p, seen) {
			mb.cooldown = a.Interval
			s.hurtPlayer(tx, a.Damage, mb.kind.Name)
		}
	case rules.AttackRanged:
		if !(seen && dist <= a.Range) {
			s.walkTowards(tx, mb, p.Pos)
			return true
		}
		switch {
		case mb.cooldown < 0:
			mb.cooldown = a.ShotInterval(dist)
		case mb.cooldown > 0:
			mb.cooldown--
		}
		if mb.cooldown == 0 {
			s.hurtPlayer(tx, a.ArrowDamage(dist), mb.kind.Name+"'s arrow")
			mb.cooldown = a.ShotInterval(dist)
		}
	case rules.AttackExplode:
		// EntityAICreeperSwell: swell while the player is near and seen,
		// shrink otherwise; at the full fuse, explode.
		switch {
		case seen && (dist < a.SwellDistance || mb.fuse > 0 && dist <= a.CancelDistance):
			mb.fuse++
		default:
			mb.fuse = max(mb.fuse-1, 0)
			s.walkTowards(tx, mb, p.Pos)
		}
		if mb.fuse >= a.Fuse {
			if dmg := rules.ExplosionDamage(a.ExplosionPower, dist); dmg > 0 {
				s.hurtPlayer(tx, dmg, "creeper's explosion")
			}
			return false // the creeper is gone with its explosion, and drops nothing
		}
	}
	return true
}

// mobIn returns a mob whose body is in a block's cell, or nil: a block is
// not placed there (1.7.10 ItemBlock.onItemUse asks
// World.canPlaceEntityOnSide, which refuses a block whose collision box
// meets an entity's that blocks placing, checkNoEntityCollision; every
// living mob does). The body is the mob's box on its feet, its height
// by its width up to a block (the width the simulator walks it with, so a
// spider standing against a wall is not in it); touching a face is not
// meeting it.
func (s *Sim) mobIn(c world.BlockPos) *mob {
	for _, mb := range s.danger.mobs {
		half := min(mb.kind.Width/2, 0.5)
		if mb.pos.X+half > float64(c.X) && mb.pos.X-half < float64(c.X+1) &&
			mb.pos.Z+half > float64(c.Z) && mb.pos.Z-half < float64(c.Z+1) &&
			mb.pos.Y+mb.kind.Height > float64(c.Y) && mb.pos.Y < float64(c.Y+1) {
			return mb
		}
	}
	return nil
}

// meleeReaches reports whether a melee mob's hit reaches the player this
// tick, by 1.7.10's two AIs:
//   - a mob of AI tasks (the zombie): EntityAIAttackOnCollide.updateTask
//     hits when the squared distance from the mob's position to the
//     player's (posX, boundingBox.minY, posZ) is at most (2·width)² +
//     the player's width (reach, 1.43 blocks for a zombie); it does not
//     look for a line of sight there, so through a corner it hits, but a
//     one-block wall between the two keeps them 1.6 blocks apart or more;
//   - a legacy mob (the spider): EntityCreature.updateEntityActionState
//     calls attackEntity only when canEntityBeSeen (a ray from eye to
//     eye, seen here), and EntityMob.attackEntity hits when
//     getDistanceToEntity is under 2.0 (reach) and the two boxes overlap
//     in height (the player's maxY above the mob's minY and its minY
//     below the mob's maxY): a spider beside a one-block wall, 1.8 blocks
//     away, does not hit through it.
func (s *Sim) meleeReaches(mb *mob, p world.Player, seen bool) bool {
	d := math.Sqrt(mb.pos.DistSq(p.Pos))
	if mb.kind.AI != "legacy" {
		return d <= mb.kind.Attack.Reach
	}
	return seen && d < mb.kind.Attack.Reach && p.Pos.Y+playerHeight > mb.pos.Y && p.Pos.Y < mb.pos.Y+mb.kind.Height
}

// wander is one tick of a mob with no target (EntityAIWander,
// EntityCreature.updateWanderPath; config/mobs.yaml's wander): while its
// despawn age is young, one tick in chance it picks the darkest of a few
// random cells near it, then walks there until it arrives or is stopped.
func (s *Sim) wander(tx *world.Tx, mb *mob, darkness int) {
	w := mb.kind.Wander
	if !mb.wandering {
		if w.Chance == 0 || mb.age >= w.MaxAge || s.rng.IntN(w.Chance) != 0 {
			return
		}
		// RandomPositionGenerator.findRandomTargetBlock: the highest
		// getBlockPathWeight, for a monster 0.5 − brightness.
		c := mb.pos.Block()
		best, found := -99999.0, false
		var to world.BlockPos
		for range w.Tries {
			q := c.Add(s.rng.IntN(2*w.Horizontal+1)-w.Horizontal, s.rng.IntN(2*w.Vertical+1)-w.Vertical, s.rng.IntN(2*w.Horizontal+1)-w.Horizontal)
			if q.X < 0 || q.Z < 0 || q.X >= s.sc.SizeX || q.Z >= s.sc.SizeZ || q.Y < 1 || q.Y > 255 {
				continue // beyond the world the simulator holds
			}
			if v := 0.5 - brightness(s.lightAt(tx, q, darkness)); v > best {
				best, to, found = v, q, true
			}
		}
		if !found {
			return
		}
		mb.wanderTo = world.Vec3{X: float64(to.X) + 0.5, Y: float64(to.Y), Z: float64(to.Z) + 0.5}
		mb.wandering = true
	}
	before := mb.pos
	s.walkAt(tx, mb, mb.wanderTo, mb.kind.WanderSpeed(), 0)
	if mb.pos == before {
		mb.wandering = false // there, or stopped on the way
	}
}

// brightness is the overworld's brightness of a light level
// (WorldProvider.generateLightBrightnessTable).
func brightness(light int) float64 {
	f := 1 - float64(light)/15
	return (1 - f) / (f*3 + 1)
}

// sees reports whether nothing opaque stands between two points: every
// cell the segment passes through, found by stepping from cell face to
// cell face (World.rayTraceBlocks walks the line the same way), so a
// line that grazes a block's corner is stopped by it; kept per pair of
// cells for an action's time.
func (s *Sim) sees(tx *world.Tx, from, to world.Vec3) bool {
	key := [2]world.BlockPos{from.Block(), to.Block()}
	if v, ok := s.danger.los[key]; ok {
		return v
	}
	ok := true
	cell, end := key[0], key[1]
	p := [3]float64{from.X, from.Y, from.Z}
	d := [3]float64{to.X - from.X, to.Y - from.Y, to.Z - from.Z}
	c := [3]int{cell.X, cell.Y, cell.Z}
	var step [3]int
	var tMax, tDelta [3]float64
	for i := range 3 {
		switch {
		case d[i] > 0:
			step[i], tDelta[i] = 1, 1/d[i]
			tMax[i] = (float64(c[i]+1) - p[i]) / d[i]
		case d[i] < 0:
			step[i], tDelta[i] = -1, -1/d[i]
			tMax[i] = (float64(c[i]) - p[i]) / d[i]
		default:
			tMax[i], tDelta[i] = math.Inf(1), math.Inf(1)
		}
	}
	// At most one step a cell boundary crossed on each axis.
	for n := abs(end.X-cell.X) + abs(end.Y-cell.Y) + abs(end.Z-cell.Z); n > 0; n-- {
		i := 0
		if tMax[1] < tMax[i] {
			i = 1
		}
		if tMax[2] < tMax[i] {
			i = 2
		}
		if tMax[i] > 1 {
			break
		}
		c[i] += step[i]
		tMax[i] += tDelta[i]
		q := world.Pos(c[0], c[1], c[2])
		if q == end {
			break
		}
		if s.opaque(tx, q) {
			ok = false
			break
		}
	}
	s.danger.los[key] = ok
	return ok
}

// walkTowards moves a mob one tick's walk towards a target over the
// ground: along x, then along z, each only as far as its body fits (a
// solid block stops it; it steps up one block, and a spider climbs); it
// falls to the ground below and stops short of the player's body.
func (s *Sim) walkTowards(tx *world.Tx, mb *mob, target world.Vec3) {
	s.walkAt(tx, mb, target, mb.kind.WalkSpeed(), min(mb.kind.Width/2, 0.5)+bodyHalf)
}

// walkAt is walkTowards at a given speed, stopping short of the target by
// stop.
func (s *Sim) walkAt(tx *world.Tx, mb *mob, target world.Vec3, speed, stop float64) {
	dx, dz := target.X-mb.pos.X, target.Z-mb.pos.Z
	hd := math.Hypot(dx, dz)
	half := min(mb.kind.Width/2, 0.5)
	if gap := hd - stop; gap > 0 {
		step := min(speed, gap)
		s.slide(tx, mb, dx/hd*step, 0, half, target.Y)
		s.slide(tx, mb, 0, dz/hd*step, half, target.Y)
	}
	s.settle(tx, mb)
}

// fits reports whether a mob's body fits with its feet in cell c.
func (s *Sim) fits(tx *world.Tx, mb *mob, c world.BlockPos) bool {
	g := grid{s, tx}
	for dy := 0; dy < int(math.Ceil(mb.kind.Height)); dy++ {
		switch g.Cell(c.X, c.Y+dy, c.Z) {
		case path.Passable, path.Water, path.Low:
		default:
			return false
		}
	}
	return true
}

// slide moves a mob by (dx, dz) where its body fits: into a new cell only
// if it fits there, one block up if it does not (a jump, or a spider's
// climb when the wall is higher), else up to the wall.
func (s *Sim) slide(tx *world.Tx, mb *mob, dx, dz, half, targetY float64) {
	if dx == 0 && dz == 0 {
		return
	}
	np := world.Vec3{X: mb.pos.X + dx, Y: mb.pos.Y, Z: mb.pos.Z + dz}
	// The cell the body's leading edge enters.
	edge := np
	switch {
	case dx > 0:
		edge.X += half
	case dx < 0:
		edge.X -= half
	case dz > 0:
		edge.Z += half
	default:
		edge.Z -= half
	}
	cur, next := mb.pos.Block(), edge.Block()
	if next == cur || s.fits(tx, mb, next) {
		mb.pos = np
		return
	}
	if up := next.Add(0, 1, 0); s.fits(tx, mb, up) && s.fits(tx, mb, cur.Add(0, 1, 0)) {
		mb.pos = world.Vec3{X: np.X, Y: float64(up.Y), Z: np.Z}
		return
	}
	if mb.kind.Name == "spider" && targetY >= mb.pos.Y && s.fits(tx, mb, cur.Add(0, 1, 0)) {
		mb.pos.Y++ // climbing the wall
		return
	}
	// Up to the wall.
	switch {
	case dx > 0:
		mb.pos.X = math.Min(np.X, float64(cur.X+1)-half)
	case dx < 0:
		mb.pos.X = math.Max(np.X, float64(cur.X)+half)
	case dz > 0:
		mb.pos.Z = math.Min(np.Z, float64(cur.Z+1)-half)
	default:
		mb.pos.Z = math.Max(np.Z, float64(cur.Z)+half)
	}
}

// settle lets a mob fall to the ground below its feet.
func (s *Sim) settle(tx *world.Tx, mb *mob) {
	c := mb.pos.Block()
	y := c.Y
	for y > 0 && s.fits(tx, mb, world.Pos(c.X, y-1, c.Z)) {
		y--
	}
	if float64(y) < mb.pos.Y-1e-9 {
		mb.pos.Y = float64(y)
	}
}

// mobDies removes nothing itself (the caller drops the mob) but lays its
// drops where it died: 0 to 2 of each (dropFewItems with no looting).
func (s *Sim) mobDies(mb *mob) {
	for _, d := range mb.kind.Drops {
		n := d.Min + s.rng.IntN(d.Max-d.Min+1)
		if n == 0 {
			continue
		}
		id, meta := d.Item.ID()
		st := s.rules.Stack(id, max(meta, 0), n)
		s.dropItem(mb.pos, st, 10) // EntityItem's default delayBeforeCanPickup
	}
}

// attack is one hit of the held item on a mob: within reach and in sight,
// the weapon's damage (the fist's without one), less during the mob's
// hurt resistance; the mob is knocked back, and at 0 health it dies and
// drops its items. The hit takes hurt_cooldown ticks, the time a mob
// needs before it takes a full hit again. A weapon wears by 1, a tool by
// 2 (ItemSword.hitEntity, ItemTool.hitEntity).
func (s *Sim) attack(tx *world.Tx, a action.Attack) ipc.Result {
	m := s.rules.Mobs
	var target *mob
	for _, mb := range s.danger.mobs {
		if mb.id == a.Entity {
			target = mb
		}
	}
	if target == nil {
		if _, ok := tx.Entity(a.Entity); ok {
			return ipc.Failf(ipc.InvalidParams, 0, "entity %d is not a living mob; only mobs can be hit", a.Entity)
		}
		return ipc.Failf(ipc.InvalidParams, 0, "no entity %d in the world", a.Entity)
	}
	p := tx.Player()
	eye := world.Vec3{X: p.Pos.X, Y: p.Pos.Y + eyeHeight, Z: p.Pos.Z}
	centre := world.Vec3{X: target.pos.X, Y: target.pos.Y + target.kind.Height/2, Z: target.pos.Z}
	d := math.Sqrt(eye.DistSq(centre)) - min(target.kind.Width/2, target.kind.Height/2)
	if d > m.Combat.Reach+1e-9 {
		return ipc.Failf(ipc.Unreachable, 0, "the %s (entity %d) is %.2f blocks away; reach is %g", target.kind.Name, target.id, d, m.Combat.Reach)
	}
	if !s.sees(tx, eye, centre) {
		return ipc.Failf(ipc.Unreachable, 0, "the %s (entity %d) is behind a block", target.kind.Name, target.id)
	}
	inv := tx.Inventory()
	held := inv.HeldStack()
	dmg := m.WeaponDamage(held)
	dealt := dmg
	if target.hurt > 10 {
		dealt = max(0, dmg-target.lastHurt)
		target.lastHurt = max(dmg, target.lastHurt)
	} else {
		target.lastHurt, target.hurt = dmg, 20
	}
	target.health -= dealt
	s.exhaust(s.rules.Food.Exhaustion.Attack)
	details := map[string]any{"entity": target.id, "mob": target.kind.Name, "damage": dealt}
	if held.MaxDamage > 0 {
		wear := 2
		if _, weapon := weaponKind(held.ID); weapon {
			wear = 1
		}
		slot := &inv.Slots[inv.Held]
		slot.Damage += wear
		if slot.Damage > slot.MaxDamage {
			*slot = world.ItemStack{}
			details["tool_broke"] = true
		}
		tx.SetInventory(inv)
	}
	if target.health <= 0 {
		details["killed"] = true
		s.mobDies(target)
		kept := s.danger.mobs[:0]
		for _, mb := range s.danger.mobs {
			if mb != target {
				kept = append(kept, mb)
			}
		}
		s.danger.mobs = kept
	} else {
		details["health"] = target.health
		// Knockback, away from the player.
		dx, dz := target.pos.X-p.Pos.X, target.pos.Z-p.Pos.Z
		if h := math.Hypot(dx, dz); h > 0 {
			push := rules.Slide(m.Combat.Knockback)
			half := min(target.kind.Width/2, 0.5)
			s.slide(tx, target, dx/h*push, 0, half, target.pos.Y)
			s.slide(tx, target, 0, dz/h*push, half, target.pos.Y)
			s.settle(tx, target)
		}
	}
	s.syncEntities(tx)
	return ipc.Result{Code: ipc.OK, Ticks: int64(m.Combat.HurtCooldown), Details: details}
}

// weaponKind reports whether an item id is a sword (worn 1 a hit) rather
// than a tool (worn 2).
func weaponKind(id string) (string, bool) {
	if len(id) > 6 && id[len(id)-6:] == "_sword" {
		return "sword", true
	}
	return "", false
}

// Summon puts a mob of a kind (config/mobs.yaml: zombie, skeleton,
// spider, creeper, and the passive sheep, pig, cow, chicken) with its feet at pos, as the /summon command does, and
// returns its entity id. It works in any scenario; the mob acts when the
// scenario has mobs: true.
func (s *Sim) Summon(kind string, pos world.Vec3) (int, error) {
	k, ok := s.rules.Mobs.Kind(kind)
	if !ok {
		var names []string
		for _, mk := range s.rules.Mobs.Kinds() {
			names = append(names, mk.Name)
		}
		return 0, fmt.Errorf("no mob %q (the mobs are %v)", kind, names)
	}
	s.acting <- struct{}{} // not in the middle of an action
	defer func() { <-s.acting }()
	var id int
	s.state.Update(func(tx *world.Tx) {
		s.danger.nextID++
		id = s.danger.nextID
		s.danger.mobs = append(s.danger.mobs, &mob{id: id, kind: k, pos: pos, health: k.Health, cooldown: -1})
		s.syncEntities(tx)
	})
	return id, nil
}
