package sim_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/sim"
)

// flatPlain is a flat 16×16 plain (grass at 63, dirt, then stone) with the
// given blocks (a YAML list), the player at (8, 64, 8) holding inv (a YAML
// list): the small world of the digging, mining and falling tests.
func flatPlain(t *testing.T, inv, blocks string) *sim.Sim {
	t.Helper()
	return flatWorld(t, "plain", 16, inv, "blocks: "+blocks+"\n")
}

// flatWorld is a flat test world of size×size columns, ground at y 63,
// with the player at (8, 64, 8) holding inv (a YAML list); rest is the
// scenario's further YAML (blocks, machines).
func flatWorld(t *testing.T, name string, size int, inv, rest string) *sim.Sim {
	t.Helper()
	sc, err := sim.ParseScenario(name+".yaml", []byte(fmt.Sprintf(`name: %s
seed: 7
size: {x: %d, z: %d}
generator: flat
ground_y: 63
player:
  pos: [8, 64, 8]
  dimension: overworld
  health: 20
  food: 20
  inventory: %s
`, name, size, size, inv)+rest))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}
