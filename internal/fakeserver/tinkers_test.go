package fakeserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// stationServer is a server with a station block of the metadata at pos, a
// player conn with its window open, and the station's box.
func stationServer(t *testing.T, meta int) (*Server, *conn, *box) {
	t.Helper()
	s, err := New(Options{Addr: MemoryAddr(), Trees: []Tree{}})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	pos := world.Pos(3, 64, 3)
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.ids.BlockID(StationBlock)
	require.True(t, ok)
	s.setBlockLocked(0, pos, chunk.MakeState(id, meta), "test")
	s.placedStationLocked(pos)
	b := s.mods.boxes[pos]
	require.NotNil(t, b)
	c := &conn{s: s, id: 99, playing: true}
	c.window = &openWindow{id: 7, box: b, sentSlots: make([]proto17.Slot, ownSlots(b))}
	return s, c, b
}

func (s *Server) testStack(t *testing.T, item string, n int) proto17.Slot {
	t.Helper()
	sl, ok := s.wireStack(item, n)
	require.True(t, ok, item)
	return sl
}

func patternPacket(t *testing.T, s *Server, b *box, pattern proto17.Slot) []byte {
	t.Helper()
	data, err := modnet.EncodePatternTable(modnet.PatternTable{X: int32(b.pos.X), Y: int32(b.pos.Y), Z: int32(b.pos.Z), Pattern: pattern}, s.formats)
	require.NoError(t, err)
	return data
}

// TestStencilTablePatternPacket: PatternTablePacket.handleServerSide's
// rules. The pattern is chosen only with a blank in slot 0, only for a
// stencil the table makes, and only at the open table's position; once
// chosen it shows in slot 1 and the next tick's sync sends that slot
// (it changed outside a click). Taking it uses one blank and leaves the
// pattern shown while blanks remain.
func TestStencilTablePatternPacket(t *testing.T) {
	s, c, b := stationServer(t, 10)
	require.Equal(t, layoutStencil, b.layout.Kind)
	s.mu.Lock()
	defer s.mu.Unlock()
	head := s.testStack(t, "TConstruct:woodPattern:2", 1)

	c.onTConstructLocked(patternPacket(t, s, b, head))
	assert.True(t, b.slots[1].Empty(), "no blank in slot 0: nothing chosen")

	b.slots[0] = s.testStack(t, "TConstruct:blankPattern", 2)
	c.clickedFurnaceLocked() // laid by a click: recorded as sent, not sent
	c.onTConstructLocked(patternPacket(t, s, b, s.testStack(t, "minecraft:flint", 1)))
	assert.True(t, b.slots[1].Empty(), "flint is no stencil")
	other := *b
	other.pos = world.Pos(9, 9, 9)
	c.onTConstructLocked(patternPacket(t, s, &other, head))
	assert.True(t, b.slots[1].Empty(), "another table's position")
	c.onTConstructLocked([]byte{8, 1})
	assert.True(t, b.slots[1].Empty(), "a message that does not decode")

	c.onTConstructLocked(patternPacket(t, s, b, head))
	assert.Equal(t, head, b.slots[1])
	var out outbox
	c.stationSyncLocked(&out)
	require.Len(t, out, 1, "the chosen pattern is sent on the tick")
	set, ok := out[0].p.(*proto17.SetSlot)
	require.True(t, ok)
	assert.Equal(t, int16(1), set.Slot)
	assert.Equal(t, head, set.Item)
	out = nil
	c.stationSyncLocked(&out)
	assert.Empty(t, out, "sent once")

	c.takeStationLocked(b, 1)
	assert.Equal(t, head, c.cursor)
	assert.Equal(t, int32(1), b.slots[0].Count, "one blank used")
	assert.Equal(t, head, b.slots[1], "the pattern stays while a blank remains")
	c.cursor = proto17.Slot{}
	c.takeStationLocked(b, 1)
	assert.True(t, b.slots[0].Empty())
	assert.True(t, b.slots[1].Empty(), "the last blank used: nothing shown")
}

// TestPartBuilderPaysOnce: the knife blade's row shows the blade and a
// shard from one flint; taking the blade pays the flint, taking the shard
// pays nothing more, and the row stays empty with no material left.
func TestPartBuilderPaysOnce(t *testing.T) {
	s, c, b := stationServer(t, 1)
	require.Equal(t, layoutPartBuilder, b.layout.Kind)
	s.mu.Lock()
	defer s.mu.Unlock()
	b.slots[0] = s.testStack(t, "TConstruct:woodPattern:12", 1)
	s.stationChangedLocked(b, 0)
	b.slots[2] = s.testStack(t, "minecraft:flint", 2)
	s.stationChangedLocked(b, 2)
	require.Equal(t, s.testStack(t, "TConstruct:knifeBlade:3", 1), b.slots[4])
	require.Equal(t, s.testStack(t, "TConstruct:toolShard:3", 1), b.slots[5])
	c.takeStationLocked(b, 4)
	assert.Equal(t, int32(1), b.slots[2].Count, "the blade paid one flint")
	assert.True(t, b.slots[4].Empty(), "no new blade while the shard lies there")
	c.cursor = proto17.Slot{}
	c.takeStationLocked(b, 5)
	assert.Equal(t, int32(1), b.slots[2].Count, "the shard costs nothing")
	assert.Equal(t, s.testStack(t, "TConstruct:knifeBlade:3", 1), b.slots[4], "both taken: the next blade shows")
}

// TestToolStationNeedsEveryPart: the pickaxe shows only with its head,
// handle and binding in their slots, carries the server's tag, and taking
// it uses one of each.
func TestToolStationNeedsEveryPart(t *testing.T) {
	s, c, b := stationServer(t, 0)
	require.Equal(t, layoutToolStation, b.layout.Kind)
	s.mu.Lock()
	defer s.mu.Unlock()
	b.slots[1] = s.testStack(t, "TConstruct:pickaxeHead:3", 1)
	b.slots[2] = s.testStack(t, "minecraft:stick", 2)
	s.stationChangedLocked(b, 2)
	assert.True(t, b.slots[0].Empty(), "no binding: a pickaxe needs three parts")
	b.slots[3] = s.testStack(t, "TConstruct:binding", 1)
	s.stationChangedLocked(b, 3)
	require.False(t, b.slots[0].Empty())
	assert.Equal(t, "TConstruct:pickaxe", s.itemOf(0, b.slots[0]).Name)
	tag, err := b.slots[0].Tag()
	require.NoError(t, err)
	infi, ok := tag.Root["InfiTool"].(proto17.Compound)
	require.True(t, ok, "the tool's InfiTool tag")
	assert.Equal(t, int32(3), infi["Head"], "a flint head")
	assert.Equal(t, int32(113), infi["TotalDurability"])
	c.takeStationLocked(b, 0)
	assert.Equal(t, "TConstruct:pickaxe", s.itemOf(0, c.cursor).Name)
	assert.True(t, b.slots[1].Empty())
	assert.Equal(t, int32(1), b.slots[2].Count)
	assert.True(t, b.slots[3].Empty())
	assert.True(t, b.slots[0].Empty())

	// A hatchet is a head and a handle: with a binding beside them
	// (ToolBuilder.getMatchingRecipe looks for a three-part tool) nothing
	// shows.
	b.slots[1] = s.testStack(t, "TConstruct:hatchetHead:3", 1)
	b.slots[3] = s.testStack(t, "TConstruct:binding", 1)
	s.stationChangedLocked(b, 3)
	assert.True(t, b.slots[0].Empty(), "no hatchet with a binding in the accessory slot")
	b.slots[3] = proto17.Slot{}
	s.stationChangedLocked(b, 3)
	assert.Equal(t, "TConstruct:hatchet", s.itemOf(0, b.slots[0]).Name)
}

// TestToolStationIronHead: the iron head "Upgrade 2.0" gives makes a
// pickaxe whose tag says iron (material 2) and level 2 (iron's 3, one
// lower until its boost), speed 600 and 188 uses; the server reads that
// level back from the tag when the tool is held (stackOf).
func TestToolStationIronHead(t *testing.T) {
	s, _, b := stationServer(t, 0)
	s.mu.Lock()
	defer s.mu.Unlock()
	b.slots[1] = s.testStack(t, "TConstruct:pickaxeHead:2", 1)
	b.slots[2] = s.testStack(t, "minecraft:stick", 1)
	b.slots[3] = s.testStack(t, "TConstruct:binding", 1)
	s.stationChangedLocked(b, 3)
	require.False(t, b.slots[0].Empty())
	tag, err := b.slots[0].Tag()
	require.NoError(t, err)
	infi, ok := tag.Root["InfiTool"].(proto17.Compound)
	require.True(t, ok)
	assert.Equal(t, int32(2), infi["Head"])
	assert.Equal(t, int32(2), infi["HarvestLevel"])
	assert.Equal(t, int32(600), infi["MiningSpeed"])
	assert.Equal(t, int32(188), infi["TotalDurability"])
	st := s.stackOf(b.slots[0])
	require.NotNil(t, st.Tinker)
	assert.Equal(t, game.TinkerTool{Head: 2, HarvestLevel: 2}, *st.Tinker)
	assert.Equal(t, 2, rules.Default().Mining.ToolLevel(st, "pickaxe", -1))
}
