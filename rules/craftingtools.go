package rules

import (
	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// CraftingTool is how a tool that stays in the crafting grid wears
// (config/crafting_tools.yaml).
type CraftingTool struct {
	Item           game.ItemMatcher
	MaxDamage      int
	DamagePerCraft int
	// PastMax: the tool survives at MaxDamage and the next craft uses it
	// up (the wooden brick form); otherwise the craft that reaches
	// MaxDamage is its last (GregTech's tools).
	PastMax bool
	// GregTech is set for a GregTech tool (MetaGeneratedTool), whose wear
	// lives in its NBT (GT.ToolStats) with the materials it was made of,
	// rather than in the item damage.
	GregTech *GTMaterials
}

// GTMaterials are the materials a GregTech tool's NBT names
// (getToolWithStats' primary and secondary material, by their mName).
type GTMaterials struct {
	Primary, Secondary string
}

// Uses is how many crafts a tool with the given damage still does.
func (t CraftingTool) Uses(damage int) int {
	left := t.MaxDamage - damage
	if t.PastMax {
		return max(0, left+1)
	}
	if left <= 0 {
		return 0
	}
	return (left + t.DamagePerCraft - 1) / t.DamagePerCraft
}

// CraftingTools is the table of tools that wear in the crafting grid.
type CraftingTools struct {
	tools []CraftingTool
}

// ParseCraftingTools reads a crafting tools data file (see
// config/crafting_tools.yaml).
func ParseCraftingTools(file string, data []byte) (*CraftingTools, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	t := &CraftingTools{}
	top := d.Mapping(root, "", []string{"tools"})
	d.Require(root, "", top, "tools")
	if f, ok := top["tools"]; ok {
		for i, n := range d.Sequence(f.Value, "tools") {
			path := strictyaml.Index("tools", i)
			tf := d.Mapping(n, path, []string{"item", "max_damage", "damage_per_craft", "breaks", "gregtech"})
			d.Require(n, path, tf, "item", "max_damage", "damage_per_craft", "breaks")
			var ct CraftingTool
			valid := true
			if v, ok := tf["item"]; ok {
				ct.Item, valid = decodeMatcher(d, v, path+".item")
			}
			for key, dst := range map[string]*int{"max_damage": &ct.MaxDamage, "damage_per_craft": &ct.DamagePerCraft} {
				v, ok := tf[key]
				if !ok {
					continue
				}
				if n, ok := d.Int(v.Value, path+"."+key); ok {
					if n < 1 || n > 1<<30 {
						d.Errorf(v.Value, path+"."+key, "must be within 1..%d, got %d", 1<<30, n)
						valid = false
					}
					*dst = n
				}
			}
			if v, ok := tf["breaks"]; ok {
				if s, ok := d.String(v.Value, path+".breaks"); ok {
					switch s {
					case "at_max":
					case "past_max":
						ct.PastMax = true
					default:
						d.Errorf(v.Value, path+".breaks", "must be at_max or past_max, got %q", s)
					}
				}
			}
			if v, ok := tf["gregtech"]; ok {
				gp := path + ".gregtech"
				gf := d.Mapping(v.Value, gp, []string{"primary", "secondary"})
				d.Require(v.Value, gp, gf, "primary", "secondary")
				var m GTMaterials
				for key, dst := range map[string]*string{"primary": &m.Primary, "secondary": &m.Secondary} {
					if f, ok := gf[key]; ok {
						if str, ok := d.String(f.Value, gp+"."+key); ok {
							if str == "" {
								d.Errorf(f.Value, gp+"."+key, "must name a material")
								valid = false
							}
							*dst = str
						}
					}
				}
				ct.GregTech = &m
			}
			if valid {
				t.tools = append(t.tools, ct)
			}
		}
	}
	if err := d.Err(); err != nil {
		d.Errs.Sort()
		return nil, d.Errs
	}
	return t, nil
}

// loadCraftingTools parses the shipped table (config/crafting_tools.yaml).
func loadCraftingTools() *CraftingTools {
	return loadShipped("crafting_tools.yaml", ParseCraftingTools)
}

// Get returns how a stack's item wears in the grid, if the table knows it.
func (t *CraftingTools) Get(st game.ItemStack) (CraftingTool, bool) {
	for _, ct := range t.tools {
		if ct.Item.Matches(st) {
			return ct, true
		}
	}
	return CraftingTool{}, false
}

// All returns every entry, in file order.
func (t *CraftingTools) All() []CraftingTool { return append([]CraftingTool(nil), t.tools...) }

// New gives a stack of a grid tool its wear limit (a new tool: damage 0).
// Stacks the table does not know, and stacks that already carry a limit,
// are returned as they are.
func (t *CraftingTools) New(st game.ItemStack) game.ItemStack {
	if ct, ok := t.Get(st); ok && st.MaxDamage == 0 {
		st.MaxDamage, st.Damage = ct.MaxDamage, 0
	}
	return st
}

// Uses is how many crafts a stack still does in the grid: -1 for an item
// that does not wear there (not in the table, or a stack without a wear
// limit), 0 for one worn out.
func (t *CraftingTools) Uses(st game.ItemStack) int {
	if st.Empty() {
		return 0
	}
	ct, ok := t.Get(st)
	if !ok || st.MaxDamage <= 0 {
		return -1
	}
	return ct.Uses(st.Damage) * st.Count
}

// AfterCraft is a grid tool after one craft: worn by its damage per craft,
// or the empty stack when that craft used it up.
func (t *CraftingTools) AfterCraft(st game.ItemStack) game.ItemStack {
	ct, ok := t.Get(st)
	if !ok || st.MaxDamage <= 0 {
		return st
	}
	if ct.Uses(st.Damage) <= 1 {
		return game.ItemStack{}
	}
	st.Damage += ct.DamagePerCraft
	return st
}

// UsesIn is how many crafts the inventory's stacks matching a tool
// matcher do in total, -1 when one of them does not wear.
func (t *CraftingTools) UsesIn(inv game.Inventory, m game.ItemMatcher) int {
	total := 0
	for _, st := range inv.Slots {
		if !m.Matches(st) {
			continue
		}
		u := t.Uses(st)
		if u < 0 {
			return -1
		}
		total += u
	}
	return total
}
