package chain

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// milestoneGoal is the Stone Age milestone: from an empty inventory in a
// fresh world, a coke oven the player built and 8 charcoal out of it.
const milestoneGoal = "build coke_oven and collect 8 minecraft:coal:1"

// milestoneMaxSteps bounds one run; the chain takes hundreds of steps
// (104 bricks from 105 clay balls and 175 sand, 104 smelts).
const milestoneMaxSteps = 2000

// milestoneRun is what one run of the milestone did.
type milestoneRun struct {
	out   loop.Outcome
	calls int // planner calls
}

// playMilestone plays the milestone in fresh_start grown from seed, as
//
//	agent run --scenario fresh_start --seed N --max-steps 2000 \
//	  --goal "build coke_oven and collect 8 minecraft:coal:1"
//
// does: the shipped skills and the goal planner, world generation included.
func playMilestone(tb testing.TB, seed int64) milestoneRun {
	return playGoal(tb, seed, milestoneGoal)
}

// playGoal plays a goal in fresh_start grown from seed, with at most
// milestoneMaxSteps steps, as agent run does.
func playGoal(tb testing.TB, seed int64, goalText string) milestoneRun {
	reg, err := registry.LoadConfig(config.FS, registry.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	if err := reg.RegisterProvided(); err != nil {
		tb.Fatal(err)
	}
	if err := reg.Finalize(); err != nil {
		tb.Fatal(err)
	}
	sc, err := sim.Embedded("fresh_start")
	if err != nil {
		tb.Fatal(err)
	}
	s, err := sim.New(sc, sim.Options{Seed: seed})
	if err != nil {
		tb.Fatal(err)
	}
	goal, err := loop.ParseGoal(goalText, reg.Tiers())
	if err != nil {
		tb.Fatal(err)
	}
	var run milestoneRun
	counted := loop.PlannerFunc(func(ctx context.Context, g loop.Goal, obs loop.Observation, catalog []*registry.Description) (loop.Decision, error) {
		run.calls++
		dec, err := Planner{}.Plan(ctx, g, obs, catalog)
		if t, ok := tb.(*testing.T); ok {
			checkTree(t, dec, err) // every decision of a whole run holds the tree's shape
		}
		return dec, err
	})
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(s), Planner: counted, Goal: goal, MaxSteps: milestoneMaxSteps})
	if err != nil {
		tb.Fatal(err)
	}
	if run.out, err = l.Run(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return run
}

// stopsAt says where a run that missed the goal stopped: why, and what of
// the goal was unmet.
func (r milestoneRun) stopsAt() string {
	if r.out.GoalMet {
		return "goal met"
	}
	why := r.out.Why
	if i := strings.Index(why, "; "); i >= 0 {
		why = why[:i] // the first reason, the deepest item of the chain last
	}
	if i := strings.LastIndex(why, ": "); i >= 0 {
		why = why[i+2:]
	}
	return fmt.Sprintf("%s after %d steps (unmet: %s): %s", r.out.Reason, r.out.Steps, strings.Join(r.out.Progress.Unmet, ", "), why)
}

// BenchmarkMilestone plays GTNH's Stone Age milestone from an empty
// inventory, for the seeds 1 to 5 of fresh_start, and reports for each:
// ns/op is the wall time of the whole run (world generation included),
// steps, game ticks and planner calls, and goal-met (1 or 0); the log
// line says where a seed stops when it misses the goal.
//
//	go test -run '^$' -bench Milestone -benchtime 1x ./planner/chain/
func BenchmarkMilestone(b *testing.B) {
	for seed := int64(1); seed <= 5; seed++ {
		b.Run(fmt.Sprintf("seed=%d", seed), func(b *testing.B) {
			var run milestoneRun
			for b.Loop() {
				run = playMilestone(b, seed)
			}
			met := 0.0
			if run.out.GoalMet {
				met = 1
			}
			b.ReportMetric(float64(run.out.Steps), "steps")
			b.ReportMetric(float64(run.out.Ticks), "ticks")
			b.ReportMetric(float64(run.calls), "planner-calls")
			b.ReportMetric(met, "goal-met")
			b.Logf("seed %d: %s", seed, run.stopsAt())
		})
	}
}

// TestStoneAgeMilestone: from an empty inventory in fresh_start, for the
// seeds 1 to 5, the goal planner reaches GTNH's Stone Age milestone: a coke
// oven the player built, and 8 charcoal out of it, with the grid tools
// wearing as GTNH's do.
func TestStoneAgeMilestone(t *testing.T) {
	if testing.Short() {
		t.Skip("five whole runs of the Stone Age")
	}
	for seed := int64(1); seed <= 5; seed++ {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			t.Parallel()
			run := playMilestone(t, seed)
			require.True(t, run.out.GoalMet, run.stopsAt())
			assert.Equal(t, run.out.Steps, run.calls, "one plan a step")
			assert.Greater(t, run.out.Ticks, int64(8*1800), "8 logs cook 1,800 ticks each")
			assert.Equal(t, 1, run.out.Skills["build_structure"].Successes)
			assert.GreaterOrEqual(t, run.out.Skills["maintain_coke_ovens"].Successes, 1)
		})
	}
}
