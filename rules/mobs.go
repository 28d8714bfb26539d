package rules

import (
	"math"
	"slices"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"gopkg.in/yaml.v3"
)

// DayRules are the day's length and how dark the sky gets (World,
// WorldProvider; each cited in config/mobs.yaml).
type DayRules struct {
	// Length is the ticks of a day (24000).
	Length int
	// MaxSkyDarkness is what calculateSkylightSubtracted reaches at
	// midnight (11).
	MaxSkyDarkness int
	// DaytimeBelow: World.isDaytime is a sky darkness below this (4).
	DaytimeBelow int
}

// LightSource is a block that gives light.
type LightSource struct {
	Block string // "modid:name"
	Light int
}

// LightRules are the light levels and the blocks that give light.
type LightRules struct {
	Max int
	// SunBurnLight: zombies and skeletons burn by day at this light or
	// more.
	SunBurnLight int
	Sources      []LightSource
}

// SpawnRules are SpawnerAnimals' and EntityMob's numbers for hostile mobs,
// and for the animals' pass (EnumCreatureType.creature).
type SpawnRules struct {
	ChunkRadius       int
	MonsterCap        int
	CapChunks         int
	PacksPerChunk     int
	PackTries         int
	PackSpread        int
	MinPlayerDistance int
	SkyLightRandom    int
	LightRandom       int
	DespawnFar        int
	DespawnNear       int
	DespawnAge        int
	DespawnChance     int
	// CreatureCap is the animals' cap per CapChunks eligible chunks
	// (EnumCreatureType.creature: 10), counted over every animal in the
	// world; CreatureInterval the ticks between the animals' passes
	// (WorldServer.tick: getWorldTotalTime() % 400 == 0); an animal
	// spawns only on CreatureGround with a light above CreatureLightAbove
	// (EntityAnimal.getCanSpawnHere: grass below, getFullBlockLightValue
	// > 8).
	CreatureCap        int
	CreatureInterval   int
	CreatureLightAbove int
	CreatureGround     string
}

// DeathRules are what a death costs and what fire does.
type DeathRules struct {
	RespawnHealth float64
	RespawnFood   int
	ItemLifespan  int
	// ItemHealth is a dropped item's health (EntityItem: 5): lava, at
	// LavaDamage a tick, burns it in its second tick there.
	ItemHealth      float64
	DropPickupDelay int
	PickupRange     float64
	FireDamage      float64
	FirePeriod      int
	BurnTicks       int
	// MaxAir is the air supply in ticks (EntityLivingBase: 300); under
	// water it drops a tick a tick, and at DrownAt (-20) the player takes
	// DrownDamage and the supply is set to 0.
	MaxAir      int
	DrownAt     int
	DrownDamage float64
	// LavaDamage is a hit of lava (Entity.setOnFireFromLava: 4, every
	// tick in lava, hurt resistance between), and LavaBurnTicks the fire
	// it sets (setFire(15): 300 ticks), put out by water.
	LavaDamage    float64
	LavaBurnTicks int
}

// Weapon is an item's melee damage.
type Weapon struct {
	Item   game.ItemMatcher
	Damage float64
}

// CombatRules are what the player deals.
type CombatRules struct {
	FistDamage float64
	Reach      float64
	// Knockback is the speed a hit gives the mob, blocks a tick.
	Knockback    float64
	HurtCooldown int
	Weapons      []Weapon
}

// Attack kinds of a mob.
const (
	AttackMelee   = "melee"
	AttackRanged  = "ranged"
	AttackExplode = "explode"
	// AttackNone is a passive mob's (a sheep): it never hurts a player,
	// never spawns in the dark and never despawns.
	AttackNone = "none"
)

// Passive reports whether the mob never attacks (attack kind none).
func (k MobKind) Passive() bool { return k.Attack.Kind == AttackNone }

// MobAttack is how a mob hurts a player. The fields used depend on Kind.
type MobAttack struct {
	Kind string
	// melee
	Damage   float64
	Interval int
	Reach    float64
	// ranged
	Range           float64
	IntervalMin     int
	IntervalMax     int
	ArrowVelocity   float64
	ArrowDifficulty float64
	// explode
	SwellDistance  float64
	CancelDistance float64
	Fuse           int
	ExplosionPower float64
}

// MobDrop is what a killed mob may drop.
type MobDrop struct {
	Item     game.ItemMatcher
	Min, Max int
}

// MobKind is one hostile mob's numbers.
type MobKind struct {
	Name string
	// EntityName is the name EntityList gives the mob ("Pig"), which a
	// quest's hunt task names.
	EntityName      string
	EntityType      int
	Health          float64
	Width, Height   float64
	MovementSpeed   float64
	AI              string // "tasks" or "legacy"
	FollowRange     float64
	HostileLightMax int
	BurnsInDaylight bool
	Weight          int
	PackMax         int
	Attack          MobAttack
	Drops           []MobDrop
	// Wander is how the mob walks about with no target; zero (no wander:
	// in the file) stands still.
	Wander MobWander
}

// MobWander is a mob's idle walk (EntityAIWander for task mobs,
// EntityCreature.updateWanderPath for legacy ones): while its despawn age
// is below MaxAge, one tick in Chance it picks the darkest of Tries random
// cells within Horizontal blocks in x and z and Vertical in y, and walks
// there at Speed times its chasing speed's multiplier.
type MobWander struct {
	Chance     int
	Tries      int
	Horizontal int
	Vertical   int
	Speed      float64
	MaxAge     int
}

// WanderSpeed is how many blocks a tick the mob walks when it wanders:
// a task mob's move helper takes the attribute times the task's speed
// for both the forward input and the AI move speed, so the push scales
// with its square; a legacy mob wanders at its chasing speed.
func (k MobKind) WanderSpeed() float64 {
	if k.AI == "legacy" {
		return k.WalkSpeed() * k.Wander.Speed
	}
	v := k.MovementSpeed * k.Wander.Speed
	return v * v / (1 - groundKeep)
}

// groundKeep is the share of its speed an entity on ordinary ground keeps
// each tick (block slipperiness 0.6 × 0.91).
const groundKeep = 0.546

// Slide is how far a push of speed v (blocks a tick) carries an entity on
// ordinary ground: v/(1 − 0.546).
func Slide(v float64) float64 { return v / (1 - groundKeep) }

// WalkSpeed is how many blocks a tick the mob walks when it chases
// (config/mobs.yaml's derivation: speed²/0.454 for task mobs,
// speed·0.1/0.454 for legacy ones).
func (k MobKind) WalkSpeed() float64 {
	if k.AI == "legacy" {
		return k.MovementSpeed * 0.1 / (1 - groundKeep)
	}
	return k.MovementSpeed * k.MovementSpeed / (1 - groundKeep)
}

// Mobs are the day, light, spawning, combat and death rules and the
// hostile mobs (config/mobs.yaml).
type Mobs struct {
	Day      DayRules
	Light    LightRules
	Spawning SpawnRules
	Player   DeathRules
	Combat   CombatRules
	kinds    []MobKind
}

var (
	mobsTopKeys  = []string{"day", "light", "spawning", "player", "combat", "mobs"}
	dayKeys      = []string{"length", "max_sky_darkness", "daytime_below"}
	spawningKeys = []string{"chunk_radius", "monster_cap", "cap_chunks", "packs_per_chunk", "pack_tries", "pack_spread", "min_player_distance", "sky_light_random", "light_random", "despawn_far", "despawn_near", "despawn_age", "despawn_chance", "creature_cap", "creature_interval", "creature_light_above", "creature_ground"}
	deathKeys    = []string{"respawn_health", "respawn_food", "item_lifespan", "item_health", "drop_pickup_delay", "pickup_range", "fire_damage", "fire_period", "burn_ticks", "max_air", "drown_at", "drown_damage", "lava_damage", "lava_burn_ticks"}
	combatKeys   = []string{"fist_damage", "reach", "knockback", "hurt_cooldown", "weapons"}
	mobKeys      = []string{"name", "entity_name", "entity_type", "health", "width", "height", "movement_speed", "ai", "follow_range", "hostile_light_max", "burns_in_daylight", "weight", "pack_max", "attack", "drops"}
	// mobOptionalKeys may be left out: a mob without wander stands still.
	mobOptionalKeys = []string{"wander"}
	allMobKeys      = append(slices.Clip(mobKeys), mobOptionalKeys...)
	wanderKeys      = []string{"chance", "tries", "horizontal", "vertical", "speed", "max_age"}
	attackKeys      = map[string][]string{AttackMelee: {"kind", "damage", "interval", "reach"}, AttackRanged: {"kind", "range", "interval_min", "interval_max", "arrow_velocity", "arrow_difficulty"}, AttackExplode: {"kind", "swell_distance", "cancel_distance", "fuse", "explosion_power"}, AttackNone: {"kind"}}
	attackAllKeys   = []string{"kind", "damage", "interval", "reach", "range", "interval_min", "interval_max", "arrow_velocity", "arrow_difficulty", "swell_distance", "cancel_distance", "fuse", "explosion_power"}
)

// ParseMobs reads a mobs data file (see config/mobs.yaml). Every field is
// required; numbers must be finite and within their ranges; mob names and
// entity types are unique; an attack has exactly the fields of its kind.
func ParseMobs(file string, data []byte) (*Mobs, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	m := &Mobs{}
	top := d.Mapping(root, "", mobsTopKeys)
	d.Require(root, "", top, mobsTopKeys...)
	num := func(fields map[string]strictyaml.Field, path, key string, lo, hi float64) float64 {
		v, _ := d.FloatIn(fields, path, key, lo, hi)
		return v
	}
	integer := func(fields map[string]strictyaml.Field, path, key string, lo, hi int) int {
		v, _ := d.IntIn(fields, path, key, lo, hi)
		return v
	}
	block := func(fields map[string]strictyaml.Field, path, key string) string {
		v, ok := fields[key]
		if !ok {
			return ""
		}
		s, ok := d.String(v.Value, strictyaml.Join(path, key))
		if !ok {
			return ""
		}
		if id, meta, err := game.SplitID(s); err != nil || meta >= 0 || id != s {
			d.Errorf(v.Value, strictyaml.Join(path, key), "must be a block id \"modid:name\" without metadata, got %q", s)
			return ""
		}
		return s
	}
	if n, ok := top["day"]; ok {
		f := d.Mapping(n.Value, "day", dayKeys)
		d.Require(n.Value, "day", f, dayKeys...)
		m.Day.Length = integer(f, "day", "length", 1, 1<<30)
		m.Day.MaxSkyDarkness = integer(f, "day", "max_sky_darkness", 0, 15)
		m.Day.DaytimeBelow = integer(f, "day", "daytime_below", 0, 16)
	}
	if n, ok := top["light"]; ok {
		f := d.Mapping(n.Value, "light", []string{"max", "sun_burn_light", "sources"})
		d.Require(n.Value, "light", f, "max", "sun_burn_light", "sources")
		m.Light.Max = integer(f, "light", "max", 1, 255)
		m.Light.SunBurnLight = integer(f, "light", "sun_burn_light", 0, 255)
		if s, ok := f["sources"]; ok {
			seen := map[string]string{}
			for i, c := range d.Sequence(s.Value, "light.sources") {
				path := strictyaml.Index("light.sources", i)
				sf := d.Mapping(c, path, []string{"block", "light"})
				d.Require(c, path, sf, "block", "light")
				src := LightSource{Block: block(sf, path, "block"), Light: integer(sf, path, "light", 1, 255)}
				if m.Light.Max > 0 && src.Light > m.Light.Max {
					d.Errorf(sf["light"].Value, path+".light", "must not exceed light.max (%d), got %d", m.Light.Max, src.Light)
				}
				if src.Block == "" {
					continue
				}
				if first, dup := seen[src.Block]; dup {
					d.Errorf(sf["block"].Value, path+".block", "%s is listed twice (first at %s)", src.Block, first)
					continue
				}
				seen[src.Block] = path
				m.Light.Sources = append(m.Light.Sources, src)
			}
		}
	}
	if n, ok := top["spawning"]; ok {
		f := d.Mapping(n.Value, "spawning", spawningKeys)
		d.Require(n.Value, "spawning", f, spawningKeys...)
		s := &m.Spawning
		for key, dst := range map[string]*int{"chunk_radius": &s.ChunkRadius, "monster_cap": &s.MonsterCap,
			"cap_chunks": &s.CapChunks, "packs_per_chunk": &s.PacksPerChunk, "pack_tries": &s.PackTries,
			"pack_spread": &s.PackSpread, "min_player_distance": &s.MinPlayerDistance,
			"sky_light_random": &s.SkyLightRandom, "light_random": &s.LightRandom, "despawn_far": &s.DespawnFar,
			"despawn_near": &s.DespawnNear, "despawn_age": &s.DespawnAge, "despawn_chance": &s.DespawnChance} {
			*dst = integer(f, "spawning", key, 1, 1<<20)
		}
		s.CreatureCap = integer(f, "spawning", "creature_cap", 0, 1<<20)
		s.CreatureInterval = integer(f, "spawning", "creature_interval", 1, 1<<20)
		s.CreatureLightAbove = integer(f, "spawning", "creature_light_above", -1, 255)
		s.CreatureGround = block(f, "spawning", "creature_ground")
		if v, ok := f["despawn_near"]; ok && s.DespawnFar > 0 && s.DespawnNear > s.DespawnFar {
			d.Errorf(v.Value, "spawning.despawn_near", "must not exceed despawn_far (%d), got %d", s.DespawnFar, s.DespawnNear)
		}
	}
	if n, ok := top["player"]; ok {
		f := d.Mapping(n.Value, "player", deathKeys)
		d.Require(n.Value, "player", f, deathKeys...)
		p := &m.Player
		p.RespawnHealth = num(f, "player", "respawn_health", 1, 1000)
		p.RespawnFood = integer(f, "player", "respawn_food", 0, 1000)
		p.ItemLifespan = integer(f, "player", "item_lifespan", 1, 1<<30)
		p.ItemHealth = num(f, "player", "item_health", 1, 1000)
		p.DropPickupDelay = integer(f, "player", "drop_pickup_delay", 0, 1<<20)
		p.PickupRange = num(f, "player", "pickup_range", 0, 64)
		p.FireDamage = num(f, "player", "fire_damage", 0, 1000)
		p.FirePeriod = integer(f, "player", "fire_period", 1, 1<<20)
		p.BurnTicks = integer(f, "player", "burn_ticks", 0, 1<<20)
		p.MaxAir = integer(f, "player", "max_air", 1, 1<<20)
		p.DrownAt = integer(f, "player", "drown_at", -(1 << 20), 0)
		p.DrownDamage = num(f, "player", "drown_damage", 0, 1000)
		p.LavaDamage = num(f, "player", "lava_damage", 0, 1000)
		p.LavaBurnTicks = integer(f, "player", "lava_burn_ticks", 0, 1<<20)
	}
	if n, ok := top["combat"]; ok {
		f := d.Mapping(n.Value, "combat", combatKeys)
		d.Require(n.Value, "combat", f, combatKeys...)
		c := &m.Combat
		c.FistDamage = num(f, "combat", "fist_damage", 0, 1000)
		c.Reach = num(f, "combat", "reach", 0.5, 64)
		c.Knockback = num(f, "combat", "knockback", 0, 10)
		c.HurtCooldown = integer(f, "combat", "hurt_cooldown", 0, 1<<20)
		if w, ok := f["weapons"]; ok {
			seen := map[string]string{}
			for i, wn := range d.Sequence(w.Value, "combat.weapons") {
				path := strictyaml.Index("combat.weapons", i)
				wf := d.Mapping(wn, path, []string{"item", "damage"})
				d.Require(wn, path, wf, "item", "damage")
				var wp Weapon
				valid := false
				if v, ok := wf["item"]; ok {
					wp.Item, valid = decodeMatcher(d, v, path+".item")
					if valid {
						key := wp.Item.String()
						if first, dup := seen[key]; dup {
							d.Errorf(v.Value, path+".item", "%s is listed twice (first at %s)", key, first)
							valid = false
						}
						seen[key] = path
					}
				}
				wp.Damage = num(wf, path, "damage", 0, 1000)
				if valid {
					c.Weapons = append(c.Weapons, wp)
				}
			}
		}
	}
	if n, ok := top["mobs"]; ok {
		names, types, entityNames := map[string]string{}, map[int]string{}, map[string]string{}
		for i, c := range d.Sequence(n.Value, "mobs") {
			path := strictyaml.Index("mobs", i)
			f := d.Mapping(c, path, allMobKeys)
			d.Require(c, path, f, mobKeys...)
			k := MobKind{}
			if v, ok := f["name"]; ok {
				if s, ok := d.String(v.Value, path+".name"); ok {
					if s == "" {
						d.Errorf(v.Value, path+".name", "must not be empty")
					} else if first, dup := names[s]; dup {
						d.Errorf(v.Value, path+".name", "%s is listed twice (first at %s)", s, first)
					} else {
						names[s] = path
					}
					k.Name = s
				}
			}
			if v, ok := f["entity_name"]; ok {
				if s, ok := d.String(v.Value, path+".entity_name"); ok {
					switch first, dup := entityNames[s]; {
					case s == "":
						d.Errorf(v.Value, path+".entity_name", "must not be empty")
					case dup:
						d.Errorf(v.Value, path+".entity_name", "%s is listed twice (first at %s)", s, first)
					default:
						entityNames[s] = path
					}
					k.EntityName = s
				}
			}
			k.EntityType = integer(f, path, "entity_type", 1, 255)
			if v, ok := f["entity_type"]; ok && k.EntityType > 0 {
				if first, dup := types[k.EntityType]; dup {
					d.Errorf(v.Value, path+".entity_type", "%d is listed twice (first at %s)", k.EntityType, first)
				}
				types[k.EntityType] = path
			}
			k.Health = num(f, path, "health", 1, 10000)
			k.Width = num(f, path, "width", 0.1, 16)
			k.Height = num(f, path, "height", 0.1, 16)
			k.MovementSpeed = num(f, path, "movement_speed", 0, 2)
			if v, ok := f["ai"]; ok {
				if s, ok := d.String(v.Value, path+".ai"); ok {
					if s != "tasks" && s != "legacy" {
						d.Errorf(v.Value, path+".ai", "must be tasks or legacy, got %q", s)
					}
					k.AI = s
				}
			}
			k.FollowRange = num(f, path, "follow_range", 0, 256)
			k.HostileLightMax = integer(f, path, "hostile_light_max", 0, 15)
			if v, ok := f["burns_in_daylight"]; ok {
				k.BurnsInDaylight, _ = d.Bool(v.Value, path+".burns_in_daylight")
			}
			k.Weight = integer(f, path, "weight", 1, 1<<20)
			k.PackMax = integer(f, path, "pack_max", 1, 64)
			if v, ok := f["attack"]; ok {
				k.Attack = decodeAttack(d, v.Value, path+".attack", num, integer)
			}
			if v, ok := f["wander"]; ok {
				wp := path + ".wander"
				wf := d.Mapping(v.Value, wp, wanderKeys)
				d.Require(v.Value, wp, wf, wanderKeys...)
				k.Wander = MobWander{
					Chance:     integer(wf, wp, "chance", 1, 1<<20),
					Tries:      integer(wf, wp, "tries", 1, 100),
					Horizontal: integer(wf, wp, "horizontal", 0, 64),
					Vertical:   integer(wf, wp, "vertical", 0, 64),
					Speed:      num(wf, wp, "speed", 0, 4),
					MaxAge:     integer(wf, wp, "max_age", 0, 1<<20),
				}
			}
			if v, ok := f["drops"]; ok {
				for j, dn := range d.Sequence(v.Value, path+".drops") {
					dp := strictyaml.Index(path+".drops", j)
					df := d.Mapping(dn, dp, []string{"item", "min", "max"})
					d.Require(dn, dp, df, "item", "min", "max")
					var drop MobDrop
					valid := false
					if iv, ok := df["item"]; ok {
						drop.Item, valid = decodeMatcher(d, iv, dp+".item")
					}
					drop.Min = integer(df, dp, "min", 0, 64)
					drop.Max = integer(df, dp, "max", 0, 64)
					if drop.Max < drop.Min {
						d.Errorf(dn, dp+".max", "must not be below min (%d), got %d", drop.Min, drop.Max)
						valid = false
					}
					if valid {
						k.Drops = append(k.Drops, drop)
					}
				}
			}
			m.kinds = append(m.kinds, k)
		}
	}
	if err := d.Err(); err != nil {
		d.Errs.Sort()
		return nil, d.Errs
	}
	return m, nil
}

type numFunc func(fields map[string]strictyaml.Field, path, key string, lo, hi float64) float64
type intFunc func(fields map[string]strictyaml.Field, path, key string, lo, hi int) int

func decodeAttack(d *strictyaml.Decoder, n *yaml.Node, path string, num numFunc, integer intFunc) MobAttack {
	f := d.Mapping(n, path, attackAllKeys)
	d.Require(n, path, f, "kind")
	a := MobAttack{}
	v, ok := f["kind"]
	if !ok {
		return a
	}
	kind, ok := d.String(v.Value, path+".kind")
	if !ok {
		return a
	}
	keys, known := attackKeys[kind]
	if !known {
		d.Errorf(v.Value, path+".kind", "must be melee, ranged, explode or none, got %q", kind)
		return a
	}
	a.Kind = kind
	for name, field := range f {
		if !slices.Contains(keys, name) {
			if kind == AttackNone {
				d.Errorf(field.Key, strictyaml.Join(path, name), "is not a field of a none attack (it has no other field)")
			} else {
				d.Errorf(field.Key, strictyaml.Join(path, name), "is not a field of a %s attack (it has %v)", kind, keys[1:])
			}
		}
	}
	d.Require(n, path, f, keys...)
	switch kind {
	case AttackMelee:
		a.Damage = num(f, path, "damage", 0, 1000)
		a.Interval = integer(f, path, "interval", 1, 1<<20)
		a.Reach = num(f, path, "reach", 0.1, 64)
	case AttackRanged:
		a.Range = num(f, path, "range", 1, 256)
		a.IntervalMin = integer(f, path, "interval_min", 1, 1<<20)
		a.IntervalMax = integer(f, path, "interval_max", 1, 1<<20)
		if iv, ok := f["interval_max"]; ok && a.IntervalMax < a.IntervalMin {
			d.Errorf(iv.Value, path+".interval_max", "must not be below interval_min (%d), got %d", a.IntervalMin, a.IntervalMax)
		}
		a.ArrowVelocity = num(f, path, "arrow_velocity", 0.1, 10)
		a.ArrowDifficulty = num(f, path, "arrow_difficulty", 0, 100)
	case AttackExplode:
		a.SwellDistance = num(f, path, "swell_distance", 0.5, 64)
		a.CancelDistance = num(f, path, "cancel_distance", 0.5, 64)
		if cv, ok := f["cancel_distance"]; ok && a.CancelDistance < a.SwellDistance {
			d.Errorf(cv.Value, path+".cancel_distance", "must not be below swell_distance (%g), got %g", a.SwellDistance, a.CancelDistance)
		}
		a.Fuse = integer(f, path, "fuse", 1, 1<<20)
		a.ExplosionPower = num(f, path, "explosion_power", 0.1, 64)
	}
	return a
}

// loadMobs parses the shipped table (config/mobs.yaml).
func loadMobs() *Mobs {
	return loadShipped("mobs.yaml", ParseMobs)
}

// Kinds returns every mob kind, in file order.
func (m *Mobs) Kinds() []MobKind { return append([]MobKind(nil), m.kinds...) }

// Kind returns the mob kind with a name.
func (m *Mobs) Kind(name string) (MobKind, bool) {
	for _, k := range m.kinds {
		if k.Name == name {
			return k, true
		}
	}
	return MobKind{}, false
}

// KindOfEntity returns the mob kind EntityList names so ("Pig").
func (m *Mobs) KindOfEntity(name string) (MobKind, bool) {
	for _, k := range m.kinds {
		if k.EntityName == name {
			return k, true
		}
	}
	return MobKind{}, false
}

// KindOfType returns the mob kind with a Spawn Mob entity type.
func (m *Mobs) KindOfType(t int) (MobKind, bool) {
	for _, k := range m.kinds {
		if k.EntityType == t {
			return k, true
		}
	}
	return MobKind{}, false
}

// TimeOfDay is the time of day (0..Length-1) of a world time; a negative
// time counts back from the day's end.
func (m *Mobs) TimeOfDay(worldTime int64) int {
	l := int64(m.Day.Length)
	t := worldTime % l
	if t < 0 {
		t += l
	}
	return int(t)
}

// CelestialAngle is WorldProvider.calculateCelestialAngle: the sun's
// place in the sky (0 noon, 0.5 midnight) at a world time.
func (m *Mobs) CelestialAngle(worldTime int64) float64 {
	f := float64(m.TimeOfDay(worldTime))/float64(m.Day.Length) - 0.25
	if f < 0 {
		f++
	}
	if f > 1 {
		f--
	}
	g := f
	f = 1 - (math.Cos(f*math.Pi)+1)/2
	return g + (f-g)/3
}

// SkyDarkness is World.calculateSkylightSubtracted with no rain: how much
// of the sky's light is gone at a world time (0 by day, MaxSkyDarkness at
// midnight).
func (m *Mobs) SkyDarkness(worldTime int64) int {
	f := 1 - (math.Cos(m.CelestialAngle(worldTime)*math.Pi*2)*2 + 0.5)
	f = min(max(f, 0), 1)
	return int(f * float64(m.Day.MaxSkyDarkness))
}

// IsDaytime is World.isDaytime: the sky darkness is below DaytimeBelow.
func (m *Mobs) IsDaytime(worldTime int64) bool {
	return m.SkyDarkness(worldTime) < m.Day.DaytimeBelow
}

// SpawnDark reports whether hostile mobs may spawn under the open sky at
// a world time: the sky's light less the night's darkness is below
// light_random (EntityMob.isValidLightLevel: no spawn at light 8 or more).
func (m *Mobs) SpawnDark(worldTime int64) bool {
	return m.Light.Max-m.SkyDarkness(worldTime) < m.Spawning.LightRandom
}

// TicksToDark is how many ticks from a world time until SpawnDark (0 when
// it is dark now, or never is).
func (m *Mobs) TicksToDark(worldTime int64) int {
	for t := 0; t < m.Day.Length; t++ {
		if m.SpawnDark(worldTime + int64(t)) {
			return t
		}
	}
	return 0
}

// LightOf returns the light a block gives (0 for most blocks).
func (m *Mobs) LightOf(block string) int {
	for _, s := range m.Light.Sources {
		if s.Block == block {
			return s.Light
		}
	}
	return 0
}

// WeaponDamage is what a hit with a held stack deals: the weapon's damage,
// or the fist's for anything else (an empty hand included).
func (m *Mobs) WeaponDamage(held game.ItemStack) float64 {
	if !held.Empty() {
		for _, w := range m.Combat.Weapons {
			if w.Item.Matches(held) {
				return w.Damage
			}
		}
	}
	return m.Combat.FistDamage
}

// ExplosionDamage is Explosion.doExplosionA's hurt at distance d of an
// explosion of a power, fully exposed: 0 beyond twice the power.
func ExplosionDamage(power, d float64) float64 {
	x := 1 - d/(2*power)
	if x <= 0 {
		return 0
	}
	return math.Floor((x*x+x)/2*8*power + 1)
}

// ArrowDamage is what a skeleton's arrow deals when it hits a target at
// distance d (EntityAIArrowAttack's f = d/range in 0.1..1; the arrow's
// damage 2f + difficulty, times its velocity, rounded up; the Gaussian
// spread left out).
func (a MobAttack) ArrowDamage(d float64) float64 {
	f := min(max(d/a.Range, 0.1), 1)
	return math.Ceil(a.ArrowVelocity * (2*f + a.ArrowDifficulty))
}

// ShotInterval is the ticks a skeleton waits after a shot at distance d.
func (a MobAttack) ShotInterval(d float64) int {
	f := min(max(d/a.Range, 0.1), 1)
	return int(math.Floor(f*float64(a.IntervalMax-a.IntervalMin) + float64(a.IntervalMin)))
}
