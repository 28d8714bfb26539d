package record

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Recorder writes what the client's connections carry into a recording. It
// is a gtnh.Tap: set it as Config.Tap. Errors writing the file never reach
// the client: the first is logged and recording stops.
//
// Not recorded: the server's Encryption Request (its key and challenge are
// useless offline, and a replay must not try to encrypt), and everything the
// client sends except the positions and looks it reports, the hotbar slot
// it selects, the blocks it right-clicks and its window clicks. The agent's
// steps and its planner's decisions are written by Step and Plan. The client's credentials
// never pass through the connection (an online-mode login goes to the
// session service over HTTPS), so none can end up in a recording.
type Recorder struct {
	w   *Writer
	log zerolog.Logger
	now func() int64

	mu     sync.Mutex
	state  uint8
	open   bool
	failed bool
	// connected is set by the first connection: notes are written after
	// it (a recording starts with a connection record).
	connected bool
	file      io.Closer
	buf       []byte
	secrets   [][]byte // byte forms to blank out of every packet (see Scrub)
}

var _ gtnh.Tap = (*Recorder)(nil)

// RecorderOptions tune a Recorder.
type RecorderOptions struct {
	WriterOptions
	// Log receives the recorder's warnings (default: none).
	Log zerolog.Logger
}

// NewRecorder records into w.
func NewRecorder(w io.Writer, opts RecorderOptions) (*Recorder, error) {
	wr, err := NewWriter(w, opts.WriterOptions)
	if err != nil {
		return nil, err
	}
	r := &Recorder{w: wr, log: opts.Log.With().Str("component", "record").Logger()}
	r.now = func() int64 { return wr.now().UnixMilli() }
	return r, nil
}

// Create records into a new file (replacing one that exists); Close closes
// it. A new file is readable and writable by its owner only, as the metrics
// state is: a recording holds everything the server sent.
func Create(path string, opts RecorderOptions) (*Recorder, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	r, err := NewRecorder(f, opts)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	r.file = f
	return r, nil
}

// Scrub blanks a secret out of everything recorded from now on: each
// occurrence in a packet, as raw bytes or JSON-escaped, is overwritten by
// as many '*' (the same length keeps every length prefix valid). The
// operator secret is one: operators type it in chat, and the server
// broadcasts their lines.
func (r *Recorder) Scrub(s gtnh.Secret) {
	if s.Empty() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	raw := []byte(s.Reveal())
	r.secrets = append(r.secrets, raw)
	if esc, err := json.Marshal(s.Reveal()); err == nil && string(esc[1:len(esc)-1]) != string(raw) {
		r.secrets = append(r.secrets, esc[1:len(esc)-1])
	}
}

// scrubbed returns data with the secrets blanked (a copy when it holds one).
func (r *Recorder) scrubbed(data []byte) []byte {
	copied := false
	for _, s := range r.secrets {
		for i := bytes.Index(data, s); i >= 0; i = bytes.Index(data, s) {
			if !copied {
				data, copied = bytes.Clone(data), true
			}
			for j := range s {
				data[i+j] = '*'
			}
		}
	}
	return data
}

// write appends a record; the first failure is logged and ends recording.
func (r *Recorder) write(kind Kind, body []byte) {
	if r.failed {
		return
	}
	if err := r.w.Write(kind, body); err != nil {
		r.failed = true
		if errors.Is(err, errStopped) {
			r.log.Warn().Int64("limit_bytes", r.w.limit).Msg("the recording reached its size limit; recording stopped")
			return
		}
		r.log.Warn().Err(err).Msg("recording stopped")
	}
}

func (r *Recorder) writeJSON(kind Kind, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		r.log.Warn().Err(err).Str("record", kind.String()).Msg("record not written")
		return
	}
	r.write(kind, b)
}

// Connected implements gtnh.Tap.
func (r *Recorder) Connected(info gtnh.TapConnection) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.state, r.open, r.connected = StateLogin, true, true
	mods := info.Mods
	if mods == nil {
		mods = []proto17.ModInfo{}
	}
	r.writeJSON(KindConnection, Connection{Started: r.now(), Username: info.Username,
		Mods: slices.Clone(mods), Formats: info.Formats, Fixed: info.FixedFormats})
}

// Received implements gtnh.Tap.
func (r *Recorder) Received(id int32, data []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.open {
		return
	}
	state := r.state
	if state == StateLogin {
		switch id {
		case proto17.IDClientboundEncryptionRequest:
			// Not kept: see Recorder.
			return
		case proto17.IDClientboundLoginSuccess:
			// The play state begins after Login Success
			// (NetHandlerLoginClient.handleLoginSuccess of 1.7.10).
			r.state = StatePlay
		}
	}
	if len(data)+6 > MaxBody {
		r.log.Warn().Int32("packet", id).Int("bytes", len(data)).Msg("packet too large to record; skipped")
		return
	}
	b := append(r.buf[:0], state)
	b = binary.AppendUvarint(b, uint64(uint32(id)))
	b = append(b, r.scrubbed(data)...)
	r.buf = b
	r.write(KindPacket, b)
	if state == StatePlay && id == proto17.IDClientboundPluginMessage {
		r.noteMods(data)
	}
}

// noteMods records the server's mod list when a plugin message carries the
// FML handshake's ModList.
func (r *Recorder) noteMods(data []byte) {
	p, err := proto17.Decode(proto17.Play, proto17.Clientbound, proto17.IDClientboundPluginMessage, data, proto17.Formats{})
	pm, ok := p.(*proto17.PluginMessage)
	if err != nil || !ok || pm.Channel != proto17.ChannelFMLHandshake {
		return
	}
	m, err := proto17.DecodeFML(pm.Data)
	if ml, ok := m.(*proto17.ModList); err == nil && ok {
		mods := ml.Mods
		if mods == nil {
			mods = []proto17.ModInfo{}
		}
		r.writeJSON(KindMods, mods)
	}
}

// Sent implements gtnh.Tap: only the positions and looks the bot reports,
// the hotbar slot it selects, the blocks it right-clicks and its window clicks are
// kept.
func (r *Recorder) Sent(p proto17.Packet) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.open || r.state != StatePlay {
		return
	}
	switch p := p.(type) {
	case *proto17.ServerboundPlayerPositionAndLook:
		r.buf = Position{X: p.X, FeetY: p.FeetY, Z: p.Z, Yaw: p.Yaw, Pitch: p.Pitch, OnGround: p.OnGround}.append(r.buf[:0])
		r.write(KindPosition, r.buf)
	case *proto17.PlayerBlockPlacement:
		// Face -1 (position -1, 255, -1) uses the held item in the air
		// (C08PacketPlayerBlockPlacement of 1.7.10, direction 255).
		if p.Face < 0 {
			return
		}
		r.buf = appendBlockClick(r.buf[:0], world.Pos(int(p.X), int(p.Y), int(p.Z)))
		r.write(KindBlockClick, r.buf)
	case *proto17.PlayerLook:
		r.buf = Look{Yaw: p.Yaw, Pitch: p.Pitch}.append(r.buf[:0])
		r.write(KindLook, r.buf)
	case *proto17.ServerboundHeldItemChange:
		if p.Slot < 0 || p.Slot > 8 {
			return
		}
		r.write(KindHeld, []byte{byte(p.Slot)})
	case *proto17.ClickWindow:
		r.buf = WindowClick{Window: p.WindowID, Slot: p.Slot, Button: p.Button, Mode: p.Mode}.append(r.buf[:0])
		r.write(KindWindowClick, r.buf)
	}
}

// FormatsChanged implements gtnh.Tap.
func (r *Recorder) FormatsChanged(f proto17.Formats) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.open {
		r.writeJSON(KindFormats, f)
	}
}

// Closed implements gtnh.Tap.
func (r *Recorder) Closed() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.open {
		return
	}
	r.open = false
	r.write(KindClosed, nil)
	if !r.failed {
		if err := r.w.Flush(); err != nil {
			r.failed = true
			r.log.Warn().Err(err).Msg("recording stopped")
		}
	}
}

// Close ends the recording (and closes the file Create opened). Call it
// after the client closed.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	err := r.w.Close()
	if r.file != nil {
		if cerr := r.file.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("recording: %w", cerr)
		}
		r.file = nil
	}
	return err
}
