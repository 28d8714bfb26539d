package chain

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// field is stone ground six blocks deep (y 58 to 63, the feet at 64)
// from x −6 to 30 and z −8 to 16, with a pit dug where the feet of a mob
// in it stand: depth blocks deep at (x, z) (0: no pit), a tree for the
// goal, and a stone roof over (rx, rz) at y 66 when roof is set.
func field(pitX, pitZ, depth int, roof bool, rx, rz int) *world.SparseBlocks {
	b := world.NewSparseBlocks()
	for x := -6; x <= 30; x++ {
		for z := -8; z <= 16; z++ {
			for y := 58; y <= 63; y++ {
				if x == pitX && z == pitZ && y > 63-depth {
					continue
				}
				b.SetID(world.Pos(x, y, z), "minecraft:stone", 0)
			}
		}
	}
	for y := 64; y < 70; y++ {
		b.SetID(world.Pos(-4, y, -6), "minecraft:log", 0) // a tree for the goal
	}
	if roof {
		b.SetID(world.Pos(rx, 66, rz), "minecraft:stone", 0)
	}
	return b
}

// pillar stands a stone pillar h blocks high on the ground at (x, z).
func pillar(b *world.SparseBlocks, x, z, h int) *world.SparseBlocks {
	for y := 64; y < 64+h; y++ {
		b.SetID(world.Pos(x, y, z), "minecraft:stone", 0)
	}
	return b
}

// room digs a pit n by n blocks wide and depth deep from (x, z) on.
func room(b *world.SparseBlocks, x, depth, z, n int) *world.SparseBlocks {
	for dx := range n {
		for dz := range n {
			for y := 64 - depth; y < 64; y++ {
				b.Set(world.Pos(x+dx, y, z+dz), world.Block{})
			}
		}
	}
	return b
}

// TestGuardComes: a hostile mob by the way to the food reserve's prey
// keeps the hunt back only when it could come for the bot. A zombie in a
// pit two blocks deep or more (a zombie steps up one block) or a spider in the
// open by day (it attacks only in the dark) lets the bot hunt; a zombie in
// a hollow one block deep, a spider at night, a spider under a roof by
// day, and a zombie on the unknown edge of the world keep it back.
func TestGuardComes(t *testing.T) {
	reg := shipped(t)
	sword := world.NewStack("minecraft:wooden_sword", 0, 1)
	sword.MaxDamage = 59
	const noon, midnight = 6000, 18000
	pig := world.Entity{Name: "pig", Pos: world.Vec3{X: 16.5, Y: 64, Z: 0.5}}
	huntPig := "hunt count=1 item=minecraft:porkchop target=pig"
	tests := []struct {
		name   string
		blocks *world.SparseBlocks
		mob    world.Entity
		tod    int64
		want   string // "" = no hunt
	}{
		{"a zombie in a pit three deep", field(8, 4, 3, false, 0, 0),
			world.Entity{Name: "zombie", Pos: world.Vec3{X: 8.5, Y: 61, Z: 4.5}}, noon, huntPig},
		{"a zombie in a pit four deep", field(8, 4, 4, false, 0, 0),
			world.Entity{Name: "zombie", Pos: world.Vec3{X: 8.5, Y: 60, Z: 4.5}}, noon, huntPig},
		{"a zombie on a pillar five high (a mob's path drops at most 3)", pillar(field(0, 0, 0, false, 0, 0), 8, 4, 5),
			world.Entity{Name: "zombie", Pos: world.Vec3{X: 8.5, Y: 69, Z: 4.5}}, noon, huntPig},
		{"a zombie on a pillar three high steps down", pillar(field(0, 0, 0, false, 0, 0), 8, 4, 3),
			world.Entity{Name: "zombie", Pos: world.Vec3{X: 8.5, Y: 67, Z: 4.5}}, noon, ""},
		{"a zombie in a room of 36 places two deep", room(field(0, 0, 0, false, 0, 0), 4, 2, 0, 6),
			world.Entity{Name: "zombie", Pos: world.Vec3{X: 6.5, Y: 62, Z: 2.5}}, noon, huntPig},
		{"a zombie in a hollow one deep with a block over its head", func() *world.SparseBlocks {
			return field(8, 4, 1, false, 0, 0).SetID(world.Pos(8, 65, 4), "minecraft:stone", 0)
		}(),
			world.Entity{Name: "zombie", Pos: world.Vec3{X: 8.5, Y: 63, Z: 4.5}}, noon, huntPig},
		{"a zombie in a hollow one deep steps out", field(8, 4, 1, false, 0, 0),
			world.Entity{Name: "zombie", Pos: world.Vec3{X: 8.5, Y: 63, Z: 4.5}}, noon, ""},
		{"a zombie in a pit two deep at night", field(8, 4, 2, false, 0, 0),
			world.Entity{Name: "zombie", Pos: world.Vec3{X: 8.5, Y: 62, Z: 4.5}}, midnight, huntPig},
		{"a zombie on the field", field(0, 0, 0, false, 0, 0),
			world.Entity{Name: "zombie", Pos: world.Vec3{X: 8.5, Y: 64, Z: 4.5}}, noon, ""},
		{"a zombie in the air (no floor to judge)", field(0, 0, 0, false, 0, 0),
			world.Entity{Name: "zombie", Pos: world.Vec3{X: 8.5, Y: 70, Z: 4.5}}, noon, ""},
		{"a spider in the open by day", field(0, 0, 0, false, 0, 0),
			world.Entity{Name: "spider", Pos: world.Vec3{X: 8.5, Y: 64, Z: 4.5}}, noon, huntPig},
		{"a spider at night", field(0, 0, 0, false, 0, 0),
			world.Entity{Name: "spider", Pos: world.Vec3{X: 8.5, Y: 64, Z: 4.5}}, midnight, ""},
		{"a spider under a roof by day", field(0, 0, 0, true, 8, 4),
			world.Entity{Name: "spider", Pos: world.Vec3{X: 8.5, Y: 64, Z: 4.5}}, noon, ""},
		{"a spider in a pit three deep at night climbs out", field(8, 4, 3, false, 0, 0),
			world.Entity{Name: "spider", Pos: world.Vec3{X: 8.5, Y: 61, Z: 4.5}}, midnight, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := withMobs(snapshot("stone_age", tc.blocks, sword), pig, tc.mob)
			w.Player.Food = 15
			w.TimeOfDay = tc.tod
			dec, err := plan(t, reg, "collect 1 minecraft:log", w)
			require.NoError(t, err)
			require.NotNil(t, dec.Invocation)
			if tc.want == "" {
				assert.NotEqual(t, "hunt", dec.Invocation.Skill, dec.Reason)
				return
			}
			assert.Equal(t, tc.want, dec.Invocation.String(), dec.Reason)
		})
	}
}

// TestTrappedEdge: a walking mob whose way leads to blocks the bot does
// not know, or into water, may come: only a way judged to its end traps.
func TestTrappedEdge(t *testing.T) {
	b := field(8, 4, 3, false, 0, 0)
	b.SetID(world.Pos(9, 61, 4), "minecraft:water", 0) // a pit with water at its side
	w := snapshot("stone_age", b)
	s := &search{Planner: Planner{Mobs: rules.Default().Mobs}, w: w}
	zombie := world.Entity{ID: 1, Name: "zombie", Pos: world.Vec3{X: 8.5, Y: 61, Z: 4.5}, Kind: world.EntityMob}
	k, ok := s.Mobs.Kind("zombie")
	require.True(t, ok)
	assert.False(t, s.trapped(zombie, k, world.Entity{ID: 2, Name: "pig", Pos: world.Vec3{X: 20.5, Y: 64, Z: 10.5}}), "water at the side is a way out")
	pig := world.Entity{ID: 2, Name: "pig", Pos: world.Vec3{X: 20.5, Y: 64, Z: 10.5}}
	dry := &search{Planner: s.Planner, w: snapshot("stone_age", field(8, 4, 3, false, 0, 0))}
	assert.True(t, dry.trapped(zombie, k, pig))
	// The bot at the rim of the pit, the zombie three blocks under its
	// feet: it cannot climb to it.
	rim := &search{Planner: s.Planner, w: snapshot("stone_age", field(1, 1, 3, false, 0, 0))}
	below := world.Entity{ID: 6, Name: "zombie", Pos: world.Vec3{X: 1.5, Y: 61, Z: 1.5}}
	assert.True(t, rim.trapped(below, k, pig), "three blocks under the bot")
}

// TestTrappedWithThePrey: a mob shut in with the prey (a den in a closed
// cave, a pit the prey stands in) is not trapped for that hunt: the hunt
// opens the way to it. The same mob is trapped for a prey outside.
func TestTrappedWithThePrey(t *testing.T) {
	mobs := rules.Default().Mobs
	zk, _ := mobs.Kind("zombie")
	sk, _ := mobs.Kind("spider")
	inside := world.Entity{ID: 2, Name: "pig", Pos: world.Vec3{X: 9.5, Y: 62, Z: 5.5}}
	outside := world.Entity{ID: 3, Name: "pig", Pos: world.Vec3{X: 20.5, Y: 64, Z: 10.5}}
	zombie := world.Entity{ID: 1, Name: "zombie", Pos: world.Vec3{X: 4.5, Y: 62, Z: 0.5}}
	pit := &search{Planner: Planner{Mobs: mobs}, w: snapshot("stone_age", room(field(0, 0, 0, false, 0, 0), 4, 2, 0, 6))}
	assert.True(t, pit.trapped(zombie, zk, outside), "a pit two deep, the prey outside")
	assert.False(t, pit.trapped(zombie, zk, inside), "the prey in the same pit")
	// A closed cave: a room four by four, two deep, under a stone lid.
	cave := room(field(0, 0, 0, false, 0, 0), 4, 2, 0, 4)
	for x := 3; x <= 10; x++ {
		for z := -1; z <= 6; z++ {
			cave.SetID(world.Pos(x, 64, z), "minecraft:stone", 0)
		}
	}
	den := &search{Planner: Planner{Mobs: mobs}, w: snapshot("stone_age", cave)}
	spider := world.Entity{ID: 4, Name: "spider", Pos: world.Vec3{X: 4.5, Y: 62, Z: 0.5}}
	withIt := world.Entity{ID: 5, Name: "pig", Pos: world.Vec3{X: 7.5, Y: 62, Z: 3.5}}
	assert.True(t, den.trapped(spider, sk, outside), "a spider shut in a cave, the prey outside")
	assert.False(t, den.trapped(spider, sk, withIt), "the prey in the spider's cave")
}

// TestGuardLastThreat: a zombie the planner judges trapped still keeps the
// hunt back right after it ended the bot's step (the step's result names
// it as the threat); another mob's threat does not.
func TestGuardLastThreat(t *testing.T) {
	reg := shipped(t)
	sword := world.NewStack("minecraft:wooden_sword", 0, 1)
	sword.MaxDamage = 59
	pig := world.Entity{Name: "pig", Pos: world.Vec3{X: 16.5, Y: 64, Z: 0.5}}
	zombie := world.Entity{Name: "zombie", Pos: world.Vec3{X: 8.5, Y: 61, Z: 4.5}}
	w := withMobs(snapshot("stone_age", field(8, 4, 3, false, 0, 0), sword), pig, zombie)
	w.Player.Food = 15
	w.TimeOfDay = 6000
	zombieID := w.Entities[len(w.Entities)-1].ID
	goal, err := loop.ParseGoal("collect 1 minecraft:log", reg.Tiers())
	require.NoError(t, err)
	catalog, err := reg.DescribeForTechState(w.TechState, reg.Packs().Names())
	require.NoError(t, err)
	after := func(entity int) *loop.StepRecord {
		th := ipc.Threat{Entity: entity, Mob: "zombie", Dist: 7.5}
		return &loop.StepRecord{Verdict: loop.Threatened, Results: []ipc.Result{{Code: ipc.OK, Details: map[string]any{ipc.DetailThreat: th.Detail()}}}}
	}
	for _, tc := range []struct {
		name string
		last *loop.StepRecord
		hunt bool
	}{
		{"no step before", nil, true},
		{"the zombie ended the last step", after(zombieID), false},
		{"another mob ended it", after(zombieID + 50), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obs := loop.Observation{Snapshot: w, Progress: goal.Check(w, reg.Tiers(), false), Last: tc.last}
			dec, err := Planner{}.Plan(context.Background(), goal, obs, catalog)
			require.NoError(t, err)
			require.NotNil(t, dec.Invocation)
			assert.Equal(t, tc.hunt, dec.Invocation.Skill == "hunt", dec.Reason)
		})
	}
}
