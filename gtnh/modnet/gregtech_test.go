package modnet

import (
	"encoding/hex"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	require.NoError(t, err)
	return b
}

// requireDecodeErr checks a *proto17.Error with the cause, message and field.
func requireDecodeErr(t *testing.T, err error, cause error, msg, field string) *proto17.Error {
	t.Helper()
	require.Error(t, err)
	var pe *proto17.Error
	require.True(t, errors.As(err, &pe), "want *proto17.Error, got %T %v", err, err)
	assert.ErrorIs(t, err, cause)
	assert.Equal(t, msg, pe.Packet)
	assert.Equal(t, field, pe.Field)
	return pe
}

// boiler is the TILE_ENTITY of a small coal boiler at (100, 64, -200),
// facing north (2), active, enabled, boiling.
var boiler = TileEntity{X: 100, Y: 64, Z: -200, MetaID: 100, Common: 2 | 8 | 64, Update: 1}

func TestDecodeTileEntityFixtures(t *testing.T) {
	// Written by hand from GTPacketTileEntity.encode, independently of encTile.
	compact := unhex(t, `00000064 0040 ffffff38 0064
		00000000 00000000 00000000 00000000 00000000 00000000
		4a 01 00 00`)
	rid := unhex(t, `00000064 0040 ffffff38 0000 0064
		00000000 00000000 00000000 00000000 00000000 00000000
		4a 00 01 00 00`)
	require.Len(t, compact, 40)
	require.Len(t, rid, 43)

	got, err := DecodeTileEntity(compact, TileLayoutCompact)
	require.NoError(t, err)
	assert.Equal(t, boiler, got)
	got, err = DecodeTileEntity(rid, TileLayoutRID)
	require.NoError(t, err)
	assert.Equal(t, boiler, got)

	c := got.Common
	assert.Equal(t, 2, c.Facing())
	assert.True(t, c.Active())
	assert.True(t, c.Works())
	assert.False(t, c.Redstone())
	assert.False(t, c.LockUpgrade())
	assert.False(t, c.Muffled())

	// The layouts are not interchangeable: each is refused in the other.
	_, err = DecodeTileEntity(compact, TileLayoutRID)
	requireDecodeErr(t, err, proto17.ErrTruncated, msgGTTile, "update")
	_, err = DecodeTileEntity(rid, TileLayoutCompact)
	requireDecodeErr(t, err, proto17.ErrTrailing, msgGTTile, "end")
}

func TestCommonBits(t *testing.T) {
	for _, tc := range []struct {
		c                                      Common
		facing                                 int
		active, redstone, lock, works, muffled bool
	}{
		{0, 0, false, false, false, false, false},
		{5, 5, false, false, false, false, false},
		{7 | 8, 7, true, false, false, false, false},
		{16, 0, false, true, false, false, false},
		{32, 0, false, false, true, false, false},
		{64, 0, false, false, false, true, false},
		{128, 0, false, false, false, false, true},
		{255, 7, true, true, true, true, true},
	} {
		assert.Equal(t, tc.facing, tc.c.Facing(), "%d", tc.c)
		assert.Equal(t, tc.active, tc.c.Active(), "%d", tc.c)
		assert.Equal(t, tc.redstone, tc.c.Redstone(), "%d", tc.c)
		assert.Equal(t, tc.lock, tc.c.LockUpgrade(), "%d", tc.c)
		assert.Equal(t, tc.works, tc.c.Works(), "%d", tc.c)
		assert.Equal(t, tc.muffled, tc.c.Muffled(), "%d", tc.c)
	}
}

func TestDecodeTileEntityRoundTrip(t *testing.T) {
	full := TileEntity{X: -30000000, Y: 255, Z: 29999999, MetaID: 1020,
		Covers: [6]int32{1, -2, 3, 0x7fffffff, -0x80000000, 6}, Common: 0xff, Update: 7, Redstone: 0x3f, Color: 15}
	for _, layout := range []TileLayout{TileLayoutRID, TileLayoutCompact} {
		want := full
		if layout == TileLayoutRID {
			want.RID, want.TexPage = -3, 9
		}
		got, err := DecodeTileEntity(encTile(want, layout), layout)
		require.NoError(t, err, layout)
		assert.Equal(t, want, got, layout)
	}
}

func TestDecodeTileEntityErrors(t *testing.T) {
	fields := map[TileLayout][]string{
		// Field at each byte offset, from GTPacketTileEntity.encode.
		TileLayoutCompact: fieldsAt(4, "x", 2, "y", 4, "z", 2, "mID", 4, "cover.down", 4, "cover.up",
			4, "cover.north", 4, "cover.south", 4, "cover.west", 4, "cover.east", 1, "common", 1, "update", 1, "redstone", 1, "color"),
		TileLayoutRID: fieldsAt(4, "x", 2, "y", 4, "z", 2, "rid", 2, "mID", 4, "cover.down", 4, "cover.up",
			4, "cover.north", 4, "cover.south", 4, "cover.west", 4, "cover.east", 1, "common", 1, "texturePage", 1, "update", 1, "redstone", 1, "color"),
	}
	for layout, at := range fields {
		full := encTile(boiler, layout)
		require.Len(t, full, len(at), layout)
		for n := 0; n < len(full); n++ {
			_, err := DecodeTileEntity(full[:n], layout)
			pe := requireDecodeErr(t, err, proto17.ErrTruncated, msgGTTile, at[n])
			assert.Equal(t, startOf(at, n), pe.Offset, "%s cut at %d", layout, n)
		}
		_, err := DecodeTileEntity(append(full, 0), layout)
		pe := requireDecodeErr(t, err, proto17.ErrTrailing, msgGTTile, "end")
		assert.Equal(t, len(full), pe.Offset)
	}
	_, err := DecodeTileEntity(encTile(boiler, TileLayoutCompact), TileLayoutNone)
	requireDecodeErr(t, err, proto17.ErrInvalid, msgGTTile, "layout")
}

// fieldsAt expands (size, name) pairs into the field name at each byte.
func fieldsAt(pairs ...any) []string {
	var out []string
	for i := 0; i < len(pairs); i += 2 {
		for range pairs[i].(int) {
			out = append(out, pairs[i+1].(string))
		}
	}
	return out
}

// startOf is the offset where the field holding byte n starts.
func startOf(at []string, n int) int {
	s := n
	for s > 0 && at[s-1] == at[n] {
		s--
	}
	return s
}

func TestPackPos(t *testing.T) {
	// Expected values computed from GTNHLib CoordinatePacker.pack by hand.
	for _, tc := range []struct {
		x, y, z int32
		packed  uint64
	}{
		{100, 64, -200, 0x0000193ffff38040},
		{-1, 255, 7, 0xffffffc0000070ff},
		{-30000000, -2048, 29999999, 0x8d8f201c9c37f800},
		{0, 0, 0, 0},
	} {
		assert.Equal(t, tc.packed, uint64(PackPos(tc.x, tc.y, tc.z)))
		x, y, z := UnpackPos(int64(tc.packed))
		assert.Equal(t, [3]int32{tc.x, tc.y, tc.z}, [3]int32{x, y, z})
	}
}

func TestDecodeBlockEventsBatched(t *testing.T) {
	// Dimension 0, two events: the boiler's new common byte, and a steam
	// vent sound (event 4, value 1) at (-1, 255, 7). Written by hand from
	// GTPacketBlockEvent.encode.
	body := unhex(t, `00000000 00000002
		0000193ffff38040 ffffffc0000070ff
		004a 0401`)
	got, err := DecodeBlockEvents(body, BlockEventBatched)
	require.NoError(t, err)
	assert.Equal(t, BlockEvents{Dimension: 0, HasDimension: true, Events: []BlockEvent{
		{X: 100, Y: 64, Z: -200, Event: EventCommonData, Value: 0x4a},
		{X: -1, Y: 255, Z: 7, Event: EventSound, Value: 1},
	}}, got)

	es := []BlockEvent{{X: 5, Y: 6, Z: 7, Event: 0xff, Value: 0xfe}, {X: -5, Y: -6, Z: -7, Event: 1, Value: 0x80}}
	got, err = DecodeBlockEvents(encEventsBatched(-1, es), BlockEventBatched)
	require.NoError(t, err)
	assert.Equal(t, int32(-1), got.Dimension)
	assert.Equal(t, es, got.Events)

	got, err = DecodeBlockEvents(encEventsBatched(7, nil), BlockEventBatched)
	require.NoError(t, err)
	assert.Empty(t, got.Events)
}

func TestDecodeBlockEventsBatchedErrors(t *testing.T) {
	body := encEventsBatched(0, []BlockEvent{{X: 1, Y: 2, Z: 3}, {X: 4, Y: 5, Z: 6}})
	for n := 0; n < 8; n++ {
		_, err := DecodeBlockEvents(body[:n], BlockEventBatched)
		field := "dimension"
		if n >= 4 {
			field = "count"
		}
		requireDecodeErr(t, err, proto17.ErrTruncated, msgGTEvent, field)
	}
	// Cut inside the events: the count promises more than is present.
	for n := 8; n < len(body); n++ {
		_, err := DecodeBlockEvents(body[:n], BlockEventBatched)
		pe := requireDecodeErr(t, err, proto17.ErrTooLarge, msgGTEvent, "count")
		assert.Equal(t, 4, pe.Offset)
	}
	_, err := DecodeBlockEvents(append(body, 0), BlockEventBatched)
	requireDecodeErr(t, err, proto17.ErrTrailing, msgGTEvent, "end")

	// A huge count with few bytes is refused before any allocation.
	huge := be32(be32(nil, 0), 0x7fffffff)
	assert.Less(t, allocBytes(func() { _, _ = DecodeBlockEvents(huge, BlockEventBatched) }), uint64(4096))
	_, err = DecodeBlockEvents(huge, BlockEventBatched)
	requireDecodeErr(t, err, proto17.ErrTooLarge, msgGTEvent, "count")

	_, err = DecodeBlockEvents(be32(be32(nil, 0), -1), BlockEventBatched)
	requireDecodeErr(t, err, proto17.ErrInvalid, msgGTEvent, "count")

	_, err = DecodeBlockEvents(body, BlockEventNone)
	requireDecodeErr(t, err, proto17.ErrInvalid, msgGTEvent, "layout")
}

func TestDecodeBlockEventSingle(t *testing.T) {
	body := unhex(t, `00000064 0040 ffffff38 00 4a`)
	got, err := DecodeBlockEvents(body, BlockEventSingle)
	require.NoError(t, err)
	assert.Equal(t, BlockEvents{Events: []BlockEvent{{X: 100, Y: 64, Z: -200, Event: 0, Value: 0x4a}}}, got)

	e := BlockEvent{X: -7, Y: -1, Z: 8, Event: 4, Value: 1}
	got, err = DecodeBlockEvents(encEventSingle(e), BlockEventSingle)
	require.NoError(t, err)
	assert.Equal(t, []BlockEvent{e}, got.Events)

	at := fieldsAt(4, "x", 2, "y", 4, "z", 1, "event", 1, "value")
	for n := 0; n < len(body); n++ {
		_, err := DecodeBlockEvents(body[:n], BlockEventSingle)
		requireDecodeErr(t, err, proto17.ErrTruncated, msgGTEvent, at[n])
	}
	_, err = DecodeBlockEvents(append(body, 1), BlockEventSingle)
	requireDecodeErr(t, err, proto17.ErrTrailing, msgGTEvent, "end")
	// A batched message read as single is refused (trailing bytes).
	_, err = DecodeBlockEvents(encEventsBatched(0, []BlockEvent{{}}), BlockEventSingle)
	require.Error(t, err)
}

func TestOreMeta(t *testing.T) {
	for _, tc := range []struct {
		meta int
		want Ore
	}{
		{35, Ore{Material: 35}},
		{1035, Ore{Material: 35, Stone: StoneNetherrack}},
		{6032, Ore{Material: 32, Stone: StoneBasalt}},
		{16035, Ore{Material: 35, Small: true}},
		{17824, Ore{Material: 824, Stone: StoneNetherrack, Small: true}},
		{31999, Ore{Material: 999, Stone: 15, Small: true}},
		{1, Ore{Material: 1}},
	} {
		got, err := OreMeta(tc.meta)
		require.NoError(t, err, tc.meta)
		assert.Equal(t, tc.want, got, tc.meta)
		assert.Equal(t, tc.meta, got.Meta())
	}
	for _, bad := range []int{0, -1, -16035, 1000, 16000, 17000, 32000, 32767} {
		_, err := OreMeta(bad)
		assert.ErrorIs(t, err, proto17.ErrInvalid, bad)
	}
	assert.Equal(t, "material 35 stone 1 small true", Ore{Material: 35, Stone: 1, Small: true}.String())
}

func TestDecodeOres(t *testing.T) {
	// A small copper ore in netherrack at (100, 12, -200): meta 17035 = 0x428b.
	body := unhex(t, `00000064 000c ffffff38 428b`)
	got, err := DecodeOres(body)
	require.NoError(t, err)
	assert.Equal(t, OreUpdate{X: 100, Y: 12, Z: -200, Ore: Ore{Material: 35, Stone: 1, Small: true}}, got)

	u := OreUpdate{X: -1, Y: 5, Z: 1, Ore: Ore{Material: 824, Stone: 6}}
	got, err = DecodeOres(encOres(u))
	require.NoError(t, err)
	assert.Equal(t, u, got)

	at := fieldsAt(4, "x", 2, "y", 4, "z", 2, "meta")
	for n := 0; n < len(body); n++ {
		_, err := DecodeOres(body[:n])
		requireDecodeErr(t, err, proto17.ErrTruncated, msgGTOres, at[n])
	}
	_, err = DecodeOres(append(body, 0))
	requireDecodeErr(t, err, proto17.ErrTrailing, msgGTOres, "end")
	pe := requireDecodeErr(t, mustErr(DecodeOres(unhex(t, `00000064 000c ffffff38 0000`))), proto17.ErrInvalid, msgGTOres, "meta")
	assert.Equal(t, 10, pe.Offset)
	_, err = DecodeOres(unhex(t, `00000064 000c ffffff38 ffff`))
	requireDecodeErr(t, err, proto17.ErrInvalid, msgGTOres, "meta")
}

// allocBytes is the heap one call of f allocates, averaged over runs.
func allocBytes(f func()) uint64 {
	const runs = 20
	var before, after runtime.MemStats
	f()
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / runs
}

func mustErr[T any](_ T, err error) error { return err }

func TestDecodeGregTech(t *testing.T) {
	f, err := GregTechFormats("5.09.51.482")
	require.NoError(t, err)

	m, err := DecodeGregTech(append([]byte{GTTileEntity}, encTile(boiler, TileLayoutCompact)...), f)
	require.NoError(t, err)
	require.NotNil(t, m.Tile)
	assert.Equal(t, boiler, *m.Tile)
	assert.Nil(t, m.Events)

	m, err = DecodeGregTech(append([]byte{GTBlockEvent}, encEventsBatched(0, []BlockEvent{{X: 1}})...), f)
	require.NoError(t, err)
	require.NotNil(t, m.Events)
	assert.Len(t, m.Events.Events, 1)

	m, err = DecodeGregTech(append([]byte{GTOres}, encOres(OreUpdate{Ore: Ore{Material: 57}})...), f)
	require.NoError(t, err)
	require.NotNil(t, m.Ore)
	assert.Equal(t, 57, m.Ore.Ore.Material)

	m, err = DecodeGregTech([]byte{GTSound, 1, 2, 3}, f)
	require.NoError(t, err)
	assert.True(t, m.Skipped)
	assert.Equal(t, GTSound, m.ID)

	_, err = DecodeGregTech(nil, f)
	requireDecodeErr(t, err, proto17.ErrTruncated, msgGregTech, "id")

	// Errors count offsets from the start of the payload (the id byte is 0).
	_, err = DecodeGregTech(append([]byte{GTTileEntity}, encTile(boiler, TileLayoutRID)...), f)
	pe := requireDecodeErr(t, err, proto17.ErrTrailing, msgGTTile, "end")
	assert.Equal(t, 41, pe.Offset)

	// The 2.7 formats decode the 2.7 layout.
	old, err := GregTechFormats("5.09.50.119")
	require.NoError(t, err)
	m, err = DecodeGregTech(append([]byte{GTTileEntity}, encTile(boiler, TileLayoutRID)...), old)
	require.NoError(t, err)
	assert.Equal(t, boiler, *m.Tile)

	_, err = DecodeGregTech(append([]byte{GTOres}, encOres(OreUpdate{Ore: Ore{Material: 57}})...), GTFormats{})
	requireDecodeErr(t, err, proto17.ErrInvalid, msgGTOres, "id")
}
