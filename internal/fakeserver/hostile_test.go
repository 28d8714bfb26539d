package fakeserver

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"encoding/binary"
	"io"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

func TestBombs(t *testing.T) {
	zr, err := gzip.NewReader(bytes.NewReader(NBTBomb()))
	require.NoError(t, err)
	raw, err := io.ReadAll(zr)
	require.NoError(t, err)
	want := []byte{10, 0, 0, 9, 0, 4, 'e', 'n', 'c', 'h', 10, 0x7F, 0xFF, 0xFF, 0xFF}
	assert.Equal(t, want, raw, "a list of 2^31-1 compounds named ench, and no element")
	_, err = proto17.DecodeGzipNBT(NBTBomb())
	assert.Error(t, err, "the bounded decoder refuses it")

	// A small bomb built the same way inflates to its size with a valid
	// checksum; the real one is that stream with the repeated part 1,024
	// times (inflating a gigabyte here would take seconds).
	for _, size := range []int{bombChunk, 3 * bombChunk, 8 * bombChunk} {
		zl, err := zlib.NewReader(bytes.NewReader(buildZlibBomb(size)))
		require.NoError(t, err)
		n, err := io.Copy(io.Discard, zl)
		require.NoError(t, err, "%d bytes", size)
		assert.Equal(t, int64(size), n)
	}
	l2, l3 := len(buildZlibBomb(2*bombChunk)), len(buildZlibBomb(3*bombChunk))
	bomb := ZlibBomb()
	assert.Equal(t, l2+(ZlibBombSize/bombChunk-2)*(l3-l2), len(bomb))
	assert.LessOrEqual(t, len(bomb)+20, maxFrame, "it fits a 1.7.10 frame")
}

// rawPacket is one frame read without decoding.
type rawPacket struct {
	id      int32
	payload []byte
}

// readBurst reads frames until the hostile burst's FML|MP preamble and
// returns the burst's packets (what came before the Set Slot is skipped).
func readBurst(t *testing.T, c *tclient) []rawPacket {
	t.Helper()
	var out []rawPacket
	for {
		c.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
		id, payload, err := readFrame(c.br)
		require.NoError(t, err)
		if id == proto17.IDClientboundKeepAlive {
			c.send(&proto17.ServerboundKeepAlive{ID: int32(binary.BigEndian.Uint32(payload))})
			continue
		}
		if id == proto17.IDClientboundTimeUpdate {
			continue // the clock, every 20 ticks: it may fall inside a burst
		}
		if id == proto17.IDClientboundSetSlot && len(payload) > 3 && payload[2] == 20 {
			out = out[:0] // the burst starts with the Set Slot into slot 20
		}
		out = append(out, rawPacket{id, bytes.Clone(payload)})
		if id == proto17.IDClientboundPluginMessage {
			p, err := proto17.Decode(proto17.Play, proto17.Clientbound, id, payload, c.f)
			require.NoError(t, err)
			if p.(*proto17.PluginMessage).Channel == proto17.ChannelFMLMultipart {
				return out
			}
		}
	}
}

// checkBurst checks every packet of a hostile burst.
func checkBurst(t *testing.T, s *Server, burst []rawPacket) {
	t.Helper()
	f := s.Formats()
	require.Len(t, burst, 6, "Set Slot, Spawn Object, Entity Metadata, Chunk Data, Window Items, FML|MP")
	stick, _ := s.IDs().ItemID("minecraft:stick")

	p, err := proto17.Decode(proto17.Play, proto17.Clientbound, burst[0].id, burst[0].payload, f)
	require.NoError(t, err, "the Set Slot frame is well formed; its NBT is the bomb")
	ss := p.(*proto17.SetSlot)
	assert.Equal(t, int16(20), ss.Slot)
	assert.Equal(t, int16(stick), ss.Item.ID)
	assert.Equal(t, NBTBomb(), ss.Item.NBT)

	p, err = proto17.Decode(proto17.Play, proto17.Clientbound, burst[1].id, burst[1].payload, f)
	require.NoError(t, err)
	so := p.(*proto17.SpawnObject)
	assert.Equal(t, int8(proto17.ObjectItem), so.Type)
	p, err = proto17.Decode(proto17.Play, proto17.Clientbound, burst[2].id, burst[2].payload, f)
	require.NoError(t, err)
	md := p.(*proto17.EntityMetadata)
	assert.Equal(t, so.EntityID, md.EntityID)
	it, ok := md.Metadata.Item()
	require.True(t, ok)
	assert.Equal(t, NBTBomb(), it.NBT)

	p, err = proto17.Decode(proto17.Play, proto17.Clientbound, burst[3].id, burst[3].payload, f)
	require.NoError(t, err)
	cd := p.(*proto17.ChunkData)
	assert.Equal(t, ZlibBomb(), cd.Data)
	assert.Greater(t, int(cd.X), s.opts.ViewRadius, "a column outside the world")
	_, err = proto17.NewChunkDecoder(f).ChunkData(cd, true)
	assert.ErrorIs(t, err, proto17.ErrInvalid, "it inflates to more than a column holds")

	assert.Equal(t, int32(proto17.IDClientboundWindowItems), burst[4].id)
	assert.Equal(t, []byte{0, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}, burst[4].payload, "32,767 slots announced, two present")
	_, err = proto17.Decode(proto17.Play, proto17.Clientbound, burst[4].id, burst[4].payload, f)
	assert.ErrorIs(t, err, proto17.ErrTruncated)

	p, err = proto17.Decode(proto17.Play, proto17.Clientbound, burst[5].id, burst[5].payload, f)
	require.NoError(t, err)
	var mp proto17.Multipart
	_, _, _, err = mp.Feed(p.(*proto17.PluginMessage).Data)
	assert.ErrorIs(t, err, proto17.ErrTooLarge, "2^31-1 bytes announced")
	pre := p.(*proto17.PluginMessage).Data
	assert.Equal(t, uint32(math.MaxInt32), binary.BigEndian.Uint32(pre[len(pre)-4:]))
	assert.Equal(t, byte(255), pre[len(pre)-5])
}

func TestHostileBursts(t *testing.T) {
	s := newServer(t, Options{Hostile: true, TickDuration: 5 * time.Millisecond})
	c, _ := enter(t, s, "bot")
	checkBurst(t, s, readBurst(t, c))
	assert.Equal(t, 1, s.HostileBursts(), "one burst after the join")

	// The first accepted dig brings the second burst; later digs none.
	log := s.Trees()[0]
	d := digAt(t, c, s, log, 20*s.opts.TickDuration)
	require.True(t, d.Accepted, d.Reason)
	checkBurst(t, s, readBurst(t, c))
	d = digAt(t, c, s, log.Add(0, 1, 0), 20*s.opts.TickDuration)
	require.True(t, d.Accepted, d.Reason)
	assert.Equal(t, 2, s.HostileBursts())

	inv := s.Players()[0].Inventory
	assert.Len(t, inv, 1, "the burst left the server's inventory alone: %v", inv)
	assert.Zero(t, s.Players()[0].Count("minecraft:stick"))
	assert.Empty(t, s.Kicks())
}

func TestFaultSkipAndOnce(t *testing.T) {
	// kickedAfter counts the keep-alives a player gets before the kick
	// (-1: none within 6 of them).
	kickedAfter := func(t *testing.T, c *tclient) int {
		n := 0
		for n < 6 {
			p, err := c.next()
			require.NoError(t, err)
			switch p := p.(type) {
			case *proto17.KeepAlive:
				n++
			case *proto17.Disconnect:
				assert.Equal(t, "restarting", proto17.PlainText(p.Reason))
				return n
			}
		}
		return -1
	}
	// joinOnly logs in and reads the join without waiting for the server
	// to list the player: on a loaded machine the third keep-alive (the
	// kick) can come before such a wait sees the player in play, and this
	// test sends nothing that needs the player in play.
	joinOnly := func(s *Server) *tclient {
		c := dialT(t, s)
		c.login("bot")
		if len(s.opts.Mods) > 0 {
			c.fml(s.opts.Mods)
		}
		c.join(s)
		return c
	}
	for _, once := range []bool{false, true} {
		s := newServer(t, Options{KeepAliveInterval: 100 * time.Millisecond, TickDuration: 5 * time.Millisecond,
			Faults: Faults{KickAt: StageKeepAlive, KickReason: "restarting", Skip: 2, Once: once}})
		c := joinOnly(s)
		assert.Equal(t, 2, kickedAfter(t, c), "the third keep-alive is the kick")
		c = joinOnly(s)
		if once {
			assert.Equal(t, -1, kickedAfter(t, c), "Once: a rejoining player is not kicked again")
		} else {
			assert.Equal(t, 2, kickedAfter(t, c), "each connection counts its own keep-alives")
		}
		strikes := s.Strikes()
		require.NotEmpty(t, strikes)
		assert.Equal(t, "kick", strikes[0].Fault)
		assert.Equal(t, StageKeepAlive, strikes[0].Stage)
	}
}

func TestStall(t *testing.T) {
	const stall = 300 * time.Millisecond
	s := newServer(t, Options{KeepAliveInterval: 10 * time.Millisecond, TickDuration: 5 * time.Millisecond,
		Faults: Faults{StallAt: StageKeepAlive, Skip: 1, StallFor: stall}})
	c, _ := enter(t, s, "bot")
	untilType[*proto17.KeepAlive](c)
	untilType[*proto17.KeepAlive](c)
	require.Len(t, s.Strikes(), 1)
	assert.Equal(t, "stall", s.Strikes()[0].Fault)
	assert.GreaterOrEqual(t, time.Since(s.Strikes()[0].Time), stall, "the stalled keep-alive came after the stall")

	// A stall ends when the connection closes.
	s2 := newServer(t, Options{KeepAliveInterval: 10 * time.Millisecond, Faults: Faults{StallAt: StageKeepAlive, StallFor: time.Hour}})
	c2, _ := enter(t, s2, "bot")
	waitFor(t, s2, "the stall", func() bool { return len(s2.Strikes()) == 1 })
	c2.nc.Close()
	start := time.Now()
	s2.Close()
	assert.Less(t, time.Since(start), 5*time.Second)
}

func TestRestartKeepsTheWorld(t *testing.T) {
	s := newServer(t, Options{TickDuration: 5 * time.Millisecond})
	addr := s.Addr()
	c, _ := enter(t, s, "bot")
	log := s.Trees()[0]
	d := digAt(t, c, s, log, 20*s.opts.TickDuration)
	require.True(t, d.Accepted, d.Reason)
	require.NoError(t, s.SetBlocks(Block{X: 6, Y: 64, Z: 6, Name: "minecraft:stone"}))
	c.moveTo(9.5, 64, 8.5)
	waitFor(t, s, "the move", func() bool { return s.Players()[0].Pos.X == 9.5 })
	require.Len(t, s.DroppedItems(), 1, "the log's drop lies 3 blocks away")

	done := make(chan error, 1)
	go func() { done <- s.Restart(300 * time.Millisecond) }()
	dc := untilType[*proto17.Disconnect](c)
	assert.Equal(t, "Server closed", proto17.PlainText(dc.Reason), "as a stopping 1.7.10 server kicks")
	waitFor(t, s, "the player gone", func() bool { return len(s.Players()) == 0 })
	if nc, err := s.Dial(context.Background(), addr); err == nil {
		nc.Close()
		select {
		case err := <-done:
			t.Fatalf("the server came back too early (%v)", err)
		default:
			t.Fatal("a connection was accepted during the downtime")
		}
	}
	require.NoError(t, <-done)
	assert.Equal(t, addr, s.Addr())
	assert.Equal(t, 1, s.Restarts())

	c, j := enter(t, s, "bot")
	assert.InDelta(t, 9.5, j.pos.X, 1e-9, "back where it left")
	var axe proto17.Slot
	for _, sl := range j.inv.Items {
		if !sl.Empty() {
			axe = sl
		}
	}
	assert.Equal(t, int16(1), axe.Damage, "the saved inventory, with the axe's wear")
	name, _ := s.BlockAt(6, 64, 6)
	assert.Equal(t, "minecraft:stone", name)
	j.chunks.SetResolver(chunk.NewResolver(s.IDs(), rules.Default().Tags))
	assert.Equal(t, "minecraft:stone", j.chunks.BlockAt(world.Pos(6, 64, 6)).ID, "the world kept its change")
	so := untilType[*proto17.SpawnObject](c)
	assert.Equal(t, s.DroppedItems()[0].EntityID, so.EntityID, "the lying item is shown to the rejoining player")

	// Restarting a closed server fails.
	s.Close()
	assert.Error(t, s.Restart(0))
}

func TestLoginReplacesTheOldConnection(t *testing.T) {
	s := newServer(t, Options{TickDuration: 5 * time.Millisecond, KeepAliveInterval: 10 * time.Millisecond,
		Faults: Faults{StallAt: StageKeepAlive, Skip: 3, StallFor: time.Hour, Once: true}})
	c1, _ := enter(t, s, "bot")
	c1.moveTo(9.5, 64, 8.5)
	waitFor(t, s, "the move", func() bool { return len(s.Players()) == 1 && s.Players()[0].Pos.X == 9.5 })
	// The first connection is stalled at its fourth keep-alive; the second
	// gets no stall (Once: the fault strikes one time in the server's
	// life, however long the second join takes on a loaded machine).
	waitFor(t, s, "the stall", func() bool { return len(s.Strikes()) == 1 })
	c2, j := enter(t, s, "bot")
	assert.InDelta(t, 9.5, j.pos.X, 1e-9, "the old connection was saved before the new one joined")
	require.Len(t, s.Players(), 1)
	_, err := c1.next()
	for err == nil {
		_, err = c1.next()
	}
	assert.True(t, isEOF(err), "the stalled connection is closed: %v", err)

	_ = c2

	// Without a stall the old connection is told why.
	s2 := newServer(t, Options{})
	old, _ := enter(t, s2, "bot")
	c3 := dialT(t, s2)
	c3.login("bot")
	d := untilType[*proto17.Disconnect](old)
	assert.Equal(t, "You logged in from another location", proto17.PlainText(d.Reason))
}

// TestAStalledConnectionHoldsUpNobodyElse: while one player's connection
// stalls, the server goes on for the others: a world change reaches them at
// once (it is dropped for the stalled one), as on a real server.
func TestAStalledConnectionHoldsUpNobodyElse(t *testing.T) {
	s := newServer(t, Options{KeepAliveInterval: 10 * time.Millisecond, TickDuration: 5 * time.Millisecond,
		Faults: Faults{StallAt: StageKeepAlive, StallFor: time.Hour, Once: true}})
	a, _ := enter(t, s, "stalled")
	waitFor(t, s, "the stall", func() bool { return len(s.Strikes()) == 1 })
	b, _ := enter(t, s, "other")
	untilType[*proto17.KeepAlive](b)
	done := make(chan error, 1)
	go func() { done <- s.SetBlocks(Block{X: 6, Y: 64, Z: 6, Name: "minecraft:stone"}) }()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-testdeadline.After(t): // the stall lasts an hour, past go test's -timeout
		t.Fatal("a world change waited for the stalled connection")
	}
	bc := untilType[*proto17.BlockChange](b)
	assert.Equal(t, int32(6), bc.X)
	untilType[*proto17.KeepAlive](b)
	a.nc.Close()
}
