package rules

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

func TestDefaultTagsLookups(t *testing.T) {
	tags := loadTags()
	assert.Same(t, tags, loadTags())
	tests := []struct {
		name  string
		block bool
		id    string
		meta  int
		want  []string
	}{
		{"plain block any meta", true, "minecraft:log", 3, []string{"log", "tree", "wood"}},
		{"plain block no meta", true, "minecraft:log", -1, []string{"log", "tree", "wood"}},
		{"water source", true, "minecraft:water", 0, []string{"water", "water_source", "liquid"}},
		{"flowing water is not a source", true, "minecraft:flowing_water", 0, []string{"water", "liquid"}},
		{"meta-only block, right meta", true, "Railcraft:machine.alpha", 7, []string{"coke_oven", "multiblock", "container"}},
		{"meta-only block, wrong meta", true, "Railcraft:machine.alpha", 6, nil},
		{"meta-only block, no meta", true, "Railcraft:machine.alpha", -1, nil},
		// gt.blockmachines metadata is the harvest-tool base type, not the
		// machine: no metadata makes a boiler tag.
		{"gregtech machine, any meta", true, "gregtech:gt.blockmachines", 2, []string{"gregtech_machine", "machine"}},
		{"gregtech machine, meta 1 is no boiler", true, "gregtech:gt.blockmachines", 1, []string{"gregtech_machine", "machine"}},
		{"modid with pipe", true, "BuildCraft|Factory:tankBlock", 0, []string{"water_tank", "tank", "container"}},
		{"unknown block", true, "minecraft:bedrock", 0, nil},
		{"item ore name", false, "minecraft:log2", 1, []string{"ore:logWood", "fuel"}},
		{"meta overrides: coal", false, "minecraft:coal", 0, []string{"ore:gemCoal", "fuel", "coke_oven_input"}},
		{"meta overrides: charcoal", false, "minecraft:coal", 1, []string{"ore:gemCharcoal", "fuel"}},
		{"meta override wins over plain id", false, "IC2:itemCellEmpty", 1, []string{"ore:cellWater", "container_water"}},
		{"plain id when no override", false, "IC2:itemCellEmpty", 0, []string{"ore:cellEmpty", "container_empty"}},
		{"gt tool saw", false, "gregtech:gt.metatool.01", 10, []string{"tool:saw", "ore:craftingToolSaw"}},
		{"tool class", false, "minecraft:iron_axe", 0, []string{"tool:axe"}},
		{"blocks and items are separate", false, "minecraft:water", 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			if tc.block {
				got = tags.BlockTags(tc.id, tc.meta)
			} else {
				got = tags.ItemTags(tc.id, tc.meta)
			}
			assert.Equal(t, tc.want, got)
		})
	}

	assert.Equal(t, []string{"BuildCraft|Factory:tankBlock", "Railcraft:machine.beta:0", "minecraft:cauldron"}, tags.BlockIDsWithTag("water_tank"))
	assert.Equal(t, []string{"minecraft:log", "minecraft:log2"}, tags.BlockIDsWithTag("log"))
	assert.Empty(t, tags.BlockIDsWithTag("nope"))
}

func TestParseTags(t *testing.T) {
	t.Run("valid", func(t *testing.T) {
		tt, err := ParseTags("t.yaml", []byte("blocks:\n  a:b: [x, y]\n  a:b:2: [z]\nitems:\n  a:c: [ore:thing]\n"))
		require.NoError(t, err)
		assert.Equal(t, []string{"x", "y"}, tt.BlockTags("a:b", 1))
		assert.Equal(t, []string{"z"}, tt.BlockTags("a:b", 2))
		assert.Equal(t, []string{"ore:thing"}, tt.ItemTags("a:c", -1))
		assert.Nil(t, tt.ItemTags("a:b", -1))
	})
	t.Run("empty document", func(t *testing.T) {
		tt, err := ParseTags("t.yaml", []byte(""))
		require.NoError(t, err)
		assert.Nil(t, tt.BlockTags("a:b", 0))
	})

	type wantErr struct {
		line, col int
		field     string
		msg       string
	}
	tests := []struct {
		name string
		src  string
		want []wantErr
	}{
		{"bad id and bad list, sorted by position", "items:\n  c:d: oops\nblocks:\n  notanid: [x]\n",
			[]wantErr{
				{2, 8, "items.c:d", `expected a list of strings, got the string "oops"`},
				{4, 3, "blocks.notanid", `"notanid" is not an id`},
			}},
		{"unknown section", "block:\n  a:b: [x]\n",
			[]wantErr{{1, 1, "block", `unknown field "block" (did you mean "blocks"?)`}}},
		{"duplicate id", "blocks:\n  a:b: [x]\n  a:b: [y]\n",
			[]wantErr{{3, 3, "blocks.a:b", `duplicate field "a:b"`}}},
		{"non-string tag", "blocks:\n  a:b: [x, 3]\n",
			[]wantErr{{2, 12, "blocks.a:b[1]", "expected a string, got the integer 3"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tt, err := ParseTags("t.yaml", []byte(tc.src))
			require.Error(t, err)
			assert.Nil(t, tt)
			var es strictyaml.Errors
			require.True(t, errors.As(err, &es))
			require.Len(t, es, len(tc.want), "%v", err)
			for i, w := range tc.want {
				assert.Equal(t, w.line, es[i].Line, "%v", es[i])
				assert.Equal(t, w.col, es[i].Column, "%v", es[i])
				assert.Equal(t, w.field, es[i].Field)
				assert.Contains(t, es[i].Msg, w.msg)
			}
		})
	}
}
