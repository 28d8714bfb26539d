package recipebook

import (
	"errors"
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

// RuleSet returns a copy of base that crafts and smelts by the book: its
// grid recipes become the recipe book (Recipe.Crafting) and its furnace
// recipes the furnace's table, which keeps base's cook time and fuels.
// Machine recipes are not used by the agent's rules. A book with no grid
// recipe keeps base's recipe book, one with no furnace recipe base's
// furnace recipes. A recipe the agent's model cannot take is an error
// naming its index in the book.
func (b *Book) RuleSet(base *rules.Set) (*rules.Set, error) {
	var craft []rules.Recipe
	var smelt []rules.SmeltRecipe
	var index []int // book index of each craft recipe, for errors
	for i := range b.Recipes {
		r := &b.Recipes[i]
		switch r.Kind {
		case Shaped, Shapeless:
			rec, ok, err := r.Crafting()
			if err != nil {
				return nil, fmt.Errorf("recipe %d: %w", i, err)
			}
			if ok {
				craft = append(craft, rec)
				index = append(index, i)
			}
		case Smelting:
			if len(r.Inputs) != 1 || len(r.Inputs[0].Options) == 0 || len(r.Outputs) != 1 {
				return nil, fmt.Errorf("recipe %d: a furnace recipe takes one input and makes one output", i)
			}
			m, err := game.ParseItemMatcher(r.Inputs[0].Options[0])
			if err != nil {
				return nil, fmt.Errorf("recipe %d: inputs[0]: %w", i, err)
			}
			smelt = append(smelt, rules.SmeltRecipe{Input: m, Output: r.Outputs[0].Item, Count: int(r.Outputs[0].Count)})
		}
	}
	var book *rules.Recipes
	if len(craft) > 0 {
		var err error
		if book, err = rules.NewRecipes(craft); err != nil {
			return nil, renumber(err, index)
		}
	}
	var sm *rules.Smelting
	if len(smelt) > 0 {
		var err error
		if sm, err = base.Smelt.WithRecipes(smelt); err != nil {
			return nil, fmt.Errorf("furnace recipes: %w", err)
		}
	}
	return base.WithRecipes(book, sm), nil
}

// renumber gives the first bad crafting recipe its index in the book.
func renumber(err error, index []int) error {
	var re *rules.RecipeError
	if errors.As(err, &re) && re.Index < len(index) {
		return fmt.Errorf("recipe %d: %w", index[re.Index], re.Err)
	}
	return err
}

// LoadRules reads a compact recipe file (ReadFile) and returns base playing
// by its recipes (Book.RuleSet). Errors name the file.
func LoadRules(path string, base *rules.Set) (*rules.Set, error) {
	b, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	set, err := b.RuleSet(base)
	if err != nil {
		return nil, &FileError{File: path, Recipe: -1, Err: err}
	}
	return set, nil
}
