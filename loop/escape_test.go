package loop_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// liquidAt is a snapshot with the player's feet at (0, 64, 0), the
// blocks given there, and air ticks of air.
func liquidAt(air int, blocks map[world.BlockPos]string) *world.Snapshot {
	w := snap(nil, blocks)
	w.Player.Air, w.Player.Health = air, 20
	return w
}

func TestEscapeReflexFires(t *testing.T) {
	r := loop.EscapeReflex{Air: loop.DefaultEscapeAir}
	under := map[world.BlockPos]string{world.Pos(0, 64, 0): "minecraft:water", world.Pos(0, 65, 0): "minecraft:water"}
	for _, c := range []struct {
		name string
		w    *world.Snapshot
		want string // part of the reason; "" = does not fire
	}{
		{"dry", liquidAt(300, nil), ""},
		{"feet in lava", liquidAt(300, map[world.BlockPos]string{world.Pos(0, 64, 0): "minecraft:lava"}), "in lava"},
		{"head in flowing lava", liquidAt(300, map[world.BlockPos]string{world.Pos(0, 65, 0): "minecraft:flowing_lava"}), "in lava"},
		{"lava under the feet is not lava around them", liquidAt(300, map[world.BlockPos]string{world.Pos(0, 63, 0): "minecraft:lava"}), ""},
		{"under water, a full supply", liquidAt(300, under), ""},
		{"under water, above the threshold", liquidAt(151, under), ""},
		{"under water, at the threshold", liquidAt(150, under), "150 ticks of air left, at or below 150"},
		{"under water, drowning", liquidAt(-5, under), "-5 ticks of air"},
		{"at a pool's surface the eyes are out", liquidAt(0, map[world.BlockPos]string{world.Pos(0, 64, 0): "minecraft:water"}), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			inv, why, ok := r.Fire(c.w)
			assert.Equal(t, c.want != "", ok, why)
			if ok {
				assert.Equal(t, loop.Invocation{Skill: "escape"}, inv)
				assert.Contains(t, why, c.want)
			}
		})
	}
	_, _, ok := loop.EscapeReflex{Air: 300}.Fire(liquidAt(300, under))
	assert.True(t, ok, "air 300 leaves water at once")
}

// pool: a flat world with the player at the bottom of a pool depth
// deep and three wide, dug into the ground, holding a little dirt.
func pool(t *testing.T, liquid string, depth int) *sim.Sim {
	t.Helper()
	blocks := ""
	for x := 7; x <= 9; x++ {
		for z := 7; z <= 9; z++ {
			for y := 64 - depth; y <= 63; y++ {
				blocks += fmt.Sprintf("\n  - {block: %q, pos: [%d, %d, %d]}", liquid, x, y, z)
			}
		}
	}
	sc, err := sim.ParseScenario("pool.yaml", []byte(fmt.Sprintf(`name: pool
seed: 5
size: {x: 32, z: 32}
generator: flat
ground_y: 63
liquids: true
player:
  pos: [8, %d, 8]
  food: 20
  health: 20
  inventory: [{item: "minecraft:dirt", count: 4}]
blocks: %s
`, 64-depth, blocks)))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}

var waitLong = loop.Invocation{Skill: "wait_for", Params: map[string]any{"duration": 100}}

// TestEscapeReflexLeavesWater: at the bottom of a pool with a plan that
// only waits, the bot leaves the water once its air is down to the
// threshold, and never drowns; without the reflex the same plan drowns
// it.
func TestEscapeReflexLeavesWater(t *testing.T) {
	plan := []loop.Invocation{waitLong, waitLong, waitLong, waitLong, waitLong, waitLong, waitLong}
	s := pool(t, "minecraft:water", 3)
	_, recs, trace := runWithReflexes(t, s, "collect 64 minecraft:log", nil, []loop.Reflex{loop.EscapeReflex{Air: loop.DefaultEscapeAir}}, plan...)
	var escaped bool
	for _, r := range recs {
		if r.Reflex != nil {
			require.Equal(t, "escape", r.Reflex.Name)
			assert.Equal(t, loop.Success, r.Verdict, r.Error)
			assert.Contains(t, r.Reflex.Reason, "ticks of air left, at or below 150")
			escaped = true
		}
	}
	require.True(t, escaped, trace)
	assert.Empty(t, s.Deaths(), "alive")
	p := s.State().Snapshot().Player
	assert.Equal(t, 300, p.Air, "breathing")
	assert.Equal(t, 20.0, p.Health, "left before the first drowning hit")

	s = pool(t, "minecraft:water", 3)
	runWithReflexes(t, s, "collect 64 minecraft:log", nil, nil, plan...)
	require.Len(t, s.Deaths(), 1, "without the reflex it drowns")
	assert.Contains(t, s.Deaths()[0].Cause, "drowned")
}

// TestEscapeReflexLeavesLava: a bot that finds itself in lava leaves at
// once, before its plan, and lives; without the reflex it dies.
func TestEscapeReflexLeavesLava(t *testing.T) {
	s := pool(t, "minecraft:lava", 1)
	_, recs, trace := runWithReflexes(t, s, "collect 64 minecraft:log", nil, []loop.Reflex{loop.EscapeReflex{Air: loop.DefaultEscapeAir}}, waitLong)
	require.NotEmpty(t, recs, trace)
	require.NotNil(t, recs[0].Reflex, trace)
	assert.Equal(t, "escape", recs[0].Reflex.Name)
	assert.Contains(t, recs[0].Reflex.Reason, "in lava")
	assert.Equal(t, loop.Success, recs[0].Verdict, recs[0].Error)
	assert.Empty(t, s.Deaths(), "alive: %s", trace)

	s = pool(t, "minecraft:lava", 1)
	runWithReflexes(t, s, "collect 64 minecraft:log", nil, nil, waitLong)
	assert.NotEmpty(t, s.Deaths(), "without the reflex it burns (and again: it respawns where it started, in the lava)")
}
