package gtnh

import (
	"context"
	"errors"
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
	tap          Tap // nil: not recorded (see startTap)
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
func (c *conn) setFormats(f proto17.Formats) {
	c.formats.Store(&f)
	if c.tap != nil {
		c.tap.FormatsChanged(f)
	}
}

// write encodes and sends one packet.
func (c *conn) write(p proto17.Packet) error {
	data, err := p.AppendPayload(nil, c.Formats())
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.tap != nil {
		// Before the write: the server's answer cannot be seen first.
		c.tap.Sent(p)
	}
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

// read reads the next frame into buf (whose Data is reused: decoded packets
// that alias it must be used before the next read). A server that sends
// nothing for timeout is given up on, as vanilla's client does with the
// ReadTimeoutHandler its NetworkManager puts first in the pipeline (20 s in
// 1.7.10's NetworkManager.provideLanClient, 30 s from 1.8; the server side,
// NetworkSystem, uses 30 s): a live server sends a keep-alive every second
// or so, so the silence means a stalled server or a dead link.
func (c *conn) read(buf *pk.Packet, timeout time.Duration) error {
	if timeout > 0 {
		_ = c.sock.SetReadDeadline(time.Now().Add(timeout))
	}
	err := c.mc.ReadPacket(buf)
	var ne net.Error
	if err != nil && timeout > 0 && errors.As(err, &ne) && ne.Timeout() {
		return fmt.Errorf("no packet from the server for %v (read timeout): %w", timeout, err)
	}
	if err == nil && c.tap != nil {
		c.tap.Received(buf.ID, buf.Data)
	}
	return err
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
	c.closeOnce.Do(func() {
		_ = c.sock.Close()
		if c.tap != nil {
			c.tap.Closed()
		}
	})
}

// writeError is a packet the connection could not send. A server that kicks
// sends Disconnect and closes, so a write racing the close fails before the
// reader has read the reason: the reader goes on reading for writeGrace.
type writeError struct {
	packet string
	err    error
}

func (e *writeError) Error() string { return fmt.Sprintf("writing %s: %v", e.packet, e.err) }
func (e *writeError) Unwrap() error { return e.err }
