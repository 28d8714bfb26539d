package recipebook

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/rules"
)

// checkBook holds what every decoder promises of what it returns: each
// recipe passes Check, the book survives the compact file unchanged, and
// it becomes a rule set a run plays by or an error, never a panic; a set
// it becomes holds every grid recipe it has.
func checkBook(t *testing.T, b *Book) {
	if set, err := b.RuleSet(rules.Default()); err == nil {
		crafting, _ := b.Crafting()
		if len(crafting) > 0 && len(set.Recipes.All()) != len(crafting) {
			t.Fatalf("%d grid recipes became %d", len(crafting), len(set.Recipes.All()))
		}
	}
	for i := range b.Recipes {
		if err := b.Recipes[i].Check(); err != nil {
			t.Fatalf("recipe %d kept although %v", i, err)
		}
	}
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, b))
	got, err := Read("fuzz", &buf)
	require.NoError(t, err)
	require.Len(t, got.Recipes, len(b.Recipes))
	for i := range b.Recipes {
		require.Equal(t, b.Recipes[i], got.Recipes[i])
	}
}

func fuzzDump(f *testing.F, format string) {
	f.Fuzz(func(t *testing.T, data []byte) {
		im := NewImporter(format)
		if err := im.Read("fuzz.json", bytes.NewReader(data), format); err != nil {
			return
		}
		b, _ := im.Result()
		checkBook(t, b)
	})
}

// The seed corpora under testdata/fuzz hold the fixtures and broken
// variants of them.
func FuzzGuineaUtil(f *testing.F) { fuzzDump(f, FormatGuineaUtil) }

func FuzzRecEx(f *testing.F) { fuzzDump(f, FormatRecEx) }

func FuzzCompact(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Read("fuzz.rcp", bytes.NewReader(data))
		if err != nil {
			return
		}
		checkBook(t, b)
	})
}
