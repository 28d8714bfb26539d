package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// survivalGoal is the Stone Age milestone: the coke oven built and its
// first charcoal, three game days and more of work with nights between.
const survivalGoal = "build coke_oven and collect 8 minecraft:coal:1"

// survivalRun plays the embedded survival scenario (fresh_start with
// hunger, nights, mobs, water that drowns and lava that burns) with agent
// run's defaults, every reflex on, from a seed, and returns its trace.
func survivalRun(t *testing.T, seed string) []loop.StepRecord {
	t.Helper()
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	code, stdout, stderr := runAgent(t, "run", "--scenario", "survival", "--seed", seed, "--goal", survivalGoal,
		"--max-steps", "3000", "--trace", trace)
	require.Equal(t, exitOK, code, "%s\n%s", stdout, stderr)
	assert.Contains(t, stdout, "goal met")
	data, err := os.ReadFile(trace)
	require.NoError(t, err)
	var recs []loop.StepRecord
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r loop.StepRecord
		require.NoError(t, json.Unmarshal([]byte(line), &r))
		recs = append(recs, r)
	}
	return recs
}

// survivalFigures are what a survival run shows: deaths, the lowest food
// and health after a step, and the reflex steps by reflex.
type survivalFigures struct {
	deaths             int
	minFood, minHealth float64
	reflexes           map[string]int
	failedReflexes     int
	ticks              int64
}

func figuresOf(recs []loop.StepRecord) survivalFigures {
	f := survivalFigures{minFood: 20, minHealth: 20, reflexes: map[string]int{}}
	for _, r := range recs {
		for _, res := range r.Results {
			if died, _ := res.Details["died"].(bool); died {
				f.deaths++
			}
		}
		if r.Reflex != nil {
			f.reflexes[r.Reflex.Name]++
			if r.Verdict != loop.Success {
				f.failedReflexes++
			}
		}
		if r.After != nil {
			f.minFood, f.minHealth, f.ticks = min(f.minFood, r.After.Food), min(f.minHealth, r.After.Health), r.After.Tick
		}
	}
	return f
}

// TestSurvivalScenario: in the shipped survival scenario the goal planner
// with every reflex at its default reaches the Stone Age milestone through
// three nights or more without dying: the shelter reflex walls it in every night,
// and (seed 1) the escape reflex takes it out of the lake, where it digs
// sand under water, before it drowns.
func TestSurvivalScenario(t *testing.T) {
	race.SkipOneGoroutine(t, "a simulated run of three game days in process")
	if testing.Short() {
		t.Skip("a run of three game days (4 to 7 s): not under -short")
	}
	f := figuresOf(survivalRun(t, "1"))
	assert.Zero(t, f.deaths, "%+v", f)
	assert.Greater(t, f.ticks, int64(2*24000), "the milestone takes more than two game days")
	assert.Positive(t, f.reflexes["shelter"], "walled in at night: %+v", f)
	assert.Positive(t, f.reflexes["escape"], "out of the water before drowning: %+v", f)
	assert.Zero(t, f.failedReflexes, "%+v", f)
	assert.Positive(t, f.minFood, "never starving")
}

// TestSurvivalSeeds is the measurement of docs/survival.md: the survival
// scenario from the seeds of GTNH_SURVIVAL_SEEDS (1,2,3,4,5 unless set),
// each run's deaths, lowest food and health, reflex steps, game time and
// wall time. Run on demand:
//
//	GTNH_SURVIVAL_BENCH=1 go test -run SurvivalSeeds -v ./cmd/agent/
func TestSurvivalSeeds(t *testing.T) {
	if os.Getenv("GTNH_SURVIVAL_BENCH") == "" {
		t.Skip("a measurement: set GTNH_SURVIVAL_BENCH=1")
	}
	seeds := "1,2,3,4,5"
	if v := os.Getenv("GTNH_SURVIVAL_SEEDS"); v != "" {
		seeds = v
	}
	for _, seed := range strings.Split(seeds, ",") {
		seed = strings.TrimSpace(seed)
		began := time.Now()
		f := figuresOf(survivalRun(t, seed))
		t.Logf("| %s | %d | %.1f | %g | %g | %v | %s |", seed, f.deaths, float64(f.ticks)/24000, f.minFood, f.minHealth, f.reflexes,
			time.Since(began).Round(100*time.Millisecond))
		assert.Zero(t, f.deaths, "seed %s", seed)
	}
}
