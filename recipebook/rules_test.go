package recipebook

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/rules"
)

// TestRuleSet: a book's grid recipes become the recipe book and its
// furnace recipes the furnace's table, which keeps the base's cook time
// and fuels; the base set is not changed and the names know the book's
// items.
func TestRuleSet(t *testing.T) {
	im := NewImporter(FormatRecEx)
	require.NoError(t, im.Read("pack.json", bytes.NewReader([]byte(`{"sources":[
		{"type":"shapeless","recipes":[{"iI":[{"a":1,"m":32767,"id":"minecraft:log"}],"o":{"a":4,"m":0,"id":"minecraft:planks"}}]},
		{"type":"smelting","recipes":[{"input":{"a":1,"m":0,"id":"examplemod:raw_tile"},"output":{"a":1,"m":0,"id":"examplemod:tile"}}]},
		{"type":"gregtech","machines":[{"n":"Alloy Smelter","recs":[{"en":true,"dur":200,"eut":8,"iI":[{"a":1,"m":0,"id":"minecraft:clay_ball"}],"iO":[{"a":2,"m":0,"id":"dreamcraft:item.CokeOvenBrick"}],"fI":[],"fO":[]}]}]}]}`)), FormatRecEx))
	book, _ := im.Result()
	base := rules.Default()
	set, err := book.RuleSet(base)
	require.NoError(t, err)

	planks := set.Recipes.For("minecraft:planks")
	require.Len(t, planks, 1)
	assert.Equal(t, 4, planks[0].Count)
	assert.Equal(t, "2x2", planks[0].Grid)
	assert.Len(t, set.Recipes.All(), 1, "the book's recipes, not the shipped ones besides")
	r, ok := set.Smelt.Recipe(base.Stack("examplemod:raw_tile", 0, 1))
	require.True(t, ok)
	assert.Equal(t, "examplemod:tile", r.Output)
	assert.Equal(t, base.Smelt.CookTicks, set.Smelt.CookTicks)
	assert.Equal(t, 300, set.Smelt.BurnTicks(base.Stack("minecraft:planks", 0, 1)), "the fuels stay")
	assert.NoError(t, set.Names.CheckItem("examplemod:tile"), "the names know the book's items")
	assert.Error(t, base.Names.CheckItem("examplemod:tile"))
	assert.Same(t, base.Coke, set.Coke)

	assert.Equal(t, 2, base.Recipes.For("minecraft:planks")[0].Count, "the shipped set is untouched")
	_, ok = base.Smelt.Recipe(base.Stack("examplemod:raw_tile", 0, 1))
	assert.False(t, ok)
}

// TestLoadRulesErrors: a missing or damaged file, and a grid recipe the
// agent's model cannot take, are errors naming the file (and the recipe).
func TestLoadRulesErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := LoadRules(filepath.Join(dir, "absent.rcp"), rules.Default())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "absent.rcp")

	junk := filepath.Join(dir, "junk.rcp")
	require.NoError(t, os.WriteFile(junk, []byte("GTNHRCP"), 0o644))
	_, err = LoadRules(junk, rules.Default())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "junk.rcp:")

	// 10 items do not fit a crafting grid: the file loads (a shapeless
	// recipe of 10 cells is refused on import, so the book is built here).
	bad := &Book{Recipes: []Recipe{
		{Kind: Shapeless, Inputs: []Input{{Options: []string{"minecraft:log"}, Count: 1}}, Outputs: []Output{{Item: "minecraft:planks", Count: 2, Chance: ChanceAlways}}},
		{Kind: Shapeless, Inputs: []Input{{Options: []string{"minecraft:log"}, Count: 1}}, Outputs: []Output{{Item: "minecraft:stick", Count: 65, Chance: ChanceAlways}}},
	}}
	_, err = bad.RuleSet(rules.Default())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "recipe 1: count must be 1..64, got 65")
}

// BenchmarkLoadRules50k loads the compact file of 50,000 generated recipes
// and builds the rule set a run plays by (the crafting and furnace recipes
// among them); it reports the set's heap beyond the shipped one.
//
//	go test -run XXX -bench LoadRules50k -benchtime 10x ./recipebook
func BenchmarkLoadRules50k(b *testing.B) {
	im := NewImporter(FormatRecEx)
	if err := im.Read("bench.json", bytes.NewReader(genRecEx(50000)), FormatRecEx); err != nil {
		b.Fatal(err)
	}
	book, _ := im.Result()
	var file bytes.Buffer
	if err := Write(&file, book); err != nil {
		b.Fatal(err)
	}
	data := file.Bytes()
	base := rules.Default()
	load := func() *rules.Set {
		got, err := Read("bench.rcp", bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		set, err := got.RuleSet(base)
		if err != nil {
			b.Fatal(err)
		}
		return set
	}
	var set *rules.Set
	for b.Loop() {
		set = load()
	}
	b.StopTimer()
	heap := heapOf(func() any { return load() })
	b.ReportMetric(float64(len(set.Recipes.All())), "crafting")
	b.ReportMetric(float64(len(set.Smelt.All())), "smelting")
	b.ReportMetric(float64(heap)/1e6, "set-MB")
}
