package loop_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestRecoverReflexKeepsAwayFromTheKiller: the bot does not walk back
// into what killed it. A hostile mob within its follow range (and at
// least 16 blocks) of the way to the items holds the reflex back, a step
// at a time, until the way is clear; a farther one, or an animal, does
// not.
func TestRecoverReflexKeepsAwayFromTheKiller(t *testing.T) {
	mobs := rules.Default().Mobs
	zombie, ok := mobs.Kind("zombie")
	require.True(t, ok)
	spider, ok := mobs.Kind("spider")
	require.True(t, ok)
	// The items lie 40 blocks east of the bot's (0.5, 64, 0.5): the way
	// runs along z = 0.5, and a mob's distance from it is its z less 0.5.
	at := world.Vec3{X: 40.5, Y: 64, Z: 0.5}
	with := func(tick int64, es ...world.Entity) *world.Snapshot {
		w := snap(nil, nil)
		w.Tick = tick
		for i, e := range es {
			e.ID, e.Kind = 10+i, world.EntityMob
			w.Entities = append(w.Entities, e)
		}
		return w
	}
	mob := func(name string, x, fromWay float64) world.Entity {
		return world.Entity{Name: name, Pos: world.Vec3{X: x, Y: 64, Z: 0.5 + fromWay}}
	}
	for _, c := range []struct {
		name string
		mob  world.Entity
		want bool
	}{
		{"a zombie by the items, at its follow range", mob("zombie", 40.5, loop.GuardRange(zombie)), false},
		{"a zombie past its follow range", mob("zombie", 40.5, loop.GuardRange(zombie)+0.5), true},
		{"a zombie beyond the items, off the way's end", mob("zombie", 40.5+loop.GuardRange(zombie)+0.5, 0), true},
		{"a spider midway, 16 blocks off", mob("spider", 20.5, loop.GuardRange(spider)), false},
		{"a spider midway, 16.5 blocks off", mob("spider", 20.5, loop.GuardRange(spider)+0.5), true},
		{"a pig on the items", mob("pig", 40.5, 0), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &loop.RecoverReflex{}
			r.Stepped(loop.StepRecord{Before: loop.Summary{Tick: 100, Inventory: map[string]int{"minecraft:bread": 5}},
				Results: []ipc.Result{{Code: ipc.Rejected, Details: map[string]any{"died": true, "died_at": at}}}})
			inv, why, ok := r.Fire(with(200, c.mob))
			assert.Equal(t, c.want, ok, why)
			if ok {
				assert.Equal(t, "recover_drops", inv.Skill)
				assert.Contains(t, why, "no hostile mob near the way")
				return
			}
			// Held back, not given up: once the mob is gone, it goes.
			_, _, ok = r.Fire(with(300))
			assert.True(t, ok, "the way clear")
		})
	}
	assert.Equal(t, 40.0, loop.GuardRange(zombie), "config/mobs.yaml: a zombie follows from 40 blocks")
	assert.Equal(t, 16.0, loop.GuardRange(spider), "a spider's 16")
}
