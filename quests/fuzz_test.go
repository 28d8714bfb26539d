package quests_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/quests"
)

// FuzzParseDatabase: a single-file database never takes the process down,
// and what it yields is consistent: every quest a line places exists, and
// the order of any quest holds only quests of the book.
func FuzzParseDatabase(f *testing.F) {
	for _, p := range []string{filepath.Join("testdata", "single", "DefaultQuests.json")} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := quests.ParseDatabase("fuzz.json", data)
		if err != nil {
			if b != nil {
				t.Fatal("a book with an error")
			}
			return
		}
		for _, l := range b.Lines {
			for _, id := range l.Quests {
				if _, ok := b.Quest(id); !ok {
					t.Fatalf("line %q keeps %s, which is not in the book", l.Name, id)
				}
			}
		}
		for _, q := range b.Quests() {
			order, _ := b.Order([]quests.ID{q.ID})
			if len(order) == 0 || order[len(order)-1].ID != q.ID {
				t.Fatalf("the order of %s does not end with it", q.ID)
			}
			for _, o := range order {
				if _, ok := b.Quest(o.ID); !ok {
					t.Fatalf("the order holds %s, not in the book", o.ID)
				}
			}
		}
	})
}

// FuzzParseQuest: one quest file of the per-quest layout never takes the
// process down; a quest comes with no error, and every item has a count.
func FuzzParseQuest(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "perquest", "DefaultQuests", "Quests", "*", "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed files: %v", err)
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		q, _, err := quests.ParseQuest("fuzz.json", data)
		if (q == nil) == (err == nil) {
			t.Fatalf("quest %v with error %v", q, err)
		}
		if q == nil {
			return
		}
		for _, task := range q.Tasks {
			for _, it := range task.Items {
				if it.Count < 1 {
					t.Fatalf("an item with count %d", it.Count)
				}
			}
		}
	})
}
