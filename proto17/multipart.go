package proto17

// Limits of FML|MP reassembly.
const (
	// MaxMultipartParts is the format's limit: the part count is a byte.
	MaxMultipartParts = 255
	// DefaultMultipartMaxSize is the default limit on a reassembled message;
	// GTNH's registry is about half a megabyte.
	DefaultMultipartMaxSize = 16 << 20
	// ForgePartSize is the part size (index byte included) Forge's
	// FMLProxyPacket uses when it splits a message.
	ForgePartSize = 0x1000000 - 0x50
)

// Multipart reassembles messages Forge splits over the FML|MP channel. The
// first FML|MP payload is a preamble: the real channel (a VarInt-prefixed
// string), the part count (u8) and the total length (i32). Each following
// payload is a part: its index (u8, counting from 0) and then data up to the
// end of the payload. The message is complete when the announced number of
// parts has arrived, and must then have the announced length.
//
// (Forge 1.8's reader drops the last byte of every part, a bug later
// versions fixed; the senders always put the whole remainder in the part,
// which is what this reads.)
//
// Any error drops the message in progress; the next payload starts a new
// one. The zero value is ready to use. Not safe for concurrent use.
type Multipart struct {
	// MaxParts limits the part count (0 means MaxMultipartParts).
	MaxParts int
	// MaxSize limits the total length (0 means DefaultMultipartMaxSize).
	MaxSize int

	active  bool
	channel string
	parts   int
	next    int
	total   int
	buf     []byte
}

// InProgress reports whether a message is being reassembled.
func (m *Multipart) InProgress() bool { return m.active }

// Reset drops any message in progress.
func (m *Multipart) Reset() {
	m.active, m.channel, m.parts, m.next, m.total, m.buf = false, "", 0, 0, 0, nil
}

func (m *Multipart) maxParts() int {
	if m.MaxParts > 0 && m.MaxParts < MaxMultipartParts {
		return m.MaxParts
	}
	return MaxMultipartParts
}

func (m *Multipart) maxSize() int {
	if m.MaxSize > 0 {
		return m.MaxSize
	}
	return DefaultMultipartMaxSize
}

// Feed takes the payload of one FML|MP plugin message. When it completes a
// message it returns the real channel and the data (owned by the caller)
// with done set.
func (m *Multipart) Feed(payload []byte) (channel string, data []byte, done bool, err error) {
	if !m.active {
		return "", nil, false, m.preamble(payload)
	}
	r := newReader("FML|MP part", payload)
	idx := int(r.u8("index"))
	if !r.ok() {
		m.Reset()
		return "", nil, false, r.err
	}
	if idx != m.next {
		r.failAt("index", 0, invalidf("part %d out of order, expected %d", idx, m.next))
		m.Reset()
		return "", nil, false, r.err
	}
	rest := r.rest()
	if len(m.buf)+len(rest) > m.total {
		r.failAt("data", 1, invalidf("parts exceed the announced %d bytes", m.total))
		m.Reset()
		return "", nil, false, r.err
	}
	m.buf = append(m.buf, rest...)
	m.next++
	if m.next < m.parts {
		return "", nil, false, nil
	}
	if len(m.buf) != m.total {
		r.failAt("data", 1, invalidf("%d parts carried %d bytes, the preamble announced %d", m.parts, len(m.buf), m.total))
		m.Reset()
		return "", nil, false, r.err
	}
	channel, data = m.channel, m.buf
	m.Reset()
	return channel, data, true, nil
}

func (m *Multipart) preamble(payload []byte) error {
	r := newReader("FML|MP preamble", payload)
	ch := r.str("channel", maxChannelLen)
	parts := int(r.u8("part count"))
	total := int(r.i32("length"))
	if err := r.finish(); err != nil {
		return err
	}
	if parts < 1 || parts > m.maxParts() {
		r.failAt("part count", len(payload)-5, tooLargef("%d parts, allowed 1..%d", parts, m.maxParts()))
		return r.err
	}
	if total <= 0 || total > m.maxSize() {
		r.failAt("length", len(payload)-4, tooLargef("%d bytes, allowed 1..%d", total, m.maxSize()))
		return r.err
	}
	m.active, m.channel, m.parts, m.next, m.total = true, ch, parts, 0, total
	// Grow with the parts rather than trust the announced length up front.
	m.buf = make([]byte, 0, min(total, 1<<16))
	return nil
}

// SplitMultipart splits a message for channel into FML|MP payloads the way
// Forge's FMLProxyPacket does: a preamble, then parts of at most partSize
// bytes each, index byte included (Forge uses ForgePartSize). A fake server
// uses it to send a registry in parts.
func SplitMultipart(channel string, data []byte, partSize int) ([][]byte, error) {
	const packet = "FML|MP"
	if partSize < 2 {
		return nil, encodeErr(packet, "part size", invalidf("%d, at least 2", partSize))
	}
	if len(data) == 0 {
		return nil, encodeErr(packet, "data", invalidf("empty message"))
	}
	parts := (len(data) + partSize - 2) / (partSize - 1)
	if parts > MaxMultipartParts {
		return nil, encodeErr(packet, "data", tooLargef("%d parts of %d bytes, at most %d", parts, partSize, MaxMultipartParts))
	}
	if int64(len(data)) > 1<<31-1 {
		return nil, encodeErr(packet, "data", tooLargef("%d bytes", len(data)))
	}
	pre, err := appendStr(nil, packet, "channel", channel, maxChannelLen)
	if err != nil {
		return nil, err
	}
	pre = append(pre, byte(parts))
	pre = appendI32(pre, int32(len(data)))
	out := [][]byte{pre}
	for i, off := 0, 0; i < parts; i++ {
		n := min(partSize-1, len(data)-off)
		p := make([]byte, 0, n+1)
		p = append(p, byte(i))
		p = append(p, data[off:off+n]...)
		off += n
		out = append(out, p)
	}
	return out, nil
}
