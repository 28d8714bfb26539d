package rules

import (
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// Ingredient is one input of a recipe.
type Ingredient struct {
	Item  game.ItemMatcher `json:"item"`
	Count int              `json:"count"`
}

// Recipe is a crafting recipe. Grid is "2x2" (inventory) or "3x3"
// (crafting table) for a crafting-grid recipe; a station recipe has no grid
// and names in Station the block it is made at instead (a Tinkers'
// Construct stencil table, part builder or tool station, whose own
// windows take the ingredients: such a recipe never matches a crafting
// grid). Tools are needed in the grid (or at the station: a Tinkers'
// pattern in the part builder) but not consumed. Shape, when set, is the
// pattern of a shaped recipe (see ParsePattern); without it the recipe is
// shapeless. Returns are the containers an operation gives back (the empty
// bucket of a water bucket used up), one of each per operation.
type Recipe struct {
	Output      string             `json:"output"` // modid:name[:meta]
	Count       int                `json:"count"`
	Grid        string             `json:"grid"`
	Station     string             `json:"station,omitempty"` // modid:name[:meta] of the block
	Ingredients []Ingredient       `json:"ingredients"`
	Tools       []game.ItemMatcher `json:"tools,omitempty"`
	Shape       Pattern            `json:"shape,omitempty"`
	Returns     []string           `json:"returns,omitempty"`
}

// NeedsTable reports whether the recipe needs a crafting table (a station
// recipe has no grid).
func (r Recipe) NeedsTable() bool { return r.Grid == "3x3" }

// AtStation reports whether the recipe is made at a station block (see
// Recipe.Station) rather than in a crafting grid.
func (r Recipe) AtStation() bool { return r.Station != "" }

// maxStationInputs bounds a station recipe's ingredients and tools: the
// Tinkers' tool forge, the largest station, takes four parts and a
// pattern-less build; nine keeps a typo from passing.
const maxStationInputs = 9

// Recipes is a recipe book indexed by output item.
type Recipes struct {
	list     []Recipe
	byOutput map[string][]int
}

// ParseRecipes reads a recipes data file (see config/recipes.yaml).
func ParseRecipes(file string, data []byte) (*Recipes, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	top := d.Mapping(root, "", []string{"recipes"})
	book := &Recipes{byOutput: map[string][]int{}}
	item := func(n strictyaml.Field, path string) (game.ItemMatcher, bool) { return decodeMatcher(d, n, path) }
	if f, ok := top["recipes"]; ok {
		for i, n := range d.Sequence(f.Value, "recipes") {
			path := strictyaml.Index("recipes", i)
			fs := d.Mapping(n, path, []string{"output", "count", "grid", "station", "ingredients", "tools", "shape", "returns"})
			d.Require(n, path, fs, "output", "ingredients")
			r := Recipe{Count: 1, Grid: "3x3"}
			valid := true
			if f, ok := fs["output"]; ok {
				if s, ok := d.String(f.Value, path+".output"); ok {
					if _, _, err := game.SplitID(s); err != nil {
						d.Errorf(f.Value, path+".output", "%v", err)
						valid = false
					}
					r.Output = s
				}
			}
			if f, ok := fs["count"]; ok {
				if c, ok := d.Int(f.Value, path+".count"); ok {
					if c < 1 || c > 64 {
						d.Errorf(f.Value, path+".count", "count must be 1..64, got %d", c)
					}
					r.Count = c
				}
			}
			if f, ok := fs["grid"]; ok {
				if s, ok := d.String(f.Value, path+".grid"); ok {
					if s != "2x2" && s != "3x3" {
						d.Errorf(f.Value, path+".grid", "grid must be 2x2 or 3x3, got %q", s)
					}
					r.Grid = s
				}
			}
			if f, ok := fs["station"]; ok {
				if s, ok := d.String(f.Value, path+".station"); ok {
					switch _, _, err := game.SplitID(s); {
					case err != nil:
						d.Errorf(f.Value, path+".station", "%v", err)
						valid = false
					case strings.HasPrefix(s, "ore:") || strings.HasPrefix(s, "tool:"):
						d.Errorf(f.Value, path+".station", "%q: a station is one block, not a class of items", s)
						valid = false
					case fs["grid"].Value != nil:
						d.Errorf(f.Value, path+".station", "a recipe made at a station has no grid (grid %s given)", r.Grid)
						valid = false
					}
					r.Station, r.Grid = s, ""
				}
			}
			if f, ok := fs["ingredients"]; ok {
				slots := 0
				for j, in := range d.Sequence(f.Value, path+".ingredients") {
					ip := strictyaml.Index(path+".ingredients", j)
					ifs := d.Mapping(in, ip, []string{"item", "count"})
					d.Require(in, ip, ifs, "item")
					ing := Ingredient{Count: 1}
					if f, ok := ifs["item"]; ok {
						if m, ok := item(f, ip+".item"); ok {
							ing.Item = m
						} else {
							valid = false
						}
					}
					if f, ok := ifs["count"]; ok {
						if c, ok := d.Int(f.Value, ip+".count"); ok {
							if c < 1 || c > 9 {
								d.Errorf(f.Value, ip+".count", "count must be 1..9, got %d", c)
							}
							ing.Count = c
						}
					}
					slots += ing.Count
					r.Ingredients = append(r.Ingredients, ing)
				}
				if max := gridSlots(r.Grid); r.Station == "" && slots > max {
					d.Errorf(f.Value, path+".ingredients", "%d ingredients do not fit a %s grid", slots, r.Grid)
				} else if r.Station != "" && slots > maxStationInputs {
					d.Errorf(f.Value, path+".ingredients", "%d ingredients: a station takes at most %d", slots, maxStationInputs)
				}
			}
			if f, ok := fs["tools"]; ok {
				for j, s := range d.StringList(f.Value, path+".tools") {
					m, err := game.ParseItemMatcher(s)
					if err != nil {
						d.Errorf(f.Value, strictyaml.Index(path+".tools", j), "%v", err)
						continue
					}
					r.Tools = append(r.Tools, m)
				}
			}
			if f, ok := fs["shape"]; ok && r.Station != "" {
				d.Errorf(f.Value, path+".shape", "a recipe made at a station has no shape: the station's window takes the ingredients")
				valid = false
			} else if ok {
				rows := d.StringList(f.Value, path+".shape")
				sh, err := ParsePattern(rows, r)
				if err != nil {
					d.Errorf(f.Value, path+".shape", "%v", err)
					valid = false
				}
				r.Shape = sh
			}
			if f, ok := fs["returns"]; ok {
				for j, id := range d.StringList(f.Value, path+".returns") {
					if _, _, err := game.SplitID(id); err != nil {
						d.Errorf(f.Value, strictyaml.Index(path+".returns", j), "%v", err)
						continue
					}
					if strings.HasPrefix(id, "ore:") || strings.HasPrefix(id, "tool:") {
						d.Errorf(f.Value, strictyaml.Index(path+".returns", j), "%q: what comes back is one item, not a class of items", id)
						continue
					}
					r.Returns = append(r.Returns, id)
				}
			}
			if valid && r.Output != "" {
				book.byOutput[r.Output] = append(book.byOutput[r.Output], len(book.list))
				book.list = append(book.list, r)
			}
		}
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	return book, nil
}

func gridSlots(grid string) int {
	if grid == "2x2" {
		return 4
	}
	return 9
}

var (
	defaultRecipesOnce sync.Once
	defaultRecipes     *Recipes
)

// loadRecipes returns the shipped recipe book (config/recipes.yaml).
func loadRecipes() *Recipes {
	defaultRecipesOnce.Do(func() {
		data, err := fs.ReadFile(config.FS, "recipes.yaml")
		if err == nil {
			defaultRecipes, err = ParseRecipes("config/recipes.yaml", data)
		}
		if err != nil {
			panic(fmt.Sprintf("rules: shipped recipes.yaml is invalid: %v", err))
		}
	})
	return defaultRecipes
}

// For returns the recipes producing an item id ("modid:name[:meta]"), in file order.
func (b *Recipes) For(output string) []Recipe {
	idx := b.byOutput[output]
	out := make([]Recipe, len(idx))
	for i, j := range idx {
		out[i] = b.list[j]
	}
	return out
}

// IsStation reports whether a block (id and metadata) is where some recipe
// is made (Recipe.Station): a station block placed from the inventory is
// that block.
func (b *Recipes) IsStation(id string, meta int) bool {
	for _, r := range b.list {
		if r.Station == "" {
			continue
		}
		if sid, smeta, err := game.SplitID(r.Station); err == nil && sid == id && max(smeta, 0) == meta {
			return true
		}
	}
	return false
}

// All returns every recipe in file order.
func (b *Recipes) All() []Recipe { return append([]Recipe(nil), b.list...) }

// decodeMatcher reads an item matcher field ("modid:name[:meta]",
// "ore:Name", "tool:class"), reporting a bad one at its place.
func decodeMatcher(d *strictyaml.Decoder, n strictyaml.Field, path string) (game.ItemMatcher, bool) {
	s, ok := d.String(n.Value, path)
	if !ok {
		return game.ItemMatcher{}, false
	}
	m, err := game.ParseItemMatcher(s)
	if err != nil {
		d.Errorf(n.Value, path, "%v", err)
		return game.ItemMatcher{}, false
	}
	return m, true
}
