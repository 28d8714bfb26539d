package rules

import (
	"fmt"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/game"
)

// A crafting grid as 1.7.10 reads it: CraftingManager.findMatchingRecipe
// asks every recipe whether the grid matches it. ShapedRecipes.matches
// tries the pattern at every offset that fits the grid, as written and
// mirrored left to right, and wants every cell outside the pattern empty;
// ShapelessRecipes.matches wants each stack in the grid to be used by one
// ingredient and every ingredient used. The test server computes its
// crafting results with Match, and the live client lays a recipe out with
// Layout, so both read the same patterns.

// Pattern is a shaped recipe's pattern: rows of cells, each the index of what
// goes there (an ingredient i, or a tool len(Ingredients)+k) or -1 for an
// empty cell. Every row has the same width.
type Pattern [][]int

// Width is the pattern's width in cells.
func (s Pattern) Width() int {
	if len(s) == 0 {
		return 0
	}
	return len(s[0])
}

// ParsePattern reads a pattern written as rows of letters, vanilla's way: A
// is the recipe's first ingredient, B the second, …, then its tools in
// order after the ingredients; '.' is an empty cell. Each ingredient's
// letter must appear as often as its count, each tool's once, and the
// pattern must fit the recipe's grid.
func ParsePattern(rows []string, r Recipe) (Pattern, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("a shape needs at least one row")
	}
	limit := 3
	if r.Grid == "2x2" {
		limit = 2
	}
	if len(rows) > limit {
		return nil, fmt.Errorf("%d rows do not fit a %s grid", len(rows), r.Grid)
	}
	n := len(r.Ingredients) + len(r.Tools)
	want := make([]int, n)
	for i, in := range r.Ingredients {
		want[i] = in.Count
	}
	for k := range r.Tools {
		want[len(r.Ingredients)+k] = 1
	}
	got := make([]int, n)
	sh := make(Pattern, len(rows))
	for y, row := range rows {
		if len(row) == 0 || len(row) > limit {
			return nil, fmt.Errorf("row %d %q: want 1 to %d cells", y+1, row, limit)
		}
		if len(row) != len(rows[0]) {
			return nil, fmt.Errorf("row %d %q is %d cells wide, row 1 %d", y+1, row, len(row), len(rows[0]))
		}
		sh[y] = make([]int, len(row))
		for x, ch := range row {
			switch {
			case ch == '.':
				sh[y][x] = -1
			case ch >= 'A' && int(ch-'A') < n:
				sh[y][x] = int(ch - 'A')
				got[ch-'A']++
			default:
				return nil, fmt.Errorf("row %d %q: cell %q names nothing (A..%c for the %d ingredients and tools, '.' for empty)",
					y+1, row, ch, 'A'+rune(n)-1, n)
			}
		}
	}
	for i := range want {
		if got[i] != want[i] {
			what := fmt.Sprintf("ingredient %c (%s) has count %d", 'A'+rune(i), r.Ingredients[min(i, len(r.Ingredients)-1)].Item, want[i])
			if i >= len(r.Ingredients) {
				what = fmt.Sprintf("tool %c (%s) goes in once", 'A'+rune(i), r.Tools[i-len(r.Ingredients)])
			}
			return nil, fmt.Errorf("%s but the shape has it in %d cells", what, got[i])
		}
	}
	return sh, nil
}

// String writes the pattern back as ParsePattern reads it.
func (s Pattern) String() string {
	rows := make([]string, len(s))
	for y, row := range s {
		var b strings.Builder
		for _, v := range row {
			if v < 0 {
				b.WriteByte('.')
			} else {
				b.WriteByte(byte('A' + v))
			}
		}
		rows[y] = b.String()
	}
	return strings.Join(rows, "/")
}

// Layout places one crafting operation of the recipe on a grid of the
// given width: the cells (row-major indexes) and what goes in each (an
// ingredient index, or len(Ingredients)+k for tool k). A shaped recipe
// takes its pattern at the top left; a shapeless one fills the grid in
// order. ok is false when it does not fit, and for a station recipe, which
// no crafting grid takes.
func (r Recipe) Layout(width int) (cells []int, what []int, ok bool) {
	if r.AtStation() {
		return nil, nil, false
	}
	if len(r.Shape) > 0 {
		if len(r.Shape) > width || r.Shape.Width() > width {
			return nil, nil, false
		}
		for y, row := range r.Shape {
			for x, v := range row {
				if v >= 0 {
					cells = append(cells, y*width+x)
					what = append(what, v)
				}
			}
		}
		return cells, what, true
	}
	n := 0
	for i, in := range r.Ingredients {
		for k := 0; k < in.Count; k++ {
			cells, what = append(cells, n), append(what, i)
			n++
		}
	}
	for k := range r.Tools {
		cells, what = append(cells, n), append(what, len(r.Ingredients)+k)
		n++
	}
	return cells, what, n <= width*width
}

// Matches reports whether a crafting grid (width × width stacks, row-major,
// empty stacks for empty cells) holds one operation of the recipe, as
// 1.7.10's ShapedRecipes.matches (every offset, plain and mirrored) and
// ShapelessRecipes.matches do. A recipe for the 3×3 grid matches only a
// 3×3 grid; a station recipe matches no crafting grid.
func (r Recipe) Matches(grid []game.ItemStack, width int) bool {
	if r.AtStation() || width < 1 || len(grid) != width*width || (r.NeedsTable() && width < 3) {
		return false
	}
	match := func(v int, st game.ItemStack) bool {
		if v < len(r.Ingredients) {
			return r.Ingredients[v].Item.Matches(st)
		}
		return r.Tools[v-len(r.Ingredients)].Matches(st)
	}
	if len(r.Shape) > 0 {
		h, w := len(r.Shape), r.Shape.Width()
		for oy := 0; oy+h <= width; oy++ {
			for ox := 0; ox+w <= width; ox++ {
				for _, mirror := range []bool{false, true} {
					if r.shapedAt(grid, width, ox, oy, mirror, match) {
						return true
					}
				}
			}
		}
		return false
	}
	// Shapeless: each unit of an ingredient (and each tool) takes one
	// stack; every stack must be taken.
	var units []int
	for i, in := range r.Ingredients {
		for k := 0; k < in.Count; k++ {
			units = append(units, i)
		}
	}
	for k := range r.Tools {
		units = append(units, len(r.Ingredients)+k)
	}
	var stacks []game.ItemStack
	for _, st := range grid {
		if !st.Empty() {
			stacks = append(stacks, st)
		}
	}
	if len(stacks) != len(units) {
		return false
	}
	used := make([]bool, len(stacks))
	var assign func(u int) bool
	assign = func(u int) bool {
		if u == len(units) {
			return true
		}
		for i, st := range stacks {
			if !used[i] && match(units[u], st) {
				used[i] = true
				if assign(u + 1) {
					return true
				}
				used[i] = false
			}
		}
		return false
	}
	return assign(0)
}

// shapedAt checks the pattern with its top left at (ox, oy).
func (r Recipe) shapedAt(grid []game.ItemStack, width, ox, oy int, mirror bool, match func(int, game.ItemStack) bool) bool {
	h, w := len(r.Shape), r.Shape.Width()
	for y := 0; y < width; y++ {
		for x := 0; x < width; x++ {
			st := grid[y*width+x]
			px, py := x-ox, y-oy
			v := -1
			if px >= 0 && px < w && py >= 0 && py < h {
				if mirror {
					px = w - 1 - px
				}
				v = r.Shape[py][px]
			}
			if v < 0 {
				if !st.Empty() {
					return false
				}
				continue
			}
			if !match(v, st) {
				return false
			}
		}
	}
	return true
}

// Match returns the first recipe, in file order, that the grid holds (see
// Recipe.Matches).
func (b *Recipes) Match(grid []game.ItemStack, width int) (Recipe, bool) {
	for _, r := range b.list {
		if r.Matches(grid, width) {
			return r, true
		}
	}
	return Recipe{}, false
}
