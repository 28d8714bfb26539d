package rules

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

func TestVanillaIDs(t *testing.T) {
	data, err := fs.ReadFile(config.FS, "vanilla_ids.yaml")
	require.NoError(t, err)
	ids, err := ParseIDMap("config/vanilla_ids.yaml", data)
	require.NoError(t, err)
	assert.True(t, ids.Frozen())
	assert.Same(t, loadVanillaIDs(), loadVanillaIDs())

	for id := 0; id <= 175; id++ {
		name, ok := ids.BlockName(id)
		if id >= 165 && id <= 169 { // 1.8 blocks, absent in 1.7.10
			assert.False(t, ok, "block %d", id)
			continue
		}
		assert.True(t, ok, "block %d", id)
		back, ok := ids.BlockID(name)
		assert.True(t, ok)
		assert.Equal(t, id, back, name)
	}
	for id := 256; id <= 422; id++ {
		_, ok := ids.ItemName(id)
		assert.Equal(t, id < 409 || id > 416, ok, "item %d", id)
	}
	assert.Equal(t, 171, ids.Blocks())

	known := []struct {
		id    int
		name  string
		block bool
	}{
		{0, "minecraft:air", true}, {1, "minecraft:stone", true}, {2, "minecraft:grass", true},
		{7, "minecraft:bedrock", true}, {9, "minecraft:water", true}, {16, "minecraft:coal_ore", true},
		{17, "minecraft:log", true}, {18, "minecraft:leaves", true}, {31, "minecraft:tallgrass", true},
		{41, "minecraft:gold_block", true}, {54, "minecraft:chest", true}, {56, "minecraft:diamond_ore", true},
		{58, "minecraft:crafting_table", true}, {61, "minecraft:furnace", true},
		{162, "minecraft:log2", true}, {175, "minecraft:double_plant", true},
		{256, "minecraft:iron_shovel", false}, {263, "minecraft:coal", false}, {280, "minecraft:stick", false},
		{325, "minecraft:bucket", false}, {326, "minecraft:water_bucket", false}, {350, "minecraft:cooked_fished", false},
		{422, "minecraft:command_block_minecart", false}, {2256, "minecraft:record_13", false},
	}
	for _, k := range known {
		if k.block {
			name, ok := ids.BlockName(k.id)
			assert.True(t, ok)
			assert.Equal(t, k.name, name)
		}
		name, ok := ids.ItemName(k.id)
		assert.True(t, ok, "item %d (block items fall back to the block table)", k.id)
		assert.Equal(t, k.name, name)
		id, ok := ids.ItemID(k.name)
		assert.True(t, ok)
		assert.Equal(t, k.id, id)
	}
	// Blocks placed by a separate item share the name, not the id: the item
	// registry is its own namespace.
	for _, pair := range [][3]any{{118, 380, "minecraft:cauldron"}, {26, 355, "minecraft:bed"}, {64, 324, "minecraft:wooden_door"}, {59, 296, "minecraft:wheat"}} {
		block, item, name := pair[0].(int), pair[1].(int), pair[2].(string)
		b, _ := ids.BlockID(name)
		i, _ := ids.ItemID(name)
		assert.Equal(t, block, b, name)
		assert.Equal(t, item, i, name)
	}
	_, ok := ids.ItemID("minecraft:nonexistent")
	assert.False(t, ok)
	_, ok = ids.BlockName(-1)
	assert.False(t, ok)
}

func TestIDMapSetRules(t *testing.T) {
	tests := []struct {
		name    string
		do      func(m *IDMap) error
		wantErr string
	}{
		{"block ok", func(m *IDMap) error { return m.SetBlock(1, "minecraft:stone") }, ""},
		{"same pair twice ok", func(m *IDMap) error { _ = m.SetBlock(1, "minecraft:stone"); return m.SetBlock(1, "minecraft:stone") }, ""},
		{"id reused", func(m *IDMap) error { _ = m.SetBlock(1, "minecraft:stone"); return m.SetBlock(1, "minecraft:dirt") }, `block id 1 is already "minecraft:stone"`},
		{"name reused", func(m *IDMap) error { _ = m.SetItem(300, "mod:x"); return m.SetItem(301, "mod:x") }, `item "mod:x" already has id 300`},
		{"range", func(m *IDMap) error { return m.SetBlock(70000, "mod:x") }, "block id 70000 out of range 0..65535"},
		{"negative", func(m *IDMap) error { return m.SetItem(-1, "mod:x") }, "item id -1 out of range"},
		{"bad name", func(m *IDMap) error { return m.SetBlock(5, "stone") }, "not an id of the form modid:name"},
		{"metadata in name", func(m *IDMap) error { return m.SetBlock(5, "mod:x:3") }, "carries no metadata"},
		{"air is 0", func(m *IDMap) error { return m.SetBlock(0, "mod:void") }, "block id 0 is minecraft:air"},
		{"frozen", func(m *IDMap) error { m.Freeze(); return m.SetBlock(2, "mod:y") }, "frozen"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.do(NewIDMap())
			if tc.wantErr == "" {
				assert.NoError(t, err)
			} else {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
			}
		})
	}
	m := NewIDMap()
	require.NoError(t, m.SetBlock(4000, "gregtech:gt.blockmachines"))
	c := m.Clone()
	m.Freeze()
	assert.ErrorIs(t, m.SetBlock(1, "a:b"), ErrFrozen)
	assert.NoError(t, c.SetBlock(1, "a:b"), "clones are writable")
	_, ok := m.BlockID("a:b")
	assert.False(t, ok)
}

func TestParseIDMapErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // error lines, "file:line:col: field: message"
	}{
		{"unknown section", "blocks: {}\nitemz: {}\n", []string{`ids.yaml:2:1: itemz: unknown field "itemz" (did you mean "items"?)`}},
		{"non-decimal id", "blocks:\n  0x10: mod:a\n  stone: mod:b\n", []string{
			`ids.yaml:2:3: blocks.0x10: "0x10" is not a decimal id`,
			`ids.yaml:3:3: blocks.stone: "stone" is not a decimal id`,
		}},
		{"duplicate id", "blocks:\n  1: minecraft:stone\n  1: minecraft:dirt\n", []string{`ids.yaml:3:3: blocks.1: duplicate field "1"`}},
		{"duplicate name", "items:\n  300: mod:x\n  301: mod:x\n", []string{`ids.yaml:3:8: items.301: item "mod:x" already has id 300`}},
		{"bad name", "blocks:\n  1: stone\n", []string{`ids.yaml:2:6: blocks.1: "stone" is not an id of the form modid:name or modid:name:meta`}},
		{"number as name", "blocks:\n  1: 17\n", []string{`ids.yaml:2:6: blocks.1: expected a string, got the integer 17`}},
		{"out of range", "blocks:\n  65536: mod:x\n", []string{`ids.yaml:2:10: blocks.65536: block id 65536 out of range 0..65535`}},
		{"leading zero", "blocks:\n  01: mod:x\n", []string{`ids.yaml:2:3: blocks.01: "01" is not a decimal id`}},
		{"air elsewhere", "blocks:\n  0: mod:void\n", []string{`ids.yaml:2:6: blocks.0: block id 0 is minecraft:air, not "mod:void"`}},
		{"not a mapping", "blocks: [1, 2]\n", []string{`ids.yaml:1:9: blocks: expected a mapping, got a list`}},
		{"syntax", "blocks:\n  1: [\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseIDMap("ids.yaml", []byte(tc.src))
			require.Error(t, err)
			var list strictyaml.Errors
			require.True(t, errors.As(err, &list), "errors are located: %v", err)
			if tc.want == nil {
				assert.Equal(t, "ids.yaml", list[0].File)
				assert.Positive(t, list[0].Line)
				return
			}
			var got []string
			for _, e := range list {
				got = append(got, e.Error())
			}
			assert.Equal(t, tc.want, got)
		})
	}
	m, err := ParseIDMap("ids.yaml", []byte("# nothing\n"))
	require.NoError(t, err)
	assert.Equal(t, 0, m.Blocks())
}
