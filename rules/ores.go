package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// OreMaterial is a GregTech material an ore block is made of: its id (the
// ore block's material index), the harvest level its ores ask for (the
// tool quality) and what the furnace makes of its raw ore.
type OreMaterial struct {
	Name        string
	ID          int
	ToolQuality int
	SmeltsInto  string // "modid:name[:meta]"; "" when not smelted
	SmeltCount  int
}

// OreMix is one of GregTech's ore mixes: a vein's heights, how often it is
// drawn, how dense and wide it is, and its four materials.
type OreMix struct {
	Name                                  string
	MinY, MaxY                            int
	Weight, Density, Size                 int
	Primary, Secondary, Between, Sporadic string
}

// VeinGrid is how GregTech spreads veins over the chunks (config/ores.yaml
// veins).
type VeinGrid struct {
	Grid              int // a seed chunk's x and z are 1 modulo Grid
	Percentage        int // the chance in 100 that a seed chunk has a vein
	Attempts          int // mixes drawn at most for one seed
	PlacementAttempts int // failed placements before the seed stays empty
	SmallOres         int // the vein placer's small ores multiplier (0: none)
}

// Ores is GregTech's ore table (config/ores.yaml): the ore block, the raw
// ore items, the materials, and the overworld's ore mixes.
type Ores struct {
	Block       string // the ore block's id ("gregtech:gt.blockores")
	RawItem     string // the raw ore item's id; its meta is RawOffset + material id
	RawOffset   int
	SmallPrefix string // the ore dictionary prefix of small ores ("oreSmall")
	Veins       VeinGrid
	materials   map[string]OreMaterial
	unplaced    map[string]bool
	mixes       []OreMix
}

// ParseOres reads an ore data file (see config/ores.yaml).
func ParseOres(file string, data []byte) (*Ores, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	t := &Ores{materials: map[string]OreMaterial{}, unplaced: map[string]bool{}}
	keys := []string{"block", "raw_ore", "small_ore_tag", "veins", "materials", "unplaced", "mixes"}
	top := d.Mapping(root, "", keys)
	d.Require(root, "", top, keys...)
	id := func(key string) string {
		f, ok := top[key]
		if !ok {
			return ""
		}
		s, ok := d.String(f.Value, key)
		if !ok {
			return ""
		}
		if _, meta, err := game.SplitID(s); err != nil || meta >= 0 {
			d.Errorf(f.Value, key, "an id without meta (modid:name), got %q", s)
		}
		return s
	}
	t.Block = id("block")
	intIn := func(f strictyaml.Field, path string, lo, hi int) int {
		n, ok := d.Int(f.Value, path)
		if ok && (n < lo || n > hi) {
			d.Errorf(f.Value, path, "must be within %d..%d, got %d", lo, hi, n)
		}
		return n
	}
	if f, ok := top["raw_ore"]; ok {
		rf := d.Mapping(f.Value, "raw_ore", []string{"item", "offset"})
		d.Require(f.Value, "raw_ore", rf, "item", "offset")
		if v, ok := rf["item"]; ok {
			if s, ok := d.String(v.Value, "raw_ore.item"); ok {
				if _, meta, err := game.SplitID(s); err != nil || meta >= 0 {
					d.Errorf(v.Value, "raw_ore.item", "an item id without meta (modid:name), got %q", s)
				}
				t.RawItem = s
			}
		}
		if v, ok := rf["offset"]; ok {
			t.RawOffset = intIn(v, "raw_ore.offset", 0, 31000)
		}
	}
	if f, ok := top["small_ore_tag"]; ok {
		if s, ok := d.String(f.Value, "small_ore_tag"); ok {
			if s == "" || strings.ContainsAny(s, ": ") {
				d.Errorf(f.Value, "small_ore_tag", "an ore dictionary prefix, got %q", s)
			}
			t.SmallPrefix = s
		}
	}
	if f, ok := top["veins"]; ok {
		vk := []string{"grid", "percentage", "attempts", "placement_attempts", "small_ores_multiplier"}
		vf := d.Mapping(f.Value, "veins", vk)
		d.Require(f.Value, "veins", vf, vk...)
		get := func(k string, lo, hi int) int {
			if v, ok := vf[k]; ok {
				return intIn(v, "veins."+k, lo, hi)
			}
			return 0
		}
		t.Veins = VeinGrid{
			Grid:              get("grid", 1, 64),
			Percentage:        get("percentage", 0, 100),
			Attempts:          get("attempts", 1, 1024),
			PlacementAttempts: get("placement_attempts", 1, 1024),
			SmallOres:         get("small_ores_multiplier", 0, 64),
		}
	}
	ids := map[int]string{}
	if f, ok := top["materials"]; ok {
		for name, fld := range d.Mapping(f.Value, "materials", nil) {
			path := strictyaml.Join("materials", name)
			mf := d.Mapping(fld.Value, path, []string{"id", "tool_quality", "smelts_into", "count"})
			d.Require(fld.Value, path, mf, "id", "tool_quality")
			m := OreMaterial{Name: name, SmeltCount: 1}
			if v, ok := mf["id"]; ok {
				m.ID = intIn(v, path+".id", 1, 999)
				if other, dup := ids[m.ID]; dup {
					d.Errorf(v.Value, path+".id", "material id %d is %s's too", m.ID, other)
				}
				ids[m.ID] = name
			}
			if v, ok := mf["tool_quality"]; ok {
				m.ToolQuality = intIn(v, path+".tool_quality", 0, 7)
			}
			if v, ok := mf["smelts_into"]; ok {
				if s, ok := d.String(v.Value, path+".smelts_into"); ok {
					if _, _, err := game.SplitID(s); err != nil {
						d.Errorf(v.Value, path+".smelts_into", "%v", err)
					}
					m.SmeltsInto = s
				}
			}
			if v, ok := mf["count"]; ok {
				m.SmeltCount = intIn(v, path+".count", 1, 64)
				if _, has := mf["smelts_into"]; !has {
					d.Errorf(v.Value, path+".count", "a count needs smelts_into")
				}
			}
			t.materials[name] = m
		}
	}
	if f, ok := top["unplaced"]; ok {
		for i, n := range d.Sequence(f.Value, "unplaced") {
			path := strictyaml.Index("unplaced", i)
			if s, ok := d.String(n, path); ok {
				if _, known := t.materials[s]; known {
					d.Errorf(n, path, "%s is in materials too", s)
				}
				t.unplaced[s] = true
			}
		}
	}
	if f, ok := top["mixes"]; ok {
		names := map[string]bool{}
		for i, n := range d.Sequence(f.Value, "mixes") {
			path := strictyaml.Index("mixes", i)
			mk := []string{"name", "min_y", "max_y", "weight", "density", "size", "primary", "secondary", "between", "sporadic"}
			mf := d.Mapping(n, path, mk)
			d.Require(n, path, mf, mk...)
			var m OreMix
			if v, ok := mf["name"]; ok {
				m.Name, _ = d.String(v.Value, path+".name")
				if names[m.Name] {
					d.Errorf(v.Value, path+".name", "mix %q is listed twice", m.Name)
				}
				names[m.Name] = true
			}
			num := func(k string, lo, hi int) int {
				if v, ok := mf[k]; ok {
					return intIn(v, path+"."+k, lo, hi)
				}
				return 0
			}
			m.MinY, m.MaxY = num("min_y", 0, 255), num("max_y", 0, 255)
			m.Weight, m.Density, m.Size = num("weight", 0, 1<<16), num("density", 1, 255), num("size", 1, 64)
			if v, ok := mf["max_y"]; ok && m.MaxY < m.MinY+9 {
				// WorldgenGTOreLayer.validateHeights raises such a max_y
				// to min_y + 9; the table says the height it means.
				d.Errorf(v.Value, path+".max_y", "must be at least min_y + 9 (%d), got %d", m.MinY+9, m.MaxY)
			}
			for _, k := range []string{"primary", "secondary", "between", "sporadic"} {
				v, ok := mf[k]
				if !ok {
					continue
				}
				s, ok := d.String(v.Value, path+"."+k)
				if !ok {
					continue
				}
				if _, known := t.materials[s]; !known && !t.unplaced[s] {
					d.Errorf(v.Value, path+"."+k, "material %q is in neither materials nor unplaced", s)
				}
				switch k {
				case "primary":
					m.Primary = s
				case "secondary":
					m.Secondary = s
				case "between":
					m.Between = s
				case "sporadic":
					m.Sporadic = s
				}
			}
			t.mixes = append(t.mixes, m)
		}
	}
	if err := d.Err(); err != nil {
		d.Errs.Sort()
		return nil, d.Errs
	}
	return t, nil
}

// loadOres parses the shipped table (config/ores.yaml).
func loadOres() *Ores {
	return loadShipped("ores.yaml", ParseOres)
}

// Mixes returns the ore mixes in file order.
func (t *Ores) Mixes() []OreMix { return slices.Clone(t.mixes) }

// Material returns a placed material by name.
func (t *Ores) Material(name string) (OreMaterial, bool) {
	m, ok := t.materials[name]
	return m, ok
}

// MaterialByID returns a placed material by its id.
func (t *Ores) MaterialByID(id int) (OreMaterial, bool) {
	for _, m := range t.materials {
		if m.ID == id {
			return m, true
		}
	}
	return OreMaterial{}, false
}

// Materials returns the placed materials, by name.
func (t *Ores) Materials() []OreMaterial {
	out := make([]OreMaterial, 0, len(t.materials))
	for _, m := range t.materials {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b OreMaterial) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// HarvestLevel is the world metadata of an ore block of the material
// (TileEntityOres.getHarvestData over stone, whose base level is 0): the
// tool quality, one less for a small ore, within 0..7.
func (m OreMaterial) HarvestLevel(small bool) int {
	q := m.ToolQuality
	if small {
		q--
	}
	return max(0, min(7, q))
}

// BlockRule is how an ore block with world metadata meta breaks
// (BlockOresAbstract): a pickaxe below metadata 8, a shovel above; harvest
// level the metadata, 2 for 5 and 6; hardness 1 + the harvest level.
func (t *Ores) BlockRule(meta int) BlockRule {
	level := meta % 8
	if meta == 5 || meta == 6 {
		level = 2
	}
	tool := "pickaxe"
	if meta >= 8 {
		tool = "shovel"
	}
	return BlockRule{Hardness: 1 + float64(level), Tool: tool, NeedsTool: true, Level: level}
}

// Tag is the ore dictionary name a client gives an ore block of the
// material: ore:oreCopper, or ore:oreSmallCopper for a small ore.
func (t *Ores) Tag(m OreMaterial, small bool) string {
	if small {
		return "ore:" + t.SmallPrefix + m.Name
	}
	return "ore:ore" + m.Name
}

// MaterialOfTags finds the material of an ore block from its tags: the
// material and whether the ore is small; false when no tag names a placed
// material.
func (t *Ores) MaterialOfTags(tags []string) (OreMaterial, bool, bool) {
	for _, tag := range tags {
		name, ok := strings.CutPrefix(tag, "ore:")
		if !ok {
			continue
		}
		small := false
		if rest, ok := strings.CutPrefix(name, t.SmallPrefix); ok && t.SmallPrefix != "" {
			name, small = rest, true
		} else if rest, ok := strings.CutPrefix(name, "ore"); ok {
			name = rest
		} else {
			continue
		}
		if m, ok := t.materials[name]; ok {
			return m, small, true
		}
	}
	return OreMaterial{}, false, false
}

// RawOre is the raw ore item a regular ore block of the material drops
// ("gregtech:gt.metaitem.03" and 5000 + the id).
func (t *Ores) RawOre(m OreMaterial) (string, int) { return t.RawItem, t.RawOffset + m.ID }

// SmeltRecipes are the furnace's recipes for the raw ores whose material
// smelts (ProcessingRawOre: addSmeltingRecipe(raw ore, ingot × smelting
// multiplier)).
func (t *Ores) SmeltRecipes() []SmeltRecipe {
	var out []SmeltRecipe
	for _, m := range t.Materials() {
		if m.SmeltsInto == "" {
			continue
		}
		item, meta := t.RawOre(m)
		out = append(out, SmeltRecipe{
			Input:  game.MustItem(fmt.Sprintf("%s:%d", item, meta)),
			Output: m.SmeltsInto,
			Count:  m.SmeltCount,
		})
	}
	return out
}
