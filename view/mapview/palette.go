package mapview

import (
	"fmt"
	"image/color"
	"slices"
	"strings"
	"sync"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Kinds of column, the names a Look carries. A page may key its own styling
// on them; the colours below are the palette both the PNG and the page use.
const (
	KindUnknown   = "unknown"   // the column is not loaded: nothing is known there
	KindVoid      = "void"      // loaded, and only air down to the bottom of the world
	KindGrass     = "grass"     // grass, mycelium, podzol
	KindDirt      = "dirt"      // dirt, farmland
	KindStone     = "stone"     // stone, cobblestone, the stones of mods
	KindSand      = "sand"      // sand, sandstone
	KindGravel    = "gravel"    //
	KindClay      = "clay"      // clay, hardened clay
	KindLog       = "log"       // logs and wood
	KindLeaves    = "leaves"    //
	KindPlant     = "plant"     // tall grass, flowers, saplings, crops
	KindWater     = "water"     // still and flowing
	KindLava      = "lava"      // still and flowing
	KindSnow      = "snow"      // snow and snow layers
	KindIce       = "ice"       //
	KindOre       = "ore"       // an ore; its Look's label names the material
	KindMachine   = "machine"   // a machine the world model knows, or a machine block
	KindContainer = "container" // a chest, a furnace, a tank
	KindBedrock   = "bedrock"   //
	KindBlock     = "block"     // any other block
)

// Look is how one kind of column is drawn: its kind, a label for a legend
// ("Copper ore", "coke_oven") and its colour as "#rrggbb".
type Look struct {
	Kind  string `json:"kind"`
	Label string `json:"label"`
	Color string `json:"color"`
}

// RGBA is the look's colour (opaque black when Color is malformed).
func (l Look) RGBA() color.RGBA {
	var r, g, b uint8
	if _, err := fmt.Sscanf(l.Color, "#%02x%02x%02x", &r, &g, &b); err != nil {
		return color.RGBA{A: 255}
	}
	return color.RGBA{r, g, b, 255}
}

// palette is the colour of each kind.
var palette = map[string]color.RGBA{
	KindUnknown:   {0x20, 0x20, 0x24, 255},
	KindVoid:      {0x00, 0x00, 0x00, 255},
	KindGrass:     {0x5b, 0x8c, 0x32, 255},
	KindDirt:      {0x86, 0x60, 0x43, 255},
	KindStone:     {0x7d, 0x7d, 0x7d, 255},
	KindSand:      {0xdb, 0xd3, 0xa0, 255},
	KindGravel:    {0x8a, 0x80, 0x7c, 255},
	KindClay:      {0xa0, 0xa6, 0xb3, 255},
	KindLog:       {0x66, 0x4e, 0x2c, 255},
	KindLeaves:    {0x2c, 0x5e, 0x1a, 255},
	KindPlant:     {0x74, 0xb0, 0x4c, 255},
	KindWater:     {0x30, 0x50, 0xd0, 255},
	KindLava:      {0xe8, 0x5a, 0x0a, 255},
	KindSnow:      {0xf2, 0xf6, 0xfa, 255},
	KindIce:       {0x9c, 0xc3, 0xff, 255},
	KindOre:       {0xd4, 0xa0, 0x17, 255},
	KindMachine:   {0xd0, 0x30, 0x6a, 255},
	KindContainer: {0x9b, 0x59, 0xb6, 255},
	KindBedrock:   {0x33, 0x33, 0x33, 255},
	KindBlock:     {0xa8, 0x94, 0x7c, 255},
}

// oreColors gives the common ores a colour of their own (the material as
// it looks in the game); other ores take the ore colour.
var oreColors = map[string]color.RGBA{
	"Coal":         {0x26, 0x26, 0x26, 255},
	"Lignite":      {0x4a, 0x3a, 0x2a, 255},
	"Iron":         {0xd8, 0xa2, 0x7a, 255},
	"Copper":       {0xc8, 0x6a, 0x2c, 255},
	"Tin":          {0xc8, 0xc8, 0xd8, 255},
	"Cassiterite":  {0xb0, 0xb0, 0xc8, 255},
	"Gold":         {0xff, 0xd7, 0x00, 255},
	"Silver":       {0xe0, 0xe8, 0xf0, 255},
	"Lead":         {0x8c, 0x78, 0xa8, 255},
	"Redstone":     {0xc8, 0x10, 0x10, 255},
	"Diamond":      {0x5d, 0xe0, 0xe6, 255},
	"Emerald":      {0x17, 0xdd, 0x62, 255},
	"Lapis":        {0x1f, 0x3f, 0xbf, 255},
	"Nickel":       {0xb8, 0xb8, 0x88, 255},
	"Galena":       {0x7a, 0x6a, 0x90, 255},
	"Uranium":      {0x50, 0xe0, 0x30, 255},
	"CertusQuartz": {0xc8, 0xd8, 0xf8, 255},
	"NetherQuartz": {0xf0, 0xe8, 0xe0, 255},
}

// hex writes a colour as "#rrggbb".
func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// KindColor returns the palette's colour of a kind (the colour of
// KindBlock for a name it does not know).
func KindColor(kind string) color.RGBA {
	if c, ok := palette[kind]; ok {
		return c
	}
	return palette[KindBlock]
}

// Kinds lists every kind with its colour, in a fixed order: a legend.
func Kinds() []Look {
	names := []string{KindGrass, KindDirt, KindStone, KindSand, KindGravel, KindClay, KindLog,
		KindLeaves, KindPlant, KindWater, KindLava, KindSnow, KindIce, KindOre, KindMachine,
		KindContainer, KindBedrock, KindBlock, KindVoid, KindUnknown}
	out := make([]Look, len(names))
	for i, n := range names {
		out[i] = Look{Kind: n, Label: n, Color: hex(palette[n])}
	}
	return out
}

// lookOf builds the look of a kind with a label, in the kind's colour.
func lookOf(kind, label string) Look {
	return Look{Kind: kind, Label: label, Color: hex(KindColor(kind))}
}

// Classify returns the look of a block: the machine kind when a machine of
// the world model stands there (machine non-empty), else by the block's tags
// and name. Ores are labelled with their material ("Copper ore"), from the
// ore dictionary tag the world model gives GregTech ores or from a vanilla
// ore's name.
func Classify(b world.Block, machine string) Look {
	if machine != "" {
		return lookOf(KindMachine, machine)
	}
	if b.IsAir() {
		return lookOf(KindVoid, KindVoid)
	}
	name := b.ID
	if _, n, ok := strings.Cut(name, ":"); ok {
		name = n
	}
	has := func(tags ...string) bool { return slices.ContainsFunc(tags, b.HasTag) }
	switch {
	case has("machine", "gregtech_machine", "multiblock", "coke_oven"):
		return lookOf(KindMachine, name)
	case has("container", "chest", "tank", "water_tank"):
		return lookOf(KindContainer, name)
	}
	if mat, ok := oreMaterial(b); ok {
		l := lookOf(KindOre, "ore")
		if mat != "" {
			l.Label = spaced(mat) + " ore"
			if c, ok := oreColors[mat]; ok {
				l.Color = hex(c)
			}
		}
		return l
	}
	kind := KindBlock
	switch {
	case has("water") || strings.Contains(name, "water"):
		kind = KindWater
	case has("lava") || strings.Contains(name, "lava"):
		kind = KindLava
	case has("grass") || name == "grass" || name == "mycelium":
		kind = KindGrass
	case has("dirt", "soil") || name == "farmland":
		kind = KindDirt
	case has("leaves") || strings.Contains(name, "leaves"):
		kind = KindLeaves
	case has("log", "wood") || strings.HasPrefix(name, "log"):
		kind = KindLog
	case has("plant", "sapling", "replaceable") || name == "reeds" || name == "cactus" || strings.Contains(name, "flower"):
		kind = KindPlant
	case has("sand") || strings.Contains(name, "sand"):
		kind = KindSand
	case has("gravel") || name == "gravel":
		kind = KindGravel
	case has("clay") || strings.Contains(name, "clay"):
		kind = KindClay
	case strings.HasPrefix(name, "snow"):
		kind = KindSnow
	case strings.Contains(name, "ice"):
		kind = KindIce
	case name == "bedrock":
		kind = KindBedrock
	case has("stone") || strings.Contains(name, "stone") || strings.Contains(name, "granite") ||
		strings.Contains(name, "marble") || strings.Contains(name, "basalt"):
		kind = KindStone
	}
	label := kind
	if kind == KindBlock {
		label = b.ID
	}
	return lookOf(kind, label)
}

// oreMaterial reports whether b is an ore and its material ("Copper"; empty
// when the ore's material is not known, as for a GregTech ore whose tile
// data has not arrived).
func oreMaterial(b world.Block) (string, bool) {
	for _, t := range b.Tags {
		if m, ok := materialOfOreTag(t); ok {
			return m, true
		}
	}
	name := b.ID
	if _, n, ok := strings.Cut(name, ":"); ok {
		name = n
	}
	if base, ok := strings.CutSuffix(name, "_ore"); ok {
		base = strings.TrimPrefix(base, "lit_")
		return camel(base), true
	}
	if b.HasTag("ore") || strings.Contains(name, "blockores") {
		return "", true
	}
	return "", false
}

// materialOfOreTag reads the material out of an ore dictionary name of an
// ore block: "ore:oreCopper", "ore:oreNetherrackCopper" and
// "ore:oreSmallCopper" are copper. The prefixes are GregTech's, as
// config/gregtech.yaml lists them.
func materialOfOreTag(tag string) (string, bool) {
	rest, ok := strings.CutPrefix(tag, "ore:")
	if !ok {
		return "", false
	}
	best := ""
	if slices.Contains(orePrefixes(), rest) {
		return "", false // a prefix alone ("ore:oreSmall") names no material
	}
	for _, p := range orePrefixes() {
		if strings.HasPrefix(rest, p) && len(p) > len(best) && len(rest) > len(p) && unicode.IsUpper(rune(rest[len(p)])) {
			best = p
		}
	}
	if best == "" {
		return "", false
	}
	return rest[len(best):], true
}

// orePrefixes are the ore dictionary prefixes of ore blocks: the stones'
// (ore, oreNetherrack, …), small ores' and other stones'.
var orePrefixes = sync.OnceValue(func() []string {
	prefixes := []string{"ore"}
	data, err := config.FS.ReadFile("gregtech.yaml")
	if err != nil {
		return prefixes
	}
	var f struct {
		Ores struct {
			Stones            map[int]string `yaml:"stones"`
			SmallPrefix       string         `yaml:"small_prefix"`
			OtherStonesPrefix string         `yaml:"other_stones_prefix"`
		} `yaml:"ores"`
	}
	if yaml.Unmarshal(data, &f) != nil {
		return prefixes
	}
	for _, p := range f.Ores.Stones {
		prefixes = append(prefixes, p)
	}
	prefixes = append(prefixes, f.Ores.SmallPrefix, f.Ores.OtherStonesPrefix)
	return slices.Compact(slices.Sorted(slices.Values(slices.DeleteFunc(prefixes, func(s string) bool { return s == "" }))))
})

// camel turns "lapis" or "nether_quartz" into "Lapis", "NetherQuartz".
func camel(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if r == '_' {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// spaced turns "GreenSapphire" into "Green Sapphire".
func spaced(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Shade is the brightness factor of a column at height y whose northern
// neighbour (z-1) is at northY, as maps in the game shade slopes: a column
// higher than its northern neighbour is lighter, a lower one darker, by 6 %
// a block, between 0.7 and 1.3. A column with nothing north of it (the
// map's edge, an unknown column) has no slope: pass northY = y.
func Shade(y, northY int) float64 {
	f := 1 + 0.06*float64(y-northY)
	return min(max(f, 0.7), 1.3)
}

// shaded scales a colour by a Shade factor.
func shaded(c color.RGBA, f float64) color.RGBA {
	s := func(v uint8) uint8 { return uint8(min(255, float64(v)*f+0.5)) }
	return color.RGBA{s(c.R), s(c.G), s(c.B), c.A}
}
