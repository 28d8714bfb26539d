package gtnh

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestBoilerReadingGoesStale: a boiler's water read in its window counts
// as known until the boiler can have boiled a bucket since (bronze: 120 mB
// of steam a second, 160 mB of steam per mB of water, so 1000 mB in 26 641
// ticks); then its contents are unknown again. Buckets poured since do not
// renew the reading, and a pour into a stale reading teaches nothing.
func TestBoilerReadingGoesStale(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		spec := coalBoilers[100]
		read := gtMachine{meta: 100, waterFloor: 16000, floorTick: 100, readTick: 100, waterKnown: true}
		state := func(g gtMachine, now int64) world.Machine {
			var m world.Machine
			boilerState(&m, g, spec, now)
			return m
		}
		assert.False(t, state(read, 100+26640).ContentsUnknown, "999 mB boiled at most: still known")
		assert.Equal(t, 15001, state(read, 100+26640).Fluid("water").Amount)
		assert.True(t, state(read, 100+26641).ContentsUnknown, "a bucket can have boiled: unknown again")
		steel := coalBoilers[101]
		var m world.Machine
		// Steel: 300 mB of steam a second, a bucket can have boiled after 10 657 ticks.
		boilerState(&m, gtMachine{meta: 101, waterFloor: 32000, readTick: 0, waterKnown: true}, steel, 10656)
		assert.False(t, m.ContentsUnknown)
		boilerState(&m, gtMachine{meta: 101, waterFloor: 32000, readTick: 0, waterKnown: true}, steel, 10657)
		assert.True(t, m.ContentsUnknown)

		c := &Client{log: zerolog.Nop(), changed: make(chan struct{}), state: world.NewState(world.StateOptions{Rules: rules.Default()}), rules: rules.Default()}
		s := &session{mods: newModState()}
		pos := world.Pos(1, 2, 3)
		bucket, water := world.NewStack("minecraft:bucket", 0, 1), world.NewStack("minecraft:water_bucket", 0, 1)
		// Read at tick 0 with 8000 mB; a pour at tick 20 000 raises the bound
		// but leaves the reading's age.
		s.mods.gtm[pos] = gtMachine{meta: 100, waterFloor: 8000, waterKnown: true}
		c.ticks.Store(20000)
		c.noteUse(s, pos, water, bucket)
		g := s.mods.gtm[pos]
		assert.Equal(t, 8250, g.waterFloor, "8000 less at most 750 boiled, and the bucket")
		assert.Equal(t, int64(0), g.readTick, "a pour is no reading")
		c.ticks.Store(26641)
		c.noteUse(s, pos, water, bucket)
		assert.Equal(t, g, s.mods.gtm[pos], "a pour into a stale reading teaches nothing")
	})
}

// TestRefreshBoilers: the tick loop's refresh brings a known boiler's
// estimate up to date with no GregTech message about it: its water falls
// with time, and an old reading turns into unknown contents. Boilers never
// read are left alone.
func TestRefreshBoilers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &Client{log: zerolog.Nop(), changed: make(chan struct{}), state: world.NewState(world.StateOptions{Rules: rules.Default()}), rules: rules.Default()}
		s := &session{mods: newModState()}
		known, never := world.Pos(1, 2, 3), world.Pos(5, 2, 3)
		s.mods.gtm[known] = gtMachine{meta: 100, waterFloor: 16000, waterKnown: true}
		s.mods.gtm[never] = gtMachine{meta: 100, update: 1}
		at := func(pos world.BlockPos) (world.Machine, bool) {
			var m world.Machine
			var ok bool
			c.state.Update(func(tx *world.Tx) { m, ok = tx.Machine(pos) })
			return m, ok
		}
		c.refreshBoilers(s)
		m, ok := at(known)
		require.True(t, ok)
		assert.Equal(t, world.MachineSteamBoiler, m.Kind)
		assert.Equal(t, 16000, m.Fluid("water").Amount)
		assert.False(t, m.ContentsUnknown)
		_, ok = at(never)
		assert.False(t, ok, "a boiler never read is not refreshed")

		c.ticks.Store(3200)
		c.refreshBoilers(s)
		m, _ = at(known)
		assert.Equal(t, 15880, m.Fluid("water").Amount, "3200 ticks boil at most 120 mB of water")
		assert.False(t, m.ContentsUnknown)
		c.ticks.Store(26641)
		c.refreshBoilers(s)
		m, _ = at(known)
		assert.True(t, m.ContentsUnknown, "the reading is a bucket old")
	})
}

// TestBoilerEstimateFollowsTime: on a live connection, after the window
// showed a boiler's water, the world model's lower bound falls as the
// client's ticks pass, with no GregTech message about the boiler (the tick
// loop's refresh).
func TestBoilerEstimateFollowsTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := steamAgeServer(t, true, func(o *fakeserver.Options) { o.Boilers[0].Water = 9000 })
		ctx := context.Background()
		boiler := world.Pos(13, 64, 2)
		machine(t, c, world.MachineSteamBoiler, boiler)
		for _, a := range []action.Action{action.MoveTo{Pos: world.Pos(13, 64, 4), Radius: 1}, action.OpenContainer{Pos: boiler}, action.CloseContainer{}} {
			r := c.Execute(ctx, a)
			require.Equal(t, ipc.OK, r.Code, r.Error)
		}
		read := machine(t, c, world.MachineSteamBoiler, boiler).Fluid("water").Amount
		require.InDelta(t, 9000, read, 5)
		eventually(t, "the bound falls with time", func() bool {
			return machine(t, c, world.MachineSteamBoiler, boiler).Fluid("water").Amount < read-4
		})
	})
}
