package rules

import (
	"fmt"
	"io/fs"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"gopkg.in/yaml.v3"
)

// BlockRule is how a block breaks in 1.7.10: its hardness (negative =
// unbreakable), the tool class that mines it fast, whether it needs that
// tool to drop anything (and to break at the fast rate), and the harvest
// level the tool must have (Block.setHarvestLevel; Forge's
// ForgeHooks.initTools sets iron and lapis ore to 1, gold, diamond, emerald
// and redstone ore and the gold block to 2, obsidian to 3).
type BlockRule struct {
	Hardness  float64
	Tool      string
	NeedsTool bool
	Level     int
}

// ToolMaterial is a vanilla tool material, matched by item-id prefix, or
// one tool matched by its exact item id (ID: a Tinkers' Construct tool,
// whose id "TConstruct:pickaxe" is also the start of its head's): its
// mining speed, durability and harvest level (Item.ToolMaterial: wood 0,
// stone 1, iron 2, diamond 3, gold 0).
type ToolMaterial struct {
	Prefix     string
	ID         string
	Speed      float64
	Durability int
	Level      int
	// MinesNothing marks a tool that digs at speed 0 whatever the block
	// while held (IguanaTinkerTweaks' disableRegularTools:
	// VanillaToolNerfHandler.breakSpeed); it harvests nothing.
	MinesNothing bool
}

// MiningRules is the table of block hardness and tool materials
// (config/mining.yaml). The simulator, the fake test server and the live
// client share it, so the time a bot waits and the time a server checks
// agree. Immutable once parsed.
type MiningRules struct {
	blocks    map[string]BlockRule
	materials []ToolMaterial
	tinker    TinkerRules
}

// TinkerMaterial is a Tinkers' Construct tool material as a tool's head
// makes it: its harvest level, mining speed and the durability of a tool
// with that head on a wooden handle.
type TinkerMaterial struct {
	ID         int
	Name       string
	Level      int
	Speed      float64
	Durability int
}

// TinkerRules is how a Tinkers' tool takes its numbers from its head
// (config/mining.yaml's tinkers): the materials by id, the head items
// (whose metadata is the material id), and the tools that mine one level
// lower until their mining boost.
type TinkerRules struct {
	Materials map[int]TinkerMaterial
	Heads     []string
	Boosted   []string
}

// ParseMiningRules reads a mining table; every problem is reported with
// file:line:column.
func ParseMiningRules(file string, data []byte) (*MiningRules, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	r := &MiningRules{blocks: map[string]BlockRule{}}
	top := d.Mapping(root, "", []string{"blocks", "tools", "tinkers"})
	if f, ok := top["blocks"]; ok {
		for id, fld := range d.Mapping(f.Value, "blocks", nil) {
			path := strictyaml.Join("blocks", id)
			if _, _, err := game.SplitID(id); err != nil {
				d.Errorf(fld.Key, path, "%v", err)
				continue
			}
			bf := d.Mapping(fld.Value, path, []string{"hardness", "tool", "needs_tool", "harvest_level"})
			d.Require(fld.Value, path, bf, "hardness")
			var rule BlockRule
			if v, ok := bf["hardness"]; ok {
				rule.Hardness, _ = d.Float(v.Value, path+".hardness")
			}
			if v, ok := bf["tool"]; ok {
				if t, ok := d.String(v.Value, path+".tool"); ok {
					switch t {
					case "pickaxe", "axe", "shovel", "hoe", "sword", "shears":
						rule.Tool = t
					default:
						d.Errorf(v.Value, path+".tool", "unknown tool class %q (pickaxe, axe, shovel, hoe, sword, shears)", t)
					}
				}
			}
			if v, ok := bf["needs_tool"]; ok {
				rule.NeedsTool, _ = d.Bool(v.Value, path+".needs_tool")
				if rule.NeedsTool && rule.Tool == "" {
					d.Errorf(v.Value, path+".needs_tool", "needs_tool requires a tool class")
				}
			}
			if v, ok := bf["harvest_level"]; ok {
				if n, ok := d.Int(v.Value, path+".harvest_level"); ok {
					switch {
					case n < 0:
						d.Errorf(v.Value, path+".harvest_level", "must be at least 0")
					case !rule.NeedsTool:
						d.Errorf(v.Value, path+".harvest_level", "harvest_level requires needs_tool: true")
					}
					rule.Level = n
				}
			}
			r.blocks[id] = rule
		}
	}
	if f, ok := top["tools"]; ok {
		for i, n := range d.Sequence(f.Value, "tools") {
			path := strictyaml.Index("tools", i)
			tf := d.Mapping(n, path, []string{"prefix", "id", "speed", "durability", "harvest_level", "mines_nothing"})
			d.Require(n, path, tf, "speed", "durability")
			var m ToolMaterial
			if v, ok := tf["prefix"]; ok {
				m.Prefix, _ = d.String(v.Value, path+".prefix")
			}
			if v, ok := tf["id"]; ok {
				if s, ok := d.String(v.Value, path+".id"); ok {
					if _, _, err := game.SplitID(s); err != nil {
						d.Errorf(v.Value, path+".id", "%v", err)
					}
					m.ID = s
				}
			}
			switch _, hasPrefix := tf["prefix"]; {
			case hasPrefix && m.ID != "":
				d.Errorf(n, path, "give prefix or id, not both")
			case !hasPrefix && tf["id"].Value == nil:
				d.Errorf(n, path, "prefix or id is required")
			}
			toolStats(d, tf, path, &m.Level, &m.Speed, &m.Durability)
			if v, ok := tf["mines_nothing"]; ok {
				m.MinesNothing, _ = d.Bool(v.Value, path+".mines_nothing")
			}
			r.materials = append(r.materials, m)
		}
	}
	if f, ok := top["tinkers"]; ok {
		r.tinker = parseTinkers(d, f.Value)
	}
	if err := d.Err(); err != nil {
		d.Errs.Sort()
		return nil, d.Errs
	}
	return r, nil
}

// toolStats reads what a vanilla tool entry and a Tinkers' material both
// give, each where present: harvest_level (at least 0), speed (at least 1,
// the hand's) and durability (at least 1).
func toolStats(d *strictyaml.Decoder, f map[string]strictyaml.Field, path string, level *int, speed *float64, durability *int) {
	if v, ok := f["harvest_level"]; ok {
		if n, ok := d.Int(v.Value, path+".harvest_level"); ok {
			if n < 0 {
				d.Errorf(v.Value, path+".harvest_level", "must be at least 0")
			}
			*level = n
		}
	}
	if v, ok := f["speed"]; ok {
		if x, ok := d.Float(v.Value, path+".speed"); ok {
			if x < 1 {
				d.Errorf(v.Value, path+".speed", "must be at least 1 (the hand)")
			}
			*speed = x
		}
	}
	if v, ok := f["durability"]; ok {
		if n, ok := d.Int(v.Value, path+".durability"); ok {
			if n < 1 {
				d.Errorf(v.Value, path+".durability", "must be at least 1")
			}
			*durability = n
		}
	}
}

// parseTinkers reads the tinkers section: materials (id, name,
// harvest_level, speed, durability), heads and boosted (item ids without
// metadata).
func parseTinkers(d *strictyaml.Decoder, n *yaml.Node) TinkerRules {
	t := TinkerRules{Materials: map[int]TinkerMaterial{}}
	f := d.Mapping(n, "tinkers", []string{"materials", "heads", "boosted"})
	if v, ok := f["materials"]; ok {
		for i, mn := range d.Sequence(v.Value, "tinkers.materials") {
			path := strictyaml.Index("tinkers.materials", i)
			mf := d.Mapping(mn, path, []string{"id", "name", "harvest_level", "speed", "durability"})
			d.Require(mn, path, mf, "id", "name", "harvest_level", "speed", "durability")
			var m TinkerMaterial
			if v, ok := mf["id"]; ok {
				if id, ok := d.Int(v.Value, path+".id"); ok {
					if _, dup := t.Materials[id]; dup {
						d.Errorf(v.Value, path+".id", "material %d is listed twice", id)
					}
					if id < 0 {
						d.Errorf(v.Value, path+".id", "must be at least 0")
					}
					m.ID = id
				}
			}
			if v, ok := mf["name"]; ok {
				m.Name, _ = d.String(v.Value, path+".name")
			}
			toolStats(d, mf, path, &m.Level, &m.Speed, &m.Durability)
			t.Materials[m.ID] = m
		}
	}
	ids := func(key string) []string {
		v, ok := f[key]
		if !ok {
			return nil
		}
		var out []string
		for i, in := range d.Sequence(v.Value, "tinkers."+key) {
			path := strictyaml.Index("tinkers."+key, i)
			s, ok := d.String(in, path)
			if !ok {
				continue
			}
			if id, _, err := game.SplitID(s); err != nil || strings.HasPrefix(s, "ore:") || strings.HasPrefix(s, "tool:") || id != s {
				d.Errorf(in, path, "%q: an item id without metadata expected (modid:name)", s)
				continue
			}
			out = append(out, s)
		}
		return out
	}
	t.Heads, t.Boosted = ids("heads"), ids("boosted")
	return t
}

// TinkerHead is the material of a Tinkers' head item ("TConstruct:
// pickaxeHead" at the material's id as metadata); false for any other
// item or a material the table does not know.
func (r *MiningRules) TinkerHead(st game.ItemStack) (TinkerMaterial, bool) {
	if st.Empty() || !slices.Contains(r.tinker.Heads, st.ID) {
		return TinkerMaterial{}, false
	}
	m, ok := r.tinker.Materials[st.Meta]
	return m, ok
}

// TinkerTool is the NBT a tool station gives a tool (toolID) built on
// the head: the head's material and harvest level, one lower for a tool
// that needs its mining boost (IguanaTinkerTweaks' LevelingLogic
// .addBoostTags: a pickaxe whose head is above level 0). False when the
// stack is not a head the table knows.
func (r *MiningRules) TinkerTool(toolID string, head game.ItemStack) (*game.TinkerTool, bool) {
	m, ok := r.TinkerHead(head)
	if !ok {
		return nil, false
	}
	lv := m.Level
	if lv > 0 && slices.Contains(r.tinker.Boosted, toolID) {
		lv--
	}
	return &game.TinkerTool{Head: m.ID, HarvestLevel: lv}, true
}

// TinkerMaterial returns a Tinkers' material by id.
func (r *MiningRules) TinkerMaterial(id int) (TinkerMaterial, bool) {
	m, ok := r.tinker.Materials[id]
	return m, ok
}

var (
	defaultMiningOnce sync.Once
	defaultMining     *MiningRules
)

// loadMiningRules returns the shipped table (config/mining.yaml).
func loadMiningRules() *MiningRules {
	defaultMiningOnce.Do(func() {
		data, err := fs.ReadFile(config.FS, "mining.yaml")
		if err == nil {
			defaultMining, err = ParseMiningRules("config/mining.yaml", data)
		}
		if err != nil {
			panic(fmt.Sprintf("rules: shipped mining.yaml is invalid: %v", err))
		}
	})
	return defaultMining
}

// Block returns the rule of a block id ("modid:name"); false when the table
// does not know it (callers choose their own guess for mod blocks).
func (r *MiningRules) Block(id string) (BlockRule, bool) {
	rule, ok := r.blocks[id]
	return rule, ok
}

// Material returns the tool material of an item id, if any: an entry
// naming the id itself, else the first whose prefix it starts with.
func (r *MiningRules) Material(id string) (ToolMaterial, bool) {
	for _, m := range r.materials {
		if m.ID != "" && m.ID == id {
			return m, true
		}
	}
	for _, m := range r.materials {
		if m.ID == "" && strings.HasPrefix(id, m.Prefix) {
			return m, true
		}
	}
	return ToolMaterial{}, false
}

// ToolSpeed is the mining speed of the held stack against a tool class: 0
// for a tool that mines nothing (MinesNothing: whatever the block, the hand
// holding it does not dig), 1 when the stack is not a tool of that class
// (the hand), the material's speed for vanilla tools, and other for tools of
// the class the table does not know (GregTech's, Tinkers') — callers pick
// how to guess.
func (r *MiningRules) ToolSpeed(held game.ItemStack, class string, other float64) float64 {
	if r.MinesNothing(held.ID) {
		return 0
	}
	if class == "" || held.Empty() || !held.HasTag("tool:"+class) {
		return 1
	}
	if held.Tinker != nil {
		if m, ok := r.tinker.Materials[held.Tinker.Head]; ok {
			return m.Speed
		}
	}
	if m, ok := r.Material(held.ID); ok {
		return m.Speed
	}
	return other
}

// ToolLevel is the harvest level of the held stack for a tool class: -1
// when the stack is not a tool of that class (the hand) or mines nothing,
// the material's level for vanilla tools, and other for tools of the class
// the table does not know (GregTech's, Tinkers') — callers pick how to
// guess.
func (r *MiningRules) ToolLevel(held game.ItemStack, class string, other int) int {
	if class == "" || held.Empty() || !held.HasTag("tool:"+class) || r.MinesNothing(held.ID) {
		return -1
	}
	if held.Tinker != nil {
		// A Tinkers' tool mines at the level its NBT carries.
		return held.Tinker.HarvestLevel
	}
	if m, ok := r.Material(held.ID); ok {
		return m.Level
	}
	return other
}

// MinesNothing reports whether an item id is a tool that digs nothing
// while held (see ToolMaterial.MinesNothing).
func (r *MiningRules) MinesNothing(id string) bool {
	if id == "" {
		return false
	}
	m, ok := r.Material(id)
	return ok && m.MinesNothing
}

// Harvests reports whether the held stack makes the block drop, as
// Forge 1.7.10's ForgeHooks.canHarvestBlock decides: a block that needs a
// tool drops only for a tool of its class whose harvest level is at least
// the block's (a wooden pickaxe on diamond ore, or the hand on a gold
// block, breaks it at the slow rate and drops nothing). other is the level
// assumed for tools the table does not know (see ToolLevel).
func (r *MiningRules) Harvests(rule BlockRule, held game.ItemStack, other int) bool {
	if !rule.NeedsTool {
		return true
	}
	return r.ToolLevel(held, rule.Tool, other) >= rule.Level
}

// Wear is the durability a held stack loses for breaking a block of the
// given hardness in 1.7.10: ItemTool.onBlockDestroyed (pickaxes, axes,
// shovels) damages by 1 and ItemSword.onBlockDestroyed by 2 whenever the
// block's hardness is not 0, whatever the block and whether or not the tool
// suits it; hoes and other items (ItemHoe does not override
// Item.onBlockDestroyed) do not wear, and nothing wears on a block that
// breaks at once.
func Wear(held game.ItemStack, hardness float64) int {
	if hardness == 0 || held.Empty() || held.MaxDamage <= 0 {
		return 0
	}
	switch {
	case held.HasTag("tool:sword") || strings.HasSuffix(held.ID, "_sword"):
		return 2
	case held.HasTag("tool:pickaxe"), held.HasTag("tool:axe"), held.HasTag("tool:shovel"):
		return 1
	}
	return 0
}

// Worn is the held stack after it loses n durability: ItemStack.
// attemptDamageItem breaks an item once its damage exceeds its maximum, so
// a tool with MaxDamage 59 has 60 uses; a broken tool is the empty stack.
func Worn(held game.ItemStack, n int) game.ItemStack {
	if n <= 0 || held.MaxDamage <= 0 {
		return held
	}
	held.Damage += n
	if held.Damage > held.MaxDamage {
		return game.ItemStack{}
	}
	return held
}

// BreakTicks is 1.7.10's break time in ticks on the ground: hardness × 30
// / speed when the tool harvests the block, × 100 / speed otherwise; 1 for
// an instant break and +Inf for an unbreakable block.
func BreakTicks(hardness, speed float64, harvest bool) float64 {
	if hardness < 0 || speed <= 0 {
		return math.Inf(1)
	}
	if hardness == 0 {
		return 1
	}
	div := 100.0
	if harvest {
		div = 30
	}
	return math.Ceil(hardness * div / speed)
}

// Blocks lists the block ids the table knows, sorted.
func (r *MiningRules) Blocks() []string {
	return slices.Sorted(maps.Keys(r.blocks))
}

// BestTool is the slot of the tool to hold for a matcher: for a tool
// class ("tool:pickaxe"), the one of the highest harvest level (a
// Tinkers' iron pickaxe over a flint one), then the most uses left; for
// any other matcher the one with the most uses left
// (game.Inventory.BestTool). -1 when none has minDurability uses left.
func (r *MiningRules) BestTool(inv game.Inventory, m game.ItemMatcher, minDurability int) int {
	class, ok := strings.CutPrefix(m.String(), "tool:")
	if !ok {
		return inv.BestTool(m, minDurability)
	}
	best, bestLevel, bestDur := -1, -2, -2
	for i, s := range inv.Slots {
		if !m.Matches(s) {
			continue
		}
		d := s.Durability()
		if d < 0 {
			d = math.MaxInt
		}
		if d < minDurability {
			continue
		}
		lv := r.ToolLevel(s, class, 0)
		if lv > bestLevel || lv == bestLevel && d > bestDur {
			best, bestLevel, bestDur = i, lv, d
		}
	}
	return best
}
