package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/sim"
)

// walledIn is the plain with the player walled into a room of two cells
// by two at (8..9, 64..65, 8): walls, floor and roof of stone, except the
// blocks of soft (a YAML list of further blocks, "" for none); a sand
// block lies outside at (13, 64, 8). The player holds inv.
func walledIn(t *testing.T, inv, soft string) *sim.Sim {
	t.Helper()
	blocks := "\n  - {block: minecraft:stone, from: [7, 63, 7], to: [10, 66, 9]}" +
		"\n  - {block: minecraft:air, from: [8, 64, 8], to: [9, 65, 8]}" +
		"\n  - {block: minecraft:sand, pos: [13, 64, 8]}" + soft
	return flatWorld(t, "walled", 24, inv, "blocks:"+blocks+"\n")
}

// byHand reports whether a step's move punched through blocks by hand
// (the digging route's last way out).
func byHand(st loop.StepRecord) bool {
	for _, r := range st.Results {
		if b, _ := r.Details["by_hand"].(bool); b {
			return true
		}
	}
	return false
}

// TestWalledInMakesAPickaxe: walled into stone with no pickaxe and the
// makings of one (five logs and six gravel: planks, sticks, two flint, a
// crafting table), the goal planner makes a wooden pickaxe where the bot
// stands before anything else, placing the table in the room, and the
// way out to the sand is dug with it, nothing by hand.
func TestWalledInMakesAPickaxe(t *testing.T) {
	s := walledIn(t, `[{item: minecraft:log, count: 5}, {item: minecraft:gravel, count: 6}]`, "")
	out, steps, trace := runGoal(t, s, "collect 1 minecraft:sand", chain.Planner{})
	require.True(t, out.GoalMet, trace)
	made := -1
	for i, st := range steps {
		assert.False(t, byHand(st), "step %d dug by hand", st.Step)
		if st.Invocation.Skill == "basic_crafting" && st.Invocation.Params["item"] == "minecraft:wooden_pickaxe" {
			made = i
		}
	}
	require.GreaterOrEqual(t, made, 0, "a wooden pickaxe was made: %s", trace)
	for _, st := range steps[:made+1] {
		assert.Equal(t, "basic_crafting", st.Invocation.Skill, "only crafting before the pickaxe, walled in")
	}
	assert.Equal(t, loop.Success, steps[made].Verdict, steps[made].Error)
}

// TestWalledInPunchesOut: walled into stone with no pickaxe and nothing to
// make one from, the plan goes on and the move to the sand breaks the
// stone by hand, the slow way a player punches out.
func TestWalledInPunchesOut(t *testing.T) {
	s := walledIn(t, `[]`, "")
	out, steps, trace := runGoal(t, s, "collect 1 minecraft:sand", chain.Planner{})
	require.True(t, out.GoalMet, trace)
	punched := false
	for _, st := range steps {
		punched = punched || byHand(st)
		assert.NotEqual(t, "basic_crafting", st.Invocation.Skill, "nothing to craft with")
	}
	assert.True(t, punched, "the way out was broken by hand: %s", trace)
}

// TestWalledInBehindGravel: one wall of the room is gravel, which the hand
// digs: the way out goes through it, with no tool made and nothing
// broken by hand that needs a tool.
func TestWalledInBehindGravel(t *testing.T) {
	s := walledIn(t, `[{item: minecraft:log, count: 5}, {item: minecraft:gravel, count: 6}]`,
		"\n  - {block: minecraft:gravel, from: [10, 64, 8], to: [10, 65, 8]}")
	out, steps, trace := runGoal(t, s, "collect 1 minecraft:sand", chain.Planner{})
	require.True(t, out.GoalMet, trace)
	for _, st := range steps {
		assert.False(t, byHand(st), "step %d dug by hand", st.Step)
		assert.NotEqual(t, "basic_crafting", st.Invocation.Skill, "no tool needed: the gravel gives way to the hand")
	}
}
