package chain

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// chunksHeld is a world model that holds the chunk columns from (lo, lo)
// to (hi, hi) and no others: 0 to 5 is the simulator's fresh_start.
type chunksHeld struct {
	world.BlockSource
	lo, hi int
}

func (c chunksHeld) Known(p world.BlockPos) bool {
	return p.X>>4 >= c.lo && p.Z>>4 >= c.lo && p.X>>4 <= c.hi && p.Z>>4 <= c.hi
}

// TestAnimalsComeBack: with no animal of the kind a goal kills in the
// world model, the planner counts the animals it knows against the cap the
// server computes from the chunks held round the player (10 × 36 / 256 =
// 1 for a 6×6 world, 11 for a full 17×17 square): within it, it waits
// for the next animals' pass (the world's age to the next multiple of 400
// ticks, the server's age when known); over it, it hunts the nearest
// animal to thin them, or, when hostile mobs guard every one it could,
// waits for them to go; with none on its level of the world it is stuck.
// The food reserve thins them too, but never waits: the goal goes on.
func TestAnimalsComeBack(t *testing.T) {
	reg := shipped(t)
	sword := world.NewStack("minecraft:wooden_sword", 0, 1)
	sword.MaxDamage = 59
	model := func(lo, hi int, tick, age int64, food float64, mobs ...world.Entity) *world.Snapshot {
		w := withMobs(snapshot("stone_age", nil, sword), mobs...)
		w.Blocks = chunksHeld{BlockSource: w.Blocks, lo: lo, hi: hi}
		w.Tick, w.WorldAge, w.Player.Food = tick, age, food
		return w
	}
	sheep := func(x float64) world.Entity { return mobAt("sheep", x, 3.5) }
	tests := []struct {
		name, goal string
		w          *world.Snapshot
		want       string
		reason     string
	}{
		{"one sheep, a cap of 1: the pass", "kill 1 cow", model(0, 5, 1234, 0, 20, sheep(12.5)), "wait_for duration=366", "within the cap of 1: the animals' pass in 366 ticks"},
		{"the server's age before the body's ticks", "kill 1 cow", model(0, 5, 1234, 8000, 20, sheep(12.5)), "wait_for duration=400", "in 400 ticks"},
		{"two sheep, a cap of 1: thin them, the nearest first", "kill 1 cow", model(0, 5, 0, 0, 20, sheep(12.5), sheep(7.5)), "hunt count=1 item=minecraft:wool:0 target=sheep", "the 2 animals known are over the cap of 1, so none spawns: hunting a sheep (entity 101) 8 blocks away to bring the cows back"},
		{"two sheep, a full square held: the pass", "kill 1 cow", model(-100, 100, 0, 0, 20, sheep(12.5), sheep(7.5)), "wait_for duration=400", "within the cap of 11"},
		{"over the cap, guarded: wait for the guard to go", "kill 1 cow", model(0, 5, 0, 0, 20, sheep(12.5), sheep(7.5), mobAt("zombie", 5.5, 6.5)), "wait_for duration=600", "are guarded: a zombie"},
		{"the reserve does not wait for a guard", "collect 1 minecraft:log", model(0, 5, 0, 0, 15, sheep(12.5), sheep(7.5), mobAt("zombie", 5.5, 6.5)), "", ""},
		{"the reserve thins them", "collect 1 minecraft:log", model(0, 5, 0, 0, 15, sheep(12.5), sheep(7.5)), "hunt count=1 item=minecraft:wool:0 target=sheep", "no pigs, cows or chickens is left: the 2 animals known are over the cap of 1"},
		{"the reserve does not wait", "collect 1 minecraft:log", model(0, 5, 0, 0, 15, sheep(12.5)), "", ""},
		{"a fed bot leaves them", "collect 1 minecraft:log", model(0, 5, 0, 0, 20, sheep(12.5), sheep(7.5)), "", ""},
	}
	high := model(0, 5, 0, 0, 20, sheep(12.5), sheep(7.5))
	for i := range high.Entities {
		high.Entities[i].Pos.Y = 80 // another level of the world
	}
	_, err := plan(t, reg, "kill 1 cow", high)
	require.ErrorIs(t, err, loop.ErrStuck)
	assert.Contains(t, err.Error(), "over the cap of 1, so none spawns, and none stands on this level of the world to thin them")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dec, err := plan(t, reg, tc.goal, tc.w)
			require.NoError(t, err)
			require.NotNil(t, dec.Invocation)
			if tc.want == "" {
				assert.NotEqual(t, "hunt", dec.Invocation.Skill, dec.Reason)
				assert.NotEqual(t, "wait_for", dec.Invocation.Skill, dec.Reason)
				return
			}
			assert.Equal(t, tc.want, dec.Invocation.String(), dec.Reason)
			assert.Contains(t, dec.Reason, tc.reason)
		})
	}
}
