package rules

import (
	"fmt"
	"regexp"
	"sort"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"gopkg.in/yaml.v3"
)

// BlockRef is one block state of a blueprint: an id and its metadata (0
// when the file names none). The item that places it has the same id and
// metadata, as a 1.7.10 ItemBlock has.
type BlockRef struct {
	ID   string
	Meta int
}

// String is the id as the data files write it, "modid:name:meta".
func (b BlockRef) String() string { return fmt.Sprintf("%s:%d", b.ID, b.Meta) }

// Item is the item that places the block, as a goal names it: the bare id
// for metadata 0 (as the recipe book writes outputs), else "id:meta".
func (b BlockRef) Item() string {
	if b.Meta == 0 {
		return b.ID
	}
	return b.String()
}

// Is reports whether a block state is this one.
func (b BlockRef) Is(id string, meta int) bool { return b.ID == id && b.Meta == meta }

// Cell is one position of a blueprint's pattern: a block, or air that must
// stay empty.
type Cell struct {
	Air   bool
	Block BlockRef
}

// Offset is a position relative to a blueprint's origin, its pattern's
// lowest north-west corner (x east, y up, z south).
type Offset struct{ X, Y, Z int }

// Blueprint is a structure described as data (config/blueprints.yaml): a
// pattern of cells that, once every block stands and the shell around it
// holds none of the forbidden blocks, forms a machine at the master cell.
type Blueprint struct {
	Name    string
	Machine string // the machine kind the formed structure is
	SizeX   int
	SizeY   int
	SizeZ   int
	Master  Offset
	// ShellWidth is how far around the pattern's box (every side) the
	// Forbid blocks must be absent.
	ShellWidth int
	Forbid     []BlockRef
	cells      []Cell // index (y*SizeZ+z)*SizeX+x
}

// Cell returns the pattern's cell at an offset inside the box.
func (b *Blueprint) Cell(o Offset) Cell {
	return b.cells[(o.Y*b.SizeZ+o.Z)*b.SizeX+o.X]
}

// Inside reports whether an offset is inside the pattern's box.
func (b *Blueprint) Inside(o Offset) bool {
	return o.X >= 0 && o.Y >= 0 && o.Z >= 0 && o.X < b.SizeX && o.Y < b.SizeY && o.Z < b.SizeZ
}

// InShell reports whether an offset is in the box or its shell: the cells
// a change to which can form or unform the structure.
func (b *Blueprint) InShell(o Offset) bool {
	w := b.ShellWidth
	return o.X >= -w && o.Y >= -w && o.Z >= -w && o.X < b.SizeX+w && o.Y < b.SizeY+w && o.Z < b.SizeZ+w
}

// Offsets returns every offset of the pattern, bottom layer first, then
// north to south, then west to east.
func (b *Blueprint) Offsets() []Offset {
	out := make([]Offset, 0, len(b.cells))
	for y := 0; y < b.SizeY; y++ {
		for z := 0; z < b.SizeZ; z++ {
			for x := 0; x < b.SizeX; x++ {
				out = append(out, Offset{x, y, z})
			}
		}
	}
	return out
}

// Blocks returns how many of each block the pattern holds, in id order:
// the items a builder needs.
func (b *Blueprint) Blocks() []BlockCount {
	n := map[BlockRef]int{}
	for _, c := range b.cells {
		if !c.Air {
			n[c.Block]++
		}
	}
	out := make([]BlockCount, 0, len(n))
	for r, c := range n {
		out = append(out, BlockCount{Block: r, Count: c})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Block.String() < out[j].Block.String() })
	return out
}

// BlockCount is a block of a pattern and how many cells hold it.
type BlockCount struct {
	Block BlockRef
	Count int
}

// Uses reports whether the pattern holds a block state.
func (b *Blueprint) Uses(id string, meta int) bool {
	for _, c := range b.cells {
		if !c.Air && c.Block.Is(id, meta) {
			return true
		}
	}
	return false
}

// Check tells whether the structure stands with its origin where at reads
// from: at returns the block at an offset from the origin (an empty id is
// air). It returns "" when the pattern and the shell hold, or the first
// reason they do not, naming the offset.
func (b *Blueprint) Check(at func(o Offset) (id string, meta int)) string {
	for _, o := range b.Offsets() {
		c := b.Cell(o)
		id, meta := at(o)
		air := id == "" || id == "minecraft:air"
		switch {
		case c.Air && !air:
			return fmt.Sprintf("%v must be air, holds %s:%d", o, id, meta)
		case !c.Air && !c.Block.Is(id, meta):
			if air {
				return fmt.Sprintf("%v needs %s, is empty", o, c.Block)
			}
			return fmt.Sprintf("%v needs %s, holds %s:%d", o, c.Block, id, meta)
		}
	}
	w := b.ShellWidth
	for y := -w; y < b.SizeY+w; y++ {
		for z := -w; z < b.SizeZ+w; z++ {
			for x := -w; x < b.SizeX+w; x++ {
				o := Offset{x, y, z}
				if b.Inside(o) {
					continue
				}
				id, meta := at(o)
				for _, f := range b.Forbid {
					if f.Is(id, meta) {
						return fmt.Sprintf("%v in the shell holds %s", o, f)
					}
				}
			}
		}
	}
	return ""
}

// Blueprints is the table of structures the agent can build.
type Blueprints struct {
	list []*Blueprint
}

// maxBlueprintSide bounds each side of a pattern (GregTech's largest early
// multiblocks fit in 16).
const maxBlueprintSide = 16

// ParseBlueprints reads a blueprint data file (see config/blueprints.yaml).
// Every problem is reported with file:line:column.
func ParseBlueprints(file string, data []byte) (*Blueprints, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	t := &Blueprints{}
	top := d.Mapping(root, "", []string{"blueprints"})
	d.Require(root, "", top, "blueprints")
	seen := map[string]bool{}
	if f, ok := top["blueprints"]; ok {
		for i, n := range d.Sequence(f.Value, "blueprints") {
			path := strictyaml.Index("blueprints", i)
			if b := parseBlueprint(d, n, path); b != nil {
				if seen[b.Name] {
					d.Errorf(n, path+".name", "duplicate blueprint %q", b.Name)
					continue
				}
				seen[b.Name] = true
				t.list = append(t.list, b)
			}
		}
	}
	if err := d.Err(); err != nil {
		d.Errs.Sort()
		return nil, d.Errs
	}
	return t, nil
}

func parseBlockRef(d *strictyaml.Decoder, f strictyaml.Field, path string) (BlockRef, bool) {
	s, ok := d.String(f.Value, path)
	if !ok {
		return BlockRef{}, false
	}
	id, meta, err := game.SplitID(s)
	if err != nil {
		d.Errorf(f.Value, path, "%v", err)
		return BlockRef{}, false
	}
	return BlockRef{ID: id, Meta: max(meta, 0)}, true
}

// parseBlueprint reads one entry; nil when it has errors (reported).
func parseBlueprint(d *strictyaml.Decoder, n *yaml.Node, path string) *Blueprint {
	errs := len(d.Errs)
	f := d.Mapping(n, path, []string{"name", "machine", "legend", "layers", "master", "shell"})
	d.Require(n, path, f, "name", "machine", "legend", "layers", "master")
	b := &Blueprint{}
	if v, ok := f["name"]; ok {
		if s, ok := d.String(v.Value, path+".name"); ok {
			if !nameRE.MatchString(s) {
				d.Errorf(v.Value, path+".name", "a name is lower-case letters, digits and _, got %q", s)
			}
			b.Name = s
		}
	}
	if v, ok := f["machine"]; ok {
		if s, ok := d.String(v.Value, path+".machine"); ok {
			if !nameRE.MatchString(s) {
				d.Errorf(v.Value, path+".machine", "a machine kind is lower-case letters, digits and _, got %q", s)
			}
			b.Machine = s
		}
	}
	legend := map[rune]Cell{}
	if v, ok := f["legend"]; ok {
		lp := path + ".legend"
		keys := d.Mapping(v.Value, lp, nil)
		names := make([]string, 0, len(keys))
		for k := range keys {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			kf := keys[k]
			r := []rune(k)
			if len(r) != 1 || r[0] == ' ' {
				d.Errorf(kf.Key, lp, "a legend key is one character, got %q", k)
				continue
			}
			if s, ok := d.String(kf.Value, lp+"."+k); ok && s == "air" {
				legend[r[0]] = Cell{Air: true}
				continue
			}
			if ref, ok := parseBlockRef(d, kf, lp+"."+k); ok {
				legend[r[0]] = Cell{Block: ref}
			}
		}
	}
	if v, ok := f["layers"]; ok {
		layers := d.Sequence(v.Value, path+".layers")
		if len(layers) == 0 || len(layers) > maxBlueprintSide {
			d.Errorf(v.Value, path+".layers", "a blueprint has 1..%d layers, got %d", maxBlueprintSide, len(layers))
		}
		b.SizeY = len(layers)
		for y, ln := range layers {
			if y >= maxBlueprintSide {
				break
			}
			lp := strictyaml.Index(path+".layers", y)
			rows := d.StringList(ln, lp)
			if len(rows) == 0 || len(rows) > maxBlueprintSide {
				d.Errorf(ln, lp, "a layer has 1..%d rows, got %d", maxBlueprintSide, len(rows))
				continue
			}
			if b.SizeZ == 0 {
				b.SizeZ = len(rows)
			} else if len(rows) != b.SizeZ {
				d.Errorf(ln, lp, "layer %d has %d rows, layer 0 has %d", y, len(rows), b.SizeZ)
				continue
			}
			for z, row := range rows {
				rp := strictyaml.Index(lp, z)
				rn := ln
				if len(ln.Content) == len(rows) {
					rn = ln.Content[z] // errors point at the row itself
				}
				rs := []rune(row)
				if len(rs) == 0 || len(rs) > maxBlueprintSide {
					d.Errorf(rn, rp, "a row has 1..%d cells, got %d", maxBlueprintSide, len(rs))
					continue
				}
				if b.SizeX == 0 {
					b.SizeX = len(rs)
				} else if len(rs) != b.SizeX {
					d.Errorf(rn, rp, "row %q has %d cells, the first row has %d", row, len(rs), b.SizeX)
					continue
				}
				for x, ch := range rs {
					c, ok := legend[ch]
					if !ok {
						d.Errorf(rn, rp, "cell %d of row %q: %q is not in the legend", x, row, string(ch))
						continue
					}
					b.cells = append(b.cells, c)
				}
			}
		}
	}
	if v, ok := f["master"]; ok {
		mp := path + ".master"
		seq := d.Sequence(v.Value, mp)
		if len(seq) != 3 {
			d.Errorf(v.Value, mp, "master is [x, y, z], got %d numbers", len(seq))
		} else {
			var xyz [3]int
			for i, e := range seq {
				xyz[i], _ = d.Int(e, strictyaml.Index(mp, i))
			}
			b.Master = Offset{xyz[0], xyz[1], xyz[2]}
		}
	}
	if v, ok := f["shell"]; ok {
		sp := path + ".shell"
		sf := d.Mapping(v.Value, sp, []string{"width", "forbid"})
		d.Require(v.Value, sp, sf, "width", "forbid")
		if w, ok := sf["width"]; ok {
			if n, ok := d.Int(w.Value, sp+".width"); ok {
				if n < 0 || n > maxBlueprintSide {
					d.Errorf(w.Value, sp+".width", "must be within 0..%d, got %d", maxBlueprintSide, n)
				}
				b.ShellWidth = n
			}
		}
		if fb, ok := sf["forbid"]; ok {
			for i, e := range d.Sequence(fb.Value, sp+".forbid") {
				if ref, ok := parseBlockRef(d, strictyaml.Field{Value: e}, strictyaml.Index(sp+".forbid", i)); ok {
					b.Forbid = append(b.Forbid, ref)
				}
			}
		}
	}
	if len(d.Errs) > errs {
		return nil
	}
	if len(b.cells) != b.SizeX*b.SizeY*b.SizeZ {
		d.Errorf(n, path+".layers", "the layers hold %d cells, not %d×%d×%d", len(b.cells), b.SizeX, b.SizeY, b.SizeZ)
		return nil
	}
	if !b.Inside(b.Master) {
		d.Errorf(f["master"].Value, path+".master", "%v is outside the %d×%d×%d pattern", b.Master, b.SizeX, b.SizeY, b.SizeZ)
		return nil
	}
	if b.Cell(b.Master).Air {
		d.Errorf(f["master"].Value, path+".master", "%v is an air cell; the machine is a block of the pattern", b.Master)
		return nil
	}
	return b
}

// nameRE is the shape of blueprint names and machine kinds.
var nameRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// loadBlueprints parses the shipped table (config/blueprints.yaml);
// Default holds it.
func loadBlueprints() *Blueprints {
	return loadShipped("blueprints.yaml", ParseBlueprints)
}

// Get returns the blueprint of a name.
func (t *Blueprints) Get(name string) (*Blueprint, bool) {
	for _, b := range t.list {
		if b.Name == name {
			return b, true
		}
	}
	return nil, false
}

// Names returns every blueprint's name, in file order.
func (t *Blueprints) Names() []string {
	out := make([]string, len(t.list))
	for i, b := range t.list {
		out[i] = b.Name
	}
	return out
}

// All returns every blueprint, in file order.
func (t *Blueprints) All() []*Blueprint { return append([]*Blueprint(nil), t.list...) }

// Using returns the blueprints whose pattern holds a block state, in file
// order: those a placed or broken block of that state can form or unform.
func (t *Blueprints) Using(id string, meta int) []*Blueprint {
	var out []*Blueprint
	for _, b := range t.list {
		if b.Uses(id, meta) {
			out = append(out, b)
		}
	}
	return out
}

// Forbids reports whether a block state is forbidden in some blueprint's
// shell (placing it can unform a structure).
func (t *Blueprints) Forbids(id string, meta int) bool {
	for _, b := range t.list {
		for _, f := range b.Forbid {
			if f.Is(id, meta) {
				return true
			}
		}
	}
	return false
}
