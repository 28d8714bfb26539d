package modnet

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrUnknownVersion means a mod version is outside the range whose wire
// formats are known. Callers must not decode that mod's messages.
var ErrUnknownVersion = errors.New("unknown mod version")

// TileLayout is the layout of GregTech's TILE_ENTITY message.
type TileLayout uint8

const (
	// TileLayoutNone is the zero value: no layout chosen.
	TileLayoutNone TileLayout = iota
	// TileLayoutRID is the layout before GregTech 5.09.51.263: an i16
	// registry id before the meta tile entity id and a texture-page byte
	// after the common byte (43 bytes of body).
	TileLayoutRID
	// TileLayoutCompact is the layout from 5.09.51.263 (GT5-Unofficial PR
	// #4173) on: no registry id, no texture page (40 bytes of body).
	TileLayoutCompact
)

// String names the layout.
func (l TileLayout) String() string {
	switch l {
	case TileLayoutRID:
		return "rid"
	case TileLayoutCompact:
		return "compact"
	}
	return "none"
}

// BlockEventLayout is the layout of GregTech's BLOCK_EVENT message.
type BlockEventLayout uint8

const (
	// BlockEventNone is the zero value: no layout chosen.
	BlockEventNone BlockEventLayout = iota
	// BlockEventSingle is one event per message (i32 x, i16 y, i32 z, u8
	// event, u8 value), before GregTech 5.09.51.351.
	BlockEventSingle
	// BlockEventBatched is one message per dimension and server tick with
	// packed positions, from 5.09.51.351 (GT5-Unofficial PR #4491) on.
	BlockEventBatched
)

// String names the layout.
func (l BlockEventLayout) String() string {
	switch l {
	case BlockEventSingle:
		return "single"
	case BlockEventBatched:
		return "batched"
	}
	return "none"
}

// OreSource says where a GregTech ore's material is found.
type OreSource uint8

const (
	// OreSourceNone is the zero value: not chosen.
	OreSourceNone OreSource = iota
	// OreSourcePacket: gregtech:gt.blockores is a tile entity whose block
	// metadata is only the harvest level; the material arrives in the ORES
	// message (GregTech up to the 5.09.51 line, GTNH up to 2.8.4).
	OreSourcePacket
	// OreSourceMetadata: the ore blocks gregtech:gt.blockores2 …
	// gt.blockores7 carry the material, stone and small flag in their block
	// metadata (NotEnoughIds' 16 bits) and have no tile entity (GregTech
	// 5.09.52.25 on, GT5-Unofficial's ore refactor; see OreFromBlock).
	OreSourceMetadata
)

// String names the source.
func (s OreSource) String() string {
	switch s {
	case OreSourcePacket:
		return "packet"
	case OreSourceMetadata:
		return "metadata"
	}
	return "none"
}

// GTVersion is a parsed GregTech (GT5-Unofficial) version, as the mod list
// carries it: "5.09.51.482", or "5.09.51.352-pre" for a pre-release.
type GTVersion struct {
	Major, Minor, Line, Build int
	Pre                       bool
}

// String formats the version as the mod list does.
func (v GTVersion) String() string {
	s := fmt.Sprintf("%d.%02d.%02d.%d", v.Major, v.Minor, v.Line, v.Build)
	if v.Pre {
		s += "-pre"
	}
	return s
}

// ParseGTVersion parses a GregTech version string. Anything but four
// dot-separated decimal numbers with an optional "-pre" suffix is an error.
func ParseGTVersion(s string) (GTVersion, error) {
	var v GTVersion
	body, pre := strings.CutSuffix(s, "-pre")
	v.Pre = pre
	parts := strings.Split(body, ".")
	if len(parts) != 4 {
		return GTVersion{}, fmt.Errorf("gregtech version %q: want four dot-separated numbers", s)
	}
	nums := [4]*int{&v.Major, &v.Minor, &v.Line, &v.Build}
	for i, p := range parts {
		if p == "" || len(p) > 6 || strings.TrimLeft(p, "0123456789") != "" {
			return GTVersion{}, fmt.Errorf("gregtech version %q: part %d %q is not a number", s, i+1, p)
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return GTVersion{}, fmt.Errorf("gregtech version %q: part %d: %w", s, i+1, err)
		}
		*nums[i] = n
	}
	return v, nil
}

// GTFormats are the GregTech wire formats of one server.
//
// On the 5.09.52 line only the ores are read (OreSourceMetadata): Tile and
// BlockEvent are TileLayoutNone and BlockEventNone, and GregTech's channel
// messages are for the client to skip until their formats are sourced.
type GTFormats struct {
	Version    GTVersion
	Tile       TileLayout
	BlockEvent BlockEventLayout
	Ores       OreSource
}

// Messages reports whether GregTech's channel messages are read in these
// formats (false on the 5.09.52 line, whose ores come from block metadata).
func (f GTFormats) Messages() bool {
	return f.Tile != TileLayoutNone && f.BlockEvent != BlockEventNone
}

// Known GregTech builds. The boundaries come from the GTNH release
// changelogs (GTNewHorizons/DreamAssemblerXXL, releases/changelogs), which
// name the first build carrying each pull request; see docs/gtnh-protocol.md.
const (
	gtFirstKnown50     = 28  // 5.09.50.28: after the packet refactors of 5.09.50.21 and .28
	gtCompactTile      = 263 // 5.09.51.263: PR #4173 dropped RID and texture page
	gtBatchedEvents    = 351 // 5.09.51.351: PR #4491 buffered block events
	gtLastKnown51      = 482 // 5.09.51.482: GTNH 2.8.3 and 2.8.4
	gtLine50, gtLine51 = 50, 51
	// gtLine52 is the line of GT5-Unofficial's ore refactor ("Refactor ore
	// and worldgen", PRs #3662 and #4984): from 5.09.52.25(-pre) the ores
	// are GTBlockOre blocks whose metadata names the material.
	gtLine52      = 52
	gtOreRefactor = 25
)

// GregTechFormats maps the GregTech version from the server's mod list to the
// wire formats it uses. It fails closed: a version outside the known range
// (before 5.09.50.28, the 5.09.52 line and later with its ore and network
// rewrites before 5.09.52.25, after 5.09.51.482, any later line) or a
// pre-release at a format boundary is an error wrapping ErrUnknownVersion.
// From 5.09.52.25 on only the ore source is known (OreSourceMetadata).
func GregTechFormats(version string) (GTFormats, error) {
	v, err := ParseGTVersion(version)
	if err != nil {
		return GTFormats{}, fmt.Errorf("%w: %w", ErrUnknownVersion, err)
	}
	f := GTFormats{Version: v, Ores: OreSourcePacket}
	if v.Major != 5 || v.Minor != 9 {
		return GTFormats{}, unknownGT(v, "only the 5.09 series is known")
	}
	switch v.Line {
	case gtLine50:
		if v.Build < gtFirstKnown50 {
			return GTFormats{}, unknownGT(v, "builds before 5.09.50.28 are not known")
		}
		f.Tile, f.BlockEvent = TileLayoutRID, BlockEventSingle
	case gtLine51:
		if v.Build > gtLastKnown51 {
			return GTFormats{}, unknownGT(v, "builds after 5.09.51.482 are not known")
		}
		// A pre-release numbered at a boundary may be built before or after
		// the change: refuse it rather than guess.
		if v.Pre && (v.Build == gtCompactTile || v.Build == gtBatchedEvents) {
			return GTFormats{}, unknownGT(v, "a pre-release at a format boundary is ambiguous")
		}
		f.Tile = TileLayoutRID
		if v.Build >= gtCompactTile {
			f.Tile = TileLayoutCompact
		}
		f.BlockEvent = BlockEventSingle
		if v.Build >= gtBatchedEvents {
			f.BlockEvent = BlockEventBatched
		}
	case gtLine52:
		if v.Build < gtOreRefactor {
			return GTFormats{}, unknownGT(v, "5.09.52 builds before the ore refactor (5.09.52.25) are not known")
		}
		// Only the ores: the tile and block-event formats of this line are
		// not sourced, so its messages are skipped.
		f.Ores = OreSourceMetadata
	default:
		return GTFormats{}, unknownGT(v, "only the 5.09.50, 5.09.51 and 5.09.52 lines are known")
	}
	return f, nil
}

func unknownGT(v GTVersion, why string) error {
	return fmt.Errorf("%w: gregtech %s: %s", ErrUnknownVersion, v, why)
}
