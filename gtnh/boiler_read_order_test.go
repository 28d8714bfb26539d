package gtnh

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestBoilerWaterReachesTheWorldFirst: a coal boiler's window counts its
// water as seen (what open_container waits for) only once the world model
// holds the reading. The loop observes the world as soon as the look ends;
// when the window counted the water first, the loop could see the
// estimate the reading replaces (1 mB in a boiler that is in fact full,
// known) and plan two buckets into a full boiler. The test looks at the
// world at the first moment another goroutine can after each bar was
// applied, so the bad order is not left to the scheduler.
func TestBoilerWaterReachesTheWorldFirst(t *testing.T) {
	for _, tc := range []struct {
		name     string
		steel    bool
		capacity int
	}{{"bronze", false, 16000}, {"steel", true, 32000}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				o := fakeserver.Options{TickDuration: 5 * time.Millisecond}
				fakeserver.SteamAge(&o)
				o.Boilers[0].Steel, o.Boilers[0].Water = tc.steel, tc.capacity
				srv, err := fakeserver.New(inMemory(o))
				require.NoError(t, err)
				t.Cleanup(srv.Close)
				c, err := New(Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: 5 * time.Millisecond,
					Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
				require.NoError(t, err)
				t.Cleanup(func() { c.Close() })
				boiler := world.Pos(13, 64, 2)
				checks := 0
				c.inventoryApplied = func() {
					c.mu.Lock()
					defer c.mu.Unlock()
					s := c.sess
					if s == nil || s.inv.open == nil || !s.inv.open.waterSeen {
						return
					}
					checks++
					var m world.Machine
					for _, x := range c.state.Snapshot().Machines {
						if x.Pos == boiler {
							m = x
						}
					}
					require.Equal(t, boiler, m.Pos, "the boiler is in the world")
					assert.False(t, m.ContentsUnknown, "the water is known once the window counts it seen")
					assert.InDelta(t, tc.capacity, m.Fluids["water"].Amount, 5, "the world holds the window's reading once the window counts it seen")
				}
				require.NoError(t, c.Open(context.Background()))
				for _, a := range []action.Action{action.MoveTo{Pos: world.Pos(13, 64, 4), Radius: 1}, action.OpenContainer{Pos: boiler}} {
					r := c.Execute(context.Background(), a)
					require.Equal(t, ipc.OK, r.Code, "%s: %s", a.Kind(), r.Error)
					if _, open := a.(action.OpenContainer); open {
						assert.Equal(t, true, r.Details["contents_read"], "%+v", r.Details)
					}
				}
				c.mu.Lock()
				defer c.mu.Unlock()
				assert.Positive(t, checks, "the water bar and the bar after it were looked at")
			})
		})
	}
}
