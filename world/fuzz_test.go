package world

import (
	"errors"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

func located(t *testing.T, err error) {
	t.Helper()
	var list strictyaml.Errors
	if !errors.As(err, &list) || len(list) == 0 {
		t.Fatalf("error is not a located list: %T %v", err, err)
	}
}

func FuzzParseTiers(f *testing.F) {
	f.Add([]byte("tiers:\n  - name: a\n    voltage: 8\n  - name: b\n"))
	f.Add([]byte("tiers: []\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tiers, err := ParseTiers("t.yaml", data)
		if err != nil {
			located(t, err)
			return
		}
		names := tiers.Names()
		if len(names) == 0 {
			t.Fatal("accepted an empty tier table")
		}
		r, err := tiers.ParseRange(">= " + names[0])
		if err != nil || !tiers.Includes(r, names[len(names)-1]) {
			t.Fatalf("range over a parsed table failed: %v", err)
		}
	})
}

func FuzzParseTags(f *testing.F) {
	f.Add([]byte("blocks:\n  minecraft:log: [log]\nitems:\n  minecraft:coal:1: [ore:gemCharcoal]\n"))
	f.Add([]byte("blocks: {bad: [x]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tags, err := ParseTags("tags.yaml", data)
		if err != nil {
			located(t, err)
			return
		}
		_ = tags.BlockTags("minecraft:log", 0)
		_ = tags.ItemTags("minecraft:coal", 1)
	})
}

func FuzzParseRecipes(f *testing.F) {
	f.Add([]byte("recipes:\n  - output: minecraft:planks\n    count: 2\n    grid: 2x2\n    ingredients:\n      - {item: \"ore:logWood\", count: 1}\n"))
	f.Add([]byte("recipes:\n  - output: x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		book, err := ParseRecipes("r.yaml", data)
		if err != nil {
			located(t, err)
			return
		}
		for _, r := range book.All() {
			if r.Output == "" || r.Count < 1 || len(book.For(r.Output)) == 0 {
				t.Fatalf("accepted a broken recipe: %+v", r)
			}
		}
	})
}
