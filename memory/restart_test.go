package memory_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/ipcenvtest"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/memory"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/sim"
)

// view is how far the simulated bot sees in these tests: less than the
// default world's gravel lies from the spawn (about 9 blocks).
const view = 6

func newWorld(t *testing.T) *sim.Sim {
	t.Helper()
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{ViewRadius: view})
	require.NoError(t, err)
	return w
}

// play runs the scripted steps on conn towards "collect 1 minecraft:gravel".
func play(t *testing.T, conn ipc.Conn, steps ...loop.Invocation) (loop.Outcome, []loop.StepRecord) {
	t.Helper()
	return playWith(t, conn, script.New(steps...), len(steps))
}

// playWith runs a planner on conn towards "collect 1 minecraft:gravel".
func playWith(t *testing.T, conn ipc.Conn, pl loop.Planner, maxSteps int) (loop.Outcome, []loop.StepRecord) {
	t.Helper()
	reg := ipcenvtest.Shipped(t)
	g, err := loop.ParseGoal("collect 1 minecraft:gravel", reg.Tiers())
	require.NoError(t, err)
	var recs []loop.StepRecord
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: conn, Planner: pl, Goal: g,
		MaxSteps: maxSteps, OnStep: func(r loop.StepRecord) { recs = append(recs, r) }})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	return out, recs
}

// TestARestartedBotWalksToWhatItSaw: the bot saw gravel in an earlier run;
// after a restart, with the gravel out of sight, walk_to_remembered takes
// it there from the memory file and mine_block mines it. Without the
// memory the same steps find nothing.
func TestARestartedBotWalksToWhatItSaw(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "memory.db")
	const server = "sim/forest_base/test"

	// The first run: the gravel is out of sight from the spawn; the bot
	// walks until it sees it.
	w1 := newWorld(t)
	s, err := memory.Open(file, memory.Options{})
	require.NoError(t, err)
	conn := memory.Wrap(ipc.InProcess(w1), s, server, zerolog.Nop())
	snap, err := conn.Observe(ctx)
	require.NoError(t, err)
	require.Empty(t, snap.NearestBlocks(32, 1, "gravel"), "no gravel in sight from the spawn")
	truth := w1.State().Snapshot().NearestBlocks(32, 1, "gravel")
	require.NotEmpty(t, truth)
	res, err := conn.Execute(ctx, action.MoveTo{Pos: truth[0].Pos, Radius: 3})
	require.NoError(t, err)
	require.True(t, res.OK(), "%+v", res)
	snap, err = conn.Observe(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, snap.NearestBlocks(view, 1, "gravel"), "the bot sees the gravel now")
	require.NoError(t, s.Close())

	steps := []loop.Invocation{
		{Skill: "walk_to_remembered", Params: map[string]any{"target": "minecraft:gravel"}},
		{Skill: "mine_block", Params: map[string]any{"target": "minecraft:gravel"}},
	}

	// Restarted, without the memory: nothing to walk to, nothing to mine.
	out, recs := play(t, ipc.InProcess(newWorld(t)), steps...)
	assert.False(t, out.GoalMet)
	require.Len(t, recs, 2)
	assert.Equal(t, "no_target", recs[0].Code, recs[0].Error)
	assert.Equal(t, "no_target", recs[1].Code, recs[1].Error)

	// Restarted, with it: the walk, checked by the gravel in sight at its
	// end, then the mining.
	s, err = memory.Open(file, memory.Options{})
	require.NoError(t, err)
	defer s.Close()
	out, recs = play(t, memory.Wrap(ipc.InProcess(newWorld(t)), s, server, zerolog.Nop()), steps...)
	require.Len(t, recs, 2)
	assert.Equal(t, loop.Success, recs[0].Verdict, "%s %s", recs[0].Code, recs[0].Error)
	assert.Equal(t, loop.Success, recs[1].Verdict, "%s %s", recs[1].Code, recs[1].Error)
	assert.True(t, out.GoalMet, "%+v", out)

	// The goal planner does the same by itself: remembered, out of
	// sight, it walks there first; without the memory it finds no way.
	st2, err := memory.Open(filepath.Join(t.TempDir(), "copy.db"), memory.Options{})
	require.NoError(t, err)
	defer st2.Close()
	_, err = st2.Record(memory.Place{Server: server, Dimension: "overworld"}, memory.Observation{
		Seen: []memory.Sighting{{Block: "minecraft:gravel", Pos: truth[0].Pos}}})
	require.NoError(t, err)
	out, recs = playWith(t, memory.Wrap(ipc.InProcess(newWorld(t)), st2, server, zerolog.Nop()), chain.Planner{}, 5)
	require.True(t, out.GoalMet, "%+v", out)
	require.GreaterOrEqual(t, len(recs), 2)
	assert.Equal(t, "walk_to_remembered target=minecraft:gravel", recs[0].Invocation.String())
	assert.Equal(t, "mine_block", recs[len(recs)-1].Invocation.Skill)
	out, _ = playWith(t, ipc.InProcess(newWorld(t)), chain.Planner{}, 5)
	assert.False(t, out.GoalMet)
	assert.Equal(t, loop.Stuck, out.Reason, "%+v", out)

	// The gravel mined is forgotten: a third run does not walk to it.
	got, err := s.Recall(memory.Place{Server: server, Dimension: "overworld"}, memory.Query{Block: "minecraft:gravel", Meta: -1, From: truth[0].Pos})
	require.NoError(t, err)
	for _, g := range got {
		assert.NotEqual(t, recs[1].Actions[len(recs[1].Actions)-1].Action.(action.BreakBlock).Pos, g.Pos)
	}
}
