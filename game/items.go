package game

import (
	"fmt"
	"strconv"
	"strings"
)

// ItemStack is a stack of items in a slot. Meta is the item's metadata
// variant (charcoal is minecraft:coal:1); Damage and MaxDamage describe tool
// wear (MaxDamage 0 = not damageable). Vanilla 1.7.10 sends a damageable
// item's wear in the metadata field: bodies move it into Damage and leave
// Meta 0, so "minecraft:iron_axe:0" still matches a worn axe. Tags are filled
// from the tag table by NewStack or by the body. Tinker is set on a Tinkers'
// Construct tool whose parts are known (nil otherwise); it is never changed
// in place, so copies may share it.
type ItemStack struct {
	ID        string      `json:"id"`
	Meta      int         `json:"meta,omitempty"`
	Count     int         `json:"count"`
	Damage    int         `json:"damage,omitempty"`
	MaxDamage int         `json:"max_damage,omitempty"`
	Tags      []string    `json:"tags,omitempty"`
	Tinker    *TinkerTool `json:"tinker,omitempty"`
}

// TinkerTool is what a Tinkers' Construct tool carries in its NBT (the
// InfiTool compound, TinkersConstruct library/crafting/ToolBuilder
// .buildTool) as far as the agent uses it: the head's material and the
// harvest level the tool mines at now.
type TinkerTool struct {
	// Head is the head's material id (InfiTool.Head: TConstruct's
	// material ids, 2 iron, 3 flint).
	Head int `json:"head"`
	// HarvestLevel is InfiTool.HarvestLevel: the head material's level,
	// one lower on a pickaxe until its mining boost (IguanaTinkerTweaks).
	HarvestLevel int `json:"harvest_level"`
}

// Empty reports whether the slot holds nothing.
func (s ItemStack) Empty() bool { return s.ID == "" || s.Count <= 0 }

// Durability is the number of uses left, or -1 for items that do not wear.
func (s ItemStack) Durability() int {
	if s.MaxDamage <= 0 {
		return -1
	}
	return s.MaxDamage - s.Damage
}

// HasTag reports whether the stack carries a tag.
func (s ItemStack) HasTag(tag string) bool { return hasString(s.Tags, tag) }

func (s ItemStack) String() string {
	if s.Meta != 0 {
		return fmt.Sprintf("%d×%s:%d", s.Count, s.ID, s.Meta)
	}
	return fmt.Sprintf("%d×%s", s.Count, s.ID)
}

// ItemMatcher selects items. It is written as
//
//	modid:name        any metadata of that item
//	modid:name:meta   exactly that metadata
//	ore:Name          any item registered under the ore-dictionary name
//	tool:class        any tool of that class (axe, pickaxe, saw, …)
type ItemMatcher struct {
	raw  string
	id   string
	meta int    // -1 = any
	tag  string // "ore:…" or "tool:…" when matching by tag
}

// ParseItemMatcher parses an item matcher.
func ParseItemMatcher(s string) (ItemMatcher, error) {
	if rest, ok := strings.CutPrefix(s, "ore:"); ok {
		if rest == "" || strings.ContainsAny(rest, ": ") {
			return ItemMatcher{}, fmt.Errorf("%q: ore-dictionary name expected after ore:", s)
		}
		return ItemMatcher{raw: s, tag: s, meta: -1}, nil
	}
	if rest, ok := strings.CutPrefix(s, "tool:"); ok {
		if rest == "" || strings.ContainsAny(rest, ": ") {
			return ItemMatcher{}, fmt.Errorf("%q: tool class expected after tool:", s)
		}
		return ItemMatcher{raw: s, tag: s, meta: -1}, nil
	}
	id, meta, err := SplitID(s)
	if err != nil {
		return ItemMatcher{}, fmt.Errorf("%q is not an item: expected modid:name, modid:name:meta, ore:Name or tool:class", s)
	}
	return ItemMatcher{raw: s, id: id, meta: meta}, nil
}

// MustItem parses an item matcher and panics on error; for literals in code.
func MustItem(s string) ItemMatcher {
	m, err := ParseItemMatcher(s)
	if err != nil {
		panic(err)
	}
	return m
}

// Matches reports whether the stack is selected by the matcher.
func (m ItemMatcher) Matches(s ItemStack) bool {
	if s.Empty() {
		return false
	}
	if m.tag != "" {
		return s.HasTag(m.tag)
	}
	return s.ID == m.id && (m.meta < 0 || s.Meta == m.meta)
}

// IsTag reports whether the matcher selects by ore-dictionary name or tool class.
func (m ItemMatcher) IsTag() bool { return m.tag != "" }

// ID returns the item id of an exact matcher (empty for tag matchers) and
// its metadata (-1 for any).
func (m ItemMatcher) ID() (string, int) { return m.id, m.meta }

func (m ItemMatcher) String() string { return m.raw }

// Inventory is the player's inventory: 36 main slots in 1.7.10 (0–8 the
// hotbar) plus armour. Held is the selected hotbar slot.
type Inventory struct {
	Slots []ItemStack `json:"slots"`
	Held  int         `json:"held"`
}

// NewInventory returns an inventory holding the given stacks in the first slots
// of a 36-slot main inventory.
func NewInventory(stacks ...ItemStack) Inventory {
	inv := Inventory{Slots: make([]ItemStack, 36)}
	copy(inv.Slots, stacks)
	return inv
}

// Count totals the items matching m.
func (inv Inventory) Count(m ItemMatcher) int {
	n := 0
	for _, s := range inv.Slots {
		if m.Matches(s) {
			n += s.Count
		}
	}
	return n
}

// CountID totals the items with the given id (any metadata).
func (inv Inventory) CountID(id string) int {
	n := 0
	for _, s := range inv.Slots {
		if !s.Empty() && s.ID == id {
			n += s.Count
		}
	}
	return n
}

// Find returns the index of the first slot matching m, or -1.
func (inv Inventory) Find(m ItemMatcher) int {
	for i, s := range inv.Slots {
		if m.Matches(s) {
			return i
		}
	}
	return -1
}

// BestTool returns the slot of the matching tool with the most durability left
// that has at least minDurability uses, or -1. Items that do not wear count as
// unlimited.
func (inv Inventory) BestTool(m ItemMatcher, minDurability int) int {
	best, bestDur := -1, -2
	for i, s := range inv.Slots {
		if !m.Matches(s) {
			continue
		}
		d := s.Durability()
		if d < 0 {
			d = 1 << 30
		}
		if d < minDurability {
			continue
		}
		if d > bestDur {
			best, bestDur = i, d
		}
	}
	return best
}

// HeldStack is the stack in the selected hotbar slot.
func (inv Inventory) HeldStack() ItemStack {
	if inv.Held < 0 || inv.Held >= len(inv.Slots) {
		return ItemStack{}
	}
	return inv.Slots[inv.Held]
}

// FreeSlots counts empty slots.
func (inv Inventory) FreeSlots() int {
	n := 0
	for _, s := range inv.Slots {
		if s.Empty() {
			n++
		}
	}
	return n
}

// SplitID splits "modid:name[:meta]" into the id and metadata (-1 when absent).
// Mod ids in 1.7.10 may carry capitals and '|' (BuildCraft|Factory); names
// may carry dots and slashes. Worlds are built block by block through it, so
// it is a hand-written scan (the grammar's regular expression,
// ^[A-Za-z0-9_|.-]+:[A-Za-z0-9_./-]+(:[0-9]+)?$, cost a simulated world's
// generation four fifths of its time; a fuzz test keeps the two in step).
func SplitID(s string) (id string, meta int, err error) {
	first := strings.IndexByte(s, ':')
	if first <= 0 || !idChars(s[:first], false) {
		return "", 0, notID(s)
	}
	rest := s[first+1:]
	name, digits, hasMeta := rest, "", false
	if k := strings.IndexByte(rest, ':'); k >= 0 {
		name, digits, hasMeta = rest[:k], rest[k+1:], true
	}
	if name == "" || !idChars(name, true) || (hasMeta && !allDigits(digits)) {
		return "", 0, notID(s)
	}
	if !hasMeta {
		return s, -1, nil
	}
	m, err := strconv.Atoi(digits)
	if err != nil || m > 32767 {
		return "", 0, fmt.Errorf("%q: metadata out of range", s)
	}
	return s[:first+1+len(name)], m, nil
}

func notID(s string) error {
	return fmt.Errorf("%q is not an id of the form modid:name or modid:name:meta", s)
}

// idChars reports whether s is made of a mod id's characters (letters,
// digits, '_', '|', '.', '-'), or a name's (the same with '/' for '|')
// when name is set.
func idChars(s string, name bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '.', c == '-':
		case c == '|' && !name, c == '/' && name:
		default:
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func hasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
