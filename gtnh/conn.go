package gtnh

import (
	"context"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	mcnet "github.com/Tnze/go-mc/net"
	pk "github.com/Tnze/go-mc/net/packet"
	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// conn is one connection: go-mc framing without compression (1.7 has none;
// WrapConn leaves the threshold at -1 and SetThreshold is never called),
// with packets encoded by proto17. Writes are serialised; reads belong to
// one goroutine at a time.
type conn struct {
	mc           *mcnet.Conn
	sock         net.Conn
	wmu          sync.Mutex
	formats      atomic.Pointer[proto17.Formats]
	writeTimeout time.Duration
	log          zerolog.Logger
	sent         atomic.Int64
	closeOnce    sync.Once
}

func newConn(sock net.Conn, writeTimeout time.Duration, log zerolog.Logger) *conn {
	c := &conn{mc: mcnet.WrapConn(sock), sock: sock, writeTimeout: writeTimeout, log: log}
	c.formats.Store(&proto17.Formats{})
	return c
}

// dial opens a connection with the configured dialer, or go-mc's.
func dial(ctx context.Context, cfg Config) (*conn, error) {
	ctx, cancel := context.WithTimeout(ctx, cfg.DialTimeout)
	defer cancel()
	if cfg.Dial != nil {
		sock, err := cfg.Dial(ctx, cfg.Address)
		if err != nil {
			return nil, &LoginError{Stage: StageDial, Err: err}
		}
		return newConn(sock, cfg.WriteTimeout, cfg.Log), nil
	}
	d := &net.Dialer{}
	mc, err := (*mcnet.Dialer)(d).DialMCContext(ctx, cfg.Address)
	if err != nil {
		return nil, &LoginError{Stage: StageDial, Err: err}
	}
	c := &conn{mc: mc, sock: mc.Socket, writeTimeout: cfg.WriteTimeout, log: cfg.Log}
	c.formats.Store(&proto17.Formats{})
	return c, nil
}

// Formats returns the wire formats in force.
func (c *conn) Formats() proto17.Formats { return *c.formats.Load() }

// setFormats changes the wire formats (after the mod list is known).
func (c *conn) setFormats(f proto17.Formats) { c.formats.Store(&f) }

// write encodes and sends one packet.
func (c *conn) write(p proto17.Packet) error {
	data, err := p.AppendPayload(nil, c.Formats())
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.writeTimeout > 0 {
		_ = c.sock.SetWriteDeadline(time.Now().Add(c.writeTimeout))
	}
	if err := c.mc.WritePacket(pk.Packet{ID: p.PacketID(), Data: data}); err != nil {
		return &writeError{packet: p.PacketName(), err: err}
	}
	c.sent.Add(1)
	if e := c.log.Trace(); e.Enabled() {
		e.Str("packet", p.PacketName()).Int("bytes", len(data)).Msg("sent")
	}
	return nil
}

// writeError is a packet the connection failed to send.
type writeError struct {
	packet string
	err    error
}

func (e *writeError) Error() string { return fmt.Sprintf("writing %s: %v", e.packet, e.err) }
func (e *writeError) Unwrap() error { return e.err }

// read reads the next frame into buf (whose Data is reused: decoded packets
// that alias it must be used before the next read).
func (c *conn) read(buf *pk.Packet, timeout time.Duration) error {
	if timeout > 0 {
		_ = c.sock.SetReadDeadline(time.Now().Add(timeout))
	}
	return c.mc.ReadPacket(buf)
}

// readPacket reads one frame and decodes it in state s. An id without a
// codec returns (nil, nil) with the id in buf.
func (c *conn) readPacket(buf *pk.Packet, s proto17.State, timeout time.Duration) (proto17.Packet, error) {
	if err := c.read(buf, timeout); err != nil {
		return nil, err
	}
	return proto17.Decode(s, proto17.Clientbound, buf.ID, buf.Data, c.Formats())
}

// close closes the socket once.
func (c *conn) close() {
	c.closeOnce.Do(func() { _ = c.sock.Close() })
}
