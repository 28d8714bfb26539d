package gtnh

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	pk "github.com/Tnze/go-mc/net/packet"
	"github.com/Tnze/go-mc/offline"
	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// Stats are the client's counters.
type Stats struct {
	// PacketsIn and PacketsOut count packets of the play state.
	PacketsIn  int64 `json:"packets_in"`
	PacketsOut int64 `json:"packets_out"`
	// Skipped counts packets the client reads past without using them
	// (no codec, or nothing in the world model for them), by name.
	// Skipped and Malformed each count at most 128 names separately, the
	// rest under "other" (the server chooses ids and channel names).
	Skipped map[string]int64 `json:"skipped,omitempty"`
	// Malformed counts packets that did not decode, by name; each was
	// dropped and the state it would have changed marked unknown.
	Malformed map[string]int64 `json:"malformed,omitempty"`
	// Unknown lists the parts of the world marked unknown after a
	// malformed packet (e.g. "chunk(3, -2)", "inventory", "entity 17");
	// a later packet that sets the part again clears it. At most 256 are
	// kept; marks beyond that are counted in a last "and N more" entry.
	Unknown []string `json:"unknown,omitempty"`
	// Reconnects counts successful reconnects; Corrections the server's
	// position corrections; KeepAlives the keep-alives answered.
	Reconnects  int `json:"reconnects"`
	Corrections int `json:"corrections"`
	KeepAlives  int `json:"keep_alives"`
	// Commands counts obeyed operator commands; Ignored the chat commands
	// refused (not an operator, or over the rate limit).
	Commands int `json:"commands"`
	Ignored  int `json:"ignored_commands"`
	// Hurts counts the times the server said the bot was hurt (Entity
	// Status 2 for its own entity); Deaths the times its health reached 0.
	Hurts  int `json:"hurts,omitempty"`
	Deaths int `json:"deaths,omitempty"`
}

// Client is a GTNH (Minecraft 1.7.10 Forge) client playing as a bot. It
// implements ipc.Body. Build it with New, connect with Open, end with Close.
type Client struct {
	cfg   Config
	log   zerolog.Logger
	state *world.State
	rules *rules.Set // the game's rules the client plays by
	guard *guard
	// route is move_to's latest route (PlannedRoute).
	route path.RouteLog
	// look is the look last sent to the server (Facing).
	look lastLook

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	opened atomic.Bool
	doneCh chan struct{}
	ticks  atomic.Int64

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced on every change
	sess     *session
	mods     []proto17.ModInfo
	info     *ServerInfo
	chatLog  []ReceivedChat
	chatSeq  uint64 // the Seq of the newest line received
	stats    Stats
	unknown  map[string]bool
	err      error
	worldAge int64
	// diedAt is where the player's health last reached 0 (guarded by mu).
	diedAt world.Vec3
	// deathMsg is the last death message of this player the server sent,
	// deathMsgs how many it sent (both guarded by mu).
	deathMsg  DeathMessage
	deathMsgs int

	// unknownMore counts unknown marks that did not fit in unknown.
	unknownMore int

	// inventoryApplied, for tests only (nil otherwise), is called on the
	// reading goroutine once a server's inventory packet (Set Slot, Window
	// Items, Held Item Change) or an open window's reading (a boiler's
	// ModularUI bar) has been applied and c.mu released: the first moment
	// another goroutine can look at the change.
	inventoryApplied func()
}

// maxChatLog bounds the chat lines kept.
const maxChatLog = 256

// New checks the configuration and returns a client that is not connected.
func New(cfg Config) (*Client, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &Client{
		cfg:     cfg,
		log:     cfg.Log.With().Str("component", "gtnh").Logger(),
		state:   cfg.State,
		rules:   cfg.Rules,
		guard:   newGuard(cfg.Operators, cfg.Commands),
		doneCh:  make(chan struct{}),
		changed: make(chan struct{}),
		unknown: map[string]bool{},
	}
	c.stats.Skipped, c.stats.Malformed = map[string]int64{}, map[string]int64{}
	return c, nil
}

// State is the world the client feeds.
func (c *Client) State() *world.State { return c.state }

// Server is the ping result of the server (nil before Open, or when the
// mod list came from the configuration).
func (c *Client) Server() *ServerInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.info
}

// Stats returns a copy of the counters.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Skipped, s.Malformed = maps.Clone(c.stats.Skipped), maps.Clone(c.stats.Malformed)
	s.Unknown = slices.Sorted(maps.Keys(c.unknown))
	if c.unknownMore > 0 {
		s.Unknown = append(s.Unknown, fmt.Sprintf("and %d more", c.unknownMore))
	}
	if sess := c.sess; sess != nil {
		s.PacketsOut += sess.c.sent.Load()
	}
	return s
}

// Chat returns the chat lines received so far (the last 256).
func (c *Client) Chat() []ReceivedChat {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.chatLog)
}

// Ticks counts the client's game ticks since Open.
func (c *Client) Ticks() int64 { return c.ticks.Load() }

// WorldAge is the server's world age from its last time update.
func (c *Client) WorldAge() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.worldAge
}

// Connected reports whether the player is in the world now (joined, and
// the connection not ended).
func (c *Client) Connected() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sess != nil && c.sess.isJoined() && c.sess.cause() == nil
}

// Done is closed when the client stopped for good: Close, or a lost
// connection that is not (or no longer) retried.
func (c *Client) Done() <-chan struct{} { return c.doneCh }

// Err is why the client stopped (nil after Close).
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Open joins the server: ping (for the mod list to echo, unless Config.Mods
// is set), login, the FML handshake, and the first position from the
// server. It returns when the player is in the world, or with the reason it
// is not. With Reconnect enabled, a failed join is retried with backoff
// like a lost connection (the server may be down or restarting) until ctx
// ends, unless the failure is permanent (a ban, the white-list, the mod
// list: see KickError.Permanent). Afterwards the client keeps the
// connection (and reconnects, if configured) until Close.
func (c *Client) Open(ctx context.Context) error {
	if !c.opened.CompareAndSwap(false, true) {
		return errors.New("gtnh: Open called twice")
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	openCtx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		select {
		case <-openCtx.Done():
		case <-c.ctx.Done():
			stop()
		}
	}()
	s, err := c.connect(openCtx)
	if err != nil && c.cfg.Reconnect.Enabled && !fatal(err) && openCtx.Err() == nil {
		// A server that is down (restarting, not up yet) is retried like
		// a lost connection.
		c.log.Warn().Err(err).Msg("could not join; retrying")
		s, err = c.retry(openCtx, err)
	}
	if err != nil {
		c.finish(err)
		c.cancel()
		return err
	}
	c.wg.Add(1)
	go c.supervise(s)
	return nil
}

// Close disconnects, stops every goroutine and waits for them.
func (c *Client) Close() error {
	if !c.opened.Load() {
		return nil
	}
	c.cancel()
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	if s != nil {
		s.end(ErrClosed)
	}
	c.wg.Wait()
	c.finish(nil)
	return nil
}

// finish records the final error once and closes Done.
func (c *Client) finish(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.doneCh:
		return
	default:
	}
	c.err = err
	close(c.doneCh)
	c.notifyLocked()
}

// notifyLocked wakes every waiter; c.mu is held.
func (c *Client) notifyLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

func (c *Client) notify() {
	c.mu.Lock()
	c.notifyLocked()
	c.mu.Unlock()
}

// waitFor waits until cond (called with c.mu held) holds, ctx ends or the
// session ends. It returns ctx's error, ErrNotConnected, or nil.
//
// A session that has ended fails the wait before cond is asked again: the
// world cond reads is the client's, not the session's, and once the
// session ended it is emptied (resetWorld unloads its columns, where a
// block reads as air) and filled by the next session. A waiter that was
// slow to run would otherwise take the unloaded block for one the server
// broke. The check and cond run under c.mu, which the reset takes before
// it changes the world, so cond never sees the reset or a later session.
func (c *Client) waitFor(ctx context.Context, s *session, cond func() bool) error {
	for {
		c.mu.Lock()
		select {
		case <-s.ended:
			c.mu.Unlock()
			return fmt.Errorf("%w: %v", ErrNotConnected, s.cause())
		default:
		}
		if cond() {
			c.mu.Unlock()
			return nil
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.ended:
			return fmt.Errorf("%w: %v", ErrNotConnected, s.cause())
		case <-ch:
		}
	}
}

// waitTicks waits n of the client's ticks.
func (c *Client) waitTicks(ctx context.Context, s *session, n int64) error {
	end := c.ticks.Load() + n
	return c.waitFor(ctx, s, func() bool { return c.ticks.Load() >= end })
}

// supervise keeps the client connected until Close: when a session ends it
// reconnects with backoff, or stops.
func (c *Client) supervise(s *session) {
	defer c.wg.Done()
	for {
		select {
		case <-s.ended:
		case <-c.ctx.Done():
			s.end(ErrClosed)
			<-s.ended
		}
		s.wait()
		c.resetWorld(s)
		err := s.cause()
		if c.ctx.Err() != nil {
			return
		}
		c.log.Warn().Err(err).Msg("connection ended")
		if !c.cfg.Reconnect.Enabled || fatal(err) {
			c.finish(err)
			return
		}
		s = c.reconnect(err)
		if s == nil {
			return
		}
	}
}

// reconnect retries with backoff after a session ended; nil when it gave
// up (the client is then finished) or the client closed.
func (c *Client) reconnect(cause error) *session {
	s, err := c.retry(c.ctx, cause)
	if err != nil {
		if c.ctx.Err() == nil {
			c.finish(err)
		}
		return nil
	}
	c.mu.Lock()
	c.stats.Reconnects++
	c.mu.Unlock()
	return s
}

// retry connects with backoff until it succeeds, ctx ends, an attempt
// fails for good (fatal) or MaxAttempts attempts failed.
func (c *Client) retry(ctx context.Context, cause error) (*session, error) {
	b := c.cfg.Reconnect
	for attempt := 1; ; attempt++ {
		if b.MaxAttempts > 0 && attempt > b.MaxAttempts {
			return nil, fmt.Errorf("gave up after %d reconnect attempts: %w", b.MaxAttempts, cause)
		}
		d := b.Delay(attempt)
		c.log.Info().Int("attempt", attempt).Dur("delay", d).Msg("reconnecting")
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("%w (last attempt: %v)", ctx.Err(), cause)
		case <-t.C:
		}
		s, err := c.connect(ctx)
		if err == nil {
			return s, nil
		}
		if cerr := ctx.Err(); cerr != nil || expired(ctx) {
			if cerr == nil {
				cerr = context.DeadlineExceeded
			}
			// This attempt was cut short; the one before says more.
			return nil, fmt.Errorf("%w (last attempt: %v)", cerr, cause)
		}
		cause = err
		c.log.Warn().Err(err).Int("attempt", attempt).Msg("reconnect failed")
		if fatal(err) {
			return nil, err
		}
	}
}

// expired reports whether ctx's deadline has passed (a context derived
// from it may report the deadline before ctx itself does).
func expired(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}

// serverMods returns the mod list to echo: the configured one, else the
// one the server announces in its ping. Every connection pings again, so
// a server updated during a restart is joined with its new list.
func (c *Client) serverMods(ctx context.Context) ([]proto17.ModInfo, error) {
	if c.cfg.Mods != nil {
		return slices.Clone(c.cfg.Mods), nil
	}
	info, err := Ping(ctx, c.cfg)
	if err != nil {
		return nil, err
	}
	mods := info.Mods
	if mods == nil {
		mods = []proto17.ModInfo{}
	}
	c.mu.Lock()
	prev := c.mods
	c.info = info
	c.mods = mods
	c.mu.Unlock()
	if prev != nil && !slices.Equal(prev, mods) {
		c.log.Warn().Int("previous_mods", len(prev)).Int("mods", len(mods)).Msg("the server's mod list changed since the last connection")
	}
	c.log.Info().Str("version", info.Version).Int("mods", info.ModCount).Str("formats", info.Formats.String()).Msg("pinged")
	return slices.Clone(mods), nil
}

// connect runs one login and waits for the player to be in the world.
func (c *Client) connect(ctx context.Context) (*session, error) {
	mods, err := c.serverMods(ctx)
	if err != nil {
		return nil, err
	}
	formats, err := c.formatsFor(mods)
	if err != nil {
		return nil, &LoginError{Stage: StageLogin, Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.DialTimeout+c.cfg.LoginTimeout)
	defer cancel()
	cn, err := dial(ctx, c.cfg)
	if err != nil {
		return nil, err
	}
	cn.setFormats(formats)
	cn.startTap(c.cfg.Tap, TapConnection{Username: c.cfg.Username, Mods: mods, Formats: formats, FixedFormats: c.cfg.Formats != nil})
	stop := context.AfterFunc(ctx, cn.close)
	uuid, err := c.login(ctx, cn)
	if !stop() || err != nil {
		cn.close()
		if err == nil || ctx.Err() != nil {
			err = &LoginError{Stage: StageLogin, Err: fmt.Errorf("%w (%v)", ctx.Err(), err)}
		}
		return nil, err
	}
	s := newSession(c, cn, mods, uuid)
	c.mu.Lock()
	c.sess = s
	c.notifyLocked()
	c.mu.Unlock()
	s.wg.Add(2)
	go c.readLoop(s)
	go c.tickLoop(s)
	select {
	case <-s.joined:
		if err := c.settle(ctx, s); err != nil {
			s.end(err)
			s.wait()
			c.resetWorld(s)
			return nil, s.cause()
		}
		return s, nil
	case <-s.ended:
		s.wait()
		c.resetWorld(s)
		return nil, s.cause()
	case <-ctx.Done():
		s.end(&LoginError{Stage: StageJoin, Err: fmt.Errorf("no Join Game and position within %v: %w", c.cfg.LoginTimeout, ctx.Err())})
		s.wait()
		c.resetWorld(s)
		return nil, s.cause()
	}
}

// formatsFor decides the wire formats.
func (c *Client) formatsFor(mods []proto17.ModInfo) (proto17.Formats, error) {
	if c.cfg.Formats != nil {
		return *c.cfg.Formats, nil
	}
	return proto17.FormatsFromMods(mods)
}

// login runs the login state: handshake with the FML marker, Login Start,
// the encryption handshake when the server asks for it, Login Success.
func (c *Client) login(ctx context.Context, cn *conn) (string, error) {
	host, port, _ := splitHostPort(c.cfg.Address)
	name := c.cfg.Username
	if c.cfg.Auth != nil && c.cfg.Auth.Name() != "" {
		name = c.cfg.Auth.Name()
	}
	if err := cn.write(&proto17.Handshake{Protocol: proto17.ProtocolVersion, Host: host, Port: port, NextState: 2, FML: true}); err != nil {
		return "", &LoginError{Stage: StageLogin, Err: err}
	}
	if err := cn.write(&proto17.LoginStart{Name: name}); err != nil {
		return "", &LoginError{Stage: StageLogin, Err: err}
	}
	var buf pk.Packet
	for {
		p, err := cn.readPacket(&buf, proto17.Login, c.cfg.LoginTimeout)
		if err != nil {
			return "", &LoginError{Stage: StageLogin, Err: err}
		}
		switch p := p.(type) {
		case *proto17.LoginDisconnect:
			return "", &LoginError{Stage: StageLogin, Err: kickFrom(p.Reason)}
		case *proto17.EncryptionRequest:
			if err := encrypt(ctx, cn, c.cfg.Auth, p); err != nil {
				return "", &LoginError{Stage: StageEncrypt, Err: err}
			}
		case *proto17.LoginSuccess:
			if c.cfg.Auth == nil {
				if want := offline.NameToUUID(name).String(); want != p.UUID {
					c.log.Debug().Str("uuid", p.UUID).Str("offline_uuid", want).Msg("the server assigned another UUID than the offline one")
				}
			}
			c.log.Info().Str("name", p.Name).Str("uuid", p.UUID).Msg("logged in")
			return p.UUID, nil
		default:
			return "", &LoginError{Stage: StageLogin, Err: fmt.Errorf("unexpected packet 0x%02X in the login state", buf.ID)}
		}
	}
}

// maxUnknown bounds the parts of the world listed as unknown: a server
// sending malformed packets for ever new chunks or entity ids must not grow
// the list without end.
const maxUnknown = 256

// markUnknown records a part of the world that a malformed packet left
// unknown; known clears it. Over maxUnknown parts, new marks are only
// counted (Stats lists "and N more"; a later packet may have cleared some).
func (c *Client) markUnknown(part string) {
	c.mu.Lock()
	switch {
	case c.unknown[part]:
	case len(c.unknown) < maxUnknown:
		c.unknown[part] = true
	default:
		c.unknownMore++
	}
	c.mu.Unlock()
}

func (c *Client) known(part string) {
	c.mu.Lock()
	delete(c.unknown, part)
	c.mu.Unlock()
}

// resetWorld forgets what a session loaded: columns, entities and, when
// the connection ended, the inventory (a respawn resends it).
func (c *Client) resetWorld(s *session) { c.reset(s, true) }

func (c *Client) reset(s *session, inventory bool) {
	c.mu.Lock()
	cols := slices.Collect(maps.Keys(s.loaded))
	ents := slices.Collect(maps.Keys(s.entities))
	clear(s.loaded)
	clear(s.entities)
	clear(s.players)
	c.mu.Unlock()
	c.state.Update(func(tx *world.Tx) {
		for _, k := range cols {
			tx.UnloadColumn(k[0], k[1])
		}
		for _, id := range ents {
			tx.RemoveEntity(int(id))
		}
		if inventory {
			tx.SetInventory(world.NewInventory())
		}
		tx.SetAir(world.FullAir) // a new body, or a new connection's: the server sends the air when it changes
	})
}
