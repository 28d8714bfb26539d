package rules

import (
	"strconv"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// SmeltRecipe is one furnace recipe: an input matcher and the output.
type SmeltRecipe struct {
	Input  game.ItemMatcher
	Output string // "modid:name[:meta]"
	Count  int
}

// InFurnace is what a furnace's slots hold of a batch of this recipe
// making item: its output of the item (made, not taken out) and its input
// of the recipe's input (cooking on). A batch whose step a mob cut short
// leaves them there, and a player counts both. Other items count nothing;
// tags name the stacks' ore-dictionary entries (nil: the shipped table).
func (r SmeltRecipe) InFurnace(slots map[string]game.ItemStack, item string, tags *TagTable) (done, cooking int) {
	if tags == nil {
		tags = Default().Tags
	}
	if out := slots["output"]; !out.Empty() && (out.ID == item || out.ID+":"+strconv.Itoa(out.Meta) == item) {
		done = out.Count
	}
	if in := slots["input"]; !in.Empty() {
		if len(in.Tags) == 0 {
			in.Tags = tags.ItemTags(in.ID, in.Meta)
		}
		if r.Input.Matches(in) {
			cooking = in.Count
		}
	}
	return done, cooking
}

// Fuel is how long an item burns in a furnace.
type Fuel struct {
	Item  game.ItemMatcher
	Ticks int
}

// Smelting is the furnace's table (config/smelting.yaml): its recipes, its
// fuels and the ticks one item takes.
type Smelting struct {
	CookTicks int
	recipes   []SmeltRecipe
	fuels     []Fuel
}

// maxBurnTicks bounds a fuel's burn time (a lava bucket, the longest
// vanilla fuel, burns 20,000 ticks).
const maxBurnTicks = 1 << 20

// ParseSmelting reads a smelting data file (see config/smelting.yaml).
func ParseSmelting(file string, data []byte) (*Smelting, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	t := &Smelting{}
	top := d.Mapping(root, "", []string{"cook_ticks", "recipes", "fuels"})
	d.Require(root, "", top, "cook_ticks")
	matcher := func(n strictyaml.Field, path string) (game.ItemMatcher, bool) { return decodeMatcher(d, n, path) }
	if f, ok := top["cook_ticks"]; ok {
		if n, ok := d.Int(f.Value, "cook_ticks"); ok {
			if n < 1 || n > 72000 {
				d.Errorf(f.Value, "cook_ticks", "must be within 1..72000, got %d", n)
			}
			t.CookTicks = n
		}
	}
	if f, ok := top["recipes"]; ok {
		for i, n := range d.Sequence(f.Value, "recipes") {
			path := strictyaml.Index("recipes", i)
			rf := d.Mapping(n, path, []string{"input", "output", "count"})
			d.Require(n, path, rf, "input", "output")
			r := SmeltRecipe{Count: 1}
			if v, ok := rf["input"]; ok {
				r.Input, _ = matcher(v, path+".input")
			}
			if v, ok := rf["output"]; ok {
				if s, ok := d.String(v.Value, path+".output"); ok {
					if _, _, err := game.SplitID(s); err != nil {
						d.Errorf(v.Value, path+".output", "%v", err)
					}
					r.Output = s
				}
			}
			if v, ok := rf["count"]; ok {
				if c, ok := d.Int(v.Value, path+".count"); ok {
					if c < 1 || c > 64 {
						d.Errorf(v.Value, path+".count", "count must be 1..64, got %d", c)
					}
					r.Count = c
				}
			}
			t.recipes = append(t.recipes, r)
		}
	}
	if f, ok := top["fuels"]; ok {
		for i, n := range d.Sequence(f.Value, "fuels") {
			path := strictyaml.Index("fuels", i)
			ff := d.Mapping(n, path, []string{"item", "ticks"})
			d.Require(n, path, ff, "item", "ticks")
			var fu Fuel
			if v, ok := ff["item"]; ok {
				fu.Item, _ = matcher(v, path+".item")
			}
			if v, ok := ff["ticks"]; ok {
				if c, ok := d.Int(v.Value, path+".ticks"); ok {
					if c < 1 || c > maxBurnTicks {
						d.Errorf(v.Value, path+".ticks", "must be within 1..%d, got %d", maxBurnTicks, c)
					}
					fu.Ticks = c
				}
			}
			t.fuels = append(t.fuels, fu)
		}
	}
	if err := d.Err(); err != nil {
		d.Errs.Sort()
		return nil, d.Errs
	}
	return t, nil
}

// loadSmelting parses the shipped table (config/smelting.yaml); Default
// holds it.
func loadSmelting() *Smelting {
	return loadShipped("smelting.yaml", ParseSmelting)
}

// Recipe returns the recipe that smelts a stack, if any (the first that
// matches).
func (t *Smelting) Recipe(in game.ItemStack) (SmeltRecipe, bool) {
	for _, r := range t.recipes {
		if r.Input.Matches(in) {
			return r, true
		}
	}
	return SmeltRecipe{}, false
}

// For returns the recipes whose output is the item id, in file order.
func (t *Smelting) For(output string) []SmeltRecipe {
	var out []SmeltRecipe
	for _, r := range t.recipes {
		if r.Output == output {
			out = append(out, r)
		}
	}
	return out
}

// All returns every recipe, in file order.
func (t *Smelting) All() []SmeltRecipe { return append([]SmeltRecipe(nil), t.recipes...) }

// BurnTicks is how long a stack's item burns (0: not a fuel).
func (t *Smelting) BurnTicks(st game.ItemStack) int {
	for _, f := range t.fuels {
		if f.Item.Matches(st) {
			return f.Ticks
		}
	}
	return 0
}

// Fuels returns every fuel, in file order.
func (t *Smelting) Fuels() []Fuel { return append([]Fuel(nil), t.fuels...) }
