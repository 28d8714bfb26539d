package gtnh

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// TestUnknownMarksAreBounded: a server sending malformed chunks for ever
// new coordinates grows the unknown list to maxUnknown and then only
// counts.
func TestUnknownMarksAreBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const bad = maxUnknown + 200
		step := make(chan int, 1)
		n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
			for i := range bad {
				// Chunk coordinates, then a column that does not decode.
				data := binary.BigEndian.AppendUint32(nil, uint32(100+i))
				data = binary.BigEndian.AppendUint32(data, 7)
				sc.raw(proto17.IDClientboundChunkData, append(data, 0xFF))
			}
			sc.send(&proto17.KeepAlive{ID: 77})
			expect(sc, func(p *proto17.ServerboundKeepAlive) bool { return p.ID == 77 })
			step <- 1
		}))
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
		require.NoError(t, c.Open(context.Background()))
		recv(t, step)
		st := c.Stats()
		require.Len(t, st.Unknown, maxUnknown+1)
		assert.Equal(t, fmt.Sprintf("and %d more", bad-maxUnknown), st.Unknown[maxUnknown])
		assert.Contains(t, st.Unknown, "chunk(100, 7)")
		c.mu.Lock()
		assert.Len(t, c.unknown, maxUnknown)
		c.mu.Unlock()
		// A part already marked is not counted again; a cleared one frees room.
		c.markUnknown("chunk(100, 7)")
		c.known("chunk(101, 7)")
		c.markUnknown("entity 5")
		st = c.Stats()
		assert.Contains(t, st.Unknown, "entity 5")
		assert.Equal(t, fmt.Sprintf("and %d more", bad-maxUnknown), st.Unknown[len(st.Unknown)-1])
	})
}

// TestUnsolicitedConfirmationsAreDropped: Confirm Transactions for clicks
// the client did not send leave no state behind, and clicks still work.
func TestUnsolicitedConfirmationsAreDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		step := make(chan int, 1)
		var clicks []proto17.ClickWindow
		n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
			items := make([]proto17.Slot, 45)
			items[9] = proto17.Slot{ID: idLog, Count: 3}
			sc.send(&proto17.WindowItems{WindowID: 0, Items: items})
			for i := range 5000 {
				sc.send(&proto17.ConfirmTransaction{WindowID: uint8(i), Action: int16(i), Accepted: true})
			}
			sc.send(&proto17.KeepAlive{ID: 78})
			expect(sc, func(p *proto17.ServerboundKeepAlive) bool { return p.ID == 78 })
			step <- 1
			confirmClicks(sc, func(p *proto17.ClickWindow) { clicks = append(clicks, *p) })
		}))
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
		require.NoError(t, c.Open(context.Background()))
		recv(t, step)
		c.mu.Lock()
		assert.Empty(t, c.sess.confirms)
		c.mu.Unlock()
		res := c.Execute(context.Background(), action.Equip{Item: "minecraft:log"})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		c.mu.Lock()
		assert.Empty(t, c.sess.confirms, "a click removes its entry when it returns")
		c.mu.Unlock()
		require.NotEmpty(t, clicks)
	})
}

func TestPendingClicksAreCapped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &session{confirms: map[confirmKey]*pendingClick{}}
		var first *pendingClick
		for i := range maxPendingClicks + 5 {
			p := s.expectConfirm(confirmKey{0, int16(i)})
			if i == 0 {
				first = p
			}
		}
		assert.Len(t, s.confirms, maxPendingClicks)
		for i := range 5 {
			assert.NotContains(t, s.confirms, confirmKey{0, int16(i)}, "the oldest are evicted")
		}
		assert.Contains(t, s.confirms, confirmKey{0, int16(maxPendingClicks + 4)})
		s.confirm(confirmKey{0, 0}, true)
		assert.False(t, first.answered, "an evicted click gets no answer")
		s.confirm(confirmKey{0, int16(maxPendingClicks + 4)}, false)
		p := s.confirms[confirmKey{0, int16(maxPendingClicks + 4)}]
		assert.True(t, p.answered)
		assert.False(t, p.accepted)
	})
}

// TestEquipFromTheMainInventory: the number-key swap (mode 2) is sent with
// an empty clicked stack, as vanilla's Container.slotClick returns null for
// it; a server comparing the two (NetHandlerPlayServer.processClickWindow)
// refuses anything else.
func TestEquipFromTheMainInventory(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var clicks []proto17.ClickWindow
		n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
			items := make([]proto17.Slot, 45)
			items[12] = proto17.Slot{ID: idLog, Count: 3}
			items[36] = proto17.Slot{ID: idStick, Count: 2}
			sc.send(&proto17.WindowItems{WindowID: 0, Items: items})
			for {
				var p proto17.Packet
				select {
				case p = <-sc.in:
				case <-sc.done:
					return
				}
				if p, ok := p.(*proto17.ClickWindow); ok {
					clicks = append(clicks, *p)
					// Vanilla: slotClick returns null for mode 2.
					ok := p.Mode == 2 && p.Clicked.Empty()
					sc.send(&proto17.ConfirmTransaction{WindowID: p.WindowID, Action: p.Action, Accepted: ok})
					if !ok {
						sc.send(&proto17.WindowItems{WindowID: 0, Items: items})
					}
				}
			}
		}))
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
		require.NoError(t, c.Open(context.Background()))
		eventually(t, "the inventory", func() bool { return c.State().Snapshot().Inventory.CountID("minecraft:log") == 3 })
		res := c.Execute(context.Background(), action.Equip{Item: "minecraft:log"})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		require.Len(t, clicks, 1)
		assert.Equal(t, int8(2), clicks[0].Mode)
		assert.Equal(t, int16(12), clicks[0].Slot)
		assert.Equal(t, int8(0), clicks[0].Button, "the held hotbar slot")
		inv := c.State().Snapshot().Inventory
		assert.Equal(t, "minecraft:log", inv.Slots[0].ID, "the log is held")
		assert.Equal(t, "minecraft:stick", inv.Slots[12].ID, "the stick went to its slot")
	})
}

// TestDimensionFromTheServerHello: the world's dimension at login comes from
// FML's ServerHello (an int) when it is not 0, not from Join Game's byte.
func TestDimensionFromTheServerHello(t *testing.T) {
	for _, tc := range []struct {
		hello int32
		want  string
	}{{-1000, "dim-1000"}, {7, "dim7"}, {300, "dim300"}, {-1, world.Nether}, {0, world.Overworld}} {
		t.Run(tc.want, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				o := gtnhLogin(nil)
				o.dimension = tc.hello
				n := newPipeNet(t, playScript(o, func(sc *serverConn) {}))
				c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
				require.NoError(t, c.Open(context.Background()))
				assert.Equal(t, tc.want, c.State().Snapshot().Player.Dimension)
				c.mu.Lock()
				assert.Equal(t, tc.hello, c.sess.dimension)
				c.mu.Unlock()
			})
		})
	}
}

// TestRegistryWithTrailingBytesJoins: bytes after ModIdData's lists (Forge
// writes the block-substitution count before the item names) do not break
// the handshake.
func TestRegistryWithTrailingBytesJoins(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, multipart := range []bool{false, true} {
			o := gtnhLogin(nil)
			o.multipart = multipart
			o.registryTail = append([]byte{0, 0, 15}, "minecraft:apple"...)
			n := newPipeNet(t, playScript(o, func(sc *serverConn) {}))
			c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
			require.NoError(t, c.Open(context.Background()))
			id, ok := c.State().Resolver().IDs().ItemID("minecraft:stick")
			assert.True(t, ok)
			assert.Equal(t, idStick, id)
		}
	})
}

// TestUnknownNEIDVersionFailsTheJoin: a server whose handshake mod list has
// a NotEnoughIds newer than the formats known here ends the join with an
// error naming the mod and version, before any chunk is decoded.
func TestUnknownNEIDVersionFailsTheJoin(t *testing.T) {
	for _, tc := range []struct{ version, want string }{
		{"2.2.0", "NotEnoughIds 2.2.0 is not supported"},
		{"2.1.11", "NotEnoughIds 2.1.11 is not supported"},
	} {
		t.Run(tc.version, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				mods := []proto17.ModInfo{{ModID: "mcp", Version: "9.05"}, {ModID: "neid", Version: tc.version}}
				n := newPipeNet(t, func(sc *serverConn) {
					sc.read(proto17.Handshaking)
					sc.read(proto17.Login)
					sc.send(&proto17.LoginSuccess{UUID: "00000000-0000-3000-8000-000000000000", Name: "Bot"})
					sc.drain()
					sc.sendFML(&proto17.ServerHello{Protocol: 2})
					sc.expectFML()
					sc.expectFML()
					sc.sendFML(&proto17.ModList{Mods: mods})
					<-sc.done
				})
				// The configured list (as a ping would give) is fine; the
				// handshake's list decides.
				c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods; cfg.LoginTimeout = 2 * time.Second })
				err := c.Open(context.Background())
				require.Error(t, err)
				var le *LoginError
				require.ErrorAs(t, err, &le)
				assert.Equal(t, StageHandshake, le.Stage)
				assert.Contains(t, err.Error(), tc.want)
				<-c.Done()
			})
		})
	}
}

// TestSkippedCountsAreBounded: unknown packet ids and plugin channels are
// the server's choice; the counters keyed by them stop growing.
func TestSkippedCountsAreBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const channels, ids = 300, 200
		step := make(chan int, 1)
		n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
			for i := range channels {
				sc.send(&proto17.PluginMessage{Channel: fmt.Sprintf("ch%d", i), Data: []byte{1}})
			}
			for i := range ids {
				sc.raw(int32(0x1000+i), []byte{0})
			}
			sc.send(&proto17.KeepAlive{ID: 79})
			expect(sc, func(p *proto17.ServerboundKeepAlive) bool { return p.ID == 79 })
			step <- 1
		}))
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
		require.NoError(t, c.Open(context.Background()))
		recv(t, step)
		st := c.Stats()
		assert.LessOrEqual(t, len(st.Skipped), maxCountedNames+1)
		var total int64
		for name, k := range st.Skipped {
			if strings.HasPrefix(name, "PluginMessage(ch") || strings.HasPrefix(name, "Unknown(") || name == otherName {
				total += k
			}
		}
		assert.Equal(t, int64(channels+ids), total, "every packet is still counted")
		assert.Positive(t, st.Skipped[otherName])
	})
}

// TestEntitiesAreBounded: a server spawning ever new entity ids fills the
// world up to maxEntities; later spawns are counted, not kept, and a
// despawn frees room.
func TestEntitiesAreBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const extra = 50
		step, next := make(chan int, 1), make(chan int, 1)
		n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
			for i := range maxEntities + extra {
				sc.send(&proto17.SpawnMob{EntityID: int32(1000 + i), Type: 54})
			}
			sc.send(&proto17.SpawnMob{EntityID: 1000, Type: 90}) // already tracked: updated
			sc.send(&proto17.KeepAlive{ID: 3})
			expect(sc, func(p *proto17.ServerboundKeepAlive) bool { return p.ID == 3 })
			step <- 1
			<-next
			sc.send(&proto17.DestroyEntities{IDs: []int32{1001}})
			sc.send(&proto17.SpawnMob{EntityID: 5, Type: 54})
			sc.send(&proto17.KeepAlive{ID: 4})
			expect(sc, func(p *proto17.ServerboundKeepAlive) bool { return p.ID == 4 })
			step <- 2
		}))
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
		require.NoError(t, c.Open(context.Background()))
		recv(t, step)
		snap := c.State().Snapshot()
		assert.Len(t, snap.Entities, maxEntities)
		assert.Equal(t, int64(extra), c.Stats().Skipped["entity over limit"])
		e, ok := entityByID(snap, 1000)
		require.True(t, ok)
		assert.Equal(t, "pig", e.Name, "a tracked entity is updated at the bound")
		next <- 1
		recv(t, step)
		snap = c.State().Snapshot()
		assert.Len(t, snap.Entities, maxEntities)
		_, ok = entityByID(snap, 5)
		assert.True(t, ok, "a despawn frees room for a new entity")
	})
}

// TestColumnsAreBounded: a server that sends columns without ever
// unloading them fills the world up to maxColumns; each further column
// unloads the one farthest from the player.
func TestColumnsAreBounded(t *testing.T) {
	// Over 4,000 columns decoded: 5 s of processor time under the race
	// detector, for the same reader, scripted server and snapshot reads
	// as the entities' bound.
	race.SkipCovered(t, "filling the world up to maxColumns", "TestEntitiesAreBounded")
	synctest.Test(t, func(t *testing.T) {
		const side = 66 // 66² columns + 3 more of the login: 134 over the bound
		step := make(chan int, 1)
		n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
			// One stone section a column, 200 columns a bulk. The columns
			// are alike but for where they stand, so one bulk is
			// compressed once and sent again under new coordinates (the
			// compression was most of the test, and ten times more under
			// the race detector).
			enc := proto17.NewChunkEncoder(gtnhFormats)
			stone := func(x, z int) *chunk.Column {
				col := chunk.NewColumn(x, z)
				col.SetSection(0, chunk.NewUniformSection(chunk.MakeState(idStone, 0)))
				return col
			}
			bulk := func(at [][2]int) *proto17.MapChunkBulk {
				cols := make([]*chunk.Column, len(at))
				for i, xz := range at {
					cols[i] = stone(xz[0], xz[1])
				}
				p, err := enc.MapChunkBulk(cols, true)
				if err != nil {
					panic(err)
				}
				return p
			}
			var model *proto17.MapChunkBulk
			var at [][2]int
			flush := func() {
				if len(at) < 200 {
					sc.send(bulk(at))
					at = at[:0]
					return
				}
				if model == nil {
					model = bulk(at)
				}
				p := *model
				p.Columns = slices.Clone(model.Columns)
				for i, xz := range at {
					p.Columns[i].X, p.Columns[i].Z = int32(xz[0]), int32(xz[1])
				}
				sc.send(&p)
				at = at[:0]
			}
			for x := range side {
				for z := range side {
					if at = append(at, [2]int{x, z}); len(at) == 200 {
						flush()
					}
				}
			}
			flush()
			sc.send(&proto17.KeepAlive{ID: 3})
			expect(sc, func(p *proto17.ServerboundKeepAlive) bool { return p.ID == 3 })
			step <- 1
		}))
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
		require.NoError(t, c.Open(context.Background()))
		// Over 4,000 columns: slow under the race detector on a loaded machine.
		select {
		case <-step:
		case <-time.After(2 * time.Minute):
			t.Fatal("timed out waiting for the scripted server")
		}
		chunks := c.State().Snapshot().Blocks.(*chunk.Chunks)
		assert.Equal(t, maxColumns, chunks.Columns())
		// The login loaded 4 columns, (0, 0) among them.
		assert.Equal(t, int64(side*side+3-maxColumns), c.Stats().Skipped["column over limit"])
		c.mu.Lock()
		assert.Len(t, c.sess.loaded, maxColumns)
		c.mu.Unlock()
		// The player stands in column (-1, -1): the farthest ring (x or z = 65,
		// 131 columns) went first, then 3 of the next.
		assert.NotNil(t, chunks.Column(-1, -1), "the player's column stays")
		assert.NotNil(t, chunks.Column(0, 0))
		assert.NotNil(t, chunks.Column(63, 63))
		assert.Nil(t, chunks.Column(65, 0))
		assert.Nil(t, chunks.Column(0, 65))
		assert.Nil(t, chunks.Column(65, 65))
		assert.True(t, c.Connected())
	})
}

func entityByID(s *world.Snapshot, id int) (world.Entity, bool) {
	for _, e := range s.Entities {
		if e.ID == id {
			return e, true
		}
	}
	return world.Entity{}, false
}

// failingConn fails every write once fail is set, as a socket does after
// the server closed it.
type failingConn struct {
	net.Conn
	fail   *atomic.Bool
	failed func() // called at every failed write
}

// failWritesWhen makes the client's connections fail their writes once
// fail is set. The channel it returns is closed at the first failed write.
func failWritesWhen(cfg *Config, fail *atomic.Bool) <-chan struct{} {
	dial := cfg.Dial
	failed := make(chan struct{})
	var once sync.Once
	cfg.Dial = func(ctx context.Context, addr string) (net.Conn, error) {
		cn, err := dial(ctx, addr)
		return failingConn{Conn: cn, fail: fail, failed: func() { once.Do(func() { close(failed) }) }}, err
	}
	return failed
}

func (f failingConn) Write(b []byte) (int, error) {
	if f.fail.Load() {
		f.failed()
		return 0, syscall.EPIPE
	}
	return f.Conn.Write(b)
}

// TestAKickWinsOverAFailedWrite: when the bot's write fails because the
// server is closing the connection after a kick, the session ends with the
// kick's reason (a ban ends the run), not with the write error.
func TestAKickWinsOverAFailedWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var fail atomic.Bool
		var failed <-chan struct{}
		n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
			fail.Store(true)
			sc.send(&proto17.KeepAlive{ID: 1}) // the answer fails to send
			<-failed
			sc.send(&proto17.Disconnect{Reason: `{"text":"You are banned from this server.\nReason: griefing"}`})
		}))
		c := testClient(t, n, func(cfg *Config) {
			cfg.Mods = testMods
			failed = failWritesWhen(cfg, &fail)
			cfg.Reconnect = Backoff{Enabled: true, Initial: time.Millisecond, Max: time.Millisecond}
		})
		require.NoError(t, c.Open(context.Background()))
		select {
		case <-c.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("the client did not stop after a ban")
		}
		err := c.Err()
		require.Error(t, err)
		assert.Contains(t, err.Error(), "You are banned from this server.")
		assert.NotContains(t, err.Error(), "broken pipe")
	})
}

// TestAFailedWriteEndsTheSessionWhileTheServerTalksOn: a connection that
// can no longer send ends after the grace period even while the server
// keeps sending.
func TestAFailedWriteEndsTheSessionWhileTheServerTalksOn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var fail atomic.Bool
		n := newPipeNet(t, func(sc *serverConn) {
			sc.login(gtnhLogin(nil))
			fail.Store(true)
			for i := int32(0); ; i++ {
				select {
				case <-sc.done:
					return
				case <-time.After(5 * time.Millisecond):
				}
				sc.send(&proto17.TimeUpdate{WorldAge: int64(i)})
			}
		})
		c := testClient(t, n, func(cfg *Config) {
			cfg.Mods = testMods
			failWritesWhen(cfg, &fail)
		})
		require.NoError(t, c.Open(context.Background()))
		select {
		case <-c.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("a connection that cannot send was kept")
		}
		require.Error(t, c.Err())
		assert.Contains(t, c.Err().Error(), "broken pipe")
	})
}
