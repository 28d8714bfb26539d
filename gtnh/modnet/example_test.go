package modnet_test

import (
	"encoding/hex"
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
)

// A GregTech TILE_ENTITY message from a GTNH 2.8.4 server: the formats come
// from the gregtech version in the mod list, the machine from the data files.
func ExampleDecodeGregTech() {
	formats, err := modnet.GregTechFormats("5.09.51.482")
	if err != nil {
		panic(err)
	}
	payload, _ := hex.DecodeString("00" + // TILE_ENTITY
		"00000064" + "0040" + "ffffff38" + // x 100, y 64, z -200
		"0064" + // mID 100
		"000000000000000000000000000000000000000000000000" + // no covers
		"4a" + "01" + "00" + "00") // common: north, active, works; boiling
	msg, err := modnet.DecodeGregTech(payload, formats)
	if err != nil {
		panic(err)
	}
	data, err := modnet.DefaultData()
	if err != nil {
		panic(err)
	}
	m, _ := data.Machine(int(msg.Tile.MetaID))
	fmt.Println(m.Kind, m.Variant, msg.Tile.Common.Active(), msg.Tile.Common.Facing())
	// Output: steam_boiler small_coal_boiler true 2
}

// An FML OpenGui for a coke oven, and the slot layout of its window.
func ExampleDecodeOpenGui() {
	payload, _ := hex.DecodeString("01" + "00000005" + "09" + hex.EncodeToString([]byte("Railcraft")) +
		"00000011" + "0000000a" + "00000046" + "fffffffb")
	g, err := modnet.DecodeOpenGui(payload)
	if err != nil {
		panic(err)
	}
	data, err := modnet.DefaultData()
	if err != nil {
		panic(err)
	}
	layout, _ := data.LayoutForOpenGui(g)
	input, _ := layout.Slot("input")
	fmt.Println(g.WindowID, layout.Machine, input, layout.Size)
	// Output: 5 coke_oven 0 40
}
