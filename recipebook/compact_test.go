package recipebook

import (
	"bytes"
	"encoding/binary"
	"flag"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

func fixtures(t testing.TB) *Book {
	t.Helper()
	all := &Book{}
	for _, p := range []string{"testdata/guineautil", "testdata/recex/recex_small.json"} {
		b, _, err := Import(p, FormatAuto)
		require.NoError(t, err)
		all.Recipes = append(all.Recipes, b.Recipes...)
	}
	return all
}

func TestCompactRoundTrip(t *testing.T) {
	b := fixtures(t)
	path := filepath.Join(t.TempDir(), "recipes.bin")
	require.NoError(t, WriteFile(path, b))
	got, err := ReadFile(path)
	require.NoError(t, err)
	require.Len(t, got.Recipes, len(b.Recipes))
	for i := range b.Recipes {
		assert.Equal(t, b.Recipes[i], got.Recipes[i], "recipe %d", i)
	}
	// The same book writes the same bytes.
	var again bytes.Buffer
	require.NoError(t, Write(&again, got))
	first, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, first, again.Bytes())
	// Names are stored once: the file is smaller than the names it holds.
	names := 0
	for _, r := range b.Recipes {
		for _, in := range r.Inputs {
			for _, o := range in.Options {
				names += len(o)
			}
		}
		for _, o := range r.Outputs {
			names += len(o.Item)
		}
	}
	assert.Less(t, len(first), names)
}

func TestWriteRefusesABadRecipe(t *testing.T) {
	b := fixtures(t)
	b.Recipes[0].Outputs[0].Count = 65
	err := Write(&bytes.Buffer{}, b)
	assert.ErrorContains(t, err, "recipe 0: outputs[0].count: count must be 1..64, got 65")
}

// reseal fixes the checksum of a file changed by hand.
func reseal(data []byte) []byte {
	body := data[:len(data)-4]
	return binary.LittleEndian.AppendUint32(append([]byte(nil), body...), crc32.ChecksumIEEE(body))
}

func shapedTable() Recipe {
	return Recipe{
		Kind: Shaped, Width: 2, Height: 2, Cells: []int8{0, 0, 1, 1},
		Inputs:  []Input{{Options: []string{"minecraft:flint"}, Count: 2}, {Options: []string{"ore:logWood"}, Count: 2}},
		Outputs: []Output{{Item: "minecraft:crafting_table", Count: 1, Chance: ChanceAlways}},
	}
}

// TestCompactRefuses: every way a file can be wrong is an error naming the
// file, and the recipe and field when it is a recipe's.
func TestCompactRefuses(t *testing.T) {
	good, err := encode(&Book{Recipes: []Recipe{shapedTable()}}, true)
	require.NoError(t, err)
	bad := func(edit func(r *Recipe)) []byte {
		r := shapedTable()
		edit(&r)
		ok := shapedTable()
		data, err := encode(&Book{Recipes: []Recipe{ok, r}}, false)
		require.NoError(t, err)
		return data
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "f.rcp: not a compact recipe file"},
		{"wrong magic", append([]byte("GTNHXXX\x01"), good[8:]...), "not a compact recipe file"},
		{"newer version", reseal(append(append([]byte(compactMagic), 2), good[8:]...)), "f.rcp: version: version 2, this agent reads version 1"},
		{"damaged", append(append([]byte(nil), good[:20]...), append([]byte{good[20] ^ 0xff}, good[21:]...)...), "checksum mismatch"},
		{"cut short", good[:len(good)-7], "checksum mismatch"},
		{"trailing bytes", reseal(append(append([]byte(nil), good[:len(good)-4]...), 0, 0, 0, 0, 0)), "after the last recipe"},
		{"output count 65", bad(func(r *Recipe) { r.Outputs[0].Count = 65 }), "f.rcp: recipe 1: outputs[0].count: count must be 1..64, got 65"},
		{"input count 0", bad(func(r *Recipe) { r.Kind, r.Width, r.Height, r.Cells = Shapeless, 0, 0, nil; r.Inputs[0].Count = 0 }), "recipe 1: inputs[0].count: count must be 1..64, got 0"},
		{"output count 0", bad(func(r *Recipe) { r.Outputs[0].Count = 0 }), "recipe 1: outputs[0].count: count must be 1..64, got 0"},
		{"input count disagrees with the shape", bad(func(r *Recipe) { r.Inputs[0].Count = 3 }), "recipe 1: inputs[0].count: count 3 but the shape has it in 2 cells"},
		{"id without a mod", bad(func(r *Recipe) { r.Outputs[0].Item = "crafting_table" }), "recipe 1: outputs[0].item:"},
		{"ore entry as output", bad(func(r *Recipe) { r.Outputs[0].Item = "ore:logWood" }), "recipe 1: outputs[0].item: \"ore:logWood\": an output is an item"},
		{"bad ore entry", bad(func(r *Recipe) { r.Inputs[1].Options[0] = "ore:" }), "recipe 1: inputs[1].options[0]:"},
		{"empty name", bad(func(r *Recipe) { r.Inputs[1].Options[0] = "" }), "strings["},
		{"cell naming a missing input", bad(func(r *Recipe) { r.Cells[3] = 5 }), "recipe 1: cells[3]: names input 5 of 2"},
		{"shape too wide", bad(func(r *Recipe) { r.Width = 4 }), "recipe 1: width: a shape is 1..3 cells wide and tall, got 4x2"},
		{"too many items for the grid", bad(func(r *Recipe) { r.Kind, r.Width, r.Height, r.Cells = Shapeless, 0, 0, nil; r.Inputs[0].Count = 8 }), "recipe 1: inputs: 10 items do not fit a 3x3 grid"},
		{"machine without a name", bad(func(r *Recipe) {
			r.Kind, r.Width, r.Height, r.Cells, r.Machine = Machine, 0, 0, nil, strings.Repeat("x", 129)
		}), "recipe 1: machine: a machine recipe needs the machine's name (1..128 bytes"},
		{"fluid of 0 mB", bad(func(r *Recipe) {
			r.Kind, r.Width, r.Height, r.Cells, r.Machine = Machine, 0, 0, nil, "Mixer"
			r.FluidInputs = []Fluid{{Name: "water", Amount: 0}}
		}), "recipe 1: fluid_inputs[0].amount: amount must be 1..2000000000 mB, got 0"},
		{"smelting two items", bad(func(r *Recipe) { r.Kind, r.Width, r.Height, r.Cells = Smelting, 0, 0, nil }), "recipe 1: inputs: a furnace recipe takes 1 item"},
		{"chance above certain", bad(func(r *Recipe) { r.Outputs[0].Chance = 10001 }), "recipe 1: outputs[0].chance: chance must be 1..10000"},
		{"unknown kind", bad(func(r *Recipe) { r.Kind = 9 }), "recipe 1: kind: unknown recipe kind 9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read("f.rcp", bytes.NewReader(tc.data))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestCompactClaimsBoundedByBytes: a list length the bytes present cannot
// back is refused before anything is allocated for it.
func TestCompactClaimsBoundedByBytes(t *testing.T) {
	head := append([]byte(compactMagic), compactVersion)
	for _, tc := range []struct {
		name string
		body []byte
		want string
	}{
		{"a billion strings", binary.AppendUvarint(nil, 1<<30), "strings: claims 1073741824 entries"},
		{"a billion recipes", append(binary.AppendUvarint(nil, 0), binary.AppendUvarint(nil, 1<<30)...), "recipes: claims 1073741824 entries"},
		{"a long string", append(binary.AppendUvarint(nil, 1), binary.AppendUvarint(nil, 1<<40)...), "strings[0]: length 1099511627776 out of range"},
		{"a number past 64 bits", append(binary.AppendUvarint(nil, 0), bytes.Repeat([]byte{0xff}, 11)...), "a number too large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := reseal(append(append(append([]byte(nil), head...), tc.body...), 0, 0, 0, 0))
			_, err := Read("f.rcp", bytes.NewReader(data))
			assert.ErrorContains(t, err, tc.want)
		})
	}
	sparse := filepath.Join(t.TempDir(), "sparse.rcp")
	require.NoError(t, os.WriteFile(sparse, nil, 0o644))
	require.NoError(t, os.Truncate(sparse, MaxCompactBytes+1))
	_, err := ReadFile(sparse)
	assert.ErrorContains(t, err, "too large")
	big := bytes.Repeat([]byte{0}, MaxCompactBytes+1)
	_, err = Read("big.rcp", bytes.NewReader(big))
	assert.ErrorContains(t, err, "big.rcp: larger than 32 MiB")
}

func TestCrafting(t *testing.T) {
	b, _, err := Import("testdata/guineautil", FormatAuto)
	require.NoError(t, err)
	recs, err := b.Crafting()
	require.NoError(t, err)
	kinds := b.Count()
	assert.Len(t, recs, kinds[Shaped]+kinds[Shapeless])

	r, ok, err := find(t, b, Shapeless, "dreamcraft:item.WoodenBrickForm").Crafting()
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, rules.Recipe{
		Output: "dreamcraft:item.WoodenBrickForm", Count: 1, Grid: "2x2",
		Ingredients: []rules.Ingredient{{Item: game.MustItem("TConstruct:blankPattern:0"), Count: 1}},
		Tools:       []game.ItemMatcher{game.MustItem("ore:craftingToolKnife")},
	}, r)

	r, ok, err = find(t, b, Shaped, "minecraft:wooden_pickaxe").Crafting()
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "3x3", r.Grid)
	assert.True(t, r.NeedsTable())
	assert.Equal(t, []rules.Ingredient{
		{Item: game.MustItem("ore:plankWood"), Count: 3},
		{Item: game.MustItem("minecraft:stick:0"), Count: 2},
	}, r.Ingredients)

	// The unfired coke oven bricks: 3 clay, 5 sand, the form as a tool.
	r, _, err = find(t, b, Shaped, "dreamcraft:item.UnfiredCokeOvenBrick").Crafting()
	require.NoError(t, err)
	assert.Equal(t, 3, r.Count)
	assert.Equal(t, []game.ItemMatcher{game.MustItem("dreamcraft:item.WoodenBrickForm")}, r.Tools)

	_, ok, err = find(t, b, Smelting, "minecraft:stone").Crafting()
	require.NoError(t, err)
	assert.False(t, ok)
}

var update = flag.Bool("update", false, "rewrite testdata/compact/fixtures.rcp from the fixtures")

// TestCompactGolden: the committed file of the fixtures loads, and the
// fixtures encode to its bytes, so a change of the format is seen (bump the
// version, then go test -run TestCompactGolden -update).
func TestCompactGolden(t *testing.T) {
	const golden = "testdata/compact/fixtures.rcp"
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, fixtures(t)))
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
		require.NoError(t, os.WriteFile(golden, buf.Bytes(), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, want, buf.Bytes(), "the encoding changed: bump compactVersion if old files no longer read")
	b, err := ReadFile(golden)
	require.NoError(t, err)
	assert.Len(t, b.Recipes, 21)
}
