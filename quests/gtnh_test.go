package quests_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/quests"
)

// gtnhBook is GTNH 2.8.x's quest book (its first three lines), read from
// the shared directory beside the repository; the test is skipped without
// it, since the book is the modpack's and is not shipped.
func gtnhBook(t testing.TB) *quests.Book {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "gtnh-quests", "2.8.x-a0278eee", "DefaultQuests")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("GTNH's quest book is not beside the repository (%s): %v", dir, err)
	}
	b, err := quests.Load(dir)
	require.NoError(t, err)
	return b
}

// TestGTNHBook: the real book loads without a problem, with its lines in
// book order and their sizes.
func TestGTNHBook(t *testing.T) {
	b := gtnhBook(t)
	// The slice holds the three lines and the quests they need; one quest
	// it carries from another line needs two quests left out.
	require.Len(t, b.Problems, 2, "%v", b.Problems)
	for _, p := range b.Problems {
		assert.Contains(t, p.Error(), `quest "You Are Now Prepared, Hopefully!" needs quest`)
	}
	require.Len(t, b.Lines, 3)
	for i, want := range []struct {
		name string
		n    int
	}{{"And So, It Begins", 45}, {"Tier 0 - Stone Age", 92}, {"Tier 0.5 - Steam", 114}} {
		assert.Equal(t, want.name, b.Lines[i].Name)
		assert.Len(t, b.Lines[i].Quests, want.n, want.name)
	}
	q, err := b.FindQuest("Where's the Flint?")
	require.NoError(t, err)
	assert.Equal(t, "AAAAAAAAAAAAAAAAAAAAAQ==", q.ID.String())
	// The book's task has id 1 (its file: "index:3": 1), which the server's
	// messages name it by.
	assert.Equal(t, []quests.Task{{Type: quests.TaskCrafting, Index: 1, Items: []quests.Item{{ID: "minecraft:flint", Count: 3}}}}, q.Tasks)
	l, err := b.FindLine("And So It Begins")
	require.NoError(t, err)
	order, probs := b.Order(l.Quests)
	assert.Empty(t, probs)
	seen := map[quests.ID]bool{}
	for _, q := range order {
		for _, p := range q.Prereqs {
			assert.True(t, seen[p], "%s after its prerequisite %s", q.Name, p)
		}
		seen[q.ID] = true
	}
}

func BenchmarkLoadGTNH(b *testing.B) {
	gtnhBook(b)
	dir := filepath.Join("..", "..", "shared", "gtnh-quests", "2.8.x-a0278eee", "DefaultQuests")
	for b.Loop() {
		if _, err := quests.Load(dir); err != nil {
			b.Fatal(err)
		}
	}
}
