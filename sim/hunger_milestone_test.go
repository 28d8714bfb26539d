package sim_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/sim"
)

// TestHungerOverTheStoneAge measures what the Stone Age milestone costs
// the food bar: fresh_start with hunger on, seeds 1 to 5, the goal
// planner and the eat reflex (the world has no food to find), and logs
// the food and health at the end and at their lowest. It is a
// measurement, run on demand:
//
//	GTNH_HUNGER_MILESTONE=1 go test -run HungerOverTheStoneAge -v ./sim/
func TestHungerOverTheStoneAge(t *testing.T) {
	if os.Getenv("GTNH_HUNGER_MILESTONE") == "" {
		t.Skip("a measurement: set GTNH_HUNGER_MILESTONE=1")
	}
	for seed := int64(1); seed <= 5; seed++ {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			sc, err := sim.Embedded("fresh_start")
			require.NoError(t, err)
			hungry := *sc
			hungry.Hunger = true
			s, err := sim.New(&hungry, sim.Options{Seed: seed})
			require.NoError(t, err)
			reg := shipped(t)
			g, err := loop.ParseGoal("build coke_oven and collect 8 minecraft:coal:1", reg.Tiers())
			require.NoError(t, err)
			minFood, minHealth := 20.0, 20.0
			l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(s), Planner: chain.Planner{}, Goal: g,
				MaxSteps: 2000, Reflexes: []loop.Reflex{loop.EatReflex{Threshold: loop.DefaultEatThreshold}},
				OnStep: func(r loop.StepRecord) {
					if r.After != nil {
						minFood, minHealth = min(minFood, r.After.Food), min(minHealth, r.After.Health)
					}
				}})
			require.NoError(t, err)
			out, err := l.Run(context.Background())
			require.NoError(t, err)
			end := body(t, s)
			t.Logf("seed %d: goal met %v, %d steps, %d ticks; food %g (lowest %g), health %g (lowest %g)",
				seed, out.GoalMet, out.Steps, out.Ticks, end.Food, minFood, end.Health, minHealth)
		})
	}
}
