package modnet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGregTechFormats(t *testing.T) {
	tests := []struct {
		version string
		tile    TileLayout
		events  BlockEventLayout
	}{
		// GTNH 2.7.x (DreamAssemblerXXL releases/manifests/2.7.*.json).
		{"5.09.50.103", TileLayoutRID, BlockEventSingle},
		{"5.09.50.119", TileLayoutRID, BlockEventSingle},
		{"5.09.50.28", TileLayoutRID, BlockEventSingle},
		// The 5.09.51 line around PR #4173 (5.09.51.263) and #4491 (.351).
		{"5.09.51.0", TileLayoutRID, BlockEventSingle},
		{"5.09.51.262", TileLayoutRID, BlockEventSingle},
		{"5.09.51.263", TileLayoutCompact, BlockEventSingle},
		{"5.09.51.350", TileLayoutCompact, BlockEventSingle},
		{"5.09.51.351", TileLayoutCompact, BlockEventBatched},
		{"5.09.51.352-pre", TileLayoutCompact, BlockEventBatched},
		{"5.09.51.262-pre", TileLayoutRID, BlockEventSingle},
		// GTNH 2.8.0 to 2.8.4.
		{"5.09.51.470", TileLayoutCompact, BlockEventBatched},
		{"5.09.51.482", TileLayoutCompact, BlockEventBatched},
	}
	for _, tc := range tests {
		t.Run(tc.version, func(t *testing.T) {
			f, err := GregTechFormats(tc.version)
			require.NoError(t, err)
			assert.Equal(t, tc.tile, f.Tile)
			assert.Equal(t, tc.events, f.BlockEvent)
			assert.Equal(t, OreSourcePacket, f.Ores)
			assert.Equal(t, tc.version, f.Version.String())
		})
	}
}

func TestGregTechFormatsOreRefactorLine(t *testing.T) {
	for _, v := range []string{"5.09.52.25-pre", "5.09.52.25", "5.09.52.594"} {
		t.Run(v, func(t *testing.T) {
			f, err := GregTechFormats(v)
			require.NoError(t, err)
			assert.Equal(t, OreSourceMetadata, f.Ores)
			assert.Equal(t, "metadata", f.Ores.String())
			assert.False(t, f.Messages(), "5.09.52 tile and event formats are not sourced")
		})
	}
	f, err := GregTechFormats("5.09.51.482")
	require.NoError(t, err)
	assert.True(t, f.Messages())
	assert.Equal(t, OreSourcePacket, f.Ores)
}

func TestGregTechFormatsFailClosed(t *testing.T) {
	for _, v := range []string{
		"",
		"5.09.51",
		"5.09.51.482.1",
		"5.09.51.x",
		"5.09.51.-1",
		" 5.09.51.482",
		"5.09.51.482-dirty",
		"5.09.51.482-pre-pre",
		"5.09.51.1234567",
		"5.09.50.27",      // before the known 5.09.50 packet layout
		"5.09.49.100",     // older line
		"5.09.51.483",     // after the last known 5.09.51 build
		"5.09.52.24",      // 5.09.52 before the ore refactor
		"5.09.52.1-pre",   // 5.09.52 before the ore refactor
		"5.09.53.1",       // a later line
		"5.09.54.102",     // daily builds
		"6.00.00.1",       // another series
		"4.09.51.482",     // another series
		"5.10.51.482",     // another series
		"5.09.51.263-pre", // boundary pre-release
		"5.09.51.351-pre", // boundary pre-release
	} {
		t.Run(v, func(t *testing.T) {
			_, err := GregTechFormats(v)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrUnknownVersion)
		})
	}
}

func TestParseGTVersion(t *testing.T) {
	v, err := ParseGTVersion("5.09.51.482")
	require.NoError(t, err)
	assert.Equal(t, GTVersion{Major: 5, Minor: 9, Line: 51, Build: 482}, v)
	v, err = ParseGTVersion("5.09.51.352-pre")
	require.NoError(t, err)
	assert.Equal(t, GTVersion{Major: 5, Minor: 9, Line: 51, Build: 352, Pre: true}, v)
	assert.Equal(t, "5.09.51.352-pre", v.String())
	_, err = ParseGTVersion("5..51.1")
	assert.Error(t, err)
}

func TestLayoutNames(t *testing.T) {
	assert.Equal(t, "rid", TileLayoutRID.String())
	assert.Equal(t, "compact", TileLayoutCompact.String())
	assert.Equal(t, "none", TileLayoutNone.String())
	assert.Equal(t, "single", BlockEventSingle.String())
	assert.Equal(t, "batched", BlockEventBatched.String())
	assert.Equal(t, "none", BlockEventNone.String())
	assert.Equal(t, "packet", OreSourcePacket.String())
	assert.Equal(t, "none", OreSourceNone.String())
}
