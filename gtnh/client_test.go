package gtnh

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

func TestAuthDigestMatchesJavaVectors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The published vectors hash only the name (empty secret and key).
		for name, want := range map[string]string{
			"Notch": "4ed1f46bbe04bc756bcb17c0c7ce3e4632f06a48",
			"jeb_":  "-7c9d5b0044c130109a5d7b5fb5c317c02b4e28c1",
			"simon": "88e16a1019277b15d58faf0541e11910eb756f6",
		} {
			assert.Equal(t, want, AuthDigest(name, nil, nil), name)
		}
	})
}

func TestPingReadsModinfo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newPipeNet(t, func(sc *serverConn) { sc.status(testMods) })
		info, err := Ping(context.Background(), Config{Address: "gtnh.test:25565", Dial: n.dial})
		require.NoError(t, err)
		assert.Equal(t, "GTNH 2.8.4 test", info.MOTD)
		assert.Equal(t, "1.7.10", info.Version)
		assert.Equal(t, 5, info.Protocol)
		assert.Equal(t, 1, info.Online)
		assert.Equal(t, 20, info.Max)
		assert.Equal(t, []string{"Alice"}, info.Players)
		assert.True(t, info.Forge)
		assert.Equal(t, len(testMods), info.ModCount)
		assert.Equal(t, []proto17.ModInfo{{ModID: "neid", Version: "2.1.10"}, {ModID: "modularui", Version: "1.2.20"}}, info.ProtocolMods)
		assert.Equal(t, gtnhFormats, info.Formats)
	})
}

func TestPingFailsClearly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newPipeNet(t)
		_, err := Ping(context.Background(), Config{Address: "gtnh.test:25565", Dial: n.dial})
		var le *LoginError
		require.ErrorAs(t, err, &le)
		assert.Equal(t, StageDial, le.Stage)
	})
}

func TestOpenJoinsWithTheFMLHandshakeAndAMultipartRegistry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		joined := make(chan *serverConn, 1)
		n := newPipeNet(t,
			func(sc *serverConn) { sc.status(testMods) },
			func(sc *serverConn) {
				sc.login(gtnhLogin(map[world.BlockPos][2]int{world.Pos(-5, 64, -8): {idMachine, 300}}))
				assert.Equal(t, int8(8), sc.settings.ViewDistance)
				joined <- sc
				<-sc.done
			})
		c := testClient(t, n, nil)
		require.NoError(t, c.Open(context.Background()))
		recv(t, joined)
		assert.True(t, c.Connected())
		assert.Equal(t, gtnhFormats, c.Server().Formats)

		snap := c.State().Snapshot()
		assert.InDelta(t, 64.0, snap.Player.Pos.Y, 1e-9, "feet = eye y − 1.62")
		assert.Equal(t, "Bot", snap.Player.Name)
		// Registry ids, not vanilla ones, name the blocks; NEID carries ids and
		// metadata beyond 12 and 4 bits.
		assert.Equal(t, "minecraft:grass", snap.BlockAt(world.Pos(-8, 63, -8)).ID)
		b := snap.BlockAt(world.Pos(-5, 64, -8))
		assert.Equal(t, "gregtech:gt.blockmachines", b.ID)
		assert.Equal(t, 300, b.Meta)
		id, ok := c.State().Resolver().IDs().ItemID("minecraft:stick")
		assert.True(t, ok)
		assert.Equal(t, idStick, id)
	})
}

func TestVanillaServerWithoutFML(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newPipeNet(t, func(sc *serverConn) {
			sc.login(loginOpts{vanilla: true, spawn: [3]float64{-7.5, 64, -7.5}, columns: standardWorld(nil)})
			<-sc.done
		})
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = []proto17.ModInfo{} })
		require.NoError(t, c.Open(context.Background()))
		// Vanilla ids: 2 is grass in the vanilla map too, 1017 is unknown.
		assert.Equal(t, "minecraft:grass", c.State().Snapshot().BlockAt(world.Pos(-8, 63, -8)).ID)
	})
}

func TestBadServersEndWithClearErrors(t *testing.T) {
	cases := []struct {
		name   string
		script func(sc *serverConn)
		check  func(t *testing.T, err error)
	}{
		{"wrong handshake order", func(sc *serverConn) {
			sc.read(proto17.Handshaking)
			sc.read(proto17.Login)
			sc.send(&proto17.LoginSuccess{UUID: "00000000-0000-3000-8000-000000000000", Name: "Bot"})
			sc.formats = gtnhFormats
			sc.drain()
			sc.sendFML(&proto17.ServerHello{Protocol: 2})
			sc.expectFML()
			sc.expectFML()
			sc.sendFML(testRegistry()) // ModIdData before ModList
			<-sc.done
		}, func(t *testing.T, err error) {
			var he *HandshakeError
			require.ErrorAs(t, err, &he)
			assert.Equal(t, "WAITINGSERVERDATA", he.State)
			assert.Contains(t, err.Error(), "unexpected ModIDData")
		}},
		{"join before the handshake completed", func(sc *serverConn) {
			sc.read(proto17.Handshaking)
			sc.read(proto17.Login)
			sc.send(&proto17.LoginSuccess{UUID: "00000000-0000-3000-8000-000000000000", Name: "Bot"})
			sc.drain()
			sc.sendFML(&proto17.ServerHello{Protocol: 2})
			sc.send(&proto17.JoinGame{EntityID: 1, LevelType: "default"})
			<-sc.done
		}, func(t *testing.T, err error) {
			assert.Contains(t, err.Error(), "Join Game before the handshake completed")
		}},
		{"truncated login packet", func(sc *serverConn) {
			sc.read(proto17.Handshaking)
			sc.read(proto17.Login)
			sc.raw(proto17.IDClientboundLoginSuccess, []byte{36, '0', '0'})
		}, func(t *testing.T, err error) {
			var le *LoginError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, StageLogin, le.Stage)
			assert.ErrorIs(t, err, proto17.ErrTruncated)
		}},
		{"connection cut mid-frame", func(sc *serverConn) {
			sc.read(proto17.Handshaking)
			sc.read(proto17.Login)
			_, _ = sc.sock.Write([]byte{0x40, 0x02, 0x24}) // a 64-byte frame that never comes
		}, func(t *testing.T, err error) {
			assert.Contains(t, err.Error(), "login")
		}},
		{"kick during login", func(sc *serverConn) {
			sc.read(proto17.Handshaking)
			sc.read(proto17.Login)
			sc.send(&proto17.LoginDisconnect{Reason: `{"text":"You are not white-listed on this server!"}`})
		}, func(t *testing.T, err error) {
			var ke *KickError
			require.ErrorAs(t, err, &ke)
			assert.Equal(t, "You are not white-listed on this server!", ke.Reason)
		}},
		{"kick during the FML handshake", func(sc *serverConn) {
			sc.read(proto17.Handshaking)
			sc.read(proto17.Login)
			sc.send(&proto17.LoginSuccess{UUID: "00000000-0000-3000-8000-000000000000", Name: "Bot"})
			sc.drain()
			sc.send(&proto17.Disconnect{Reason: `{"text":"Mod rejections [neid]"}`})
			<-sc.done
		}, func(t *testing.T, err error) {
			var ke *KickError
			require.ErrorAs(t, err, &ke)
			assert.Contains(t, err.Error(), "Mod rejections [neid]")
		}},
		{"online mode without a provider", func(sc *serverConn) {
			sc.read(proto17.Handshaking)
			sc.read(proto17.Login)
			sc.send(&proto17.EncryptionRequest{ServerID: "", PublicKey: []byte{1}, VerifyToken: []byte{1, 2, 3, 4}})
		}, func(t *testing.T, err error) {
			assert.ErrorIs(t, err, ErrNoAuthProvider)
			assert.Contains(t, err.Error(), "online mode")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				n := newPipeNet(t, tc.script)
				c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods; cfg.LoginTimeout = 2 * time.Second })
				err := c.Open(context.Background())
				require.Error(t, err)
				tc.check(t, err)
				<-c.Done()
			})
		})
	}
}

func TestKeepAliveIsEchoedAndPlayKickEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newPipeNet(t, func(sc *serverConn) {
			sc.login(gtnhLogin(nil))
			sc.send(&proto17.KeepAlive{ID: 777})
			expect(sc, func(p *proto17.ServerboundKeepAlive) bool { return p.ID == 777 })
			sc.send(&proto17.Disconnect{Reason: `{"text":"Server closed"}`})
			<-sc.done
		})
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
		require.NoError(t, c.Open(context.Background()))
		select {
		case <-c.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("the client did not stop after the kick")
		}
		var ke *KickError
		require.ErrorAs(t, c.Err(), &ke)
		assert.Equal(t, "Server closed", ke.Reason)
		assert.Equal(t, 1, c.Stats().KeepAlives)
		assert.Zero(t, c.State().Snapshot().Blocks.(*chunk.Chunks).Columns(), "the world of a lost connection is dropped")
	})
}

func TestIdleSendsAMovementPacketEveryTick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Counted against the client's own tick counter, not the wall clock, so
		// a loaded machine cannot make it flaky.
		var moves atomic.Int64
		n := newPipeNet(t, func(sc *serverConn) {
			sc.login(gtnhLogin(nil))
			for {
				select {
				case p := <-sc.in:
					switch p.(type) {
					case *proto17.Player, *proto17.ServerboundPlayerPositionAndLook, *proto17.PlayerLook, *proto17.PlayerPosition:
						moves.Add(1)
					}
				case <-sc.done:
					return
				}
			}
		})
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods; cfg.Tick = 5 * time.Millisecond })
		require.NoError(t, c.Open(context.Background()))
		require.Eventually(t, func() bool { return c.Ticks() >= 40 }, 10*time.Second, time.Millisecond)
		t0, m0 := c.Ticks(), moves.Load()
		require.Eventually(t, func() bool { return c.Ticks() >= t0+40 }, 10*time.Second, time.Millisecond)
		// Packets may still be in flight between the tick and the server's
		// count: wait for the packets of the ticks counted so far, then check
		// there were no more packets than ticks (the ticks read after the
		// packets, so a slow test goroutine only widens the bound).
		want := c.Ticks() - t0
		require.Eventually(t, func() bool { return moves.Load()-m0 >= want-3 }, 10*time.Second, time.Millisecond,
			"a movement packet for each of %d ticks", want)
		sent := moves.Load() - m0
		ticks := c.Ticks() - t0
		assert.LessOrEqual(t, sent, ticks+3, "one movement packet a tick, not more: %d ticks, %d packets", ticks, sent)
	})
}

func TestReconnectAfterAKick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newPipeNet(t,
			func(sc *serverConn) {
				sc.login(gtnhLogin(nil))
				sc.send(&proto17.Disconnect{Reason: `{"text":"restarting"}`})
				<-sc.done
			},
			func(sc *serverConn) {
				sc.read(proto17.Handshaking) // refused once more
			},
			func(sc *serverConn) {
				sc.login(gtnhLogin(nil))
				<-sc.done
			})
		c := testClient(t, n, func(cfg *Config) {
			cfg.Mods = testMods
			cfg.Reconnect = Backoff{Enabled: true, Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond}
		})
		require.NoError(t, c.Open(context.Background()))
		eventually(t, "a reconnect", func() bool { return c.Stats().Reconnects == 1 && c.Connected() })
		_, err := c.Observe(context.Background())
		require.NoError(t, err)
	})
}

func TestBackoffSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := Backoff{Enabled: true, Initial: time.Second, Max: 30 * time.Second}
		assert.Equal(t, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 30 * time.Second, 30 * time.Second}, b.Schedule(7))
		b.Jitter, b.Rand = 0.5, func() float64 { return 1 }
		assert.Equal(t, 1500*time.Millisecond, b.Delay(1))
		b.Rand = func() float64 { return 0 }
		assert.Equal(t, 500*time.Millisecond, b.Delay(1))
		assert.Error(t, Backoff{Initial: time.Minute, Max: time.Second}.Validate())
		assert.Error(t, Backoff{Jitter: 2}.Validate())
	})
}

func TestConfigValidation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		err := Config{Address: "host:99999", Username: "bad name!"}.Validate()
		require.Error(t, err)
		assert.Contains(t, err.Error(), "address")
		assert.Contains(t, err.Error(), "username")
		assert.NoError(t, Config{Address: "localhost", Username: "Bot_1"}.Validate())
		_, err = New(Config{Address: "localhost:25565"})
		assert.Error(t, err)
	})
}

func TestCloseIsIdempotentAndStopsGoroutines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newPipeNet(t, func(sc *serverConn) {
			sc.login(gtnhLogin(nil))
			<-sc.done
		})
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
		require.NoError(t, c.Open(context.Background()))
		require.NoError(t, c.Close())
		require.NoError(t, c.Close())
		<-c.Done()
		assert.NoError(t, c.Err())
		res := c.Execute(context.Background(), nil)
		assert.False(t, res.OK())
		_, err := c.Observe(context.Background())
		assert.True(t, errors.Is(err, ErrNotConnected) || errors.Is(err, ErrClosed), "%v", err)
	})
}
