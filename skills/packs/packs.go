package packs

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

// Ref is a name written in a pack file, with its position for errors.
type Ref struct {
	Name   string
	Line   int
	Column int
}

// Pack is one skill pack.
type Pack struct {
	Name              string          `json:"name"`
	Description       string          `json:"description,omitempty"`
	RequiresTechState string          `json:"requires_tech_state"`
	Range             rules.TierRange `json:"-"`
	Tags              []string        `json:"tags"`
	Skills            []string        `json:"skills"`
	DependsOn         []string        `json:"depends_on_packs"`
	ConflictsWith     []string        `json:"conflicts_with"`
	File              string          `json:"file,omitempty"`

	skillRefs    []Ref
	dependsRefs  []Ref
	conflictRefs []Ref
	nameLine     int
	nameCol      int
}

var nameRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

var packKeys = []string{"name", "description", "requires_tech_state", "tags", "skills", "depends_on_packs", "conflicts_with"}

// ParsePack parses and validates one pack file against a tier table (nil =
// the shipped tiers). Problems are returned together as strictyaml.Errors.
func ParsePack(file string, data []byte, tiers *rules.Tiers) (*Pack, error) {
	if tiers == nil {
		tiers = rules.Default().Tiers
	}
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	p := &Pack{File: file}
	if root == nil {
		d.Errorf(nil, "", "empty document: a pack needs name, requires_tech_state and skills")
		return nil, d.Errs
	}
	f := d.Mapping(root, "", packKeys)
	if root.Kind != yaml.MappingNode {
		return nil, d.Errs
	}
	d.Require(root, "", f, "name", "requires_tech_state", "skills")
	if n, ok := f["name"]; ok {
		if v, ok := d.String(n.Value, "name"); ok {
			if !nameRE.MatchString(v) {
				d.Errorf(n.Value, "name", "%q must be lowercase letters, digits and underscores", v)
			}
			p.Name, p.nameLine, p.nameCol = v, n.Value.Line, n.Value.Column
		}
	}
	if n, ok := f["description"]; ok {
		if v, ok := d.String(n.Value, "description"); ok {
			p.Description = strings.TrimSpace(v)
		}
	}
	if n, ok := f["requires_tech_state"]; ok {
		if v, ok := d.String(n.Value, "requires_tech_state"); ok {
			r, err := tiers.ParseRange(v)
			if err != nil {
				d.Errorf(n.Value, "requires_tech_state", "%v", err)
			}
			p.RequiresTechState, p.Range = v, r
		}
	}
	if n, ok := f["tags"]; ok {
		p.Tags = d.StringList(n.Value, "tags")
	}
	refs := func(field string, required bool) []Ref {
		n, ok := f[field]
		if !ok {
			return nil
		}
		items := d.Sequence(n.Value, field)
		if required && len(items) == 0 && n.Value.Kind == yaml.SequenceNode || required && strictyaml.IsNull(n.Value) {
			d.Errorf(n.Value, field, "a pack must list at least one skill")
		}
		var out []Ref
		seen := map[string]bool{}
		for i, c := range items {
			fp := strictyaml.Index(field, i)
			v, ok := d.String(c, fp)
			if !ok {
				continue
			}
			if !nameRE.MatchString(v) {
				d.Errorf(c, fp, "%q is not a valid name", v)
				continue
			}
			if seen[v] {
				d.Errorf(c, fp, "%q is listed twice", v)
				continue
			}
			seen[v] = true
			out = append(out, Ref{Name: v, Line: c.Line, Column: c.Column})
		}
		return out
	}
	p.skillRefs = refs("skills", true)
	p.dependsRefs = refs("depends_on_packs", false)
	p.conflictRefs = refs("conflicts_with", false)
	p.Skills, p.DependsOn, p.ConflictsWith = names(p.skillRefs), names(p.dependsRefs), names(p.conflictRefs)
	for _, r := range p.dependsRefs {
		if r.Name == p.Name {
			d.Errs = append(d.Errs, &strictyaml.Error{File: file, Line: r.Line, Column: r.Column, Field: "depends_on_packs", Msg: "a pack cannot depend on itself"})
		}
		for _, c := range p.ConflictsWith {
			if c == r.Name {
				d.Errs = append(d.Errs, &strictyaml.Error{File: file, Line: r.Line, Column: r.Column, Field: "depends_on_packs", Msg: fmt.Sprintf("%q is both a dependency and a conflict", c)})
			}
		}
	}
	for _, r := range p.conflictRefs {
		if r.Name == p.Name {
			d.Errs = append(d.Errs, &strictyaml.Error{File: file, Line: r.Line, Column: r.Column, Field: "conflicts_with", Msg: "a pack cannot conflict with itself"})
		}
	}
	if err := d.Err(); err != nil {
		d.Errs.Sort()
		return nil, d.Errs
	}
	return p, nil
}

func names(refs []Ref) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Name
	}
	return out
}

// Set is a validated collection of packs. It is immutable and safe for
// concurrent use.
type Set struct {
	tiers *rules.Tiers
	packs map[string]*Pack
	names []string // sorted
}

// NewSet builds a set from parsed packs and checks what spans files:
// duplicate names, unknown dependencies and conflicts, and dependency cycles.
func NewSet(tiers *rules.Tiers, list ...*Pack) (*Set, error) {
	if tiers == nil {
		tiers = rules.Default().Tiers
	}
	s := &Set{tiers: tiers, packs: map[string]*Pack{}}
	var errs strictyaml.Errors
	for _, p := range list {
		if prev, dup := s.packs[p.Name]; dup {
			errs = append(errs, &strictyaml.Error{File: p.File, Line: p.nameLine, Column: p.nameCol, Field: "name",
				Msg: fmt.Sprintf("duplicate pack name %q (also in %s)", p.Name, prev.File)})
			continue
		}
		s.packs[p.Name] = p
		s.names = append(s.names, p.Name)
	}
	sort.Strings(s.names)
	for _, name := range s.names {
		p := s.packs[name]
		for _, r := range p.dependsRefs {
			if _, ok := s.packs[r.Name]; !ok {
				errs = append(errs, &strictyaml.Error{File: p.File, Line: r.Line, Column: r.Column, Field: "depends_on_packs", Msg: fmt.Sprintf("pack %q depends on unknown pack %q", p.Name, r.Name)})
			}
		}
		for _, r := range p.conflictRefs {
			if _, ok := s.packs[r.Name]; !ok {
				errs = append(errs, &strictyaml.Error{File: p.File, Line: r.Line, Column: r.Column, Field: "conflicts_with", Msg: fmt.Sprintf("pack %q conflicts with unknown pack %q", p.Name, r.Name)})
			}
		}
	}
	errs = append(errs, s.cycles()...)
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return s, nil
}

// cycles reports each dependency cycle once, at the pack that closes it.
func (s *Set) cycles() strictyaml.Errors {
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var errs strictyaml.Errors
	var stack []string
	var visit func(name string)
	visit = func(name string) {
		color[name] = grey
		stack = append(stack, name)
		p := s.packs[name]
		for _, r := range p.dependsRefs {
			if _, ok := s.packs[r.Name]; !ok {
				continue
			}
			switch color[r.Name] {
			case white:
				visit(r.Name)
			case grey:
				i := len(stack) - 1
				for stack[i] != r.Name {
					i--
				}
				cycle := append(append([]string(nil), stack[i:]...), r.Name)
				errs = append(errs, &strictyaml.Error{File: p.File, Line: r.Line, Column: r.Column, Field: "depends_on_packs",
					Msg: "dependency cycle: " + strings.Join(cycle, " -> ")})
			}
		}
		stack = stack[:len(stack)-1]
		color[name] = black
	}
	for _, name := range s.names {
		if color[name] == white {
			visit(name)
		}
	}
	return errs
}

// LoadDir loads every *.yaml / *.yml pack in dir of fsys and builds a Set,
// reporting every problem in every file at once.
func LoadDir(fsys fs.FS, dir string, tiers *rules.Tiers) (*Set, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, strictyaml.Errors{{File: dir, Msg: fmt.Sprintf("cannot read pack directory: %v", err)}}
	}
	var errs strictyaml.Errors
	var list []*Pack
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || strings.HasPrefix(n, ".") || !(strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml")) {
			continue
		}
		file := path.Join(dir, n)
		data, err := filelimit.ReadFS(fsys, file, filelimit.MaxConfig)
		if err != nil {
			errs = append(errs, &strictyaml.Error{File: file, Msg: filelimit.Message(err)})
			continue
		}
		p, err := ParsePack(file, data, tiers)
		if err != nil {
			errs = append(errs, strictyaml.Flatten(file, err)...)
			continue
		}
		list = append(list, p)
	}
	set, err := NewSet(tiers, list...)
	if err != nil {
		errs = append(errs, strictyaml.Flatten(dir, err)...)
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return set, nil
}

// ValidateSkills reports every skill listed by a pack that known does not
// recognise, naming the pack file, position and skill.
func (s *Set) ValidateSkills(known func(skill string) bool) error {
	var errs strictyaml.Errors
	for _, name := range s.names {
		p := s.packs[name]
		for _, r := range p.skillRefs {
			if !known(r.Name) {
				errs = append(errs, &strictyaml.Error{File: p.File, Line: r.Line, Column: r.Column, Field: "skills",
					Msg: fmt.Sprintf("pack %q lists unknown skill %q", p.Name, r.Name)})
			}
		}
	}
	errs.Sort()
	return errs.Err()
}

// Names returns the pack names, sorted.
func (s *Set) Names() []string { return append([]string(nil), s.names...) }

// Get returns a pack by name.
func (s *Set) Get(name string) (*Pack, bool) {
	p, ok := s.packs[name]
	return p, ok
}

// All returns the packs sorted by name.
func (s *Set) All() []*Pack {
	out := make([]*Pack, len(s.names))
	for i, n := range s.names {
		out[i] = s.packs[n]
	}
	return out
}

// Tiers returns the tier table the set was validated against.
func (s *Set) Tiers() *rules.Tiers { return s.tiers }

// PackState is one pack's part in a resolution.
type PackState struct {
	Name string `json:"name"`
	// Active: the tier fits and every dependency is active.
	Active bool `json:"active"`
	// Implied: enabled only because an enabled pack depends on it.
	Implied bool   `json:"implied,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// Resolution says which packs and skills are active for a tech state.
type Resolution struct {
	TechState string      `json:"tech_state"`
	Packs     []PackState `json:"packs"`
	Skills    []string    `json:"skills"`
}

// Resolve expands the enabled packs with their dependencies (dependencies
// first, in the order written), checks conflicts among them, and gates each
// by tier: a pack is active when techState is in its requires_tech_state
// range and all its dependencies are active. Skills of active packs are
// listed in pack order, de-duplicated, keeping the first occurrence.
// Unknown tiers, unknown packs and conflicting packs are errors.
func (s *Set) Resolve(techState string, enabled []string) (Resolution, error) {
	tierIdx, ok := s.tiers.Index(techState)
	if !ok {
		return Resolution{}, fmt.Errorf("unknown tech state %q (known: %s)", techState, strings.Join(s.tiers.Names(), ", "))
	}
	res := Resolution{TechState: techState}
	order := make([]string, 0, len(enabled))
	implied := map[string]bool{}
	visited := map[string]bool{}
	var visit func(name string, dep bool) error
	visit = func(name string, dep bool) error {
		if visited[name] {
			return nil
		}
		p, ok := s.packs[name]
		if !ok {
			return fmt.Errorf("unknown skill pack %q (known: %s)", name, strings.Join(s.names, ", "))
		}
		visited[name] = true
		for _, d := range p.DependsOn {
			if err := visit(d, true); err != nil {
				return err
			}
		}
		implied[name] = dep
		order = append(order, name)
		return nil
	}
	for _, name := range enabled {
		if visited[name] {
			implied[name] = false
			continue
		}
		if err := visit(name, false); err != nil {
			return Resolution{}, err
		}
	}
	for _, name := range order {
		for _, c := range s.packs[name].ConflictsWith {
			if visited[c] {
				return Resolution{}, fmt.Errorf("skill packs %q and %q conflict (%s declares conflicts_with %s) and cannot be enabled together", name, c, s.packs[name].File, c)
			}
		}
	}
	active := make(map[string]bool, len(order))
	seen := map[string]bool{}
	for _, name := range order {
		p := s.packs[name]
		st := PackState{Name: name, Implied: implied[name]}
		switch {
		case !p.Range.Contains(tierIdx):
			st.Reason = fmt.Sprintf("requires tech state %s", p.RequiresTechState)
		default:
			st.Active = true
			for _, d := range p.DependsOn {
				if !active[d] {
					st.Active, st.Reason = false, fmt.Sprintf("dependency %q is not active", d)
					break
				}
			}
		}
		active[name] = st.Active
		res.Packs = append(res.Packs, st)
		if !st.Active {
			continue
		}
		for _, sk := range p.Skills {
			if !seen[sk] {
				seen[sk] = true
				res.Skills = append(res.Skills, sk)
			}
		}
	}
	return res, nil
}

// ActiveSkillNames returns the skills available at techState with the given
// packs enabled: order-preserving and de-duplicated (see Resolve).
func (s *Set) ActiveSkillNames(techState string, enabled []string) ([]string, error) {
	res, err := s.Resolve(techState, enabled)
	if err != nil {
		return nil, err
	}
	return res.Skills, nil
}
