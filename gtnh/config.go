package gtnh

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Defaults of Config fields left zero.
const (
	DefaultTick          = 50 * time.Millisecond
	DefaultDialTimeout   = 10 * time.Second
	DefaultLoginTimeout  = 60 * time.Second
	DefaultReadTimeout   = 30 * time.Second
	DefaultWriteTimeout  = 10 * time.Second
	DefaultActionTimeout = 2 * time.Minute
	DefaultViewDistance  = 8
	// DefaultCompactPerTick is how many chunk sections a tick packs from
	// the wire arrays the decoder kept into the palette form (about 1–3 ms
	// of work): a 21×21-column view is packed within a few seconds of
	// joining.
	DefaultCompactPerTick = 64
	// DefaultBreakFactor multiplies the vanilla break time before the
	// finish packet: the server accepts it from 70 %, and finishes a block
	// itself at 100 % when the client was early.
	DefaultBreakFactor = 1.25
	// WalkSpeed is the walking speed in blocks per tick (4.317 blocks/s).
	WalkSpeed = 0.2159
	// Reach is how far from the eyes a survival player breaks and places.
	Reach = 4.5
)

// Dialer opens the TCP connection to a server; tests pass one that returns
// a net.Pipe end.
type Dialer func(ctx context.Context, address string) (net.Conn, error)

// Config configures a Client. Only Address and Username are required.
type Config struct {
	// Address is host:port of the server.
	Address string
	// Username is the player name (offline mode) or the account's name.
	Username string
	// Auth joins online-mode servers; nil allows offline-mode servers only.
	Auth AuthProvider
	// Mods is the mod list the client claims in the FML handshake; Forge
	// rejects a client whose list differs from the server's, so the default
	// (nil) echoes the list the server announced in its ping.
	Mods []proto17.ModInfo
	// Formats, when set, overrides the wire formats decided from the mod
	// list (tests of vanilla servers).
	Formats *proto17.Formats

	// Dial opens connections (default: go-mc's dialer, with SRV lookup
	// when the address has no port).
	Dial Dialer
	// Timeouts; zero means the Default* value.
	DialTimeout, LoginTimeout, ReadTimeout, WriteTimeout time.Duration
	// Tick is the duration of one game tick (default 50 ms; tests shorten
	// it). Movement, dig timing and action budgets count ticks.
	Tick time.Duration
	// ActionTimeout bounds one action (default 2 minutes); ActionTimeouts
	// overrides it per action kind ("move_to", "break_block", …).
	ActionTimeout  time.Duration
	ActionTimeouts map[string]time.Duration
	// BreakFactor multiplies the vanilla break time (default 1.25).
	BreakFactor float64
	// CollectDrops walks to the items a broken block drops (default on;
	// set NoCollectDrops to turn it off).
	NoCollectDrops bool
	// NoAutoRespawn keeps a dead player dead instead of asking to respawn.
	NoAutoRespawn bool
	// CompactPerTick bounds the chunk sections packed each tick (see
	// world.State.CompactChunks); 0 means DefaultCompactPerTick, negative
	// turns packing off (sections then keep their wire arrays).
	CompactPerTick int

	// Reconnect controls reconnecting after the connection ends; the zero
	// value does not reconnect (one-shot runs).
	Reconnect Backoff

	// Operators may command the bot in chat: player names, or
	// "uuid:<uuid>" entries that match only a sender whose UUID the
	// server sent (see ReceivedChat.SenderUUID). Names can be taken by
	// anyone on an offline-mode server, whose UUIDs are derived from the
	// name (UUID v3 of "OfflinePlayer:<name>"), so there only
	// Commands.Secret protects the commands. Commands tunes them.
	Operators []string
	Commands  CommandConfig
	// AllowCommands lets the chat action send server commands (messages
	// starting with /). Off by default: a chat action starting with / then
	// fails with ipc.Rejected.
	AllowCommands bool
	// OnCommand receives the operator commands the client does not answer
	// itself (everything but ping and status).
	OnCommand func(Command)

	// State is the world the client feeds (default: a new one, built with
	// Rules).
	State *world.State
	// Rules are the game's rules the client plays by: block hardness and
	// tools for breaking, tags, recipes for crafting, the id map it starts
	// with (default: rules.Default(), the shipped set). A State passed in
	// should be built with the same.
	Rules *rules.Set
	// ViewDistance in chunks, sent in Client Settings (default 8).
	ViewDistance int
	// Tap, when set, sees every frame of every connection (recording a
	// session: gtnh/record).
	Tap Tap
	// Log receives the client's log (default: disabled). Credentials never
	// reach it.
	Log zerolog.Logger
}

// withDefaults fills zero fields.
func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.DialTimeout, DefaultDialTimeout)
	def(&c.LoginTimeout, DefaultLoginTimeout)
	def(&c.ReadTimeout, DefaultReadTimeout)
	def(&c.WriteTimeout, DefaultWriteTimeout)
	def(&c.Tick, DefaultTick)
	def(&c.ActionTimeout, DefaultActionTimeout)
	if c.BreakFactor <= 0 {
		c.BreakFactor = DefaultBreakFactor
	}
	if c.ViewDistance <= 0 {
		c.ViewDistance = DefaultViewDistance
	}
	if c.CompactPerTick == 0 {
		c.CompactPerTick = DefaultCompactPerTick
	}
	if c.Rules == nil {
		c.Rules = rules.Default()
	}
	if c.State == nil {
		c.State = world.NewState(world.StateOptions{Rules: c.Rules})
	}
	c.Commands = c.Commands.withDefaults()
	c.Reconnect = c.Reconnect.withDefaults()
	return c
}

// Validate checks the configuration; the error names the field.
func (c Config) Validate() error {
	var errs []error
	if c.Address == "" {
		errs = append(errs, errors.New("address: required (host:port)"))
	} else if _, _, err := splitHostPort(c.Address); err != nil {
		errs = append(errs, fmt.Errorf("address: %v", err))
	}
	if err := ValidUsername(c.Username); err != nil {
		errs = append(errs, fmt.Errorf("username: %v", err))
	}
	if c.BreakFactor < 0 {
		errs = append(errs, fmt.Errorf("break factor: %v is negative", c.BreakFactor))
	}
	if c.ViewDistance < 0 || c.ViewDistance > 32 {
		errs = append(errs, fmt.Errorf("view distance: %d outside 0..32", c.ViewDistance))
	}
	if err := c.Reconnect.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("reconnect: %w", err))
	}
	if err := c.Commands.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("commands: %w", err))
	}
	if err := ValidOperators(c.Operators); err != nil {
		errs = append(errs, fmt.Errorf("operators: %w", err))
	}
	return errors.Join(errs...)
}

// ValidUsername checks a player name the way 1.7.10 servers do: 1 to 16
// characters of letters, digits and underscores.
func ValidUsername(name string) error {
	if name == "" {
		return errors.New("required")
	}
	if len(name) > 16 {
		return fmt.Errorf("%q is longer than 16 characters", name)
	}
	for _, r := range name {
		if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return fmt.Errorf("%q: only letters, digits and _ are allowed", name)
		}
	}
	return nil
}

// splitHostPort splits host:port; a missing port means 25565.
func splitHostPort(addr string) (string, uint16, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		if strings.Contains(err.Error(), "missing port") {
			return addr, 25565, nil
		}
		return "", 0, err
	}
	var p int
	if _, err := fmt.Sscanf(port, "%d", &p); err != nil || p < 1 || p > 65535 {
		return "", 0, fmt.Errorf("port %q is not a number in 1..65535", port)
	}
	if host == "" {
		return "", 0, fmt.Errorf("%q has no host", addr)
	}
	return host, uint16(p), nil
}

// timeoutOf is the time limit of an action. A wait asks for its ticks
// themselves: its limit is the kind's plus those ticks at the configured
// tick, twice over (a server running at half speed still answers), so a
// furnace's 64 items (12,800 ticks, over ten minutes) are waited for.
func (c Config) timeoutOf(a action.Action) time.Duration {
	d := c.actionTimeout(string(a.Kind()))
	if w, ok := a.(action.Wait); ok && w.Ticks > 0 {
		d += 2 * time.Duration(w.Ticks) * c.Tick
	}
	return d
}

// actionTimeout returns the time limit of an action kind.
func (c Config) actionTimeout(kind string) time.Duration {
	if d, ok := c.ActionTimeouts[kind]; ok && d > 0 {
		return d
	}
	return c.ActionTimeout
}
