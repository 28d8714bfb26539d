package rules

import (
	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// CokeRecipe is one Railcraft coke oven recipe: an input matcher, the one
// output item, the ticks it cooks and the creosote it makes.
type CokeRecipe struct {
	Input    game.ItemMatcher
	Output   string // "modid:name[:meta]"
	Ticks    int
	Creosote int // mB
}

// CokeOven is the Railcraft coke oven's table (config/coke_oven.yaml): its
// recipes, the step it works in and its creosote tank.
type CokeOven struct {
	CookStep int // the oven works on ticks divisible by this
	TankMB   int // the creosote tank's capacity
	recipes  []CokeRecipe
}

// maxCokeTicks bounds a recipe's cook time (a coal block, the longest
// Railcraft recipe, takes 16,200 ticks).
const maxCokeTicks = 1 << 20

// ParseCokeOven reads a coke oven data file (see config/coke_oven.yaml).
func ParseCokeOven(file string, data []byte) (*CokeOven, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	t := &CokeOven{}
	top := d.Mapping(root, "", []string{"cook_step", "tank_mb", "recipes"})
	d.Require(root, "", top, "cook_step", "tank_mb", "recipes")
	positive := func(key string, limit int) int {
		f, ok := top[key]
		if !ok {
			return 0
		}
		n, ok := d.Int(f.Value, key)
		if ok && (n < 1 || n > limit) {
			d.Errorf(f.Value, key, "must be within 1..%d, got %d", limit, n)
		}
		return n
	}
	t.CookStep = positive("cook_step", 72000)
	t.TankMB = positive("tank_mb", 1<<30)
	if f, ok := top["recipes"]; ok {
		for i, n := range d.Sequence(f.Value, "recipes") {
			path := strictyaml.Index("recipes", i)
			rf := d.Mapping(n, path, []string{"input", "output", "ticks", "creosote"})
			d.Require(n, path, rf, "input", "output", "ticks", "creosote")
			var r CokeRecipe
			if v, ok := rf["input"]; ok {
				r.Input, _ = decodeMatcher(d, v, path+".input")
			}
			if v, ok := rf["output"]; ok {
				if s, ok := d.String(v.Value, path+".output"); ok {
					if _, _, err := game.SplitID(s); err != nil {
						d.Errorf(v.Value, path+".output", "%v", err)
					}
					r.Output = s
				}
			}
			if v, ok := rf["ticks"]; ok {
				if c, ok := d.Int(v.Value, path+".ticks"); ok {
					if c < 1 || c > maxCokeTicks {
						d.Errorf(v.Value, path+".ticks", "must be within 1..%d, got %d", maxCokeTicks, c)
					}
					r.Ticks = c
				}
			}
			if v, ok := rf["creosote"]; ok {
				if c, ok := d.Int(v.Value, path+".creosote"); ok {
					if c < 0 || t.TankMB > 0 && c > t.TankMB {
						d.Errorf(v.Value, path+".creosote", "must be within 0..%d (the tank), got %d", t.TankMB, c)
					}
					r.Creosote = c
				}
			}
			t.recipes = append(t.recipes, r)
		}
	}
	if err := d.Err(); err != nil {
		d.Errs.Sort()
		return nil, d.Errs
	}
	return t, nil
}

// loadCokeOven parses the shipped table (config/coke_oven.yaml).
func loadCokeOven() *CokeOven {
	return loadShipped("coke_oven.yaml", ParseCokeOven)
}

// Recipe returns the recipe for an input stack, if any: the first whose
// input matches (CokeOvenCraftingManager.getRecipe).
func (t *CokeOven) Recipe(in game.ItemStack) (CokeRecipe, bool) {
	if in.Empty() {
		return CokeRecipe{}, false
	}
	for _, r := range t.recipes {
		if r.Input.Matches(in) {
			return r, true
		}
	}
	return CokeRecipe{}, false
}

// For returns the recipes whose output is the item id, in file order.
func (t *CokeOven) For(output string) []CokeRecipe {
	var out []CokeRecipe
	for _, r := range t.recipes {
		if r.Output == output {
			out = append(out, r)
		}
	}
	return out
}

// All returns every recipe, in file order.
func (t *CokeOven) All() []CokeRecipe { return append([]CokeRecipe(nil), t.recipes...) }
