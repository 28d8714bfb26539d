package badfiles

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// Loader describes one loader under test.
type Loader struct {
	// Name says what is loaded ("skill spec").
	Name string
	// File is the file name used for byte inputs and written for path
	// inputs ("chop_tree.yaml").
	File string
	// Valid are well-formed inputs (the shipped files), cut short for the
	// truncation cases; each must load.
	Valid [][]byte
	// Parse loads data as the named file. Required.
	Parse func(file string, data []byte) error
	// Load loads the file at path the way the program does (with its size
	// limit); nil when the loader only takes bytes.
	Load func(path string) error
	// DirLoader: Load reads the directory holding path (a spec or pack
	// directory), so its errors name the file relative to it and the
	// missing-file and directory cases do not apply.
	DirLoader bool
	// MissingOK: a missing file is not an error (the metrics state file
	// starts empty); it must still not be created by loading.
	MissingOK bool
	// YAML adds the YAML cases (deep nesting, alias bomb); otherwise the
	// JSON ones.
	YAML bool
	// Bombs are documents that put an alias bomb (BombAnchors) where the
	// loader decodes free-form values (params, extra), so that expanding
	// it is tried; each must fail within BombAlloc.
	Bombs [][]byte
	// HugeAlloc is the most a refused huge input may allocate (default
	// 1 MiB: the limit check comes before any parsing).
	HugeAlloc uint64
}

// Limits of the checks.
const (
	// HugeSize is the huge input: one 64 MiB line.
	HugeSize = 64 << 20
	// Timeout is how long one input may take before it counts as a hang.
	Timeout = 10 * time.Second
	// BombAlloc is the most a nested or aliased document may allocate.
	BombAlloc = 64 << 20
)

var (
	hugeOnce sync.Once
	huge     []byte
)

// Huge returns the shared 64 MiB single-line input ("a: aaaa…").
func Huge() []byte {
	hugeOnce.Do(func() {
		huge = bytes.Repeat([]byte("a"), HugeSize)
		copy(huge, "a: ")
	})
	return huge
}

// Truncations cuts data at several points: the first byte, eighths of the
// length, mid-line and just before the end.
func Truncations(data []byte) [][]byte {
	cuts := map[int]bool{1: true, len(data) - 1: true}
	for k := 1; k < 8; k++ {
		cuts[len(data)*k/8] = true
	}
	if i := bytes.IndexByte(data[len(data)/2:], '\n'); i > 0 {
		cuts[len(data)/2+i/2] = true
	}
	keys := make([]int, 0, len(cuts))
	for c := range cuts {
		if c > 0 && c < len(data) {
			keys = append(keys, c)
		}
	}
	sort.Ints(keys)
	out := make([][]byte, len(keys))
	for i, c := range keys {
		out[i] = data[:c]
	}
	return out
}

// Garbage returns n seeded random bytes, starting with bytes no text
// format accepts.
func Garbage(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 0xBAD))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	copy(b, "\x00\xff\xfe\x01")
	return b
}

// DeepFlow is a YAML/JSON flow sequence nested depth levels.
func DeepFlow(depth int) []byte {
	return []byte(strings.Repeat("[", depth) + strings.Repeat("]", depth))
}

// DeepMap is a YAML flow mapping nested depth levels ({a: {a: …}}).
func DeepMap(depth int) []byte {
	return []byte(strings.Repeat("{a: ", depth) + "1" + strings.Repeat("}", depth))
}

// AliasBomb is the "billion laughs" document: nine levels of nine aliases
// to the level below, 9^9 strings when expanded, a few hundred bytes as
// written. Every top-level key is referenced, so a loader that walks
// aliases meets the bomb wherever it looks.
func AliasBomb() []byte {
	var b strings.Builder
	b.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	prev := "a"
	for _, c := range "bcdefghi" {
		name := string(c)
		fmt.Fprintf(&b, "%s: &%s [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", name, name, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = name
	}
	return []byte(b.String())
}

// BombAnchors is AliasBomb as flow sequences to be placed inside a
// document: "[&a [lol × 9], &b [*a × 9], …, &i [*h × 9]]"; the last
// element is the 9^9-string one. Use it as a value where a loader decodes
// free-form data.
func BombAnchors() string {
	var b strings.Builder
	b.WriteString(`[&a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`)
	prev := "a"
	for _, c := range "bcdefghi" {
		name := string(c)
		fmt.Fprintf(&b, ", &%s [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]", name, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = name
	}
	b.WriteString("]")
	return b.String()
}

// Run checks a loader against every bad input.
func Run(t *testing.T, l Loader) {
	t.Helper()
	if l.HugeAlloc == 0 {
		l.HugeAlloc = 1 << 20
	}
	t.Run("valid", func(t *testing.T) {
		if len(l.Valid) == 0 {
			t.Fatal("no valid inputs")
		}
		for i, v := range l.Valid {
			if err := l.Parse(l.File, v); err != nil {
				t.Fatalf("valid input %d does not load: %v", i, err)
			}
		}
	})
	t.Run("truncated", func(t *testing.T) {
		for i, v := range l.Valid {
			for _, cut := range Truncations(v) {
				name := fmt.Sprintf("input %d cut at %d of %d bytes", i, len(cut), len(v))
				// A cut may still be a complete document (at a line end);
				// what matters is no panic, no hang and a named error.
				expect(t, name, l.File, false, 0, func() error { return l.Parse(l.File, cut) })
			}
		}
	})
	t.Run("garbage", func(t *testing.T) {
		for _, n := range []int{16, 1 << 10, 64 << 10} {
			g := Garbage(uint64(n), n)
			expect(t, fmt.Sprintf("%d random bytes", n), l.File, true, 0, func() error { return l.Parse(l.File, g) })
		}
		expect(t, "NUL bytes", l.File, true, 0, func() error { return l.Parse(l.File, make([]byte, 4096)) })
	})
	t.Run("huge", func(t *testing.T) {
		h := Huge()
		err := expect(t, "a 64 MiB line", l.File, true, l.HugeAlloc, func() error { return l.Parse(l.File, h) })
		if err != nil && !strings.Contains(err.Error(), "too large") && !strings.Contains(err.Error(), "larger than") {
			t.Errorf("a 64 MiB line: the error does not say the file is too large: %.300s", err)
		}
	})
	t.Run("nested", func(t *testing.T) {
		if l.YAML {
			expect(t, "100,000 nested flow sequences", l.File, true, BombAlloc, func() error { return l.Parse(l.File, DeepFlow(100_000)) })
			expect(t, "20,000 nested flow mappings", l.File, true, BombAlloc, func() error { return l.Parse(l.File, DeepMap(20_000)) })
			expect(t, "an alias bomb", l.File, true, BombAlloc, func() error { return l.Parse(l.File, AliasBomb()) })
			for i, b := range l.Bombs {
				expect(t, fmt.Sprintf("alias bomb %d in a free-form value", i), l.File, true, BombAlloc, func() error { return l.Parse(l.File, b) })
			}
		} else {
			expect(t, "100,000 nested arrays", l.File, true, BombAlloc, func() error { return l.Parse(l.File, DeepFlow(100_000)) })
			deepObj := []byte(strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000))
			expect(t, "100,000 nested objects", l.File, true, BombAlloc, func() error { return l.Parse(l.File, deepObj) })
		}
	})
	if l.Load == nil {
		return
	}
	t.Run("files", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, l.File)
		cases := []struct {
			name  string
			data  []byte
			alloc uint64
		}{
			// Refused by its size before reading: far less than even the
			// 16 MiB a read up to the limit would take (the loader may do
			// other work first, such as loading the shipped configuration).
			{"a 64 MiB file", Huge(), 8 << 20},
			{"a truncated file", l.Valid[0][:len(l.Valid[0])/2+1], 0},
			{"a garbage file", Garbage(7, 4096), 0},
		}
		if l.YAML {
			cases = append(cases, struct {
				name  string
				data  []byte
				alloc uint64
			}{"an alias bomb file", AliasBomb(), BombAlloc})
		}
		named := path
		if l.DirLoader {
			named = l.File
		}
		for _, c := range cases {
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			before := Tree(t, dir)
			strict := c.name != "a truncated file"
			err := expect(t, c.name, named, strict, c.alloc, func() error { return l.Load(path) })
			if c.name == "a 64 MiB file" && err != nil && !strings.Contains(err.Error(), "too large") && !strings.Contains(err.Error(), "larger than") {
				t.Errorf("%s: the error does not say the file is too large: %.300s", c.name, err)
			}
			if after := Tree(t, dir); after != before {
				t.Errorf("%s: a failed load changed the directory:\nbefore %s\nafter  %s", c.name, before, after)
			}
		}
		if l.DirLoader {
			return
		}
		// A path that is not there, and one that is a directory.
		missing := filepath.Join(dir, "missing", l.File)
		expect(t, "a missing file", filepath.Join("missing", l.File), !l.MissingOK, 0, func() error { return l.Load(missing) })
		sub := filepath.Join(dir, "adir")
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		expect(t, "a directory", "adir", true, 0, func() error { return l.Load(sub) })
		if _, err := os.Stat(filepath.Join(dir, "missing")); err == nil {
			t.Error("loading a missing file created its directory")
		}
	})
}

// expect runs load with a deadline, turning a panic into a test failure.
// When mustFail is set the load must return an error; any error must name
// file. maxAlloc, when not zero, bounds the bytes allocated during the
// call. It returns the load's error.
func expect(t *testing.T, what, file string, mustFail bool, maxAlloc uint64, load func() error) error {
	t.Helper()
	type result struct {
		err   error
		panic any
		alloc uint64
	}
	done := make(chan result, 1)
	go func() {
		var r result
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		defer func() {
			runtime.ReadMemStats(&m1)
			r.alloc = m1.TotalAlloc - m0.TotalAlloc
			r.panic = recover()
			done <- r
		}()
		r.err = load()
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(Timeout):
		t.Fatalf("%s: no answer within %v (a hang)", what, Timeout)
	}
	switch {
	case r.panic != nil:
		t.Errorf("%s: panic: %v", what, r.panic)
	case mustFail && r.err == nil:
		t.Errorf("%s: loaded without an error", what)
	case r.err != nil && !strings.Contains(r.err.Error(), file):
		t.Errorf("%s: the error does not name %s: %.300s", what, file, r.err)
	case maxAlloc > 0 && r.alloc > maxAlloc:
		t.Errorf("%s: allocated %d bytes, more than %d", what, r.alloc, maxAlloc)
	}
	return r.err
}

// Tree fingerprints a directory: every path with its mode and content hash,
// sorted, so a test can see that nothing was written, renamed or left
// behind.
func Tree(t *testing.T, dir string) string {
	t.Helper()
	var parts []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		entry := fmt.Sprintf("%s %v", rel, info.Mode())
		if info.Mode().IsRegular() && info.Size() > 1<<20 {
			// Large files: size and modification time, not a slow hash.
			entry += fmt.Sprintf(" %d %d", info.Size(), info.ModTime().UnixNano())
		} else if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			entry += fmt.Sprintf(" %x", sha256.Sum256(data))
		}
		parts = append(parts, entry)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(parts, "; ")
}
