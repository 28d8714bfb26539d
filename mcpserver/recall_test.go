package mcpserver_test

import (
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/mcpserver"
	"github.com/gtnh-agent/gtnh-agent/memory"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestRecall: with the body's connection recording into a memory file, the
// recall tool answers from it, nearest first, within the bounds asked;
// without memory it says how to turn it on; bad arguments are errors.
func TestRecall(t *testing.T) {
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	st, err := memory.Open(filepath.Join(t.TempDir(), "m.db"), memory.Options{})
	require.NoError(t, err)
	defer st.Close()
	s := connect(t, memory.Wrap(ipc.InProcess(w), st, "sim/test", zerolog.Nop()), w, "")

	res := s.call(mcpserver.ToolRecall, map[string]any{"block": "minecraft:log", "limit": 3})
	require.False(t, res.IsError, textOf(res))
	got := structured[mcpserver.RecallResult](t, res)
	require.Len(t, got.Positions, 3)
	snap, err := w.Observe(t.Context())
	require.NoError(t, err)
	want := snap.NearestBlocks(24, 1, "log")
	assert.Equal(t, want[0].Pos, got.Positions[0], "the nearest log first")
	for i := 1; i < len(got.Positions); i++ {
		assert.LessOrEqual(t, got.Positions[i-1].DistSq(snap.Feet()), got.Positions[i].DistSq(snap.Feet()))
	}

	res = s.call(mcpserver.ToolRecall, map[string]any{"block": "minecraft:diamond_ore"})
	require.False(t, res.IsError, textOf(res))
	assert.Equal(t, []world.BlockPos{}, structured[mcpserver.RecallResult](t, res).Positions)

	for args, want := range map[string]map[string]any{
		"is not an id":              {"block": "log"},
		"max_distance must be":      {"block": "minecraft:log", "max_distance": 5000},
		"limit 1..64, got 0 and 65": {"block": "minecraft:log", "limit": 65},
	} {
		res := s.call(mcpserver.ToolRecall, want)
		assert.True(t, res.IsError)
		assert.Contains(t, textOf(res), args)
	}

	plain := connect(t, ipc.InProcess(w), w, "")
	res = plain.call(mcpserver.ToolRecall, map[string]any{"block": "minecraft:log"})
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), "--memory FILE")
}
