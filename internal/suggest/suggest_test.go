package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClosest(t *testing.T) {
	items := []string{"minecraft:log", "minecraft:log2", "minecraft:planks", "minecraft:stick"}
	for _, tc := range []struct {
		name, in string
		cands    []string
		want     string
	}{
		{"swapped letters", "minecraft:lgo", items, "minecraft:log"},
		{"a swap beats a same-length neighbour", "minecraft:lgo", []string{"minecraft:egg", "minecraft:log"}, "minecraft:log"},
		{"missing letter", "chop_tre", []string{"basic_crafting", "chop_tree", "mine_block"}, "chop_tree"},
		{"plural", "min_log", []string{"min_logs", "radius", "require_axe"}, "min_logs"},
		{"too far", "diamond", items, ""},
		{"exact is no suggestion", "minecraft:log", items, ""},
		{"third of a long name", "minecraft:plnkz", items, "minecraft:planks"},
		{"three edits in a long name", "coke-ovn-opratin", []string{"coke-oven-operation", "steam-age-boilers"}, "coke-oven-operation"},
		{"five edits are too many even in a long name", "xxxxx-oven-operation", []string{"coke-oven-operation"}, ""},
		{"four edits in a long name", "xxxx-oven-operation", []string{"coke-oven-operation"}, "coke-oven-operation"},
		{"two edits in a short name", "stk", []string{"planks", "stick"}, "stick"},
		{"three edits in a short name", "chp_re", []string{"chop_tree"}, ""},
		{"short names need close matches", "ab", []string{"xyz"}, ""},
		{"no candidates", "x", nil, ""},
		{"tie goes to the first", "ab", []string{"aa", "bb"}, "aa"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Closest(tc.in, tc.cands))
		})
	}
	assert.Equal(t, ` (did you mean "chop_tree"?)`, DidYouMean("chop_tre", []string{"chop_tree"}))
	assert.Equal(t, "", DidYouMean("zzzzzzzz", []string{"chop_tree"}))
}

// The spec loader's field names (moved from strictyaml, which uses Closest).
func TestClosestFieldNames(t *testing.T) {
	allowed := []string{"tech_states_any_of", "required_tools", "dimension_allowlist", "semantic_tags_any_of", "extra"}
	for _, tc := range []struct{ in, want string }{
		{"required_tool", "required_tools"},
		{"dimensions_allowlist", "dimension_allowlist"},
		{"tech_state_any_of", "tech_states_any_of"},
		{"extras", "extra"},
		{"xyz", ""},
		{"foo_bar_baz_quux", ""},
	} {
		assert.Equal(t, tc.want, Closest(tc.in, allowed), tc.in)
	}
}

func TestDistance(t *testing.T) {
	assert.Equal(t, 0, Distance("", ""))
	assert.Equal(t, 3, Distance("", "abc"))
	assert.Equal(t, 3, Distance("kitten", "sitting"))
	assert.Equal(t, 1, Distance("log", "lgo"), "a swap is one edit")
	assert.Equal(t, 2, Distance("egg", "lgo"))
	assert.Equal(t, 2, Distance("ab", "bac"))
	assert.Equal(t, 3, Distance("ca", "abc"), "optimal string alignment: no edit inside a swapped pair")
	assert.Equal(t, 1, Distance("min_log", "min_logs"))
}
