package quests

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
)

// Limits on what Load reads: GTNH's whole book is about 3,700 quest files
// of a few kilobytes each, or one file of some tens of megabytes.
const (
	// MaxDatabaseFile bounds a single-file database (DefaultQuests.json).
	MaxDatabaseFile = 128 << 20
	// MaxQuestFile bounds one file of the per-quest layout.
	MaxQuestFile = 1 << 20
	// MaxFiles bounds the files of a per-quest layout.
	MaxFiles = 50000
	// MaxQuests bounds the quests of a book.
	MaxQuests = 50000
)

// Load reads a quest database: a DefaultQuests directory of the per-quest
// layout, a single DefaultQuests.json, or a directory holding either
// (config/betterquesting). An error means nothing usable was read; problems
// in single files are in Book.Problems.
func Load(path string) (*Book, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("quests: %w", err)
	}
	if !st.IsDir() {
		data, err := filelimit.ReadFile(path, MaxDatabaseFile)
		if err != nil {
			return nil, fmt.Errorf("quests: %w", err)
		}
		return ParseDatabase(path, data)
	}
	for _, sub := range []string{"DefaultQuests", filepath.Join("betterquesting", "DefaultQuests")} {
		if isDir(filepath.Join(path, sub, "Quests")) {
			return loadDir(filepath.Join(path, sub))
		}
	}
	if isDir(filepath.Join(path, "Quests")) {
		return loadDir(path)
	}
	for _, f := range []string{"DefaultQuests.json", filepath.Join("betterquesting", "DefaultQuests.json")} {
		if _, err := os.Stat(filepath.Join(path, f)); err == nil {
			return Load(filepath.Join(path, f))
		}
	}
	return nil, fmt.Errorf("quests: %s holds no quest database (want a DefaultQuests directory with Quests/ and QuestLines/, or DefaultQuests.json)", path)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// ParseDatabase reads a single-file database (DefaultQuests.json).
func ParseDatabase(file string, data []byte) (*Book, error) {
	root, err := parseJSON(file, data)
	if err != nil {
		return nil, err
	}
	if !root.has("questDatabase") {
		return nil, &FileError{File: file, Err: errors.New("no questDatabase: not a BetterQuesting database")}
	}
	b := newBook(file)
	quests := root.list("questDatabase")
	if len(quests) > MaxQuests {
		return nil, &FileError{File: file, Path: "questDatabase", Err: fmt.Errorf("%d quests, more than %d", len(quests), MaxQuests)}
	}
	for _, qc := range quests {
		if q, ok := decodeQuest(qc); ok {
			b.add(q)
		}
	}
	for _, lc := range root.list("questLines") {
		id, _ := readID(lc, "questLineID", "lineID")
		l := &Line{ID: id, Name: lineName(lc)}
		for _, e := range lc.list("quests") {
			if qid, ok := readID(e, "questID", "id"); ok {
				l.Quests = append(l.Quests, qid)
			} else {
				e.errorf("", "a line entry needs questIDHigh and questIDLow (or id)")
			}
		}
		b.Lines = append(b.Lines, l)
	}
	b.Problems = append(b.Problems, *root.errs...)
	b.finish()
	return b, nil
}

func lineName(c compound) string {
	if props, ok := c.child("properties"); ok {
		if bq, ok := props.child("betterquesting"); ok {
			return CleanName(bq.str("name"))
		}
	}
	return ""
}

func newBook(src string) *Book { return &Book{Source: src, quests: map[ID]*Quest{}} }

func (b *Book) add(q *Quest) {
	if old, dup := b.quests[q.ID]; dup {
		b.Problems = append(b.Problems, &FileError{File: q.File, Err: fmt.Errorf("quest %s is also in %s; the first is kept", q.ID, old.File)})
		return
	}
	b.quests[q.ID] = q
	b.order = append(b.order, q.ID)
}

// finish checks the lines and prerequisites against the quests and
// records each quest's lines.
func (b *Book) finish() {
	for i, l := range b.Lines {
		if l.Name == "" {
			l.Name = fmt.Sprintf("line %d", i+1)
		}
		kept := l.Quests[:0]
		seen := map[ID]bool{}
		for _, id := range l.Quests {
			q, ok := b.quests[id]
			switch {
			case !ok:
				b.Problems = append(b.Problems, fmt.Errorf("%s: line %q places quest %s, which the book does not have", b.Source, l.Name, id))
			case seen[id]:
			default:
				seen[id] = true
				q.Lines = append(q.Lines, l.Name)
				kept = append(kept, id)
			}
		}
		l.Quests = kept
	}
	for _, id := range b.order {
		q := b.quests[id]
		for _, p := range q.Prereqs {
			if _, ok := b.quests[p]; !ok {
				b.Problems = append(b.Problems, &FileError{File: q.File, Err: fmt.Errorf("quest %q needs quest %s, which the book does not have", q.Name, p)})
			}
		}
	}
}

// loadDir reads the per-quest-file layout.
func loadDir(dir string) (*Book, error) {
	b := newBook(dir)
	files, err := questFiles(filepath.Join(dir, "Quests"))
	if err != nil {
		return nil, fmt.Errorf("quests: %s: %w", dir, err)
	}
	sort.Strings(files)
	for _, f := range files {
		data, err := filelimit.ReadFile(f, MaxQuestFile)
		if err != nil {
			b.Problems = append(b.Problems, err)
			continue
		}
		q, problems, err := ParseQuest(f, data)
		b.Problems = append(b.Problems, problems...)
		if err != nil {
			b.Problems = append(b.Problems, err)
			continue
		}
		b.add(q)
	}
	if len(b.quests) == 0 {
		return nil, fmt.Errorf("quests: %s: no quest could be read (%d files)%s", dir, len(files), firstProblem(b.Problems))
	}
	lines, err := readLines(dir)
	if err != nil {
		return nil, err
	}
	b.Lines = lines.lines
	b.Problems = append(b.Problems, lines.problems...)
	b.finish()
	return b, nil
}

// fileLimit is MaxFiles, lowered by tests.
var fileLimit = MaxFiles

// maxDirDepth bounds how deep questFiles looks under Quests/ (GTNH puts
// the files one folder down).
const maxDirDepth = 4

// readDir lists a directory, refusing one of more than MaxFiles entries
// before reading them all.
func readDir(dir string) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(fileLimit + 1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if len(ents) > fileLimit {
		return nil, fmt.Errorf("%s: more than %d entries", dir, fileLimit)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	return ents, nil
}

// questFiles lists the .json files under dir (at most maxDirDepth folders
// down, at most MaxFiles in all), sorted.
func questFiles(dir string) ([]string, error) {
	var files []string
	var walk func(d string, depth int) error
	walk = func(d string, depth int) error {
		ents, err := readDir(d)
		if err != nil {
			return err
		}
		for _, e := range ents {
			p := filepath.Join(d, e.Name())
			switch {
			case e.IsDir() && depth < maxDirDepth:
				if err := walk(p, depth+1); err != nil {
					return err
				}
			case !e.IsDir() && strings.HasSuffix(e.Name(), ".json"):
				files = append(files, p)
				if len(files) > fileLimit {
					return fmt.Errorf("more than %d quest files", fileLimit)
				}
			}
		}
		return nil
	}
	if err := walk(dir, 0); err != nil {
		return nil, err
	}
	sort.Strings(files)
	return files, nil
}

// ParseQuest reads one quest file of the per-quest layout. problems are
// what was skipped in it (an unknown task type, a bad item); err means the
// file holds no quest.
func ParseQuest(file string, data []byte) (q *Quest, problems []error, err error) {
	c, err := parseJSON(file, data)
	if err != nil {
		return nil, nil, err
	}
	q, ok := decodeQuest(c)
	if !ok {
		return nil, nil, (*c.errs)[len(*c.errs)-1]
	}
	return q, *c.errs, nil
}

func firstProblem(ps []error) string {
	if len(ps) == 0 {
		return ""
	}
	return "; first: " + ps[0].Error()
}

func readFile(f string) (compound, error) {
	data, err := filelimit.ReadFile(f, MaxQuestFile)
	if err != nil {
		return compound{}, err
	}
	return parseJSON(f, data)
}

type lineSet struct {
	lines    []*Line
	problems []error
}

// readLines reads QuestLines/<line>/: QuestLine.json and one file per
// placed quest, in the order of QuestLinesOrder.txt (lines it does not
// name follow, by name).
func readLines(dir string) (lineSet, error) {
	var ls lineSet
	root := filepath.Join(dir, "QuestLines")
	ents, err := readDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return ls, nil
	}
	if err != nil {
		return ls, fmt.Errorf("quests: %w", err)
	}
	byID := map[ID]*Line{}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		ldir := filepath.Join(root, e.Name())
		c, err := readFile(filepath.Join(ldir, "QuestLine.json"))
		if err != nil {
			ls.problems = append(ls.problems, err)
			continue
		}
		id, ok := readID(c, "questLineID", "lineID")
		if !ok {
			c.errorf("", "a quest line needs questLineIDHigh and questLineIDLow")
		}
		l := &Line{ID: id, Name: lineName(c)}
		ls.problems = append(ls.problems, *c.errs...)
		files, err := readDir(ldir)
		if err != nil {
			return ls, fmt.Errorf("quests: %w", err)
		}
		for _, f := range files {
			if f.IsDir() || f.Name() == "QuestLine.json" || !strings.HasSuffix(f.Name(), ".json") {
				continue
			}
			ec, err := readFile(filepath.Join(ldir, f.Name()))
			if err != nil {
				ls.problems = append(ls.problems, err)
				continue
			}
			if qid, ok := readID(ec, "questID", "id"); ok {
				l.Quests = append(l.Quests, qid)
			} else {
				ec.errorf("", "a line entry needs questIDHigh and questIDLow")
			}
			ls.problems = append(ls.problems, *ec.errs...)
		}
		ls.lines = append(ls.lines, l)
		byID[id] = l
	}
	order := readOrder(filepath.Join(dir, "QuestLinesOrder.txt"), &ls.problems)
	rank := map[*Line]int{}
	for i, id := range order {
		if l, ok := byID[id]; ok {
			rank[l] = i + 1
		}
	}
	sort.SliceStable(ls.lines, func(i, j int) bool {
		ri, rj := rank[ls.lines[i]], rank[ls.lines[j]]
		switch {
		case ri != 0 && rj != 0:
			return ri < rj
		case ri != 0 || rj != 0:
			return ri != 0
		}
		return ls.lines[i].Name < ls.lines[j].Name
	})
	return ls, nil
}

// readOrder reads QuestLinesOrder.txt: "ID: name" per line.
func readOrder(file string, problems *[]error) []ID {
	data, err := filelimit.ReadFile(file, MaxQuestFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		*problems = append(*problems, err)
		return nil
	}
	var out []ID
	sc := bufio.NewScanner(bytes.NewReader(data))
	n := 0
	for sc.Scan() {
		n++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		idText, _, _ := strings.Cut(text, ":")
		id, ok := ParseID(strings.TrimSpace(idText))
		if !ok {
			*problems = append(*problems, &FileError{File: file, Path: fmt.Sprintf("line %d", n), Err: fmt.Errorf("%q does not start with a quest line id", text)})
			continue
		}
		out = append(out, id)
	}
	if err := sc.Err(); err != nil {
		*problems = append(*problems, &FileError{File: file, Err: err})
	}
	return out
}
