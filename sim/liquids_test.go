package sim_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// liquidPlain is flatPlain with liquids on.
func liquidPlain(t *testing.T, liquids bool, inv, blocks string) *sim.Sim {
	t.Helper()
	sc, err := sim.ParseScenario("plain.yaml", []byte(fmt.Sprintf(`name: plain
seed: 7
size: {x: 16, z: 16}
generator: flat
ground_y: 63
liquids: %v
player:
  pos: [8, 64, 8]
  inventory: %s
blocks: %s
`, liquids, inv, blocks)))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}

// underWater is the plain with the player at the bottom of a pool three
// blocks deep, its eyes under water.
func underWater(t *testing.T) *sim.Sim {
	return liquidPlain(t, true, `[{item: "minecraft:dirt", count: 3}]`, `
  - {block: "minecraft:water", pos: [8, 64, 8]}
  - {block: "minecraft:water", pos: [8, 65, 8]}
  - {block: "minecraft:water", pos: [8, 66, 8]}`)
}

func waitFor(t *testing.T, s *sim.Sim, ticks int) ipc.Result {
	t.Helper()
	return s.Execute(context.Background(), action.Wait{Ticks: action.Ticks(ticks)})
}

// TestDrowning: under water the air supply drops a tick a tick; at -20 it
// is 0 again and the player takes 2 (EntityLivingBase.onEntityUpdate), so
// the first hit comes 320 ticks after going under and a player at 20
// health drowns at the tenth, 500 ticks in.
func TestDrowning(t *testing.T) {
	s := underWater(t)
	assert.Equal(t, 300, body(t, s).Air, "a full supply")
	run(t, s, action.Wait{Ticks: 100})
	assert.Equal(t, 200, body(t, s).Air)
	run(t, s, action.Wait{Ticks: 219})
	p := body(t, s)
	assert.Equal(t, -19, p.Air)
	assert.Equal(t, 20.0, p.Health, "no hurt before -20")
	run(t, s, action.Wait{Ticks: 1})
	p = body(t, s)
	assert.Equal(t, 0, p.Air, "reset at -20")
	assert.Equal(t, 18.0, p.Health, "drown_damage 2")
	run(t, s, action.Wait{Ticks: 19})
	assert.Equal(t, 18.0, body(t, s).Health, "the next hit 20 ticks later")
	run(t, s, action.Wait{Ticks: 1})
	assert.Equal(t, 16.0, body(t, s).Health)
	r := waitFor(t, s, 159)
	require.Equal(t, ipc.OK, r.Code, "alive at 2 health, 499 ticks in: %s", r.Error)
	assert.Equal(t, 2.0, body(t, s).Health)
	r = waitFor(t, s, 1)
	require.Equal(t, ipc.Rejected, r.Code)
	assert.Equal(t, true, r.Details["died"])
	assert.Contains(t, r.Error, "drowned")
	p = body(t, s)
	assert.Equal(t, 300, p.Air, "respawned with a full supply")
	require.Len(t, s.Deaths(), 1)
	assert.Contains(t, s.Deaths()[0].Cause, "drowned")
}

// TestAirRefillsOutOfWater: the eyes out of water, the supply is full at
// once, and the surface of a pool (the eyes above it) costs no air.
func TestAirRefillsOutOfWater(t *testing.T) {
	s := underWater(t)
	run(t, s, action.Wait{Ticks: 200})
	require.Equal(t, 100, body(t, s).Air)
	run(t, s, action.MoveTo{Pos: world.Pos(10, 64, 8)})
	run(t, s, action.Wait{Ticks: 1})
	assert.Equal(t, 300, body(t, s).Air)

	surface := liquidPlain(t, true, `[]`, `
  - {block: "minecraft:water", pos: [8, 64, 8]}`)
	run(t, surface, action.Wait{Ticks: 600})
	p := body(t, surface)
	assert.Equal(t, 300, p.Air, "eyes above a pool one deep")
	assert.Equal(t, 20.0, p.Health)
}

// inLava is the plain with the player standing in a lava pool.
func inLava(t *testing.T) *sim.Sim {
	return liquidPlain(t, true, `[{item: "minecraft:cobblestone", count: 3}]`, `
  - {block: "minecraft:lava", pos: [8, 64, 8]}`)
}

// TestLava: a body in lava takes 4 at once and again every 10 ticks (hurt
// resistance), so 20 health lasts 41 ticks, and the items burn with it.
func TestLava(t *testing.T) {
	s := inLava(t)
	run(t, s, action.Wait{Ticks: 1})
	assert.Equal(t, 16.0, body(t, s).Health, "lava_damage 4")
	run(t, s, action.Wait{Ticks: 9})
	assert.Equal(t, 16.0, body(t, s).Health, "hurt resistance")
	run(t, s, action.Wait{Ticks: 1})
	assert.Equal(t, 12.0, body(t, s).Health)
	r := waitFor(t, s, 30)
	require.Equal(t, ipc.Rejected, r.Code, "dead at the fifth hit, tick 41")
	assert.Contains(t, r.Error, "lava")
	require.Len(t, s.Deaths(), 1)
}

// TestBurningAfterLava: out of lava the player burns on (setFire(15), 300
// ticks): 1 damage whenever the fire left is a multiple of 20. The first
// of them (300) falls a tick after the lava's hit, inside its hurt
// resistance, so 14 of the 15 count: 16 health after the lava, 2 after
// the fire. Water puts the fire out.
func TestBurningAfterLava(t *testing.T) {
	s := liquidPlain(t, true, `[]`, `
  - {block: "minecraft:lava", pos: [8, 64, 8]}
  - {block: "minecraft:water", pos: [12, 64, 8]}`)
	run(t, s, action.Wait{Ticks: 1})
	require.Equal(t, 16.0, body(t, s).Health)
	run(t, s, action.MoveTo{Pos: world.Pos(10, 64, 8)})
	run(t, s, action.Wait{Ticks: 400})
	assert.Equal(t, 2.0, body(t, s).Health, "14 of the fire's 15 hits")
	run(t, s, action.Wait{Ticks: 100})
	assert.Equal(t, 2.0, body(t, s).Health, "the fire is out")

	s = liquidPlain(t, true, `[]`, `
  - {block: "minecraft:lava", pos: [8, 64, 8]}
  - {block: "minecraft:water", pos: [9, 64, 8]}`)
	run(t, s, action.Wait{Ticks: 1})
	run(t, s, action.MoveTo{Pos: world.Pos(9, 64, 8)})
	run(t, s, action.Wait{Ticks: 400})
	assert.Equal(t, 16.0, body(t, s).Health, "water put the fire out")
}

// TestLiquidsOff: without liquids in the scenario, water and lava around
// the body do nothing (a fall into lava still kills, see falling).
func TestLiquidsOff(t *testing.T) {
	for _, liquid := range []string{"water", "lava"} {
		s := liquidPlain(t, false, `[]`, `
  - {block: "minecraft:`+liquid+`", pos: [8, 64, 8]}
  - {block: "minecraft:`+liquid+`", pos: [8, 65, 8]}`)
		run(t, s, action.Wait{Ticks: 600})
		p := body(t, s)
		assert.Equal(t, 20.0, p.Health, liquid)
		assert.Equal(t, 300, p.Air, liquid)
	}
}

// hungryLiquids is the plain with liquids and hunger on, the food bar at
// 10 (no healing, no starving: nothing but the hits adds exhaustion while
// the player stands still).
func hungryLiquids(t *testing.T, blocks string) *sim.Sim {
	t.Helper()
	sc, err := sim.ParseScenario("plain.yaml", []byte(`name: plain
seed: 7
size: {x: 16, z: 16}
generator: flat
ground_y: 63
liquids: true
hunger: true
player:
  pos: [8, 64, 8]
  food: 10
blocks: `+blocks))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}

// TestLiquidHitsAndHunger: a hit costs its DamageSource's hunger damage
// (EntityPlayer.damageEntity): lava's ("lava", fire damage only) 0.3, but
// drowning's ("drown") and burning's ("onFire") nothing, as
// setDamageBypassesArmor sets their hungerDamage to 0.
func TestLiquidHitsAndHunger(t *testing.T) {
	s := hungryLiquids(t, `
  - {block: "minecraft:water", pos: [8, 64, 8]}
  - {block: "minecraft:water", pos: [8, 65, 8]}
  - {block: "minecraft:water", pos: [8, 66, 8]}`)
	run(t, s, action.Wait{Ticks: 400})
	require.Equal(t, 10.0, body(t, s).Health, "five drowning hits (ticks 320 to 400)")
	assert.Zero(t, s.Exhaustion(), "drowning costs no hunger")

	s = hungryLiquids(t, `
  - {block: "minecraft:lava", pos: [8, 64, 8]}`)
	run(t, s, action.Wait{Ticks: 1})
	require.Equal(t, 16.0, body(t, s).Health)
	assert.InDelta(t, 0.3, s.Exhaustion(), 1e-9, "a lava hit costs 0.3")
	run(t, s, action.MoveTo{Pos: world.Pos(10, 64, 8)})
	walked := s.Exhaustion()
	run(t, s, action.Wait{Ticks: 200})
	require.Less(t, body(t, s).Health, 14.0, "the fire burned on")
	assert.InDelta(t, walked, s.Exhaustion(), 1e-9, "burning costs no hunger")
}

// TestItemsBurnInLava: what a player who dies in lava drops lies in the
// lava and burns there: an item has 5 health (EntityItem.health), lava
// deals 4 a tick with no hurt resistance for items, so the stack is there
// after its first tick in the lava and gone after its second. A death in
// water leaves the items lying.
func TestItemsBurnInLava(t *testing.T) {
	items := func(s *sim.Sim) []world.Entity { return look(t, s).EntitiesOfKind(world.EntityItem) }
	s := inLava(t)
	r := waitFor(t, s, 41)
	require.Equal(t, true, r.Details["died"], r.Error)
	require.Len(t, items(s), 1, "the cobblestone dropped in the lava")
	run(t, s, action.Wait{Ticks: 1})
	require.Len(t, items(s), 1, "4 of its 5 health gone")
	run(t, s, action.Wait{Ticks: 1})
	assert.Empty(t, items(s), "burned in its second tick in lava")

	s = underWater(t)
	r = waitFor(t, s, 500)
	require.Equal(t, true, r.Details["died"], r.Error)
	run(t, s, action.Wait{Ticks: 20}) // the pickup delay is 40: the respawned player is on them
	assert.Len(t, items(s), 1, "the dirt lies at the bottom of the pool")
}
