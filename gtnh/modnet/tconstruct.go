package modnet

import (
	"encoding/binary"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// Tinkers' Construct (GTNewHorizons/TinkersConstruct 1.13.57-GTNH, GTNH
// 2.8.4) sends its own messages on the channel "TConstruct"
// (util/network/PacketPipeline.initalise: NetworkRegistry.newChannel). Each
// begins with a discriminator byte, the packet class's index in the
// pipeline's list once postInitialise has sorted it by canonical class name,
// case first ignored: 0 mantle.common.network.PacketUpdateTE, then the
// tconstruct.util.network classes AccessoryInventoryPacket 1,
// ArmourGuiSyncPacket 2, BeltPacket 3, DoubleJumpPacket 4, GogglePacket 5,
// HealthUpdatePacket 6, MovementUpdatePacket 7, PatternTablePacket 8,
// SignDataPacket 9, SmelteryPacket 10, ToolStationPacket 11 (the twelve
// registerPackets adds; nothing else registers one).

// TConstructChannel is Tinkers' Construct's plugin channel.
const TConstructChannel = "TConstruct"

// TConstructPatternTable is PatternTablePacket's discriminator.
const TConstructPatternTable = 8

// msgPatternTable names the message in errors.
const msgPatternTable = "TConstruct PatternTablePacket"

// PatternTable is the stencil table's pattern choice, client to server
// (util/network/PatternTablePacket: x, y, z as ints, then the pattern as
// ByteBufUtils.writeItemStack writes a stack, the wire's slot format). The
// server (handleServerSide) applies it only while the player has that
// table's window (PatternShaperContainer) open, a blank pattern lies in its
// slot 0 and the stack is one of the registered stencils
// (StencilBuilder.instance.stencils, compared by item and damage); it then
// puts the pattern in slot 1 (StencilTableLogic.setSelectedPattern), and the
// next tick's detectAndSendChanges sends that slot. An empty stack clears
// the choice.
type PatternTable struct {
	X, Y, Z int32
	Pattern proto17.Slot
}

// EncodePatternTable is the payload of a PatternTablePacket.
func EncodePatternTable(p PatternTable, f proto17.Formats) ([]byte, error) {
	b := []byte{TConstructPatternTable}
	for _, v := range []int32{p.X, p.Y, p.Z} {
		b = binary.BigEndian.AppendUint32(b, uint32(v))
	}
	return proto17.AppendSlot(b, p.Pattern, f)
}

// DecodePatternTable reads a PatternTablePacket payload (what a server
// reads from a client: untrusted bytes; the stack's NBT is bounded by the
// slot format's 16-bit length and the payload itself).
func DecodePatternTable(payload []byte, f proto17.Formats) (PatternTable, error) {
	r := proto17.NewFieldReader(msgPatternTable, payload)
	if d := r.U8("discriminator"); r.Err() == nil && d != TConstructPatternTable {
		r.Failf("discriminator", 0, "discriminator %d is not %s (%d)", d, msgPatternTable, TConstructPatternTable)
	}
	var p PatternTable
	p.X = r.I32("x")
	p.Y = r.I32("y")
	p.Z = r.I32("z")
	p.Pattern = r.Slot("contents", f)
	if err := r.Finish(); err != nil {
		return PatternTable{}, err
	}
	return p, nil
}
