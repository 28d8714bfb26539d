package fakeserver

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// newServer starts a test server; it listens in memory unless o says
// where, so a test in a synctest bubble can use it.
func newServer(t *testing.T, o Options) *Server {
	t.Helper()
	if o.Addr == "" {
		o.Addr = MemoryAddr()
	}
	if o.Logf == nil {
		o.Logf = t.Logf
	}
	s, err := New(o)
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

func waitFor(t *testing.T, s *Server, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := testdeadline.WithCancel(t, what)
	defer cancel()
	require.NoError(t, s.WaitFor(ctx, cond), what)
}

func TestStatusPingCarriesTheModList(t *testing.T) {
	s := newServer(t, Options{})
	st := dialT(t, s).ping()
	assert.Equal(t, proto17.ProtocolVersion, st.Version.Protocol)
	assert.Equal(t, "1.7.10", st.Version.Name)
	assert.Contains(t, st.MOTD(), "New Horizons")
	require.NotNil(t, st.ModInfo)
	assert.Equal(t, "FML", st.ModInfo.Type)
	assert.Equal(t, DefaultMods(), st.Mods())
	f, err := st.Formats()
	require.NoError(t, err)
	assert.Equal(t, proto17.Formats{NEID: true, ModularUI: true}, f)
	assert.Equal(t, f, s.Formats())

	names := []string{}
	for _, r := range s.Received() {
		names = append(names, r.Name)
	}
	assert.Equal(t, []string{"Handshake", "StatusRequest", "StatusPing"}, names)
	names = names[:0]
	for _, r := range s.Sent() {
		names = append(names, r.Name)
	}
	assert.Equal(t, []string{"StatusResponse", "StatusPong"}, names)
	hs := s.Received()[0].Packet.(*proto17.Handshake)
	assert.True(t, hs.FML, "the client's FML marker is seen")
}

func TestOfflineUUID(t *testing.T) {
	// Java: UUID.nameUUIDFromBytes("OfflinePlayer:Notch".getBytes(UTF_8)).
	assert.Equal(t, "b50ad385-829d-3141-a216-7e7d7539ba7f", OfflineUUID("Notch"))
	assert.Len(t, OfflineUUID("bot"), 36)
}

// TestLiveSequence walks the whole sequence in both registry modes and both
// chunk packet kinds, and checks what a client learns on the way.
func TestLiveSequence(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reg    RegistryMode
		chunks ChunkMode
	}{
		{"single registry, bulk chunks", RegistrySingle, ChunksBulk},
		{"multipart registry, single chunks", RegistryMultipart, ChunksSingle},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, Options{Registry: tc.reg, Chunks: tc.chunks})
			c := dialT(t, s)
			ls := c.login("GTNHBot")
			assert.Equal(t, "GTNHBot", ls.Name)
			assert.Equal(t, OfflineUUID("GTNHBot"), ls.UUID)
			assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-3[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, ls.UUID)

			reg := c.fml(s.opts.Mods)
			assert.Equal(t, DefaultMods(), reg.serverML)
			if tc.reg == RegistryMultipart {
				assert.Greater(t, reg.mpParts, 3, "the registry came in several FML|MP parts (and a preamble)")
			} else {
				assert.Zero(t, reg.mpParts)
				assert.Greater(t, len(s.registry), 1<<15, "one message longer than a vanilla length allows: the varshort's extra byte is used")
			}
			for name, id := range map[string]int{"minecraft:log": 17, "minecraft:grass": 2, OreBlock: oreIDNEID} {
				got, ok := reg.ids.BlockID(name)
				assert.True(t, ok, name)
				assert.Equal(t, id, got, name)
			}
			axe, ok := reg.ids.ItemID("minecraft:iron_axe")
			require.True(t, ok)
			assert.Greater(t, reg.ids.Items(), 2500)

			j := c.join(s)
			require.NotNil(t, j.join)
			assert.Equal(t, int8(0), j.join.Dimension)
			require.NotNil(t, j.pos)
			assert.InDelta(t, 64+proto17.EyeHeight, j.pos.Y, 1e-9, "the position is at eye level")
			assert.InDelta(t, 64, j.pos.FeetY(), 1e-9)
			require.NotNil(t, j.inv)
			require.Len(t, j.inv.Items, 45)
			assert.Equal(t, int16(axe), j.inv.Items[36].ID, "the iron axe in the first hotbar slot")
			assert.Equal(t, int32(1), j.inv.Items[36].Count)

			// The order of the join is the server's.
			var order []string
			for _, p := range j.packets {
				switch p.(type) {
				case *proto17.JoinGame, *proto17.SpawnPosition, *proto17.PlayerPositionAndLook, *proto17.WindowItems:
					order = append(order, p.PacketName())
				}
			}
			assert.Equal(t, []string{"JoinGame", "SpawnPosition", "PlayerPositionAndLook", "WindowItems"}, order)

			// The chunks decode in the NEID format into the world model.
			res := chunk.NewResolver(reg.ids.Clone().Freeze(), rules.Default().Tags)
			j.chunks.SetResolver(res)
			assert.Equal(t, 25, j.columns)
			assert.Equal(t, "minecraft:grass", j.chunks.BlockAt(world.Pos(0, 63, 0)).ID)
			assert.Equal(t, "minecraft:bedrock", j.chunks.BlockAt(world.Pos(-20, 0, 30)).ID)
			for _, tp := range s.Trees() {
				assert.Equal(t, "minecraft:log", j.chunks.BlockAt(tp).ID, "trunk at %v", tp)
			}
			assert.Equal(t, "minecraft:log", j.chunks.BlockAt(world.Pos(12, 68, 8)).ID, "the first trunk's top")
			assert.Equal(t, "minecraft:leaves", j.chunks.BlockAt(world.Pos(12, 69, 8)).ID, "leaves above it")
			ore := j.chunks.BlockAt(world.Pos(8, 43, 8))
			assert.Equal(t, OreBlock, ore.ID)
			assert.Equal(t, 300, ore.Meta, "16-bit metadata survives the NEID format")

			// The server saw the client's side of the handshake in order (the
			// last acks may still be on their way while the chunks arrive).
			var fml []string
			waitFor(t, s, "the client's acks", func() bool {
				fml = fml[:0]
				for _, r := range s.Received() {
					if r.FML != nil {
						fml = append(fml, describeFML(r.FML))
					}
				}
				return len(fml) >= 6
			})
			assert.Equal(t, []string{"ClientHello", "ModList", "HandshakeAck phase 2", "HandshakeAck phase 3", "HandshakeAck phase 4", "HandshakeAck phase 5"}, fml)
			waitFor(t, s, "the player", func() bool { return len(s.Players()) == 1 })
			p := s.Players()[0]
			assert.Equal(t, "GTNHBot", p.Name)
			assert.Equal(t, 1, p.Count("minecraft:iron_axe"))
		})
	}
}

func TestVanillaFormatWhenNEIDIsNotListed(t *testing.T) {
	s := newServer(t, Options{Mods: WithoutMod(DefaultMods(), proto17.ModNEID), Chunks: ChunksSingle})
	assert.Equal(t, proto17.Formats{ModularUI: true}, s.Formats())
	c, j := enter(t, s, "bot")
	_ = c
	res := chunk.NewResolver(s.IDs(), rules.Default().Tags)
	j.chunks.SetResolver(res)
	ore := j.chunks.BlockAt(world.Pos(8, 43, 8))
	assert.Equal(t, OreBlock, ore.ID, "an id above 255 travels in the add nibbles")
	assert.Equal(t, 5, ore.Meta)
	assert.Equal(t, "minecraft:log", j.chunks.BlockAt(s.Trees()[0]).ID)

	// The same bytes read as NEID fail: the formats are told apart by the
	// mod list, never by guessing.
	var chunk *proto17.ChunkData
	for _, p := range j.packets {
		if cd, ok := p.(*proto17.ChunkData); ok {
			chunk = cd
			break
		}
	}
	require.NotNil(t, chunk)
	_, err := proto17.NewChunkDecoder(proto17.Formats{NEID: true}).ChunkData(chunk, true)
	assert.Error(t, err)
}

func TestVanillaServerWithoutMods(t *testing.T) {
	s := newServer(t, Options{Mods: []proto17.ModInfo{}})
	st := dialT(t, s).ping()
	assert.Nil(t, st.ModInfo)
	c, j := enter(t, s, "bot")
	assert.NotNil(t, j.join, "no FML handshake: Join Game follows Login Success")
	assert.Equal(t, proto17.Formats{}, c.f)
}

func TestClientWithoutFMLIsRefused(t *testing.T) {
	s := newServer(t, Options{})
	c := dialT(t, s)
	c.handshake(2, false)
	c.write(&proto17.LoginStart{Name: "vanilla"})
	_, ok := c.must().(*proto17.LoginSuccess)
	require.True(t, ok)
	c.state = proto17.Play
	d, ok := c.must().(*proto17.Disconnect)
	require.True(t, ok)
	assert.Contains(t, proto17.PlainText(d.Reason), "requires FML/Forge")
}

func TestModListMismatchIsRejected(t *testing.T) {
	s := newServer(t, Options{})
	c := dialT(t, s)
	c.login("bot")
	m, _, err := c.fmlMessage()
	require.NoError(t, err)
	require.IsType(t, &proto17.ServerHello{}, m)
	mods := WithoutMod(DefaultMods(), "gregtech")
	mods[3].Version = "2.0.0"
	c.writeFML(&proto17.ClientHello{Protocol: 2})
	c.writeFML(&proto17.ModList{Mods: mods})
	_, _, err = c.fmlMessage()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Mod rejections {gregtech=missing, neid=2.0.0 (server has 2.1.10)}")
	require.Len(t, s.Kicks(), 1)
}

func TestHandshakeOrderIsEnforced(t *testing.T) {
	s := newServer(t, Options{})
	c := dialT(t, s)
	c.login("bot")
	_, _, err := c.fmlMessage()
	require.NoError(t, err)
	c.writeFML(&proto17.HandshakeAck{Phase: 2}) // an ack before the mod list
	_, _, err = c.fmlMessage()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "expected ClientHello or ModList, got HandshakeAck phase 2")
}

func TestLoginChecksProtocolAndName(t *testing.T) {
	s := newServer(t, Options{})
	c := dialT(t, s)
	c.write(&proto17.Handshake{Protocol: 4, Host: "localhost", Port: 25565, NextState: 2, FML: true})
	c.state = proto17.Login
	c.write(&proto17.LoginStart{Name: "old"})
	d, ok := c.must().(*proto17.LoginDisconnect)
	require.True(t, ok)
	assert.Equal(t, "Outdated client! Please use 1.7.10", proto17.PlainText(d.Reason))

	c = dialT(t, s)
	c.handshake(2, true)
	c.write(&proto17.LoginStart{Name: ""})
	d, ok = c.must().(*proto17.LoginDisconnect)
	require.True(t, ok)
	assert.Equal(t, "Invalid username", proto17.PlainText(d.Reason))
}

// serverTime lets d of the server's time pass. Sleep reason: the server
// times digs and walks by its clock (the ticks since it started), with no
// event to wait on; the tests that use it run in synctest bubbles, where d
// is exactly d of virtual time, however loaded the machine.
func serverTime(d time.Duration) { time.Sleep(d) }

// digAt digs the block: start, wait, finish. It returns the server's verdict.
func digAt(t *testing.T, c *tclient, s *Server, p world.BlockPos, wait time.Duration) Dig {
	t.Helper()
	n := len(s.Digs())
	c.write(&proto17.PlayerDigging{Status: proto17.DigStart, X: int32(p.X), Y: uint8(p.Y), Z: int32(p.Z), Face: proto17.FaceWest})
	c.write(&proto17.Animation{EntityID: 0, Animation: proto17.AnimationSwingArm})
	serverTime(wait)
	c.write(&proto17.PlayerDigging{Status: proto17.DigFinish, X: int32(p.X), Y: uint8(p.Y), Z: int32(p.Z), Face: proto17.FaceWest})
	waitFor(t, s, "the dig verdict", func() bool { return len(s.Digs()) > n })
	return s.Digs()[n]
}

func TestDigTimingDropAndPickup(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer(t, Options{})
		c, _ := enter(t, s, "bot")
		log := s.Trees()[0] // (12, 64, 8); the player stands at (8.5, 64, 8.5)
		logID, _ := s.IDs().BlockID("minecraft:log")

		// Too early: refused, and the block is sent back.
		d := digAt(t, c, s, log, 0)
		assert.False(t, d.Accepted)
		assert.Equal(t, "minecraft:log", d.Block)
		assert.Equal(t, "minecraft:iron_axe", d.Held)
		assert.Equal(t, 6, d.Needed, "an iron axe breaks a log in 10 ticks; 70% is 7 ticks, counting the start")
		assert.Contains(t, d.Reason, "too early")
		bc := untilType[*proto17.BlockChange](c)
		assert.Equal(t, int32(logID), bc.BlockID, "the log is restored")
		name, _ := s.BlockAt(log.X, log.Y, log.Z)
		assert.Equal(t, "minecraft:log", name)

		// A finish without a start is refused too.
		c.write(&proto17.PlayerDigging{Status: proto17.DigFinish, X: int32(log.X), Y: uint8(log.Y), Z: int32(log.Z)})
		waitFor(t, s, "verdict", func() bool { return len(s.Digs()) == 2 })
		assert.Contains(t, s.Digs()[1].Reason, "without a start")
		untilType[*proto17.BlockChange](c)

		// Long enough: the block turns to air and drops a log.
		d = digAt(t, c, s, log, time.Duration(d.Needed+3)*s.opts.TickDuration)
		assert.True(t, d.Accepted, d.Reason)
		assert.GreaterOrEqual(t, d.Ticks, d.Needed)
		bc = untilType[*proto17.BlockChange](c)
		assert.Equal(t, int32(0), bc.BlockID)
		assert.Equal(t, world.Pos(int(bc.X), int(bc.Y), int(bc.Z)), log)
		wear := untilType[*proto17.SetSlot](c)
		assert.Equal(t, int16(36), wear.Slot)
		assert.Equal(t, int16(1), wear.Item.Damage, "the axe wears by one")
		so := untilType[*proto17.SpawnObject](c)
		assert.Equal(t, int8(proto17.ObjectItem), so.Type)
		assert.Equal(t, int32(1), so.Data)
		md := untilType[*proto17.EntityMetadata](c)
		assert.Equal(t, so.EntityID, md.EntityID)
		stack, ok := md.Metadata.Item()
		require.True(t, ok)
		assert.Equal(t, int16(logID), stack.ID)
		assert.Equal(t, int32(1), stack.Count)

		changes := s.WorldChanges()
		require.Len(t, changes, 1)
		assert.Equal(t, WorldChange{Conn: c1(s), Pos: log, From: chunk.MakeState(logID, 0), To: chunk.AirState,
			FromName: "minecraft:log", ToName: "minecraft:air", Cause: "dig"}, changes[0])

		// The log above still stands, so the item lies where the broken log was;
		// it falls when that support goes.
		items := s.DroppedItems()
		require.Len(t, items, 1)
		assert.Equal(t, world.Vec3{X: 12.5, Y: 64, Z: 8.5}, items[0].Pos, "it fell onto the grass")

		// Walking next to it collects it: Collect Item, Destroy Entities and a
		// Set Slot putting the log in the second hotbar slot.
		c.moveTo(10.5, 64, 8.5)
		c.moveTo(11.3, 64, 8.5)
		col := untilType[*proto17.CollectItem](c)
		assert.Equal(t, so.EntityID, col.CollectedID)
		de := untilType[*proto17.DestroyEntities](c)
		assert.Equal(t, []int32{so.EntityID}, de.IDs)
		ss := untilType[*proto17.SetSlot](c)
		assert.Equal(t, int16(37), ss.Slot)
		assert.Equal(t, int16(logID), ss.Item.ID)
		waitFor(t, s, "the log in the inventory", func() bool { return s.Players()[0].Count("minecraft:log") == 1 })
		assert.Empty(t, s.DroppedItems())
		assert.Empty(t, s.Corrections())
	})
}

// c1 is the connection number of the only player.
func c1(s *Server) int { return s.Players()[0].Conn }

func TestDiggingByHandAndOffTheGround(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer(t, Options{Inventory: []Item{}})
		c, _ := enter(t, s, "bot")
		leaves := world.Pos(11, 67, 8) // the crown of the first tree, in reach
		name, _ := s.BlockAt(leaves.X, leaves.Y, leaves.Z)
		require.Equal(t, "minecraft:leaves", name)

		// Not on the ground the hand digs five times slower.
		c.write(&proto17.Player{OnGround: false})
		d := digAt(t, c, s, leaves, 6*s.opts.TickDuration)
		assert.False(t, d.Accepted)
		assert.Contains(t, d.Reason, "not on ground")

		c.write(&proto17.Player{OnGround: true})
		d = digAt(t, c, s, leaves, 7*s.opts.TickDuration)
		assert.True(t, d.Accepted, d.Reason)
		assert.Equal(t, "", d.Held)
		assert.Equal(t, 4, d.Needed, "leaves by hand: 6 ticks, 70% is 4.2")
		waitFor(t, s, "air", func() bool { n, _ := s.BlockAt(leaves.X, leaves.Y, leaves.Z); return n == "minecraft:air" })
		assert.Empty(t, s.DroppedItems(), "leaves drop nothing here")

		// Out of reach: refused.
		far := s.Trees()[2]
		d = digAt(t, c, s, far, 0)
		assert.False(t, d.Accepted)

		// Tall grass breaks at the start.
		require.NoError(t, s.SetBlocks(Block{X: 9, Y: 64, Z: 10, Name: "minecraft:tallgrass", Meta: 1}))
		c.write(&proto17.PlayerDigging{Status: proto17.DigStart, X: 9, Y: 64, Z: 10, Face: proto17.FaceTop})
		waitFor(t, s, "instant break", func() bool { n, _ := s.BlockAt(9, 64, 10); return n == "minecraft:air" })
	})
}

func TestMovementRules(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer(t, Options{})
		c, _ := enter(t, s, "bot")
		waitFor(t, s, "the join confirmed", func() bool { return len(s.Players()) == 1 })

		// A legal step.
		c.moveTo(9.5, 64, 8.5)
		waitFor(t, s, "the step", func() bool { return s.Players()[0].Pos.X == 9.5 })

		// Into the trunk at (12, 64..68, 8): reset.
		c.moveTo(12.5, 64, 8.5)
		pl := untilType[*proto17.PlayerPositionAndLook](c)
		assert.InDelta(t, 9.5, pl.X, 1e-9)
		assert.InDelta(t, 64+proto17.EyeHeight, pl.Y, 1e-9)
		fix := s.Corrections()
		require.Len(t, fix, 1)
		assert.Equal(t, "moved wrongly", fix[0].Reason)

		// Until the client confirms the reset, its moves are ignored.
		c.moveTo(9.0, 64, 9.0)
		c.write(&proto17.Player{OnGround: true})
		synctest.Wait() // the server has read both
		assert.Equal(t, 9.5, s.Players()[0].Pos.X)
		c.moveTo(pl.X, pl.FeetY(), pl.Z)
		c.moveTo(9.0, 64, 9.0)
		waitFor(t, s, "moves accepted again", func() bool { return s.Players()[0].Pos.X == 9.0 })

		// Too far in one packet: reset.
		c.moveTo(30, 64, 9)
		untilType[*proto17.PlayerPositionAndLook](c)
		require.Len(t, s.Corrections(), 2)
		assert.Equal(t, "moved too quickly", s.Corrections()[1].Reason)
		c.moveTo(9.0, 64, 9.0)

		// A bad stance is a kick.
		c.write(&proto17.PlayerPosition{X: 9, FeetY: 64, HeadY: 64 + 2, Z: 9, OnGround: true})
		d := untilType[*proto17.Disconnect](c)
		assert.Equal(t, "Illegal stance", proto17.PlainText(d.Reason))
		waitFor(t, s, "gone", func() bool { return len(s.Players()) == 0 })
	})
}

// TestMovementOutOfABlockThatFell: gravel that falls onto a player lands
// in the player's box (a falling block passes through players); the
// server resets a move into a block only when the player was clear of
// blocks before it (NetHandlerPlayServer.processPlayer), so the player
// inside the gravel may move — in it and out of it — and is reset again
// once clear.
func TestMovementOutOfABlockThatFell(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer(t, Options{})
		c, _ := enter(t, s, "bot")
		waitFor(t, s, "the join confirmed", func() bool { return len(s.Players()) == 1 })
		c.moveTo(9.5, 64, 9.5)
		waitFor(t, s, "the step", func() bool { return s.Players()[0].Pos.Z == 9.5 })
		require.NoError(t, s.SetBlocks(Block{X: 9, Y: 64, Z: 9, Name: "minecraft:gravel"}))
		c.moveTo(9.5, 64, 9.6) // still inside
		waitFor(t, s, "a move inside", func() bool { return s.Players()[0].Pos.Z == 9.6 })
		c.moveTo(9.5, 64, 10.5) // out
		waitFor(t, s, "the way out", func() bool { return s.Players()[0].Pos.Z == 10.5 })
		assert.Empty(t, s.Corrections())
		c.moveTo(9.5, 64, 9.6) // clear, into the gravel: reset
		pl := untilType[*proto17.PlayerPositionAndLook](c)
		assert.InDelta(t, 10.5, pl.Z, 1e-9)
		require.Len(t, s.Corrections(), 1)
		assert.Equal(t, "moved wrongly", s.Corrections()[0].Reason)
	})
}

// TestMovementAgainstPartialBlocks: the server's collision check uses the
// real shapes: a fence's box reaches 1.5 up into the cell above it, so feet
// a little above the fence's cell are inside it; its top, and a bottom
// slab's top, are places to stand.
func TestMovementAgainstPartialBlocks(t *testing.T) {
	s := newServer(t, Options{Blocks: []Block{{X: 9, Y: 64, Z: 10, Name: "minecraft:fence"}, {X: 7, Y: 64, Z: 8, Name: "minecraft:stone_slab"}}})
	c, _ := enter(t, s, "bot")
	waitFor(t, s, "the join confirmed", func() bool { return len(s.Players()) == 1 })
	for i, m := range []struct {
		x, y, z float64
		ok      bool
	}{
		{9.5, 65.2, 10.5, false}, // in the fence's upper half
		{9.5, 65.5, 10.5, true},  // on the fence
		{7.5, 64.2, 8.5, false},  // in the slab
		{7.5, 64.5, 8.5, true},   // on the slab
	} {
		before := len(s.Corrections())
		c.moveTo(m.x, m.y, m.z)
		if m.ok {
			waitFor(t, s, "the move", func() bool { return s.Players()[0].Pos == world.Vec3{X: m.x, Y: m.y, Z: m.z} })
			continue
		}
		pl := untilType[*proto17.PlayerPositionAndLook](c)
		fix := s.Corrections()
		require.Len(t, fix, before+1, "move %d", i)
		assert.Equal(t, "moved wrongly", fix[before].Reason, "move %d", i)
		c.moveTo(pl.X, pl.FeetY(), pl.Z)
	}
}

func TestKeepAliveEchoAndTimeout(t *testing.T) {
	s := newServer(t, Options{KeepAliveInterval: 100 * time.Millisecond, KeepAliveTimeout: 600 * time.Millisecond})
	c, _ := enter(t, s, "bot")
	ka := untilType[*proto17.KeepAlive](c) // echoed by the client
	waitFor(t, s, "the echo", func() bool {
		for _, r := range s.ReceivedNamed("KeepAlive") {
			if r.Packet.(*proto17.ServerboundKeepAlive).ID == ka.ID {
				return true
			}
		}
		return false
	})
	c.echo = false
	d := untilType[*proto17.Disconnect](c)
	assert.Contains(t, proto17.PlainText(d.Reason), "Timed out")
}

func TestChat(t *testing.T) {
	s := newServer(t, Options{})
	c, _ := enter(t, s, "bot")
	c.write(&proto17.ServerboundChat{Message: "hello"})
	ch := untilType[*proto17.Chat](c)
	assert.Equal(t, "chat.type.text [bot, hello]", proto17.PlainText(ch.JSON))
	c.write(&proto17.ServerboundChat{Message: "/spawn"})
	ch = untilType[*proto17.Chat](c)
	assert.Contains(t, ch.JSON, "commands.generic.notFound")
	s.Say("§aserver says hi")
	ch = untilType[*proto17.Chat](c)
	assert.Equal(t, "server says hi", proto17.PlainText(ch.JSON))
}

func TestSetBlocks(t *testing.T) {
	for _, neid := range []bool{true, false} {
		t.Run(map[bool]string{true: "neid", false: "vanilla"}[neid], func(t *testing.T) {
			o := Options{}
			if !neid {
				o.Mods = WithoutMod(DefaultMods(), proto17.ModNEID)
			}
			s := newServer(t, o)
			c, _ := enter(t, s, "bot")
			meta := 9
			if neid {
				meta = 4000
			}
			require.NoError(t, s.SetBlocks(
				Block{X: 1, Y: 64, Z: 1, Name: OreBlock, Meta: meta},
				Block{X: 2, Y: 65, Z: 3, Name: "minecraft:planks", Meta: 2},
				Block{X: 20, Y: 64, Z: 20, Name: "minecraft:cobblestone"},
			))
			mbc := untilType[*proto17.MultiBlockChange](c)
			require.Len(t, mbc.Records, 2)
			oreID, _ := s.IDs().BlockID(OreBlock)
			assert.Equal(t, proto17.BlockRecord{X: 1, Y: 64, Z: 1, BlockID: uint16(oreID), Meta: uint16(meta)}, mbc.Records[0])
			bc := untilType[*proto17.BlockChange](c)
			assert.Equal(t, int32(20), bc.X)
			assert.Equal(t, int32(4), bc.BlockID)
			name, m := s.BlockAt(1, 64, 1)
			assert.Equal(t, OreBlock, name)
			assert.Equal(t, meta, m)
			assert.Len(t, s.WorldChanges(), 3)

			err := s.SetBlocks(Block{X: 1000, Y: 64, Z: 0, Name: "minecraft:stone"})
			assert.ErrorContains(t, err, "outside the world")
			err = s.SetBlocks(Block{X: 1, Y: 64, Z: 0, Name: "nomod:nothing"})
			assert.ErrorContains(t, err, "not in the registry")
		})
	}
	s := newServer(t, Options{Mods: WithoutMod(DefaultMods(), proto17.ModNEID)})
	assert.ErrorContains(t, s.SetBlocks(Block{X: 1, Y: 64, Z: 1, Name: "minecraft:wool", Meta: 16}), "does not fit")
}

func TestPlacingABlock(t *testing.T) {
	s := newServer(t, Options{Inventory: []Item{{Slot: 37, Name: "minecraft:log", Count: 3, Damage: 1}}})
	c, _ := enter(t, s, "bot")
	c.write(&proto17.ServerboundHeldItemChange{Slot: 1})
	logID, _ := s.IDs().ItemID("minecraft:log")
	held := proto17.Slot{ID: int16(logID), Count: 3, Damage: 1}
	// Against the top of the grass at (10, 63, 8): the log lands at (10, 64, 8).
	c.write(&proto17.PlayerBlockPlacement{X: 10, Y: 63, Z: 8, Face: proto17.FaceTop, Held: held, CursorX: 8, CursorY: 16, CursorZ: 8})
	bc := untilType[*proto17.BlockChange](c)
	assert.Equal(t, [3]int32{10, 64, 8}, [3]int32{bc.X, int32(bc.Y), bc.Z})
	assert.Equal(t, int32(logID), bc.BlockID)
	assert.Equal(t, uint16(1), bc.Meta)
	ss := untilType[*proto17.SetSlot](c)
	assert.Equal(t, int16(37), ss.Slot)
	assert.Equal(t, int32(2), ss.Item.Count)

	// Inside the player: refused, both blocks sent back.
	c.write(&proto17.PlayerBlockPlacement{X: 8, Y: 63, Z: 8, Face: proto17.FaceTop, Held: held})
	b1 := untilType[*proto17.BlockChange](c)
	b2 := untilType[*proto17.BlockChange](c)
	assert.Equal(t, int32(2), b1.BlockID, "the grass clicked")
	assert.Equal(t, int32(0), b2.BlockID, "the air where the player stands")
	assert.Len(t, s.WorldChanges(), 1)
	// The refusal is on the record a test checks.
	require.Len(t, s.Refusals(), 1)
	assert.Equal(t, "place", s.Refusals()[0].Kind)
	assert.Contains(t, s.Refusals()[0].Reason, "inside the player")
}

// TestNoBlockIsPlacedInAMob: a block where a zombie's box is (it stands
// beside the player, in reach) is refused, as World.canPlaceEntityOnSide
// refuses it; the block beside it is placed.
func TestNoBlockIsPlacedInAMob(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer(t, Options{StartTime: 18000, Mobs: []Mob{{Kind: "zombie", X: 10.5, Y: 64, Z: 8.5}},
			Inventory: []Item{{Slot: 37, Name: "minecraft:log", Count: 3}}})
		c, _ := enter(t, s, "bot")
		require.NoError(t, s.WaitFor(t.Context(), func() bool { return len(s.Mobs()) == 1 }))
		c.write(&proto17.ServerboundHeldItemChange{Slot: 1})
		logID, _ := s.IDs().ItemID("minecraft:log")
		held := proto17.Slot{ID: int16(logID), Count: 3}
		c.write(&proto17.PlayerBlockPlacement{X: 10, Y: 63, Z: 8, Face: proto17.FaceTop, Held: held})
		require.NoError(t, s.WaitFor(t.Context(), func() bool { return len(s.Refusals()) == 1 }))
		assert.Contains(t, s.Refusals()[0].Reason, "a zombie stands there")
		c.write(&proto17.PlayerBlockPlacement{X: 8, Y: 63, Z: 10, Face: proto17.FaceTop, Held: held})
		for {
			if bc := untilType[*proto17.BlockChange](c); bc.X == 8 && bc.Z == 10 && bc.Y == 64 {
				assert.Equal(t, int32(logID), bc.BlockID)
				break
			}
		}
		assert.Len(t, s.Refusals(), 1)
	})
}

// TestPlacingAgainstAFurnace: a right-click on a furnace opens it and
// places nothing, unless the player sneaks with an item in hand (Forge's
// ItemInWorldManager.activateBlockOrUseItem); the crouch lasts from the
// Entity Action that starts it to the one that ends it.
func TestPlacingAgainstAFurnace(t *testing.T) {
	s := newServer(t, Options{Inventory: []Item{{Slot: 37, Name: "minecraft:dirt", Count: 3}},
		Blocks: []Block{{X: 10, Y: 64, Z: 8, Name: "minecraft:furnace"}}})
	c, _ := enter(t, s, "bot")
	dirtID, _ := s.IDs().ItemID("minecraft:dirt")
	held := proto17.Slot{ID: int16(dirtID), Count: 3}
	onTop := &proto17.PlayerBlockPlacement{X: 10, Y: 64, Z: 8, Face: proto17.FaceTop, Held: held, CursorX: 8, CursorY: 16, CursorZ: 8}
	crouch := func(a int8) { c.write(&proto17.EntityAction{EntityID: 1, Action: a}) }

	// Empty-handed and crouched: the furnace opens.
	crouch(proto17.ActionCrouch)
	c.write(onTop)
	untilType[*proto17.OpenWindow](c)
	crouch(proto17.ActionUncrouch)
	c.write(&proto17.ServerboundCloseWindow{WindowID: 1})

	// Holding dirt, standing: the furnace opens again.
	c.write(&proto17.ServerboundHeldItemChange{Slot: 1})
	c.write(onTop)
	untilType[*proto17.OpenWindow](c)
	c.write(&proto17.ServerboundCloseWindow{WindowID: 2})
	assert.Empty(t, s.WorldChanges())

	// Holding dirt, crouched: the dirt goes on top.
	crouch(proto17.ActionCrouch)
	c.write(onTop)
	crouch(proto17.ActionUncrouch)
	bc := untilType[*proto17.BlockChange](c)
	assert.Equal(t, [3]int32{10, 65, 8}, [3]int32{bc.X, int32(bc.Y), bc.Z})
	assert.Equal(t, int32(dirtID), bc.BlockID)
	assert.Empty(t, s.Refusals())
}

// TestPlayerWindowClicks: with no container open, mode-0 clicks on the
// main and hotbar slots of the player's own window (window 0) are applied
// as ContainerPlayer applies them: a stack picked up and put down elsewhere
// moves there. A click whose stack is not the server's (an empty crafting
// result claimed as coal), on a slot the server does not model (armour),
// of another mode or on another window is refused and the window is sent
// again.
func TestPlayerWindowClicks(t *testing.T) {
	o := Options{Inventory: []Item{{Slot: 36, Name: "minecraft:coal", Count: 5}, {Slot: 9, Name: "minecraft:log", Count: 2}}}
	SteamAge(&o)
	s := newServer(t, o)
	c, _ := enter(t, s, "bot")
	coalID, _ := s.IDs().ItemID("minecraft:coal")
	coal := proto17.Slot{ID: int16(coalID), Count: 5}
	click := func(window uint8, slot int16, mode int8, clicked proto17.Slot, action int16) bool {
		c.write(&proto17.ClickWindow{WindowID: window, Slot: slot, Button: 0, Action: action, Mode: mode, Clicked: clicked})
		ct := untilType[*proto17.ConfirmTransaction](c)
		require.Equal(t, action, ct.Action)
		require.Equal(t, window, ct.WindowID)
		if !ct.Accepted {
			wi := untilType[*proto17.WindowItems](c)
			assert.Len(t, wi.Items, 45)
		}
		return ct.Accepted
	}
	inv := func() map[int]string {
		p, ok := s.Player("bot")
		require.True(t, ok)
		out := map[int]string{}
		for _, it := range p.Inventory {
			out[it.Slot] = fmt.Sprintf("%s×%d", it.Name, it.Count)
		}
		return out
	}
	before := map[int]string{36: "minecraft:coal×5", 9: "minecraft:log×2"}

	assert.False(t, click(0, 36, 0, proto17.Slot{}, 1), "the hotbar slot holds coal, the packet says empty")
	assert.False(t, click(0, 36, 2, coal, 2), "a mode-2 click carries no stack")
	assert.False(t, click(0, 0, 0, coal, 3), "the crafting result is empty")
	assert.False(t, click(0, 5, 0, proto17.Slot{}, 4), "the armour slots are not modelled")
	assert.False(t, click(0, 45, 0, proto17.Slot{}, 5), "no slot 45")
	assert.False(t, click(3, 36, 0, coal, 6), "no window 3 is open")
	assert.Equal(t, before, inv())

	// The coal picked up from the hotbar and put down on an empty main slot.
	require.True(t, click(0, 36, 0, coal, 7))
	require.True(t, click(0, 20, 0, proto17.Slot{}, 8))
	assert.Equal(t, map[int]string{20: "minecraft:coal×5", 9: "minecraft:log×2"}, inv())

	// With the water tank's window open, window 0 is not the player's
	// open container: its clicks are refused until the window closes.
	c.moveTo(15.5, 64, 10.5)
	tank := world.Pos(15, 65, 12)
	c.write(&proto17.PlayerBlockPlacement{X: int32(tank.X), Y: uint8(tank.Y), Z: int32(tank.Z), Face: proto17.FaceNorth})
	g := c.openGui()
	assert.False(t, click(0, 20, 0, coal, 9), "a container is open")
	c.write(&proto17.ServerboundCloseWindow{WindowID: uint8(g.WindowID)})
	require.True(t, click(0, 20, 0, coal, 10))
	require.True(t, click(0, 36, 0, proto17.Slot{}, 11))
	assert.Equal(t, before, inv())
	assert.Empty(t, s.Kicks())
}

func TestUnknownAndBrokenPackets(t *testing.T) {
	s := newServer(t, Options{})
	c, _ := enter(t, s, "bot")
	// Entity Action (0x0B): the server has no rule for it: recorded, ignored.
	c.writeRaw(0x0B, []byte{0, 0, 0, 1, 1, 0, 0, 0, 0})
	c.write(&proto17.ServerboundChat{Message: "still here"})
	untilType[*proto17.Chat](c)
	rec := s.ReceivedNamed("EntityAction")
	require.Len(t, rec, 1)
	assert.NoError(t, rec[0].Err)
	assert.Empty(t, s.Kicks())

	// A digging packet two bytes short: the server drops the connection.
	c.writeRaw(proto17.IDServerboundPlayerDigging, []byte{0, 0, 0, 0, 12, 64, 0, 0})
	d := untilType[*proto17.Disconnect](c)
	assert.Contains(t, proto17.PlainText(d.Reason), "Internal Exception")
	bad := s.ReceivedNamed("PlayerDigging")
	require.NotEmpty(t, bad)
	assert.ErrorIs(t, bad[len(bad)-1].Err, proto17.ErrTruncated)

	// An id the protocol does not have: dropped too.
	c2, _ := enter(t, s, "bot2")
	c2.writeRaw(0x42, nil)
	d = untilType[*proto17.Disconnect](c2)
	assert.Equal(t, "Internal Exception: java.io.IOException: Bad packet id 66", proto17.PlainText(d.Reason))
}

// TestFaults runs each fault and checks the client sees it where expected.
func TestFaults(t *testing.T) {
	// run plays the sequence up to a collected log, and returns the
	// disconnect or the error that ended it early.
	type outcome struct {
		disconnect string
		err        error
	}
	run := func(t *testing.T, o Options) outcome {
		s := newServer(t, o)
		c := dialT(t, s)
		c.handshake(2, true)
		c.write(&proto17.LoginStart{Name: "bot"})
		p, err := c.next()
		if err != nil {
			return outcome{err: err}
		}
		if d, ok := p.(*proto17.LoginDisconnect); ok {
			return outcome{disconnect: proto17.PlainText(d.Reason)}
		}
		c.state = proto17.Play
		next := func() (proto17.FMLMessage, *outcome) {
			m, _, err := c.fmlMessage()
			if err != nil {
				if strings.HasPrefix(err.Error(), "disconnected: ") {
					return nil, &outcome{disconnect: strings.TrimPrefix(err.Error(), "disconnected: ")}
				}
				return nil, &outcome{err: err}
			}
			return m, nil
		}
		if _, out := next(); out != nil {
			return *out
		}
		c.sendFML(&proto17.ClientHello{Protocol: 2})
		c.sendFML(&proto17.ModList{Mods: s.opts.Mods})
		m, out := next()
		if out != nil {
			return *out
		}
		if _, ok := m.(*proto17.ModList); !ok {
			return outcome{err: errors.New("handshake order: got " + describeFML(m) + " where the server's ModList belongs")}
		}
		c.sendFML(&proto17.HandshakeAck{Phase: 2})
		if _, out := next(); out != nil {
			return *out
		}
		c.sendFML(&proto17.HandshakeAck{Phase: 3})
		for range 2 {
			if _, out := next(); out != nil {
				return *out
			}
		}
		c.sendFML(&proto17.HandshakeAck{Phase: 4})
		c.sendFML(&proto17.HandshakeAck{Phase: 5})
		deadline := time.Now().Add(5 * time.Second)
		digging := false
		var digger sync.WaitGroup
		defer digger.Wait() // its sleeps end; nothing of a bubble outlives it
		for time.Now().Before(deadline) {
			p, err := c.next()
			if err != nil {
				return outcome{err: err}
			}
			switch p := p.(type) {
			case *proto17.Disconnect:
				return outcome{disconnect: proto17.PlainText(p.Reason)}
			case *proto17.PlayerPositionAndLook:
				c.send(&proto17.ServerboundPlayerPositionAndLook{X: p.X, FeetY: p.FeetY(), HeadY: p.Y, Z: p.Z, OnGround: true})
			case *proto17.MapChunkBulk:
				if _, err := proto17.NewChunkDecoder(c.f).MapChunkBulk(nil, p); err != nil {
					return outcome{err: err}
				}
				if !digging {
					digging = true
					digger.Go(func() { // dig the first log with the axe, then walk to the drop
						log := s.Trees()[0]
						c.send(&proto17.PlayerDigging{Status: proto17.DigStart, X: int32(log.X), Y: uint8(log.Y), Z: int32(log.Z)})
						serverTime(10 * s.opts.TickDuration)
						c.send(&proto17.PlayerDigging{Status: proto17.DigFinish, X: int32(log.X), Y: uint8(log.Y), Z: int32(log.Z)})
						serverTime(15 * s.opts.TickDuration)
						c.send(proto17.NewPlayerPosition(11.3, 64, 8.5, true))
					})
				}
			case *proto17.CollectItem:
				return outcome{}
			}
		}
		return outcome{err: errors.New("nothing happened")}
	}

	for _, st := range []Stage{StageLogin, StageServerHello, StageModList, StageRegistry, StageJoin, StagePosition, StageInventory, StageChunks, StageKeepAlive, StageDig, StageCollect} {
		t.Run("kick at "+st.String(), func(t *testing.T) {
			if !slices.Contains([]Stage{StageLogin, StageKeepAlive, StageDig, StageCollect}, st) {
				// Up to the chunks a kick ends the one connection's
				// goroutine wherever it stands; the keep-alive's ticker,
				// the digging and the pickup are what add goroutines.
				race.SkipCovered(t, "a kick at "+st.String(), "the kicks at Login, KeepAlive, Dig and Collect")
			}
			synctest.Test(t, func(t *testing.T) {
				got := run(t, Options{KeepAliveInterval: 50 * time.Millisecond, Faults: Faults{KickAt: st, KickReason: "Server closed: " + st.String()}})
				require.NoError(t, got.err)
				assert.Equal(t, "Server closed: "+st.String(), got.disconnect)
			})
		})
	}
	for _, st := range []Stage{StageLogin, StageServerHello, StageRegistry, StageChunks} {
		// A truncated packet is cut on the connection's goroutine; the
		// stage only says which packet.
		skipUnderRace := func(t *testing.T) {
			if st != StageChunks {
				race.SkipCovered(t, "a truncated packet at "+st.String(), "the truncated payload and frame at Chunks")
			}
		}
		t.Run("truncated payload at "+st.String(), func(t *testing.T) {
			skipUnderRace(t)
			synctest.Test(t, func(t *testing.T) {
				got := run(t, Options{Faults: Faults{TruncateAt: st}})
				require.Error(t, got.err)
				var pe *proto17.Error
				if !errors.As(got.err, &pe) {
					t.Fatalf("want a proto17 decode error, got %v", got.err)
				}
				assert.True(t, errors.Is(got.err, proto17.ErrTruncated) || errors.Is(got.err, proto17.ErrInvalid), got.err.Error())
			})
		})
		t.Run("truncated frame at "+st.String(), func(t *testing.T) {
			skipUnderRace(t)
			synctest.Test(t, func(t *testing.T) {
				got := run(t, Options{Faults: Faults{TruncateAt: st, Truncate: TruncateFrame}})
				require.Error(t, got.err)
				assert.True(t, isEOF(got.err), "the stream ends mid-packet: %v", got.err)
			})
		})
	}
	t.Run("wrong handshake order", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			got := run(t, Options{Faults: Faults{WrongHandshakeOrder: true}})
			require.Error(t, got.err)
			assert.Contains(t, got.err.Error(), "got ModIdData where the server's ModList belongs")
		})
	})
	t.Run("well behaved", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			got := run(t, Options{})
			assert.NoError(t, got.err)
			assert.Empty(t, got.disconnect)
		})
	})
	t.Run("kick at status", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newServer(t, Options{Faults: Faults{KickAt: StageStatus}})
			c := dialT(t, s)
			c.handshake(1, true)
			c.write(&proto17.StatusRequest{})
			_, err := c.next()
			assert.True(t, isEOF(err), "%v", err)
		})
	})
}

func TestServerKickAndClose(t *testing.T) {
	s := newServer(t, Options{})
	c, _ := enter(t, s, "bot")
	waitFor(t, s, "joined", func() bool { return len(s.Players()) == 1 })
	s.Kick("maintenance")
	d := untilType[*proto17.Disconnect](c)
	assert.Equal(t, "maintenance", proto17.PlainText(d.Reason))
	assert.Equal(t, []Kick{{Conn: 1, Reason: "maintenance"}}, s.Kicks())

	c2, _ := enter(t, s, "bot2")
	s.Close()
	_, err := c2.next()
	for err == nil {
		_, err = c2.next()
	}
	assert.True(t, isEOF(err), "%v", err)
	s.Close() // twice is fine
}

func TestVanillaBreakTicks(t *testing.T) {
	for _, tc := range []struct {
		block, held string
		want        int
	}{
		{"minecraft:log", "", 60},
		{"minecraft:log", "minecraft:iron_axe", 10},
		{"minecraft:log", "minecraft:wooden_axe", 30},
		{"minecraft:log", "minecraft:iron_pickaxe", -1}, // GTNH: it digs nothing, not even a log
		{"minecraft:tallgrass", "minecraft:stone_shovel", -1},
		{"minecraft:log", "minecraft:iron_shovel", -1},
		{"minecraft:log", "minecraft:stone_axe", 15},
		{"minecraft:leaves", "", 6},
		{"minecraft:grass", "", 18},
		{"minecraft:stone", "", 150},
		{"minecraft:stone", "minecraft:wooden_pickaxe", 23},
		{"minecraft:tallgrass", "", 0},
		{"minecraft:bedrock", "minecraft:diamond_pickaxe", -1},
		{"minecraft:diamond_ore", "minecraft:wooden_pickaxe", 150},
		{"minecraft:diamond_ore", "minecraft:iron_pickaxe", -1},
		{"minecraft:diamond_ore", "minecraft:diamond_pickaxe", -1},
		{"minecraft:dirt", "minecraft:golden_shovel", -1},
		{"minecraft:dirt", "minecraft:wooden_shovel", 8},
	} {
		assert.Equal(t, tc.want, VanillaBreakTicks(tc.block, tc.held), "%s with %q", tc.block, tc.held)
	}
	_, harvest := relativeHardness("minecraft:stone", "", true)
	assert.False(t, harvest, "stone by hand drops nothing")
	for _, tc := range []struct {
		block, held string
		want        bool
	}{
		{"minecraft:diamond_ore", "minecraft:wooden_pickaxe", false},
		{"minecraft:diamond_ore", "minecraft:stone_pickaxe", false},
		{"minecraft:diamond_ore", "minecraft:iron_pickaxe", false},
		{"minecraft:diamond_ore", "minecraft:diamond_pickaxe", false},
		{"minecraft:iron_ore", "minecraft:stone_pickaxe", false},
		{"minecraft:iron_ore", "minecraft:iron_pickaxe", false},
		{"minecraft:stone", "minecraft:stone_pickaxe", false},
		{"minecraft:coal_ore", "minecraft:wooden_pickaxe", false},
		{"minecraft:stone", "minecraft:wooden_pickaxe", true},
		{"minecraft:iron_ore", "minecraft:golden_pickaxe", false},
		{"minecraft:gold_block", "", false},
		{"minecraft:obsidian", "minecraft:iron_pickaxe", false},
		{"minecraft:obsidian", "minecraft:diamond_pickaxe", false}, // GTNH: it digs nothing
	} {
		_, harvest := relativeHardness(tc.block, tc.held, true)
		assert.Equal(t, tc.want, harvest, "%s with %q: harvest level", tc.block, tc.held)
	}
	assert.Equal(t, 2, wearOf("minecraft:iron_sword", 2), "ItemSword wears by two")
	assert.Equal(t, 1, wearOf("minecraft:wooden_pickaxe", 0.5))
	assert.Equal(t, 0, wearOf("minecraft:iron_hoe", 2), "ItemHoe does not wear on blocks")
	assert.Equal(t, 0, wearOf("minecraft:iron_axe", 0), "instant blocks do not wear")
	rel, _ := relativeHardness("minecraft:log", "", false)
	assert.InDelta(t, 1.0/300, rel, 1e-12, "off the ground: five times slower")
}

func TestOptionsAreValidated(t *testing.T) {
	_, err := New(Options{GroundY: 300, ViewRadius: 20, DigThreshold: 2, Inventory: []Item{{Slot: 50, Name: "minecraft:stick", Count: 1}}})
	require.Error(t, err)
	for _, want := range []string{"GroundY 300", "ViewRadius 20", "DigThreshold 2", "Inventory[0]: slot 50"} {
		assert.Contains(t, err.Error(), want)
	}
	_, err = New(Options{Inventory: []Item{{Slot: 36, Name: "nomod:thing", Count: 1}}})
	assert.ErrorContains(t, err, `item "nomod:thing" is not in the registry`)
	_, err = New(Options{Mods: []proto17.ModInfo{{ModID: "neid", Version: "1.5"}}})
	assert.ErrorContains(t, err, "NotEnoughIds 1.5 is not supported")
	_, err = New(Options{Spawn: [3]float64{math.NaN(), 64, 0}})
	assert.ErrorContains(t, err, "not finite")
	_, err = New(Options{Mods: WithoutMod(DefaultMods(), "neid"), Blocks: []Block{{X: 0, Y: 70, Z: 0, Name: OreBlock, Meta: 300}}})
	assert.ErrorContains(t, err, "metadata 300 does not fit the vanilla format")
	_, err = New(Options{Stream: true, StreamDelay: -time.Second})
	assert.ErrorContains(t, err, "StreamDelay -1s: negative")
	_, err = New(Options{StartTime: -5, Mobs: []Mob{{Kind: "dragon"}, {Kind: "zombie", X: math.Inf(1)}}})
	require.Error(t, err)
	for _, want := range []string{`Mobs[0]: unknown kind "dragon" (config/mobs.yaml has zombie, skeleton`, "Mobs[1]: position (+Inf, 0, 0) not finite", "StartTime -5: negative"} {
		assert.Contains(t, err.Error(), want)
	}
}
