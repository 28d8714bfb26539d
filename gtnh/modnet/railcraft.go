package modnet

import "github.com/gtnh-agent/gtnh-agent/proto17"

// RailcraftChannel is Railcraft's plugin channel (RailcraftPacket.CHANNEL_NAME).
const RailcraftChannel = "RC"

// Railcraft message types: the first byte of an RC payload, the ordinal of
// RailcraftPacket.PacketType.
const (
	RCTileEntity byte = 0
	RCGuiInteger byte = 4
)

// CokeOvenMachineID is the coke oven's id in an RC TILE_ENTITY message: its
// ordinal in EnumMachineAlpha, which is also its metadata on
// Railcraft:machine.alpha.
const CokeOvenMachineID = 7

// cokeOvenMaster is the master's cell in the coke oven's one multiblock
// pattern (TileCokeOven: new MultiBlockPattern(map, 2, 1, 2)): the bottom
// centre brick, with the pattern's one-cell border counted.
var cokeOvenMaster = [3]int32{2, 1, 2}

const (
	msgRCTile    = "RC TILE_ENTITY"
	msgRCCoke    = "RC TILE_ENTITY coke oven"
	msgRCGuiInt  = "RC GUI_INTEGER"
	msgRailcraft = "RC"
)

// RCTile is the header of an RC TILE_ENTITY message (PacketTileEntity): the
// tile's position and id, then the tile's own data in Body. The id is the
// machine's ordinal within its block (EnumMachineAlpha for machine.alpha),
// so Body can be read only knowing the block at the position.
type RCTile struct {
	X, Y, Z int32
	ID      int16
	Body    []byte // aliases the payload
}

// DecodeRCTile decodes an RC TILE_ENTITY payload (type byte first): u8 type
// 0, i32 x, i32 y, i32 z, i16 id, then the tile's data.
func DecodeRCTile(payload []byte) (RCTile, error) {
	r := proto17.NewFieldReader(msgRCTile, payload)
	if t := r.U8("type"); r.Err() == nil && t != RCTileEntity {
		r.Failf("type", 0, "type %d is not TILE_ENTITY", t)
	}
	var t RCTile
	t.X = r.I32("x")
	t.Y = r.I32("y")
	t.Z = r.I32("z")
	idAt := r.Offset()
	t.ID = r.I16("id")
	if r.Err() == nil && t.ID < 0 {
		r.Failf("id", idAt, "negative tile id %d", t.ID)
	}
	t.Body = r.Rest()
	if r.Err() != nil {
		return RCTile{}, r.Err()
	}
	return t, nil
}

// CokeOven is the state one coke oven brick reports (TileMultiBlock and
// TileMultiBlockOven writePacketData). Every brick of a formed oven reports
// its place in the pattern; cook time and cooking are the brick's own fields
// and are meaningful on the master.
type CokeOven struct {
	X, Y, Z int32
	// Formed is hasMaster: the brick belongs to a complete 3×3×3 oven.
	Formed bool
	// Pattern is the pattern index and the brick's cell in it (only when
	// Formed).
	Pattern                      int8
	PatternX, PatternY, PatternZ int8
	CookTime                     int32
	Cooking                      bool
}

// Master is the position of the oven's master brick, where its GUI opens
// (TileMultiBlock.readPacketData: MultiBlockPattern.getMasterRelative*).
func (c CokeOven) Master() (x, y, z int32, ok bool) {
	if !c.Formed {
		return 0, 0, 0, false
	}
	return c.X + cokeOvenMaster[0] - int32(c.PatternX),
		c.Y + cokeOvenMaster[1] - int32(c.PatternY),
		c.Z + cokeOvenMaster[2] - int32(c.PatternZ), true
}

// IsMaster reports whether this brick is the master.
func (c CokeOven) IsMaster() bool {
	return c.Formed && int32(c.PatternX) == cokeOvenMaster[0] &&
		int32(c.PatternY) == cokeOvenMaster[1] && int32(c.PatternZ) == cokeOvenMaster[2]
}

// DecodeCokeOven reads the coke oven data of an RC TILE_ENTITY message whose
// block is Railcraft:machine.alpha: bool hasMaster, [i8 pattern, i8 x, i8 y,
// i8 z], i32 cookTime, bool cooking. Offsets in errors count from the start
// of the tile's data.
func DecodeCokeOven(t RCTile) (CokeOven, error) {
	r := proto17.NewFieldReader(msgRCCoke, t.Body)
	if t.ID != CokeOvenMachineID {
		r.Failf("id", -1, "tile id %d is not the coke oven (%d)", t.ID, CokeOvenMachineID)
		return CokeOven{}, r.Err()
	}
	c := CokeOven{X: t.X, Y: t.Y, Z: t.Z}
	formed, pattern, x, y, z, patternAt, at := readMultiBlock(r)
	c.Formed, c.Pattern, c.PatternX, c.PatternY, c.PatternZ = formed, pattern, x, y, z
	if c.Formed {
		if r.Err() == nil && c.Pattern != 0 {
			// The coke oven has one pattern (TileCokeOven.patterns).
			r.Failf("patternIndex", patternAt, "pattern %d, the coke oven has only pattern 0", c.Pattern)
		}
		// The oven's bricks fill cells 1..3 of the 5×5×5 pattern.
		if r.Err() == nil && !(inBrick(c.PatternX) && inBrick(c.PatternY) && inBrick(c.PatternZ)) {
			r.Failf("pattern position", at, "cell (%d,%d,%d) is not a brick of the pattern", c.PatternX, c.PatternY, c.PatternZ)
		}
	}
	c.CookTime = r.I32("cookTime")
	c.Cooking = r.Bool("cooking")
	if err := r.Finish(); err != nil {
		return CokeOven{}, err
	}
	return c, nil
}

func inBrick(v int8) bool { return v >= 1 && v <= 3 }

// RCGuiValue is an RC GUI_INTEGER message (PacketGuiInteger): a value for an
// open Railcraft window that does not fit a vanilla window property (the
// coke oven's creosote amount is data id 1, its colour 2).
type RCGuiValue struct {
	WindowID uint8
	DataID   uint8
	Value    int32
}

// DecodeRCGuiInteger decodes an RC GUI_INTEGER payload (type byte first):
// u8 type 4, u8 window id, u8 data id, i32 value.
func DecodeRCGuiInteger(payload []byte) (RCGuiValue, error) {
	r := proto17.NewFieldReader(msgRCGuiInt, payload)
	if t := r.U8("type"); r.Err() == nil && t != RCGuiInteger {
		r.Failf("type", 0, "type %d is not GUI_INTEGER", t)
	}
	var v RCGuiValue
	v.WindowID = r.U8("windowId")
	v.DataID = r.U8("dataId")
	v.Value = r.I32("value")
	if err := r.Finish(); err != nil {
		return RCGuiValue{}, err
	}
	return v, nil
}

// RailcraftType returns the type byte of an RC payload.
func RailcraftType(payload []byte) (byte, error) {
	if len(payload) == 0 {
		return 0, &proto17.Error{Packet: msgRailcraft, Field: "type", Offset: 0, Err: proto17.ErrTruncated}
	}
	return payload[0], nil
}
