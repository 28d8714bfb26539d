package gtnh_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestDigThroughFallingGravelLive: the only way past a bedrock wall is a
// gap filled with a column of three gravel. Each dig of the gap's lower
// block lets the gravel above fall into it — the server sends the block
// change to air, the falling-block entity and the block where it lands —
// and move_to, finding gravel where its route had dug, plans again and
// digs it out (or climbs what is left), and the player gets through.
// Every dig is accepted and nothing is corrected.
func TestDigThroughFallingGravelLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var blocks []fakeserver.Block
		for y := 64; y <= 67; y++ {
			for z := -32; z < 48; z++ { // the whole world
				name := "minecraft:bedrock"
				if z == 8 && y <= 66 {
					name = "minecraft:gravel"
				}
				blocks = append(blocks, fakeserver.Block{X: 10, Y: y, Z: z, Name: name})
			}
		}
		srv := digServer(t, world.Pos(8, 64, 8), blocks)
		c := joinLive(t, srv)
		goal := world.Pos(12, 64, 8)
		res := c.Execute(context.Background(), action.MoveTo{Pos: goal})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		p, ok := srv.Player("Bot")
		require.True(t, ok)
		assert.Equal(t, goal, p.Pos.Block(), "through the gap")
		require.NotEmpty(t, srv.Falls(), "the gravel fell into the dug gap")
		for _, f := range srv.Falls() {
			assert.Equal(t, "minecraft:gravel", f.Block)
			assert.Less(t, f.To.Y, f.From.Y)
		}
		landed := map[world.BlockPos]bool{}
		for _, f := range srv.Falls() {
			landed[f.To] = true
		}
		gravel, refills := 0, 0
		for _, d := range srv.Digs() {
			if d.Block == "minecraft:gravel" && d.Accepted {
				gravel++
				if landed[d.Pos] && gravel > 1 {
					refills++
				}
			}
		}
		assert.GreaterOrEqual(t, refills, 1, "gravel that fell into the route was dug out again")
		assert.Equal(t, gravel, serverCount(t, srv, "minecraft:gravel"), "each dug gravel collected")
		assert.Empty(t, srv.Refusals())
	})
}

// TestBreakUnderGravelLive: break_block on a gravel block with gravel on
// it succeeds: the server shows the block as air, then the gravel above
// lands in its place in the same tick; the dig is the server's all the
// same, and its drop is collected.
func TestBreakUnderGravelLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := digServer(t, world.Pos(8, 64, 8), []fakeserver.Block{
			{X: 10, Y: 64, Z: 8, Name: "minecraft:gravel"}, {X: 10, Y: 65, Z: 8, Name: "minecraft:gravel"}})
		c := joinLive(t, srv)
		res := c.Execute(context.Background(), action.BreakBlock{Pos: world.Pos(10, 64, 8)})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		name, _ := srv.BlockAt(10, 64, 8)
		assert.Equal(t, "minecraft:gravel", name, "the upper gravel fell into its place")
		assert.Equal(t, 1, serverCount(t, srv, "minecraft:gravel"))
		assert.Empty(t, srv.Refusals())
	})
}

// TestWaitOutlastsTheActionTimeout: a wait asks for its ticks, however
// many: 3,000 ticks at 5 ms are 15 s, past a 10 s action time limit.
func TestWaitOutlastsTheActionTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := digServer(t, world.Pos(8, 64, 8), nil)
		c, err := gtnh.New(gtnh.Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: liveTick, ActionTimeout: 10 * time.Second,
			Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		require.NoError(t, c.Open(context.Background()))
		res := c.Execute(context.Background(), action.Wait{Ticks: 3000})
		assert.Equal(t, ipc.OK, res.Code, res.Error)
	})
}
