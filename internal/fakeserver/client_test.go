package fakeserver

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// tclient is a minimal hand-written 1.7.10 Forge client on proto17: enough
// to walk a connection through the live sequence and look at what the
// server sends.
type tclient struct {
	t     *testing.T
	nc    net.Conn
	br    *bufio.Reader
	state proto17.State
	f     proto17.Formats
	mp    proto17.Multipart
	// echo answers keep-alives as they arrive.
	echo bool
	// log is every decoded play packet, in order.
	log []proto17.Packet
}

func dialT(t *testing.T, s *Server) *tclient {
	t.Helper()
	ctx, cancel := testdeadline.WithCancel(t, "the dial")
	defer cancel()
	nc, err := s.Dial(ctx, s.Addr())
	require.NoError(t, err)
	t.Cleanup(func() { nc.Close() })
	return &tclient{t: t, nc: nc, br: bufio.NewReader(nc), state: proto17.Handshaking, f: s.Formats(), echo: true}
}

func (c *tclient) write(p proto17.Packet) {
	c.t.Helper()
	payload, err := proto17.Payload(p, c.f)
	require.NoError(c.t, err)
	c.writeRaw(p.PacketID(), payload)
}

// send writes a packet without failing the test (for goroutines other than
// the test's own); a failed write shows up as the reader's error.
func (c *tclient) send(p proto17.Packet) {
	payload, err := proto17.Payload(p, c.f)
	if err != nil {
		return
	}
	if b, err := frame(p.PacketID(), payload); err == nil {
		c.nc.Write(b)
	}
}

func (c *tclient) writeRaw(id int32, payload []byte) {
	c.t.Helper()
	b, err := frame(id, payload)
	require.NoError(c.t, err)
	_, err = c.nc.Write(b)
	require.NoError(c.t, err)
}

// sendFML is writeFML without failing the test.
func (c *tclient) sendFML(m proto17.FMLMessage) {
	if data, err := proto17.EncodeFML(m); err == nil {
		c.send(&proto17.ServerboundPluginMessage{Channel: proto17.ChannelFMLHandshake, Data: data})
	}
}

func (c *tclient) writeFML(m proto17.FMLMessage) {
	c.t.Helper()
	data, err := proto17.EncodeFML(m)
	require.NoError(c.t, err)
	c.write(&proto17.ServerboundPluginMessage{Channel: proto17.ChannelFMLHandshake, Data: data})
}

// next reads and decodes one packet (answering keep-alives when echo is
// set). It returns the decode error rather than failing, so fault tests
// can look at it.
func (c *tclient) next() (proto17.Packet, error) {
	c.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	id, payload, err := readFrame(c.br)
	if err != nil {
		return nil, err
	}
	p, err := proto17.Decode(c.state, proto17.Clientbound, id, payload, c.f)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return &unknown{id: id, payload: payload}, nil
	}
	if c.state == proto17.Play {
		c.log = append(c.log, p)
	}
	if ka, ok := p.(*proto17.KeepAlive); ok && c.echo {
		c.send(&proto17.ServerboundKeepAlive{ID: ka.ID})
	}
	return p, nil
}

// unknown is a packet proto17 has no codec for.
type unknown struct {
	id      int32
	payload []byte
}

func (u *unknown) PacketID() int32    { return u.id }
func (u *unknown) PacketName() string { return fmt.Sprintf("unknown 0x%02X", u.id) }
func (u *unknown) AppendPayload(b []byte, _ proto17.Formats) ([]byte, error) {
	return append(b, u.payload...), nil
}
func (u *unknown) DecodePayload(d []byte, _ proto17.Formats) error { u.payload = d; return nil }

// must reads the next packet and fails the test on an error.
func (c *tclient) must() proto17.Packet {
	c.t.Helper()
	p, err := c.next()
	require.NoError(c.t, err)
	return p
}

// until reads packets until one satisfies match, and returns it.
func (c *tclient) until(what string, match func(proto17.Packet) bool) proto17.Packet {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		p, err := c.next()
		require.NoError(c.t, err, "waiting for %s", what)
		if d, ok := p.(*proto17.Disconnect); ok && !strings.HasSuffix(what, "Disconnect") {
			c.t.Fatalf("waiting for %s: disconnected: %s", what, proto17.PlainText(d.Reason))
		}
		if match(p) {
			return p
		}
	}
	c.t.Fatalf("no %s within 10 s", what)
	return nil
}

// untilType reads until a packet of type T arrives.
func untilType[T proto17.Packet](c *tclient) T {
	c.t.Helper()
	var zero T
	p := c.until(fmt.Sprintf("%T", zero), func(p proto17.Packet) bool { _, ok := p.(T); return ok })
	return p.(T)
}

// handshake sends the handshake for a next state (1 status, 2 login).
func (c *tclient) handshake(next int32, fml bool) {
	c.t.Helper()
	c.write(&proto17.Handshake{Protocol: proto17.ProtocolVersion, Host: "localhost", Port: 25565, NextState: next, FML: fml})
	if next == 1 {
		c.state = proto17.Status
	} else {
		c.state = proto17.Login
	}
}

// ping runs a status exchange.
func (c *tclient) ping() *proto17.ServerStatus {
	c.t.Helper()
	c.handshake(1, true)
	c.write(&proto17.StatusRequest{})
	resp, ok := c.must().(*proto17.StatusResponse)
	require.True(c.t, ok)
	st, err := proto17.ParseStatus(resp.JSON)
	require.NoError(c.t, err)
	c.write(&proto17.StatusPing{Payload: 424242})
	pong, ok := c.must().(*proto17.StatusPong)
	require.True(c.t, ok)
	require.Equal(c.t, int64(424242), pong.Payload)
	return st
}

// login logs in and returns Login Success.
func (c *tclient) login(name string) *proto17.LoginSuccess {
	c.t.Helper()
	c.handshake(2, true)
	c.write(&proto17.LoginStart{Name: name})
	p := c.must()
	ls, ok := p.(*proto17.LoginSuccess)
	require.True(c.t, ok, "got %s", p.PacketName())
	c.state = proto17.Play
	return ls
}

// fmlMessage reads plugin messages until an FML|HS message arrives
// (reassembling FML|MP parts) and returns it with the number of FML|MP
// packets it took.
func (c *tclient) fmlMessage() (proto17.FMLMessage, int, error) {
	parts := 0
	for {
		p, err := c.next()
		if err != nil {
			return nil, parts, err
		}
		if d, ok := p.(*proto17.Disconnect); ok {
			return nil, parts, fmt.Errorf("disconnected: %s", proto17.PlainText(d.Reason))
		}
		pm, ok := p.(*proto17.PluginMessage)
		if !ok {
			return nil, parts, fmt.Errorf("got %s during the FML handshake", p.PacketName())
		}
		ch, data := pm.Channel, pm.Data
		if ch == proto17.ChannelFMLMultipart {
			parts++
			var done bool
			ch, data, done, err = c.mp.Feed(pm.Data)
			if err != nil {
				return nil, parts, err
			}
			if !done {
				continue
			}
		}
		if ch != proto17.ChannelFMLHandshake {
			continue
		}
		m, err := proto17.DecodeFML(data)
		return m, parts, err
	}
}

// registrySeen is what the client learned in the FML handshake.
type registrySeen struct {
	ids      *rules.IDMap
	data     *proto17.ModIDData
	mpParts  int
	serverML []proto17.ModInfo
}

// fml runs the client side of the FML handshake, echoing the server's mod
// list (taken from mods).
func (c *tclient) fml(mods []proto17.ModInfo) registrySeen {
	c.t.Helper()
	var seen registrySeen
	m, _, err := c.fmlMessage()
	require.NoError(c.t, err)
	hello, ok := m.(*proto17.ServerHello)
	require.True(c.t, ok, "want ServerHello, got %T", m)
	require.Equal(c.t, uint8(proto17.FMLProtocol), hello.Protocol)
	c.write(&proto17.ServerboundPluginMessage{Channel: proto17.ChannelRegister, Data: proto17.RegisterPayload(proto17.ClientChannels...)})
	c.writeFML(&proto17.ClientHello{Protocol: proto17.FMLProtocol})
	c.writeFML(&proto17.ModList{Mods: mods})

	m, _, err = c.fmlMessage()
	require.NoError(c.t, err)
	ml, ok := m.(*proto17.ModList)
	require.True(c.t, ok, "want ModList, got %T", m)
	seen.serverML = ml.Mods
	c.writeFML(&proto17.HandshakeAck{Phase: proto17.PhaseClientWaitingServerData})

	m, parts, err := c.fmlMessage()
	require.NoError(c.t, err)
	reg, ok := m.(*proto17.ModIDData)
	require.True(c.t, ok, "want ModIdData, got %T", m)
	seen.data, seen.mpParts = reg, parts
	seen.ids = rules.NewIDMap()
	require.NoError(c.t, reg.FillIDMap(seen.ids))
	c.writeFML(&proto17.HandshakeAck{Phase: proto17.PhaseClientWaitingServerComplete})

	m, _, err = c.fmlMessage()
	require.NoError(c.t, err)
	ack, ok := m.(*proto17.HandshakeAck)
	require.True(c.t, ok, "want HandshakeAck, got %T", m)
	require.Equal(c.t, proto17.PhaseServerWaitingCAck, ack.Phase)
	c.writeFML(&proto17.HandshakeAck{Phase: proto17.PhaseClientPendingComplete})

	m, _, err = c.fmlMessage()
	require.NoError(c.t, err)
	ack, ok = m.(*proto17.HandshakeAck)
	require.True(c.t, ok, "want HandshakeAck, got %T", m)
	require.Equal(c.t, proto17.PhaseServerComplete, ack.Phase)
	c.writeFML(&proto17.HandshakeAck{Phase: proto17.PhaseClientComplete})
	return seen
}

// joined is what the client saw from Join Game to the last chunk.
type joined struct {
	join    *proto17.JoinGame
	pos     *proto17.PlayerPositionAndLook
	inv     *proto17.WindowItems
	chunks  *chunk.ChunkStore
	columns int
	packets []proto17.Packet
}

// join reads the join sequence until every column of the view arrived,
// answers the position and returns what it saw.
func (c *tclient) join(s *Server) joined {
	c.t.Helper()
	var j joined
	want := (2*s.opts.ViewRadius + 1) * (2*s.opts.ViewRadius + 1)
	j.chunks = chunk.NewChunkStore(chunk.NewResolver(rules.Default().IDs, rules.Default().Tags))
	dec := proto17.NewChunkDecoder(c.f)
	for j.columns < want {
		p := c.must()
		j.packets = append(j.packets, p)
		switch p := p.(type) {
		case *proto17.Disconnect:
			c.t.Fatalf("disconnected during the join: %s", proto17.PlainText(p.Reason))
		case *proto17.JoinGame:
			j.join = p
		case *proto17.PlayerPositionAndLook:
			j.pos = p
			c.write(&proto17.ServerboundPlayerPositionAndLook{X: p.X, FeetY: p.FeetY(), HeadY: p.Y, Z: p.Z, OnGround: true})
		case *proto17.WindowItems:
			j.inv = p
		case *proto17.ChunkData:
			col, err := dec.ChunkData(p, true)
			require.NoError(c.t, err)
			j.chunks.LoadColumn(col.Column)
			j.columns++
		case *proto17.MapChunkBulk:
			cols, err := dec.MapChunkBulk(nil, p)
			require.NoError(c.t, err)
			for _, col := range cols {
				j.chunks.LoadColumn(col.Column)
				j.columns++
			}
		}
	}
	return j
}

// enter pings, logs in, runs the FML handshake and the join.
func enter(t *testing.T, s *Server, name string) (*tclient, joined) {
	t.Helper()
	c := dialT(t, s)
	c.login(name)
	if len(s.opts.Mods) > 0 {
		c.fml(s.opts.Mods)
	}
	j := c.join(s)
	// The server marks the player as playing after its last join packet
	// has gone out; wait for that so what a test does next reaches it.
	ctx, cancel := testdeadline.WithCancel(t, name+" playing")
	defer cancel()
	require.NoError(t, s.WaitFor(ctx, func() bool {
		for _, p := range s.Players() {
			if p.Name == name {
				return true
			}
		}
		return false
	}), "the server never put %s in play", name)
	return c, j
}

// moveTo sends a position with the feet at (x, y, z).
func (c *tclient) moveTo(x, y, z float64) {
	c.t.Helper()
	c.write(proto17.NewPlayerPosition(x, y, z, true))
}

// isEOF reports whether err means the server ended the connection.
func isEOF(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)
}
