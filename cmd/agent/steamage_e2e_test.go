package main

import (
	"context"
	"io/fs"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/base"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestSteamAgeSkillsOnAFakeServer: `agent run` with the four steam-age
// skills against the test server's steam-age base (a formed Railcraft coke
// oven, a boiling GregTech coal boiler), in NotEnoughIds and vanilla chunk
// formats. The machines are found from the world (mod messages, no window
// opened first), the skills reach their declared effects (the coke oven and
// the boiler after a step that looks into them), and the server's own
// containers and tanks changed.
func TestSteamAgeSkillsOnAFakeServer(t *testing.T) {
	const tick = 5 * time.Millisecond
	boiler := world.Pos(13, 64, 2)
	cases := []struct {
		goal  string
		check func(t *testing.T, srv *fakeserver.Server)
	}{
		{"run feed_coke_ovens", func(t *testing.T, srv *fakeserver.Server) {
			items, _ := srv.ContainerItems(master)
			assert.Equal(t, "minecraft:coal", items["input"].Name)
			assert.Equal(t, 16, items["input"].Count, "16 coal (per_oven) reached the server's oven")
			assert.Equal(t, 16, player(t, srv).Count("minecraft:coal"))
		}},
		{"run feed_steam_boiler", func(t *testing.T, srv *fakeserver.Server) {
			items, _ := srv.ContainerItems(boiler)
			assert.Equal(t, "minecraft:coal", items["fuel"].Name)
			assert.Equal(t, 16, items["fuel"].Count, "16 coal reached the server's fuel slot")
		}},
		{"run refill_water_tanks", func(t *testing.T, srv *fakeserver.Server) {
			water, ok := srv.BoilerWater(boiler)
			require.True(t, ok)
			assert.Equal(t, 8000, water, "both water buckets went into the server's boiler")
			assert.Equal(t, 2, player(t, srv).Count("minecraft:bucket"))
			assert.Zero(t, player(t, srv).Count("minecraft:water_bucket"))
		}},
	}
	for _, format := range []struct{ name string }{{"neid"}, {"vanilla"}} {
		for _, tc := range cases {
			t.Run(format.name+"/"+tc.goal, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					o := steamAgeOptions(format.name,
						fakeserver.Item{Slot: 36, Name: "minecraft:iron_axe", Count: 1}, fakeserver.Item{Slot: 37, Name: "minecraft:coal", Count: 32},
						fakeserver.Item{Slot: 38, Name: "minecraft:water_bucket", Count: 1}, fakeserver.Item{Slot: 39, Name: "minecraft:water_bucket", Count: 1})
					if tc.goal == "run refill_water_tanks" {
						// The water tank, whose water the bot knows from its
						// tile data, would take the buckets while the boiler
						// is looked into.
						o.WaterTanks = nil
					}
					srv, err := fakeserver.New(inMemory(o))
					require.NoError(t, err)
					defer srv.Close()
					code, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot",
						"--goal", tc.goal, "--config-file", agentYAML(t, tick), "--max-steps", "8")
					require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
					assert.Contains(t, out, "goal met")
					assert.Empty(t, srv.Kicks())
					tc.check(t, srv)
				})
			})
		}
	}
}

// player is the bot as the server saved it after the run.
func player(t *testing.T, srv *fakeserver.Server) fakeserver.PlayerInfo {
	t.Helper()
	p, ok := srv.Player("Bot")
	require.True(t, ok)
	return p
}

// TestMaintainCokeOvensOnAFakeServer: the live client learns a coke oven's
// output only from its window (Railcraft sends no inventory outside it);
// feed_coke_ovens looks into it first, then loads it; after that,
// maintain_coke_ovens
// collects the coke at once (alone, it looks first:
// TestRunMaintainCokeOvensOnAFakeServer). Both skills run on the live client against the test
// server, their declared effects are checked as the loop checks them, and
// the server's oven and player inventory changed.
func TestMaintainCokeOvensOnAFakeServer(t *testing.T) {
	for _, format := range []string{"neid", "vanilla"} {
		t.Run(format, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				const tick = 5 * time.Millisecond
				o := steamAgeOptions(format,
					fakeserver.Item{Slot: 36, Name: "minecraft:iron_axe", Count: 1}, fakeserver.Item{Slot: 37, Name: "minecraft:coal", Count: 32})
				srv, err := fakeserver.New(inMemory(o))
				require.NoError(t, err)
				defer srv.Close()
				c, err := gtnh.New(gtnh.Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: tick,
					Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
				require.NoError(t, err)
				defer c.Close()
				require.NoError(t, c.Open(context.Background()))
				for _, sk := range []struct {
					impl skills.Implementation
					p    skills.Params
				}{
					{base.FeedCokeOvens{}, skills.Params{"radius": 24, "per_oven": 16, "fuel": "ore:gemCoal"}},
					{base.MaintainCokeOvens{}, skills.Params{"radius": 24, "min_output": 1, "drain_threshold": 0.75}},
				} {
					data, err := fs.ReadFile(config.FS, "skills/"+sk.impl.Name()+".yaml")
					require.NoError(t, err)
					spec, err := skills.ParseSpec(sk.impl.Name()+".yaml", data)
					require.NoError(t, err)
					invoke := func() bool {
						before := c.State().Snapshot()
						acts, err := sk.impl.SuggestActions(before, sk.p)
						require.NoError(t, err, sk.impl.Name())
						require.NotEmpty(t, acts, sk.impl.Name())
						for _, a := range acts {
							r := c.Execute(context.Background(), a)
							require.Equal(t, ipc.OK, r.Code, "%s: %T %+v: %s", sk.impl.Name(), a, a, r.Error)
						}
						_, ok := loop.VerifyEffects(spec, sk.p, before, c.State().Snapshot(), rules.Default().Tiers, nil)
						return ok
					}
					if sk.impl.Name() == "feed_coke_ovens" {
						// The oven is known from its bricks only: the first
						// invocation looks into it and loads nothing.
						assert.False(t, invoke(), "a look meets no effect")
					}
					assert.True(t, invoke(), sk.impl.Name())
				}
				require.NoError(t, c.Close())
				items, _ := srv.ContainerItems(master)
				assert.NotContains(t, items, "output", "the server's output slot was emptied")
				assert.Equal(t, 16, items["input"].Count)
				assert.Equal(t, 12, player(t, srv).Count(fakeserver.CokeItem), "the coke is in the player's inventory on the server")
			})
		})
	}
}

// master is the steam-age coke oven's master brick.
var master = world.Pos(3, 64, 1)

// TestSteelBoilerSkillsOnAFakeServer: the steam-age base's boiler is the
// steel high pressure coal boiler (meta tile entity 101, 32 000 mB tanks).
// feed_steam_boiler and refill_water_tanks find it from its tile message
// and reach their effects after looking into it (the steam-age base's
// water tank is left out: it would take the buckets meanwhile); the
// server's boiler changed. Its 15 500 mB are
// under half of its tank, so it wants water (a bronze boiler's 16 000 mB
// tank would be nearly full), and the two buckets go past 16 000 mB.
func TestSteelBoilerSkillsOnAFakeServer(t *testing.T) {
	const tick = 5 * time.Millisecond
	boiler := world.Pos(13, 64, 2)
	for _, tc := range []struct {
		goal  string
		check func(t *testing.T, srv *fakeserver.Server)
	}{
		{"run feed_steam_boiler", func(t *testing.T, srv *fakeserver.Server) {
			items, _ := srv.ContainerItems(boiler)
			assert.Equal(t, "minecraft:coal", items["fuel"].Name)
			assert.Equal(t, 16, items["fuel"].Count, "16 coal reached the server's fuel slot")
		}},
		{"run refill_water_tanks", func(t *testing.T, srv *fakeserver.Server) {
			water, ok := srv.BoilerWater(boiler)
			require.True(t, ok)
			assert.Equal(t, 17500, water, "both water buckets went into the server's steel boiler")
			assert.Equal(t, 2, player(t, srv).Count("minecraft:bucket"))
		}},
	} {
		t.Run(tc.goal, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				o := steamAgeOptions("neid",
					fakeserver.Item{Slot: 36, Name: "minecraft:iron_axe", Count: 1}, fakeserver.Item{Slot: 37, Name: "minecraft:coal", Count: 32},
					fakeserver.Item{Slot: 38, Name: "minecraft:water_bucket", Count: 1}, fakeserver.Item{Slot: 39, Name: "minecraft:water_bucket", Count: 1})
				o.Boilers[0].Steel, o.Boilers[0].Water = true, 15500
				o.WaterTanks = nil
				srv, err := fakeserver.New(inMemory(o))
				require.NoError(t, err)
				defer srv.Close()
				code, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot",
					"--goal", tc.goal, "--config-file", agentYAML(t, tick), "--max-steps", "8")
				require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
				assert.Contains(t, out, "goal met")
				assert.Empty(t, srv.Kicks())
				tc.check(t, srv)
			})
		})
	}
}

// feedRun runs `agent run --goal "run feed_coke_ovens"` against the
// steam-age test server, whose coke oven's input holds input, and returns
// the server, the exit code, the output and the trace's steps.
func feedRun(t *testing.T, input fakeserver.Item) (*fakeserver.Server, int, string, []loop.StepRecord) {
	t.Helper()
	o := steamAgeOptions("neid", fakeserver.Item{Slot: 36, Name: "minecraft:iron_axe", Count: 1}, fakeserver.Item{Slot: 37, Name: "minecraft:coal", Count: 32})
	require.Len(t, o.CokeOvens, 1)
	o.CokeOvens[0].Input = input
	return steamAgeRun(t, o, "run feed_coke_ovens", 6)
}

// TestRunFeedCokeOvensOvenHoldsCoal: the oven already holds 10 coal, which
// the bot cannot know from the bricks' messages. It looks first (a step
// that loads nothing), then tops the input up to 16; a blind deposit of 16
// would have left 26 on the server.
func TestRunFeedCokeOvensOvenHoldsCoal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, code, out, steps := feedRun(t, fakeserver.Item{Name: "minecraft:coal", Count: 10})
		require.Equal(t, exitOK, code, out)
		assert.Contains(t, out, "goal met")
		require.Len(t, steps, 2, out)
		assert.Equal(t, loop.Looked, steps[0].Verdict, "looking into the oven loads nothing")
		assert.Equal(t, loop.Success, steps[1].Verdict, "%+v", steps[1])
		items, _ := srv.ContainerItems(master)
		assert.Equal(t, fakeserver.Item{Name: "minecraft:coal", Count: 16}, items["input"], "topped up to per_oven on the server")
		assert.Equal(t, 26, player(t, srv).Count("minecraft:coal"))
	})
}

// TestRunFeedCokeOvensOvenHoldsCharcoal: the oven's input holds charcoal,
// which coal does not stack with: after the look the skill reports the
// oven busy with another input and puts nothing in (a blind deposit would
// have been refused by the slot after the window was opened).
func TestRunFeedCokeOvensOvenHoldsCharcoal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, code, out, steps := feedRun(t, fakeserver.Item{Name: "minecraft:coal", Damage: 1, Count: 5})
		assert.NotEqual(t, exitOK, code, out)
		assert.NotContains(t, out, "goal met")
		require.NotEmpty(t, steps, out)
		assert.Equal(t, loop.Looked, steps[0].Verdict, "looking into the oven loads nothing")
		for _, s := range steps[1:] {
			assert.Equal(t, loop.SkillFailed, s.Verdict, "%+v", s)
			assert.Contains(t, s.Error, "another input", "%+v", s)
		}
		for _, s := range steps {
			assert.NotEqual(t, loop.ActionFailed, s.Verdict, "no deposit was tried: %+v", s)
		}
		items, _ := srv.ContainerItems(master)
		assert.Equal(t, fakeserver.Item{Name: "minecraft:coal", Damage: 1, Count: 5}, items["input"])
		assert.Equal(t, 32, player(t, srv).Count("minecraft:coal"))
	})
}
