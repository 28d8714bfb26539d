package knowledge

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

// File names inside a skill directory.
const (
	// SkillFile is the entry point of a skill directory.
	SkillFile = "SKILL.md"
	// IDFile is the sidecar holding a skill's persistent id.
	IDFile = ".skill_id"
)

// Limits of the Agent Skills convention, and the frontmatter size bound that
// keeps discovery cheap on hostile input.
const (
	MaxNameLen          = 64
	MaxDescriptionLen   = 1024
	MaxCompatibilityLen = 500
	MaxFrontmatterBytes = 64 << 10
)

var (
	nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	tagRE  = regexp.MustCompile(`^[a-z0-9][a-z0-9_:.\-]*$`)
	// execNameRE is the executable skill name rule of package skills.
	execNameRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	semverRE   = regexp.MustCompile(`^v?[0-9]+(\.[0-9]+){0,2}([-+][0-9A-Za-z.\-+]+)?$`)
)

// Top-level frontmatter keys the Agent Skills convention allows; anything
// else belongs under metadata.
var topKeys = []string{"name", "description", "license", "compatibility", "allowed-tools", "metadata"}

// Frontmatter is the parsed YAML header of a SKILL.md file.
type Frontmatter struct {
	Name          string   `json:"name"`
	Description   string   `json:"description"`
	License       string   `json:"license,omitempty"`
	Compatibility string   `json:"compatibility,omitempty"`
	AllowedTools  []string `json:"allowed_tools,omitempty"`
	Metadata      Metadata `json:"metadata"`
}

// Metadata holds the frontmatter's metadata mapping. The keys this project
// reads are typed; any other key is kept, free-form, in Extra.
type Metadata struct {
	// Version is the author's version of the skill (SemVer).
	Version string `json:"version,omitempty"`
	// Tags classify the skill in catalogs.
	Tags []string `json:"tags,omitempty"`
	// Author names who wrote the skill.
	Author string `json:"author,omitempty"`
	// Tiers gate the skill by tech tier: tier expressions ("steam_age",
	// ">= lv", "stone_age..steam_age"), any one of which must hold. Empty
	// means every tier.
	Tiers []string `json:"tiers,omitempty"`
	// Uses names the executable skills the instructions rely on.
	Uses []string `json:"uses,omitempty"`
	// Extra holds every other metadata key.
	Extra map[string]any `json:"extra,omitempty"`
}

// Document is a whole SKILL.md file: its frontmatter and its markdown body.
type Document struct {
	Frontmatter
	// Body is the markdown after the closing delimiter.
	Body string
	// BodyLine is the file line number of the body's first line.
	BodyLine int
}

// ErrNoFrontmatter is returned (wrapped in an Error) for a SKILL.md that does
// not start with a "---" line.
var ErrNoFrontmatter = errors.New("missing frontmatter")

// ParseOptions tune frontmatter validation.
type ParseOptions struct {
	// Dir is the name of the directory holding the file; when set, the
	// skill name must equal it.
	Dir string
	// Tiers validates metadata.tiers (nil = the shipped tier table).
	Tiers *rules.Tiers
}

// ParseSkillMD parses a whole SKILL.md. file names the source in errors. The
// error, when not nil, is a strictyaml.Errors listing every problem with
// file:line:column.
func ParseSkillMD(file string, data []byte, opts ParseOptions) (*Document, error) {
	sp, err := splitFrontmatter(bufio.NewReader(bytes.NewReader(data)))
	if err != nil {
		return nil, locate(file, err)
	}
	fm, err := parseFrontmatter(file, sp.yaml, sp.yamlLine, opts)
	if err != nil {
		return nil, err
	}
	rest, _ := io.ReadAll(sp.rest)
	return &Document{Frontmatter: *fm, Body: string(rest), BodyLine: sp.bodyLine}, nil
}

// ReadFrontmatter reads only as much of r as the frontmatter needs and
// parses it; the returned reader yields the body, unread. It is what
// discovery uses, so that a large body costs nothing until it is loaded.
func ReadFrontmatter(file string, r io.Reader, opts ParseOptions) (*Frontmatter, *BodyReader, error) {
	sp, err := splitFrontmatter(bufio.NewReader(r))
	if err != nil {
		return nil, nil, locate(file, err)
	}
	fm, err := parseFrontmatter(file, sp.yaml, sp.yamlLine, opts)
	if err != nil {
		return nil, nil, err
	}
	return fm, &BodyReader{Reader: sp.rest, FirstLine: sp.bodyLine}, nil
}

// BodyReader is the unread body of a SKILL.md and the file line it starts on.
type BodyReader struct {
	*bufio.Reader
	FirstLine int
}

// splitError is a located problem found while splitting.
type splitError struct {
	line int
	msg  string
	err  error
}

func (e *splitError) Error() string { return e.msg }
func (e *splitError) Unwrap() error { return e.err }

func locate(file string, err error) error {
	var se *splitError
	if errors.As(err, &se) {
		return strictyaml.Errors{{File: file, Line: se.line, Column: 1, Msg: se.msg}}
	}
	return strictyaml.Errors{{File: file, Msg: err.Error()}}
}

type split struct {
	yaml     []byte
	yamlLine int // file line of the first YAML line
	bodyLine int // file line of the first body line
	rest     *bufio.Reader
}

// isDelimiter reports whether a line (without its newline) is a frontmatter
// delimiter: exactly "---", optionally followed by blanks. Delimiters are
// recognised per line, so "---" inside a value (quoted, or indented in a
// block scalar) never ends the frontmatter.
func isDelimiter(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r")) == "---"
}

// splitFrontmatter reads the opening delimiter, the YAML and the closing
// delimiter from r, leaving r at the start of the body.
func splitFrontmatter(r *bufio.Reader) (*split, error) {
	readLine := func() ([]byte, bool, error) {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: collect it whole.
			buf := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = r.ReadSlice('\n')
				buf = append(buf, line...)
				if len(buf) > MaxFrontmatterBytes {
					return nil, false, &splitError{msg: fmt.Sprintf("frontmatter is larger than %d bytes", MaxFrontmatterBytes)}
				}
			}
			line = buf
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, false, err
		}
		return line, errors.Is(err, io.EOF), nil
	}
	first, eof, err := readLine()
	if err != nil {
		return nil, err
	}
	first = bytes.TrimPrefix(first, []byte("\xef\xbb\xbf"))
	if !isDelimiter(bytes.TrimRight(first, "\n")) {
		return nil, &splitError{line: 1, err: ErrNoFrontmatter,
			msg: "missing frontmatter: SKILL.md must start with a line holding only \"---\", then YAML with name and description, then \"---\""}
	}
	var yml []byte
	lineNo := 1
	for {
		if eof {
			return nil, &splitError{line: 1, msg: "frontmatter is not closed: no line holding only \"---\" after the opening one"}
		}
		var line []byte
		line, eof, err = readLine()
		if err != nil {
			return nil, err
		}
		lineNo++
		if len(line) == 0 && eof {
			continue
		}
		if isDelimiter(bytes.TrimRight(line, "\n")) {
			return &split{yaml: yml, yamlLine: 2, bodyLine: lineNo + 1, rest: r}, nil
		}
		yml = append(yml, line...)
		if len(yml) > MaxFrontmatterBytes {
			return nil, &splitError{line: lineNo, msg: fmt.Sprintf("frontmatter is larger than %d bytes (is the closing \"---\" missing?)", MaxFrontmatterBytes)}
		}
	}
}

// parseFrontmatter decodes and validates the YAML between the delimiters.
// firstLine is the file line of the YAML's first line, so errors point into
// the SKILL.md file.
func parseFrontmatter(file string, data []byte, firstLine int, opts ParseOptions) (*Frontmatter, error) {
	shift := func(err error) error {
		list := strictyaml.Flatten(file, err)
		out := make(strictyaml.Errors, len(list))
		for i, e := range list {
			c := *e
			if c.Line > 0 {
				c.Line += firstLine - 1
			}
			if c.File == "" {
				c.File = file
			}
			out[i] = &c
		}
		out.Sort()
		return out
	}
	if !utf8.Valid(data) {
		return nil, strictyaml.Errors{{File: file, Line: firstLine, Column: 1, Msg: "frontmatter is not valid UTF-8"}}
	}
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, shift(err)
	}
	tiers := opts.Tiers
	if tiers == nil {
		tiers = rules.Default().Tiers
	}
	d := strictyaml.NewDecoder(file)
	fm := &Frontmatter{}
	if root == nil {
		d.Errorf(nil, "", "empty frontmatter: name and description are required")
		return nil, shift(d.Err())
	}
	f := d.Mapping(root, "", topKeys)
	if root.Kind != yaml.MappingNode {
		return nil, shift(d.Err())
	}
	d.Require(root, "", f, "name", "description")
	if n, ok := f["name"]; ok {
		if v, ok := d.String(n.Value, "name"); ok {
			fm.Name = v
			switch {
			case v == "":
				d.Errorf(n.Value, "name", "must not be empty")
			case utf8.RuneCountInString(v) > MaxNameLen:
				d.Errorf(n.Value, "name", "is %d characters long; at most %d are allowed", utf8.RuneCountInString(v), MaxNameLen)
			case !nameRE.MatchString(v):
				d.Errorf(n.Value, "name", "%q must be lowercase letters, digits and single hyphens, not starting or ending with a hyphen", v)
			}
			if opts.Dir != "" && v != opts.Dir {
				d.Errorf(n.Value, "name", "%q must equal the skill's directory name %q", v, opts.Dir)
			}
		}
	}
	if n, ok := f["description"]; ok {
		if v, ok := d.String(n.Value, "description"); ok {
			fm.Description = strings.TrimSpace(v)
			if fm.Description == "" {
				d.Errorf(n.Value, "description", "must not be empty: planners choose skills by it")
			} else if c := utf8.RuneCountInString(fm.Description); c > MaxDescriptionLen {
				d.Errorf(n.Value, "description", "is %d characters long; at most %d are allowed", c, MaxDescriptionLen)
			}
		}
	}
	if n, ok := f["license"]; ok {
		fm.License, _ = d.String(n.Value, "license")
	}
	if n, ok := f["compatibility"]; ok {
		if v, ok := d.String(n.Value, "compatibility"); ok {
			fm.Compatibility = strings.TrimSpace(v)
			if c := utf8.RuneCountInString(fm.Compatibility); c > MaxCompatibilityLen {
				d.Errorf(n.Value, "compatibility", "is %d characters long; at most %d are allowed", c, MaxCompatibilityLen)
			}
		}
	}
	if n, ok := f["allowed-tools"]; ok {
		// The convention writes a space-separated string; a list is
		// accepted too.
		if n.Value.Kind == yaml.ScalarNode && n.Value.Tag == "!!str" {
			fm.AllowedTools = strings.Fields(n.Value.Value)
		} else {
			fm.AllowedTools = d.StringList(n.Value, "allowed-tools")
		}
	}
	if n, ok := f["metadata"]; ok {
		fm.Metadata = parseMetadata(d, n.Value, tiers)
	}
	if err := d.Err(); err != nil {
		return nil, shift(err)
	}
	return fm, nil
}

func parseMetadata(d *strictyaml.Decoder, n *yaml.Node, tiers *rules.Tiers) Metadata {
	var m Metadata
	for key, fld := range d.Mapping(n, "metadata", nil) {
		path := "metadata." + key
		switch key {
		case "version":
			// 1.0 and 2 are read as numbers by YAML; take the text as written.
			v := fld.Value
			if v.Kind != yaml.ScalarNode || (v.Tag != "!!str" && v.Tag != "!!int" && v.Tag != "!!float") {
				d.Errorf(v, path, "expected a version such as \"1.0.0\"")
				continue
			}
			m.Version = v.Value
			if !semverRE.MatchString(v.Value) {
				d.Errorf(v, path, "%q is not a version such as 1.2.0", v.Value)
			}
		case "tags":
			for i, c := range d.Sequence(fld.Value, path) {
				if t, ok := d.String(c, strictyaml.Index(path, i)); ok {
					if !tagRE.MatchString(t) {
						d.Errorf(c, strictyaml.Index(path, i), "tag %q must be lowercase letters, digits, '_', '-', '.' or ':'", t)
					}
					m.Tags = append(m.Tags, t)
				}
			}
		case "author":
			m.Author, _ = d.String(fld.Value, path)
		case "tiers":
			var exprs []string
			var nodes []*yaml.Node
			if fld.Value.Kind == yaml.ScalarNode && fld.Value.Tag == "!!str" {
				exprs, nodes = []string{fld.Value.Value}, []*yaml.Node{fld.Value}
			} else {
				for i, c := range d.Sequence(fld.Value, path) {
					if s, ok := d.String(c, strictyaml.Index(path, i)); ok {
						exprs, nodes = append(exprs, s), append(nodes, c)
					}
				}
			}
			for i, e := range exprs {
				if _, err := tiers.ParseRange(e); err != nil {
					d.Errorf(nodes[i], path, "%v", err)
					continue
				}
				m.Tiers = append(m.Tiers, e)
			}
		case "uses":
			for i, c := range d.Sequence(fld.Value, path) {
				if s, ok := d.String(c, strictyaml.Index(path, i)); ok {
					if !execNameRE.MatchString(s) {
						d.Errorf(c, strictyaml.Index(path, i), "%q is not an executable skill name (lowercase letters, digits and underscores)", s)
						continue
					}
					m.Uses = append(m.Uses, s)
				}
			}
		default:
			if v, ok := d.Any(fld.Value, path); ok {
				if m.Extra == nil {
					m.Extra = map[string]any{}
				}
				m.Extra[key] = v
			}
		}
	}
	return m
}

// SpecName is the name an executable spec inside a skill directory must
// carry: the skill name with hyphens turned into underscores
// ("gather-flint" → "gather_flint", in gather_flint.yaml). It returns "" when
// the skill name cannot name an executable skill (it starts with a digit).
func SpecName(skill string) string {
	s := strings.ReplaceAll(skill, "-", "_")
	if !execNameRE.MatchString(s) {
		return ""
	}
	return s
}

// specFileRE matches executable spec files: <spec>.yaml, <spec>.yml or
// <spec>.v<N>.yaml.
var specFileRE = regexp.MustCompile(`^([a-z][a-z0-9_]*)(?:\.v[0-9]+)?\.ya?ml$`)

// IsSpecFile reports whether file (a base name) is an executable spec of the
// skill named skill.
func IsSpecFile(skill, file string) bool {
	m := specFileRE.FindStringSubmatch(file)
	return m != nil && m[1] == SpecName(skill) && m[1] != ""
}
