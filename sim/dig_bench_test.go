package sim

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world/path/digroute"
)

// BenchmarkDigRouteFails: the worst case of move_to's digging, a goal no
// route reaches (down through the stone with no pickaxe) in the fresh_start
// world, where everything but the stone can be dug by hand: the search
// stops at digroute.MaxNodes and says why.
func BenchmarkDigRouteFails(b *testing.B) {
	sc, err := Embedded("fresh_start")
	require.NoError(b, err)
	s, err := New(sc, Options{})
	require.NoError(b, err)
	feet := s.state.Snapshot().Feet()
	goal := feet.Add(0, -20, 0)
	b.ResetTimer()
	for range b.N {
		r := s.Execute(context.Background(), action.MoveTo{Pos: goal})
		require.Equal(b, ipc.Unreachable, r.Code, r.Error)
	}
}

// TestDigSearchIsBounded: in a wide world whose soil all digs by hand, a
// goal under the stone with no pickaxe is refused after a bounded search
// (digroute.MaxNodes), naming what is missing, rather than after digging through
// the whole countryside in the planner's head.
func TestDigSearchIsBounded(t *testing.T) {
	sc, err := Embedded("fresh_start")
	require.NoError(t, err)
	s, err := New(sc, Options{})
	require.NoError(t, err)
	r := s.Execute(context.Background(), action.MoveTo{Pos: s.state.Snapshot().Feet().Add(0, -20, 0)})
	require.Equal(t, ipc.Unreachable, r.Code, r.Error)
	assert.Contains(t, r.Error, fmt.Sprintf("node_budget after %d nodes", digroute.MaxNodes))
	assert.Contains(t, r.Error, "minecraft:stone needs a pickaxe")
}
