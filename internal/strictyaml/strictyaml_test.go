package strictyaml

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// parseRoot parses a document that must be valid.
func parseRoot(t *testing.T, src string) *yaml.Node {
	t.Helper()
	n, err := Parse("t.yaml", []byte(src))
	require.NoError(t, err)
	require.NotNil(t, n)
	return n
}

// value returns the value node of key in a mapping node.
func value(t *testing.T, m *yaml.Node, key string) *yaml.Node {
	t.Helper()
	require.Equal(t, yaml.MappingNode, m.Kind)
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	require.FailNow(t, "missing key", key)
	return nil
}

func TestErrorString(t *testing.T) {
	tests := []struct {
		name string
		err  Error
		want string
	}{
		{"full", Error{File: "a.yaml", Line: 3, Column: 5, Field: "params.radius", Msg: "bad"}, "a.yaml:3:5: params.radius: bad"},
		{"no field", Error{File: "a.yaml", Line: 1, Column: 1, Msg: "bad"}, "a.yaml:1:1: bad"},
		{"no position", Error{File: "a.yaml", Field: "name", Msg: "bad"}, "a.yaml: name: bad"},
		{"nothing", Error{File: "a.yaml", Msg: "bad"}, "a.yaml: bad"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.err.Error())
		})
	}
}

func TestErrorsErrAndUnwrap(t *testing.T) {
	var none Errors
	assert.NoError(t, none.Err())
	assert.Nil(t, Errors{}.Err())

	a := &Error{File: "a", Line: 1, Column: 1, Msg: "one"}
	b := &Error{File: "b", Msg: "two"}
	es := Errors{a, b}
	err := es.Err()
	require.Error(t, err)
	assert.Equal(t, "a:1:1: one\nb: two", err.Error())

	// errors.As finds both the list and an individual error.
	var list Errors
	require.True(t, errors.As(err, &list))
	assert.Len(t, list, 2)
	var one *Error
	require.True(t, errors.As(err, &one))
	assert.Same(t, a, one)
	assert.True(t, errors.Is(err, b))
	assert.Len(t, es.Unwrap(), 2)
}

func TestErrorsSort(t *testing.T) {
	es := Errors{
		{File: "b.yaml", Line: 1, Column: 1, Msg: "x"},
		{File: "a.yaml", Line: 2, Column: 1, Msg: "x"},
		{File: "a.yaml", Line: 1, Column: 3, Msg: "x"},
		{File: "a.yaml", Line: 1, Column: 1, Msg: "z"},
		{File: "a.yaml", Line: 1, Column: 1, Msg: "y"},
		{File: "a.yaml", Msg: "doc"},
	}
	es.Sort()
	var got []string
	for _, e := range es {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		"a.yaml: doc",
		"a.yaml:1:1: y",
		"a.yaml:1:1: z",
		"a.yaml:1:3: x",
		"a.yaml:2:1: x",
		"b.yaml:1:1: x",
	}, got)
}

func TestFlatten(t *testing.T) {
	e1 := &Error{File: "f", Line: 1, Column: 2, Msg: "one"}
	e2 := &Error{File: "f", Line: 3, Column: 4, Msg: "two"}
	tests := []struct {
		name string
		err  error
		want Errors
	}{
		{"nil", nil, nil},
		{"list", Errors{e1, e2}, Errors{e1, e2}},
		{"wrapped list", fmt.Errorf("ctx: %w", Errors{e1}), Errors{e1}},
		{"single", e1, Errors{e1}},
		{"wrapped single", fmt.Errorf("ctx: %w", e2), Errors{e2}},
		{"plain", errors.New("boom"), Errors{{File: "f.yaml", Msg: "boom"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Flatten("f.yaml", tc.err))
		})
	}

	t.Run("joined plain errors", func(t *testing.T) {
		got := Flatten("f.yaml", errors.Join(errors.New("a"), errors.New("b")))
		assert.Equal(t, Errors{{File: "f.yaml", Msg: "a"}, {File: "f.yaml", Msg: "b"}}, got)
	})
	t.Run("joined error with located error", func(t *testing.T) {
		// errors.As finds the located error first; a plain joined error does
		// not hide it.
		got := Flatten("f.yaml", errors.Join(errors.New("a"), e1))
		require.NotEmpty(t, got)
		assert.Contains(t, got, e1)
	})
}

func TestJoinIndex(t *testing.T) {
	assert.Equal(t, "b", Join("", "b"))
	assert.Equal(t, "a.b", Join("a", "b"))
	assert.Equal(t, "a.b.c", Join(Join("a", "b"), "c"))
	assert.Equal(t, "skills[2]", Index("skills", 2))
	assert.Equal(t, "a.b[0].c", Join(Index("a.b", 0), "c"))
}

func TestParse(t *testing.T) {
	t.Run("mapping", func(t *testing.T) {
		n := parseRoot(t, "a: 1\nb: two\n")
		assert.Equal(t, yaml.MappingNode, n.Kind)
		assert.Equal(t, 1, n.Line)
		assert.Equal(t, 1, n.Column)
	})
	t.Run("empty document", func(t *testing.T) {
		for _, src := range []string{"", "\n\n", "# only a comment\n"} {
			n, err := Parse("t.yaml", []byte(src))
			assert.NoError(t, err, "%q", src)
			assert.Nil(t, n, "%q", src)
		}
	})
	t.Run("explicit null document is empty", func(t *testing.T) {
		for _, src := range []string{"~\n", "null\n", "\n\n!  "} {
			n, err := Parse("t.yaml", []byte(src))
			require.NoError(t, err)
			assert.Nil(t, n, "%q: callers treat a null document as empty", src)
		}
	})

	syntax := []struct {
		name string
		src  string
		line int
		col  int
		msg  string
	}{
		{"mapping in scalar", "a: 1\n  b: 2\n", 2, 3, "mapping values are not allowed"},
		{"bad indentation", "a: 1\nb: 2\n c: 3\n", 3, 2, "mapping values are not allowed"},
		{"tab indentation", "name: x\n\tversion: 1\n", 2, 2, "tab character"},
		{"unterminated quote", "name: x\ndescription: \"abc\n", 2, 1, "unexpected end of stream"},
		{"bad token", "a: 1\nb: 2\nkey: @foo\n", 3, 1, "cannot start any token"},
	}
	for _, tc := range syntax {
		t.Run("syntax/"+tc.name, func(t *testing.T) {
			n, err := Parse("bad.yaml", []byte(tc.src))
			require.Error(t, err)
			assert.Nil(t, n)
			var e *Error
			require.True(t, errors.As(err, &e), "want *Error, got %T", err)
			assert.Equal(t, "bad.yaml", e.File)
			assert.Equal(t, tc.line, e.Line)
			assert.Equal(t, tc.col, e.Column)
			assert.Greater(t, e.Column, 0)
			assert.Contains(t, e.Msg, "invalid YAML: ")
			assert.Contains(t, e.Msg, tc.msg)
			assert.NotContains(t, e.Msg, "yaml: line", "the position must be moved out of the message")
		})
	}

	t.Run("syntax/first line", func(t *testing.T) {
		_, err := Parse("bad.yaml", []byte("key: @foo\nb: 2\n"))
		var e *Error
		require.True(t, errors.As(err, &e))
		assert.Equal(t, "invalid YAML: found character that cannot start any token", e.Msg)
		// yaml.v3 leaves out "line N:" for problems on the first line.
		assert.Equal(t, 1, e.Line)
		assert.Equal(t, 1, e.Column)
	})

	t.Run("syntax errors are Errors", func(t *testing.T) {
		_, err := Parse("bad.yaml", []byte("a: [1\n"))
		var list Errors
		require.True(t, errors.As(err, &list))
		require.Len(t, list, 1)
	})

	t.Run("second document", func(t *testing.T) {
		_, err := Parse("two.yaml", []byte("a: 1\n---\nb: 2\n"))
		require.Error(t, err)
		assert.Equal(t, "two.yaml:3:1: a file holds one YAML document; found a second one", err.Error())
		_, err = Parse("two.yaml", []byte("a: 1\n---\nb: [\n"))
		require.Error(t, err, "a syntax error in a second document is reported too")
	})

	t.Run("syntax/no line from yaml", func(t *testing.T) {
		// yaml.v3 gives no position for an unknown anchor.
		_, err := Parse("bad.yaml", []byte("a: 1\nb: *nope\n"))
		var e *Error
		require.True(t, errors.As(err, &e))
		assert.Equal(t, "invalid YAML: unknown anchor 'nope' referenced", e.Msg)
		assert.Equal(t, "bad.yaml: invalid YAML: unknown anchor 'nope' referenced", e.Error())
	})
}

func TestMapping(t *testing.T) {
	allowed := []string{"name", "version", "preconditions", "description"}

	t.Run("known keys", func(t *testing.T) {
		d := NewDecoder("t.yaml")
		n := parseRoot(t, "name: x\nversion: 1\n")
		f := d.Mapping(n, "", allowed)
		require.Empty(t, d.Errs)
		require.Len(t, f, 2)
		assert.Equal(t, "x", f["name"].Value.Value)
		assert.Equal(t, "version", f["version"].Key.Value)
		assert.Equal(t, 2, f["version"].Key.Line)
		assert.NoError(t, d.Err())
	})

	unknown := []struct {
		key     string
		suggest string
	}{
		{"precondition", "preconditions"},
		{"nmae", "name"},
		{"verison", "version"},
		{"descripton", "description"},
		{"zzz", ""},
		{"completely_unrelated", ""},
	}
	for _, tc := range unknown {
		t.Run("unknown/"+tc.key, func(t *testing.T) {
			d := NewDecoder("t.yaml")
			n := parseRoot(t, "name: x\n"+tc.key+": 1\n")
			f := d.Mapping(n, "spec", allowed)
			assert.Len(t, f, 1)
			assert.NotContains(t, f, tc.key)
			require.Len(t, d.Errs, 1)
			e := d.Errs[0]
			assert.Equal(t, "t.yaml", e.File)
			assert.Equal(t, 2, e.Line)
			assert.Equal(t, 1, e.Column)
			assert.Equal(t, "spec."+tc.key, e.Field)
			if tc.suggest != "" {
				assert.Equal(t, fmt.Sprintf("unknown field %q (did you mean %q?)", tc.key, tc.suggest), e.Msg)
			} else {
				assert.Equal(t, fmt.Sprintf("unknown field %q", tc.key), e.Msg)
			}
		})
	}

	t.Run("duplicate key", func(t *testing.T) {
		d := NewDecoder("t.yaml")
		n := parseRoot(t, "name: a\nversion: 1\nname: b\n")
		f := d.Mapping(n, "", allowed)
		require.Len(t, d.Errs, 1)
		assert.Equal(t, "a", f["name"].Value.Value, "the first occurrence wins")
		e := d.Errs[0]
		assert.Equal(t, 3, e.Line)
		assert.Equal(t, 1, e.Column)
		assert.Equal(t, "name", e.Field)
		assert.Equal(t, `duplicate field "name"`, e.Msg)
	})

	t.Run("nested path and column", func(t *testing.T) {
		d := NewDecoder("t.yaml")
		n := parseRoot(t, "params:\n  radius:\n    typ: int\n")
		inner := value(t, value(t, n, "params"), "radius")
		d.Mapping(inner, "params.radius", []string{"type", "default"})
		require.Len(t, d.Errs, 1)
		assert.Equal(t, 3, d.Errs[0].Line)
		assert.Equal(t, 5, d.Errs[0].Column)
		assert.Equal(t, "params.radius.typ", d.Errs[0].Field)
		assert.Contains(t, d.Errs[0].Msg, `did you mean "type"?`)
	})

	t.Run("nil allowed accepts anything", func(t *testing.T) {
		d := NewDecoder("t.yaml")
		f := d.Mapping(parseRoot(t, "x: 1\ny: 2\n"), "", nil)
		assert.Empty(t, d.Errs)
		assert.Len(t, f, 2)
	})

	t.Run("null and nil give empty map", func(t *testing.T) {
		d := NewDecoder("t.yaml")
		assert.Empty(t, d.Mapping(nil, "", allowed))
		n := parseRoot(t, "a: ~\n")
		assert.Empty(t, d.Mapping(value(t, n, "a"), "a", allowed))
		assert.Empty(t, d.Errs)
	})

	t.Run("not a mapping", func(t *testing.T) {
		for _, tc := range []struct{ src, desc string }{
			{"a: [1, 2]\n", "a list"},
			{"a: hello\n", `the string "hello"`},
			{"a: 3\n", "the integer 3"},
		} {
			d := NewDecoder("t.yaml")
			n := parseRoot(t, tc.src)
			assert.Empty(t, d.Mapping(value(t, n, "a"), "a", allowed))
			require.Len(t, d.Errs, 1)
			assert.Equal(t, "expected a mapping, got "+tc.desc, d.Errs[0].Msg)
			assert.Equal(t, "a", d.Errs[0].Field)
			assert.Equal(t, 1, d.Errs[0].Line)
			assert.Equal(t, 4, d.Errs[0].Column)
		}
	})

	t.Run("non-scalar key", func(t *testing.T) {
		d := NewDecoder("t.yaml")
		d.Mapping(parseRoot(t, "? [a, b]\n: 1\nname: x\n"), "", allowed)
		require.Len(t, d.Errs, 1)
		assert.Equal(t, "mapping keys must be scalars", d.Errs[0].Msg)
	})

	t.Run("merge key", func(t *testing.T) {
		d := NewDecoder("t.yaml")
		n := parseRoot(t, "base: &b {x: 1}\nother:\n  <<: *b\n  y: 2\n")
		f := d.Mapping(value(t, n, "other"), "other", nil)
		require.Len(t, d.Errs, 1)
		assert.Equal(t, "merge keys (<<) are not supported", d.Errs[0].Msg)
		assert.Equal(t, 3, d.Errs[0].Line)
		assert.Len(t, f, 1)
	})

	t.Run("alias to mapping", func(t *testing.T) {
		d := NewDecoder("t.yaml")
		n := parseRoot(t, "base: &b {name: x}\nother: *b\n")
		f := d.Mapping(value(t, n, "other"), "other", allowed)
		assert.Empty(t, d.Errs)
		assert.Equal(t, "x", f["name"].Value.Value)
	})
}

func TestRequire(t *testing.T) {
	d := NewDecoder("t.yaml")
	n := parseRoot(t, "\nname: x\n")
	f := d.Mapping(n, "", nil)
	d.Require(n, "spec", f, "name", "version", "description")
	require.Len(t, d.Errs, 2)
	for i, field := range []string{"spec.version", "spec.description"} {
		assert.Equal(t, field, d.Errs[i].Field)
		assert.Equal(t, "required field is missing", d.Errs[i].Msg)
		assert.Equal(t, n.Line, d.Errs[i].Line, "missing fields are reported at the mapping")
		assert.Equal(t, 2, d.Errs[i].Line)
	}

	d2 := NewDecoder("t.yaml")
	d2.Require(nil, "", nil, "name")
	require.Len(t, d2.Errs, 1)
	assert.Equal(t, 0, d2.Errs[0].Line)
	assert.Equal(t, "name", d2.Errs[0].Field)
}

func TestTypedGetters(t *testing.T) {
	src := `
str: hello
quoted_num: "1"
int: 42
neg: -3
big: 18446744073709551615
huge: 99999999999999999999999
float: 2.5
bool: true
null: ~
list: [a, b]
map: {a: 1}
inf: .inf
nan: .nan
anchored: &anc 7
alias: *anc
`
	root := parseRoot(t, src)
	node := func(k string) *yaml.Node { return value(t, root, k) }

	type result struct {
		val any
		ok  bool
	}
	getters := map[string]func(d *Decoder, n *yaml.Node) result{
		"String": func(d *Decoder, n *yaml.Node) result { v, ok := d.String(n, "f"); return result{v, ok} },
		"Int":    func(d *Decoder, n *yaml.Node) result { v, ok := d.Int(n, "f"); return result{v, ok} },
		"Float":  func(d *Decoder, n *yaml.Node) result { v, ok := d.Float(n, "f"); return result{v, ok} },
		"Bool":   func(d *Decoder, n *yaml.Node) result { v, ok := d.Bool(n, "f"); return result{v, ok} },
	}
	tests := []struct {
		getter string
		key    string
		want   any    // when ok
		errMsg string // when not ok
	}{
		{"String", "str", "hello", ""},
		{"String", "quoted_num", "1", ""},
		{"String", "int", nil, "expected a string, got the integer 42"},
		{"String", "float", nil, "expected a string, got the number 2.5"},
		{"String", "bool", nil, "expected a string, got the boolean true"},
		{"String", "null", nil, "expected a string, got null"},
		{"String", "list", nil, "expected a string, got a list"},
		{"String", "map", nil, "expected a string, got a mapping"},
		{"Int", "int", 42, ""},
		{"Int", "neg", -3, ""},
		{"Int", "alias", 7, ""},
		{"Int", "quoted_num", nil, `expected an integer, got the string "1"`},
		{"Int", "float", nil, "expected an integer, got the number 2.5"},
		{"Int", "big", nil, "integer out of range: 18446744073709551615"},
		{"Int", "huge", nil, "expected an integer, got the number 99999999999999999999999"},
		{"Int", "list", nil, "expected an integer, got a list"},
		{"Float", "float", 2.5, ""},
		{"Float", "int", 42.0, ""},
		{"Float", "str", nil, `expected a number, got the string "hello"`},
		{"Float", "bool", nil, "expected a number, got the boolean true"},
		{"Float", "inf", nil, "expected a finite number, got .inf"},
		{"Float", "nan", nil, "expected a finite number, got .nan"},
		{"Bool", "bool", true, ""},
		{"Bool", "str", nil, `expected true or false, got the string "hello"`},
		{"Bool", "int", nil, "expected true or false, got the integer 42"},
	}
	for _, tc := range tests {
		t.Run(tc.getter+"/"+tc.key, func(t *testing.T) {
			d := NewDecoder("t.yaml")
			n := node(tc.key)
			r := getters[tc.getter](d, n)
			if tc.errMsg == "" {
				require.True(t, r.ok)
				assert.Empty(t, d.Errs)
				assert.Equal(t, tc.want, r.val)
				return
			}
			assert.False(t, r.ok)
			require.Len(t, d.Errs, 1)
			e := d.Errs[0]
			assert.Equal(t, tc.errMsg, e.Msg)
			assert.Equal(t, "f", e.Field)
			assert.Equal(t, n.Line, e.Line)
			assert.Equal(t, n.Column, e.Column)
			assert.Greater(t, e.Line, 0)
		})
	}

	t.Run("OptFloat", func(t *testing.T) {
		d := NewDecoder("t.yaml")
		v, ok := d.OptFloat(node("null"), "f")
		assert.True(t, ok)
		assert.Nil(t, v)
		v, ok = d.OptFloat(nil, "f")
		assert.True(t, ok)
		assert.Nil(t, v)
		v, ok = d.OptFloat(node("float"), "f")
		assert.True(t, ok)
		require.NotNil(t, v)
		assert.Equal(t, 2.5, *v)
		assert.Empty(t, d.Errs)
		v, ok = d.OptFloat(node("str"), "f")
		assert.False(t, ok)
		assert.Nil(t, v)
		assert.Len(t, d.Errs, 1)
	})

	t.Run("StringList", func(t *testing.T) {
		d := NewDecoder("t.yaml")
		assert.Equal(t, []string{"a", "b"}, d.StringList(node("list"), "l"))
		assert.Nil(t, d.StringList(node("null"), "l"))
		assert.Empty(t, d.Errs)

		assert.Nil(t, d.StringList(node("str"), "l"))
		require.Len(t, d.Errs, 1)
		assert.Equal(t, `expected a list of strings, got the string "hello"`, d.Errs[0].Msg)

		d = NewDecoder("t.yaml")
		mixed := parseRoot(t, "l: [a, 1, b, [x]]\n")
		assert.Equal(t, []string{"a", "b"}, d.StringList(value(t, mixed, "l"), "l"))
		require.Len(t, d.Errs, 2)
		assert.Equal(t, "l[1]", d.Errs[0].Field)
		assert.Equal(t, "l[3]", d.Errs[1].Field)
		assert.Equal(t, 8, d.Errs[0].Column)
	})

	t.Run("Sequence", func(t *testing.T) {
		d := NewDecoder("t.yaml")
		assert.Len(t, d.Sequence(node("list"), "s"), 2)
		assert.Nil(t, d.Sequence(node("null"), "s"))
		assert.Empty(t, d.Errs)
		assert.Nil(t, d.Sequence(node("map"), "s"))
		require.Len(t, d.Errs, 1)
		assert.Equal(t, "expected a list, got a mapping", d.Errs[0].Msg)
	})

	t.Run("Any and AnyMap", func(t *testing.T) {
		d := NewDecoder("t.yaml")
		n := parseRoot(t, "extra:\n  n: 3\n  f: 1.5\n  s: x\n  b: false\n  z: ~\n  l: [1, two]\n  m: {k: v}\n")
		got := d.AnyMap(value(t, n, "extra"), "extra")
		require.Empty(t, d.Errs)
		assert.Equal(t, map[string]any{
			"n": 3, "f": 1.5, "s": "x", "b": false, "z": nil,
			"l": []any{1, "two"},
			"m": map[string]any{"k": "v"},
		}, got)

		assert.Empty(t, d.AnyMap(nil, "extra"))
		assert.Empty(t, d.AnyMap(node("null"), "extra"))

		// Non-string keys are normalised into strings.
		v, ok := d.Any(value(t, parseRoot(t, "m: {1: a, true: b}\n"), "m"), "m")
		require.True(t, ok)
		assert.Equal(t, map[string]any{"1": "a", "true": "b"}, v)
		assert.Empty(t, d.Errs)

		// A list is not a mapping.
		assert.Empty(t, d.AnyMap(node("list"), "extra"))
		require.Len(t, d.Errs, 1)
		assert.Equal(t, "extra", d.Errs[0].Field)
	})

	t.Run("Any reports decode errors", func(t *testing.T) {
		d := NewDecoder("t.yaml")
		n := parseRoot(t, "a: &a [*a]\n")
		_, ok := d.Any(value(t, n, "a"), "a")
		assert.False(t, ok)
		require.Len(t, d.Errs, 1)
		assert.Equal(t, "a", d.Errs[0].Field)
	})
}

func TestIsNull(t *testing.T) {
	root := parseRoot(t, "a: ~\nb: null\nc: \"\"\nd: 0\ne:\n")
	assert.True(t, IsNull(nil))
	assert.True(t, IsNull(value(t, root, "a")))
	assert.True(t, IsNull(value(t, root, "b")))
	assert.False(t, IsNull(value(t, root, "c")))
	assert.False(t, IsNull(value(t, root, "d")))
	assert.True(t, IsNull(value(t, root, "e")))
}

func TestErrorfNilNode(t *testing.T) {
	d := NewDecoder("t.yaml")
	d.Errorf(nil, "x", "value %d", 3)
	require.Len(t, d.Errs, 1)
	assert.Equal(t, &Error{File: "t.yaml", Field: "x", Msg: "value 3"}, d.Errs[0])
	assert.Error(t, d.Err())
}

// TestParseTooLarge: a file over filelimit.MaxConfig is refused before
// yaml.v3 sees it, with an error naming the file.
func TestParseTooLarge(t *testing.T) {
	data := make([]byte, filelimit.MaxConfig+1)
	for i := range data {
		data[i] = 'a'
	}
	_, err := Parse("big.yaml", data)
	require.Error(t, err)
	assert.Equal(t, "big.yaml: file is too large (16777217 bytes; the limit is 16 MiB)", err.Error())
	root, err := Parse("ok.yaml", data[:1000])
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat("a", 1000), root.Value)
}

// TestIntInFloatIn: a ranged number is taken when present and within its
// bounds (both ends included); missing, it is no error and not taken; out
// of range or of the wrong kind, it is an error naming the key.
func TestIntInFloatIn(t *testing.T) {
	keys := []string{"lo", "hi", "under", "over", "word", "half"}
	root := parseRoot(t, "lo: 1\nhi: 5\nunder: 0\nover: 6\nword: five\nhalf: 2.5\n")
	d := NewDecoder("t.yaml")
	f := d.Mapping(root, "top", keys)
	for _, c := range []struct {
		key string
		n   int
		ok  bool
	}{{"lo", 1, true}, {"hi", 5, true}, {"under", 0, false}, {"over", 0, false}, {"word", 0, false}, {"missing", 0, false}} {
		n, ok := d.IntIn(f, "top", c.key, 1, 5)
		assert.Equal(t, c.n, n, c.key)
		assert.Equal(t, c.ok, ok, c.key)
	}
	x, ok := d.FloatIn(f, "top", "half", 2.5, 3)
	assert.True(t, ok)
	assert.InDelta(t, 2.5, x, 0)
	_, ok = d.FloatIn(f, "top", "half", 0, 2.4)
	assert.False(t, ok)
	_, ok = d.FloatIn(f, "top", "missing", 0, 1)
	assert.False(t, ok)
	err := d.Err()
	require.Error(t, err)
	for _, want := range []string{"top.under: must be within 1..5, got 0", "top.over: must be within 1..5, got 6", "top.word: expected an integer", "top.half: must be within 0..2.4, got 2.5"} {
		assert.Contains(t, err.Error(), want)
	}
	assert.NotContains(t, err.Error(), "missing")
}
