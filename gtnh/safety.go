package gtnh

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/Tnze/go-mc/chat"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
)

func randFloat() float64 { return rand.Float64() }

// CommandConfig tunes operators' chat commands.
type CommandConfig struct {
	// Prefix starts a command in chat (default "!bot "). A prefix that
	// ends in a space needs one after it: "!botanist" is not a command.
	Prefix string
	// Burst is how many commands one operator may send at once (default 3);
	// PerMinute how many are refilled per minute (default 6).
	Burst     int
	PerMinute float64
	// Secret, when set, must follow the prefix in every command
	// ("!bot <secret> stop"), and commands are obeyed only from whispers
	// (/msg, /tell): a secret said in public chat is known to every player.
	// With a secret, an operator name alone is not enough; when Operators
	// is empty, anyone who knows the secret may command. The secret is
	// compared in constant time and replaced by [REDACTED] in the chat the
	// client keeps and logs.
	Secret Secret
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// MinSecretLength is the shortest operator secret accepted.
const MinSecretLength = 8

func (c CommandConfig) withDefaults() CommandConfig {
	if c.Prefix == "" {
		c.Prefix = "!bot "
	}
	if c.Burst <= 0 {
		c.Burst = 3
	}
	if c.PerMinute <= 0 {
		c.PerMinute = 6
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Validate checks the settings. Errors never contain the secret.
func (c CommandConfig) Validate() error {
	if c.Burst < 0 || c.PerMinute < 0 {
		return errors.New("burst and per-minute rate must not be negative")
	}
	if strings.TrimSpace(c.Prefix) == "" && c.Prefix != "" {
		return errors.New("prefix must not be blank")
	}
	if sec := c.Secret.Reveal(); sec != "" {
		if n := utf8.RuneCountInString(sec); n < MinSecretLength {
			return fmt.Errorf("the operator secret has %d characters; at least %d are required", n, MinSecretLength)
		}
		for _, r := range sec {
			if unicode.IsSpace(r) || !chatAllowed(r) {
				return errors.New("the operator secret must be one word of characters chat allows (no spaces, control characters or §)")
			}
		}
	}
	return nil
}

// OperatorUUIDPrefix marks an operator given by UUID ("uuid:<uuid>").
const OperatorUUIDPrefix = "uuid:"

// parseOperator reads an operator entry: a player name, or "uuid:" and a
// UUID (with or without hyphens). It returns the name (lower case) or the
// UUID (32 lower-case hex digits).
func parseOperator(entry string) (name, uuid string, err error) {
	e := strings.TrimSpace(entry)
	if rest, ok := strings.CutPrefix(strings.ToLower(e), OperatorUUIDPrefix); ok {
		u, ok := normUUID(rest)
		if !ok {
			return "", "", fmt.Errorf("%q: want uuid: and 32 hex digits (hyphens allowed)", entry)
		}
		return "", u, nil
	}
	if err := ValidUsername(e); err != nil {
		return "", "", fmt.Errorf("%q: a player name (letters, digits, _; at most 16) or uuid:<uuid>: %v", entry, err)
	}
	return strings.ToLower(e), "", nil
}

// normUUID lower-cases a UUID and drops its hyphens; false when it is not
// 32 hex digits.
func normUUID(s string) (string, bool) {
	u := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), "-", ""))
	if len(u) != 32 {
		return "", false
	}
	for _, r := range u {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return "", false
		}
	}
	return u, true
}

// ValidOperators checks operator entries (names or uuid:<uuid>).
func ValidOperators(entries []string) error {
	var errs []error
	for _, e := range entries {
		if _, _, err := parseOperator(e); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// ReceivedChat is a chat line the client received.
type ReceivedChat struct {
	// Sender is the player who wrote it ("" for server messages).
	Sender string `json:"sender,omitempty"`
	// SenderUUID is the sender's UUID (32 hex digits) when the server sent
	// it: 1.7.10 chat carries none, so it is known only for players the
	// server spawned near the bot (Spawn Player carries the UUID).
	SenderUUID string `json:"sender_uuid,omitempty"`
	// Text is the message without the sender; Plain the whole line as a
	// player would read it. The operator secret is replaced by [REDACTED]
	// in both.
	Text  string `json:"text"`
	Plain string `json:"plain"`
	// Whisper: sent privately to the bot (/tell).
	Whisper bool `json:"whisper,omitempty"`
	// Time is when it arrived, Tick the game tick then.
	Time time.Time `json:"time"`
	Tick int64     `json:"tick"`
	// Seq numbers the lines the client received: 1, 2, 3, …
	Seq uint64 `json:"seq"`
}

// Command is an operator's chat command.
type Command struct {
	From string
	// Name is the first word after the prefix (and the secret), Args the
	// rest.
	Name string
	Args string
}

// parseChat reads a 1.7.10 chat component: player chat is the translation
// chat.type.text with the sender and the message, a whisper is
// commands.message.display.incoming.
//
// The sender component is EntityPlayer.getFormattedCommandSenderName
// (Minecraft 1.7.10): the display name (which teams and mods may decorate)
// with a click event suggesting "/msg <account name> ". The account name is
// taken from that click event when present, else from the text. 1.7.10's
// HoverEvent has no show_entity action (only show_text, show_achievement
// and show_item), so chat never carries the sender's UUID.
func parseChat(raw string) ReceivedChat {
	var m chat.Message
	msg := ReceivedChat{Plain: proto17.PlainText(raw)}
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		msg.Text = msg.Plain
		return msg
	}
	switch m.Translate {
	case "chat.type.text", "chat.type.announcement", "commands.message.display.incoming":
		if len(m.With) == 2 {
			msg.Sender = senderName(m.With[0])
			msg.Text = plainOf(m.With[1])
			msg.Whisper = m.Translate == "commands.message.display.incoming"
			if m.Translate == "chat.type.announcement" {
				msg.Sender = "" // /say comes from the server console or a command block
			}
			return msg
		}
	}
	msg.Text = msg.Plain
	return msg
}

// senderName is the account name of a sender component: the name in its
// "/msg <name> " click event, else its text.
func senderName(m chat.Message) string {
	if ce := m.ClickEvent; ce != nil && ce.Action == "suggest_command" {
		if rest, ok := strings.CutPrefix(ce.Value, "/msg "); ok {
			if name := strings.TrimSpace(rest); ValidUsername(name) == nil {
				return name
			}
		}
	}
	return plainOf(m)
}

func plainOf(m chat.Message) string {
	b, err := json.Marshal(m)
	if err != nil {
		return m.Text
	}
	return proto17.PlainText(string(b))
}

// guard decides which chat lines are commands to obey: from an operator on
// the allow-list (by name, or by UUID when the sender's is known), with the
// prefix and the secret when one is set, within the rate limit.
type guard struct {
	cfg     CommandConfig
	names   map[string]bool // lower case
	uuids   map[string]bool // 32 hex digits
	secret  [sha256.Size]byte
	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// newGuard builds the guard; entries that do not parse (Config.Validate
// reports them) are left out.
func newGuard(operators []string, cfg CommandConfig) *guard {
	g := &guard{cfg: cfg.withDefaults(), names: map[string]bool{}, uuids: map[string]bool{}, buckets: map[string]*bucket{}}
	for _, o := range operators {
		name, uuid, err := parseOperator(o)
		switch {
		case err != nil:
		case uuid != "":
			g.uuids[uuid] = true
		default:
			g.names[name] = true
		}
	}
	if !g.cfg.Secret.Empty() {
		g.secret = sha256.Sum256([]byte(g.cfg.Secret.Reveal()))
	}
	return g
}

// Verdicts of guard.check.
const (
	verdictNotCommand = iota
	verdictObey
	verdictNotOperator
	verdictRateLimited
	verdictBadSecret
	verdictNotWhispered
)

var verdictReasons = map[int]string{
	verdictNotOperator:  "not an operator",
	verdictRateLimited:  "rate limited",
	verdictBadSecret:    "missing or wrong secret",
	verdictNotWhispered: "a command with the secret must be whispered (/msg); the secret was said in public chat and should be changed",
}

// secretMatches compares a word with the secret in constant time (both are
// hashed first, so not even the length leaks).
func (g *guard) secretMatches(word string) bool {
	h := sha256.Sum256([]byte(word))
	return subtle.ConstantTimeCompare(h[:], g.secret[:]) == 1
}

// scrub replaces the secret in text.
func (g *guard) scrub(text string) string { return scrub(text, g.cfg.Secret) }

// isOperator matches the sender by name or, for operators given by UUID,
// by the UUID the server sent for that player.
func (g *guard) isOperator(m ReceivedChat) bool {
	if g.names[strings.ToLower(m.Sender)] {
		return true
	}
	if u, ok := normUUID(m.SenderUUID); ok && m.SenderUUID != "" {
		return g.uuids[u]
	}
	return false
}

// check classifies a message; for verdictObey it returns the command.
func (g *guard) check(m ReceivedChat, self string) (Command, int) {
	if m.Sender == "" || strings.EqualFold(m.Sender, self) {
		return Command{}, verdictNotCommand
	}
	text := strings.TrimSpace(m.Text)
	prefix := strings.TrimSpace(g.cfg.Prefix)
	if !strings.HasPrefix(text, prefix) {
		return Command{}, verdictNotCommand
	}
	rest := strings.TrimPrefix(text, prefix)
	endsInSpace := strings.TrimRightFunc(g.cfg.Prefix, unicode.IsSpace) != g.cfg.Prefix
	if endsInSpace && rest != "" && !unicode.IsSpace(rune(rest[0])) {
		// The prefix ends with a space ("!bot "): "!botanist" is chat,
		// not the command "anist".
		return Command{}, verdictNotCommand
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return Command{}, verdictNotCommand
	}
	if !g.cfg.Secret.Empty() {
		word, after, _ := strings.Cut(rest, " ")
		if !g.secretMatches(word) {
			return Command{}, verdictBadSecret
		}
		if !m.Whisper {
			return Command{}, verdictNotWhispered
		}
		rest = strings.TrimSpace(after)
		if rest == "" {
			return Command{}, verdictNotCommand
		}
		if len(g.names)+len(g.uuids) > 0 && !g.isOperator(m) {
			return Command{}, verdictNotOperator
		}
	} else if !g.isOperator(m) {
		return Command{}, verdictNotOperator
	}
	if !g.allow(strings.ToLower(m.Sender)) {
		return Command{}, verdictRateLimited
	}
	name, args, _ := strings.Cut(rest, " ")
	return Command{From: m.Sender, Name: strings.ToLower(name), Args: strings.TrimSpace(args)}, verdictObey
}

// allow takes a token from the sender's bucket.
func (g *guard) allow(who string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.cfg.Now()
	b := g.buckets[who]
	if b == nil {
		b = &bucket{tokens: float64(g.cfg.Burst), at: now}
		g.buckets[who] = b
	}
	b.tokens = min(float64(g.cfg.Burst), b.tokens+now.Sub(b.at).Minutes()*g.cfg.PerMinute)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// String describes the guard for logs (never the secret).
func (g *guard) String() string {
	sec := "no secret"
	if !g.cfg.Secret.Empty() {
		sec = "secret set"
	}
	return fmt.Sprintf("%d operators by name, %d by UUID, %s, prefix %q, burst %d, %.1f/min",
		len(g.names), len(g.uuids), sec, g.cfg.Prefix, g.cfg.Burst, g.cfg.PerMinute)
}

// MaxChatLength is the longest chat message a 1.7.10 server reads, in
// UTF-16 code units: C01PacketChatMessage.readPacketData reads it with
// PacketBuffer.readStringFromBuffer(100), which throws (and the server
// drops the connection) when the string is longer.
const MaxChatLength = 100

// chatAllowed is ChatAllowedCharacters.isAllowedCharacter of Minecraft
// 1.7.10: every char but '§' (167), the control characters below 32 and
// DEL (127). NetHandlerPlayServer.processChatMessage (Forge 1.7.10) kicks
// the player with "Illegal characters in chat" when a message holds any
// other, after StringUtils.normalizeSpace. It is applied per UTF-16 unit;
// the surrogates of characters beyond the BMP (U+D800..DFFF) pass.
func chatAllowed(r rune) bool { return r != 167 && r >= 32 && r != 127 }

// Errors of outgoing chat.
var (
	// ErrChatEmpty: nothing is left of the message once the characters the
	// server rejects are gone.
	ErrChatEmpty = errors.New("nothing left to send once the characters the server rejects are removed")
	// ErrChatCommand: the message is a server command (it starts with /)
	// and the configuration does not allow commands.
	ErrChatCommand = errors.New("the message is a server command (it starts with /) and commands are not allowed " +
		"(server.allow_commands in agent.yaml, Config.AllowCommands)")
)

// SanitizeChat turns text into a chat message a 1.7.10 server accepts:
// whitespace controls (tab, newline, carriage return, vertical tab, form
// feed) become spaces, as the server's StringUtils.normalizeSpace would
// make them; formatting codes ("§c") and the other characters
// ChatAllowedCharacters rejects (§, controls, DEL) are dropped; runs of
// spaces collapse to one and the ends are trimmed; invalid UTF-8 becomes
// U+FFFD; and the result is cut at MaxChatLength UTF-16 units, never
// inside a character. truncated reports the cut.
//
// A long message is cut, not split: every chat message adds 20 to the
// server's spam counter (NetHandlerPlayServer.chatSpamThresholdCount, one
// off per tick), and a player above 200 who is not an operator is kicked
// with "disconnect.spam", so a split reply could get the bot kicked.
func SanitizeChat(text string) (out string, truncated bool) {
	return sanitizeChat(text, MaxChatLength)
}

// sanitizeChat is SanitizeChat cutting at limit UTF-16 units.
func sanitizeChat(text string, limit int) (out string, truncated bool) {
	var b strings.Builder
	units := 0
	space := false
	code := false
	for _, r := range text { // invalid UTF-8 reads as utf8.RuneError (U+FFFD)
		if code {
			code = false
			if strings.ContainsRune(formattingCodes, r) {
				continue // the letter of a "§c" formatting code
			}
		}
		if r == '§' {
			code = true
			continue
		}
		switch r {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			space = b.Len() > 0
			continue
		}
		if !chatAllowed(r) {
			continue
		}
		n := utf16.RuneLen(r)
		if space {
			n++
		}
		if units+n > limit {
			return b.String(), true
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
		units += n
	}
	return b.String(), false
}

// formattingCodes are the letters that follow § in a formatting code
// (EnumChatFormatting of 1.7.10).
const formattingCodes = "0123456789abcdefklmnorABCDEFKLMNOR"

// chatLine prepares an outgoing message: sanitized, not empty, and no
// server command unless allowed. The secret never leaves in the bot's own
// chat either.
func (c *Client) chatLine(text string) (string, error) {
	// Scrubbed before and after sanitizing (removing characters may join
	// the secret's pieces), and cut to the length limit only then: a cut
	// before the last scrub could leave the start of the secret at the
	// end of the line, where no scrub finds it. The second pass also cuts
	// a line that "[REDACTED]" made longer than the limit.
	first, _ := sanitizeChat(c.guard.scrub(text), math.MaxInt)
	out, truncated := SanitizeChat(c.guard.scrub(first))
	if out == "" {
		return "", ErrChatEmpty
	}
	if strings.HasPrefix(out, "/") && !c.cfg.AllowCommands {
		return "", ErrChatCommand
	}
	if truncated {
		c.log.Debug().Int("max", MaxChatLength).Msg("chat message cut to the server's length limit")
	}
	return out, nil
}

// seenPlayer is a player the server spawned near the bot.
type seenPlayer struct{ name, uuid string }

// seePlayer records the UUID of a spawned player (Spawn Player carries the
// UUID string since protocol 5, Minecraft 1.7.6: S0CPacketSpawnPlayer).
func (c *Client) seePlayer(s *session, p *proto17.SpawnPlayer) {
	u, ok := normUUID(p.UUID)
	c.mu.Lock()
	if !ok {
		delete(s.players, p.EntityID) // no UUID: nothing to match an operator by
		c.mu.Unlock()
		return
	}
	// Only players the session tracks as entities (see maxEntities): a
	// server spawning players past the bound must not grow this map.
	if s.entities[p.EntityID] {
		s.players[p.EntityID] = seenPlayer{name: p.Name, uuid: u}
	}
	c.mu.Unlock()
}

// uuidOf is the UUID of a player the server spawned in this session, ""
// when none by that name is in view.
func (c *Client) uuidOf(s *session, name string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range s.players {
		if strings.EqualFold(p.name, name) {
			return p.uuid
		}
	}
	return ""
}

// chat runs the chat action: a message that would be empty once sanitized
// is invalid_params, a server command the configuration does not allow is
// rejected.
func (x *act) chat(a action.Chat) ipc.Result {
	err := x.c.say(x.s, a.Message)
	switch {
	case err == nil:
		return ipc.Result{Code: ipc.OK}
	case errors.Is(err, ErrChatEmpty):
		return ipc.Failf(ipc.InvalidParams, 0, "chat: %v", err)
	case errors.Is(err, ErrChatCommand):
		return ipc.Failf(ipc.Rejected, 0, "chat: %v", err)
	}
	return x.fail(err, "sending chat")
}
