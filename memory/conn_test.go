package memory_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/memory"
	"github.com/gtnh-agent/gtnh-agent/sim"
)

// TestConnRemembersWhatTheBotSees: a run in the simulator through the
// recording connection remembers the logs and water around the bot, and a
// log it then breaks is forgotten on the next look.
func TestConnRemembersWhatTheBotSees(t *testing.T) {
	ctx := context.Background()
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{Seed: 1})
	require.NoError(t, err)
	s, err := memory.Open(filepath.Join(t.TempDir(), "memory.db"), memory.Options{})
	require.NoError(t, err)
	defer s.Close()
	conn := memory.Wrap(ipc.InProcess(w), s, "sim/default/1", zerolog.Nop())
	place := memory.Place{Server: "sim/default/1", Dimension: "overworld"}

	snap, err := conn.Observe(ctx)
	require.NoError(t, err)
	logs := snap.NearestBlocks(24, 0, "log")
	require.NotEmpty(t, logs, "the default world has trees near the spawn")
	sums, err := s.Places()
	require.NoError(t, err)
	require.Len(t, sums, 1)
	assert.Equal(t, place, sums[0].Place)
	assert.GreaterOrEqual(t, sums[0].Sightings, min(len(logs), 64))
	assert.NotZero(t, sums[0].Explored)

	target := logs[0]
	got, err := s.Recall(place, memory.Query{Block: target.Block.ID, Meta: -1, From: target.Pos, K: 1})
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, target.Pos, got[0].Pos)

	for _, a := range []action.Action{action.MoveTo{Pos: target.Pos, Radius: 3}, action.BreakBlock{Pos: target.Pos}} {
		res, err := conn.Execute(ctx, a)
		require.NoError(t, err)
		require.True(t, res.OK(), "%s: %+v", a.Kind(), res)
	}
	snap, err = conn.Observe(ctx)
	require.NoError(t, err)
	require.NotEqual(t, target.Block.ID, snap.BlockAt(target.Pos).ID)
	got, err = s.Recall(place, memory.Query{Block: target.Block.ID, Meta: -1, From: target.Pos, K: 1})
	require.NoError(t, err)
	if len(got) > 0 {
		assert.NotEqual(t, target.Pos, got[0].Pos, "the broken log is forgotten")
	}
}

// TestConcurrentObserve: a served body is observed from several goroutines
// at once (its watcher and its queries); each snapshot gets its own recall
// and the file stays consistent (run under -race in CI).
func TestConcurrentObserve(t *testing.T) {
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	s, err := memory.Open(filepath.Join(t.TempDir(), "memory.db"), memory.Options{})
	require.NoError(t, err)
	defer s.Close()
	body := memory.WrapBody(w, s, "sim/race", zerolog.Nop())
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 5 {
				snap, err := body.Observe(context.Background())
				assert.NoError(t, err)
				assert.NotNil(t, snap.Recall)
			}
		})
	}
	wg.Wait()
	require.NoError(t, s.Check())
	sums, err := s.Places()
	require.NoError(t, err)
	require.Len(t, sums, 1)
	assert.NotZero(t, sums[0].Sightings)
}
