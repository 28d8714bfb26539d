package interop

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Values server.js sends.
const (
	keepAliveID = 0x5eed1234
	bigChannel  = "GTNH|Interop"
	bigLength   = 40000
)

// nodeServer is server.js running under node, with the events it reports.
type nodeServer struct {
	mu      sync.Mutex
	events  []map[string]any
	changed chan struct{} // closed and replaced at each event
	ended   chan struct{} // closed when node's output ends
	stderr  bytes.Buffer
	port    int
}

// startNode starts server.js, or skips the test when node or the npm
// packages are missing (in CI, where .ci/run installs them, it fails).
func startNode(t *testing.T) *nodeServer {
	t.Helper()
	missing := func(msg string) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s (CI must run the interop test)", msg)
		}
		t.Skip(msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed: the interop test needs Node.js and `npm ci` in interop/ — .ci/run does this")
	}
	if _, err := os.Stat(filepath.Join("node_modules", "minecraft-protocol", "package.json")); err != nil {
		missing("interop/node_modules is absent: run npm ci in interop/ — .ci/run does this")
	}

	ns := &nodeServer{changed: make(chan struct{})}
	cmd := exec.Command(node, "server.js")
	cmd.Env = append(os.Environ(), "PORT=0")
	cmd.Stderr = &lockedWriter{mu: &ns.mu, w: &ns.stderr}
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	done := make(chan struct{})
	ns.ended = done
	go func() {
		defer close(done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var ev map[string]any
			if json.Unmarshal(sc.Bytes(), &ev) != nil {
				ev = map[string]any{"event": "text", "line": sc.Text()}
			}
			ns.mu.Lock()
			ns.events = append(ns.events, ev)
			close(ns.changed)
			ns.changed = make(chan struct{})
			ns.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
		cmd.Wait()
		if t.Failed() {
			ns.mu.Lock()
			t.Logf("node stderr:\n%s", ns.stderr.String())
			for _, ev := range ns.events {
				t.Logf("node event: %v", ev)
			}
			ns.mu.Unlock()
		}
	})
	ev := ns.wait(t, "listening", func(ev map[string]any) bool { return ev["event"] == "listening" })
	ns.port = int(ev["port"].(float64))
	return ns
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// wait returns the first event (seen so far or to come) that matches.
func (ns *nodeServer) wait(t *testing.T, what string, match func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := testdeadline.After(t)
	for {
		ns.mu.Lock()
		changed := ns.changed
		for _, ev := range ns.events {
			if match(ev) {
				ns.mu.Unlock()
				return ev
			}
			if ev["event"] == "error" {
				ns.mu.Unlock()
				t.Fatalf("waiting for %s: node reported an error: %v", what, ev["message"])
			}
		}
		ns.mu.Unlock()
		select {
		case <-changed:
		case <-ns.ended:
			select {
			case <-changed:
				continue // events came as node ended: look at them first
			default:
			}
			t.Fatalf("node: ended without %s", what)
		case <-deadline:
			t.Fatalf("node: no %s before go test's -timeout", what)
		}
	}
}

// packet waits for a packet the node server received from the client.
func (ns *nodeServer) packet(t *testing.T, name string, match func(data map[string]any) bool) map[string]any {
	t.Helper()
	ev := ns.wait(t, "a "+name+" packet", func(ev map[string]any) bool {
		if ev["event"] != "packet" || ev["name"] != name {
			return false
		}
		data, _ := ev["data"].(map[string]any)
		return match(data)
	})
	return ev["data"].(map[string]any)
}

// client is a 1.7.10 client built from proto17 (framing written here; the
// 1.7 frame is a VarInt length, the VarInt id and the payload).
type client struct {
	t     *testing.T
	nc    net.Conn
	br    *bufio.Reader
	state proto17.State
	f     proto17.Formats
}

func dial(t *testing.T, port int) *client {
	t.Helper()
	nc, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), 5*time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { nc.Close() })
	return &client{t: t, nc: nc, br: bufio.NewReader(nc)}
}

func (c *client) write(p proto17.Packet) {
	c.t.Helper()
	payload, err := proto17.Payload(p, c.f)
	require.NoError(c.t, err)
	body := append(proto17.AppendVarInt(nil, p.PacketID()), payload...)
	_, err = c.nc.Write(append(proto17.AppendVarInt(nil, int32(len(body))), body...))
	require.NoError(c.t, err)
}

func readVarInt(r io.ByteReader, maxBytes int) (int32, error) {
	var v uint32
	for i := 0; i < maxBytes; i++ {
		b, err := r.ReadByte()
		if err != nil {
			return 0, err
		}
		v |= uint32(b&0x7F) << (7 * i)
		if b&0x80 == 0 {
			return int32(v), nil
		}
	}
	return 0, errors.New("VarInt too long")
}

// read reads and decodes one packet; packets proto17 has no codec for come
// back as nil with their id.
func (c *client) read() (int32, proto17.Packet) {
	c.t.Helper()
	c.nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, err := readVarInt(c.br, 3)
	require.NoError(c.t, err, "reading a frame length")
	body := make([]byte, n)
	_, err = io.ReadFull(c.br, body)
	require.NoError(c.t, err, "reading a %d-byte frame", n)
	br := bytes.NewReader(body)
	id, err := readVarInt(br, 5)
	require.NoError(c.t, err)
	p, err := proto17.Decode(c.state, proto17.Clientbound, id, body[len(body)-br.Len():], c.f)
	require.NoError(c.t, err, "decoding %s", proto17.PacketName(c.state, proto17.Clientbound, id))
	return id, p
}

func TestNodeMinecraftProtocolServer(t *testing.T) {
	ns := startNode(t)

	// Status: an independent server's status JSON, without Forge's modinfo:
	// vanilla formats.
	c := dial(t, ns.port)
	c.write(&proto17.Handshake{Protocol: proto17.ProtocolVersion, Host: "localhost", Port: uint16(ns.port), NextState: 1, FML: true})
	c.state = proto17.Status
	c.write(&proto17.StatusRequest{})
	_, p := c.read()
	st, err := proto17.ParseStatus(p.(*proto17.StatusResponse).JSON)
	require.NoError(t, err)
	assert.Equal(t, proto17.ProtocolVersion, st.Version.Protocol)
	assert.Equal(t, "node-minecraft-protocol interop", st.MOTD())
	assert.Empty(t, st.Mods())
	f, err := st.Formats()
	require.NoError(t, err)
	assert.Equal(t, proto17.Formats{}, f)
	c.write(&proto17.StatusPing{Payload: 77})
	_, p = c.read()
	assert.Equal(t, int64(77), p.(*proto17.StatusPong).Payload)
	c.nc.Close()

	// Login as a Forge client would (FML marker in the host).
	c = dial(t, ns.port)
	c.f = f
	c.write(&proto17.Handshake{Protocol: proto17.ProtocolVersion, Host: "localhost", Port: uint16(ns.port), NextState: 2, FML: true})
	c.state = proto17.Login
	c.write(&proto17.LoginStart{Name: "interop"})
	_, p = c.read()
	ls, ok := p.(*proto17.LoginSuccess)
	require.True(t, ok, "want LoginSuccess, got %T", p)
	assert.Equal(t, "interop", ls.Name)
	assert.Equal(t, fakeserver.OfflineUUID("interop"), ls.UUID, "both implementations derive the same offline UUID")
	c.state = proto17.Play
	login := ns.wait(t, "login", func(ev map[string]any) bool { return ev["event"] == "login" })
	assert.Equal(t, "interop", login["username"])
	assert.Equal(t, "localhost"+proto17.FMLMarker, login["host"], "the FML marker reaches the server")
	assert.Equal(t, float64(proto17.ProtocolVersion), login["protocol"])

	// Play: read the whole script.
	store := chunk.NewChunkStore(chunk.NewResolver(rules.Default().IDs, rules.Default().Tags))
	dec := proto17.NewChunkDecoder(f)
	var (
		join     *proto17.JoinGame
		spawn    *proto17.SpawnPosition
		pos      *proto17.PlayerPositionAndLook
		ka       *proto17.KeepAlive
		column   proto17.ChunkColumn
		bc       *proto17.BlockChange
		mbc      *proto17.MultiBlockChange
		plugins  = map[string][]byte{}
		chat     *proto17.Chat
		unknowns []int32
	)
	for chat == nil {
		id, p := c.read()
		switch p := p.(type) {
		case nil:
			unknowns = append(unknowns, id)
		case *proto17.JoinGame:
			join = p
		case *proto17.SpawnPosition:
			spawn = p
		case *proto17.PlayerPositionAndLook:
			pos = p
			c.write(&proto17.ServerboundPlayerPositionAndLook{X: p.X, FeetY: p.FeetY(), HeadY: p.Y, Z: p.Z, Yaw: p.Yaw, Pitch: p.Pitch, OnGround: true})
		case *proto17.KeepAlive:
			ka = p
			c.write(&proto17.ServerboundKeepAlive{ID: p.ID})
		case *proto17.ChunkData:
			column, err = dec.ChunkData(p, true)
			require.NoError(t, err)
			require.NotNil(t, column.Column)
			store.LoadColumn(column.Column.Clone()) // the store takes ownership; keep the decoded column as it came
		case *proto17.BlockChange:
			require.NotNil(t, column.Column, "the block change follows the chunk")
			bc = p
			store.SetState(int(p.X), int(p.Y), int(p.Z), p.State())
		case *proto17.MultiBlockChange:
			mbc = p
			for _, r := range p.Records {
				store.SetState(int(p.ChunkX)*16+int(r.X), int(r.Y), int(p.ChunkZ)*16+int(r.Z), r.State())
			}
		case *proto17.PluginMessage:
			plugins[p.Channel] = bytes.Clone(p.Data)
		case *proto17.Chat:
			chat = p
		default:
			t.Logf("also got %s", p.PacketName())
		}
	}
	assert.Empty(t, unknowns, "every packet of the script has a codec")

	require.NotNil(t, join)
	assert.Equal(t, int32(42), join.EntityID)
	assert.Equal(t, uint8(2), join.Difficulty)
	assert.Equal(t, "default", join.LevelType)
	require.NotNil(t, spawn)
	assert.Equal(t, proto17.SpawnPosition{X: 8, Y: 64, Z: 8}, *spawn)
	require.NotNil(t, pos)
	assert.InDelta(t, 64, pos.FeetY(), 1e-9, "y is at eye level")
	require.NotNil(t, ka)
	assert.Equal(t, int32(keepAliveID), ka.ID)

	// The chunk, decoded into world sections.
	assert.True(t, column.GroundUp)
	assert.Equal(t, uint16(0b11), column.Mask)
	assert.Equal(t, byte(4), column.Biomes[0])
	assert.Equal(t, byte(4), column.Biomes[255])
	sec0 := column.Column.Section(0)
	require.NotNil(t, sec0)
	assert.Equal(t, 256*4+2, sec0.NonAir(), "bedrock, three stone layers, a log and glass")
	assert.Equal(t, chunk.MakeState(7, 0), sec0.Get(0, 0, 0))
	assert.Equal(t, chunk.MakeState(1, 0), sec0.Get(9, 3, 14))
	assert.Equal(t, chunk.MakeState(17, 1), sec0.Get(5, 4, 6), "a spruce log, before the block change")
	assert.Equal(t, chunk.MakeState(20, 0), sec0.Get(3, 12, 4))
	sec1 := column.Column.Section(1)
	require.NotNil(t, sec1)
	assert.Equal(t, 2, sec1.NonAir())
	assert.Equal(t, chunk.MakeState(300, 7), sec1.Get(1, 17, 1), "the add nibble carries the id's high bits")
	assert.Equal(t, chunk.MakeState(35, 14), sec1.Get(15, 31, 15))

	// Block Change (node-minecraft-protocol's own encoder) and the raw
	// Multi Block Change in the real server's layout.
	require.NotNil(t, bc)
	assert.Equal(t, proto17.BlockChange{X: 5, Y: 4, Z: 6, BlockID: 0, Meta: 0}, *bc)
	require.NotNil(t, mbc)
	assert.Equal(t, []proto17.BlockRecord{
		{X: 3, Y: 12, Z: 4, BlockID: 4, Meta: 0},
		{X: 15, Y: 31, Z: 15, BlockID: 35, Meta: 3},
		{X: 0, Y: 255, Z: 0, BlockID: 89, Meta: 0},
	}, mbc.Records)
	assert.Equal(t, chunk.AirState, store.StateAt(5, 4, 6))
	assert.Equal(t, chunk.MakeState(4, 0), store.StateAt(3, 12, 4))
	assert.Equal(t, chunk.MakeState(35, 3), store.StateAt(15, 31, 15))
	assert.Equal(t, chunk.MakeState(89, 0), store.StateAt(0, 255, 0))
	assert.Equal(t, chunk.MakeState(300, 7), store.StateAt(1, 17, 1))

	// Plugin messages with Forge's varshort length, one past 32767 bytes.
	assert.Equal(t, append(proto17.AppendVarInt(nil, 3), "nmp"...), plugins["MC|Brand"])
	big := plugins[bigChannel]
	require.Len(t, big, bigLength)
	for i := range big {
		if big[i] != byte(i%251) {
			t.Fatalf("%s byte %d = %d, want %d", bigChannel, i, big[i], i%251)
		}
	}

	assert.Equal(t, "hello from node-minecraft-protocol", proto17.PlainText(chat.JSON))

	// What node-minecraft-protocol understood of the client.
	c.write(&proto17.ServerboundChat{Message: "interop ok"})
	ns.packet(t, "keep_alive", func(d map[string]any) bool { return d["keepAliveId"] == float64(keepAliveID) })
	ns.packet(t, "chat", func(d map[string]any) bool { return d["message"] == "interop ok" })
	look := ns.packet(t, "position_look", func(map[string]any) bool { return true })
	// minecraft-data names the second field "stance" and the third "y";
	// on the wire they are the feet and the head, in that order.
	assert.Equal(t, fmt.Sprint(map[string]any{"x": 8.5, "stance": 64.0, "y": 65.62, "z": 8.5}),
		fmt.Sprint(map[string]any{"x": look["x"], "stance": look["stance"], "y": look["y"], "z": look["z"]}))
	assert.Equal(t, true, look["onGround"])

	c.nc.Close()
	ns.wait(t, "the end of the connection", func(ev map[string]any) bool { return ev["event"] == "end" })
}
