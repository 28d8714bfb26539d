package main

import (
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// steamBoiler is the steam-age base's coal boiler.
var steamBoiler = world.Pos(13, 64, 2)

// boilerRun runs `agent run --goal GOAL` against the steam-age test server
// without its water tank (the boiler is the only machine wanting water),
// with two water buckets and 32 coal, after mutate changed the options; it
// returns the server, the exit code, the output and the trace's steps.
func boilerRun(t *testing.T, goal string, mutate func(*fakeserver.Options)) (*fakeserver.Server, int, string, []loop.StepRecord) {
	t.Helper()
	o := steamAgeOptions("neid",
		fakeserver.Item{Slot: 36, Name: "minecraft:iron_axe", Count: 1}, fakeserver.Item{Slot: 37, Name: "minecraft:coal", Count: 32},
		fakeserver.Item{Slot: 38, Name: "minecraft:water_bucket", Count: 1}, fakeserver.Item{Slot: 39, Name: "minecraft:water_bucket", Count: 1})
	o.WaterTanks = nil
	if mutate != nil {
		mutate(&o)
	}
	return steamAgeRun(t, o, goal, 4)
}

// TestRunRefillWaterTanksFullBoiler: the boiler is full, which the bot
// cannot tell from GregTech's tile message. It looks into the boiler first
// (a step that reaches no effect), sees it full and pours nothing: the goal
// is not met and the server's boiler and the bot's buckets are unchanged.
// Before, the bot poured both buckets blind (the server empties a bucket on
// a full boiler too) and took its raised belief of the water for a success.
func TestRunRefillWaterTanksFullBoiler(t *testing.T) {
	for _, tc := range []struct {
		name     string
		steel    bool
		capacity int
	}{{"bronze", false, 16000}, {"steel", true, 32000}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv, code, out, steps := boilerRun(t, "run refill_water_tanks", func(o *fakeserver.Options) {
					o.Boilers[0].Steel, o.Boilers[0].Water = tc.steel, tc.capacity
				})
				assert.NotEqual(t, exitOK, code, out)
				assert.NotContains(t, out, "goal met")
				require.Len(t, steps, 2, out)
				assert.Equal(t, loop.Looked, steps[0].Verdict, "looking into the boiler waters nothing: %+v", steps[0])
				assert.Equal(t, loop.Noop, steps[1].Verdict, "the boiler is known to be full: nothing to do: %+v", steps[1])
				for _, s := range steps {
					assert.NotEqual(t, loop.Success, s.Verdict, "%+v", s)
				}
				water, ok := srv.BoilerWater(steamBoiler)
				require.True(t, ok)
				assert.Equal(t, tc.capacity, water, "the server's boiler is unchanged")
				assert.Equal(t, 2, player(t, srv).Count("minecraft:water_bucket"), "no bucket was poured")
				assert.Zero(t, player(t, srv).Count("minecraft:bucket"))
			})
		})
	}
}

// TestRunRefillWaterTanksBoilerReadsTheServer: on the boiler holding
// 6000 mB the bot looks first, then pours both buckets and opens the
// boiler's window again: the effect is checked on the 8000 mB the server's
// window showed.
func TestRunRefillWaterTanksBoilerReadsTheServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, code, out, steps := boilerRun(t, "run refill_water_tanks", nil)
		require.Equal(t, exitOK, code, out)
		assert.Contains(t, out, "goal met")
		require.Len(t, steps, 2, out)
		assert.Equal(t, loop.Looked, steps[0].Verdict, "looking into the boiler waters nothing: %+v", steps[0])
		assert.Equal(t, loop.Success, steps[1].Verdict, "%+v", steps[1])
		// The step ends by reading the boiler's window after the pour.
		acts := steps[1].Actions
		require.GreaterOrEqual(t, len(acts), 2)
		assert.Equal(t, action.OpenContainer{Pos: steamBoiler}, acts[len(acts)-2].Action)
		assert.Equal(t, action.CloseContainer{}, acts[len(acts)-1].Action)
		var checked bool
		for _, e := range steps[1].Effects {
			if strings.HasPrefix(e.Effect, "steam_boiler water") {
				checked = true
				// Read at 8000 mB; the client lowers a reading by what the
				// boiler may have boiled since (under 1 mB a second).
				assert.InDelta(t, 8000, e.After, 5, "the water the server's window showed: %+v", e)
				assert.True(t, e.OK, "%+v", e)
			}
		}
		assert.True(t, checked, "%+v", steps[1].Effects)
		water, _ := srv.BoilerWater(steamBoiler)
		assert.Equal(t, 8000, water)
	})
}

// TestRunFeedSteamBoilerLooksFirst: feed_steam_boiler looks into the boiler
// it knows only from its tile message, then fuels it by what the window
// showed: here a fuel slot already holding 10 coal, topped up to 16 (a
// blind deposit would have put 16 more).
func TestRunFeedSteamBoilerLooksFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, code, out, steps := boilerRun(t, "run feed_steam_boiler", func(o *fakeserver.Options) {
			o.Boilers[0].Fuel = fakeserver.Item{Name: "minecraft:coal", Count: 10}
		})
		require.Equal(t, exitOK, code, out)
		assert.Contains(t, out, "goal met")
		require.Len(t, steps, 2, out)
		assert.Equal(t, loop.Looked, steps[0].Verdict, "looking into the boiler fuels nothing: %+v", steps[0])
		assert.Equal(t, loop.Success, steps[1].Verdict, "%+v", steps[1])
		items, _ := srv.ContainerItems(steamBoiler)
		assert.Equal(t, "minecraft:coal", items["fuel"].Name)
		assert.Equal(t, 16, items["fuel"].Count, "topped up to amount on the server")
		assert.Equal(t, 26, player(t, srv).Count("minecraft:coal"))
	})
}

// TestRunRefillWaterTanksHotDryBoiler: the boiler ran dry at 450 °C. The
// bot cannot tell that from GregTech's tile message; it looks into the
// boiler, reads no water and 450 °C in its window, and refuses to water it
// (water would make it explode): no bucket reaches the server's boiler.
func TestRunRefillWaterTanksHotDryBoiler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, code, out, steps := boilerRun(t, "run refill_water_tanks", func(o *fakeserver.Options) {
			o.Boilers[0].Water, o.Boilers[0].Temperature, o.Boilers[0].Boiling = 0, 450, false
		})
		assert.NotEqual(t, exitOK, code, out)
		assert.NotContains(t, out, "goal met")
		require.GreaterOrEqual(t, len(steps), 2, out)
		assert.Equal(t, loop.Looked, steps[0].Verdict, "looking into the boiler waters nothing: %+v", steps[0])
		assert.Equal(t, loop.SkillFailed, steps[1].Verdict, "%+v", steps[1])
		assert.Equal(t, "unsafe", steps[1].Code, "%+v", steps[1])
		for _, s := range steps {
			assert.NotEqual(t, loop.Success, s.Verdict, "%+v", s)
		}
		water, _ := srv.BoilerWater(steamBoiler)
		assert.Zero(t, water, "no water reached the hot dry boiler")
		assert.Equal(t, 2, player(t, srv).Count("minecraft:water_bucket"))
	})
}

// TestRunBoilerSkillsAgainstAModularUIServer: against a server whose
// GregTech windows sync as ModularUI 1 does (only after the client's
// SYNC_INIT), `run feed_steam_boiler` and `run refill_water_tanks` look
// into the boiler (a step of its own, "looked") and then reach its fuel slot
// and its tank, checked on the server.
func TestRunBoilerSkillsAgainstAModularUIServer(t *testing.T) {
	t.Run("feed_steam_boiler", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			srv, code, out, steps := boilerRun(t, "run feed_steam_boiler", func(o *fakeserver.Options) { o.ModularUI = fakeserver.ModularUIFollow })
			require.Equal(t, exitOK, code, out)
			require.Len(t, steps, 2, out)
			assert.Equal(t, loop.Looked, steps[0].Verdict, "%+v", steps[0])
			assert.Equal(t, loop.Success, steps[1].Verdict, "%+v", steps[1])
			assert.Contains(t, out, "feed_steam_boiler    1/1 steps succeeded (and 1 looked into machines first)", "the look is no failed attempt")
			items, _ := srv.ContainerItems(steamBoiler)
			assert.Equal(t, "minecraft:coal", items["fuel"].Name, "the server's fuel slot")
			assert.Equal(t, 16, items["fuel"].Count, "the server's fuel slot")
		})
	})
	t.Run("refill_water_tanks", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			srv, code, out, steps := boilerRun(t, "run refill_water_tanks", nil)
			require.Equal(t, exitOK, code, out)
			require.Len(t, steps, 2, out)
			assert.Equal(t, loop.Looked, steps[0].Verdict, "%+v", steps[0])
			assert.Equal(t, loop.Success, steps[1].Verdict, "%+v", steps[1])
			water, _ := srv.BoilerWater(steamBoiler)
			assert.Equal(t, 8000, water, "two buckets reached the server's boiler")
		})
	})
}

// TestRunBoilerSkillsAgainstASilentServer: against a server whose boiler
// window never sends its values (another ModularUI), both skills open the
// boiler, read nothing, and the run ends with the reason ("the boiler's
// window sent no water level"), not unmet effects; no coal and no water
// reach the boiler, whose water and heat the bot cannot know.
func TestRunBoilerSkillsAgainstASilentServer(t *testing.T) {
	for _, goal := range []string{"run feed_steam_boiler", "run refill_water_tanks"} {
		t.Run(goal, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv, code, out, steps := boilerRun(t, goal, func(o *fakeserver.Options) { o.ModularUI = fakeserver.ModularUISilent })
				assert.NotEqual(t, exitOK, code, out)
				assert.NotContains(t, out, "goal met")
				assert.Contains(t, out, "the boiler's window sent no water level", "the output says why")
				require.NotEmpty(t, steps, out)
				for _, s := range steps {
					assert.NotEqual(t, loop.EffectsUnmet, s.Verdict, "%+v", s)
					assert.NotEqual(t, loop.Success, s.Verdict, "%+v", s)
				}
				assert.Equal(t, loop.ActionFailed, steps[0].Verdict, "%+v", steps[0])
				assert.Equal(t, loop.CodeContentsUnread, steps[0].Code)
				assert.Contains(t, steps[0].Error, "the boiler's window sent no water level")
				items, _ := srv.ContainerItems(steamBoiler)
				assert.Empty(t, items["fuel"].Name, "no coal in the server's boiler")
				water, _ := srv.BoilerWater(steamBoiler)
				assert.Equal(t, 6000, water, "no bucket reached the server's boiler")
				assert.Equal(t, 2, player(t, srv).Count("minecraft:water_bucket"))
			})
		})
	}
}
