package world

import (
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// idRE matches "modid:name" and "modid:name:meta". Mod ids in 1.7.10 may carry
// capitals and '|' (BuildCraft|Factory); names may carry dots.
var idRE = regexp.MustCompile(`^[A-Za-z0-9_|.\-]+:[A-Za-z0-9_.\-/]+(:[0-9]+)?$`)

// SplitID splits "modid:name[:meta]" into the id and metadata (-1 when absent).
func SplitID(s string) (id string, meta int, err error) {
	if !idRE.MatchString(s) {
		return "", 0, fmt.Errorf("%q is not an id of the form modid:name or modid:name:meta", s)
	}
	parts := strings.Split(s, ":")
	if len(parts) == 3 {
		m, err := strconv.Atoi(parts[2])
		if err != nil || m > 32767 {
			return "", 0, fmt.Errorf("%q: metadata out of range", s)
		}
		return parts[0] + ":" + parts[1], m, nil
	}
	return s, -1, nil
}

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
			if _, _, err := SplitID(key); err != nil {
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

// DefaultTags returns the shipped tag table (config/tags.yaml).
func DefaultTags() *TagTable {
	defaultTagsOnce.Do(func() {
		data, err := fs.ReadFile(config.FS, "tags.yaml")
		if err == nil {
			defaultTags, err = ParseTags("config/tags.yaml", data)
		}
		if err != nil {
			panic(fmt.Sprintf("world: shipped tags.yaml is invalid: %v", err))
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
		if hasString(tags, tag) {
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
		if hasString(tags, tag) {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

func hasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
