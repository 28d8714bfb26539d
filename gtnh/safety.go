package gtnh

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/Tnze/go-mc/chat"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

func randFloat() float64 { return rand.Float64() }

// CommandConfig tunes chat commands.
type CommandConfig struct {
	// Prefix starts a command in chat (default "!bot ").
	Prefix string
	// Burst is how many commands one operator may send at once (default 3);
	// PerMinute how many are refilled per minute (default 6).
	Burst     int
	PerMinute float64
	// Now is the clock (default time.Now).
	Now func() time.Time
}

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

// Validate checks the settings.
func (c CommandConfig) Validate() error {
	if c.Burst < 0 || c.PerMinute < 0 {
		return errors.New("burst and per-minute rate must not be negative")
	}
	if strings.TrimSpace(c.Prefix) == "" && c.Prefix != "" {
		return errors.New("prefix must not be blank")
	}
	return nil
}

// ChatMessage is a chat line the client received.
type ChatMessage struct {
	// Sender is the player who wrote it ("" for server messages).
	Sender string `json:"sender,omitempty"`
	// Text is the message without the sender; Plain the whole line as a
	// player would read it.
	Text  string `json:"text"`
	Plain string `json:"plain"`
	// Whisper: sent privately to the bot (/tell).
	Whisper bool `json:"whisper,omitempty"`
	// Time is when it arrived.
	Time time.Time `json:"time"`
}

// Command is an operator's chat command.
type Command struct {
	From string
	// Name is the first word after the prefix, Args the rest.
	Name string
	Args string
}

// parseChat reads a 1.7.10 chat component: player chat is the translation
// chat.type.text with the sender and the message, a whisper is
// commands.message.display.incoming.
func parseChat(raw string) ChatMessage {
	var m chat.Message
	msg := ChatMessage{Plain: proto17.PlainText(raw)}
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		msg.Text = msg.Plain
		return msg
	}
	switch m.Translate {
	case "chat.type.text", "chat.type.announcement", "commands.message.display.incoming":
		if len(m.With) == 2 {
			msg.Sender = plainOf(m.With[0])
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

func plainOf(m chat.Message) string {
	b, err := json.Marshal(m)
	if err != nil {
		return m.Text
	}
	return proto17.PlainText(string(b))
}

// guard decides which chat lines are commands to obey: from an operator on
// the allow-list, with the prefix, within the rate limit.
type guard struct {
	cfg       CommandConfig
	operators map[string]bool
	mu        sync.Mutex
	buckets   map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newGuard(operators []string, cfg CommandConfig) *guard {
	g := &guard{cfg: cfg.withDefaults(), operators: map[string]bool{}, buckets: map[string]*bucket{}}
	for _, o := range operators {
		if o = strings.TrimSpace(o); o != "" {
			g.operators[strings.ToLower(o)] = true
		}
	}
	return g
}

// Verdicts of guard.check.
const (
	verdictNotCommand = iota
	verdictObey
	verdictNotOperator
	verdictRateLimited
)

// check classifies a message; for verdictObey it returns the command.
func (g *guard) check(m ChatMessage, self string) (Command, int) {
	if m.Sender == "" || strings.EqualFold(m.Sender, self) {
		return Command{}, verdictNotCommand
	}
	text := strings.TrimSpace(m.Text)
	prefix := strings.TrimSpace(g.cfg.Prefix)
	if !strings.HasPrefix(text, prefix) {
		return Command{}, verdictNotCommand
	}
	rest := strings.TrimSpace(strings.TrimPrefix(text, prefix))
	if rest == "" {
		return Command{}, verdictNotCommand
	}
	if !g.operators[strings.ToLower(m.Sender)] {
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

// String describes the guard for logs.
func (g *guard) String() string {
	return fmt.Sprintf("%d operators, prefix %q, burst %d, %.1f/min", len(g.operators), g.cfg.Prefix, g.cfg.Burst, g.cfg.PerMinute)
}
