package rules

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGregTechIronToolRecipes: the shipped recipes of "Important Tools"
// read back as GT5-Unofficial writes them. Each shape is rendered in
// GregTech's letters (h the hard hammer, f the file in the grid; the
// ingredients by the letters of the source's pattern) and compared with
// the pattern strings of ProcessingToolHead, ProcessingPlate,
// ProcessingStick and ProcessingToolOther, blanks as '.', so a moved cell,
// a lost tool or a pattern of the wrong size fails here; a recipe three
// cells wide or tall needs the crafting table, GregTech's rod fits the
// inventory grid.
func TestGregTechIronToolRecipes(t *testing.T) {
	book := Default().Recipes
	letter := map[string]byte{
		"ore:craftingToolHardHammer": 'h',
		"ore:craftingToolFile":       'f',
	}
	for _, c := range []struct {
		output  string
		count   int
		letters map[string]byte // ingredient -> the source's letter
		pattern []string        // GregTech's, blanks as '.'
		shaped  bool
	}{
		{"gregtech:gt.metatool.01:12", 1, map[string]byte{"ore:ingotIron": 'X', "ore:stickWood": 'S'}, []string{"XX.", "XXS", "XX."}, true},
		{"gregtech:gt.metaitem.01:17032", 1, map[string]byte{"ore:ingotIron": 'X'}, []string{"h", "X", "X"}, true},
		{"gregtech:gt.metatool.01:18", 1, map[string]byte{"ore:plateIron": 'P', "ore:stickWood": 'S'}, []string{"P", "P", "S"}, true},
		{"gregtech:gt.metaitem.01:23032", 1, map[string]byte{"ore:ingotIron": 'X'}, []string{"f.", ".X"}, true},
		{"gregtech:gt.metatool.01:22", 1, map[string]byte{"ore:stickIron": 'S', "ore:stickWood": 'W'}, []string{".fS", ".Sh", "W.."}, true},
		{"gregtech:gt.metatool.01:16", 1, map[string]byte{"ore:ingotIron": 'I'}, []string{"IhI", "III", ".I."}, true},
		{"gregtech:gt.metaitem.02:7032", 1, map[string]byte{"ore:plateIron": 'P'}, []string{"PP.", "fh."}, true},
		{"gregtech:gt.metatool.01:10", 1, map[string]byte{"ore:toolHeadSawIron": 'B', "ore:stickWood": 'S'}, []string{"BS"}, false},
	} {
		rs := book.For(c.output)
		require.Len(t, rs, 1, c.output)
		r := rs[0]
		assert.Equal(t, c.count, r.Count, c.output)
		if !c.shaped {
			assert.Nil(t, r.Shape, "%s: shapeless", c.output)
			var got []byte
			for _, in := range r.Ingredients {
				l, ok := c.letters[in.Item.String()]
				require.True(t, ok, "%s: ingredient %s", c.output, in.Item)
				got = append(got, strings.Repeat(string(l), in.Count)...)
			}
			assert.ElementsMatch(t, []byte(c.pattern[0]), got, c.output)
			assert.Empty(t, r.Tools, c.output)
			assert.False(t, r.NeedsTable(), "%s: two items fit the inventory grid", c.output)
			continue
		}
		var rows []string
		for _, row := range r.Shape {
			var b strings.Builder
			for _, cell := range row {
				switch {
				case cell < 0:
					b.WriteByte('.')
				case cell < len(r.Ingredients):
					l, ok := c.letters[r.Ingredients[cell].Item.String()]
					require.True(t, ok, "%s: ingredient %s", c.output, r.Ingredients[cell].Item)
					b.WriteByte(l)
				default:
					l, ok := letter[r.Tools[cell-len(r.Ingredients)].String()]
					require.True(t, ok, "%s: tool %s", c.output, r.Tools[cell-len(r.Ingredients)])
					b.WriteByte(l)
				}
			}
			rows = append(rows, b.String())
		}
		assert.Equal(t, c.pattern, rows, c.output)
		big := len(c.pattern) == 3 || len(c.pattern[0]) == 3
		assert.Equal(t, big, r.NeedsTable(), "%s: a crafting table for a pattern three cells across", c.output)
	}
}
