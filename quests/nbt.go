package quests

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// maxDepth bounds the nesting of a quest file: BetterQuesting's deepest
// values (an item's NBT inside a task inside a quest) are a dozen levels
// deep; a file nested deeper is refused before it costs a stack.
const maxDepth = 64

// FileError is a problem in one file of the database: where and why.
type FileError struct {
	File string // the file, as given to Load or found under it
	Path string // the JSON path within the file ("tasks:9.0:10.requiredItems:9"); empty for the whole file
	Err  error
}

func (e *FileError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s: %s: %v", e.File, e.Path, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// compound is an NBT compound written as JSON: keys are "name:type".
type compound struct {
	file, path string
	m          map[string]any
	errs       *[]error
}

// parseJSON decodes one JSON document (numbers kept exact) and checks its
// nesting depth.
func parseJSON(file string, data []byte) (compound, error) {
	if err := checkDepth(data); err != nil {
		return compound{}, &FileError{File: file, Err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return compound{}, &FileError{File: file, Err: fmt.Errorf("not JSON: %w", jsonErr(data, err))}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return compound{}, &FileError{File: file, Err: errors.New("not JSON: data after the top-level value")}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return compound{}, &FileError{File: file, Err: fmt.Errorf("want a JSON object at the top, got %s", kind(v))}
	}
	var errs []error
	return compound{file: file, m: m, errs: &errs}, nil
}

// jsonErr adds the line and column to a syntax error.
func jsonErr(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset <= int64(len(data)) {
		before := data[:se.Offset]
		line := bytes.Count(before, []byte("\n")) + 1
		col := int(se.Offset) - bytes.LastIndexByte(before, '\n')
		return fmt.Errorf("line %d, column %d: %w", line, col-1, err)
	}
	return err
}

// checkDepth refuses JSON nested deeper than maxDepth (strings skipped).
func checkDepth(data []byte) error {
	depth, inStr, esc := 0, false, false
	for _, c := range data {
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case inStr && c == '"':
			inStr = false
		case inStr:
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
			if depth > maxDepth {
				return fmt.Errorf("nested more than %d levels deep", maxDepth)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}

func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

func (c compound) errorf(key, format string, args ...any) {
	*c.errs = append(*c.errs, &FileError{File: c.file, Path: c.join(key), Err: fmt.Errorf(format, args...)})
}

func (c compound) join(key string) string {
	if c.path == "" {
		return key
	}
	if key == "" {
		return c.path
	}
	return c.path + "." + key
}

// lookup finds the value of name whatever its type suffix ("name:8"); a
// key without a suffix is accepted too (hand-written files).
func (c compound) lookup(name string) (string, any, bool) {
	if c.m == nil {
		return "", nil, false
	}
	if v, ok := c.m[name]; ok {
		return name, v, true
	}
	// Keys are few per compound; pick the first in sorted order so a file
	// with "a:3" and "a:8" decodes the same way every time.
	var found string
	for k := range c.m {
		base, _, ok := strings.Cut(k, ":")
		if ok && base == name && (found == "" || k < found) {
			found = k
		}
	}
	if found == "" {
		return "", nil, false
	}
	return found, c.m[found], true
}

// key is the key name has in the compound (name itself when absent).
func (c compound) key(name string) string {
	if k, _, ok := c.lookup(name); ok {
		return k
	}
	return name
}

// has reports whether the compound has name.
func (c compound) has(name string) bool { _, _, ok := c.lookup(name); return ok }

// str returns a string value ("" when absent).
func (c compound) str(name string) string {
	k, v, ok := c.lookup(name)
	if !ok {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		c.errorf(k, "want a string, got %s", kind(v))
	}
	return s
}

// int64 returns an integer value (def when absent).
func (c compound) int64(name string, def int64) int64 {
	k, v, ok := c.lookup(name)
	if !ok {
		return def
	}
	n, ok := v.(json.Number)
	if !ok {
		c.errorf(k, "want a number, got %s", kind(v))
		return def
	}
	i, err := strconv.ParseInt(n.String(), 10, 64)
	if err != nil {
		// BetterQuesting writes unsigned halves of a UUID as signed longs;
		// a float here is a hand-edited file.
		c.errorf(k, "want an integer, got %s", n)
		return def
	}
	return i
}

// int returns an integer value that fits an int32 (def when absent).
func (c compound) int(name string, def int) int {
	n := c.int64(name, int64(def))
	if n < -1<<31 || n > 1<<31-1 {
		k, _, _ := c.lookup(name)
		c.errorf(k, "%d is out of range", n)
		return def
	}
	return int(n)
}

// bool returns a boolean stored as a byte (or a JSON boolean).
func (c compound) bool(name string) bool {
	k, v, ok := c.lookup(name)
	if !ok {
		return false
	}
	if b, ok := v.(bool); ok {
		return b
	}
	n, ok := v.(json.Number)
	if !ok {
		c.errorf(k, "want 0 or 1, got %s", kind(v))
		return false
	}
	return n.String() != "0"
}

// child returns the compound at name (ok false when absent or not one).
func (c compound) child(name string) (compound, bool) {
	k, v, ok := c.lookup(name)
	if !ok {
		return compound{}, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		c.errorf(k, "want an object, got %s", kind(v))
		return compound{}, false
	}
	return compound{file: c.file, path: c.join(k), m: m, errs: c.errs}, true
}

// list returns the compounds of an NBT list written as an object keyed
// "0:10", "1:10", … (or a JSON array), in index order.
func (c compound) list(name string) []compound {
	k, v, ok := c.lookup(name)
	if !ok {
		return nil
	}
	path := c.join(k)
	switch t := v.(type) {
	case []any:
		out := make([]compound, 0, len(t))
		for i, e := range t {
			m, ok := e.(map[string]any)
			p := fmt.Sprintf("%s[%d]", path, i)
			if !ok {
				*c.errs = append(*c.errs, &FileError{File: c.file, Path: p, Err: fmt.Errorf("want an object, got %s", kind(e))})
				continue
			}
			out = append(out, compound{file: c.file, path: p, m: m, errs: c.errs})
		}
		return out
	case map[string]any:
		type entry struct {
			idx int
			key string
		}
		entries := make([]entry, 0, len(t))
		for key := range t {
			base, _, _ := strings.Cut(key, ":")
			i, err := strconv.Atoi(base)
			if err != nil || i < 0 {
				*c.errs = append(*c.errs, &FileError{File: c.file, Path: path + "." + key, Err: errors.New("a list entry's key must be an index (\"0:10\")")})
				continue
			}
			entries = append(entries, entry{i, key})
		}
		sort.Slice(entries, func(a, b int) bool {
			if entries[a].idx != entries[b].idx {
				return entries[a].idx < entries[b].idx
			}
			return entries[a].key < entries[b].key
		})
		out := make([]compound, 0, len(entries))
		for _, e := range entries {
			m, ok := t[e.key].(map[string]any)
			if !ok {
				*c.errs = append(*c.errs, &FileError{File: c.file, Path: path + "." + e.key, Err: fmt.Errorf("want an object, got %s", kind(t[e.key]))})
				continue
			}
			out = append(out, compound{file: c.file, path: path + "." + e.key, m: m, errs: c.errs})
		}
		return out
	}
	c.errorf(k, "want a list, got %s", kind(v))
	return nil
}

// ints returns an NBT int array ("preRequisites:11": [1, 2]).
func (c compound) ints(name string) []int64 {
	k, v, ok := c.lookup(name)
	if !ok {
		return nil
	}
	arr, ok := v.([]any)
	if !ok {
		c.errorf(k, "want an array of integers, got %s", kind(v))
		return nil
	}
	out := make([]int64, 0, len(arr))
	for i, e := range arr {
		n, ok := e.(json.Number)
		if !ok {
			c.errorf(fmt.Sprintf("%s[%d]", k, i), "want an integer, got %s", kind(e))
			continue
		}
		x, err := strconv.ParseInt(n.String(), 10, 64)
		if err != nil {
			c.errorf(fmt.Sprintf("%s[%d]", k, i), "want an integer, got %s", n)
			continue
		}
		out = append(out, x)
	}
	return out
}
