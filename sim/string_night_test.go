package sim_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestStringFromTheNight: fresh_start played as GTNH plays it (night,
// mobs, hunger), from an empty inventory, the goal planner and every
// reflex: string, which only spiders drop and spiders spawn only in the
// dark, is had by a sword made by day, a wait for the night walled in and
// a hunt of the spiders the night brings, with no death; the sheep on the
// grass leave the night's monsters their room (the cap counts monsters
// only). Before the fix of the cap no spider ever came.
func TestStringFromTheNight(t *testing.T) {
	if testing.Short() {
		t.Skip("two game days of fresh_start (about 3 s): not under -short")
	}
	race.SkipOneGoroutine(t, "two game days of fresh_start on one goroutine")
	sc, err := sim.Embedded("fresh_start")
	require.NoError(t, err)
	wild := *sc
	wild.Night, wild.Mobs, wild.Hunger = true, true, true
	s, err := sim.New(&wild, sim.Options{})
	require.NoError(t, err)
	reg := shipped(t)
	g, err := loop.ParseGoal("have 1 minecraft:string", reg.Tiers())
	require.NoError(t, err)
	reflexes := []loop.Reflex{
		loop.EscapeReflex{Air: loop.DefaultEscapeAir},
		loop.EatReflex{Threshold: loop.DefaultEatThreshold},
		loop.DefendReflex{Range: loop.DefaultDefendRange, FleeHealth: loop.DefaultFleeHealth, MinWeaponDamage: loop.DefaultMinWeaponDamage},
		&loop.RecoverReflex{},
		&loop.HuntReflex{Radius: loop.DefaultHuntRadius, MinHealth: loop.DefaultHuntHealth},
		&loop.ShelterReflex{From: loop.DefaultShelterFrom, Until: loop.DefaultShelterUntil},
		&loop.UnstuckReflex{Seconds: loop.DefaultUnstuckSeconds, Distance: loop.DefaultUnstuckDistance},
	}
	var waited, hunted bool
	l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(s), Planner: chain.Planner{}, Goal: g,
		MaxSteps: 400, Reflexes: reflexes, OnStep: func(r loop.StepRecord) {
			if r.Reflex == nil && r.Invocation != nil && r.Invocation.Skill == "shelter" && r.Before.TimeOfDay < loop.DefaultShelterFrom {
				waited = true // by day, the plan's own wait walled in
			}
			if r.Invocation != nil && r.Invocation.Skill == "hunt" && r.Invocation.Params["target"] == "spider" {
				hunted = true
			}
		}})
	require.NoError(t, err)
	out, err := l.Run(context.Background())
	require.NoError(t, err)
	require.Equal(t, loop.GoalMet, out.Reason, out.Why)
	w := look(t, s)
	assert.GreaterOrEqual(t, w.Inventory.Count(world.MustItem("minecraft:string")), 1)
	assert.Empty(t, s.Deaths(), "no death on the way")
	assert.True(t, waited, "the plan waited for the night walled in")
	assert.True(t, hunted, "a spider was hunted")
	assert.Less(t, w.Tick, int64(5*24000), "within five game days")
}
