package record

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// ReplayOptions tune Replay.
type ReplayOptions struct {
	// Until stops the replay after the records of this time (since the
	// recording started); 0 replays everything.
	Until time.Duration
	// Log receives the client's log (default: none).
	Log zerolog.Logger
	// Frame, when set, is given the world model as it stands every Every
	// of the recording's time (at least a millisecond apart): before the
	// first record at or past each mark, with the time of the record
	// before it. The world at the end is Result.World.
	Frame func(at time.Duration, w *world.Snapshot)
	Every time.Duration
	// Note, when set, is given each step and decision of the agent the
	// recording holds (KindNote), at its time, between the same two
	// frames as it happened; Look each way the bot looked (its look
	// records and the look of its position records).
	Note func(at time.Duration, n Note)
	Look func(at time.Duration, l Look)
}

// Result is what a replayed bot saw.
type Result struct {
	// Connections counts the connections replayed; Duration is the time of
	// the last record replayed.
	Connections int
	Duration    time.Duration
	// Packets counts the packets replayed by name ("login/LoginSuccess",
	// "play/ChunkData", …); Positions the positions the bot reported.
	Packets   map[string]int
	Positions int
	// Clicks counts the blocks the bot right-clicked, WindowClicks its
	// window clicks.
	Clicks, WindowClicks int
	// Steps and Plans count the agent's steps and its planner's decisions
	// the recording holds; NotesSkipped the notes of a version this agent
	// does not read.
	Steps, Plans, NotesSkipped int
	// ChatLines is every chat line of the recording as a player would read
	// it (the client's Chat keeps the last 256), up to the last
	// MaxChatLines.
	ChatLines []string
	// Username, Mods and Formats are the last connection's: the bot's
	// name, the server's mod list (from the FML handshake, else the one
	// the client started with) and the wire formats in force.
	Username string
	Mods     []proto17.ModInfo
	Formats  proto17.Formats
	// Limited is set when the recorder stopped at its size limit.
	Limited bool
	// World is the world model at the end; Stats, Chat the client's
	// (Stats.Corrections counts the server's corrections only, not the
	// positions the replay applied).
	World *world.Snapshot
	Stats gtnh.Stats
	Chat  []gtnh.ReceivedChat
	// Stopped is why the client stopped before the recording ended (a
	// kick it does not retry, a broken handshake), nil otherwise.
	Stopped error
}

// MaxChatLines bounds Result.ChatLines.
const MaxChatLines = 100000

// replayAddress is the address the replayed client believes it joins.
const replayAddress = "recording:25565"

// Replay feeds a recording to a gtnh.Client over an in-memory connection:
// the client logs in, runs the FML handshake and applies every packet with
// the handlers it uses on a live server, while what it sends is discarded.
// Each connection of the recording is one connection of the client (a
// reconnect in between resets the world as it did live). Positions the bot
// reported are applied as the server's position packets would be, and
// the blocks it right-clicked as its open_container does (so a window
// that opens next belongs to that block), its window clicks as it
// predicted them.
//
// A truncated or corrupt recording returns the Result of the records that
// were whole and a *FormatError.
func Replay(ctx context.Context, src io.Reader, opts ReplayOptions) (*Result, error) {
	rd, err := NewReader(src)
	if err != nil {
		return nil, err
	}
	f := &feeder{rd: rd, until: opts.Until, drained: make(chan struct{}),
		res: &Result{Packets: map[string]int{}}}
	first, err := f.firstConnection()
	if err != nil {
		return nil, err
	}
	username := first.Username
	if gtnh.ValidUsername(username) != nil {
		username = "Player"
	}
	cfg := gtnh.Config{
		Address:  replayAddress,
		Username: username,
		Mods:     first.Mods,
		Dial:     f.dial,
		// No tick runs during a replay: the body moves only as the
		// recording says, and the world is the same however fast the
		// machine replays.
		Tick:           24 * time.Hour,
		DialTimeout:    time.Hour,
		LoginTimeout:   time.Hour,
		ReadTimeout:    time.Hour,
		CompactPerTick: -1,
		Reconnect:      gtnh.Backoff{Enabled: true, Initial: time.Millisecond, Max: time.Millisecond},
		Log:            opts.Log,
	}
	if first.Fixed {
		fm := first.Formats
		cfg.Formats = &fm
	} else if _, err := proto17.FormatsFromMods(first.Mods); err != nil {
		// The live client decides its formats from these mods before it
		// connects: with mods it refuses there would be no connection.
		return nil, &FormatError{Offset: 0, Want: "a connection record with a mod list the client accepts", Err: err}
	}
	client, err := gtnh.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	f.click, f.windowClick = client.ReplayBlockClick, client.ReplayWindowClick
	f.note, f.look = opts.Note, opts.Look
	if opts.Frame != nil {
		f.every = max(opts.Every, time.Millisecond)
		f.frame = func(at time.Duration) { opts.Frame(at, client.State().Snapshot()) }
	}
	// Open runs until the client is in the world (or gives up); the
	// replay may end before that (a recording that stops during the
	// login), so it gets a context of its own to end it.
	openCtx, cancelOpen := context.WithCancel(ctx)
	defer cancelOpen()
	openErr := make(chan error, 1)
	go func() { openErr <- client.Open(openCtx) }()
	var (
		opened bool
		oerr   error
	)
	select {
	case <-f.drained:
	case <-client.Done():
	case oerr = <-openErr:
		opened = true
		if oerr == nil {
			select {
			case <-f.drained:
			case <-client.Done():
			case <-ctx.Done():
			}
		}
	case <-ctx.Done():
	}
	res := f.result()
	res.World = client.State().Snapshot()
	res.Stats = client.Stats()
	// Each position applied was taken for a correction by the server.
	res.Stats.Corrections = max(0, res.Stats.Corrections-res.Positions)
	res.Chat = client.Chat()
	if res.Chat == nil {
		res.Chat = []gtnh.ReceivedChat{}
	}
	drained := false
	select {
	case <-f.drained:
		drained = true
	default:
	}
	// Open must have returned before Close (Close waits for what Open
	// started).
	cancelOpen()
	if !opened {
		oerr = <-openErr
	}
	if !drained {
		// The client stopped before the end of the recording.
		res.Stopped = cmp.Or(client.Err(), oerr)
	}
	_ = client.Close()
	f.close()
	if err := ctx.Err(); err != nil {
		return res, err
	}
	return res, f.formatErr()
}

// feeder turns the records into the bytes of the client's connections.
type feeder struct {
	rd    *Reader
	until time.Duration

	mu      sync.Mutex
	res     *Result
	pending *Connection // read ahead: starts the next connection
	err     error       // a *FormatError that ended the recording
	ended   bool        // no more records to give
	current *replayConn
	closed  bool
	// click tells the client which block the bot right-clicked; unclick
	// is set after an Open Window was given to the client, which has
	// applied it when it reads again.
	click       func(*world.BlockPos)
	unclick     bool
	windowClick func(window uint8, slot int16, button, mode int8)
	// note and look are ReplayOptions.Note and Look (nil: not asked).
	note func(at time.Duration, n Note)
	look func(at time.Duration, l Look)
	// frame shows the world as the client holds it (ReplayOptions.Frame)
	// when a record reaches nextFrame.
	frame     func(at time.Duration)
	every     time.Duration
	nextFrame time.Duration

	drainOnce sync.Once
	drained   chan struct{} // closed when everything was given to the client
}

func (f *feeder) firstConnection() (*Connection, error) {
	rec, err := f.rd.Next()
	if errors.Is(err, io.EOF) {
		return nil, &FormatError{Offset: f.rd.Offset(), Want: "a connection record", Err: io.ErrUnexpectedEOF}
	}
	if err != nil {
		return nil, err
	}
	if rec.Kind != KindConnection {
		return nil, &FormatError{Offset: rec.Offset, Want: "a connection record first", Err: fmt.Errorf("a %s record", rec.Kind)}
	}
	var c Connection
	if err := rec.JSON(&c); err != nil {
		return nil, err
	}
	f.pending = &c
	return &c, nil
}

func (f *feeder) result() *Result {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := *f.res
	r.Packets = maps.Clone(f.res.Packets)
	r.ChatLines = slices.Clone(f.res.ChatLines)
	return &r
}

func (f *feeder) formatErr() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

func (f *feeder) drain() { f.drainOnce.Do(func() { close(f.drained) }) }

// close ends the replay: blocked reads and dials return.
func (f *feeder) close() {
	f.mu.Lock()
	f.closed = true
	c := f.current
	f.mu.Unlock()
	f.drain()
	if c != nil {
		_ = c.Close()
	}
}

// dial is the client's Dialer: each call starts the next connection of the
// recording. When there is none the client is where the recording left it:
// the dial waits for the end of the replay.
func (f *feeder) dial(ctx context.Context, _ string) (net.Conn, error) {
	f.mu.Lock()
	if f.pending == nil && !f.closed {
		// The client left its connection before the recording did (it
		// stopped reading after a kick): skip to the next connection.
		f.skipConnection()
	}
	next := f.pending
	f.pending = nil
	if next != nil && !f.closed {
		f.res.Connections++
		f.res.Username, f.res.Mods, f.res.Formats = next.Username, next.Mods, next.Formats
		c := &replayConn{f: f, closed: make(chan struct{})}
		f.current = c
		f.mu.Unlock()
		return c, nil
	}
	f.mu.Unlock()
	f.drain()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-f.drained:
		return nil, errors.New("replay: the recording has no more connections")
	}
}

// skipConnection reads past the rest of a connection's records, up to the
// next connection record or the end; f.mu is held.
func (f *feeder) skipConnection() {
	for !f.ended {
		rec, err := f.rd.Next()
		if err == nil && f.until > 0 && rec.Time > f.until {
			err = io.EOF
		}
		if err != nil {
			f.ended = true
			if !errors.Is(err, io.EOF) {
				f.err = err
			}
			return
		}
		if rec.Kind == KindConnection {
			var cn Connection
			if err := rec.JSON(&cn); err != nil {
				f.ended, f.err = true, err
				return
			}
			f.res.Duration = rec.Time
			f.pending = &cn
			return
		}
	}
}

// next returns the next frame for conn c; nil with io.EOF when c's
// connection ended in the recording; nil with errDrained when everything
// was given.
func (f *feeder) next(c *replayConn) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.unclick {
		// The window took its block (onOpenWindow); open_container
		// forgets the block once its window is there.
		f.unclick = false
		f.click(nil)
	}
	for {
		if f.closed || f.ended {
			return nil, errDrained
		}
		rec, err := f.rd.Next()
		if err == nil && f.until > 0 && rec.Time > f.until {
			err = io.EOF
		}
		if err != nil {
			f.ended = true
			if !errors.Is(err, io.EOF) {
				f.err = err
			}
			return nil, errDrained
		}
		if f.frame != nil && rec.Time >= f.nextFrame {
			// The client reads again only after applying the last
			// packet: the world is the one of the records before this.
			f.frame(f.res.Duration)
			f.nextFrame = rec.Time + f.every
		}
		switch rec.Kind {
		case KindConnection:
			var cn Connection
			if err := rec.JSON(&cn); err != nil {
				f.ended, f.err = true, err
				return nil, errDrained
			}
			f.res.Duration = rec.Time
			f.pending = &cn
			return nil, io.EOF
		case KindPacket:
			state, id, payload, err := rec.Packet()
			if err != nil {
				f.ended, f.err = true, err
				return nil, errDrained
			}
			f.res.Duration = rec.Time
			st := proto17.Login
			if state == StatePlay {
				st = proto17.Play
			}
			f.res.Packets[st.String()+"/"+proto17.PacketName(st, proto17.Clientbound, id)]++
			f.unclick = st == proto17.Play && id == proto17.IDClientboundOpenWindow
			if st == proto17.Play && id == proto17.IDClientboundChat {
				f.noteChat(payload)
			}
			return frame(id, payload), nil
		case KindPosition:
			p, err := rec.Position()
			if err != nil {
				f.ended, f.err = true, err
				return nil, errDrained
			}
			f.res.Duration = rec.Time
			f.res.Positions++
			if f.look != nil {
				f.look(rec.Time, Look{Yaw: p.Yaw, Pitch: p.Pitch})
			}
			// The bot's own report, applied as the server's position
			// packet would be (its Y is the eyes: PlayerPositionAndLook).
			pl := &proto17.PlayerPositionAndLook{X: p.X, Y: p.FeetY + proto17.EyeHeight, Z: p.Z, Yaw: p.Yaw, Pitch: p.Pitch, OnGround: p.OnGround}
			payload, err := pl.AppendPayload(nil, proto17.Formats{})
			if err != nil {
				return nil, err
			}
			return frame(pl.PacketID(), payload), nil
		case KindHeld:
			slot, err := rec.Held()
			if err != nil {
				f.ended, f.err = true, err
				return nil, errDrained
			}
			f.res.Duration = rec.Time
			// The bot's own choice, applied as the server's Held Item
			// Change would be (the same handler sets the held slot).
			return frame(proto17.IDClientboundHeldItemChange, []byte{byte(slot)}), nil
		case KindFormats:
			if err := rec.JSON(&f.res.Formats); err != nil {
				f.ended, f.err = true, err
				return nil, errDrained
			}
		case KindMods:
			var mods []proto17.ModInfo
			if err := rec.JSON(&mods); err != nil {
				f.ended, f.err = true, err
				return nil, errDrained
			}
			f.res.Mods = mods
		case KindLimit:
			f.res.Limited = true
		case KindBlockClick:
			p, err := rec.BlockClick()
			if err != nil {
				f.ended, f.err = true, err
				return nil, errDrained
			}
			f.res.Clicks++
			// The client reads again only after applying the last packet:
			// the click falls between the same two packets as live.
			f.click(&p)
		case KindWindowClick:
			w, err := rec.WindowClick()
			if err != nil {
				f.ended, f.err = true, err
				return nil, errDrained
			}
			f.res.WindowClicks++
			// Predicted between the same two packets as live.
			f.windowClick(w.Window, w.Slot, w.Button, w.Mode)
		case KindLook:
			l, err := rec.Look()
			if err != nil {
				f.ended, f.err = true, err
				return nil, errDrained
			}
			f.res.Duration = rec.Time
			if f.look != nil {
				f.look(rec.Time, l)
			}
		case KindNote:
			n, err := rec.Note()
			if errors.Is(err, ErrNoteVersion) {
				// A newer agent's note: skipped, as an unknown kind is.
				f.res.NotesSkipped++
				continue
			}
			if err != nil {
				f.ended, f.err = true, err
				return nil, errDrained
			}
			f.res.Duration = rec.Time
			if n.Step != nil {
				f.res.Steps++
			} else {
				f.res.Plans++
			}
			if f.note != nil {
				f.note(rec.Time, n)
			}
		case KindClosed:
			// The live connection ended here; what the bot knew then is the
			// end state when nothing follows. A following connection
			// record ends the client's connection.
		}
	}
}

// noteChat keeps a chat line's text; f.mu is held.
func (f *feeder) noteChat(payload []byte) {
	p, err := proto17.Decode(proto17.Play, proto17.Clientbound, proto17.IDClientboundChat, payload, proto17.Formats{})
	c, ok := p.(*proto17.Chat)
	if err != nil || !ok {
		return
	}
	if len(f.res.ChatLines) >= MaxChatLines {
		f.res.ChatLines = f.res.ChatLines[1:]
	}
	f.res.ChatLines = append(f.res.ChatLines, proto17.PlainText(c.JSON))
}

// errDrained ends reads once the whole recording was given.
var errDrained = errors.New("replay: end of the recording")

// frame encodes a packet as the wire carries it: length, id, payload.
func frame(id int32, payload []byte) []byte {
	var idb [5]byte
	n := binary.PutUvarint(idb[:], uint64(uint32(id)))
	b := binary.AppendUvarint(make([]byte, 0, 5+n+len(payload)), uint64(n+len(payload)))
	b = append(b, idb[:n]...)
	return append(b, payload...)
}

// replayConn is one connection of a replay: reads give the recorded frames,
// writes are discarded.
type replayConn struct {
	f      *feeder
	buf    []byte
	eof    bool
	once   sync.Once
	closed chan struct{}
}

var _ net.Conn = (*replayConn)(nil)

func (c *replayConn) Read(p []byte) (int, error) {
	for len(c.buf) == 0 {
		select {
		case <-c.closed:
			return 0, net.ErrClosed
		default:
		}
		if c.eof {
			return 0, io.EOF
		}
		b, err := c.f.next(c)
		switch {
		case errors.Is(err, errDrained):
			// Everything before was applied: the client reads again only
			// after handling the previous packet. Wait for the end.
			c.f.drain()
			<-c.closed
			return 0, net.ErrClosed
		case errors.Is(err, io.EOF):
			c.eof = true
			return 0, io.EOF
		case err != nil:
			return 0, err
		}
		c.buf = b
	}
	n := copy(p, c.buf)
	c.buf = c.buf[n:]
	return n, nil
}

func (c *replayConn) Write(p []byte) (int, error) {
	select {
	case <-c.closed:
		return 0, net.ErrClosed
	default:
		return len(p), nil
	}
}

func (c *replayConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

type replayAddr struct{}

func (replayAddr) Network() string { return "replay" }
func (replayAddr) String() string  { return replayAddress }

func (c *replayConn) LocalAddr() net.Addr              { return replayAddr{} }
func (c *replayConn) RemoteAddr() net.Addr             { return replayAddr{} }
func (c *replayConn) SetDeadline(time.Time) error      { return nil }
func (c *replayConn) SetReadDeadline(time.Time) error  { return nil }
func (c *replayConn) SetWriteDeadline(time.Time) error { return nil }

// Columns lists the chunk columns a snapshot holds, sorted by x then z.
func Columns(s *world.Snapshot) []chunk.ChunkPos {
	ch, ok := s.Blocks.(*chunk.Chunks)
	if !ok {
		return nil
	}
	var out []chunk.ChunkPos
	ch.ForEachColumn(func(c *chunk.Column) { out = append(out, c.Pos()) })
	slices.SortFunc(out, func(a, b chunk.ChunkPos) int {
		if a.X != b.X {
			return cmp.Compare(a.X, b.X)
		}
		return cmp.Compare(a.Z, b.Z)
	})
	return out
}
