package sim_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// TestAMinedOutShelterDrivesATunnel: at night, walled into a room mined
// out to its bounds (5 × 5, two high, over bedrock) with a pickaxe and
// cobblestone, the shelter reflex's step drives a tunnel on from the
// room's edge: two blocks of stone mined (two cobblestone more), the bot
// in the tunnel, the room behind walled off; it ends walled in, the
// step a success.
func TestAMinedOutShelterDrivesATunnel(t *testing.T) {
	race.SkipOneGoroutine(t, "a loop step in a 96×96 world on one goroutine")
	s := dangerWorld(t, 1, 18000, `  inventory:
    - {item: "minecraft:wooden_pickaxe", count: 1, durability: 59, max_durability: 59}
    - {item: "minecraft:cobblestone", count: 4}
blocks:
  - {block: "minecraft:bedrock", from: [40, 64, 40], to: [56, 64, 56]}
  - {block: "minecraft:stone", from: [40, 65, 40], to: [56, 67, 56]}
  - {block: "minecraft:air", from: [46, 65, 46], to: [50, 66, 50]}
`)
	reg := shipped(t)
	g, err := loop.ParseGoal("collect 1 minecraft:diamond", reg.Tiers())
	require.NoError(t, err)
	var steps []loop.StepRecord
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(s), Planner: script.New(), Goal: g, MaxSteps: 1,
		Reflexes: []loop.Reflex{&loop.ShelterReflex{From: loop.DefaultShelterFrom, Until: loop.DefaultShelterUntil}},
		OnStep:   func(r loop.StepRecord) { steps = append(steps, r) }})
	require.NoError(t, err)
	_, err = l.Run(context.Background())
	require.NoError(t, err)
	require.Len(t, steps, 1)
	st := steps[0]
	assert.Equal(t, loop.Success, st.Verdict, "%+v", st)
	snap := look(t, s)
	feet := snap.Feet()
	off := max(feet.X-48, 48-feet.X) + max(feet.Z-48, 48-feet.Z)
	assert.Equal(t, 3, off, "in the tunnel, a block past the room's edge: %v", feet)
	assert.True(t, path.Enclosed(snap, feet))
	room, _ := path.Room(snap, feet)
	assert.Len(t, room, 2, "the room behind is walled off")
	assert.Equal(t, 4, snap.Inventory.CountID("minecraft:cobblestone"), "two mined, two placed")
	back := world.Pos(48+(feet.X-48)*2/3, 65, 48+(feet.Z-48)*2/3)
	assert.Equal(t, "minecraft:cobblestone", snap.BlockAt(back).ID)
	assert.Equal(t, "minecraft:cobblestone", snap.BlockAt(back.Up()).ID)
}
