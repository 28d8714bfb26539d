package modnet

import (
	"unicode/utf8"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// FMLChannel is the channel of FML's runtime messages (FMLRuntimeCodec).
const FMLChannel = "FML"

// FMLOpenGui is OpenGui's discriminator in FMLRuntimeCodec.
const FMLOpenGui byte = 1

const msgOpenGui = "FML OpenGui"

// OpenGui is FML's OpenGui message (FMLMessage.OpenGui): the server opened
// a mod GUI with a container. No vanilla Open Window is sent; the window's
// items follow in Window Items with this window id, and clicks use it.
type OpenGui struct {
	WindowID int32
	ModID    string // the mod's id: "Railcraft", "IronChest", "modularui"
	GuiID    int32  // the mod's own GUI id
	X, Y, Z  int32  // the position the GUI was opened for
}

// DecodeOpenGui decodes an FML channel payload holding OpenGui: u8
// discriminator 1, i32 window id, string mod id (FML VarInt-prefixed UTF-8),
// i32 gui id, i32 x, i32 y, i32 z.
func DecodeOpenGui(payload []byte) (OpenGui, error) {
	r := proto17.NewFieldReader(msgOpenGui, payload)
	if d := r.U8("discriminator"); r.Err() == nil && d != FMLOpenGui {
		r.Failf("discriminator", 0, "discriminator %d is not OpenGui", d)
	}
	var g OpenGui
	at := r.Offset()
	g.WindowID = r.I32("windowId")
	// The server numbers windows 1..100 (EntityPlayerMP.getNextWindowId) and
	// clicks carry the id in a byte; 0 is the player's own inventory.
	if r.Err() == nil && (g.WindowID < 1 || g.WindowID > 127) {
		r.Failf("windowId", at, "window id %d outside 1..127", g.WindowID)
	}
	at = r.Offset()
	g.ModID = r.FMLString("modId")
	switch {
	case r.Err() != nil:
	case g.ModID == "":
		r.Failf("modId", at, "empty mod id")
	case !utf8.ValidString(g.ModID):
		r.Failf("modId", at, "string is not valid UTF-8")
	}
	g.GuiID = r.I32("modGuiId")
	g.X = r.I32("x")
	g.Y = r.I32("y")
	g.Z = r.I32("z")
	if err := r.Finish(); err != nil {
		return OpenGui{}, err
	}
	return g, nil
}

// FMLDiscriminator returns the discriminator of an FML channel payload.
func FMLDiscriminator(payload []byte) (byte, error) {
	if len(payload) == 0 {
		return 0, &proto17.Error{Packet: "FML", Field: "discriminator", Offset: 0, Err: proto17.ErrTruncated}
	}
	return payload[0], nil
}
