package skills

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Error is a located problem in a spec or pack file.
type Error = strictyaml.Error

// Errors is a list of located problems.
type Errors = strictyaml.Errors

var (
	nameRE        = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	tagRE         = regexp.MustCompile(`^[a-z0-9][a-z0-9_:.\-]*$`)
	placeholderRE = regexp.MustCompile(`\{([a-z_][a-z0-9_]*(?::[a-z0-9_:.\-]+)?)\}`)
	fileRE        = regexp.MustCompile(`^([a-z][a-z0-9_]*)(?:\.v([0-9]+))?\.ya?ml$`)
)

var (
	specKeys    = []string{"name", "version", "status", "origin", "description", "params", "preconditions", "effects", "tags", "metrics", "implementation", "action_sequence", "emits"}
	paramKeys   = []string{"type", "default", "description", "min", "max", "enum"}
	precondKeys = []string{"tech_states_any_of", "required_tools", "dimension_allowlist", "semantic_tags_any_of", "extra"}
	toolKeys    = []string{"item_id", "min_durability"}
	effectKeys  = []string{"inventory_delta", "blocks", "machines", "any_of", "player", "tech_delta", "tags", "extra"}
	setKeys     = []string{"inventory_delta", "blocks", "machines"}
	changeKeys  = []string{"min_increase", "min_decrease", "max_decrease"}
	blockKeys   = []string{"min_removed", "min_placed", "min_near", "radius"}
	machineKeys = []string{"kind", "slot", "fluid", "item", "min_increase", "min_decrease", "radius"}
	techKeys    = []string{"reaches_tier", "unlocks"}
	metricKeys  = []string{"success_rate", "avg_cost", "samples"}
)

// LoadOptions tunes spec validation.
type LoadOptions struct {
	// Tiers validates tech_states_any_of and tech_delta.reaches_tier; nil
	// uses the shipped table.
	Tiers *rules.Tiers
}

// ParseSpec parses and validates one spec document. file names the source in
// errors and must be the spec's file name ("chop_tree.yaml", or
// "chop_tree.v2.yaml" for version 2) unless it is empty. The returned error,
// when not nil, is an Errors listing every problem found.
func ParseSpec(file string, data []byte) (*Spec, error) {
	return LoadOptions{}.ParseSpec(file, data)
}

// ParseSpec is ParseSpec with options.
func (o LoadOptions) ParseSpec(file string, data []byte) (*Spec, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	tiers := o.Tiers
	if tiers == nil {
		tiers = rules.Default().Tiers
	}
	p := &specParser{Decoder: strictyaml.NewDecoder(file), tiers: tiers}
	spec := p.spec(root)
	p.checkFileName(root, spec)
	if err := p.Err(); err != nil {
		p.Errs.Sort()
		return nil, p.Errs
	}
	spec.File = file
	return spec, nil
}

// LoadDir loads every *.yaml / *.yml spec directly inside dir of fsys, sorted by
// file name. Every problem in every file is reported (as Errors), not just the
// first; duplicate name@version pairs across files are errors too.
//
// A subdirectory holding a SKILL.md is a knowledge skill directory (package
// skills/knowledge); it may carry the skill's executable spec, named after
// the directory with hyphens turned into underscores (gather-flint/
// gather_flint.yaml, or gather_flint.v2.yaml). Those specs are loaded too;
// everything else in skill directories, and every other subdirectory, is
// ignored.
func LoadDir(fsys fs.FS, dir string) ([]*Spec, error) {
	return LoadOptions{}.LoadDir(fsys, dir)
}

// LoadDir is LoadDir with options. Files are parsed in parallel.
func (o LoadOptions) LoadDir(fsys fs.FS, dir string) ([]*Spec, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, Errors{{File: dir, Msg: fmt.Sprintf("cannot read spec directory: %v", err)}}
	}
	var files []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() && !strings.HasPrefix(n, ".") {
			files = append(files, skillDirSpecs(fsys, dir, n)...)
			continue
		}
		if e.IsDir() || strings.HasPrefix(n, ".") || !(strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml")) {
			continue
		}
		files = append(files, n)
	}
	if o.Tiers == nil {
		o.Tiers = rules.Default().Tiers
	}
	specs := make([]*Spec, len(files))
	errs := make([]Errors, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	workers := min(runtime.GOMAXPROCS(0), max(1, len(files)))
	for range workers {
		wg.Go(func() {
			for i := range next {
				display := path.Join(dir, files[i])
				data, err := filelimit.ReadFS(fsys, display, filelimit.MaxConfig)
				if err != nil {
					errs[i] = Errors{{File: display, Msg: filelimit.Message(err)}}
					continue
				}
				s, err := o.ParseSpec(display, data)
				if err != nil {
					errs[i] = strictyaml.Flatten(display, err)
					continue
				}
				specs[i] = s
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()

	var all Errors
	var out []*Spec
	seen := map[string]string{}
	for i := range files {
		all = append(all, errs[i]...)
		s := specs[i]
		if s == nil {
			continue
		}
		if prev, dup := seen[s.Key()]; dup {
			all = append(all, &Error{File: s.File, Line: 1, Column: 1, Field: "version", Msg: fmt.Sprintf("%s is also defined in %s", s.Key(), prev)})
			continue
		}
		seen[s.Key()] = s.File
		out = append(out, s)
	}
	if len(all) > 0 {
		return out, all
	}
	return out, nil
}

// skillDirSpecs returns the executable specs of the knowledge skill
// directory sub of dir ("sub/<spec>.yaml" paths), or nothing when sub holds
// no SKILL.md.
func skillDirSpecs(fsys fs.FS, dir, sub string) []string {
	if st, err := fs.Stat(fsys, path.Join(dir, sub, "SKILL.md")); err != nil || st.IsDir() {
		return nil
	}
	spec := strings.ReplaceAll(sub, "-", "_")
	if !nameRE.MatchString(spec) {
		return nil
	}
	entries, err := fs.ReadDir(fsys, path.Join(dir, sub))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if m := fileRE.FindStringSubmatch(e.Name()); m != nil && m[1] == spec && !e.IsDir() {
			out = append(out, sub+"/"+e.Name())
		}
	}
	return out
}

type specParser struct {
	*strictyaml.Decoder
	tiers *rules.Tiers
}

func (p *specParser) checkFileName(root *yaml.Node, s *Spec) {
	if p.File == "" || s.Name == "" {
		return
	}
	base := path.Base(p.File)
	m := fileRE.FindStringSubmatch(base)
	if m == nil {
		p.Errorf(root, "name", "file name %q must be <name>.yaml or <name>.v<version>.yaml", base)
		return
	}
	if m[1] != s.Name {
		p.Errorf(p.nodeOf(root, "name"), "name", "spec name %q does not match its file name %q (expected %s.yaml)", s.Name, base, s.Name)
	}
	if m[2] != "" {
		if v, _ := strconv.Atoi(m[2]); v != s.Version {
			p.Errorf(p.nodeOf(root, "version"), "version", "version %d does not match the file name %q", s.Version, base)
		}
	}
}

func (p *specParser) nodeOf(root *yaml.Node, key string) *yaml.Node {
	if root != nil && root.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == key {
				return root.Content[i+1]
			}
		}
	}
	return root
}

func (p *specParser) spec(root *yaml.Node) *Spec {
	s := &Spec{
		Status: StatusActive, Origin: OriginManual,
		Params:  map[string]ParamSpec{},
		Effects: Effects{InventoryDelta: map[string]InventoryChange{}, Extra: map[string]any{}},
	}
	s.Preconditions.Extra = map[string]any{}
	if root == nil {
		p.Errorf(nil, "", "empty document: a skill spec needs at least name, version and description")
		return s
	}
	f := p.Mapping(root, "", specKeys)
	if len(p.Errs) > 0 && root.Kind != yaml.MappingNode {
		return s
	}
	p.Require(root, "", f, "name", "version", "description")
	if n, ok := f["name"]; ok {
		if v, ok := p.String(n.Value, "name"); ok {
			if !nameRE.MatchString(v) {
				p.Errorf(n.Value, "name", "%q must be lowercase letters, digits and underscores, starting with a letter", v)
			}
			s.Name = v
		}
	}
	if n, ok := f["version"]; ok {
		if v, ok := p.Int(n.Value, "version"); ok {
			if v < 1 {
				p.Errorf(n.Value, "version", "must be at least 1, got %d", v)
			}
			s.Version = v
		}
	}
	if n, ok := f["status"]; ok {
		if v, ok := p.String(n.Value, "status"); ok {
			s.Status = Status(v)
			if s.Status != StatusActive && s.Status != StatusCandidate && s.Status != StatusDeprecated {
				p.Errorf(n.Value, "status", "must be active, candidate or deprecated, got %q", v)
			}
		}
	}
	if n, ok := f["origin"]; ok {
		if v, ok := p.String(n.Value, "origin"); ok {
			s.Origin = Origin(v)
			if s.Origin != OriginManual && s.Origin != OriginSynthesized {
				p.Errorf(n.Value, "origin", "must be manual or synthesized, got %q", v)
			}
		}
	}
	if n, ok := f["description"]; ok {
		if v, ok := p.String(n.Value, "description"); ok {
			s.Description = strings.TrimSpace(v)
			if s.Description == "" {
				p.Errorf(n.Value, "description", "must not be empty: planners choose skills by it")
			}
		}
	}
	if n, ok := f["params"]; ok {
		p.params(n.Value, s)
	}
	if n, ok := f["preconditions"]; ok {
		p.preconditions(n.Value, s)
	}
	if n, ok := f["effects"]; ok {
		p.effects(n.Value, s)
	}
	if n, ok := f["tags"]; ok {
		s.Tags = p.tags(n.Value, "tags")
	}
	if n, ok := f["metrics"]; ok {
		p.metrics(n.Value, s)
	}
	var implNode *yaml.Node
	if n, ok := f["implementation"]; ok {
		implNode = n.Value
		if v, ok := p.String(n.Value, "implementation"); ok {
			s.Implementation = ImplKind(v)
			if s.Implementation != ImplGo && s.Implementation != ImplTemplate {
				p.Errorf(n.Value, "implementation", "must be go or template, got %q", v)
			}
		}
	}
	if n, ok := f["action_sequence"]; ok {
		p.actionSequence(n.Value, s)
		if s.Implementation == "" {
			s.Implementation = ImplTemplate
		}
		if s.Implementation == ImplGo {
			p.Errorf(implNode, "implementation", "a go skill must not have an action_sequence (use implementation: template)")
		}
	}
	if s.Implementation == "" {
		s.Implementation = ImplGo
	}
	if s.Implementation == ImplTemplate && len(s.ActionSequence) == 0 {
		if _, has := f["action_sequence"]; !has {
			p.Errorf(root, "action_sequence", "a template skill needs an action_sequence")
		}
	}
	if n, ok := f["emits"]; ok {
		seen := action.KindSet{}
		for i, c := range p.Sequence(n.Value, "emits") {
			path := strictyaml.Index("emits", i)
			v, ok := p.String(c, path)
			if !ok {
				continue
			}
			k, err := action.ParseKind(v)
			if err != nil {
				p.Errorf(c, path, "%v", err)
				continue
			}
			if seen.Has(k) {
				p.Errorf(c, path, "%s is listed twice", k)
				continue
			}
			seen[k] = struct{}{}
			s.Emits = append(s.Emits, k)
		}
	}
	p.checkEmits(root, f, s)
	return s
}

// checkEmits ties emits to the implementation: a go skill must declare what
// it can emit; a template's emits are derived from its sequence and, when
// written, must list exactly those kinds.
func (p *specParser) checkEmits(root *yaml.Node, f map[string]strictyaml.Field, s *Spec) {
	switch s.Implementation {
	case ImplGo:
		if len(s.Emits) == 0 {
			at := root
			if n, ok := f["emits"]; ok {
				at = n.Value
			}
			p.Errorf(at, "emits", "a go skill must list the action types it may emit")
		}
	case ImplTemplate:
		used := action.KindSet{}
		var order []action.Kind
		for _, t := range s.ActionSequence {
			if !used.Has(t.Kind) {
				used[t.Kind] = struct{}{}
				order = append(order, t.Kind)
			}
		}
		if n, written := f["emits"]; written {
			declared := s.EmitSet()
			for _, k := range order {
				if !declared.Has(k) {
					p.Errorf(n.Value, "emits", "action_sequence uses %s, which emits does not list", k)
				}
			}
			for _, k := range s.Emits {
				if !used.Has(k) {
					p.Errorf(n.Value, "emits", "%s is listed but the action_sequence never emits it", k)
				}
			}
		} else {
			s.Emits = order
		}
	}
}

func (p *specParser) tags(n *yaml.Node, path string) []string {
	items := p.Sequence(n, path)
	out := make([]string, 0, len(items))
	for i, c := range items {
		t, ok := p.String(c, strictyaml.Index(path, i))
		if !ok {
			continue
		}
		if !tagRE.MatchString(t) {
			p.Errorf(c, strictyaml.Index(path, i), "tag %q must be lowercase letters, digits, '_', '-', '.' or ':'", t)
		}
		out = append(out, t)
	}
	return out
}

func (p *specParser) params(n *yaml.Node, s *Spec) {
	for name, fld := range p.Mapping(n, "params", nil) {
		path := strictyaml.Join("params", name)
		if !nameRE.MatchString(name) {
			p.Errorf(fld.Key, path, "parameter name %q must be lowercase letters, digits and underscores", name)
			continue
		}
		pf := p.Mapping(fld.Value, path, paramKeys)
		p.Require(fld.Value, path, pf, "type", "description")
		ps := ParamSpec{Name: name}
		okType := false
		if t, ok := pf["type"]; ok {
			if v, ok := p.String(t.Value, path+".type"); ok {
				ps.Type = action.ParamType(v)
				if !ps.Type.Valid() {
					names := make([]string, len(action.ParamTypes))
					for i, x := range action.ParamTypes {
						names[i] = string(x)
					}
					p.Errorf(t.Value, path+".type", "unknown type %q (known: %s)", v, strings.Join(names, ", "))
				} else {
					okType = true
				}
			}
		}
		if d, ok := pf["description"]; ok {
			ps.Description, _ = p.String(d.Value, path+".description")
		}
		for _, bound := range []string{"min", "max"} {
			b, ok := pf[bound]
			if !ok {
				continue
			}
			if okType && !ps.Type.Numeric() {
				p.Errorf(b.Key, path+"."+bound, "%s applies only to int, float and duration parameters", bound)
				continue
			}
			if v, ok := p.Float(b.Value, path+"."+bound); ok {
				if bound == "min" {
					ps.Min = &v
				} else {
					ps.Max = &v
				}
			}
		}
		if ps.Min != nil && ps.Max != nil && *ps.Min > *ps.Max {
			p.Errorf(pf["min"].Value, path+".min", "min %v is above max %v", *ps.Min, *ps.Max)
		}
		if e, ok := pf["enum"]; ok {
			if okType && ps.Type != action.TypeString {
				p.Errorf(e.Key, path+".enum", "enum applies only to string parameters")
			} else {
				ps.Enum = p.StringList(e.Value, path+".enum")
			}
		}
		d, hasDefault := pf["default"]
		if !hasDefault || strictyaml.IsNull(d.Value) {
			ps.Required = true
		} else if okType {
			raw, ok := p.Any(d.Value, path+".default")
			if ok {
				v, err := ps.Check(raw)
				if err != nil {
					p.Errorf(d.Value, path+".default", "default does not fit type %s: %v", ps.Type, err)
				} else {
					ps.Default = v
				}
			}
		}
		s.Params[name] = ps
	}
}

func (p *specParser) preconditions(n *yaml.Node, s *Spec) {
	f := p.Mapping(n, "preconditions", precondKeys)
	pre := &s.Preconditions
	if x, ok := f["tech_states_any_of"]; ok {
		for i, c := range p.Sequence(x.Value, "preconditions.tech_states_any_of") {
			path := strictyaml.Index("preconditions.tech_states_any_of", i)
			if v, ok := p.String(c, path); ok {
				if _, err := p.tiers.ParseRange(v); err != nil {
					p.Errorf(c, path, "%v", err)
				}
				pre.TechStatesAnyOf = append(pre.TechStatesAnyOf, v)
			}
		}
	}
	if x, ok := f["required_tools"]; ok {
		for i, c := range p.Sequence(x.Value, "preconditions.required_tools") {
			path := strictyaml.Index("preconditions.required_tools", i)
			tf := p.Mapping(c, path, toolKeys)
			p.Require(c, path, tf, "item_id")
			var t ToolRequirement
			if v, ok := tf["item_id"]; ok {
				if id, ok := p.String(v.Value, path+".item_id"); ok {
					if _, err := world.ParseItemMatcher(id); err != nil {
						p.Errorf(v.Value, path+".item_id", "%v", err)
					}
					t.ItemID = id
				}
			}
			if v, ok := tf["min_durability"]; ok {
				if d, ok := p.Int(v.Value, path+".min_durability"); ok {
					if d < 0 {
						p.Errorf(v.Value, path+".min_durability", "must not be negative")
					}
					t.MinDurability = d
				}
			}
			pre.RequiredTools = append(pre.RequiredTools, t)
		}
	}
	if x, ok := f["dimension_allowlist"]; ok {
		pre.DimensionAllowlist = p.tags(x.Value, "preconditions.dimension_allowlist")
	}
	if x, ok := f["semantic_tags_any_of"]; ok {
		pre.SemanticTagsAnyOf = p.tags(x.Value, "preconditions.semantic_tags_any_of")
	}
	if x, ok := f["extra"]; ok {
		pre.Extra = p.AnyMap(x.Value, "preconditions.extra")
	}
}

func (p *specParser) amount(n *yaml.Node, path string, s *Spec) *Amount {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		m := placeholderRE.FindStringSubmatch(n.Value)
		if m == nil || m[0] != n.Value {
			p.Errorf(n, path, "expected an integer or an int parameter reference like \"{count}\", got %q", n.Value)
			return nil
		}
		ps, ok := s.Params[m[1]]
		if !ok {
			p.Errorf(n, path, "references undeclared parameter %q", m[1])
			return nil
		}
		if ps.Type != action.TypeInt {
			p.Errorf(n, path, "references parameter %q of type %s; an int parameter is needed", m[1], ps.Type)
			return nil
		}
		return &Amount{Param: m[1]}
	}
	v, ok := p.Int(n, path)
	if !ok {
		return nil
	}
	if v < 0 {
		p.Errorf(n, path, "must not be negative")
	}
	return &Amount{Value: v}
}

func (p *specParser) effects(n *yaml.Node, s *Spec) {
	f := p.Mapping(n, "effects", effectKeys)
	e := &s.Effects
	set := p.effectSet(f, "effects", s)
	for k, v := range set.InventoryDelta {
		e.InventoryDelta[k] = v
	}
	e.Blocks, e.Machines = set.Blocks, set.Machines
	if x, ok := f["any_of"]; ok {
		items := p.Sequence(x.Value, "effects.any_of")
		if len(items) < 2 && (x.Value.Kind == yaml.SequenceNode || strictyaml.IsNull(x.Value)) {
			p.Errorf(x.Value, "effects.any_of", "list at least two alternatives (a single one belongs at the top level of effects)")
		}
		e.AnyOf = make([]EffectSet, 0, len(items))
		for i, c := range items {
			path := strictyaml.Index("effects.any_of", i)
			af := p.Mapping(c, path, setKeys)
			alt := p.effectSet(af, path, s)
			if alt.Empty() && (c.Kind == yaml.MappingNode || strictyaml.IsNull(c)) {
				p.Errorf(c, path, "an alternative needs inventory_delta, blocks or machines")
			}
			e.AnyOf = append(e.AnyOf, alt)
		}
	}
	if x, ok := f["player"]; ok {
		pf := p.Mapping(x.Value, "effects.player", []string{"food", "sheltered"})
		if len(pf) == 0 {
			p.Errorf(x.Value, "effects.player", "give food or sheltered")
		}
		e.Player = &PlayerChange{}
		if v, ok := pf["food"]; ok {
			sf := p.Mapping(v.Value, "effects.player.food", []string{"min_increase"})
			p.Require(v.Value, "effects.player.food", sf, "min_increase")
			e.Player.Food = &StatChange{}
			if a, ok := sf["min_increase"]; ok {
				amt := p.amount(a.Value, "effects.player.food.min_increase", s)
				if amt != nil && amt.Param == "" && amt.Value < 1 {
					p.Errorf(a.Value, "effects.player.food.min_increase", "must be at least 1, got %d (a claim that cannot fail)", amt.Value)
				}
				e.Player.Food.MinIncrease = amt
			}
		}
		if v, ok := pf["sheltered"]; ok {
			if b, ok := p.Bool(v.Value, "effects.player.sheltered"); ok {
				if !b {
					p.Errorf(v.Value, "effects.player.sheltered", "only true is a claim (leave it out otherwise)")
				}
				e.Player.Sheltered = b
			}
		}
	}
	if x, ok := f["tech_delta"]; ok {
		tf := p.Mapping(x.Value, "effects.tech_delta", techKeys)
		if v, ok := tf["reaches_tier"]; ok {
			if t, ok := p.String(v.Value, "effects.tech_delta.reaches_tier"); ok {
				if _, known := p.tiers.Index(t); !known {
					p.Errorf(v.Value, "effects.tech_delta.reaches_tier", "unknown tier %q (known: %s)", t, strings.Join(p.tiers.Names(), ", "))
				}
				e.TechDelta.ReachesTier = t
			}
		}
		if v, ok := tf["unlocks"]; ok {
			e.TechDelta.Unlocks = p.tags(v.Value, "effects.tech_delta.unlocks")
		}
	}
	if x, ok := f["tags"]; ok {
		e.Tags = p.tags(x.Value, "effects.tags")
	}
	if x, ok := f["extra"]; ok {
		e.Extra = p.AnyMap(x.Value, "effects.extra")
	}
}

// effectSet parses the checkable effects of a mapping's fields (the top
// level of effects, or one any_of alternative) under path.
func (p *specParser) effectSet(f map[string]strictyaml.Field, path string, s *Spec) EffectSet {
	var set EffectSet
	if x, ok := f["inventory_delta"]; ok {
		set.InventoryDelta = map[string]InventoryChange{}
		ipath := strictyaml.Join(path, "inventory_delta")
		for key, fld := range p.Mapping(x.Value, ipath, nil) {
			kpath := strictyaml.Join(ipath, key)
			if err := checkItemKey(key, s, true); err != nil {
				p.Errorf(fld.Key, kpath, "%v", err)
			}
			cf := p.Mapping(fld.Value, kpath, changeKeys)
			if strictyaml.IsNull(fld.Value) {
				p.Errorf(fld.Key, kpath, "give at least one of %s", strings.Join(changeKeys, ", "))
			} else if len(cf) == 0 && fld.Value.Kind == yaml.MappingNode {
				p.Errorf(fld.Value, kpath, "give at least one of %s", strings.Join(changeKeys, ", "))
			}
			var ch InventoryChange
			if v, ok := cf["min_increase"]; ok {
				ch.MinIncrease = p.amount(v.Value, kpath+".min_increase", s)
			}
			if v, ok := cf["min_decrease"]; ok {
				ch.MinDecrease = p.amount(v.Value, kpath+".min_decrease", s)
			}
			if v, ok := cf["max_decrease"]; ok {
				ch.MaxDecrease = p.amount(v.Value, kpath+".max_decrease", s)
			}
			if ch.MinIncrease != nil && (ch.MinDecrease != nil || ch.MaxDecrease != nil) {
				p.Errorf(fld.Value, kpath, "an item cannot both increase and decrease")
			}
			set.InventoryDelta[key] = ch
		}
	}
	if x, ok := f["blocks"]; ok {
		set.Blocks = map[string]BlockChange{}
		bpath := strictyaml.Join(path, "blocks")
		for key, fld := range p.Mapping(x.Value, bpath, nil) {
			kpath := strictyaml.Join(bpath, key)
			if err := checkBlockKey(key, s); err != nil {
				p.Errorf(fld.Key, kpath, "%v", err)
			}
			bf := p.Mapping(fld.Value, kpath, blockKeys)
			at := fld.Value
			if strictyaml.IsNull(at) {
				at = fld.Key
			}
			var ch BlockChange
			if v, ok := bf["min_removed"]; ok {
				ch.MinRemoved = p.atLeastOne(v.Value, kpath+".min_removed", s)
			}
			if v, ok := bf["min_placed"]; ok {
				ch.MinPlaced = p.atLeastOne(v.Value, kpath+".min_placed", s)
			}
			if v, ok := bf["min_near"]; ok {
				ch.MinNear = p.atLeastOne(v.Value, kpath+".min_near", s)
			}
			_, hasRemoved := bf["min_removed"]
			_, hasPlaced := bf["min_placed"]
			_, hasNear := bf["min_near"]
			if !hasRemoved && !hasPlaced && !hasNear && (fld.Value.Kind == yaml.MappingNode || strictyaml.IsNull(fld.Value)) {
				p.Errorf(at, kpath, "give min_removed, min_placed or min_near")
			}
			if v, ok := bf["radius"]; ok {
				if r := p.radius(v.Value, kpath+".radius", s); r != nil {
					ch.Radius = *r
				}
			} else if fld.Value.Kind == yaml.MappingNode || strictyaml.IsNull(fld.Value) {
				p.Errorf(at, kpath+".radius", "required field is missing: how far from the player's start the blocks are counted (a literal or \"{radius}\")")
			}
			set.Blocks[key] = ch
		}
	}
	if x, ok := f["machines"]; ok {
		mpath := strictyaml.Join(path, "machines")
		items := p.Sequence(x.Value, mpath)
		set.Machines = make([]MachineChange, 0, len(items))
		for i, c := range items {
			set.Machines = append(set.Machines, p.machine(c, strictyaml.Index(mpath, i), s))
		}
	}
	return set
}

// machine parses one machines entry.
func (p *specParser) machine(c *yaml.Node, path string, s *Spec) MachineChange {
	mf := p.Mapping(c, path, machineKeys)
	var mc MachineChange
	if c.Kind != yaml.MappingNode && !strictyaml.IsNull(c) {
		return mc // Mapping reported it
	}
	p.Require(c, path, mf, "kind")
	if v, ok := mf["kind"]; ok {
		if k, ok := p.String(v.Value, path+".kind"); ok {
			if !tagRE.MatchString(k) {
				p.Errorf(v.Value, path+".kind", "%q must be a machine kind such as coke_oven or steam_boiler", k)
			}
			mc.Kind = k
		}
	}
	slot, hasSlot := mf["slot"]
	fluid, hasFluid := mf["fluid"]
	switch {
	case hasSlot && hasFluid:
		p.Errorf(fluid.Key, path+".fluid", "slot and fluid exclude each other: one entry checks one slot or one tank")
	case !hasSlot && !hasFluid:
		p.Errorf(c, path, "give slot (an item slot such as input, output or fuel) or fluid (a tank such as water or creosote)")
	}
	if hasSlot {
		if v, ok := p.String(slot.Value, path+".slot"); ok {
			if strings.TrimSpace(v) == "" {
				p.Errorf(slot.Value, path+".slot", "must name a slot")
			}
			mc.Slot = v
		}
	}
	if hasFluid {
		if v, ok := p.String(fluid.Value, path+".fluid"); ok {
			if !tagRE.MatchString(v) {
				p.Errorf(fluid.Value, path+".fluid", "%q must be a fluid name such as water or creosote", v)
			}
			mc.Fluid = v
		}
	}
	if v, ok := mf["item"]; ok {
		if !hasSlot {
			p.Errorf(v.Key, path+".item", "item applies only to a slot")
		}
		if it, ok := p.String(v.Value, path+".item"); ok {
			if err := checkItemKey(it, s, false); err != nil {
				p.Errorf(v.Value, path+".item", "%v", err)
			}
			mc.Item = it
		}
	}
	inc, hasInc := mf["min_increase"]
	dec, hasDec := mf["min_decrease"]
	switch {
	case hasInc && hasDec:
		p.Errorf(dec.Key, path+".min_decrease", "min_increase and min_decrease exclude each other: write two entries")
	case !hasInc && !hasDec:
		p.Errorf(c, path, "give min_increase or min_decrease")
	}
	if hasInc {
		mc.MinIncrease = p.atLeastOne(inc.Value, path+".min_increase", s)
	}
	if hasDec {
		mc.MinDecrease = p.atLeastOne(dec.Value, path+".min_decrease", s)
	}
	if v, ok := mf["radius"]; ok {
		mc.Radius = p.radius(v.Value, path+".radius", s)
	}
	return mc
}

// atLeastOne parses the amount of a blocks or machines effect: an effect of
// zero would always hold.
func (p *specParser) atLeastOne(n *yaml.Node, path string, s *Spec) *Amount {
	a := p.amount(n, path, s)
	if a != nil && a.Param == "" && a.Value < 1 {
		if a.Value == 0 {
			p.Errorf(n, path, "must be at least 1: an effect of 0 always holds")
		}
		return nil
	}
	return a
}

// radius parses the search radius of a blocks or machines effect.
func (p *specParser) radius(n *yaml.Node, path string, s *Spec) *Amount {
	a := p.atLeastOne(n, path, s)
	if a != nil && a.Param == "" && a.Value > maxEffectRadius {
		p.Errorf(n, path, "must be at most %d, got %d", maxEffectRadius, a.Value)
		return nil
	}
	return a
}

func (p *specParser) metrics(n *yaml.Node, s *Spec) {
	f := p.Mapping(n, "metrics", metricKeys)
	if v, ok := f["success_rate"]; ok {
		if r, ok := p.OptFloat(v.Value, "metrics.success_rate"); ok {
			if r != nil && (*r < 0 || *r > 1) {
				p.Errorf(v.Value, "metrics.success_rate", "must be within 0..1, got %v", *r)
			}
			s.Metrics.SuccessRate = r
		}
	}
	if v, ok := f["avg_cost"]; ok {
		if c, ok := p.OptFloat(v.Value, "metrics.avg_cost"); ok {
			if c != nil && *c < 0 {
				p.Errorf(v.Value, "metrics.avg_cost", "must not be negative, got %v", *c)
			}
			s.Metrics.AvgCost = c
		}
	}
	if v, ok := f["samples"]; ok {
		if c, ok := p.Int(v.Value, "metrics.samples"); ok {
			if c < 0 {
				p.Errorf(v.Value, "metrics.samples", "must not be negative")
			}
			s.Metrics.Samples = c
		}
	}
}

func (p *specParser) actionSequence(n *yaml.Node, s *Spec) {
	items := p.Sequence(n, "action_sequence")
	if len(items) == 0 && (n.Kind == yaml.SequenceNode || strictyaml.IsNull(n)) {
		p.Errorf(n, "action_sequence", "must list at least one action")
	}
	for i, c := range items {
		path := strictyaml.Index("action_sequence", i)
		f := p.Mapping(c, path, nil)
		p.Require(c, path, f, "type")
		tf, ok := f["type"]
		if !ok {
			continue
		}
		kindStr, ok := p.String(tf.Value, path+".type")
		if !ok {
			continue
		}
		kind, err := action.ParseKind(kindStr)
		if err != nil {
			p.Errorf(tf.Value, path+".type", "%v", err)
			continue
		}
		spec, _ := action.SpecOf(kind)
		t := ActionTemplate{Kind: kind, Params: map[string]any{}, Line: c.Line}
		stepOK, templated := true, false
		keys := make([]string, 0, len(f))
		for k := range f {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "type" {
				continue
			}
			fld := f[k]
			ppath := path + "." + k
			ap, ok := spec.Param(k)
			if !ok {
				var names []string
				for _, x := range spec.Params {
					names = append(names, x.Name)
				}
				p.Errorf(fld.Key, ppath, "%s has no parameter %q (parameters: %s)", kind, k, strings.Join(names, ", "))
				continue
			}
			raw, ok := p.Any(fld.Value, ppath)
			if !ok {
				continue
			}
			if str, isStr := raw.(string); isStr && placeholderRE.MatchString(str) {
				p.checkPlaceholders(fld.Value, ppath, str, ap, s)
				templated = true
			} else if v, err := ap.Type.Coerce(raw); err != nil {
				p.Errorf(fld.Value, ppath, "%v", err)
				stepOK = false
			} else if str, isStr := v.(string); isStr && len(ap.Enum) > 0 && !slices.Contains(ap.Enum, str) {
				p.Errorf(fld.Value, ppath, "must be one of %s, got %q", strings.Join(ap.Enum, ", "), str)
				stepOK = false
			}
			t.Params[k] = raw
		}
		for _, ap := range spec.Params {
			if _, ok := t.Params[ap.Name]; ap.Required && !ok {
				p.Errorf(c, path+"."+ap.Name, "%s needs parameter %q", kind, ap.Name)
				stepOK = false
			}
		}
		// A step without placeholders is a complete action: build it now so
		// that checks beyond types (count >= 1, exactly one of pos and
		// entity, non-empty chat) fail at load, not at every invocation.
		if stepOK && !templated {
			if _, err := action.FromParams(kind, t.Params); err != nil {
				p.Errorf(c, path, "%v", err)
			}
		}
		s.ActionSequence = append(s.ActionSequence, t)
	}
}

// checkPlaceholders validates every {…} in a template value: it must name a
// declared parameter or a derived placeholder, and a value that is a single
// placeholder must produce the action parameter's type.
func (p *specParser) checkPlaceholders(n *yaml.Node, path, str string, ap action.Param, s *Spec) {
	whole := false
	if m := placeholderRE.FindStringSubmatch(str); m != nil && m[0] == str {
		whole = true
	}
	for _, m := range placeholderRE.FindAllStringSubmatch(str, -1) {
		name := m[1]
		var produces action.ParamType
		if ps, ok := s.Params[name]; ok {
			produces = ps.Type
		} else if d, ok := lookupDerived(name); ok {
			if err := d.check(name, s); err != nil {
				p.Errorf(n, path, "{%s}: %v", name, err)
				continue
			}
			produces = d.produces
		} else {
			p.Errorf(n, path, "{%s} is neither a declared parameter nor a derived placeholder (%s)", name, derivedNames())
			continue
		}
		if whole {
			if !compatible(produces, ap.Type) {
				p.Errorf(n, path, "{%s} is a %s but %s expects %s", name, produces, path, ap.Type)
			}
		} else if ap.Type != action.TypeString {
			p.Errorf(n, path, "placeholders can be embedded in text only for string parameters; write %q alone", "{"+name+"}")
		}
	}
}

func compatible(from, to action.ParamType) bool {
	if from == to {
		return true
	}
	switch to {
	case action.TypeString:
		return true
	case action.TypeItemID:
		return from == action.TypeBlockID
	case action.TypeFloat:
		return from == action.TypeInt
	case action.TypeDuration:
		return from == action.TypeInt
	}
	return false
}
