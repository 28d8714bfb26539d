package gtnh

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/Tnze/go-mc/offline"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// serverAccepts is what a 1.7.10 Forge server checks of a chat message:
// the length PacketBuffer.readStringFromBuffer(100) allows, then
// StringUtils.normalizeSpace (tab, newline, CR, VT and FF runs become one
// space; the ends lose characters <= 32) and
// ChatAllowedCharacters.isAllowedCharacter on every UTF-16 unit.
func serverAccepts(msg string) error {
	units := utf16.Encode([]rune(msg))
	if len(units) > MaxChatLength {
		return fmt.Errorf("%d UTF-16 units", len(units))
	}
	if !utf8.ValidString(msg) {
		return fmt.Errorf("invalid UTF-8")
	}
	norm := strings.Join(strings.FieldsFunc(msg, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r'
	}), " ")
	for _, u := range utf16.Encode([]rune(norm)) {
		if u == 167 || u < 32 || u == 127 {
			return fmt.Errorf("illegal character %#x", u)
		}
	}
	return nil
}

func TestSanitizeChat(t *testing.T) {
	long := strings.Repeat("abcdefghij", 15)
	cases := []struct {
		name, in, want string
		cut            bool
	}{
		{"plain", "hello world", "hello world", false},
		{"tab", "a\tb", "a b", false},
		{"newline", "line one\nline two\r\n", "line one line two", false},
		{"formatting codes", "§cred §lbold§r", "red bold", false},
		{"section sign alone", "50§ off, 7§x§", "50 off, 7x", false},
		{"DEL", "a\x7fb", "ab", false},
		{"other controls", "\x00a\x01b\x1fc\x1b[31m", "abc[31m", false},
		{"runs of spaces and ends", "  a   b \t ", "a b", false},
		{"allowed unicode", "Grüße, 日本語 — ok… ¡ñ! 😀", "Grüße, 日本語 — ok… ¡ñ! 😀", false},
		{"long text is cut at 100", long, long[:100], true},
		{"cut counts UTF-16 units", strings.Repeat("😀", 60), strings.Repeat("😀", 50), true},
		{"no cut inside a surrogate pair", strings.Repeat("a", 99) + "😀", strings.Repeat("a", 99), true},
		{"100 units exactly", strings.Repeat("é", 100), strings.Repeat("é", 100), false},
		{"no trailing space at the cut", strings.Repeat("a", 99) + " bcd", strings.Repeat("a", 99), true},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb", false},
		{"nothing allowed", "\t\n§\x7f\x01 ", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				got, cut := SanitizeChat(tc.in)
				assert.Equal(t, tc.want, got)
				assert.Equal(t, tc.cut, cut)
				require.NoError(t, serverAccepts(got))
			})
		})
	}
}

// FuzzSanitizeChat: whatever the planner writes, the message the client
// sends is one the server accepts, and sanitizing it again changes nothing.
func FuzzSanitizeChat(f *testing.F) {
	for _, s := range []string{"hello", "a\tb\nc", "§c\x7f\x00", strings.Repeat("😀", 51), "\xff\xfe", " /op me"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, _ := SanitizeChat(in)
		if err := serverAccepts(out); err != nil {
			t.Fatalf("SanitizeChat(%q) = %q: the server rejects it: %v", in, out, err)
		}
		if again, cut := SanitizeChat(out); again != out || cut {
			t.Fatalf("not idempotent: %q -> %q", out, again)
		}
	})
}

func TestOperatorEntries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, u, err := parseOperator("uuid:069A79F4-44E9-4726-A5BE-FCA90E38AAF5")
		require.NoError(t, err)
		assert.Equal(t, "069a79f444e94726a5befca90e38aaf5", u)
		name, _, err := parseOperator(" Alice ")
		require.NoError(t, err)
		assert.Equal(t, "alice", name)
		for _, bad := range []string{"uuid:1234", "uuid:zz9a79f444e94726a5befca90e38aaf5", "Al ice", "", "ThisNameIsWayTooLong"} {
			_, _, err := parseOperator(bad)
			assert.Error(t, err, bad)
		}
		err = Config{Address: "h:1", Username: "Bot", Operators: []string{"Alice", "uuid:nope"}}.Validate()
		require.Error(t, err)
		assert.Contains(t, err.Error(), `operators: "uuid:nope"`)
	})
}

const (
	aliceUUID  = "069a79f4-44e9-4726-a5be-fca90e38aaf5"
	testSecret = "hunter2-correct-horse"
)

func TestGuardOperatorsByUUID(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGuard([]string{"uuid:" + aliceUUID, "Bob"}, CommandConfig{Burst: 100})
		cases := []struct {
			name string
			m    ReceivedChat
			want int
		}{
			{"uuid known and equal", ReceivedChat{Sender: "Alice", SenderUUID: strings.ReplaceAll(aliceUUID, "-", ""), Text: "!bot stop"}, verdictObey},
			{"uuid unknown: a name is not enough", ReceivedChat{Sender: "Alice", Text: "!bot stop"}, verdictNotOperator},
			{"uuid differs (impostor with the name)", ReceivedChat{Sender: "Alice", SenderUUID: "00000000000000000000000000000001", Text: "!bot stop"}, verdictNotOperator},
			{"the uuid as a name", ReceivedChat{Sender: "uuid:" + aliceUUID, Text: "!bot stop"}, verdictNotOperator},
			{"name operator", ReceivedChat{Sender: "bob", Text: "!bot stop"}, verdictObey},
			{"name operator whatever the uuid", ReceivedChat{Sender: "Bob", SenderUUID: "00000000000000000000000000000001", Text: "!bot stop"}, verdictObey},
			{"stranger", ReceivedChat{Sender: "Mallory", Text: "!bot stop"}, verdictNotOperator},
		}
		for _, tc := range cases {
			_, v := g.check(tc.m, "Bot")
			assert.Equal(t, tc.want, v, tc.name)
		}
	})
}

func TestGuardSecret(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sec := CommandConfig{Burst: 100, Secret: NewSecret(testSecret)}
		g := newGuard([]string{"Alice"}, sec)
		cases := []struct {
			name string
			m    ReceivedChat
			want int
		}{
			{"whispered with the secret", ReceivedChat{Sender: "Alice", Whisper: true, Text: "!bot " + testSecret + " goto 1 2 3"}, verdictObey},
			{"name alone is not enough", ReceivedChat{Sender: "Alice", Whisper: true, Text: "!bot goto 1 2 3"}, verdictBadSecret},
			{"wrong secret", ReceivedChat{Sender: "Alice", Whisper: true, Text: "!bot hunter2-correct-horsE stop"}, verdictBadSecret},
			{"secret prefix only", ReceivedChat{Sender: "Alice", Whisper: true, Text: "!bot hunter2 stop"}, verdictBadSecret},
			{"secret in public chat", ReceivedChat{Sender: "Alice", Text: "!bot " + testSecret + " stop"}, verdictNotWhispered},
			{"secret but not an operator", ReceivedChat{Sender: "Mallory", Whisper: true, Text: "!bot " + testSecret + " stop"}, verdictNotOperator},
			{"secret and nothing else", ReceivedChat{Sender: "Alice", Whisper: true, Text: "!bot " + testSecret}, verdictNotCommand},
		}
		for _, tc := range cases {
			cmd, v := g.check(tc.m, "Bot")
			assert.Equal(t, tc.want, v, tc.name)
			if v == verdictObey {
				assert.Equal(t, Command{From: "Alice", Name: "goto", Args: "1 2 3"}, cmd)
			}
		}
		// Without operators, the secret alone commands.
		open := newGuard(nil, sec)
		_, v := open.check(ReceivedChat{Sender: "Anyone", Whisper: true, Text: "!bot " + testSecret + " stop"}, "Bot")
		assert.Equal(t, verdictObey, v)
		_, v = open.check(ReceivedChat{Sender: "Anyone", Whisper: true, Text: "!bot stop"}, "Bot")
		assert.Equal(t, verdictBadSecret, v)
		// Without a secret or operators, nobody.
		_, v = newGuard(nil, CommandConfig{}).check(ReceivedChat{Sender: "Anyone", Whisper: true, Text: "!bot stop"}, "Bot")
		assert.Equal(t, verdictNotOperator, v)
		assert.NotContains(t, g.String(), testSecret)
	})
}

func TestSecretValidation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, bad := range []string{"short", "has space in it", "tab\there-x", "§cformatted"} {
			err := CommandConfig{Secret: NewSecret(bad)}.Validate()
			require.Error(t, err, bad)
			assert.NotContains(t, err.Error(), bad)
		}
		assert.NoError(t, CommandConfig{Secret: NewSecret(testSecret)}.Validate())
	})
}

func TestParseChatTakesTheAccountNameFromTheClickEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// EntityPlayer.getFormattedCommandSenderName: the decorated display
		// name, with "/msg <account name> " as its click event.
		raw := `{"translate":"chat.type.text","with":[{"text":"[Admin] Alice","clickEvent":{"action":"suggest_command","value":"/msg Alice "}},"!bot ping"]}`
		m := parseChat(raw)
		assert.Equal(t, "Alice", m.Sender)
		assert.Equal(t, "!bot ping", m.Text)
		// A click event that is not a /msg falls back to the text.
		m = parseChat(`{"translate":"chat.type.text","with":[{"text":"Bob","clickEvent":{"action":"open_url","value":"http://x"}},"hi"]}`)
		assert.Equal(t, "Bob", m.Sender)
	})
}

func TestKickClassification(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		permanent := []struct{ raw, why string }{
			{`{"text":"You are banned from this server!\nReason: griefing"}`, "banned"},
			{`{"text":"You are banned from this server."}`, "banned"},
			{`{"text":"Your IP address is banned from this server!\nReason: x"}`, "IP banned"},
			{`{"text":"You are not white-listed on this server!"}`, "not on the white-list"},
			{`{"text":"You are not whitelisted on this server!"}`, "not on the white-list"},
			{`{"text":"Outdated server! I'm still on 1.7.10"}`, "client version refused"},
			{`{"text":"Outdated client! Please use 1.7.10"}`, "client version refused"},
			{`{"text":"Failed to verify username!"}`, "the session service did not verify the account"},
			{`{"text":"Mod rejections [gregtech, neid]"}`, "the mod list does not match"},
			{`{"text":"You logged in from another location"}`, "the account logged in from another client"},
			{`{"text":"Kicked by an operator."}`, "an operator kicked the bot"},
			{`{"translate":"multiplayer.disconnect.not_whitelisted"}`, "not on the white-list"},
			{`{"translate":"multiplayer.disconnect.banned.reason","with":["x"]}`, "banned"},
			{`{"translate":"multiplayer.disconnect.outdated_client","with":["1.12.2"]}`, "client version refused"},
			{`"mod rejections {x=missing}"`, "the mod list does not match"},
		}
		for _, tc := range permanent {
			k := kickFrom(tc.raw)
			why, ok := k.Permanent()
			assert.True(t, ok, tc.raw)
			assert.Equal(t, tc.why, why, tc.raw)
			assert.True(t, fatal(&LoginError{Stage: StageLogin, Err: k}), tc.raw)
		}
		for _, raw := range []string{`{"text":"Server closed"}`, `{"translate":"disconnect.timeout"}`, `{"text":"Timed out"}`,
			`{"text":"The server is full!"}`, `{"text":"disconnect.spam"}`, `{"text":"Took too long to log in"}`,
			`{"text":"Authentication servers are down. Please try again later, sorry!"}`, `{"text":"Internal Exception: java.io.IOException: Connection reset by peer"}`,
			`{"text":"Banned words are not allowed"}`, `not json`, ``} {
			k := kickFrom(raw)
			_, ok := k.Permanent()
			assert.False(t, ok, raw)
			assert.False(t, fatal(k), raw)
		}
		assert.Equal(t, "multiplayer.disconnect.not_whitelisted", kickFrom(`{"translate":"multiplayer.disconnect.not_whitelisted"}`).Key)
	})
}

// whisper is a 1.7.10 /msg to the bot.
func whisper(from, msg string) *proto17.Chat {
	b, _ := json.Marshal(map[string]any{"translate": "commands.message.display.incoming", "with": []any{
		map[string]any{"text": from, "clickEvent": map[string]string{"action": "suggest_command", "value": "/msg " + from + " "}},
		map[string]any{"text": msg, "italic": true}}})
	return &proto17.Chat{JSON: string(b)}
}

func publicChat(from, msg string) *proto17.Chat {
	b, _ := json.Marshal(map[string]any{"translate": "chat.type.text", "with": []any{
		map[string]any{"text": from, "clickEvent": map[string]string{"action": "suggest_command", "value": "/msg " + from + " "}}, msg}})
	return &proto17.Chat{JSON: string(b)}
}

// syncBuffer is a log sink safe for the client's goroutines.
type syncBuffer struct {
	mu chan struct{}
	b  bytes.Buffer
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{mu: make(chan struct{}, 1)} }

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu <- struct{}{}
	defer func() { <-s.mu }()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu <- struct{}{}
	defer func() { <-s.mu }()
	return s.b.String()
}

// TestSecretNeverLeaves: the operator secret works in a whisper, and
// appears nowhere the client exposes: logs (at debug level), the chat
// history, the commands handed on, the stats, the configuration printed.
func TestSecretNeverLeaves(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		logs := newSyncBuffer()
		commands := make(chan Command, 4)
		done, own := make(chan struct{}), make(chan string, 1)
		var said []string
		n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
			sc.send(whisper("Alice", "!bot "+testSecret+" ping"))
			said = append(said, expect(sc, func(*proto17.ServerboundChat) bool { return true }).Message)
			sc.send(whisper("Alice", "!bot "+testSecret+" stop now"))
			sc.send(publicChat("Alice", "!bot "+testSecret+" stop")) // said in public: refused
			sc.send(publicChat("Mallory", "my guess: "+testSecret))  // someone repeats it
			sc.send(whisper("Alice", "!bot wrong-secret-here stop")) // wrong secret
			sc.send(&proto17.KeepAlive{ID: 1})
			expect(sc, func(*proto17.ServerboundKeepAlive) bool { return true })
			close(done)
			own <- expect(sc, func(*proto17.ServerboundChat) bool { return true }).Message
		}))
		cfg := func(cfg *Config) {
			cfg.Mods = testMods
			cfg.Operators = []string{"Alice"}
			cfg.Commands = CommandConfig{Secret: NewSecret(testSecret)}
			cfg.OnCommand = func(cmd Command) { commands <- cmd }
			cfg.Log = zerolog.New(logs).Level(zerolog.DebugLevel)
		}
		c := testClient(t, n, cfg)
		require.NoError(t, c.Open(context.Background()))
		recv(t, done)
		assert.Equal(t, []string{"pong"}, said)
		assert.Equal(t, Command{From: "Alice", Name: "stop", Args: "now"}, recv(t, commands))
		// The bot's own chat never carries it either.
		res := c.Execute(context.Background(), action.Chat{Message: "the secret is " + testSecret})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		assert.Equal(t, "the secret is "+redacted, recv(t, own))

		st := c.Stats()
		assert.Equal(t, 2, st.Commands)
		assert.Equal(t, 2, st.Ignored, "the public line and the wrong secret")
		history, err := json.Marshal(c.Chat())
		require.NoError(t, err)
		stats, err := json.Marshal(st)
		require.NoError(t, err)
		// What the body server forwards as chat events: every line received,
		// scrubbed.
		lines, next := c.ChatSince(0)
		require.Len(t, lines, 5)
		assert.Equal(t, uint64(6), next)
		assert.Equal(t, "Alice", lines[0].From)
		assert.Equal(t, "!bot "+redacted+" ping", lines[0].Text, "the whispered command is forwarded scrubbed")
		assert.Equal(t, "Mallory", lines[3].From)
		source, err := json.Marshal(lines)
		require.NoError(t, err)
		require.NoError(t, c.Close())
		var cfgDump Config
		cfg(&cfgDump)
		for what, text := range map[string]string{"logs": logs.String(), "chat history": string(history), "chat source": string(source), "stats": string(stats),
			"config": fmt.Sprintf("%v %+v %#v", cfgDump, cfgDump, cfgDump.Commands)} {
			assert.NotContains(t, text, testSecret, what)
		}
		assert.Contains(t, string(history), redacted)
		assert.Contains(t, logs.String(), "must be whispered", "the refusal says why")
		sent := 0
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, `"message":"chat"`) {
				sent++
			}
		}
		assert.Equal(t, 5, sent, "every line was logged (scrubbed)")
	})
}

// chatScript logs in, then reports every chat message the client sends
// until the test closes stop.
func chatScript(got chan<- string, stop <-chan struct{}) func(*serverConn) {
	return playScript(gtnhLogin(nil), func(sc *serverConn) {
		for {
			select {
			case p := <-sc.in:
				if m, ok := p.(*proto17.ServerboundChat); ok {
					got <- m.Message
				}
			case <-stop:
				return
			case <-sc.done:
				return
			}
		}
	})
}

func TestChatActionSanitizesAndRefusesCommands(t *testing.T) {
	long := strings.Repeat("0123456789", 15)
	cases := []struct {
		name, msg string
		allow     bool
		code      ipc.Code
		sent      string
	}{
		{"sanitized", "hello\tworld\n§cred§r DEL\x7f", false, ipc.OK, "hello world red DEL"},
		{"long text is cut", long, false, ipc.OK, long[:100]},
		{"unicode", "Grüße 😀", false, ipc.OK, "Grüße 😀"},
		{"command refused", "/op Mallory", false, ipc.Rejected, ""},
		{"command behind whitespace and controls", " \t\x01/give Bot minecraft:diamond 64", false, ipc.Rejected, ""},
		{"command behind a formatting code", "§c/kill", false, ipc.Rejected, ""},
		{"nothing left", "\t\n§\x7f", false, ipc.InvalidParams, ""},
		{"command allowed", "/home base", true, ipc.OK, "/home base"},
		{"a slash later is no command", "use /help", false, ipc.OK, "use /help"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				got, stop := make(chan string, 4), make(chan struct{})
				defer close(stop)
				n := newPipeNet(t, chatScript(got, stop))
				c := testClient(t, n, func(cfg *Config) { cfg.Mods = testMods; cfg.AllowCommands = tc.allow })
				require.NoError(t, c.Open(context.Background()))
				res := c.Execute(context.Background(), action.Chat{Message: tc.msg})
				require.Equal(t, tc.code, res.Code, res.Error)
				if tc.code == ipc.Rejected {
					assert.Contains(t, res.Error, "allow_commands")
				}
				// The reply of an operator command goes through the same door.
				require.NoError(t, c.Say("marker"))
				var sent []string
				for m := recv(t, got); m != "marker"; m = recv(t, got) {
					sent = append(sent, m)
				}
				if tc.sent == "" {
					assert.Empty(t, sent, "nothing reached the server")
				} else {
					assert.Equal(t, []string{tc.sent}, sent)
				}
				if !tc.allow {
					assert.ErrorIs(t, c.Say("/stop"), ErrChatCommand)
				}
			})
		})
	}
}

// TestOperatorByUUIDNeedsTheServersUUID: an operator given by UUID is
// obeyed while the server has spawned that player (Spawn Player carries the
// UUID); out of view, or with another UUID under the same name (an
// offline-mode impostor), the name alone does not command.
func TestOperatorByUUIDNeedsTheServersUUID(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		done := make(chan struct{})
		var said []string
		impostor := offlineUUID("Alice")
		n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
			sc.send(publicChat("Alice", "!bot ping")) // not in view: no UUID
			sc.send(&proto17.SpawnPlayer{EntityID: 50, UUID: aliceUUID, Name: "Alice", X: 32, Y: 64 * 32, Z: 32})
			sc.send(publicChat("Alice", "!bot ping"))
			said = append(said, expect(sc, func(*proto17.ServerboundChat) bool { return true }).Message)
			sc.send(&proto17.DestroyEntities{IDs: []int32{50}})
			sc.send(publicChat("Alice", "!bot ping"))
			sc.send(&proto17.SpawnPlayer{EntityID: 51, UUID: impostor, Name: "Alice", X: 32, Y: 64 * 32, Z: 32})
			sc.send(publicChat("Alice", "!bot ping"))
			sc.send(&proto17.KeepAlive{ID: 1})
			expect(sc, func(*proto17.ServerboundKeepAlive) bool { return true })
			close(done)
		}))
		c := testClient(t, n, func(cfg *Config) {
			cfg.Mods = testMods
			cfg.Operators = []string{"uuid:" + aliceUUID}
		})
		require.NoError(t, c.Open(context.Background()))
		recv(t, done)
		assert.Equal(t, []string{"pong"}, said)
		st := c.Stats()
		assert.Equal(t, 1, st.Commands)
		assert.Equal(t, 3, st.Ignored)
		lines := c.Chat()
		require.Len(t, lines, 4)
		assert.Equal(t, []string{"", strings.ReplaceAll(aliceUUID, "-", ""), "", strings.ReplaceAll(impostor, "-", "")},
			[]string{lines[0].SenderUUID, lines[1].SenderUUID, lines[2].SenderUUID, lines[3].SenderUUID})
	})
}

// offlineUUID is the UUID an offline-mode server gives a name: UUID v3 of
// "OfflinePlayer:" + name.
func offlineUUID(name string) string { return offline.NameToUUID(name).String() }

// FuzzServerChat: chat and kick components from the server never panic the
// client's readers, the guard, or scrubbing; a line that carried the secret
// never keeps it, and a kick's reason is the component's plain text.
func FuzzServerChat(f *testing.F) {
	for _, s := range []string{
		`{"translate":"chat.type.text","with":[{"text":"Alice","clickEvent":{"action":"suggest_command","value":"/msg Alice "}},"!bot ping"]}`,
		`{"translate":"commands.message.display.incoming","with":["Bob",{"text":"!bot ` + testSecret + ` stop"}]}`,
		`{"translate":"chat.type.text","with":[{"clickEvent":{"action":"suggest_command","value":"/msg "}},{"extra":[1,true,null]}]}`,
		`{"translate":"multiplayer.disconnect.banned.reason","with":["x"]}`,
		`{"text":"You are banned from this server!\nReason: x"}`,
		`"plain"`, `[{"text":"a"},"b"]`, `{"translate":5}`, `not json`, ``,
	} {
		f.Add(s)
	}
	g := newGuard([]string{"Alice", "uuid:" + aliceUUID}, CommandConfig{Burst: 1 << 20, Secret: NewSecret(testSecret)})
	f.Fuzz(func(t *testing.T, raw string) {
		m := parseChat(raw)
		g.check(m, "Bot")
		for _, s := range []string{g.scrub(m.Text), g.scrub(m.Plain)} {
			if strings.Contains(s, testSecret) {
				t.Fatalf("the secret survived scrubbing: %q", s)
			}
		}
		k := kickFrom(raw)
		if k.Reason != proto17.PlainText(raw) {
			t.Fatalf("reason %q, plain text %q", k.Reason, proto17.PlainText(raw))
		}
		k.Permanent()
	})
}
