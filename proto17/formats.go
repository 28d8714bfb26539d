package proto17

import (
	"fmt"
	"strconv"
	"strings"
)

// Mod ids whose presence changes the wire format.
const (
	ModNEID       = "neid"       // NotEnoughIds: 16-bit block ids and metadata in chunks and block changes
	ModModularUI  = "modularui"  // ModularUI: a VarInt real count after every item stack
	ModModularUI2 = "modularui2" // ModularUI2: the item-stack count byte becomes a VarInt
)

// ModInfo is one entry of a Forge mod list, as the server-list ping's
// modinfo.modList and the FML|HS ModList message carry it.
type ModInfo struct {
	ModID   string `json:"modid"`
	Version string `json:"version"`
}

// Formats are the wire-format switches mods on the server turn on. They are
// decided from the server's mod list (FormatsFromMods), never guessed from
// packet contents: both formats of a chunk are valid byte strings.
type Formats struct {
	// NEID: NotEnoughIds 2.1.2 or later. Chunk sections carry big-endian u16
	// block ids and u16 metadata (no add arrays), Multi Block Change records
	// are 6 bytes (u16 position, u16 id, u16 meta) and Block Change metadata
	// is a u16.
	NEID bool
	// ModularUI: every non-empty item stack on the wire (windows, set slot,
	// entity metadata, block placement, window clicks) is followed by a VarInt
	// holding the real stack size (ModularUI's PacketBuffer mixin).
	ModularUI bool
	// ModularUI2: ModularUI2 2.0.9 and later rewrite the stack's count byte
	// into a VarInt (an ASM transformer on PacketBuffer). GTNH 2.8 ships it
	// beside ModularUI, so a GTNH stack reads: i16 id, VarInt count, i16
	// damage, NBT, VarInt count. Counts below 128 look the same either way.
	ModularUI2 bool
}

// String lists the switches.
func (f Formats) String() string {
	return fmt.Sprintf("formats{neid=%t, modularui=%t, modularui2=%t}", f.NEID, f.ModularUI, f.ModularUI2)
}

// neidMin and neidMax are the NotEnoughIds releases whose formats
// Formats.NEID describes (GTNewHorizons/NotEnoughIds, tags 1.4.3.4 to
// 2.1.10). 1.x sent 16-bit ids with nibble metadata; 2.0.0 introduced 16-bit
// metadata in chunks and multi block changes (Constants.BITS_PER_METADATA);
// 2.1.2 the u16 metadata of Block Change (MixinS23PacketBlockChange, "Handle
// block change packets properly for metadata"); 2.1.9 remaps ids on the
// server before writing (ClientBlockTransformerRegistry) in the same layout.
// 2.1.10 is the newest release read: a later one may change the layout again
// — 2.1.2 did so in a patch release — so it is refused rather than guessed.
var (
	neidMin = [3]int{2, 1, 2}
	neidMax = [3]int{2, 1, 10}
)

// ModEndlessIDs is EndlessIDs (GTMEGA/EndlessIDs), which widens block ids,
// metadata and biome ids (a short[] biome array per chunk) in its own chunk
// format; FormatsFromMods refuses it.
const ModEndlessIDs = "endlessids"

// modularUI2Min is the first ModularUI2 release that writes the count as a
// VarInt in place of the byte; earlier ones appended a VarInt like ModularUI.
var modularUI2Min = [3]int{2, 0, 9}

// FormatsFromMods decides the formats from a server's mod list (mod ids are
// matched exactly, as Forge does). It fails for NotEnoughIds and ModularUI2
// versions whose formats differ from the ones implemented here or are not
// known (NotEnoughIds newer than the newest release read), for EndlessIDs,
// and for version strings it cannot read, rather than decode in a guessed
// layout; the error names the mod and its version. (A client that knows
// better can set the formats itself: gtnh.Config.Formats.)
// ModularUI's trailing count was checked from 1.0.70 to 1.3.x; its version
// is not checked.
func FormatsFromMods(mods []ModInfo) (Formats, error) {
	var f Formats
	for _, m := range mods {
		switch m.ModID {
		case ModNEID:
			v, ok := parseVersion(m.Version)
			if !ok {
				return Formats{}, fmt.Errorf("proto17: cannot read NotEnoughIds version %q; its chunk format depends on it", m.Version)
			}
			if less(v, neidMin) {
				return Formats{}, fmt.Errorf("proto17: NotEnoughIds %s is not supported: its chunk and block-change formats differ from %s and later", m.Version, versionString(neidMin))
			}
			if less(neidMax, v) {
				return Formats{}, fmt.Errorf("proto17: NotEnoughIds %s is not supported: it is newer than %s, the newest release whose chunk format is known, and may lay chunks out differently", m.Version, versionString(neidMax))
			}
			f.NEID = true
		case ModEndlessIDs:
			return Formats{}, fmt.Errorf("proto17: EndlessIDs %s is not supported: its chunk format (wider block ids and 16-bit biomes) is not implemented", m.Version)
		case ModModularUI:
			f.ModularUI = true
		case ModModularUI2:
			v, ok := parseVersion(m.Version)
			if !ok {
				return Formats{}, fmt.Errorf("proto17: cannot read ModularUI2 version %q; its item-stack format depends on it", m.Version)
			}
			if less(v, modularUI2Min) {
				return Formats{}, fmt.Errorf("proto17: ModularUI2 %s is not supported: before %d.%d.%d it appended the stack count instead of widening it", m.Version, modularUI2Min[0], modularUI2Min[1], modularUI2Min[2])
			}
			f.ModularUI2 = true
		}
	}
	return f, nil
}

// parseVersion reads the leading major.minor.patch numbers of a version
// string ("2.1.10", "2.1.10-pre", "2.1.11+3-abc"); missing parts are 0.
func parseVersion(s string) ([3]int, bool) {
	var v [3]int
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	parts := strings.SplitN(s, ".", 3)
	for i, p := range parts {
		end := 0
		for end < len(p) && p[end] >= '0' && p[end] <= '9' {
			end++
		}
		if end == 0 {
			if i == 0 {
				return v, false
			}
			break
		}
		n, err := strconv.Atoi(p[:end])
		if err != nil {
			return v, false
		}
		v[i] = n
		if end < len(p) {
			break
		}
	}
	return v, true
}

func versionString(v [3]int) string {
	return fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2])
}

func less(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
