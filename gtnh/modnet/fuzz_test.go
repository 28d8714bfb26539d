package modnet

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// The seed corpora under testdata/fuzz/FuzzX are written by
// TestWriteFuzzCorpus (MODNET_WRITE_CORPUS=1 go test -run TestWriteFuzzCorpus)
// from the fixtures of the table tests; crashers found later are added there.

func FuzzTileEntity(f *testing.F) {
	f.Add(encTile(boiler, TileLayoutCompact), byte(TileLayoutCompact))
	f.Add(encTile(boiler, TileLayoutRID), byte(TileLayoutRID))
	f.Fuzz(func(t *testing.T, data []byte, layout byte) {
		l := TileLayout(layout % 3)
		got, err := DecodeTileEntity(data, l)
		if err != nil {
			return
		}
		if again := encTile(got, l); !bytes.Equal(again, data) {
			t.Fatalf("decoded %+v re-encodes to %x, not %x", got, again, data)
		}
	})
}

func FuzzBlockEvents(f *testing.F) {
	f.Add(encEventsBatched(0, []BlockEvent{{X: 100, Y: 64, Z: -200, Value: 0x4a}}), byte(BlockEventBatched))
	f.Add(encEventSingle(BlockEvent{X: 1, Y: 2, Z: 3, Event: 4, Value: 1}), byte(BlockEventSingle))
	f.Fuzz(func(t *testing.T, data []byte, layout byte) {
		l := BlockEventLayout(layout % 3)
		got, err := DecodeBlockEvents(data, l)
		if err != nil {
			return
		}
		var again []byte
		if l == BlockEventBatched {
			again = encEventsBatched(got.Dimension, got.Events)
		} else {
			if len(got.Events) != 1 {
				t.Fatalf("single layout gave %d events", len(got.Events))
			}
			again = encEventSingle(got.Events[0])
		}
		if !bytes.Equal(again, data) {
			t.Fatalf("decoded %+v re-encodes to %x, not %x", got, again, data)
		}
	})
}

func FuzzOres(f *testing.F) {
	f.Add(encOres(OreUpdate{X: 100, Y: 12, Z: -200, Ore: Ore{Material: 35, Stone: 1, Small: true}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := DecodeOres(data)
		if err != nil {
			return
		}
		if again := encOres(got); !bytes.Equal(again, data) {
			t.Fatalf("decoded %+v re-encodes to %x, not %x", got, again, data)
		}
	})
}

func FuzzGregTech(f *testing.F) {
	f.Add(append([]byte{GTTileEntity}, encTile(boiler, TileLayoutCompact)...), "5.09.51.482")
	f.Add(append([]byte{GTBlockEvent}, encEventSingle(BlockEvent{X: 1})...), "5.09.50.119")
	f.Fuzz(func(t *testing.T, data []byte, version string) {
		fm, err := GregTechFormats(version)
		if err != nil {
			return
		}
		m, err := DecodeGregTech(data, fm)
		if err != nil {
			return
		}
		set := 0
		for _, p := range []bool{m.Tile != nil, m.Events != nil, m.Ore != nil, m.Skipped} {
			if p {
				set++
			}
		}
		if set != 1 || m.ID != data[0] {
			t.Fatalf("message %+v from id %d", m, data[0])
		}
	})
}

func FuzzGTVersion(f *testing.F) {
	for _, v := range []string{"5.09.51.482", "5.09.50.119", "5.09.51.352-pre", "5.09.52.594", ""} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseGTVersion(s)
		if err != nil {
			return
		}
		again, err := ParseGTVersion(v.String())
		if err != nil || again != v {
			t.Fatalf("%q → %+v → %q → %+v, %v", s, v, v.String(), again, err)
		}
		fm, err := GregTechFormats(s)
		if err != nil {
			return
		}
		// Messages are read with both layouts chosen and ores from the
		// packet; the 5.09.52 line reads only ores, from metadata.
		complete := fm.Tile != TileLayoutNone && fm.BlockEvent != BlockEventNone && fm.Ores == OreSourcePacket
		oresOnly := fm.Tile == TileLayoutNone && fm.BlockEvent == BlockEventNone && fm.Ores == OreSourceMetadata && v.Line == 52
		if !complete && !oresOnly || fm.Messages() != complete {
			t.Fatalf("%q: incomplete formats %+v", s, fm)
		}
	})
}

func FuzzRCTile(f *testing.F) {
	f.Add(encCokeOven(CokeOven{X: 10, Y: 70, Z: -5, Formed: true, PatternX: 2, PatternY: 1, PatternZ: 2, CookTime: 1200, Cooking: true}))
	f.Add(encCokeOven(CokeOven{X: 1, Y: 2, Z: 3}))
	f.Fuzz(func(t *testing.T, data []byte) {
		tile, err := DecodeRCTile(data)
		if err != nil {
			return
		}
		if !bytes.Equal(encRCTile(tile.X, tile.Y, tile.Z, tile.ID, tile.Body), data) {
			t.Fatalf("tile %+v does not re-encode", tile)
		}
		oven, err := DecodeCokeOven(tile)
		if err != nil {
			return
		}
		again, err := DecodeCokeOven(mustTileF(t, encCokeOven(oven)))
		if err != nil || again != oven {
			t.Fatalf("oven %+v → %+v, %v", oven, again, err)
		}
		if x, y, z, ok := oven.Master(); ok {
			// The master is within the 3×3×3 oven around the brick.
			if d := x - oven.X; d < -2 || d > 2 {
				t.Fatalf("master x %d from brick %d", x, oven.X)
			}
			if d := y - oven.Y; d < -2 || d > 2 {
				t.Fatalf("master y %d from brick %d", y, oven.Y)
			}
			if d := z - oven.Z; d < -2 || d > 2 {
				t.Fatalf("master z %d from brick %d", z, oven.Z)
			}
		}
	})
}

func FuzzFluidIDMap(f *testing.F) {
	f.Add(encFluidIDMap([]fluidEntry{{"water", 1}, {"creosote", 42}}, []string{"minecraft:water", "railcraft:creosote"}))
	f.Add(encFluidIDMap([]fluidEntry{{"water", 1}}, nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeFluidIDMap(data)
		if err != nil {
			return
		}
		if len(m.Names) > MaxFluids || len(m.Names)*5 > len(data) {
			t.Fatalf("%d fluids from %d bytes", len(m.Names), len(data))
		}
		var entries []fluidEntry
		for id, name := range m.Names {
			entries = append(entries, fluidEntry{name, id})
		}
		again, err := DecodeFluidIDMap(encFluidIDMap(entries, m.Defaults))
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Fatalf("map %+v → %+v, %v", m, again, err)
		}
	})
}

func FuzzMetalTank(f *testing.F) {
	f.Add(encMetalTank(MetalTank{X: 20, Y: 64, Z: 4, Formed: true, PatternX: 2, PatternZ: 2, Color: 15,
		Fluid: &TankFluid{ID: 1, Amount: 100000, Color: 0xffffff}}))
	f.Add(encMetalTank(MetalTank{X: 1, Y: 2, Z: 3, Steel: true}))
	f.Fuzz(func(t *testing.T, data []byte) {
		tile, err := DecodeRCTile(data)
		if err != nil {
			return
		}
		m, err := DecodeMetalTank(tile)
		if err != nil {
			return
		}
		tile.Body = encMetalTankBody(m)
		again, err := DecodeMetalTank(tile)
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Fatalf("tank %+v → %+v, %v", m, again, err)
		}
		if m.IsMaster() && (m.Amount() > m.Capacity() || m.Capacity() > MaxMetalTankCapacity) {
			t.Fatalf("master holds %d of %d mB", m.Amount(), m.Capacity())
		}
		if a := m.Amount(); a < 0 || a > MaxMetalTankCapacity {
			t.Fatalf("%d mB", a)
		}
	})
}

func FuzzWaterTank(f *testing.F) {
	f.Add(encWaterTank(WaterTank{X: 10, Y: 70, Z: -5, Formed: true, PatternX: 2, PatternY: 1, PatternZ: 2,
		Fluid: &TankFluid{ID: 1, Amount: 20000, Color: 0xffffff}}))
	f.Add(encWaterTank(WaterTank{X: 1, Y: 2, Z: 3}))
	f.Fuzz(func(t *testing.T, data []byte) {
		tile, err := DecodeRCTile(data)
		if err != nil {
			return
		}
		w, err := DecodeWaterTank(tile)
		if err != nil {
			return
		}
		// Java's readBoolean takes any non-zero byte as true, so compare
		// what the re-encoding decodes to.
		again, err := DecodeWaterTank(mustTileF(t, encWaterTank(w)))
		if err != nil || !reflect.DeepEqual(again, w) {
			t.Fatalf("tank %+v → %+v, %v", w, again, err)
		}
		if a := w.Water(); a < 0 || a > WaterTankCapacity {
			t.Fatalf("water %d mB", a)
		}
		if x, y, z, ok := w.Master(); ok {
			if x-w.X < -2 || x-w.X > 2 || y-w.Y < -2 || y-w.Y > 2 || z-w.Z < -2 || z-w.Z > 2 {
				t.Fatalf("master %d,%d,%d from block %d,%d,%d", x, y, z, w.X, w.Y, w.Z)
			}
		}
	})
}

func mustTileF(t *testing.T, payload []byte) RCTile {
	tile, err := DecodeRCTile(payload)
	if err != nil {
		t.Fatalf("re-encoded tile: %v", err)
	}
	return tile
}

func FuzzRCGuiInteger(f *testing.F) {
	f.Add(encRCGuiInteger(RCGuiValue{WindowID: 3, DataID: 1, Value: 32000}))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := DecodeRCGuiInteger(data)
		if err != nil {
			return
		}
		if again := encRCGuiInteger(v); !bytes.Equal(again, data) {
			t.Fatalf("value %+v re-encodes to %x, not %x", v, again, data)
		}
	})
}

func FuzzOpenGui(f *testing.F) {
	f.Add(encOpenGui(OpenGui{WindowID: 5, ModID: "Railcraft", GuiID: 17, X: 10, Y: 70, Z: -5}))
	f.Add(encOpenGui(OpenGui{WindowID: 1, ModID: "modularui", GuiID: 3}))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := DecodeOpenGui(data)
		if err != nil {
			return
		}
		again, err := DecodeOpenGui(encOpenGui(g))
		if err != nil || again != g {
			t.Fatalf("%+v → %+v, %v", g, again, err)
		}
		// FML reads at most two length bytes, so the string is short.
		if len(g.ModID) > 16383 || len(g.ModID) > len(data) {
			t.Fatalf("mod id of %d bytes from %d", len(g.ModID), len(data))
		}
	})
}

func FuzzLoadData(f *testing.F) {
	f.Add(okGregTech, "containers:\n  a: {machine: steam_boiler, open: {mod: modularui, gregtech_machines: [100]}, slots: {x: {first: 0}}}\n")
	f.Fuzz(func(t *testing.T, gt, ct string) {
		d, err := LoadData(fstest.MapFS{
			GregTechFile:   &fstest.MapFile{Data: []byte(gt)},
			ContainersFile: &fstest.MapFile{Data: []byte(ct)},
		})
		if err != nil {
			return
		}
		for kind, c := range d.Containers {
			covered := make([]int, c.Size)
			for _, r := range c.Slots {
				for s := r.First; s < r.First+r.Count; s++ {
					covered[s]++
				}
			}
			for s, n := range covered {
				if n != 1 {
					t.Fatalf("%s: slot %d named %d times", kind, s, n)
				}
			}
		}
	})
}

// TestWriteFuzzCorpus writes the seed corpora from the table tests'
// fixtures. It runs only when asked.
func TestWriteFuzzCorpus(t *testing.T) {
	if os.Getenv("MODNET_WRITE_CORPUS") == "" {
		t.Skip("set MODNET_WRITE_CORPUS=1 to rewrite testdata/fuzz")
	}
	oven := CokeOven{X: 10, Y: 70, Z: -5, Formed: true, PatternX: 2, PatternY: 1, PatternZ: 2, CookTime: 1200, Cooking: true}
	seeds := map[string][][]any{
		"FuzzTileEntity": {
			{encTile(boiler, TileLayoutCompact), byte(TileLayoutCompact)},
			{encTile(boiler, TileLayoutRID), byte(TileLayoutRID)},
			{encTile(boiler, TileLayoutRID), byte(TileLayoutCompact)},
			{encTile(TileEntity{X: -1, Y: -1, Z: -1, MetaID: 1020, Covers: [6]int32{1, 2, 3, 4, 5, 6}, Common: 0xff}, TileLayoutCompact), byte(TileLayoutCompact)},
			{[]byte{}, byte(TileLayoutCompact)},
		},
		"FuzzBlockEvents": {
			{encEventsBatched(0, []BlockEvent{{X: 100, Y: 64, Z: -200, Value: 0x4a}, {X: -1, Y: 255, Z: 7, Event: 4, Value: 1}}), byte(BlockEventBatched)},
			{encEventsBatched(-1, nil), byte(BlockEventBatched)},
			{be32(be32(nil, 0), 0x7fffffff), byte(BlockEventBatched)},
			{be32(be32(nil, 0), -1), byte(BlockEventBatched)},
			{encEventSingle(BlockEvent{X: 100, Y: 64, Z: -200, Value: 0x4a}), byte(BlockEventSingle)},
		},
		"FuzzOres": {
			{encOres(OreUpdate{X: 100, Y: 12, Z: -200, Ore: Ore{Material: 35, Stone: 1, Small: true}})},
			{encOres(OreUpdate{Ore: Ore{Material: 824}})},
			{be16(be32(be16(be32(nil, 0), 0), 0), 0)},
			{be16(be32(be16(be32(nil, 0), 0), 0), -1)},
		},
		"FuzzGregTech": {
			{append([]byte{GTTileEntity}, encTile(boiler, TileLayoutCompact)...), "5.09.51.482"},
			{append([]byte{GTTileEntity}, encTile(boiler, TileLayoutRID)...), "5.09.50.119"},
			{append([]byte{GTBlockEvent}, encEventsBatched(0, []BlockEvent{{X: 1}})...), "5.09.51.482"},
			{append([]byte{GTBlockEvent}, encEventSingle(BlockEvent{X: 1})...), "5.09.51.300"},
			{append([]byte{GTOres}, encOres(OreUpdate{Ore: Ore{Material: 57}})...), "5.09.51.482"},
			{[]byte{GTSound, 1}, "5.09.51.482"},
		},
		"FuzzGTVersion": {
			{"5.09.51.482"}, {"5.09.50.119"}, {"5.09.51.352-pre"}, {"5.09.51.263-pre"}, {"5.09.52.594"}, {""}, {"5.9.51.1"},
		},
		"FuzzRCTile": {
			{encCokeOven(oven)},
			{encCokeOven(CokeOven{X: 9, Y: 72, Z: -6, Formed: true, PatternX: 1, PatternY: 3, PatternZ: 1})},
			{encCokeOven(CokeOven{X: 1, Y: 2, Z: 3})},
			{encRCTile(1, 2, 3, 6, []byte{1, 2, 3})},
			{encRCTile(1, 2, 3, -1, nil)},
		},
		"FuzzWaterTank": {
			{encWaterTank(WaterTank{X: 10, Y: 70, Z: -5, Formed: true, PatternX: 2, PatternY: 1, PatternZ: 2,
				Fluid: &TankFluid{ID: 1, Amount: 20000, Color: 0xffffff}})},
			{encWaterTank(WaterTank{X: 9, Y: 72, Z: -6, Formed: true, PatternX: 1, PatternY: 3, PatternZ: 1})},
			{encWaterTank(WaterTank{X: 1, Y: 2, Z: 3})},
			{encWaterTank(WaterTank{Formed: true, PatternX: 2, PatternY: 2, PatternZ: 2})},
			{encWaterTank(WaterTank{Fluid: &TankFluid{ID: 1, Amount: -1}})},
			{encRCTile(1, 2, 3, WaterTankMachineID, []byte{1, 0, 2, 1})},
		},
		"FuzzFluidIDMap": {
			{encFluidIDMap([]fluidEntry{{"water", 1}, {"creosote", 42}}, []string{"minecraft:water", "railcraft:creosote"})},
			{encFluidIDMap([]fluidEntry{{"water", 1}}, nil)},
			{encFluidIDMap(nil, nil)},
			{encFluidIDMap([]fluidEntry{{"water", 1}, {"water", 2}}, nil)},
			{be32([]byte{ForgeFluidIDMap}, 1000)},
		},
		"FuzzMetalTank": {
			{encMetalTank(MetalTank{X: 20, Y: 64, Z: 4, Formed: true, PatternX: 2, PatternZ: 2, Color: 15,
				Fluid: &TankFluid{ID: 1, Amount: 100000, Color: 0xffffff}})},
			{encMetalTank(MetalTank{X: 19, Y: 66, Z: 4, Formed: true, Pattern: 19, Steel: true, PatternX: 5, PatternY: 1, PatternZ: 5})},
			{encMetalTank(MetalTank{X: 1, Y: 2, Z: 3, Steel: true})},
			{encMetalTank(MetalTank{Formed: true, Pattern: 20, PatternX: 1, PatternZ: 1})},
			{encRCTile(1, 2, 3, IronTankValveID, []byte{1, 4, 3, 0, 3, 0, 0, 1, 0, 0x04, 0x93, 0xe0, 0, 0, 0, 0})},
		},
		"FuzzRCGuiInteger": {
			{encRCGuiInteger(RCGuiValue{WindowID: 3, DataID: 1, Value: 32000})},
			{[]byte{RCGuiInteger}},
		},
		"FuzzOpenGui": {
			{encOpenGui(OpenGui{WindowID: 5, ModID: "Railcraft", GuiID: 17, X: 10, Y: 70, Z: -5})},
			{encOpenGui(OpenGui{WindowID: 1, ModID: "modularui", GuiID: 3})},
			{encOpenGui(OpenGui{WindowID: 2, ModID: "IronChest", GuiID: 8, X: -1, Y: 64, Z: 1})},
			{append(append([]byte{FMLOpenGui}, be32(nil, 5)...), 0x80, 0x80, 0x01)},
		},
		"FuzzBQPiece": {
			{bqSeedPiece(BQPiece{Size: 1, Data: []byte{9}, End: true})},
			{bqSeedPiece(BQPiece{Size: 40000, Index: 20480, Data: []byte{1, 2, 3}})},
			{[]byte{0, 0xff, 0xff}},
			{[]byte{1, 0, 0}},
		},
		"FuzzBQMessage": {
			{bqSeedMessage(bqSync(true))},
			{bqSeedMessage(bqSync(false))},
			{bqSeedMessage(BQQuestSyncRequest(false, true))},
			{bqSeedMessage(proto17.Compound{"ID": "betterquesting:other"})},
		},
		"FuzzLoadData": {
			{okGregTech, "containers:\n  a: {machine: steam_boiler, open: {mod: modularui, gregtech_machines: [100]}, slots: {x: {first: 0}}}\n"},
			{okGregTech, "containers:\n  a: {machine: chest, open: {window_type: 0, size: 2}, slots: {chest: {first: 0, count: 2}, p: {first: 2}}}\n"},
		},
	}
	for name, entries := range seeds {
		dir := filepath.Join("testdata", "fuzz", name)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		for i, args := range entries {
			var b bytes.Buffer
			b.WriteString("go test fuzz v1\n")
			for _, a := range args {
				switch v := a.(type) {
				case []byte:
					fmt.Fprintf(&b, "[]byte(%s)\n", strconv.Quote(string(v)))
				case string:
					fmt.Fprintf(&b, "string(%s)\n", strconv.Quote(v))
				case byte:
					fmt.Fprintf(&b, "byte('\\x%02x')\n", v)
				default:
					t.Fatalf("seed type %T", a)
				}
			}
			require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%02d", i)), b.Bytes(), 0o644))
		}
	}
}

func FuzzOreFromBlock(f *testing.F) {
	f.Add("gregtech:gt.blockores2", 25035)
	f.Add("gregtech:gt.blockores7", 3086)
	f.Fuzz(func(t *testing.T, name string, meta int) {
		b, err := OreFromBlock(name, meta)
		if err != nil {
			return
		}
		if b.Meta() != meta || b.Name() != name {
			t.Fatalf("%s:%d decoded to %+v, which is %s:%d", name, meta, b, b.Name(), b.Meta())
		}
		if b.Ore.Material < 1 || b.Ore.Material > 999 || b.StoneIndex > 7 || b.Legacy != (b.Series == 2 && b.StoneIndex <= StoneBasalt) {
			t.Fatalf("%s:%d: out of range %+v", name, meta, b)
		}
	})
}

func bqSeedPiece(p BQPiece) []byte {
	b, err := EncodeBQPiece(p)
	if err != nil {
		panic(err)
	}
	return b
}

func bqSeedMessage(c proto17.Compound) []byte {
	gz, err := (&proto17.NBT{Root: c}).Gzip()
	if err != nil {
		panic(err)
	}
	return gz
}

// FuzzBQPiece: a BQ_NET_CHAN payload decodes to a piece that encodes back
// to a payload decoding to the same piece, or fails with an error.
func FuzzBQPiece(f *testing.F) {
	f.Add(bqSeedPiece(BQPiece{Size: 1, Data: []byte{9}, End: true}))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodeBQPiece(data)
		if err != nil {
			return
		}
		again, err := EncodeBQPiece(p)
		if err != nil {
			t.Fatalf("%+v does not encode: %v", p, err)
		}
		q, err := DecodeBQPiece(again)
		if err != nil || !reflect.DeepEqual(p, q) {
			t.Fatalf("%+v re-decodes to %+v, %v", p, q, err)
		}
		var a BQAssembler
		_, _, _ = a.Feed(p)
	})
}

// FuzzBQMessage: a reassembled message (gzipped NBT) decodes, and a
// quest_sync's quests, or fails with an error.
func FuzzBQMessage(f *testing.F) {
	f.Add(bqSeedMessage(bqSync(true)))
	f.Fuzz(func(t *testing.T, gz []byte) {
		id, msg, err := DecodeBQMessage(gz)
		if err != nil || id != BQQuestSync {
			return
		}
		sync, err := DecodeBQQuestSync(msg)
		if err != nil {
			return
		}
		for _, q := range sync.Quests {
			for _, u := range q.Completed {
				if u != strings.ToLower(u) {
					t.Fatalf("UUID %q is not lower-case", u)
				}
			}
		}
	})
}
