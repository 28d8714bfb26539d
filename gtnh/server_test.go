package gtnh

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	mcnet "github.com/Tnze/go-mc/net"
	pk "github.com/Tnze/go-mc/net/packet"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/memnet"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// testMods is the mod list of the scripted GTNH server.
var testMods = []proto17.ModInfo{
	{ModID: "mcp", Version: "9.05"}, {ModID: "FML", Version: "7.10.99.99"}, {ModID: "Forge", Version: "10.13.4.1614"},
	{ModID: "neid", Version: "2.1.10"}, {ModID: "modularui", Version: "1.2.20"}, {ModID: "gregtech", Version: "MC1710-5.09.51.482"},
}

var gtnhFormats = proto17.Formats{NEID: true, ModularUI: true}

// Registry ids of the scripted server (GTNH ids differ from vanilla ones,
// so the tests prove the registry is used).
const (
	idStone   = 1
	idGrass   = 2
	idDirt    = 3
	idLog     = 1017
	idPlanks  = 1005
	idMachine = 4500 // beyond 12 bits: only NEID carries it
	idStick   = 2280
	idAxe     = 2258
)

func testRegistry() *proto17.ModIDData {
	return &proto17.ModIDData{Entries: []proto17.RegistryEntry{
		{Name: "\u0001minecraft:air", ID: 0}, {Name: "\u0001minecraft:stone", ID: idStone},
		{Name: "\u0001minecraft:grass", ID: idGrass}, {Name: "\u0001minecraft:dirt", ID: idDirt},
		{Name: "\u0001minecraft:log", ID: idLog}, {Name: "\u0001minecraft:planks", ID: idPlanks},
		{Name: "\u0001gregtech:gt.blockmachines", ID: idMachine},
		{Name: "\u0002minecraft:stick", ID: idStick}, {Name: "\u0002minecraft:iron_axe", ID: idAxe},
	}}
}

// pipeNet hands the server end of every connection the client dials to the
// test's scripts, one script per connection, in order.
type pipeNet struct {
	t       *testing.T
	mu      sync.Mutex
	scripts []func(*serverConn)
	dials   int
	wg      sync.WaitGroup
	errs    chan error
}

func newPipeNet(t *testing.T, scripts ...func(*serverConn)) *pipeNet {
	n := &pipeNet{t: t, scripts: scripts, errs: make(chan error, 16)}
	t.Cleanup(func() {
		n.wg.Wait()
		close(n.errs)
		for err := range n.errs {
			t.Error(err)
		}
	})
	return n
}

func (n *pipeNet) dial(ctx context.Context, addr string) (net.Conn, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.dials >= len(n.scripts) {
		return nil, errors.New("connection refused (no script left)")
	}
	script := n.scripts[n.dials]
	n.dials++
	client, server := memnet.Pipe()
	sc := &serverConn{t: n.t, mc: mcnet.WrapConn(server), sock: server, in: make(chan proto17.Packet, 4096), done: make(chan struct{})}
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		defer sc.close()
		defer func() {
			if v := recover(); v != nil {
				if _, ok := v.(scriptAbort); !ok {
					n.errs <- fmt.Errorf("script panicked: %v", v)
				}
			}
		}()
		script(sc)
	}()
	return client, nil
}

// scriptAbort ends a script quietly (the client went away).
type scriptAbort struct{}

// serverConn is the server side of one scripted connection.
type serverConn struct {
	t       *testing.T
	mc      *mcnet.Conn
	sock    net.Conn
	formats proto17.Formats
	in      chan proto17.Packet
	done    chan struct{}
	once    sync.Once
	wmu     sync.Mutex
	// settings is the Client Settings the client sent at join.
	settings *proto17.ClientSettings
	// helloDimension and registryTail come from loginOpts.
	helloDimension int32
	registryTail   []byte
}

func (sc *serverConn) close() {
	sc.once.Do(func() { _ = sc.sock.Close(); close(sc.done) })
}

// send writes one clientbound packet; a closed pipe aborts the script.
func (sc *serverConn) send(p proto17.Packet) {
	data, err := p.AppendPayload(nil, sc.formats)
	if err != nil {
		panic(err)
	}
	sc.raw(p.PacketID(), data)
}

func (sc *serverConn) raw(id int32, data []byte) {
	sc.wmu.Lock()
	defer sc.wmu.Unlock()
	_ = sc.sock.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if err := sc.mc.WritePacket(pk.Packet{ID: id, Data: data}); err != nil {
		panic(scriptAbort{})
	}
}

// read reads one serverbound packet synchronously (before the drain runs).
func (sc *serverConn) read(s proto17.State) proto17.Packet {
	var buf pk.Packet
	_ = sc.sock.SetReadDeadline(time.Now().Add(5 * time.Second))
	if err := sc.mc.ReadPacket(&buf); err != nil {
		panic(scriptAbort{})
	}
	p, err := proto17.Decode(s, proto17.Serverbound, buf.ID, buf.Data, sc.formats)
	if err != nil || p == nil {
		sc.t.Errorf("serverbound packet 0x%02X in %v: %v", buf.ID, s, err)
		panic(scriptAbort{})
	}
	return p
}

// drain reads play packets in the background into sc.in.
func (sc *serverConn) drain() {
	go func() {
		for {
			var buf pk.Packet // decoded packets alias it
			_ = sc.sock.SetReadDeadline(time.Time{})
			if err := sc.mc.ReadPacket(&buf); err != nil {
				sc.close()
				return
			}
			p, err := proto17.Decode(proto17.Play, proto17.Serverbound, buf.ID, buf.Data, sc.formats)
			if err != nil || p == nil {
				p = &useEntityOrUnknown{id: buf.ID}
			}
			select {
			case sc.in <- p:
			case <-sc.done:
				return
			}
		}
	}()
}

// useEntityOrUnknown stands for a serverbound packet the codec lacks or
// cannot decode.
type useEntityOrUnknown struct{ id int32 }

func (u *useEntityOrUnknown) PacketID() int32    { return u.id }
func (u *useEntityOrUnknown) PacketName() string { return "unknown" }
func (u *useEntityOrUnknown) AppendPayload(b []byte, _ proto17.Formats) ([]byte, error) {
	return b, nil
}
func (u *useEntityOrUnknown) DecodePayload([]byte, proto17.Formats) error { return nil }

// expect waits for the first drained packet that matches, skipping others
// (movement packets arrive every tick).
func expect[T proto17.Packet](sc *serverConn, match func(T) bool) T {
	timeout := testdeadline.After(sc.t)
	for {
		select {
		case p := <-sc.in:
			if v, ok := p.(T); ok && (match == nil || match(v)) {
				return v
			}
		case <-sc.done:
			panic(scriptAbort{})
		case <-timeout:
			var zero T
			sc.t.Errorf("timed out waiting for %T", zero)
			panic(scriptAbort{})
		}
	}
}

// expectPlugin waits for a serverbound plugin message on a channel.
func (sc *serverConn) expectPlugin(channel string) []byte {
	return expect(sc, func(p *proto17.ServerboundPluginMessage) bool { return p.Channel == channel }).Data
}

func (sc *serverConn) expectFML() proto17.FMLMessage {
	m, err := proto17.DecodeFML(sc.expectPlugin(proto17.ChannelFMLHandshake))
	if err != nil {
		sc.t.Errorf("client FML message: %v", err)
		panic(scriptAbort{})
	}
	return m
}

func (sc *serverConn) sendFML(m proto17.FMLMessage) {
	data, err := proto17.EncodeFML(m)
	if err != nil {
		panic(err)
	}
	sc.send(&proto17.PluginMessage{Channel: proto17.ChannelFMLHandshake, Data: data})
}

// status answers a Server List Ping.
func (sc *serverConn) status(mods []proto17.ModInfo) {
	hs := sc.read(proto17.Handshaking).(*proto17.Handshake)
	if hs.NextState != 1 {
		sc.t.Errorf("status handshake: next state %d", hs.NextState)
	}
	sc.read(proto17.Status)
	modList := "["
	for i, m := range mods {
		if i > 0 {
			modList += ","
		}
		modList += fmt.Sprintf(`{"modid":%q,"version":%q}`, m.ModID, m.Version)
	}
	modList += "]"
	sc.send(&proto17.StatusResponse{JSON: `{"version":{"name":"1.7.10","protocol":5},"players":{"max":20,"online":1,"sample":[{"name":"Alice","id":"0-0"}]},` +
		`"description":{"text":"§aGTNH §r2.8.4 test"},"modinfo":{"type":"FML","modList":` + modList + `}}`})
	ping := sc.read(proto17.Status).(*proto17.StatusPing)
	sc.send(&proto17.StatusPong{Payload: ping.Payload})
}

// loginOpts tune the scripted login.
type loginOpts struct {
	formats   proto17.Formats
	multipart bool // send the registry over FML|MP
	entityID  int32
	spawn     [3]float64 // feet
	columns   []testColumn
	vanilla   bool // no FML handshake
	// dimension is the ServerHello's; Join Game carries it cut to a byte.
	dimension int32
	// joinDimension, when set, is Join Game's instead (a ServerHello
	// without an override says 0).
	joinDimension *int8
	// registryTail is appended to the ModIdData message.
	registryTail []byte
}

// login runs handshake, login, the FML handshake and the join; it
// returns with the drain running and the client's position reply read.
func (sc *serverConn) login(o loginOpts) {
	hs := sc.read(proto17.Handshaking).(*proto17.Handshake)
	if hs.Protocol != 5 || !hs.FML || hs.NextState != 2 {
		sc.t.Errorf("login handshake %+v", hs)
	}
	ls := sc.read(proto17.Login).(*proto17.LoginStart)
	sc.send(&proto17.LoginSuccess{UUID: "00000000-0000-3000-8000-000000000000", Name: ls.Name})
	sc.formats = o.formats
	sc.drain()
	sc.helloDimension, sc.registryTail = o.dimension, o.registryTail
	if !o.vanilla {
		sc.fmlHandshake(o.multipart)
	}
	if o.entityID == 0 {
		o.entityID = 42
	}
	joinDim := int8(o.dimension)
	if o.joinDimension != nil {
		joinDim = *o.joinDimension
	}
	sc.send(&proto17.JoinGame{EntityID: o.entityID, GameMode: 0, Dimension: joinDim, Difficulty: 2, MaxPlayers: 20, LevelType: "default"})
	sc.send(&proto17.SpawnPosition{X: 8, Y: 64, Z: 8})
	for _, col := range o.columns {
		sc.send(col.packet(sc.t, o.formats.NEID))
	}
	sc.send(&proto17.PlayerPositionAndLook{X: o.spawn[0], Y: o.spawn[1] + proto17.EyeHeight, Z: o.spawn[2]})
	sc.settings = expect(sc, func(*proto17.ClientSettings) bool { return true })
	reply := expect(sc, func(p *proto17.ServerboundPlayerPositionAndLook) bool { return p.X == o.spawn[0] && p.Z == o.spawn[2] })
	if reply.FeetY != o.spawn[1] || reply.HeadY != o.spawn[1]+proto17.EyeHeight {
		sc.t.Errorf("position reply feet %v head %v, want %v and %v", reply.FeetY, reply.HeadY, o.spawn[1], o.spawn[1]+proto17.EyeHeight)
	}
}

// fmlHandshake plays the server side of FML|HS as Forge 10.13.4 does.
func (sc *serverConn) fmlHandshake(multipart bool) {
	sc.send(&proto17.PluginMessage{Channel: proto17.ChannelRegister, Data: proto17.RegisterPayload("FML|HS", "FML", "FML|MP", "FORGE", "GregTech")})
	sc.sendFML(&proto17.ServerHello{Protocol: proto17.FMLProtocol, Dimension: sc.helloDimension})
	if reg := sc.expectPlugin(proto17.ChannelRegister); !bytes.Equal(reg, []byte("FML|HS\x00FML\x00FML|MP\x00FORGE")) {
		sc.t.Errorf("REGISTER %q", reg)
	}
	if m, ok := sc.expectFML().(*proto17.ClientHello); !ok || m.Protocol != 2 {
		sc.t.Errorf("ClientHello %+v", m)
	}
	ml, ok := sc.expectFML().(*proto17.ModList)
	if !ok || fmt.Sprint(ml.Mods) != fmt.Sprint(testMods) {
		sc.t.Errorf("client mod list %+v, want the server's", ml)
	}
	sc.sendFML(&proto17.ModList{Mods: testMods})
	sc.expectAck(2)
	data, err := proto17.EncodeFML(testRegistry())
	if err != nil {
		panic(err)
	}
	data = append(data, sc.registryTail...)
	if multipart {
		parts, err := proto17.SplitMultipart(proto17.ChannelFMLHandshake, data, 64)
		if err != nil {
			panic(err)
		}
		for _, p := range parts {
			sc.send(&proto17.PluginMessage{Channel: proto17.ChannelFMLMultipart, Data: p})
		}
	} else {
		sc.send(&proto17.PluginMessage{Channel: proto17.ChannelFMLHandshake, Data: data})
	}
	sc.sendFML(&proto17.HandshakeAck{Phase: proto17.PhaseServerWaitingCAck})
	sc.expectAck(3)
	sc.sendFML(&proto17.HandshakeAck{Phase: proto17.PhaseServerComplete})
	sc.expectAck(4)
	sc.expectAck(5)
}

func (sc *serverConn) expectAck(phase int8) {
	m, ok := sc.expectFML().(*proto17.HandshakeAck)
	if !ok || m.Phase != phase {
		sc.t.Errorf("client ack %+v, want phase %d", m, phase)
	}
}

// testColumn is a chunk column for the scripted server: block(x, y, z)
// (local x, z) gives id and metadata.
type testColumn struct {
	cx, cz int
	block  func(x, y, z int) (int, int)
}

// flatColumn is stone to y 62, dirt, then grass at 63.
func flatColumn(cx, cz int, extra map[world.BlockPos][2]int) testColumn {
	return testColumn{cx: cx, cz: cz, block: func(x, y, z int) (int, int) {
		if v, ok := extra[world.Pos(cx*16+x, y, cz*16+z)]; ok {
			return v[0], v[1]
		}
		switch {
		case y < 60:
			return idStone, 0
		case y < 63:
			return idDirt, 0
		case y == 63:
			return idGrass, 0
		}
		return 0, 0
	}}
}

// payload builds the inflated column data (sections 0..7, sky light,
// biomes) in the vanilla or the NEID layout.
func (tc testColumn) payload(neid bool) (uint16, []byte) {
	const sections = 8
	var ids, meta, light []byte
	for cy := 0; cy < sections; cy++ {
		var sid, smeta [4096]int
		for i := 0; i < 4096; i++ {
			x, z, y := i&15, i>>4&15, cy*16+i>>8
			sid[i], smeta[i] = tc.block(x, y, z)
		}
		if neid {
			for i := 0; i < 4096; i++ {
				ids = binary.BigEndian.AppendUint16(ids, uint16(sid[i]))
			}
			for i := 0; i < 4096; i++ {
				meta = binary.BigEndian.AppendUint16(meta, uint16(smeta[i]))
			}
		} else {
			for i := 0; i < 4096; i++ {
				ids = append(ids, byte(sid[i]))
			}
			for i := 0; i < 4096; i += 2 {
				meta = append(meta, byte(smeta[i]&15|smeta[i+1]&15<<4))
			}
		}
		light = append(light, make([]byte, 2048)...)
	}
	out := append(ids, meta...)
	out = append(out, light...)                                  // block light
	out = append(out, bytes.Repeat([]byte{0xFF}, len(light))...) // sky light
	out = append(out, make([]byte, 256)...)                      // biomes
	return 1<<sections - 1, out
}

func deflate(data []byte) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	_, _ = w.Write(data)
	_ = w.Close()
	return b.Bytes()
}

func (tc testColumn) packet(t *testing.T, neid bool) *proto17.ChunkData {
	mask, data := tc.payload(neid)
	return &proto17.ChunkData{X: int32(tc.cx), Z: int32(tc.cz), GroundUp: true, PrimaryMask: mask, Data: deflate(data)}
}

// testClient builds a client on a pipe network with short ticks.
func testClient(t *testing.T, n *pipeNet, mutate func(*Config)) *Client {
	cfg := Config{Address: "gtnh.test:25565", Username: "Bot", Dial: n.dial, Tick: 10 * time.Millisecond,
		LoginTimeout: 5 * time.Second, ReadTimeout: time.Minute, ActionTimeout: 10 * time.Second,
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)}
	if mutate != nil {
		mutate(&cfg)
	}
	c, err := New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// recv takes from a channel before go test's -timeout.
func recv[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-testdeadline.After(t):
		t.Fatal("timed out waiting for the scripted server")
	}
	var zero T
	return zero
}

// eventually polls cond for up to 5 s. Every caller runs in a synctest
// bubble: the seconds are the bubble's, so a loaded machine does not shorten
// them.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		// Sleep reason: cond reads state that changes at the client's or
		// the server's ticks, with no event to wait on; in the bubble the
		// sleep passes 2 ms of virtual time, not the wall clock's.
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// standardWorld is four flat columns around the spawn with a log trunk.
func standardWorld(extra map[world.BlockPos][2]int) []testColumn {
	var cols []testColumn
	for cx := -1; cx <= 0; cx++ {
		for cz := -1; cz <= 0; cz++ {
			cols = append(cols, flatColumn(cx, cz, extra))
		}
	}
	return cols
}

// gtnhLogin is the standard scripted login at (-8.5, 64, -8.5).
func gtnhLogin(extra map[world.BlockPos][2]int) loginOpts {
	return loginOpts{formats: gtnhFormats, multipart: true, spawn: [3]float64{-7.5, 64, -7.5}, columns: standardWorld(extra)}
}
