package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestPlannedRoute: PlannedRoute tells the route move_to walked, from
// where the player stood to where it ended, through the gap of a fence
// that bars the straight line; each move_to that plans one numbers it
// anew, one that is there already plans none.
func TestPlannedRoute(t *testing.T) {
	sc, err := ParseScenario("t.yaml", []byte(`name: t
size: {x: 32, z: 32}
player:
  pos: [4, 64, 8]
blocks:
  - {block: minecraft:fence, from: [10, 64, 0], to: [10, 64, 19]}
  - {block: minecraft:fence, from: [10, 64, 21], to: [10, 64, 31]}
`))
	require.NoError(t, err)
	s, err := New(sc, Options{})
	require.NoError(t, err)
	seq, steps := s.PlannedRoute()
	assert.Zero(t, seq)
	assert.Nil(t, steps)

	start := snap(t, s).Feet()
	r := exec(t, s, action.MoveTo{Pos: world.Pos(16, 64, 8)})
	require.True(t, r.OK(), r.Error)
	seq, steps = s.PlannedRoute()
	assert.Equal(t, uint64(1), seq)
	require.Len(t, steps, r.Details["steps"].(int))
	assert.Equal(t, start, steps[0].Pos)
	assert.Equal(t, snap(t, s).Feet(), steps[len(steps)-1].Pos)
	gap := false
	for _, st := range steps {
		if st.Pos.X == 10 {
			assert.Equal(t, 20, st.Pos.Z, "the fence is crossed at its gap")
			gap = true
		}
	}
	assert.True(t, gap, "the route crosses x 10")

	r = exec(t, s, action.MoveTo{Pos: snap(t, s).Feet()})
	require.True(t, r.OK(), r.Error)
	seq, _ = s.PlannedRoute()
	assert.Equal(t, uint64(1), seq, "no route planned where the player stands")
	r = exec(t, s, action.MoveTo{Pos: start})
	require.True(t, r.OK(), r.Error)
	seq, steps = s.PlannedRoute()
	assert.Equal(t, uint64(2), seq)
	assert.Equal(t, start, steps[len(steps)-1].Pos)
}
