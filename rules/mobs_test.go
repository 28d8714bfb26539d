package rules

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestShippedMobs(t *testing.T) {
	m := loadMobs()
	assert.Same(t, Default().Mobs, Default().Mobs, "the shipped set carries the table")
	assert.Equal(t, 24000, m.Day.Length)
	assert.Equal(t, 70, m.Spawning.MonsterCap)
	assert.Equal(t, 24, m.Spawning.MinPlayerDistance)
	assert.Equal(t, 8, m.Spawning.LightRandom)
	// EnumCreatureType.creature's cap, WorldServer.tick's % 400,
	// EntityAnimal.getCanSpawnHere's grass and light above 8.
	assert.Equal(t, 10, m.Spawning.CreatureCap)
	assert.Equal(t, 400, m.Spawning.CreatureInterval)
	assert.Equal(t, 8, m.Spawning.CreatureLightAbove)
	assert.Equal(t, "minecraft:grass", m.Spawning.CreatureGround)
	assert.Equal(t, 6000, m.Player.ItemLifespan)
	assert.Equal(t, 14, m.LightOf("minecraft:torch"))
	assert.Equal(t, 15, m.LightOf("minecraft:lava"))
	assert.Equal(t, 13, m.LightOf("minecraft:lit_furnace"))
	assert.Equal(t, 0, m.LightOf("minecraft:furnace"), "an unlit furnace gives no light")
	for _, c := range []struct {
		name   string
		typ    int
		health float64
		attack string
		speed  float64 // blocks a second
	}{{"zombie", 54, 20, AttackMelee, 2.33}, {"skeleton", 51, 20, AttackRanged, 2.75}, {"spider", 52, 16, AttackMelee, 3.52}, {"creeper", 50, 20, AttackExplode, 2.75}} {
		k, ok := m.Kind(c.name)
		require.True(t, ok, c.name)
		assert.Equal(t, c.typ, k.EntityType, c.name)
		assert.Equal(t, c.health, k.Health, c.name)
		assert.Equal(t, c.attack, k.Attack.Kind, c.name)
		assert.InDelta(t, c.speed, k.WalkSpeed()*20, 0.01, c.name)
		byType, ok := m.KindOfType(c.typ)
		require.True(t, ok)
		assert.Equal(t, c.name, byType.Name)
	}
	z, _ := m.Kind("zombie")
	assert.Equal(t, 3.0, z.Attack.Damage)
	assert.True(t, z.BurnsInDaylight)
	sp, _ := m.Kind("spider")
	assert.Equal(t, 11, sp.HostileLightMax)
	assert.False(t, sp.BurnsInDaylight)
	// EntityAIWander(this, 1.0D) and findRandomTarget(entity, 10, 7);
	// the spider's updateWanderPath: nextInt(13) − 6, nextInt(7) − 3.
	assert.Equal(t, MobWander{Chance: 120, Tries: 10, Horizontal: 10, Vertical: 7, Speed: 1, MaxAge: 100}, z.Wander)
	assert.Equal(t, MobWander{Chance: 120, Tries: 10, Horizontal: 6, Vertical: 3, Speed: 1, MaxAge: 100}, sp.Wander)
	assert.InDelta(t, sp.WalkSpeed(), sp.WanderSpeed(), 1e-12, "a legacy mob wanders at its chasing pace")
	assert.InDelta(t, z.WalkSpeed(), z.WanderSpeed(), 1e-12)
	cr, _ := m.Kind("creeper")
	assert.InDelta(t, 0.64*cr.WalkSpeed(), cr.WanderSpeed(), 1e-12, "EntityAIWander(this, 0.8D): 0.8² of its pace")
	for _, k := range m.Kinds() {
		assert.Equal(t, k.Passive(), k.Wander.Chance == 0, "%s: the monsters wander, the animals stand", k.Name)
	}
	assert.Len(t, m.Kinds(), 8)
	sh, _ := m.Kind("sheep")
	assert.True(t, sh.Passive())
	assert.False(t, sp.Passive())
	assert.Equal(t, 8.0, sh.Health)
	assert.Equal(t, 91, sh.EntityType)
	require.Len(t, sh.Drops, 1)
	assert.Equal(t, "minecraft:wool:0", sh.Drops[0].Item.String())
	assert.Equal(t, [2]int{1, 1}, [2]int{sh.Drops[0].Min, sh.Drops[0].Max}, "always one wool")
	_, ok := m.Kind("enderman")
	assert.False(t, ok)
	// The farm animals: EntityPig, EntityCow, EntityChicken.
	for _, c := range []struct {
		name, entity string
		typ          int
		health       float64
		drops        [][3]any // item, min, max
	}{
		{"pig", "Pig", 90, 10, [][3]any{{"minecraft:porkchop", 1, 3}}},
		{"cow", "Cow", 92, 10, [][3]any{{"minecraft:leather", 0, 2}, {"minecraft:beef", 1, 3}}},
		{"chicken", "Chicken", 93, 4, [][3]any{{"minecraft:feather", 0, 2}, {"minecraft:chicken", 1, 1}}},
		{"sheep", "Sheep", 91, 8, [][3]any{{"minecraft:wool:0", 1, 1}}},
	} {
		k, ok := m.KindOfEntity(c.entity)
		require.True(t, ok, c.entity)
		assert.Equal(t, c.name, k.Name)
		assert.True(t, k.Passive(), c.name)
		assert.Equal(t, c.typ, k.EntityType, c.name)
		assert.Equal(t, c.health, k.Health, c.name)
		require.Len(t, k.Drops, len(c.drops), c.name)
		for i, d := range c.drops {
			assert.Equal(t, d, [3]any{k.Drops[i].Item.String(), k.Drops[i].Min, k.Drops[i].Max}, c.name)
		}
	}
	z2, ok := m.KindOfEntity("Zombie")
	require.True(t, ok)
	assert.Equal(t, "zombie", z2.Name)
	_, ok = m.KindOfEntity("zombie")
	assert.False(t, ok, "EntityList's names are case-sensitive")
}

// TestSkyDarkness checks World.calculateSkylightSubtracted at the day's
// landmarks: full light from sunrise to past sunset, 11 at midnight, and
// isDaytime's turn at darkness 4. Sky light 7, where hostile mobs may
// spawn in the open, comes at 13250 and goes at 22750 (the wiki's
// 13188 and 22812).
func TestSkyDarkness(t *testing.T) {
	m := loadMobs()
	for _, c := range []struct {
		time int64
		want int
	}{{0, 0}, {6000, 0}, {12000, 0}, {12500, 3}, {13000, 6}, {13250, 8}, {18000, 11}, {22000, 11}, {22750, 8}, {23500, 3}, {24000 + 18000, 11}, {-6000, 11}} {
		assert.Equal(t, c.want, m.SkyDarkness(c.time), "time %d", c.time)
	}
	assert.True(t, m.IsDaytime(6000))
	assert.True(t, m.IsDaytime(12500), "darkness 3 is still daytime")
	assert.False(t, m.IsDaytime(12750))
	assert.False(t, m.IsDaytime(18000))
	assert.InDelta(t, 0.0, m.CelestialAngle(6000), 1e-9, "noon")
	assert.InDelta(t, 0.5, m.CelestialAngle(18000), 1e-9, "midnight")
	assert.Equal(t, 23000, m.TimeOfDay(-1000))
}

// TestSpawnDark: hostile mobs may spawn under the open sky where its light
// less the night's darkness is under light_random (8): from darkness 8,
// 13188 to 22812 (the wiki's figures); TicksToDark counts to the next.
func TestSpawnDark(t *testing.T) {
	m := loadMobs()
	for _, c := range []struct {
		time int64
		dark bool
		to   int
	}{{0, false, 13188}, {6000, false, 7188}, {13000, false, 188}, {13187, false, 1}, {13188, true, 0}, {18000, true, 0},
		{22812, true, 0}, {22813, false, 24000 - 22813 + 13188}, {24000 + 13000, false, 188}} {
		assert.Equal(t, c.dark, m.SpawnDark(c.time), "time %d", c.time)
		assert.Equal(t, c.to, m.TicksToDark(c.time), "time %d", c.time)
	}
}

func TestCombatNumbers(t *testing.T) {
	m := loadMobs()
	assert.Equal(t, 1.0, m.WeaponDamage(newStack("", 0, 0)), "an empty hand")
	assert.Equal(t, 1.0, m.WeaponDamage(newStack("minecraft:dirt", 0, 1)))
	assert.Equal(t, 5.0, m.WeaponDamage(newStack("minecraft:wooden_sword", 0, 1)))
	assert.Equal(t, 7.0, m.WeaponDamage(newStack("minecraft:iron_sword", 0, 1)))
	assert.Equal(t, 25.0, ExplosionDamage(3, 0), "a creeper point blank")
	assert.Equal(t, 10.0, ExplosionDamage(3, 3))
	assert.Equal(t, 0.0, ExplosionDamage(3, 6))
	sk, _ := m.Kind("skeleton")
	assert.Equal(t, 4.0, sk.Attack.ArrowDamage(15))
	assert.Equal(t, 1.0, sk.Attack.ArrowDamage(0))
	assert.Equal(t, 60, sk.Attack.ShotInterval(20))
	assert.Equal(t, 24, sk.Attack.ShotInterval(0))
}

func TestParseMobsErrors(t *testing.T) {
	shipped := string(mustReadConfig(t, "mobs.yaml"))
	for _, c := range []struct{ name, old, new, want string }{
		{"zero day", "length: 24000", "length: 0", "day.length: must be within 1.."},
		{"dark beyond light", "max_sky_darkness: 11", "max_sky_darkness: 16", "day.max_sky_darkness: must be within 0..15"},
		{"source too bright", `{block: "minecraft:torch", light: 14}`, `{block: "minecraft:torch", light: 16}`, "light.sources[0].light: must not exceed light.max (15)"},
		{"source with meta", `{block: "minecraft:torch", light: 14}`, `{block: "minecraft:torch:1", light: 14}`, "light.sources[0].block: must be a block id"},
		{"source twice", `{block: "minecraft:lava", light: 15}`, `{block: "minecraft:torch", light: 15}`, "minecraft:torch is listed twice"},
		{"near beyond far", "despawn_near: 32", "despawn_near: 200", "spawning.despawn_near: must not exceed despawn_far"},
		{"unknown spawning key", "pack_spread: 6", "pack_spread: 6\n  pack_size: 4", "pack_size"},
		{"animals' interval 0", "creature_interval: 400", "creature_interval: 0", "spawning.creature_interval"},
		{"animals' cap negative", "creature_cap: 10", "creature_cap: -1", "spawning.creature_cap"},
		{"animals' ground with meta", `creature_ground: "minecraft:grass"`, `creature_ground: "minecraft:grass:1"`, "spawning.creature_ground: must be a block id"},
		{"animals' ground missing", "  creature_ground: \"minecraft:grass\"\n", "", "spawning.creature_ground: required field is missing"},
		{"duplicate mob", "name: skeleton", "name: zombie", "zombie is listed twice"},
		{"duplicate type", "entity_type: 51", "entity_type: 54", "54 is listed twice"},
		{"duplicate entity name", "entity_name: Cow", "entity_name: Pig", "mobs[6].entity_name: Pig is listed twice (first at mobs[5])"},
		{"empty entity name", "entity_name: Chicken", `entity_name: ""`, "mobs[7].entity_name: must not be empty"},
		{"no entity name", "    entity_name: Chicken\n", "", "mobs[7].entity_name: required field is missing"},
		{"bad ai", "ai: legacy", "ai: smart", `mobs[2].ai: must be tasks or legacy, got "smart"`},
		{"bad attack kind", "kind: explode", "kind: laser", "must be melee, ranged, explode or none"},
		{"a field on a passive mob", "attack: {kind: none}", "attack: {kind: none, damage: 1}", "mobs[7].attack.damage: is not a field of a none attack"},
		{"melee field on a creeper", "fuse: 30,", "fuse: 30, damage: 3,", "mobs[3].attack.damage: is not a field of a explode attack"},
		{"missing reach", ", reach: 1.43}", "}", "mobs[0].attack.reach: required field is missing"},
		{"interval order", "interval_min: 20, interval_max: 60", "interval_min: 60, interval_max: 20", "interval_max: must not be below interval_min"},
		{"cancel inside swell", "cancel_distance: 7", "cancel_distance: 2", "cancel_distance: must not be below swell_distance"},
		{"drop range", `{item: "minecraft:string", min: 0, max: 2}`, `{item: "minecraft:string", min: 3, max: 2}`, "mobs[2].drops[0].max: must not be below min"},
		{"negative health", "health: 16", "health: -1", "mobs[2].health: must be within 1..10000"},
		{"weapon twice", `{item: "minecraft:golden_sword", damage: 5}`, `{item: "minecraft:wooden_sword", damage: 5}`, "minecraft:wooden_sword is listed twice"},
		{"no mobs", "mobs:\n", "beasts:\n", "beasts"},
		{"wander zero chance", "{chance: 120, tries: 10, horizontal: 10, vertical: 7, speed: 0.8", "{chance: 0, tries: 10, horizontal: 10, vertical: 7, speed: 0.8", "mobs[3].wander.chance: must be within 1.."},
		{"wander missing speed", "vertical: 3, speed: 1.0, max_age: 100}", "vertical: 3, max_age: 100}", "mobs[2].wander.speed: required field is missing"},
		{"wander unknown key", "vertical: 3, speed: 1.0, max_age: 100}", "vertical: 3, speed: 1.0, max_age: 100, home: 5}", "home"},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Contains(t, shipped, c.old, "the case must change the shipped file")
			// The data follow the comments, which quote some of them.
			i := strings.LastIndex(shipped, c.old)
			_, err := ParseMobs("m.yaml", []byte(shipped[:i]+c.new+shipped[i+len(c.old):]))
			require.Error(t, err)
			located(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Contains(t, err.Error(), "m.yaml:")
		})
	}
}

func TestSunAndKnockback(t *testing.T) {
	m := loadMobs()
	assert.Equal(t, 13, m.Light.SunBurnLight)
	assert.InDelta(t, 0.88, Slide(m.Combat.Knockback), 0.005)
}
