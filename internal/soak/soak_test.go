package soak

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/internal/faultbody"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// StepsEnv overrides the number of steps (default 1,000).
const StepsEnv = "GTNH_SOAK_STEPS"

// rotation is what the soak planner cycles through: gathering, crafting,
// planting, mining, machines, chat, waiting and an unknown skill, so every kind of action and
// most skills run, succeed and fail over and over.
var rotation = []loop.Invocation{
	{Skill: "chop_tree", Params: map[string]any{"min_logs": 1, "radius": 64}},
	{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:planks", "count": 4}},
	{Skill: "basic_crafting", Params: map[string]any{"item": "minecraft:stick", "count": 4}},
	{Skill: "plant_sapling"},
	{Skill: "mine_block", Params: map[string]any{"target": "minecraft:dirt"}},
	{Skill: "feed_coke_ovens"},
	{Skill: "report_status", Params: map[string]any{"note": "soak"}},
	{Skill: "wait_for", Params: map[string]any{"duration": "1s"}},
	{Skill: "fill_bucket"},
	// A skill no pack offers (a planner's mistake): rejected, nothing runs.
	{Skill: "build_fusion_reactor"},
}

// cycle plans the rotation forever, skipping invocations the loop has
// blocked (they come back when the world changes).
type cycle struct{ next int }

func (c *cycle) Plan(_ context.Context, _ loop.Goal, obs loop.Observation, _ []*registry.Description) (loop.Decision, error) {
	blocked := map[string]bool{}
	for _, b := range obs.Blocked {
		blocked[b.String()] = true
	}
	for range rotation {
		inv := rotation[c.next%len(rotation)]
		c.next++
		if !blocked[inv.String()] {
			return loop.Decision{Invocation: &inv}, nil
		}
	}
	inv := loop.Invocation{Skill: "report_status", Params: map[string]any{"note": "all blocked"}}
	return loop.Decision{Invocation: &inv}, nil
}

// correct teleports the player to a random standing spot on open ground
// (not onto a tree or a machine), as a server position correction does.
func correct(s *sim.Sim) func(r *rand.Rand) {
	return func(r *rand.Rand) {
		s.State().Update(func(tx *world.Tx) {
			for range 50 {
				x, z := 2+r.IntN(60), 2+r.IntN(60)
				for y := 90; y > 1; y-- {
					b := tx.BlockAt(world.BlockPos{X: x, Y: y - 1, Z: z})
					if b.IsAir() {
						continue
					}
					if b.ID == "minecraft:grass" || b.ID == "minecraft:dirt" {
						tx.MovePlayer(world.Vec3{X: float64(x) + 0.5, Y: float64(y), Z: float64(z) + 0.5})
						return
					}
					break
				}
			}
		})
	}
}

// epochSteps is how long one world lives.
const epochSteps = 5000

func addCounts(a, b faultbody.Counts) faultbody.Counts {
	return faultbody.Counts{Executes: a.Executes + b.Executes, Fail: a.Fail + b.Fail, Timeout: a.Timeout + b.Timeout,
		Disconnect: a.Disconnect + b.Disconnect, Correction: a.Correction + b.Correction, Reconnects: a.Reconnects + b.Reconnects}
}

type memPoint struct {
	step       int
	heap       uint64
	goroutines int
}

func measure(step int) memPoint {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return memPoint{step: step, heap: m.HeapInuse, goroutines: runtime.NumGoroutine()}
}

func TestSoak(t *testing.T) {
	steps := 1000
	if testing.Short() {
		// The race run (-short) plays 400 steps: the same worlds, faults
		// and reconnects, a shorter stretch for the heap to stay flat over
		// (go test ./... plays the 1,000).
		steps = 400
	}
	if v := os.Getenv(StepsEnv); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err, StepsEnv)
		steps = n
	}
	dir := t.TempDir()
	statePath := filepath.Join(dir, "state.json")
	reg := load(t, statePath)
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	// Every epoch plays a new world (another seed): the forest is felled in
	// a few thousand steps, and a fresh one keeps every skill succeeding as
	// well as failing. The registry, the trace and the planner live on.
	var body *faultbody.Body
	var faults faultbody.Counts
	newWorld := func(epoch int) {
		if body != nil {
			faults = addCounts(faults, body.Counts())
		}
		w, err := sim.New(sc, sim.Options{Seed: int64(20261123 + epoch)})
		require.NoError(t, err)
		body = faultbody.New(w, faultbody.Options{Seed: uint64(epoch),
			Rates:   faultbody.Rates{Fail: 0.03, Timeout: 0.02, Disconnect: 0.005, Correction: 0.02},
			Correct: correct(w)})
	}

	traceFile, err := os.Create(filepath.Join(dir, "trace.jsonl"))
	require.NoError(t, err)
	defer traceFile.Close()
	trace := bufio.NewWriter(traceFile)

	// Memory is sampled after a warm-up (caches, the path finder's buffers
	// and the world's sections reach their working size) and at the end.
	warm := max(200, steps/10)
	var points []memPoint
	done := 0
	outcomes := map[string]loop.Stats{}
	pl := &cycle{}
	ctx := context.Background()
	runs := 0
	start := time.Now()
	for done < steps {
		if done%epochSteps == 0 {
			newWorld(done / epochSteps)
		}
		runs++
		l, err := loop.New(ctx, loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: pl,
			Goal:     loop.Goal{Text: "never", Items: []loop.ItemGoal{{Item: "minecraft:nether_star", Count: 1}}},
			Trace:    trace,
			MaxSteps: min(steps, (done/epochSteps+1)*epochSteps) - done, MaxConsecutiveFailures: math.MaxInt,
			OnStep: func(r loop.StepRecord) {
				if n := done + r.Step; n == warm || n == steps || (n > warm && n%(steps/10) == 0) {
					points = append(points, measure(n))
				}
			}})
		require.NoError(t, err)
		out, err := l.Run(ctx)
		done += out.Steps
		for k, v := range out.Skills {
			s := outcomes[k]
			s.Attempts += v.Attempts
			s.Successes += v.Successes
			outcomes[k] = s
		}
		if err != nil {
			// The only machinery failure the soak expects: the body's
			// connection dropped. Reconnect and carry on, as --reconnect does.
			require.ErrorIs(t, err, faultbody.ErrDisconnected)
			require.True(t, body.Disconnected())
			body.Reconnect()
			continue
		}
		require.Equal(t, loop.MaxSteps, out.Reason, "a run ends only by its step budget or a disconnect")
		if done%epochSteps != 0 && done != steps {
			t.Fatalf("a run ended at step %d, not at an epoch's end", done)
		}
	}
	wall := time.Since(start)
	require.NoError(t, trace.Flush())
	require.Equal(t, steps, done)

	// Every step is one parseable trace line, numbered within its run.
	recs := readTrace(t, filepath.Join(dir, "trace.jsonl"))
	require.Len(t, recs, steps, "trace lines")
	restarts := 0
	for i, r := range recs {
		switch {
		case i > 0 && r.Step == recs[i-1].Step+1:
		case r.Step == 1:
			restarts++
		default:
			t.Fatalf("trace line %d is step %d after step %d", i+1, r.Step, recs[i-1].Step)
		}
	}
	assert.Equal(t, runs, restarts, "one step 1 per run")

	// The loop's per-skill counts and the registry's learned metrics agree
	// with the trace, and so does the state file a restart would read.
	verdicts := map[loop.Verdict]int{}
	for _, r := range recs {
		verdicts[r.Verdict]++
	}
	assert.Equal(t, countOutcomes(recs), outcomes, "Outcome.Skills summed over runs")
	want := replayMetrics(recs)
	require.NotEmpty(t, want)
	reloaded := load(t, statePath)
	for key, m := range want {
		name, version := key.name, key.version
		sk, err := reg.GetSkillVersion(name, version)
		require.NoError(t, err, name)
		assertMetrics(t, key.String()+" in the registry", m, sk.Spec().Metrics)
		sk2, err := reloaded.GetSkillVersion(name, version)
		require.NoError(t, err, name)
		assertMetrics(t, key.String()+" in the state file", m, sk2.Spec().Metrics)
	}

	first, last := points[0], points[len(points)-1]
	c := addCounts(faults, body.Counts())
	t.Logf("soak: %d steps in %d runs over %d worlds, wall %v (%.0f µs/step)", steps, runs, (steps+epochSteps-1)/epochSteps, wall.Round(time.Millisecond), float64(wall.Microseconds())/float64(steps))
	t.Logf("soak: heap in use after GC: %.2f MiB at step %d, %.2f MiB at step %d; goroutines %d -> %d",
		mib(first.heap), first.step, mib(last.heap), last.step, first.goroutines, last.goroutines)
	for _, p := range points {
		t.Logf("soak:   step %6d  heap %.2f MiB  goroutines %d", p.step, mib(p.heap), p.goroutines)
	}
	t.Logf("soak: trace lines %d; verdicts %v", len(recs), verdicts)
	t.Logf("soak: faults: %d executes, %d refused, %d timeouts, %d disconnects (%d reconnects), %d position corrections",
		c.Executes, c.Fail, c.Timeout, c.Disconnect, c.Reconnects, c.Correction)
	for _, name := range sortedKeys(outcomes) {
		t.Logf("soak:   %-16s %6d/%-6d steps succeeded", name, outcomes[name].Successes, outcomes[name].Attempts)
	}
	t.Logf("soak: metrics of %d skill versions match the trace (registry and state file)", len(want))

	// Flat: the heap after warm-up grows by less than 4 MiB plus 10%, and no
	// goroutine is left behind.
	assert.LessOrEqual(t, last.heap, first.heap+first.heap/10+4<<20, "heap grew from %.2f to %.2f MiB", mib(first.heap), mib(last.heap))
	assert.LessOrEqual(t, last.goroutines, first.goroutines, "goroutines")
	// The faults and the rotation exercised every path.
	assert.Positive(t, c.Fail)
	assert.Positive(t, c.Timeout)
	assert.Positive(t, c.Correction)
	assert.Positive(t, verdicts[loop.Success])
	assert.Positive(t, verdicts[loop.ActionFailed])
	assert.Positive(t, verdicts[loop.Rejected])
	if steps >= 1000 {
		assert.Positive(t, c.Disconnect)
		assert.Greater(t, runs, 1)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

func load(t *testing.T, statePath string) *registry.Registry {
	t.Helper()
	reg, err := registry.LoadConfig(config.FS, registry.Options{StatePath: statePath})
	require.NoError(t, err)
	require.NoError(t, reg.RegisterProvided())
	require.NoError(t, reg.Finalize())
	return reg
}

func readTrace(t *testing.T, file string) []loop.StepRecord {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	var out []loop.StepRecord
	for sc.Scan() {
		var r loop.StepRecord
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r), "trace line %d", len(out)+1)
		out = append(out, r)
	}
	require.NoError(t, sc.Err())
	return out
}

// countOutcomes is Outcome.Skills computed from the trace.
func countOutcomes(recs []loop.StepRecord) map[string]loop.Stats {
	out := map[string]loop.Stats{}
	for _, r := range recs {
		if r.Invocation == nil {
			continue
		}
		s := out[r.Invocation.Skill]
		if r.Verdict != loop.Rejected {
			s.Attempts++
		}
		if r.Verdict == loop.Success {
			s.Successes++
		}
		out[r.Invocation.Skill] = s
	}
	return out
}

type skillKey struct {
	name    string
	version int
}

func (k skillKey) String() string { return fmt.Sprintf("%s@%d", k.name, k.version) }

// replayMetrics recomputes the learned metrics from the trace: the loop
// records an outcome for every step whose actions ran (success,
// effects_unmet, action_failed) and for skills that failed through their
// own fault (panic, undeclared action, internal), with the step's ticks as
// the cost, and the registry folds them in with w = max(0.2, 1/n).
func replayMetrics(recs []loop.StepRecord) map[skillKey]skills.Metrics {
	out := map[skillKey]skills.Metrics{}
	for _, r := range recs {
		if r.Invocation == nil || r.Version == 0 {
			continue
		}
		recorded := false
		switch r.Verdict {
		case loop.Success, loop.EffectsUnmet, loop.ActionFailed:
			recorded = true
		case loop.SkillFailed:
			switch skills.Code(r.Code) {
			case skills.CodePanic, skills.CodeUndeclared, skills.CodeInternal:
				recorded = true
			}
		}
		if !recorded {
			continue
		}
		k := skillKey{r.Invocation.Skill, r.Version}
		m := out[k]
		m.Samples++
		w := math.Max(0.2, 1/float64(m.Samples))
		x, cost := 0.0, float64(r.Ticks)
		if r.Verdict == loop.Success {
			x = 1
		}
		if m.SuccessRate == nil {
			m.SuccessRate, m.AvgCost = &x, &cost
		} else {
			rate := *m.SuccessRate + w*(x-*m.SuccessRate)
			avg := *m.AvgCost + w*(cost-*m.AvgCost)
			m.SuccessRate, m.AvgCost = &rate, &avg
		}
		out[k] = m
	}
	return out
}

func assertMetrics(t *testing.T, what string, want, got skills.Metrics) {
	t.Helper()
	require.Equal(t, want.Samples, got.Samples, "%s: samples", what)
	require.NotNil(t, got.SuccessRate, what)
	require.NotNil(t, got.AvgCost, what)
	assert.InDelta(t, *want.SuccessRate, *got.SuccessRate, 1e-9, "%s: success_rate", what)
	assert.InDelta(t, *want.AvgCost, *got.AvgCost, 1e-6*math.Max(1, *want.AvgCost), "%s: avg_cost", what)
}
