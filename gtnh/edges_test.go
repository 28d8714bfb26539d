package gtnh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Edge cases of the chat guard, the outgoing chat and the kick
// classification, each pinned by a mutation that the broader tests let
// through.

func TestGuardEdges(t *testing.T) {
	t.Run("own name in another case", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			// The server echoes the bot's own line with the name as the
			// server spells it; the bot must not obey itself even when an
			// operator entry names it.
			g := newGuard([]string{"Bot"}, CommandConfig{})
			_, v := g.check(ReceivedChat{Sender: "BOT", Text: "!bot ping"}, "bot")
			assert.Equal(t, verdictNotCommand, v)
		})
	})
	t.Run("a prefix ending in a space ends a word", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			g := newGuard([]string{"Op"}, CommandConfig{})
			_, v := g.check(ReceivedChat{Sender: "Op", Text: "!botstop"}, "Bot")
			assert.Equal(t, verdictNotCommand, v, "the default prefix is \"!bot \"")
			cmd, v := g.check(ReceivedChat{Sender: "Op", Text: "!bot\tstop"}, "Bot")
			assert.Equal(t, verdictObey, v)
			assert.Equal(t, "stop", cmd.Name)
			// A prefix without the space takes the command right after it.
			cmd, v = newGuard([]string{"Op"}, CommandConfig{Prefix: "!"}).check(ReceivedChat{Sender: "Op", Text: "!stop"}, "Bot")
			assert.Equal(t, verdictObey, v)
			assert.Equal(t, "stop", cmd.Name)
		})
	})
	t.Run("refill stops at the burst", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			now := time.Unix(0, 0)
			g := newGuard([]string{"Op"}, CommandConfig{Burst: 3, PerMinute: 6, Now: func() time.Time { return now }})
			m := ReceivedChat{Sender: "Op", Text: "!bot ping"}
			for range 3 {
				_, v := g.check(m, "Bot")
				require.Equal(t, verdictObey, v)
			}
			now = now.Add(time.Hour) // 360 tokens' worth, capped at 3
			for i, want := range []int{verdictObey, verdictObey, verdictObey, verdictRateLimited} {
				_, v := g.check(m, "Bot")
				assert.Equal(t, want, v, i)
			}
		})
	})
	t.Run("an announcement has no sender", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			// /say (chat.type.announcement) comes from the console or a
			// command block, never from an operator's chat.
			m := parseChat(`{"translate":"chat.type.announcement","with":["Alice","!bot stop"]}`)
			assert.Equal(t, "", m.Sender)
			assert.Equal(t, "!bot stop", m.Text)
			_, v := newGuard([]string{"Alice"}, CommandConfig{}).check(m, "Bot")
			assert.Equal(t, verdictNotCommand, v)
		})
	})
	t.Run("a UUID has exactly 32 digits", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			u := "069a79f444e94726a5befca90e38aaf5"
			_, ok := normUUID(u + "0")
			assert.False(t, ok, "33 digits")
			_, ok = normUUID(u[:31])
			assert.False(t, ok, "31 digits")
			assert.Error(t, ValidOperators([]string{"uuid:" + u + "f"}))
			assert.NoError(t, ValidOperators([]string{"uuid:" + u}))
		})
	})
	t.Run("negative rates", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			assert.Error(t, CommandConfig{PerMinute: -1}.Validate())
			assert.Error(t, CommandConfig{Burst: -1}.Validate())
			assert.NoError(t, CommandConfig{}.Validate())
		})
	})
	t.Run("secret length boundary", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			short := strings.Repeat("k", MinSecretLength-1)
			err := CommandConfig{Secret: NewSecret(short)}.Validate()
			require.Error(t, err)
			assert.NotContains(t, err.Error(), short)
			assert.NoError(t, CommandConfig{Secret: NewSecret(strings.Repeat("k", MinSecretLength))}.Validate())
		})
	})
}

// chatClient is a client without a connection, for chatLine.
func chatClient(secret string) *Client {
	return &Client{guard: newGuard(nil, CommandConfig{Secret: NewSecret(secret)}), log: zerolog.Nop()}
}

func TestChatLineNeverCarriesTheSecret(t *testing.T) {
	const secret = "abcdefgh" // shorter than [REDACTED]
	c := chatClient(secret)
	t.Run("every occurrence", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			out, err := c.chatLine(secret + " and " + secret + " and " + secret)
			require.NoError(t, err)
			assert.Equal(t, redacted+" and "+redacted+" and "+redacted, out)
			assert.Equal(t, "x "+redacted+" "+redacted, c.guard.scrub("x "+secret+" "+secret))
		})
	})
	t.Run("behind a section sign", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			// "§a" is a formatting code: sanitizing first would drop the
			// secret's first letter and send the rest.
			out, err := c.chatLine("§" + secret)
			require.NoError(t, err)
			assert.Equal(t, redacted, out)
		})
	})
	t.Run("not even its start at the cut", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			// The secret straddles the 100-unit cut: cutting first and
			// scrubbing then would send its first five characters.
			out, err := c.chatLine(strings.Repeat("x", MaxChatLength-5) + secret)
			require.NoError(t, err)
			assert.NotContains(t, out, secret[:5])
			assert.Equal(t, strings.Repeat("x", MaxChatLength-5)+redacted[:5], out)
			require.NoError(t, serverAccepts(out))
		})
	})
	t.Run("the redaction does not push the line past the limit", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			out, err := c.chatLine(secret + " " + strings.Repeat("y", MaxChatLength-len(secret)-1))
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(out, redacted+" "))
			assert.NoError(t, serverAccepts(out), "%d bytes", len(out))
		})
	})
	t.Run("pieces joined by sanitizing", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			out, err := c.chatLine("abcd§lefgh\x01!")
			require.NoError(t, err)
			assert.Equal(t, redacted+"!", out)
		})
	})
}

func TestSanitizeChatVerticalTab(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// StringUtils.normalizeSpace turns a vertical tab into a space too.
		out, cut := SanitizeChat("a\vb\fc")
		assert.Equal(t, "a b c", out)
		assert.False(t, cut)
	})
}

func TestKickClassificationEdges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		why, ok := permanentKick("", "\n  You are banned from this server!\nReason: griefing")
		assert.True(t, ok, "surrounding white space")
		assert.Equal(t, "banned", why)

		// No authentication provider for an online-mode server: retrying
		// cannot help.
		assert.True(t, fatal(&LoginError{Stage: StageEncrypt, Err: ErrNoAuthProvider}))
		assert.True(t, fatal(fmt.Errorf("joining: %w", &LoginError{Stage: StageLogin, Err: &KickError{Reason: "You are not white-listed on this server!"}})))
		assert.False(t, fatal(&LoginError{Stage: StageDial, Err: io.ErrUnexpectedEOF}))
		assert.False(t, fatal(&KickError{Reason: "The server is full!"}))
		assert.False(t, fatal(errors.New("connection reset")))
	})
}

// TestReconnectGivesUpAfterMaxAttempts: MaxAttempts failed retries after
// the first join, then the reason.
func TestReconnectGivesUpAfterMaxAttempts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var dials atomic.Int64
		b := fastBackoff
		b.MaxAttempts = 2
		c := fakeClient(t, freeAddr(t), func(cfg *Config) { cfg.Dial = countingDial(&dials); cfg.Reconnect = b })
		err := c.Open(context.Background())
		require.Error(t, err)
		assert.Contains(t, err.Error(), "gave up after 2 reconnect attempts")
		assert.Contains(t, err.Error(), "refused")
		assert.Equal(t, int64(1+2), dials.Load(), "the first join and two retries, one ping dial each")
	})
}

func TestConfirmationKeepsTheFirstAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &session{confirms: map[confirmKey]*pendingClick{}}
		k := confirmKey{1, 7}
		p := s.expectConfirm(k)
		s.confirm(k, false)
		s.confirm(k, true) // a second answer to the same click
		assert.True(t, p.answered)
		assert.False(t, p.accepted, "the server refused the click; a later answer does not change that")
	})
}

// TestPlayersAreBoundedWithEntities: Spawn Player past the entity bound is
// not recorded for operator UUIDs either, so the player table cannot grow
// without end.
func TestPlayersAreBoundedWithEntities(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const extra = 40
		step := make(chan int, 1)
		n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
			for i := range maxEntities + extra {
				sc.send(&proto17.SpawnPlayer{EntityID: int32(1000 + i), UUID: fmt.Sprintf("%032x", i), Name: fmt.Sprintf("p%d", i)})
			}
			sc.send(&proto17.KeepAlive{ID: 3})
			expect(sc, func(p *proto17.ServerboundKeepAlive) bool { return p.ID == 3 })
			step <- 1
		}))
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
		require.NoError(t, c.Open(context.Background()))
		recv(t, step)
		c.mu.Lock()
		s := c.sess
		players, entities := len(s.players), len(s.entities)
		c.mu.Unlock()
		assert.Equal(t, maxEntities, entities)
		assert.Equal(t, maxEntities, players)
		assert.Equal(t, fmt.Sprintf("%032x", 5), c.uuidOf(s, "p5"))
		assert.Equal(t, "", c.uuidOf(s, fmt.Sprintf("p%d", maxEntities+1)), "a player past the bound is not known")
	})
}

func TestSpawnPlayerWithoutUUIDForgetsTheOldOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &Client{}
		s := &session{entities: map[int32]bool{5: true}, players: map[int32]seenPlayer{}}
		c.seePlayer(s, &proto17.SpawnPlayer{EntityID: 5, Name: "Alice", UUID: "069a79f4-44e9-4726-a5be-fca90e38aaf5"})
		assert.Equal(t, "069a79f444e94726a5befca90e38aaf5", c.uuidOf(s, "alice"))
		// The id is reused for a player whose UUID does not read.
		c.seePlayer(s, &proto17.SpawnPlayer{EntityID: 5, Name: "Alice", UUID: "not-a-uuid"})
		assert.Equal(t, "", c.uuidOf(s, "Alice"))
	})
}

// TestObserveWaitsForTheReconnectToJoin: after a reconnect the new session
// is current from Login Success on, but its world arrives only with the
// columns; an observation waits for them instead of returning an empty
// world.
func TestObserveWaitsForTheReconnectToJoin(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		holding, release := make(chan struct{}), make(chan struct{})
		first := playScript(gtnhLogin(nil), func(sc *serverConn) {
			sc.send(&proto17.Disconnect{Reason: `{"text":"Server closed"}`})
		})
		noColumns := gtnhLogin(nil)
		noColumns.columns = nil
		second := playScript(noColumns, func(sc *serverConn) {
			close(holding)
			<-release
			for _, col := range gtnhLogin(nil).columns {
				sc.send(col.packet(sc.t, gtnhFormats.NEID))
			}
		})
		n := newPipeNet(t, first, second)
		var once sync.Once
		open := func() { once.Do(func() { close(release) }) }
		t.Cleanup(open) // a failing test must not leave the script waiting
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods; cfg.Reconnect = fastBackoff })
		require.NoError(t, c.Open(context.Background()))
		recv(t, holding)
		eventually(t, "the second session current", func() bool {
			c.mu.Lock()
			defer c.mu.Unlock()
			return c.sess != nil && c.sess.spawned && c.sess.cause() == nil
		})
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := c.Observe(ctx)
		require.Error(t, err, "no world yet")
		assert.ErrorIs(t, err, ErrNotConnected)
		open()
		snap, err := c.Observe(context.Background())
		require.NoError(t, err)
		assert.NotNil(t, snap.Blocks.(*chunk.Chunks).Column(-1, -1), "the player's column")
		// Counted once the retry returns, which may be after the observation.
		eventually(t, "the reconnect counted", func() bool { return c.Stats().Reconnects == 1 })
	})
}

// TestJoinDimensionWithoutAnOverride: a ServerHello dimension of 0 means no
// override (NetworkDispatcher.getOverrideDimension), so Join Game's
// dimension stands.
func TestJoinDimensionWithoutAnOverride(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := gtnhLogin(nil)
		nether := int8(-1)
		o.joinDimension = &nether
		n := newPipeNet(t, playScript(o, func(sc *serverConn) {}))
		c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods })
		require.NoError(t, c.Open(context.Background()))
		assert.Equal(t, world.Nether, c.State().Snapshot().Player.Dimension)
	})
}

// TestChatLogKeepsTheLastLines: the client keeps the last maxChatLog lines.
func TestChatLogKeepsTheLastLines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &Client{guard: newGuard(nil, CommandConfig{}), log: zerolog.Nop(), changed: make(chan struct{}),
			state: world.NewState(world.StateOptions{Rules: rules.Default()}), rules: rules.Default()}
		c.state.Update(func(tx *world.Tx) { tx.SetTick(77) })
		s := &session{players: map[int32]seenPlayer{}}
		for i := range maxChatLog + 10 {
			c.onChat(s, &proto17.Chat{JSON: fmt.Sprintf(`{"text":"line %d"}`, i)})
		}
		log := c.Chat()
		require.Len(t, log, maxChatLog)
		assert.Equal(t, "line 10", log[0].Text)
		assert.Equal(t, fmt.Sprintf("line %d", maxChatLog+9), log[len(log)-1].Text)

		// As a chat source: numbered from 1 in the order they came, the lost
		// ones before the first line kept.
		all, next := c.ChatSince(0)
		require.Len(t, all, maxChatLog)
		assert.Equal(t, uint64(maxChatLog+11), next)
		assert.Equal(t, ipc.ChatLine{Seq: 11, Text: "line 10", Tick: 77}, all[0])
		assert.Equal(t, uint64(maxChatLog+10), all[len(all)-1].Seq)
		tail, next2 := c.ChatSince(maxChatLog + 9)
		assert.Equal(t, next, next2)
		require.Len(t, tail, 2)
		assert.Equal(t, fmt.Sprintf("line %d", maxChatLog+8), tail[0].Text)
		none, next3 := c.ChatSince(next)
		assert.Empty(t, none)
		assert.Equal(t, next, next3)
	})
}

// TestSwapHotbarNeedsAHotbarSlot: a number-key swap names hotbar slots 0..8.
func TestSwapHotbarNeedsAHotbarSlot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var inv inventory
		inv.player[invHotbar+8] = proto17.Slot{ID: 1, Count: 1}
		_, ok := inv.swapHotbar(0, 9, 8)
		require.True(t, ok)
		assert.Equal(t, int16(1), inv.player[9].ID)
		for _, h := range []int{-1, 9} {
			_, ok := inv.swapHotbar(0, 9, h)
			assert.False(t, ok, "button %d", h)
		}
	})
}

// FuzzChatLine: whatever the planner writes around the operator secret, the
// bot's own chat line is one the server accepts, never a command, and holds
// neither the secret nor any piece of it. The secret is shorter than
// "[REDACTED]" and starts with a formatting-code letter, the hardest case;
// its letters (a to h) are not in "[REDACTED]", so when the text around it
// has none of them, no letter of the secret may reach the line.
func FuzzChatLine(f *testing.F) {
	const secret = "abcdefgh"
	for _, s := range [][2]string{{"hello ", ""}, {"§", ""}, {strings.Repeat("x", 95), ""}, {"", " " + strings.Repeat("y", 91)},
		{"§l", "\x01"}, {"/op me ", ""}, {" §a/op ", ""}, {"", secret}} {
		f.Add(s[0], s[1])
	}
	c := chatClient(secret)
	f.Fuzz(func(t *testing.T, before, after string) {
		out, err := c.chatLine(before + secret + after)
		if err != nil {
			if !errors.Is(err, ErrChatEmpty) && !errors.Is(err, ErrChatCommand) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if err := serverAccepts(out); err != nil {
			t.Fatalf("%q: the server refuses it: %v", out, err)
		}
		if strings.HasPrefix(out, "/") {
			t.Fatalf("%q is a command", out)
		}
		if strings.Contains(out, secret) {
			t.Fatalf("%q carries the secret", out)
		}
		if !strings.ContainsAny(before+after, secret) && strings.ContainsAny(out, secret) {
			t.Fatalf("%q carries a piece of the secret", out)
		}
	})
}

// brokenConn fails every write once broken is closed, like a socket the
// server has closed after its last packets.
type brokenConn struct {
	net.Conn
	broken <-chan struct{}
}

func (b *brokenConn) Write(p []byte) (int, error) {
	select {
	case <-b.broken:
		return 0, errors.New("write: broken pipe (test)")
	default:
		return b.Conn.Write(p)
	}
}

// TestKickReasonWinsOverTheReadersFailedReply: the server sends a
// keep-alive and then Disconnect and closes; the reader's keep-alive reply
// fails first, yet the session ends with the server's reason (a kick right
// after Join Game failed the Client Settings reply the same way).
func TestKickReasonWinsOverTheReadersFailedReply(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		broken := make(chan struct{})
		n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
			close(broken)
			sc.send(&proto17.KeepAlive{ID: 9})
			sc.send(&proto17.Disconnect{Reason: `{"text":"You are banned from this server."}`})
		}))
		c := testClient(t, n, func(cfg *Config) {
			cfg.Mods = testMods
			dial := cfg.Dial
			cfg.Dial = func(ctx context.Context, addr string) (net.Conn, error) {
				cn, err := dial(ctx, addr)
				if err != nil {
					return nil, err
				}
				return &brokenConn{Conn: cn, broken: broken}, nil
			}
		})
		require.NoError(t, c.Open(context.Background()))
		select {
		case <-c.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("the client did not stop")
		}
		var ke *KickError
		require.ErrorAs(t, c.Err(), &ke, "%v", c.Err())
		assert.Equal(t, "You are banned from this server.", ke.Reason)
	})
}
