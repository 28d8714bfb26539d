package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// MaxNumericID is the largest block or item id the world model stores
// (NotEnoughIds widens block ids to 16 bits).
const MaxNumericID = 0xFFFF

// ErrFrozen is returned when an IDMap is changed after it was frozen.
var ErrFrozen = errors.New("rules: the id map is frozen")

// IDMap maps numeric block and item ids to registry names ("modid:name") and
// back. A GTNH server sends its map at login (the FML registry); the
// simulator uses VanillaIDs. Fill a map with SetBlock and SetItem, then
// Freeze it (NewResolver does): a frozen map is immutable and safe for
// concurrent readers.
//
// In 1.7.10 a block's item form (its ItemBlock) is registered under the
// block's id and name, so ItemName and ItemID fall back to the block table.
type IDMap struct {
	blocks   []string
	items    []string
	blockIDs map[string]int
	itemIDs  map[string]int
	frozen   bool
}

// NewIDMap returns an empty, writable map.
func NewIDMap() *IDMap {
	return &IDMap{blockIDs: map[string]int{}, itemIDs: map[string]int{}}
}

// SetBlock registers block id under name. An id or a name registered twice
// with different partners is an error, as is a name that is not
// "modid:name".
func (m *IDMap) SetBlock(id int, name string) error {
	return m.set(&m.blocks, m.blockIDs, "block", id, name)
}

// SetItem registers item id under name, with the same rules as SetBlock.
func (m *IDMap) SetItem(id int, name string) error {
	return m.set(&m.items, m.itemIDs, "item", id, name)
}

func (m *IDMap) set(names *[]string, ids map[string]int, kind string, id int, name string) error {
	if m.frozen {
		return ErrFrozen
	}
	if id < 0 || id > MaxNumericID {
		return fmt.Errorf("%s id %d out of range 0..%d", kind, id, MaxNumericID)
	}
	if _, meta, err := game.SplitID(name); err != nil {
		return err
	} else if meta >= 0 {
		return fmt.Errorf("%q: a registry name carries no metadata", name)
	}
	if kind == "block" && id == 0 && name != "minecraft:air" {
		return fmt.Errorf("block id 0 is minecraft:air, not %q", name)
	}
	if id < len(*names) && (*names)[id] != "" && (*names)[id] != name {
		return fmt.Errorf("%s id %d is already %q", kind, id, (*names)[id])
	}
	if prev, ok := ids[name]; ok && prev != id {
		return fmt.Errorf("%s %q already has id %d", kind, name, prev)
	}
	for len(*names) <= id {
		*names = append(*names, "")
	}
	(*names)[id] = name
	ids[name] = id
	return nil
}

// Freeze makes the map read-only; later SetBlock and SetItem calls fail with
// ErrFrozen.
func (m *IDMap) Freeze() *IDMap {
	m.frozen = true
	return m
}

// Frozen reports whether the map is read-only.
func (m *IDMap) Frozen() bool { return m.frozen }

// BlockName returns the registry name of a block id.
func (m *IDMap) BlockName(id int) (string, bool) {
	if id < 0 || id >= len(m.blocks) || m.blocks[id] == "" {
		return "", false
	}
	return m.blocks[id], true
}

// BlockID returns the numeric id of a block name.
func (m *IDMap) BlockID(name string) (int, bool) {
	id, ok := m.blockIDs[name]
	return id, ok
}

// ItemName returns the registry name of an item id, falling back to the block
// with that id (its ItemBlock).
func (m *IDMap) ItemName(id int) (string, bool) {
	if id >= 0 && id < len(m.items) && m.items[id] != "" {
		return m.items[id], true
	}
	return m.BlockName(id)
}

// ItemID returns the numeric id of an item name, falling back to the block
// table.
func (m *IDMap) ItemID(name string) (int, bool) {
	if id, ok := m.itemIDs[name]; ok {
		return id, true
	}
	return m.BlockID(name)
}

// Blocks is the number of registered block ids.
func (m *IDMap) Blocks() int { return len(m.blockIDs) }

// Items is the number of registered item ids (block items not included).
func (m *IDMap) Items() int { return len(m.itemIDs) }

// Clone returns a writable copy.
func (m *IDMap) Clone() *IDMap {
	c := &IDMap{
		blocks:   append([]string(nil), m.blocks...),
		items:    append([]string(nil), m.items...),
		blockIDs: make(map[string]int, len(m.blockIDs)),
		itemIDs:  make(map[string]int, len(m.itemIDs)),
	}
	for k, v := range m.blockIDs {
		c.blockIDs[k] = v
	}
	for k, v := range m.itemIDs {
		c.itemIDs[k] = v
	}
	return c
}

// ParseIDMap reads an id map data file (see config/vanilla_ids.yaml):
//
//	blocks:
//	  1: minecraft:stone
//	items:
//	  263: minecraft:coal
//
// Keys are decimal ids 0..65535, values registry names; a name given to two
// ids is an error. The map is returned frozen.
func ParseIDMap(file string, data []byte) (*IDMap, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	top := d.Mapping(root, "", []string{"blocks", "items"})
	m := NewIDMap()
	read := func(section string, set func(int, string) error) {
		f, ok := top[section]
		if !ok {
			return
		}
		fields := d.Mapping(f.Value, section, nil)
		ordered := make([]strictyaml.Field, 0, len(fields))
		for _, fld := range fields {
			ordered = append(ordered, fld)
		}
		sort.Slice(ordered, func(i, j int) bool { return nodeBefore(ordered[i].Key, ordered[j].Key) })
		for _, fld := range ordered {
			path := strictyaml.Join(section, fld.Key.Value)
			id, err := strconv.Atoi(fld.Key.Value)
			if err != nil || fld.Key.Tag != "!!int" || strconv.Itoa(id) != fld.Key.Value {
				d.Errorf(fld.Key, path, "%q is not a decimal id", fld.Key.Value)
				continue
			}
			name, ok := d.String(fld.Value, path)
			if !ok {
				continue
			}
			if err := set(id, name); err != nil {
				d.Errorf(fld.Value, path, "%v", err)
			}
		}
	}
	read("blocks", m.SetBlock)
	read("items", m.SetItem)
	if err := d.Err(); err != nil {
		d.Errs.Sort()
		return nil, d.Errs
	}
	return m.Freeze(), nil
}

func nodeBefore(a, b *yaml.Node) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}

var (
	vanillaOnce sync.Once
	vanillaMap  *IDMap
)

// loadVanillaIDs returns the shipped vanilla 1.7.10 id map
// (config/vanilla_ids.yaml), frozen.
func loadVanillaIDs() *IDMap {
	vanillaOnce.Do(func() {
		data, err := fs.ReadFile(config.FS, "vanilla_ids.yaml")
		if err == nil {
			vanillaMap, err = ParseIDMap("config/vanilla_ids.yaml", data)
		}
		if err != nil {
			panic(fmt.Sprintf("rules: shipped vanilla_ids.yaml is invalid: %v", err))
		}
	})
	return vanillaMap
}
