package sim_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestTallGrassDropsNoSeeds: GTNH's Hunger Overhaul takes the seeds out of
// tall grass (removeTallGrassSeeds), so 40 tufts broken by hand give
// nothing; vanilla's 1 in 8 would give about five.
func TestTallGrassDropsNoSeeds(t *testing.T) {
	var b strings.Builder
	var tufts []world.BlockPos
	for x := 1; x <= 5; x++ {
		for z := 0; z <= 7; z++ {
			fmt.Fprintf(&b, "\n  - {block: \"minecraft:tallgrass\", pos: [%d, 64, %d]}", x, z)
			tufts = append(tufts, world.Pos(x, 64, z))
		}
	}
	sc, err := sim.ParseScenario("grass.yaml", []byte(`name: grass
seed: 3
size: {x: 16, z: 16}
generator: flat
ground_y: 63
player:
  pos: [3, 64, 9]
  dimension: overworld
  health: 20
  food: 20
  inventory: []
blocks:`+b.String()+"\n"))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	for _, p := range tufts {
		r := s.Execute(context.Background(), action.MoveTo{Pos: p, Radius: 3})
		require.Equal(t, ipc.OK, r.Code, r.Error)
		r = s.Execute(context.Background(), action.BreakBlock{Pos: p})
		require.Equal(t, ipc.OK, r.Code, r.Error)
	}
	w := s.State().Snapshot()
	for _, p := range tufts {
		require.True(t, w.BlockAt(p).IsAir(), "the tuft at %v is broken", p)
	}
	assert.Zero(t, w.Inventory.Count(world.MustItem("minecraft:wheat_seeds")), "no seeds from tall grass in GTNH")
}
