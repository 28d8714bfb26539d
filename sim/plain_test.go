package sim_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/sim"
)

// flatPlain is a flat 16×16 plain (grass at 63, dirt, then stone) with the
// given blocks (a YAML list), the player at (8, 64, 8) holding inv (a YAML
// list): the small world of the digging, mining and falling tests.
func flatPlain(t *testing.T, inv, blocks string) *sim.Sim {
	t.Helper()
	sc, err := sim.ParseScenario("plain.yaml", []byte(`name: plain
seed: 7
size: {x: 16, z: 16}
generator: flat
ground_y: 63
player:
  pos: [8, 64, 8]
  dimension: overworld
  health: 20
  food: 20
  inventory: `+inv+`
blocks: `+blocks+`
`))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}
