package loop_test

import (
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// instantBody answers at once from a fixed snapshot, so the benchmark
// measures the loop itself.
type instantBody struct{ snap *world.Snapshot }

func (b instantBody) Info() ipc.Info { return ipc.Info{Name: "instant", Supports: action.Kinds()} }
func (b instantBody) Observe(context.Context) (*world.Snapshot, error) {
	return b.snap, nil
}
func (b instantBody) Execute(context.Context, action.Action) ipc.Result {
	return ipc.Result{Code: ipc.OK, Ticks: 1}
}

// BenchmarkLoopStep measures the loop's own work per step — catalog,
// validation, Suggest, effect verification, metrics, the trace line —
// with a planner and a body that cost nothing. Target: ≤ 50 µs per step.
func BenchmarkLoopStep(b *testing.B) {
	reg := shipped(b, registry.Options{})
	snap := &world.Snapshot{Player: world.Player{Name: "Bot", Dimension: world.Overworld, Health: 20, Food: 20},
		Inventory: world.NewInventory(world.NewStack("minecraft:log", 0, 3)), Blocks: world.NewSparseBlocks(), TechState: "stone_age"}
	inv := &loop.Invocation{Skill: "report_status", Params: map[string]any{"note": "bench"}}
	pl := loop.PlannerFunc(func(context.Context, loop.Goal, loop.Observation, []*registry.Description) (loop.Decision, error) {
		return loop.Decision{Invocation: inv}, nil
	})
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(instantBody{snap}), Planner: pl,
		Trace: io.Discard, MaxSteps: b.N, MaxConsecutiveFailures: 1 << 30,
		Goal: loop.Goal{Items: []loop.ItemGoal{{Item: "minecraft:diamond", Count: 1}}}})
	require.NoError(b, err)
	b.ReportAllocs()
	b.ResetTimer()
	out, err := l.Run(context.Background())
	b.StopTimer()
	require.NoError(b, err)
	require.Equal(b, b.N, out.Steps)
	require.Equal(b, b.N, out.Skills["report_status"].Successes)
}
