package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func TestRecoverDropsWalksOntoTheBlock(t *testing.T) {
	w, _ := stoneFloor()
	acts, err := RecoverDrops{}.SuggestActions(w, skills.Params{"x": 6, "y": 64, "z": -3})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.MoveTo{Pos: world.Pos(6, 64, -3), Radius: 0}}, acts)
	acts, err = RecoverDrops{}.SuggestActions(w, skills.Params{"x": 0, "y": 64, "z": 0})
	require.NoError(t, err)
	assert.Empty(t, acts, "already there")
}
