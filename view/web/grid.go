package web

import (
	"fmt"
	"hash/fnv"
	"strings"
	"unicode"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// Bounds of a map request.
const (
	// MaxRadius is the largest map radius, in blocks (a square of
	// 2·MaxRadius+1 columns on a side).
	MaxRadius = 64
	// DefaultRadius is the radius the page asks for first.
	DefaultRadius = 48
	// MaxOres bounds the ores marked on one map.
	MaxOres = 256
	topY    = 255
)

// Look is how one kind of block is drawn: a kind, a label and a colour.
type Look struct {
	Kind  string `json:"kind"`
	Label string `json:"label"`
	Color string `json:"color"`
}

// OreMark is an ore on the map, named as GregTech's ore dictionary names
// it when the server said so ("Copper ore"), else by its block.
type OreMark struct {
	Pos  world.BlockPos `json:"pos"`
	Name string         `json:"name"`
}

// Grid is the world from above: for each column in a square, the top
// block at or below MaxY and its height. Columns run west to east, then
// north to south: column (x, z) is index (z−Z0)·W + (x−X0). A K of −1 is
// a column the world model does not know (or void to MaxY).
type Grid struct {
	X0    int       `json:"x0"`
	Z0    int       `json:"z0"`
	W     int       `json:"w"`
	H     int       `json:"h"`
	MaxY  int       `json:"max_y"`
	Looks []Look    `json:"looks"`
	K     []int     `json:"k"`
	Y     []int     `json:"y"`
	Ores  []OreMark `json:"ores"`
}

// ColumnGrid reads the columns within r blocks of (cx, cz) (r is clamped
// to 1..MaxRadius) from the top of the world, or from maxY down when
// maxY < 255 (a depth slice that shows what lies under it).
func ColumnGrid(s *world.Snapshot, cx, cz, r, maxY int) Grid {
	r = min(max(r, 1), MaxRadius)
	maxY = min(max(maxY, 0), topY)
	side := 2*r + 1
	g := Grid{X0: cx - r, Z0: cz - r, W: side, H: side, MaxY: maxY,
		Looks: []Look{}, K: make([]int, side*side), Y: make([]int, side*side), Ores: []OreMark{}}
	looks := map[string]int{}
	for i := range g.K {
		g.K[i] = -1
	}
	if s == nil || s.Blocks == nil {
		return g
	}
	for dz := range side {
		for dx := range side {
			x, z := g.X0+dx, g.Z0+dz
			if !s.Known(world.BlockPos{X: x, Y: 0, Z: z}) {
				continue
			}
			for y := maxY; y >= 0; y-- {
				b := s.BlockAt(world.BlockPos{X: x, Y: y, Z: z})
				if b.IsAir() {
					continue
				}
				key := fmt.Sprintf("%s:%d", b.ID, b.Meta)
				k, ok := looks[key]
				if !ok {
					k = len(g.Looks)
					looks[key] = k
					g.Looks = append(g.Looks, LookOf(b))
				}
				i := dz*side + dx
				g.K[i], g.Y[i] = k, y
				break
			}
		}
	}
	center := world.BlockPos{X: cx, Y: min(maxY, 64), Z: cz}
	hits := s.Blocks.Nearest(center, r+64, 0, isOre)
	for _, h := range hits {
		if len(g.Ores) >= MaxOres {
			break
		}
		if h.Pos.Y > maxY || h.Pos.X < g.X0 || h.Pos.X >= g.X0+side || h.Pos.Z < g.Z0 || h.Pos.Z >= g.Z0+side {
			continue
		}
		g.Ores = append(g.Ores, OreMark{Pos: h.Pos, Name: OreName(h.Block)})
	}
	return g
}

func isOre(b world.Block) bool {
	if b.HasTag("ore") {
		return true
	}
	for _, t := range b.Tags {
		if strings.HasPrefix(t, "ore:ore") {
			return true
		}
	}
	return strings.HasSuffix(b.ID, "_ore") || strings.Contains(b.ID, "blockores")
}

// OreName names an ore block: from its ore dictionary tag
// ("ore:oreCopper" is "Copper ore"), else from its id.
func OreName(b world.Block) string {
	for _, t := range b.Tags {
		if m, ok := strings.CutPrefix(t, "ore:ore"); ok && m != "" {
			return spaced(m) + " ore"
		}
	}
	id := b.ID
	if i := strings.IndexByte(id, ':'); i >= 0 {
		id = id[i+1:]
	}
	return strings.ReplaceAll(id, "_", " ")
}

// spaced puts a space before each capital of a camel-case name after the
// first ("BrownLimonite": "Brown Limonite").
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

// kinds are the block kinds the map colours, by a word of the block id,
// first match wins.
var kinds = []struct {
	word, kind, color string
}{
	{"water", "water", "#3f6fd8"},
	{"lava", "lava", "#e0661c"},
	{"leaves", "leaves", "#3b7d2b"},
	{"log", "log", "#6b5130"},
	{"grass", "grass", "#6fa544"},
	{"tallgrass", "grass", "#6fa544"},
	{"flower", "grass", "#6fa544"},
	{"sand", "sand", "#dcd29b"},
	{"gravel", "gravel", "#8a8079"},
	{"dirt", "dirt", "#866043"},
	{"farmland", "dirt", "#866043"},
	{"snow", "snow", "#f2fbfb"},
	{"ice", "ice", "#9fbaf5"},
	{"clay", "clay", "#a0a6b3"},
	{"cobblestone", "cobblestone", "#6b6b6b"},
	{"bedrock", "bedrock", "#333333"},
	{"planks", "planks", "#a2834f"},
	{"stone", "stone", "#7d7d7d"},
	{"obsidian", "obsidian", "#1d1530"},
}

// LookOf is how a block is drawn: its kind by a word of its id (water,
// lava, grass, stone, …), ores in gold, and other blocks in a colour of
// their own derived from the id.
func LookOf(b world.Block) Look {
	label := b.ID
	if b.Meta != 0 {
		label = fmt.Sprintf("%s:%d", b.ID, b.Meta)
	}
	if isOre(b) {
		return Look{Kind: "ore", Label: OreName(b), Color: "#d9a520"}
	}
	name := b.ID
	if i := strings.IndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	name = strings.ToLower(name)
	for _, k := range kinds {
		if strings.Contains(name, k.word) {
			return Look{Kind: k.kind, Label: label, Color: k.color}
		}
	}
	h := fnv.New32a()
	h.Write([]byte(b.ID))
	v := h.Sum32()
	// A muted colour: each channel 64..191.
	return Look{Kind: "other", Label: label, Color: fmt.Sprintf("#%02x%02x%02x", 64+v&0x7f, 64+(v>>8)&0x7f, 64+(v>>16)&0x7f)}
}
