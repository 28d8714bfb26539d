package main

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestRefillWaterTankOnAFakeServer: `agent run --goal "run refill_water_tanks"`
// against the test server's steam-age base: the Railcraft water tank
// (20 000 of 400 000 mB, known from its blocks' tile data) is the only
// known target, the boiler is only looked into. Both water buckets go into
// the server's tank, and the goal is met because the bot read the new
// amount from the tank's window, in NotEnoughIds and vanilla chunk formats.
func TestRefillWaterTankOnAFakeServer(t *testing.T) {
	const tick = 5 * time.Millisecond
	tank := world.Pos(15, 64, 13)
	for _, format := range []string{"neid", "vanilla"} {
		t.Run(format, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				o := steamAgeOptions(format,
					fakeserver.Item{Slot: 36, Name: "minecraft:iron_axe", Count: 1},
					fakeserver.Item{Slot: 38, Name: "minecraft:water_bucket", Count: 1}, fakeserver.Item{Slot: 39, Name: "minecraft:water_bucket", Count: 1})
				// The boiler (6000 mB) is nearer, but its water is unknown
				// until its window is opened: the bot looks into it and pours
				// into the tank it knows.
				srv, err := fakeserver.New(inMemory(o))
				require.NoError(t, err)
				defer srv.Close()
				code, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot",
					"--goal", "run refill_water_tanks", "--config-file", agentYAML(t, tick), "--max-steps", "4")
				require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
				assert.Contains(t, out, "goal met")
				assert.Empty(t, srv.Kicks())
				water, ok := srv.TankWater(tank)
				require.True(t, ok)
				assert.Equal(t, 22000, water, "both water buckets went into the server's tank\n%s", out)
				assert.Equal(t, 2, player(t, srv).Count("minecraft:bucket"))
				assert.Zero(t, player(t, srv).Count("minecraft:water_bucket"))
				boiler, _ := srv.BoilerWater(world.Pos(13, 64, 2))
				assert.Equal(t, 6000, boiler, "the boiler was only looked into")
			})
		})
	}
}

// TestRefillIronTankOnAFakeServer: the same run with a Railcraft iron tank
// (3×3×4 inside, 20 000 of 576 000 mB) in place of the water tank: it is a
// water_tank from its master's tile data, its water named through the
// server's fluid map, and both buckets go into the server's tank, in
// NotEnoughIds and vanilla chunk formats.
func TestRefillIronTankOnAFakeServer(t *testing.T) {
	const tick = 5 * time.Millisecond
	iron := fakeserver.IronTank{X: 14, Y: 64, Z: 12, Water: 20000}
	for _, format := range []string{"neid", "vanilla"} {
		t.Run(format, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				o := steamAgeOptions(format,
					fakeserver.Item{Slot: 36, Name: "minecraft:iron_axe", Count: 1},
					fakeserver.Item{Slot: 38, Name: "minecraft:water_bucket", Count: 1}, fakeserver.Item{Slot: 39, Name: "minecraft:water_bucket", Count: 1})
				o.Boilers, o.WaterTanks = nil, nil
				o.IronTanks = []fakeserver.IronTank{iron}
				srv, err := fakeserver.New(inMemory(o))
				require.NoError(t, err)
				defer srv.Close()
				code, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot",
					"--goal", "run refill_water_tanks", "--config-file", agentYAML(t, tick), "--max-steps", "4")
				require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
				assert.Contains(t, out, "goal met")
				assert.Empty(t, srv.Kicks())
				water, ok := srv.TankWater(iron.Master())
				require.True(t, ok)
				assert.Equal(t, 22000, water, "both water buckets went into the server's iron tank\n%s", out)
				assert.Equal(t, 2, player(t, srv).Count("minecraft:bucket"))
				assert.Zero(t, player(t, srv).Count("minecraft:water_bucket"))
			})
		})
	}
}
