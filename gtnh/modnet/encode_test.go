package modnet

import (
	"encoding/binary"
)

// Encoders for test fixtures, written from the senders' encode methods
// (GTPacketTileEntity.encode, GTPacketBlockEvent.encode, PacketOres.encode,
// PacketTileEntity.writeData with TileMultiBlock/TileMultiBlockOven
// writePacketData, PacketGuiInteger.writeData, FMLMessage.OpenGui.toBytes).

func be16(b []byte, v int16) []byte { return binary.BigEndian.AppendUint16(b, uint16(v)) }
func be32(b []byte, v int32) []byte { return binary.BigEndian.AppendUint32(b, uint32(v)) }
func be64(b []byte, v int64) []byte { return binary.BigEndian.AppendUint64(b, uint64(v)) }

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func encTile(t TileEntity, layout TileLayout) []byte {
	var b []byte
	b = be32(b, t.X)
	b = be16(b, t.Y)
	b = be32(b, t.Z)
	if layout == TileLayoutRID {
		b = be16(b, t.RID)
	}
	b = be16(b, t.MetaID)
	for _, c := range t.Covers {
		b = be32(b, c)
	}
	b = append(b, byte(t.Common))
	if layout == TileLayoutRID {
		b = append(b, t.TexPage)
	}
	return append(b, t.Update, t.Redstone, t.Color)
}

func encEventSingle(e BlockEvent) []byte {
	var b []byte
	b = be32(b, e.X)
	b = be16(b, int16(e.Y))
	b = be32(b, e.Z)
	return append(b, e.Event, e.Value)
}

func encEventsBatched(dim int32, es []BlockEvent) []byte {
	var b []byte
	b = be32(b, dim)
	b = be32(b, int32(len(es)))
	for _, e := range es {
		b = be64(b, PackPos(e.X, e.Y, e.Z))
	}
	for _, e := range es {
		b = be16(b, int16(uint16(e.Event)<<8|uint16(e.Value)))
	}
	return b
}

func encOres(u OreUpdate) []byte {
	var b []byte
	b = be32(b, u.X)
	b = be16(b, u.Y)
	b = be32(b, u.Z)
	return be16(b, int16(u.Ore.Meta()))
}

func encRCTile(x, y, z int32, id int16, body []byte) []byte {
	b := []byte{RCTileEntity}
	b = be32(b, x)
	b = be32(b, y)
	b = be32(b, z)
	b = be16(b, id)
	return append(b, body...)
}

func encCokeOvenBody(c CokeOven) []byte {
	b := []byte{boolByte(c.Formed)}
	if c.Formed {
		b = append(b, byte(c.Pattern), byte(c.PatternX), byte(c.PatternY), byte(c.PatternZ))
	}
	b = be32(b, c.CookTime)
	return append(b, boolByte(c.Cooking))
}

func encCokeOven(c CokeOven) []byte {
	return encRCTile(c.X, c.Y, c.Z, CokeOvenMachineID, encCokeOvenBody(c))
}

func encRCGuiInteger(v RCGuiValue) []byte {
	b := []byte{RCGuiInteger, v.WindowID, v.DataID}
	return be32(b, v.Value)
}

// fmlVarInt writes ByteBufUtils.writeVarInt.
func fmlVarInt(b []byte, v int) []byte {
	for v&^0x7f != 0 {
		b = append(b, byte(v&0x7f|0x80))
		v >>= 7
	}
	return append(b, byte(v))
}

func encOpenGui(g OpenGui) []byte {
	b := []byte{FMLOpenGui}
	b = be32(b, g.WindowID)
	b = fmlVarInt(b, len(g.ModID))
	b = append(b, g.ModID...)
	b = be32(b, g.GuiID)
	b = be32(b, g.X)
	b = be32(b, g.Y)
	return be32(b, g.Z)
}

func encWaterTankBody(w WaterTank) []byte {
	b := []byte{boolByte(w.Formed)}
	if w.Formed {
		b = append(b, byte(w.Pattern), byte(w.PatternX), byte(w.PatternY), byte(w.PatternZ))
	}
	if w.Fluid == nil {
		return be16(b, -1)
	}
	b = be16(b, w.Fluid.ID)
	b = be32(b, w.Fluid.Amount)
	return be32(b, w.Fluid.Color)
}

func encWaterTank(w WaterTank) []byte {
	return encRCTile(w.X, w.Y, w.Z, WaterTankMachineID, encWaterTankBody(w))
}

func encMetalTankBody(m MetalTank) []byte {
	b := []byte{boolByte(m.Formed)}
	if m.Formed {
		b = append(b, byte(m.Pattern), byte(m.PatternX), byte(m.PatternY), byte(m.PatternZ))
	}
	b = append(b, byte(m.Color))
	if m.Fluid == nil {
		return be16(b, -1)
	}
	b = be16(b, m.Fluid.ID)
	b = be32(b, m.Fluid.Amount)
	return be32(b, m.Fluid.Color)
}

func encMetalTank(m MetalTank) []byte {
	id := int16(IronTankWallID)
	if m.Steel {
		id = SteelTankWallID
	}
	return encRCTile(m.X, m.Y, m.Z, id, encMetalTankBody(m))
}
