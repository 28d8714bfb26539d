package strictyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
)

// Error is one problem in one file. Line and Column are 1-based; Field is the
// dotted path of the offending field ("preconditions.required_tools[0].item_id")
// and may be empty for document-level problems.
type Error struct {
	File   string
	Line   int
	Column int
	Field  string
	Msg    string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
		}
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is a list of problems; it is itself an error when non-empty.
type Errors []*Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Unwrap exposes the individual errors to errors.Is and errors.As.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// Err returns es as an error, or nil when it is empty.
func (es Errors) Err() error {
	if len(es) == 0 {
		return nil
	}
	return es
}

// Sort orders errors by file, line, column and message, for stable output.
func (es Errors) Sort() {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Msg < b.Msg
	})
}

// Flatten collects the *Error values inside err (an Errors, a single *Error or
// any joined error); other errors become an Error naming only file.
func Flatten(file string, err error) Errors {
	if err == nil {
		return nil
	}
	var list Errors
	if errors.As(err, &list) {
		return list
	}
	var one *Error
	if errors.As(err, &one) {
		return Errors{one}
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out Errors
		for _, e := range j.Unwrap() {
			out = append(out, Flatten(file, e)...)
		}
		return out
	}
	return Errors{{File: file, Msg: err.Error()}}
}

var lineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// Parse parses one YAML document and returns its root content node (nil for an
// empty document). Syntax errors are returned as Errors holding one *Error;
// yaml.v3 reports only the line of a syntax error (and none for the first
// line), so the column is that of the first non-blank character on the line.
// A second document ("---") is an error: each file holds one. Files over
// filelimit.MaxConfig are refused before parsing.
func Parse(file string, data []byte) (*yaml.Node, error) {
	if err := filelimit.Check(file, len(data), filelimit.MaxConfig); err != nil {
		return nil, Errors{{File: file, Msg: err.(*filelimit.TooLargeError).Msg()}}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, Errors{syntaxError(file, data, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		line := extra.Line
		if len(extra.Content) > 0 {
			line = extra.Content[0].Line
		}
		return nil, Errors{{File: file, Line: line, Column: 1, Msg: "a file holds one YAML document; found a second one"}}
	} else if !errors.Is(err, io.EOF) {
		return nil, Errors{syntaxError(file, data, err)}
	}
	if len(doc.Content) == 0 || isNull(doc.Content[0]) {
		return nil, nil // empty, or only a null such as "~" or a bare tag
	}
	return doc.Content[0], nil
}

func syntaxError(file string, data []byte, err error) *Error {
	msg := err.Error()
	line := 1 // yaml.v3 omits the line for problems on the first line
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
		if strings.Contains(msg, "unknown anchor") {
			line = 0 // yaml.v3 gives no position for these
		}
	}
	e := &Error{File: file, Msg: "invalid YAML: " + msg}
	if line > 0 {
		e.Line, e.Column = line, firstColumn(data, line)
	}
	return e
}

func firstColumn(data []byte, line int) int {
	lines := strings.Split(string(data), "\n")
	if line < 1 || line > len(lines) {
		return 1
	}
	l := lines[line-1]
	return len(l) - len(strings.TrimLeft(l, " \t")) + 1
}

// Decoder walks yaml.Node trees of one file and collects problems.
type Decoder struct {
	File string
	Errs Errors
}

// NewDecoder returns a decoder for the named file.
func NewDecoder(file string) *Decoder { return &Decoder{File: file} }

// Errorf records a problem at node n (which may be nil) for the given field.
func (d *Decoder) Errorf(n *yaml.Node, field, format string, args ...any) {
	e := &Error{File: d.File, Field: field, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	d.Errs = append(d.Errs, e)
}

// Err returns the collected problems as an error, or nil.
func (d *Decoder) Err() error { return d.Errs.Err() }

// Join builds a field path: Join("a", "b") = "a.b", Join("", "b") = "b".
func Join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Index builds an indexed field path: Index("skills", 2) = "skills[2]".
func Index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// Field is one key of a mapping with its key and value nodes.
type Field struct {
	Key   *yaml.Node
	Value *yaml.Node
}

// Mapping checks that n is a mapping whose keys are all in allowed (a nil
// allowed list accepts any key) and returns its fields by name. Unknown keys
// are reported with the closest allowed key as a suggestion; duplicate keys are
// reported too. A null node yields an empty map.
func (d *Decoder) Mapping(n *yaml.Node, path string, allowed []string) map[string]Field {
	out := map[string]Field{}
	if n == nil || isNull(n) {
		return out
	}
	n = resolveAlias(n)
	if n.Kind != yaml.MappingNode {
		d.Errorf(n, path, "expected a mapping, got %s", describe(n))
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.Errorf(k, path, "mapping keys must be scalars")
			continue
		}
		if k.Tag == "!!merge" {
			d.Errorf(k, path, "merge keys (<<) are not supported")
			continue
		}
		name := k.Value
		if allowed != nil && !contains(allowed, name) {
			msg := fmt.Sprintf("unknown field %q", name)
			if s := suggest.Closest(name, allowed); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			d.Errorf(k, Join(path, name), "%s", msg)
			continue
		}
		if _, dup := out[name]; dup {
			d.Errorf(k, Join(path, name), "duplicate field %q", name)
			continue
		}
		out[name] = Field{Key: k, Value: v}
	}
	return out
}

// Require reports each name missing from fields, at the mapping node n.
func (d *Decoder) Require(n *yaml.Node, path string, fields map[string]Field, names ...string) {
	for _, name := range names {
		if _, ok := fields[name]; !ok {
			d.Errorf(n, Join(path, name), "required field is missing")
		}
	}
}

// String decodes a scalar string. Numbers and booleans written where a string
// is expected are rejected so that `version: "1"`-style confusions surface.
func (d *Decoder) String(n *yaml.Node, path string) (string, bool) {
	n = resolveAlias(n)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		d.Errorf(n, path, "expected a string, got %s", describe(n))
		return "", false
	}
	return n.Value, true
}

// Int decodes an integer scalar.
func (d *Decoder) Int(n *yaml.Node, path string) (int, bool) {
	n = resolveAlias(n)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
		d.Errorf(n, path, "expected an integer, got %s", describe(n))
		return 0, false
	}
	var v int
	if err := n.Decode(&v); err != nil {
		d.Errorf(n, path, "integer out of range: %s", n.Value)
		return 0, false
	}
	return v, true
}

// Float decodes a number (integer or float scalar).
func (d *Decoder) Float(n *yaml.Node, path string) (float64, bool) {
	n = resolveAlias(n)
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
		d.Errorf(n, path, "expected a number, got %s", describe(n))
		return 0, false
	}
	var v float64
	if err := n.Decode(&v); err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		d.Errorf(n, path, "expected a finite number, got %s", n.Value)
		return 0, false
	}
	return v, true
}

// IntIn decodes fields[key], an integer that must lie within lo..hi. It
// reports false when the key is missing (no error: the caller's default
// stands) and when the value is no integer or out of range (an error
// naming the key and the range).
func (d *Decoder) IntIn(fields map[string]Field, path, key string, lo, hi int) (int, bool) {
	v, ok := fields[key]
	if !ok {
		return 0, false
	}
	p := Join(path, key)
	n, ok := d.Int(v.Value, p)
	if !ok {
		return 0, false
	}
	if n < lo || n > hi {
		d.Errorf(v.Value, p, "must be within %d..%d, got %d", lo, hi, n)
		return 0, false
	}
	return n, true
}

// FloatIn decodes fields[key], a number that must lie within lo..hi, as
// IntIn does.
func (d *Decoder) FloatIn(fields map[string]Field, path, key string, lo, hi float64) (float64, bool) {
	v, ok := fields[key]
	if !ok {
		return 0, false
	}
	p := Join(path, key)
	x, ok := d.Float(v.Value, p)
	if !ok {
		return 0, false
	}
	if x < lo || x > hi {
		d.Errorf(v.Value, p, "must be within %g..%g, got %g", lo, hi, x)
		return 0, false
	}
	return x, true
}

// OptFloat decodes a number or null; null yields nil.
func (d *Decoder) OptFloat(n *yaml.Node, path string) (*float64, bool) {
	if isNull(n) {
		return nil, true
	}
	v, ok := d.Float(n, path)
	if !ok {
		return nil, false
	}
	return &v, true
}

// Bool decodes a boolean scalar.
func (d *Decoder) Bool(n *yaml.Node, path string) (bool, bool) {
	n = resolveAlias(n)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		d.Errorf(n, path, "expected true or false, got %s", describe(n))
		return false, false
	}
	var v bool
	_ = n.Decode(&v)
	return v, true
}

// StringList decodes a sequence of strings; a null node yields nil.
func (d *Decoder) StringList(n *yaml.Node, path string) []string {
	n = resolveAlias(n)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.Errorf(n, path, "expected a list of strings, got %s", describe(n))
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for i, c := range n.Content {
		if s, ok := d.String(c, Index(path, i)); ok {
			out = append(out, s)
		}
	}
	return out
}

// Sequence checks that n is a sequence (null yields nil) and returns its items.
func (d *Decoder) Sequence(n *yaml.Node, path string) []*yaml.Node {
	n = resolveAlias(n)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.Errorf(n, path, "expected a list, got %s", describe(n))
		return nil
	}
	return n.Content
}

// Any decodes n into plain Go values (map[string]any, []any, string, int,
// float64, bool, nil) for free-form fields such as "extra".
func (d *Decoder) Any(n *yaml.Node, path string) (any, bool) {
	var v any
	if err := resolveAlias(n).Decode(&v); err != nil {
		d.Errorf(n, path, "%v", err)
		return nil, false
	}
	return normalize(v), true
}

// AnyMap decodes a free-form mapping; null yields an empty map.
func (d *Decoder) AnyMap(n *yaml.Node, path string) map[string]any {
	fields := d.Mapping(n, path, nil)
	out := make(map[string]any, len(fields))
	for k, f := range fields {
		if v, ok := d.Any(f.Value, Join(path, k)); ok {
			out[k] = v
		}
	}
	return out
}

// normalize converts map[any]any (never produced by yaml.v3 for string keys,
// but possible with other key types) into map[string]any so values are
// JSON-ready.
func normalize(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = normalize(x)
		}
		return t
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[fmt.Sprint(k)] = normalize(x)
		}
		return out
	case []any:
		for i, x := range t {
			t[i] = normalize(x)
		}
		return t
	default:
		return v
	}
}

// IsNull reports whether n is absent or an explicit null.
func IsNull(n *yaml.Node) bool { return isNull(n) }

func isNull(n *yaml.Node) bool {
	if n == nil {
		return true
	}
	n = resolveAlias(n)
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && n.Alias != nil && i < 64; i++ {
		n = n.Alias
	}
	return n
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!str":
			return fmt.Sprintf("the string %q", n.Value)
		case "!!int":
			return "the integer " + n.Value
		case "!!float":
			return "the number " + n.Value
		case "!!bool":
			return "the boolean " + n.Value
		}
		return fmt.Sprintf("%s %q", n.Tag, n.Value)
	case yaml.AliasNode:
		return "an alias"
	}
	return "an unexpected node"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
