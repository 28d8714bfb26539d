package chain

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestBuildWaitGivesWayToWork: a structure whose next step is a wait (its
// bricks are fired with wood from saplings still growing) waits only when
// no other part of the goal has work; gravel in reach to collect goes
// first.
func TestBuildWaitGivesWayToWork(t *testing.T) {
	reg := shipped(t)
	held := []world.ItemStack{world.NewStack("dreamcraft:item.UnfiredCokeOvenBrick", 0, 104), stack("minecraft:furnace", 1)}
	dec, err := plan(t, reg, "build coke_oven", snapshot("stone_age", saplingsAt(world.NewSparseBlocks(), 16), held...))
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.Equal(t, "wait_for duration=1200", dec.Invocation.String(), "nothing else to do: %s", dec.Tree)

	b := saplingsAt(world.NewSparseBlocks(), 16).SetID(world.Pos(3, 63, 0), "minecraft:gravel", 0)
	dec, err = plan(t, reg, "build coke_oven and collect 1 minecraft:gravel", snapshot("stone_age", b, held...))
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.NotEqual(t, "wait_for", dec.Invocation.Skill, "%s", dec.Tree)
	assert.Contains(t, dec.Reason, "towards 1 minecraft:gravel while the machines work (towards building coke_oven)")

	// Gravel gathered: the wait.
	dec, err = plan(t, reg, "build coke_oven and have 1 minecraft:gravel", snapshot("stone_age", b, append(held, stack("minecraft:gravel", 1))...))
	require.NoError(t, err)
	require.NotNil(t, dec.Invocation)
	assert.Equal(t, "wait_for duration=1200", dec.Invocation.String())
}
