package loop_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// stateWatch is a trace that, as each line is written, reads how many
// samples the metrics state file holds for one skill version: what a kill
// right after that write would leave on disk.
type stateWatch struct {
	t     *testing.T
	path  string
	key   string
	seen  []int
	fails bool
}

func (w *stateWatch) samples() int {
	data, err := os.ReadFile(w.path)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	require.NoError(w.t, err)
	var st struct {
		Skills map[string]struct {
			Metrics struct{ Samples int } `json:"metrics"`
		} `json:"skills"`
	}
	require.NoError(w.t, json.Unmarshal(data, &st))
	return st.Skills[w.key].Metrics.Samples
}

func (w *stateWatch) Write(p []byte) (int, error) {
	w.seen = append(w.seen, w.samples())
	if w.fails {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// TestTraceLineBeforeMetrics: a step's trace line is written before its
// outcome reaches the metrics state, so the state is never a step ahead of
// the trace; a step whose line could not be written leaves the metrics as
// they were.
func TestTraceLineBeforeMetrics(t *testing.T) {
	statePath := filepath.Join(t.TempDir(), "state.json")
	reg := shipped(t, registry.Options{StatePath: statePath})
	sk, err := reg.GetSkill("chop_tree")
	require.NoError(t, err)
	w := &stateWatch{t: t, path: statePath, key: fmt.Sprintf("chop_tree@%d", sk.Version())}

	// Run: each line is written while the state holds the steps before it.
	body := newToy(world.Pos(3, 64, 2), world.Pos(-4, 64, 5), world.Pos(6, 64, -6), world.Pos(-7, 64, -3))
	chop := loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": 1}}
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(body),
		Planner: script.New(chop, chop), Goal: goal(t, reg, "have 99 minecraft:diamond"), Trace: w})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	require.Equal(t, 2, out.Steps)
	assert.Equal(t, []int{0, 1}, w.seen, "samples on disk as each trace line was written")
	assert.Equal(t, 2, w.samples(), "both outcomes recorded after their lines")

	// Step, as the MCP server drives it: the same order; and a line that
	// cannot be written leaves the metrics alone.
	w.seen = nil
	l, err = loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(body), Trace: w})
	require.NoError(t, err)
	rec, err := l.Step(context.Background(), chop)
	require.NoError(t, err)
	require.Equal(t, loop.Success, rec.Verdict, rec.Error)
	assert.Equal(t, []int{2}, w.seen)
	assert.Equal(t, 3, w.samples())
	w.fails = true
	rec, err = l.Step(context.Background(), chop)
	require.ErrorContains(t, err, "writing the trace")
	require.Equal(t, loop.Success, rec.Verdict, "a step that would count: %s", rec.Error)
	assert.Equal(t, 3, w.samples(), "no trace line, no metrics")
}
