package sim_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/sim"
)

// TestUnattendedNights measures the bot left alone: fresh_start with
// hunger, nights and mobs on, a stack of bread to eat, every reflex at its
// default (eat, defend, shelter, unstuck); the goal planner pursues the
// Stone Age milestone and then a long gathering goal until
// GTNH_NIGHTS_DAYS game days (3 unless set) have passed. For seeds 1 to 5
// it logs the deaths, the longest stretch of game time without progress
// (the feet more than 2 blocks away or the inventory changed; also with
// the nights waited out in the shelter counted as progress) and the
// lowest food level. A measurement, run on demand:
//
//	GTNH_NIGHTS_BENCH=1 GTNH_NIGHTS_DAYS=3 go test -run UnattendedNights -v -timeout 60m ./sim/
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
	for seed := int64(1); seed <= 5; seed++ {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			sc, err := sim.Embedded("fresh_start")
			require.NoError(t, err)
			wild := *sc
			wild.Hunger, wild.Night, wild.Mobs = true, true, true
			wild.Player.Inventory = append([]sim.StackSpec{{Item: "minecraft:bread", Count: 64}}, sc.Player.Inventory...)
			s, err := sim.New(&wild, sim.Options{Seed: seed})
			require.NoError(t, err)
			reg := shipped(t)
			end := int64(days) * 24000
			minFood := 20.0
			var lastProgress, longest, lastAwake, longestAwake int64
			var lastPos loop.Summary
			started := false
			reflexes := []loop.Reflex{
				loop.EatReflex{Threshold: loop.DefaultEatThreshold},
				loop.DefendReflex{Range: loop.DefaultDefendRange, FleeHealth: loop.DefaultFleeHealth, MinWeaponDamage: loop.DefaultMinWeaponDamage},
				loop.ShelterReflex{From: loop.DefaultShelterFrom, Until: loop.DefaultShelterUntil},
				&loop.UnstuckReflex{Seconds: loop.DefaultUnstuckSeconds, Distance: loop.DefaultUnstuckDistance},
			}
			onStep := func(r loop.StepRecord) {
				if r.After == nil {
					return
				}
				minFood = min(minFood, r.After.Food)
				now := r.After.Tick
				if !started || r.After.Pos.DistSq(lastPos.Pos) > 4 || !maps.Equal(r.After.Inventory, lastPos.Inventory) {
					lastProgress, lastPos, started = now, *r.After, true
				}
				longest = max(longest, now-lastProgress)
				// The same, with a night's wait in the shelter counted as
				// doing what it should.
				if now-lastProgress == 0 || r.Reflex != nil && r.Reflex.Name == "shelter" {
					lastAwake = now
				}
				longestAwake = max(longestAwake, now-lastAwake)
			}
			steps := 0
			for _, goal := range []string{"build coke_oven and collect 8 minecraft:coal:1", "collect 2000 minecraft:cobblestone"} {
				if look(t, s).Tick >= end {
					break
				}
				g, err := loop.ParseGoal(goal, reg.Tiers())
				require.NoError(t, err)
				ctx, cancel := context.WithCancel(context.Background())
				l, err := loop.New(ctx, loop.Config{Registry: reg, Conn: ipc.InProcess(s), Planner: chain.Planner{}, Goal: g,
					MaxSteps: 5000, Reflexes: reflexes, OnStep: func(r loop.StepRecord) {
						onStep(r)
						if look(t, s).Tick >= end {
							cancel()
						}
					}})
				require.NoError(t, err)
				out, err := l.Run(ctx)
				cancel()
				require.NoError(t, err)
				steps += out.Steps
				t.Logf("seed %d: %q: %s after %d steps (%s)", seed, goal, out.Reason, out.Steps, out.Why)
			}
			snap := look(t, s)
			t.Logf("seed %d: %d game days (%d ticks), %d steps: %d deaths %v; longest stretch without progress %.1f s (%.1f s outside the shelter's nights); lowest food %g",
				seed, snap.Tick/24000, snap.Tick, steps, len(s.Deaths()), s.Deaths(), float64(longest)/20, float64(longestAwake)/20, minFood)
		})
	}
}
