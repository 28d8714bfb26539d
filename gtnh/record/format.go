package record

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Magic opens every recording; Version follows it as a big-endian uint16.
// A reader refuses versions it does not know; within a version, record
// kinds it does not know are skipped, so kinds can be added.
const (
	Magic   = "GTNH-REC"
	Version = 1
)

// MaxBody bounds one record's body. The largest is a packet: a 1.7.10
// frame's length is a VarInt of at most 3 bytes, so a frame holds at most
// 2^21-1 bytes (NettyVarint21FrameDecoder / NettyVarint21FrameEncoder of
// Minecraft 1.7.10); a packet record adds a state byte.
const MaxBody = 1<<21 + 16

// Kind is what a record holds.
type Kind uint8

// Record kinds.
const (
	// KindConnection starts a connection: a JSON Connection.
	KindConnection Kind = 1
	// KindPacket is a clientbound frame: the state (StateLogin, StatePlay),
	// the packet id as a VarInt, the payload.
	KindPacket Kind = 2
	// KindFormats is the wire formats the FML handshake decided: JSON
	// proto17.Formats.
	KindFormats Kind = 3
	// KindMods is the server's mod list from the FML handshake: a JSON
	// array of proto17.ModInfo.
	KindMods Kind = 4
	// KindPosition is a position the bot reported: x, feet y, z (float64),
	// yaw, pitch (float32), on-ground (a byte), big-endian.
	KindPosition Kind = 5
	// KindClosed ends the connection (empty body).
	KindClosed Kind = 6
	// KindLimit marks where the recorder stopped at its size limit: a
	// JSON Limit.
	KindLimit Kind = 7
	// KindBlockClick is a block the bot right-clicked (Player Block Placement
	// on a block): x, y, z as big-endian int32. A window the server opens
	// next belongs to that block; the server does not say so.
	KindBlockClick Kind = 8
	// KindWindowClick is a window click the bot made (Click Window): the
	// window id (a byte), the slot (int16), the button and the mode (a
	// byte each). A 1.7.10 server does not send the slots an accepted
	// click changed; the client predicts them.
	KindWindowClick Kind = 9
	// KindHeld is the hotbar slot the bot selected (Held Item Change,
	// serverbound): one byte, 0..8.
	KindHeld Kind = 10
	// KindLook is the way the bot looked (Player Look, serverbound): yaw
	// and pitch (float32), big-endian. Its position records carry the
	// look too.
	KindLook Kind = 11
	// KindNote is what the agent's loop did (a step with its verdict, a
	// decision of the planner with its plan tree): a version byte
	// (NoteVersion), then a JSON Note.
	KindNote Kind = 12
)

func (k Kind) String() string {
	switch k {
	case KindConnection:
		return "connection"
	case KindPacket:
		return "packet"
	case KindFormats:
		return "formats"
	case KindMods:
		return "mods"
	case KindPosition:
		return "position"
	case KindClosed:
		return "closed"
	case KindLimit:
		return "limit"
	case KindBlockClick:
		return "block click"
	case KindWindowClick:
		return "window click"
	case KindHeld:
		return "held slot"
	case KindLook:
		return "look"
	case KindNote:
		return "note"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Protocol states of a packet record.
const (
	StateLogin uint8 = 0
	StatePlay  uint8 = 1
)

// Connection is the body of a KindConnection record.
type Connection struct {
	// Started is the wall-clock time the connection was made (Unix ms).
	Started int64 `json:"started"`
	// Username is the bot's player name.
	Username string `json:"username"`
	// Mods is the mod list the client claimed (from the server's ping or
	// the configuration); Formats the formats it started with, Fixed
	// whether the configuration fixed them.
	Mods    []proto17.ModInfo `json:"mods"`
	Formats proto17.Formats   `json:"formats"`
	Fixed   bool              `json:"fixed_formats,omitempty"`
}

// Limit is the body of a KindLimit record.
type Limit struct {
	Bytes int64 `json:"bytes"`
}

// Position is the body of a KindPosition record.
type Position struct {
	X, FeetY, Z float64
	Yaw, Pitch  float32
	OnGround    bool
}

const positionSize = 3*8 + 2*4 + 1

func (p Position) append(b []byte) []byte {
	be := binary.BigEndian
	b = be.AppendUint64(b, math.Float64bits(p.X))
	b = be.AppendUint64(b, math.Float64bits(p.FeetY))
	b = be.AppendUint64(b, math.Float64bits(p.Z))
	b = be.AppendUint32(b, math.Float32bits(p.Yaw))
	b = be.AppendUint32(b, math.Float32bits(p.Pitch))
	if p.OnGround {
		return append(b, 1)
	}
	return append(b, 0)
}

// Record is one record as read. Body is valid until the next call of
// Reader.Next.
type Record struct {
	Kind Kind
	// Time since the recording started.
	Time time.Duration
	Body []byte
	// Offset is where the record starts in the recording's content (the
	// bytes after decompression).
	Offset int64
}

// Packet reads a KindPacket body.
func (r Record) Packet() (state uint8, id int32, payload []byte, err error) {
	if len(r.Body) < 2 {
		return 0, 0, nil, r.bad("a state byte and a packet id", fmt.Errorf("the body has %d bytes", len(r.Body)))
	}
	state = r.Body[0]
	if state != StateLogin && state != StatePlay {
		return 0, 0, nil, r.bad("a state (0 login, 1 play)", fmt.Errorf("state %d", state))
	}
	v, n := binary.Uvarint(r.Body[1:])
	if n <= 0 || n > 5 || v > math.MaxInt32 {
		return 0, 0, nil, r.bad("a packet id (VarInt)", errors.New("not a valid VarInt"))
	}
	return state, int32(v), r.Body[1+n:], nil
}

// Position reads a KindPosition body.
func (r Record) Position() (Position, error) {
	if len(r.Body) != positionSize {
		return Position{}, r.bad("a position of 33 bytes", fmt.Errorf("the body has %d bytes", len(r.Body)))
	}
	be, b := binary.BigEndian, r.Body
	p := Position{
		X:     math.Float64frombits(be.Uint64(b)),
		FeetY: math.Float64frombits(be.Uint64(b[8:])),
		Z:     math.Float64frombits(be.Uint64(b[16:])),
		Yaw:   math.Float32frombits(be.Uint32(b[24:])),
		Pitch: math.Float32frombits(be.Uint32(b[28:])),
	}
	switch b[32] {
	case 0:
	case 1:
		p.OnGround = true
	default:
		return Position{}, r.bad("an on-ground byte of 0 or 1", fmt.Errorf("%d", b[32]))
	}
	for _, f := range []float64{p.X, p.FeetY, p.Z} {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return Position{}, r.bad("finite coordinates", fmt.Errorf("%v", f))
		}
	}
	return p, nil
}

// BlockClick reads a KindBlockClick body.
func (r Record) BlockClick() (world.BlockPos, error) {
	if len(r.Body) != 12 {
		return world.BlockPos{}, r.bad("a block position of 12 bytes", fmt.Errorf("the body has %d bytes", len(r.Body)))
	}
	be := binary.BigEndian
	p := world.Pos(int(int32(be.Uint32(r.Body))), int(int32(be.Uint32(r.Body[4:]))), int(int32(be.Uint32(r.Body[8:]))))
	if p.Y < 0 || p.Y >= chunk.WorldHeight {
		return world.BlockPos{}, r.bad("a height in 0..255", fmt.Errorf("%d", p.Y))
	}
	return p, nil
}

func appendBlockClick(b []byte, p world.BlockPos) []byte {
	be := binary.BigEndian
	b = be.AppendUint32(b, uint32(int32(p.X)))
	b = be.AppendUint32(b, uint32(int32(p.Y)))
	return be.AppendUint32(b, uint32(int32(p.Z)))
}

// WindowClick is the body of a KindWindowClick record.
type WindowClick struct {
	Window       uint8
	Slot         int16
	Button, Mode int8
}

// WindowClick reads a KindWindowClick body.
func (r Record) WindowClick() (WindowClick, error) {
	if len(r.Body) != 5 {
		return WindowClick{}, r.bad("a window click of 5 bytes", fmt.Errorf("the body has %d bytes", len(r.Body)))
	}
	return WindowClick{Window: r.Body[0], Slot: int16(binary.BigEndian.Uint16(r.Body[1:])), Button: int8(r.Body[3]), Mode: int8(r.Body[4])}, nil
}

func (w WindowClick) append(b []byte) []byte {
	b = append(b, w.Window)
	b = binary.BigEndian.AppendUint16(b, uint16(w.Slot))
	return append(b, byte(w.Button), byte(w.Mode))
}

// Held reads a KindHeld body.
func (r Record) Held() (int8, error) {
	if len(r.Body) != 1 || r.Body[0] > 8 {
		return 0, r.bad("a hotbar slot (one byte, 0..8)", fmt.Errorf("% x", r.Body))
	}
	return int8(r.Body[0]), nil
}

// JSON reads a JSON body (KindConnection, KindFormats, KindMods, KindLimit)
// into v.
func (r Record) JSON(v any) error {
	if err := json.Unmarshal(r.Body, v); err != nil {
		return r.bad("a JSON "+r.Kind.String()+" body", err)
	}
	return nil
}

func (r Record) bad(want string, err error) error {
	return &FormatError{Offset: r.Offset, Want: fmt.Sprintf("%s record with %s", r.Kind, want), Err: err}
}

// FormatError is a recording that is truncated or corrupt: where (the
// offset in the content after decompression) and what was expected there.
type FormatError struct {
	Offset int64
	Want   string
	Err    error
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("recording: at byte %d: expected %s: %v", e.Offset, e.Want, e.Err)
}

func (e *FormatError) Unwrap() error { return e.Err }

// Truncated reports whether the recording simply ends early (a run that was
// killed, a copy cut short) rather than holding bytes that make no sense.
func (e *FormatError) Truncated() bool {
	return errors.Is(e.Err, io.ErrUnexpectedEOF)
}

// Reader reads a recording record by record.
type Reader struct {
	src  io.Reader
	zr   *gzip.Reader
	br   *bufio.Reader
	off  int64
	last time.Duration
	body []byte
	err  error
}

// NewReader checks the header and returns a reader positioned at the first
// record.
func NewReader(r io.Reader) (*Reader, error) {
	var head [len(Magic) + 2]byte
	if n, err := io.ReadFull(r, head[:]); err != nil {
		if n == 0 && errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, &FormatError{Offset: int64(n), Want: "the header (" + Magic + " and a version)", Err: err}
	}
	if string(head[:len(Magic)]) != Magic {
		return nil, &FormatError{Offset: 0, Want: "the header " + Magic, Err: fmt.Errorf("the file starts with %q: not a recording", head[:len(Magic)])}
	}
	if v := binary.BigEndian.Uint16(head[len(Magic):]); v != Version {
		return nil, &FormatError{Offset: int64(len(Magic)), Want: fmt.Sprintf("version %d", Version), Err: fmt.Errorf("version %d is not known to this agent", v)}
	}
	zr, err := gzip.NewReader(r)
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, &FormatError{Offset: 0, Want: "a gzip stream after the header", Err: err}
	}
	return &Reader{src: r, zr: zr, br: bufio.NewReader(zr)}, nil
}

// errShort marks an end of data inside a record.
func short(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// readUvarint reads a VarInt of at most max bytes.
func (r *Reader) readUvarint(maxBytes int) (uint64, error) {
	var v uint64
	for i := 0; i < maxBytes; i++ {
		b, err := r.br.ReadByte()
		if err != nil {
			return 0, err
		}
		r.off++
		v |= uint64(b&0x7F) << (7 * i)
		if b&0x80 == 0 {
			return v, nil
		}
	}
	return 0, fmt.Errorf("a VarInt longer than %d bytes", maxBytes)
}

// Next returns the next record; io.EOF after the last one. A truncated or
// corrupt recording is a *FormatError; the records before it were whole.
// After an error Next returns the same error.
func (r *Reader) Next() (Record, error) {
	if r.err != nil {
		return Record{}, r.err
	}
	rec, err := r.next()
	if err != nil {
		r.err = err
	}
	return rec, err
}

func (r *Reader) next() (Record, error) {
	start := r.off
	fail := func(want string, err error) (Record, error) {
		return Record{}, &FormatError{Offset: start, Want: want, Err: err}
	}
	k, err := r.br.ReadByte()
	if errors.Is(err, io.EOF) {
		return Record{}, io.EOF
	}
	if err != nil {
		return fail("a record", err)
	}
	r.off++
	if k == 0 {
		return fail("a record kind", errors.New("kind 0 is not used"))
	}
	ms, err := r.readUvarint(9)
	if err != nil {
		return fail(fmt.Sprintf("the time of a %s record", Kind(k)), short(err))
	}
	if ms > uint64(math.MaxInt64/int64(time.Millisecond)) {
		return fail(fmt.Sprintf("the time of a %s record", Kind(k)), fmt.Errorf("%d ms is out of range", ms))
	}
	t := time.Duration(ms) * time.Millisecond
	if t < r.last {
		return fail(fmt.Sprintf("a time not before the previous record's (%d ms)", r.last.Milliseconds()), fmt.Errorf("%d ms", ms))
	}
	n, err := r.readUvarint(4)
	if err != nil {
		return fail(fmt.Sprintf("the length of a %s record", Kind(k)), short(err))
	}
	if n > MaxBody {
		return fail(fmt.Sprintf("a %s record of at most %d bytes", Kind(k), MaxBody), fmt.Errorf("its length is %d", n))
	}
	// Grow the buffer with the bytes that actually arrive, not with the
	// length the file claims.
	r.body = r.body[:0]
	for remaining := int(n); remaining > 0; {
		chunk := min(remaining, 64<<10)
		at := len(r.body)
		r.body = append(r.body, make([]byte, chunk)...)
		got, err := io.ReadFull(r.br, r.body[at:])
		r.off += int64(got)
		if err != nil {
			return fail(fmt.Sprintf("a %s record body of %d bytes (%d read)", Kind(k), n, int(n)-remaining+got), short(err))
		}
		remaining -= chunk
	}
	r.last = t
	return Record{Kind: Kind(k), Time: t, Body: r.body, Offset: start}, nil
}

// Offset is how many bytes of content (after decompression) were read.
func (r *Reader) Offset() int64 { return r.off }
