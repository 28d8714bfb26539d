package modnet

import (
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// GregTechChannel is the plugin channel GregTech's network handler uses
// (GT5-Unofficial gregtech/common/GTNetwork.java).
const GregTechChannel = "GregTech"

// GregTech message ids: the first byte of a GregTech channel payload
// (GT5-Unofficial gregtech/api/net/GTPacketTypes.java).
const (
	GTTileEntity byte = 0
	GTSound      byte = 1
	GTBlockEvent byte = 2
	GTOres       byte = 3
)

// Block event ids a GregTech machine sends (BaseMetaTileEntity.sendBlockEvent;
// GregTechTileClientEvents).
const (
	EventCommonData  = 0 // value: the new common byte
	EventCustomData  = 1 // value: the machine's update byte
	EventColor       = 2
	EventRedstoneOut = 3
	EventSound       = 4 // value: a machine-specific sound (a boiler venting steam is 1)
	EventStartLoop   = 5
	EventStopLoop    = 6
	EventLight       = 7
)

// Common is GregTech's common byte (BaseMetaTileEntity's texture data):
// facing in bits 0-2, then active 8, redstone 16, lock-upgrade 32, works 64,
// muffler 128.
type Common uint8

// Facing is the ForgeDirection ordinal the machine faces (0 down, 1 up,
// 2 north, 3 south, 4 west, 5 east).
func (c Common) Facing() int { return int(c & 7) }

// Active reports a running machine (a boiler with fuel burning).
func (c Common) Active() bool { return c&8 != 0 }

// Redstone reports a machine emitting redstone.
func (c Common) Redstone() bool { return c&16 != 0 }

// LockUpgrade reports an installed lock upgrade.
func (c Common) LockUpgrade() bool { return c&32 != 0 }

// Works reports a machine that is enabled (not switched off).
func (c Common) Works() bool { return c&64 != 0 }

// Muffled reports an installed muffler upgrade.
func (c Common) Muffled() bool { return c&128 != 0 }

// TileEntity is GregTech's TILE_ENTITY message: the state of one machine or
// pipe, sent when its chunk reaches a player and when it changes.
type TileEntity struct {
	X       int32
	Y       int16
	Z       int32
	RID     int16 // registry id; only in TileLayoutRID (0 for meta tile entities)
	MetaID  int16 // meta tile entity id: which machine (100 small coal boiler, …)
	Covers  [6]int32
	Common  Common
	TexPage uint8 // texture page; only in TileLayoutRID
	Update  uint8 // the machine's own update byte (a boiler: 1 while boiling)
	// Redstone holds one bit per side with a redstone output.
	Redstone uint8
	Color    uint8
}

// Message names used in errors.
const (
	msgGTTile   = "GregTech TILE_ENTITY"
	msgGTEvent  = "GregTech BLOCK_EVENT"
	msgGTOres   = "GregTech ORES"
	msgGregTech = "GregTech"
)

// DecodeTileEntity decodes the body of a TILE_ENTITY message (after the id
// byte) in the given layout (GTPacketTileEntity.encode).
func DecodeTileEntity(body []byte, layout TileLayout) (TileEntity, error) {
	r := proto17.NewFieldReader(msgGTTile, body)
	var t TileEntity
	if layout != TileLayoutRID && layout != TileLayoutCompact {
		r.Failf("layout", -1, "no tile layout chosen (%s)", layout)
		return TileEntity{}, r.Err()
	}
	t.X = r.I32("x")
	t.Y = r.I16("y")
	t.Z = r.I32("z")
	if layout == TileLayoutRID {
		t.RID = r.I16("rid")
	}
	t.MetaID = r.I16("mID")
	for i := range t.Covers {
		t.Covers[i] = r.I32(coverField[i])
	}
	t.Common = Common(r.U8("common"))
	if layout == TileLayoutRID {
		t.TexPage = r.U8("texturePage")
	}
	t.Update = r.U8("update")
	t.Redstone = r.U8("redstone")
	t.Color = r.U8("color")
	if err := r.Finish(); err != nil {
		return TileEntity{}, err
	}
	return t, nil
}

var coverField = [6]string{"cover.down", "cover.up", "cover.north", "cover.south", "cover.west", "cover.east"}

// BlockEvent is one GregTech block event: a machine's client event with its
// value (EventCommonData with a new Common byte, EventSound, …).
type BlockEvent struct {
	X     int32
	Y     int32
	Z     int32
	Event uint8
	Value uint8
}

// BlockEvents is a BLOCK_EVENT message. Dimension is set only in the batched
// layout; Events has one element in the single layout.
type BlockEvents struct {
	Dimension    int32
	HasDimension bool
	Events       []BlockEvent
}

// batchedEventSize is the bytes one event takes in the batched layout: an
// i64 packed position and an i16 (event << 8 | value).
const batchedEventSize = 10

// DecodeBlockEvents decodes the body of a BLOCK_EVENT message (after the id
// byte). The batched layout (GTPacketBlockEvent from 5.09.51.351) is i32
// dimension, i32 count, count × i64 packed positions (GTNHLib
// CoordinatePacker), count × i16 (event << 8 | value); the count is checked
// against the bytes present before anything is allocated.
func DecodeBlockEvents(body []byte, layout BlockEventLayout) (BlockEvents, error) {
	r := proto17.NewFieldReader(msgGTEvent, body)
	switch layout {
	case BlockEventSingle:
		var e BlockEvent
		e.X = r.I32("x")
		e.Y = int32(r.I16("y"))
		e.Z = r.I32("z")
		e.Event = r.U8("event")
		e.Value = r.U8("value")
		if err := r.Finish(); err != nil {
			return BlockEvents{}, err
		}
		return BlockEvents{Events: []BlockEvent{e}}, nil
	case BlockEventBatched:
	default:
		r.Failf("layout", -1, "no block event layout chosen (%s)", layout)
		return BlockEvents{}, r.Err()
	}
	out := BlockEvents{HasDimension: true}
	out.Dimension = r.I32("dimension")
	countAt := r.Offset()
	n := r.I32("count")
	if r.Err() != nil {
		return BlockEvents{}, r.Err()
	}
	if n < 0 {
		r.Failf("count", countAt, "negative event count %d", n)
		return BlockEvents{}, r.Err()
	}
	if int64(n)*batchedEventSize != int64(r.Remaining()) {
		if int64(n)*batchedEventSize > int64(r.Remaining()) {
			r.Fail("count", countAt, proto17.TooLargef("%d events need %d bytes, %d present", n, int64(n)*batchedEventSize, r.Remaining()))
		} else {
			r.Fail("end", countAt, proto17.TrailingBytes(r.Remaining()-int(n)*batchedEventSize))
		}
		return BlockEvents{}, r.Err()
	}
	out.Events = make([]BlockEvent, n)
	for i := range out.Events {
		out.Events[i].X, out.Events[i].Y, out.Events[i].Z = UnpackPos(r.I64("positions"))
	}
	for i := range out.Events {
		v := uint16(r.I16("events"))
		out.Events[i].Event = uint8(v >> 8)
		out.Events[i].Value = uint8(v)
	}
	if err := r.Finish(); err != nil {
		return BlockEvents{}, err
	}
	return out, nil
}

// UnpackPos unpacks a GTNHLib CoordinatePacker position: x in the top 26
// bits, z in the next 26, y in the low 12, each sign-extended.
func UnpackPos(p int64) (x, y, z int32) {
	x = int32(p >> 38)
	z = int32(p << 26 >> 38)
	y = int32(p << 52 >> 52)
	return x, y, z
}

// PackPos is the inverse of UnpackPos (CoordinatePacker.pack): each
// coordinate is truncated to its field width.
func PackPos(x, y, z int32) int64 {
	const bits26, bits12 = 1<<26 - 1, 1<<12 - 1
	return (int64(x)&bits26)<<38 | (int64(z)&bits26)<<12 | int64(y)&bits12
}

// Stone variants of a GregTech ore (the thousands of its metadata), in the
// order of BlockOres.getProcessingPrefix.
const (
	StoneStone        = 0
	StoneNetherrack   = 1
	StoneEndstone     = 2
	StoneBlackGranite = 3
	StoneRedGranite   = 4
	StoneMarble       = 5
	StoneBasalt       = 6
)

// Ore is the material of one GregTech ore block.
type Ore struct {
	Material int  // GregTech material id (35 copper, …)
	Stone    int  // stone variant, 0-15 (StoneStone…)
	Small    bool // a small ore
}

// OreMeta splits a GregTech ore metadata value (TileEntityOres.mMetaData):
// material id + 1000 × stone + 16000 for small ores.
func OreMeta(meta int) (Ore, error) {
	if meta <= 0 || meta >= 32000 {
		return Ore{}, proto17.Invalidf("ore metadata %d outside 1..31999", meta)
	}
	o := Ore{Material: meta % 1000, Stone: meta % 16000 / 1000, Small: meta >= 16000}
	if o.Material == 0 {
		return Ore{}, proto17.Invalidf("ore metadata %d has material 0", meta)
	}
	return o, nil
}

// Meta is the inverse of OreMeta.
func (o Ore) Meta() int {
	m := o.Material + 1000*o.Stone
	if o.Small {
		m += 16000
	}
	return m
}

// OreUpdate is GregTech's ORES message: the material of the ore at a
// position (PacketOres), sent when the ore is not fully enclosed.
type OreUpdate struct {
	X   int32
	Y   int16
	Z   int32
	Ore Ore
}

// DecodeOres decodes the body of an ORES message (after the id byte): i32 x,
// i16 y, i32 z, i16 metadata.
func DecodeOres(body []byte) (OreUpdate, error) {
	r := proto17.NewFieldReader(msgGTOres, body)
	var u OreUpdate
	u.X = r.I32("x")
	u.Y = r.I16("y")
	u.Z = r.I32("z")
	metaAt := r.Offset()
	meta := r.I16("meta")
	if err := r.Finish(); err != nil {
		return OreUpdate{}, err
	}
	o, err := OreMeta(int(meta))
	if err != nil {
		r.Fail("meta", metaAt, err)
		return OreUpdate{}, r.Err()
	}
	u.Ore = o
	return u, nil
}

// GregTechMessage is one decoded GregTech channel message. Exactly one of
// Tile, Events and Ore is set, as ID says; other ids are returned with only
// ID set (Skipped), since a bot needs none of them.
type GregTechMessage struct {
	ID      byte
	Tile    *TileEntity
	Events  *BlockEvents
	Ore     *OreUpdate
	Skipped bool
}

// DecodeGregTech decodes one GregTech channel payload (id byte first) in the
// formats of the server's GregTech version.
func DecodeGregTech(payload []byte, f GTFormats) (GregTechMessage, error) {
	if len(payload) == 0 {
		return GregTechMessage{}, &proto17.Error{Packet: msgGregTech, Field: "id", Offset: 0, Err: proto17.ErrTruncated}
	}
	id, body := payload[0], payload[1:]
	m := GregTechMessage{ID: id}
	var err error
	switch id {
	case GTTileEntity:
		var t TileEntity
		t, err = DecodeTileEntity(body, f.Tile)
		m.Tile = &t
	case GTBlockEvent:
		var e BlockEvents
		e, err = DecodeBlockEvents(body, f.BlockEvent)
		m.Events = &e
	case GTOres:
		if f.Ores != OreSourcePacket {
			return GregTechMessage{}, &proto17.Error{Packet: msgGTOres, Field: "id", Offset: -1,
				Err: proto17.Invalidf("ORES message under ore source %s", f.Ores)}
		}
		var o OreUpdate
		o, err = DecodeOres(body)
		m.Ore = &o
	default:
		m.Skipped = true
	}
	if err != nil {
		return GregTechMessage{}, shiftOffset(err, 1)
	}
	return m, nil
}

// shiftOffset moves a body offset to a payload offset (past the id byte).
func shiftOffset(err error, by int) error {
	if e, ok := err.(*proto17.Error); ok && e.Offset >= 0 {
		c := *e
		c.Offset += by
		return &c
	}
	return err
}

// String formats an ore for logs.
func (o Ore) String() string {
	return fmt.Sprintf("material %d stone %d small %v", o.Material, o.Stone, o.Small)
}
