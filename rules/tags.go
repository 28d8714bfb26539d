package rules

import (
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// TagTable maps block and item ids to semantic tags.
type TagTable struct {
	blocks map[string][]string
	items  map[string][]string
}

// ParseTags reads a tags data file (see config/tags.yaml).
func ParseTags(file string, data []byte) (*TagTable, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	top := d.Mapping(root, "", []string{"blocks", "items"})
	t := &TagTable{blocks: map[string][]string{}, items: map[string][]string{}}
	read := func(section string, into map[string][]string) {
		f, ok := top[section]
		if !ok {
			return
		}
		for key, entry := range d.Mapping(f.Value, section, nil) {
			path := strictyaml.Join(section, key)
			if _, _, err := game.SplitID(key); err != nil {
				d.Errorf(entry.Key, path, "%v", err)
				continue
			}
			into[key] = d.StringList(entry.Value, path)
		}
	}
	read("blocks", t.blocks)
	read("items", t.items)
	if err := d.Err(); err != nil {
		d.Errs.Sort()
		return nil, d.Errs
	}
	return t, nil
}

var (
	defaultTagsOnce sync.Once
	defaultTags     *TagTable
)

// loadTags returns the shipped tag table (config/tags.yaml).
func loadTags() *TagTable {
	defaultTagsOnce.Do(func() {
		data, err := fs.ReadFile(config.FS, "tags.yaml")
		if err == nil {
			defaultTags, err = ParseTags("config/tags.yaml", data)
		}
		if err != nil {
			panic(fmt.Sprintf("rules: shipped tags.yaml is invalid: %v", err))
		}
	})
	return defaultTags
}

func lookup(m map[string][]string, id string, meta int) []string {
	if meta >= 0 {
		if tags, ok := m[id+":"+strconv.Itoa(meta)]; ok {
			return tags
		}
	}
	return m[id]
}

// BlockTags returns the tags of a block (nil when it has none).
func (t *TagTable) BlockTags(id string, meta int) []string { return lookup(t.blocks, id, meta) }

// ItemTags returns the tags of an item (nil when it has none).
func (t *TagTable) ItemTags(id string, meta int) []string { return lookup(t.items, id, meta) }

// BlockIDsWithTag lists the block keys carrying a tag, sorted.
func (t *TagTable) BlockIDsWithTag(tag string) []string {
	var out []string
	for id, tags := range t.blocks {
		if slices.Contains(tags, tag) {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// ItemIDsWithTag lists the item keys ("modid:name" or "modid:name:meta")
// carrying a tag, sorted.
func (t *TagTable) ItemIDsWithTag(tag string) []string {
	var out []string
	for id, tags := range t.items {
		if slices.Contains(tags, tag) {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}
