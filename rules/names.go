package rules

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
)

// Names is the set of item and block names a configuration knows, so that a
// goal, a script or a scenario naming something else can be refused before a
// run starts, with the nearest known name as a hint. Item and block ids come
// from every shipped table (vanilla_ids.yaml, tags.yaml, recipes.yaml,
// mining.yaml, tech.yaml, blueprints.yaml) and from what a caller adds (a scenario's blocks);
// ore-dictionary names and tool classes ("ore:logWood", "tool:axe") are the
// item tags of tags.yaml, the only tags an item can carry, so any other can
// never match. Build with NewNames or DefaultNames and the Add methods; the
// checks are safe for concurrent use once nothing is added any more.
type Names struct {
	items, blocks map[string]bool
	tags          map[string]bool // "ore:…" and "tool:…"
	// sorted caches the candidates for suggestions, built on first use
	// (checks may run concurrently on the shared DefaultNames).
	mu     sync.Mutex
	sorted struct {
		items, blocks, tags []string
	}
}

// NewNames returns an empty name set.
func NewNames() *Names {
	return &Names{items: map[string]bool{}, blocks: map[string]bool{}, tags: map[string]bool{}}
}

var (
	defaultNamesOnce sync.Once
	defaultNames     *Names
)

// loadNames returns the names of the shipped tables. The result is
// shared: Clone it before adding names.
func loadNames() *Names {
	defaultNamesOnce.Do(func() {
		n := NewNames()
		n.AddIDMap(loadVanillaIDs())
		n.AddTags(loadTags())
		n.AddRecipes(loadRecipes())
		n.AddSmelting(loadSmelting())
		n.AddMining(loadMiningRules())
		n.AddTech(loadTech())
		n.AddBlueprints(loadBlueprints())
		defaultNames = n
	})
	return defaultNames
}

// Clone returns a copy that names can be added to.
func (n *Names) Clone() *Names {
	c := NewNames()
	for k := range n.items {
		c.items[k] = true
	}
	for k := range n.blocks {
		c.blocks[k] = true
	}
	for k := range n.tags {
		c.tags[k] = true
	}
	return c
}

// base drops a metadata suffix: names are known per id, any metadata.
func base(id string) string {
	if b, _, err := game.SplitID(id); err == nil {
		return b
	}
	return id
}

// AddItem records an item id ("modid:name[:meta]").
func (n *Names) AddItem(id string) {
	n.items[base(id)] = true
	n.sorted.items = nil
}

// AddBlock records a block id; in 1.7.10 a block's item form shares its
// name, so it is an item name too.
func (n *Names) AddBlock(id string) {
	n.blocks[base(id)] = true
	n.items[base(id)] = true
	n.sorted.blocks, n.sorted.items = nil, nil
}

// AddIDMap records every block and item of an id map.
func (n *Names) AddIDMap(m *IDMap) {
	for _, b := range m.blocks {
		if b != "" {
			n.AddBlock(b)
		}
	}
	for _, it := range m.items {
		if it != "" {
			n.AddItem(it)
		}
	}
}

// AddTags records the tagged blocks and items and the item tags that are
// ore-dictionary names or tool classes.
func (n *Names) AddTags(t *TagTable) {
	for id := range t.blocks {
		n.AddBlock(id)
	}
	for id, tags := range t.items {
		n.AddItem(id)
		for _, tag := range tags {
			if strings.HasPrefix(tag, "ore:") || strings.HasPrefix(tag, "tool:") {
				n.tags[tag] = true
			}
		}
	}
	n.sorted.tags = nil
}

// AddSmelting records the furnace's inputs, outputs and fuels.
func (n *Names) AddSmelting(t *Smelting) {
	for _, r := range t.recipes {
		n.AddItem(r.Output)
		n.addMatcher(r.Input)
	}
	for _, f := range t.fuels {
		n.addMatcher(f.Item)
	}
}

// AddRecipes records every recipe's output and exact ingredients and tools.
func (n *Names) AddRecipes(r *Recipes) {
	for _, rc := range r.list {
		n.AddItem(rc.Output)
		if rc.Station != "" {
			n.AddBlock(rc.Station)
		}
		for _, in := range rc.Ingredients {
			n.addMatcher(in.Item)
		}
		for _, t := range rc.Tools {
			n.addMatcher(t)
		}
		for _, back := range rc.Returns {
			n.AddItem(back)
		}
	}
}

// AddMining records the blocks of a mining table.
func (n *Names) AddMining(r *MiningRules) {
	for id := range r.blocks {
		n.AddBlock(id)
	}
}

// AddBlueprints records the blocks of every blueprint's pattern and shell.
func (n *Names) AddBlueprints(t *Blueprints) {
	for _, b := range t.list {
		for _, c := range b.cells {
			if !c.Air {
				n.AddBlock(c.Block.ID)
			}
		}
		for _, f := range b.Forbid {
			n.AddBlock(f.ID)
		}
	}
}

// AddTech records the exact items named as tier evidence.
func (n *Names) AddTech(t *TechRules) {
	for _, list := range t.evidence {
		for _, e := range list {
			if e.Kind == EvidenceItem {
				n.addMatcher(e.Item)
			}
		}
	}
}

func (n *Names) addMatcher(m game.ItemMatcher) {
	if id, _ := m.ID(); id != "" {
		n.AddItem(id)
	}
}

// UnknownNameError is a name the configuration does not know.
type UnknownNameError struct {
	// Kind is "item", "block", "ore-dictionary name" or "tool class".
	Kind string
	Name string
	// Suggestion is the nearest known name ("" when none is close).
	Suggestion string
	// Mod is set for a namespaced id outside the minecraft namespace: the
	// configuration lists every vanilla 1.7.10 id and every tag an item can
	// carry, but a GTNH server registers thousands of mod items it does not
	// list, so callers on a live server may treat these as warnings.
	Mod bool
}

func (e *UnknownNameError) Error() string {
	msg := fmt.Sprintf("unknown %s %q", e.Kind, e.Name)
	if e.Suggestion != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", e.Suggestion)
	}
	return msg
}

// CheckItem checks an item matcher (modid:name[:meta], ore:Name,
// tool:class): nil when the configuration knows it, an error when it is
// malformed, an *UnknownNameError when it is not known.
func (n *Names) CheckItem(s string) error {
	m, err := game.ParseItemMatcher(s)
	if err != nil {
		return err
	}
	if m.IsTag() {
		if n.tags[s] {
			return nil
		}
		kind, prefix := "ore-dictionary name", "ore:"
		if strings.HasPrefix(s, "tool:") {
			kind, prefix = "tool class", "tool:"
		}
		var same []string
		for _, t := range n.sortedTags() {
			if strings.HasPrefix(t, prefix) {
				same = append(same, t)
			}
		}
		return &UnknownNameError{Kind: kind, Name: s, Suggestion: suggest.Closest(s, same)}
	}
	return n.check("item", s, n.items, n.sortedItems)
}

// CheckBlock checks a block id (modid:name[:meta]).
func (n *Names) CheckBlock(s string) error {
	if _, _, err := game.SplitID(s); err != nil {
		return err
	}
	return n.check("block", s, n.blocks, n.sortedBlocks)
}

func (n *Names) check(kind, s string, known map[string]bool, sorted func() []string) error {
	id, meta, _ := game.SplitID(s)
	if known[id] {
		return nil
	}
	e := &UnknownNameError{Kind: kind, Name: s, Mod: !strings.HasPrefix(id, "minecraft:")}
	if sug := suggest.Closest(id, sorted()); sug != "" {
		if meta >= 0 {
			sug += ":" + strconv.Itoa(meta)
		}
		e.Suggestion = sug
	}
	return e
}

func (n *Names) sortedKeys(m map[string]bool, cache *[]string) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if *cache == nil {
		*cache = make([]string, 0, len(m))
		for k := range m {
			*cache = append(*cache, k)
		}
		sort.Strings(*cache)
	}
	return *cache
}

func (n *Names) sortedItems() []string  { return n.sortedKeys(n.items, &n.sorted.items) }
func (n *Names) sortedBlocks() []string { return n.sortedKeys(n.blocks, &n.sorted.blocks) }
func (n *Names) sortedTags() []string   { return n.sortedKeys(n.tags, &n.sorted.tags) }
