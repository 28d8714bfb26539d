package rules

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/game"
)

// RecipeError is a recipe of a loaded set that the agent's recipe model
// cannot take: which one (its index in the set) and why.
type RecipeError struct {
	Index int
	Err   error
}

func (e *RecipeError) Error() string { return fmt.Sprintf("recipe %d: %v", e.Index, e.Err) }

// Unwrap returns the cause.
func (e *RecipeError) Unwrap() error { return e.Err }

// NewRecipes builds a recipe book from recipes made elsewhere (a recipe
// file imported from a modpack's dump), checking each as ParseRecipes
// checks the shipped file: an output id, a count of 1..64, a 2x2 or 3x3
// grid and ingredients that fit it. Every bad recipe is reported.
func NewRecipes(list []Recipe) (*Recipes, error) {
	book := &Recipes{byOutput: map[string][]int{}, list: make([]Recipe, 0, len(list))}
	var errs []error
	for i, r := range list {
		if err := checkRecipe(r); err != nil {
			errs = append(errs, &RecipeError{Index: i, Err: err})
			continue
		}
		book.byOutput[r.Output] = append(book.byOutput[r.Output], len(book.list))
		book.list = append(book.list, r)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return book, nil
}

func checkRecipe(r Recipe) error {
	if _, _, err := game.SplitID(r.Output); err != nil {
		return fmt.Errorf("output: %w", err)
	}
	if r.Count < 1 || r.Count > 64 {
		return fmt.Errorf("count must be 1..64, got %d", r.Count)
	}
	if r.Station != "" {
		if _, _, err := game.SplitID(r.Station); err != nil || strings.HasPrefix(r.Station, "ore:") || strings.HasPrefix(r.Station, "tool:") {
			return fmt.Errorf("station %q: not a block id", r.Station)
		}
		if r.Grid != "" || len(r.Shape) > 0 {
			return errors.New("a recipe made at a station has no grid and no shape")
		}
	} else if r.Grid != "2x2" && r.Grid != "3x3" {
		return fmt.Errorf("grid must be 2x2 or 3x3, got %q", r.Grid)
	}
	if len(r.Ingredients) == 0 {
		return errors.New("no ingredients")
	}
	slots := len(r.Tools)
	for j, in := range r.Ingredients {
		if in.Count < 1 || in.Count > 9 {
			return fmt.Errorf("ingredients[%d].count must be 1..9, got %d", j, in.Count)
		}
		if in.Item.String() == "" {
			return fmt.Errorf("ingredients[%d]: no item", j)
		}
		slots += in.Count
	}
	if r.Station != "" {
		if slots > maxStationInputs {
			return fmt.Errorf("%d ingredients and tools: a station takes at most %d", slots, maxStationInputs)
		}
	} else if max := gridSlots(r.Grid); slots > max {
		return fmt.Errorf("%d ingredients and tools do not fit a %s grid", slots, r.Grid)
	}
	return nil
}

// WithRecipes returns a copy of the furnace's table with other recipes (a
// modpack's own) and the same cook time and fuels.
func (t *Smelting) WithRecipes(list []SmeltRecipe) (*Smelting, error) {
	var errs []error
	for i, r := range list {
		var err error
		switch {
		case r.Input.String() == "":
			err = errors.New("input: no item")
		case r.Count < 1 || r.Count > 64:
			err = fmt.Errorf("count must be 1..64, got %d", r.Count)
		default:
			if _, _, e := game.SplitID(r.Output); e != nil {
				err = fmt.Errorf("output: %w", e)
			}
		}
		if err != nil {
			errs = append(errs, &RecipeError{Index: i, Err: err})
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &Smelting{CookTicks: t.CookTicks, recipes: append([]SmeltRecipe(nil), list...), fuels: t.fuels}, nil
}

// WithRecipes returns a copy of the set that crafts by another recipe book
// and smelts by another furnace table (nil keeps the set's own), with its
// names extended by theirs. The set itself is not changed.
func (s *Set) WithRecipes(book *Recipes, smelt *Smelting) *Set {
	c := *s
	if book != nil {
		c.Recipes = book
	}
	if smelt != nil {
		c.Smelt = smelt
	}
	c.Names = s.Names.Clone()
	c.Names.AddRecipes(c.Recipes)
	c.Names.AddSmelting(c.Smelt)
	return &c
}
