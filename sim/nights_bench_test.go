package sim_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/memory"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// The unattended run's goals: the Stone Age milestone (the coke oven
// built and its first charcoal) with the gathering after it in the same
// goal, so the planner has work while the oven bakes; then more gathering
// until the days are over.
const (
	stoneAgeGoal  = "build coke_oven and collect 8 minecraft:coal:1"
	gatheringGoal = "collect 2000 minecraft:cobblestone"
)

// stretch follows the longest span of game time between two marks.
type stretch struct {
	last, longest, from int64
}

func (s *stretch) mark(now int64) { s.last = now }

func (s *stretch) see(now int64) {
	if now-s.last > s.longest {
		s.longest, s.from = now-s.last, s.last
	}
}

func (s stretch) String() string {
	return fmt.Sprintf("%.1f s (from tick %d)", float64(s.longest)/20, s.from)
}

// goalScore measures a goal's progress in a world: each item counted up
// to its target, and each structure built.
func goalScore(g loop.Goal, w *world.Snapshot) int {
	n := 0
	for _, ig := range g.Items {
		m, err := world.ParseItemMatcher(ig.Item)
		if err != nil {
			continue
		}
		n += min(ig.Gathered(w, m), ig.Target())
	}
	p := g.Check(w, nil, false)
	for _, bg := range g.Builds {
		if !slices.Contains(p.Unmet, "build "+bg.Name) {
			n++
		}
	}
	return n
}

// TestUnattendedNights measures the bot left alone: fresh_start with
// hunger, nights and mobs on, a stack of bread to eat, every reflex on by
// default (escape, cook, eat, defend, recover, hunt, shelter, unstuck);
// the goal planner pursues the Stone Age milestone, with a long gathering
// goal after it, with a memory file (in the test's temporary directory)
// as on a server, until
// GTNH_NIGHTS_DAYS game days (3 unless set) have passed, for the seeds of
// GTNH_NIGHTS_SEEDS (1,2,3,4,5 unless set). For each seed it logs the
// deaths, the lowest food level, when the milestone was met, and three
// stretches of game time: the longest without goal progress (an item of
// the goal counted higher than ever before, a structure built), the
// longest without a step that did work (one that changed the inventory or
// moved the feet more than 2 blocks; a wait does neither), and the longest
// with neither — the bound. GTNH_NIGHTS_TRACE names a directory for each
// seed's trace (seedN.jsonl). A measurement, run on demand:
//
//	GTNH_NIGHTS_BENCH=1 GTNH_NIGHTS_DAYS=24 go test -run UnattendedNights -v -timeout 0 ./sim/
func TestUnattendedNights(t *testing.T) {
	if os.Getenv("GTNH_NIGHTS_BENCH") == "" {
		t.Skip("a measurement: set GTNH_NIGHTS_BENCH=1")
	}
	days := 3
	if v := os.Getenv("GTNH_NIGHTS_DAYS"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err)
		days = n
	}
	seeds := []int64{1, 2, 3, 4, 5}
	if v := os.Getenv("GTNH_NIGHTS_SEEDS"); v != "" {
		seeds = nil
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
			require.NoError(t, err)
			seeds = append(seeds, n)
		}
	}
	traceDir := os.Getenv("GTNH_NIGHTS_TRACE")
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			began := time.Now()
			sc, err := sim.Embedded("fresh_start")
			require.NoError(t, err)
			wild := *sc
			wild.Hunger, wild.Night, wild.Mobs = true, true, true
			wild.Player.Inventory = append([]sim.StackSpec{{Item: "minecraft:bread", Count: 64}}, sc.Player.Inventory...)
			s, err := sim.New(&wild, sim.Options{Seed: seed})
			require.NoError(t, err)
			// Memory on, as on a server: the bot remembers where it was
			// walled in and goes back there.
			mem, err := memory.Open(filepath.Join(t.TempDir(), "memory.db"), memory.Options{})
			require.NoError(t, err)
			defer mem.Close()
			conn := memory.Wrap(ipc.InProcess(s), mem, fmt.Sprintf("sim/fresh_start/%d", seed), zerolog.Nop())
			reg := shipped(t)
			end := int64(days) * 24000
			var trace *json.Encoder
			if traceDir != "" {
				f, err := os.Create(filepath.Join(traceDir, fmt.Sprintf("seed%d.jsonl", seed)))
				require.NoError(t, err)
				defer f.Close()
				trace = json.NewEncoder(f)
			}
			stoneAge, err := loop.ParseGoal(stoneAgeGoal, reg.Tiers())
			require.NoError(t, err)
			stoneAge = stoneAge.Anchor(look(t, s))
			stoneAgeAt := int64(-1)
			minFood := 20.0
			var noGoal, noWork, neither stretch
			// The reflexes agent.yaml turns on by default, in its order.
			reflexes := []loop.Reflex{
				loop.EscapeReflex{Air: loop.DefaultEscapeAir},
				loop.CookReflex{Threshold: loop.DefaultEatThreshold},
				loop.EatReflex{Threshold: loop.DefaultEatThreshold, HealBelow: loop.DefaultEatHealBelow},
				loop.DefendReflex{Range: loop.DefaultDefendRange, FleeHealth: loop.DefaultFleeHealth, MinWeaponDamage: loop.DefaultMinWeaponDamage},
				&loop.RecoverReflex{},
				&loop.HuntReflex{Radius: loop.DefaultHuntRadius, MinHealth: loop.DefaultHuntHealth},
				&loop.ShelterReflex{From: loop.DefaultShelterFrom, Until: loop.DefaultShelterUntil},
				&loop.UnstuckReflex{Seconds: loop.DefaultUnstuckSeconds, Distance: loop.DefaultUnstuckDistance},
			}
			steps, met := 0, 0
			walled, reused := 0, 0
			day := int64(0)
			for _, goal := range append([]string{stoneAgeGoal + " and " + gatheringGoal}, slices.Repeat([]string{gatheringGoal}, 100)...) {
				if look(t, s).Tick >= end {
					break
				}
				g, err := loop.ParseGoal(goal, reg.Tiers())
				require.NoError(t, err)
				anchored := g.Anchor(look(t, s))
				best := goalScore(anchored, look(t, s))
				ctx, cancel := context.WithCancel(context.Background())
				onStep := func(r loop.StepRecord) {
					if inv := r.Invocation; inv != nil && inv.Skill == "shelter" && inv.Params["wait"] == nil && r.Verdict == loop.Success {
						// Walled in for the night: in a new pit, or back in
						// a remembered one (no block dug).
						walled++
						if !slices.ContainsFunc(r.Actions, func(e action.Envelope) bool { _, dig := e.Action.(action.BreakBlock); return dig }) {
							reused++
						}
					}
					if trace != nil {
						r.Actions, r.Results = nil, nil
						_ = trace.Encode(r)
					}
					w := look(t, s)
					if w.Tick >= end {
						cancel()
					}
					if r.After == nil {
						return
					}
					now := r.After.Tick
					minFood = min(minFood, r.After.Food)
					if stoneAgeAt < 0 && stoneAge.Check(w, reg.Tiers(), false).Met {
						stoneAgeAt = now
					}
					// A stretch ends at the end of the step that made the
					// progress: a step of ten minutes that shows its output
					// at the end is ten minutes without progress.
					noGoal.see(now)
					noWork.see(now)
					neither.see(now)
					if sc := goalScore(anchored, w); sc > best {
						best = sc
						noGoal.mark(now)
						neither.mark(now)
					}
					if r.After.Pos.DistSq(r.Before.Pos) > 4 || !maps.Equal(r.After.Inventory, r.Before.Inventory) {
						noWork.mark(now)
						neither.mark(now)
					}
					if now/24000 > day {
						// A line a game day, so a long run shows how it goes.
						day = now / 24000
						t.Logf("seed %d: day %d (tick %d): %d deaths; lowest food %g; longest without goal progress %s, without a step that did work %s, with neither %s; wall %s",
							seed, day, now, len(s.Deaths()), minFood, noGoal, noWork, neither, time.Since(began).Round(time.Second))
					}
				}
				l, err := loop.New(ctx, loop.Config{Registry: reg, Conn: conn, Planner: chain.Planner{}, Goal: g,
					MaxSteps: 1_000_000, Reflexes: reflexes, OnStep: onStep, Guard: ipc.Guard{Range: loop.DefaultDefendRange}})
				require.NoError(t, err)
				out, err := l.Run(ctx)
				cancel()
				require.NoError(t, err)
				steps += out.Steps
				if out.Reason == loop.GoalMet {
					met++
				}
				t.Logf("seed %d: %q: %s after %d steps, tick %d (%s)", seed, goal, out.Reason, out.Steps, look(t, s).Tick, out.Why)
				if out.Reason != loop.GoalMet {
					break
				}
			}
			snap := look(t, s)
			milestone := "not met"
			if stoneAgeAt >= 0 {
				milestone = fmt.Sprintf("day %.1f", float64(stoneAgeAt)/24000)
			}
			t.Logf("seed %d: %.1f game days (%d ticks), %d steps, %d goals met, Stone Age %s: %d deaths %v; lowest food %g; longest without goal progress %s, without a step that did work %s, with neither %s; wall %s",
				seed, float64(snap.Tick)/24000, snap.Tick, steps, met, milestone, len(s.Deaths()), s.Deaths(), minFood, noGoal, noWork, neither, time.Since(began).Round(time.Second))
			t.Logf("seed %d: walled in %d times, %d of them in a remembered shelter", seed, walled, reused)
			t.Logf("| %d | %.1f | %d | %g | %s | %.1f s | %.1f s | %.1f s | %d | %d of %d | %s |", seed, float64(snap.Tick)/24000, len(s.Deaths()), minFood, milestone,
				float64(neither.longest)/20, float64(noWork.longest)/20, float64(noGoal.longest)/20, met, reused, walled, time.Since(began).Round(time.Second))
		})
	}
}
