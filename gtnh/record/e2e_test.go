package record

import (
	"bytes"
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
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

const tick = 5 * time.Millisecond

// chunkFormats are the two chunk formats of the test server.
var chunkFormats = []struct {
	name string
	mods []proto17.ModInfo
	neid bool
}{
	{"neid", fakeserver.DefaultMods(), true},
	{"vanilla", fakeserver.WithoutMod(fakeserver.DefaultMods(), proto17.ModNEID), false},
}

// recordSession plays a short session against the test server while
// recording it: join, take the axe, walk to the tree east of the spawn,
// fell two logs (which the bot collects). It returns the recording and
// the world as the live client had it at the end.
func recordSession(t *testing.T, mods []proto17.ModInfo, logs int) ([]byte, *world.Snapshot, gtnh.Stats) {
	t.Helper()
	srv, err := fakeserver.New(fakeserver.Options{Addr: fakeserver.MemoryAddr(), Mods: mods, TickDuration: tick, ViewRadius: 1, RegistryFiller: -1})
	require.NoError(t, err)
	defer srv.Close()
	var buf bytes.Buffer
	rec, err := NewRecorder(&buf, RecorderOptions{})
	require.NoError(t, err)
	c, err := gtnh.New(gtnh.Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: tick, Tap: rec,
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
	require.NoError(t, err)
	defer c.Close()
	ctx := context.Background()
	require.NoError(t, c.Open(ctx))
	require.Equal(t, ipc.OK, c.Execute(ctx, action.Equip{Item: "tool:axe"}).Code)
	res := c.Execute(ctx, action.MoveTo{Pos: world.Pos(11, 64, 8)})
	require.Equal(t, ipc.OK, res.Code, res.Error)
	for y := 64; y < 64+logs; y++ {
		res = c.Execute(ctx, action.BreakBlock{Pos: world.Pos(12, y, 8)})
		require.Equal(t, ipc.OK, res.Code, res.Error)
	}
	live := c.State().Snapshot()
	stats := c.Stats()
	require.NoError(t, c.Close())
	require.NoError(t, rec.Close())
	return buf.Bytes(), live, stats
}

// assertSameWorld compares what the bot knew: position, inventory, the
// loaded columns and every block in them, machines and entities.
func assertSameWorld(t *testing.T, want, got *world.Snapshot) {
	t.Helper()
	assert.InDelta(t, want.Player.Pos.X, got.Player.Pos.X, 1e-9, "x")
	assert.InDelta(t, want.Player.Pos.Y, got.Player.Pos.Y, 1e-9, "y")
	assert.InDelta(t, want.Player.Pos.Z, got.Player.Pos.Z, 1e-9, "z")
	assert.Equal(t, want.Player.Name, got.Player.Name)
	assert.Equal(t, want.Player.Dimension, got.Player.Dimension)
	assert.Equal(t, want.Player.Health, got.Player.Health)
	assert.Equal(t, want.Player.Food, got.Player.Food)
	assert.Equal(t, want.Inventory, got.Inventory)
	assert.Equal(t, want.Machines, got.Machines)
	assert.ElementsMatch(t, want.Entities, got.Entities)
	cols := Columns(want)
	require.NotEmpty(t, cols)
	require.Equal(t, cols, Columns(got))
	wc, gc := want.Blocks.(*chunk.Chunks), got.Blocks.(*chunk.Chunks)
	diffs := 0
	for _, p := range cols {
		a, b := wc.Column(p.X, p.Z), gc.Column(p.X, p.Z)
		for y := 0; y < chunk.WorldHeight; y++ {
			for z := 0; z < 16; z++ {
				for x := 0; x < 16; x++ {
					if a.StateAt(x, y, z) != b.StateAt(x, y, z) {
						diffs++
						if diffs <= 5 {
							t.Errorf("column %v block (%d, %d, %d): live %v, replayed %v", p, x, y, z, a.StateAt(x, y, z), b.StateAt(x, y, z))
						}
					}
				}
			}
		}
	}
	assert.Zero(t, diffs, "blocks that differ")
}

// TestRecordedSessionReplaysToTheLiveWorld records a session against the
// test server and replays it: the replayed world is the one the live
// client had at the end, in both chunk formats.
func TestRecordedSessionReplaysToTheLiveWorld(t *testing.T) {
	for _, f := range chunkFormats {
		t.Run(f.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				data, live, stats := recordSession(t, f.mods, 2)
				require.Equal(t, 2, live.Inventory.CountID("minecraft:log"), "the live bot collected the logs")
				res, err := Replay(context.Background(), bytes.NewReader(data), ReplayOptions{})
				require.NoError(t, err)
				require.Nil(t, res.Stopped)
				assert.Equal(t, 1, res.Connections)
				assert.Equal(t, f.neid, res.Formats.NEID, "the formats the handshake chose")
				assert.Equal(t, "Bot", res.Username)
				assert.NotEmpty(t, res.Mods)
				assert.Positive(t, res.Positions)
				assert.Equal(t, 1, res.Packets["login/LoginSuccess"])
				assert.Positive(t, res.Packets["play/BlockChange"], "the felled logs")
				assert.GreaterOrEqual(t, int64(sumPlay(res.Packets)), stats.PacketsIn, "every packet the live client had read was replayed")
				assertSameWorld(t, live, res.World)
				assert.Empty(t, res.Stats.Malformed)
				assert.Equal(t, stats.Corrections, res.Stats.Corrections, "the positions applied are not corrections")
			})
		})
	}
}

func sumPlay(m map[string]int) int {
	n := 0
	for k, v := range m {
		if len(k) > 5 && k[:5] == "play/" {
			n += v
		}
	}
	return n
}

// TestReconnectsAreConnectionsOfOneRecording: a kick, or a connection cut
// in the middle of a packet, and the reconnect after it make two
// connections in the file; the replay follows both (the world of the first
// is dropped, as live) and ends where the live client did.
func TestReconnectsAreConnectionsOfOneRecording(t *testing.T) {
	for _, tc := range []struct {
		name   string
		faults fakeserver.Faults
		kicked int
	}{
		{"kick", fakeserver.Faults{KickAt: fakeserver.StageKeepAlive, KickReason: "restarting", Skip: 1, Once: true}, 1},
		{"cut", fakeserver.Faults{TruncateAt: fakeserver.StageKeepAlive, Truncate: fakeserver.TruncateFrame, Skip: 1, Once: true}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { testReconnect(t, tc.faults, tc.kicked) })
		})
	}
}

func testReconnect(t *testing.T, faults fakeserver.Faults, kicked int) {
	srv, err := fakeserver.New(fakeserver.Options{Addr: fakeserver.MemoryAddr(), TickDuration: tick, ViewRadius: 1, RegistryFiller: -1,
		KeepAliveInterval: 20 * time.Millisecond, Faults: faults})
	require.NoError(t, err)
	defer srv.Close()
	var buf bytes.Buffer
	rec, err := NewRecorder(&buf, RecorderOptions{})
	require.NoError(t, err)
	c, err := gtnh.New(gtnh.Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: tick, Tap: rec,
		Reconnect: gtnh.Backoff{Enabled: true, Initial: 10 * time.Millisecond, Max: 10 * time.Millisecond},
		Log:       zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.ErrorLevel)})
	require.NoError(t, err)
	defer c.Close()
	ctx := context.Background()
	require.NoError(t, c.Open(ctx))
	// The second login; the first action then waits for the join.
	wctx, cancel := testdeadline.WithCancel(t, "the second login")
	defer cancel()
	require.NoError(t, srv.WaitFor(wctx, func() bool { return len(srv.ReceivedNamed("LoginStart")) >= 2 }))
	require.Equal(t, ipc.OK, c.Execute(ctx, action.Equip{Item: "tool:axe"}).Code)
	res := c.Execute(ctx, action.BreakBlock{Pos: world.Pos(12, 64, 8)})
	require.Equal(t, ipc.OK, res.Code, res.Error)
	live := c.State().Snapshot()
	require.NoError(t, c.Close())
	require.NoError(t, rec.Close())
	require.Equal(t, 1, c.Stats().Reconnects)

	got, err := Replay(context.Background(), bytes.NewReader(buf.Bytes()), ReplayOptions{})
	require.NoError(t, err)
	assert.Equal(t, 2, got.Connections)
	assert.Equal(t, 2, got.Packets["login/LoginSuccess"])
	assert.Equal(t, kicked, got.Packets["play/Disconnect"])
	assertSameWorld(t, live, got.World)

	// Stopped at the last packet of the first connection: after a kick
	// the world of that connection is gone, as it was for the live client.
	recs, err := readAll(t, buf.Bytes())
	require.NoError(t, err)
	// The end of the first connection: its last packet.
	var kickAt time.Duration
	for _, r := range recs {
		if r.Kind == KindClosed {
			break
		}
		if r.Kind == KindPacket {
			kickAt = r.Time
		}
	}
	require.Positive(t, kickAt)
	before, err := Replay(context.Background(), bytes.NewReader(buf.Bytes()), ReplayOptions{Until: kickAt})
	require.NoError(t, err)
	assert.Equal(t, 1, before.Connections)
	assert.Equal(t, kicked, before.Packets["play/Disconnect"])
	if kicked > 0 {
		assert.Empty(t, Columns(before.World), "the kick dropped the columns")
		assert.Zero(t, before.World.Inventory.CountID("minecraft:iron_axe"), "and the inventory")
	} else {
		// The cut frame is not in the recording: up to the last whole
		// packet the bot still had its world.
		assert.Len(t, Columns(before.World), 9)
	}
}
