package registry

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/packs"
)

// Errors returned by the registry; test with errors.Is.
var (
	ErrFinalized     = errors.New("registry is finalized")
	ErrNoSpec        = errors.New("no spec for skill")
	ErrDuplicate     = errors.New("skill already registered")
	ErrDeprecated    = errors.New("skill is deprecated")
	ErrNotGo         = errors.New("skill is not implemented in go")
	ErrMissingImpl   = errors.New("active go skill has no implementation")
	ErrUnknownSkill  = errors.New("unknown skill")
	ErrNotCandidate  = errors.New("skill version is not a candidate")
	ErrConflict      = errors.New("conflicting spec versions")
	ErrNoPacks       = errors.New("registry has no skill packs")
	ErrCorruptState  = errors.New("corrupt registry state file")
	ErrInvalidSpec   = errors.New("invalid skill spec")
	ErrNotRunnable   = errors.New("skill has no runnable implementation")
	ErrUnknownPolicy = errors.New("unknown candidate policy")
)

// Policy decides which version of a skill planners see.
type Policy int

const (
	// ActiveOnly shows only active versions (the default).
	ActiveOnly Policy = iota
	// CandidatesAsFallback shows the active version, or the newest candidate
	// for skills that have no active version.
	CandidatesAsFallback
	// PreferCandidates shows the newest candidate where one exists, else the
	// active version: for trialling candidates before promotion.
	PreferCandidates
)

func (p Policy) String() string {
	switch p {
	case ActiveOnly:
		return "active"
	case CandidatesAsFallback:
		return "fallback"
	case PreferCandidates:
		return "prefer"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// ParsePolicy parses "active", "fallback" or "prefer".
func ParsePolicy(s string) (Policy, error) {
	for _, p := range []Policy{ActiveOnly, CandidatesAsFallback, PreferCandidates} {
		if p.String() == s {
			return p, nil
		}
	}
	return 0, fmt.Errorf("%w %q (use active, fallback or prefer)", ErrUnknownPolicy, s)
}

// DefaultAlpha is the weight of a new observation in the metrics' moving
// average once a skill has 1/DefaultAlpha samples.
const DefaultAlpha = 0.2

// Options configure a Registry.
type Options struct {
	// Tiers is the tier table (nil = the shipped table).
	Tiers *rules.Tiers
	// Packs gates DescribeForTechState (nil = no packs; that call then fails).
	Packs *packs.Set
	// Policy chooses versions for planners (default ActiveOnly).
	Policy Policy
	// StatePath is the metrics/status state file ("" = keep in memory only).
	// Temporary files a killed process left beside it (older than a
	// minute) are removed when the registry is built.
	StatePath string
	// Alpha is the moving-average weight (0 = DefaultAlpha).
	Alpha float64
	// Rules is the rule set Go implementations that read rule tables
	// (skills.RuleUser) are bound to (nil = the shipped set, which they
	// read themselves).
	Rules *rules.Set
}

// entry is one skill name with all its versions.
type entry struct {
	versions []*skills.Spec // sorted by version
	impl     skills.Implementation
}

func (e *entry) version(v int) *skills.Spec {
	for _, s := range e.versions {
		if s.Version == v {
			return s
		}
	}
	return nil
}

func (e *entry) active() *skills.Spec {
	for _, s := range e.versions {
		if s.Status == skills.StatusActive {
			return s
		}
	}
	return nil
}

func (e *entry) newestCandidate() *skills.Spec {
	for i := len(e.versions) - 1; i >= 0; i-- {
		if e.versions[i].Status == skills.StatusCandidate {
			return e.versions[i]
		}
	}
	return nil
}

// Registry holds skill specs and implementations. Create it with New or
// LoadConfig.
type Registry struct {
	mu        sync.RWMutex
	tiers     *rules.Tiers
	packs     *packs.Set
	policy    Policy
	alpha     float64
	statePath string
	rules     *rules.Set // bound to RuleUser implementations
	state     *stateFile

	entries   map[string]*entry
	names     []string // sorted
	finalized bool

	// descs caches descriptions by spec key; catalogs caches tier-gated
	// views. Spec changes drop them; metric changes patch them (see
	// patchMetricsLocked).
	descs    map[string]*Description
	catalogs map[string]*catalog
}

// New builds a registry from specs. Duplicate name@version pairs and more
// than one active version of a name are errors, as is a corrupt state file.
func New(specs []*skills.Spec, opts Options) (*Registry, error) {
	r := &Registry{
		tiers:     opts.Tiers,
		packs:     opts.Packs,
		policy:    opts.Policy,
		alpha:     opts.Alpha,
		statePath: opts.StatePath,
		rules:     opts.Rules,
		entries:   map[string]*entry{},
		descs:     map[string]*Description{},
		catalogs:  map[string]*catalog{},
	}
	if r.tiers == nil {
		r.tiers = rules.Default().Tiers
	}
	if r.alpha <= 0 || r.alpha > 1 {
		r.alpha = DefaultAlpha
	}
	if _, err := ParsePolicy(r.policy.String()); err != nil {
		return nil, err
	}
	var problems []error
	for _, s := range specs {
		e := r.entries[s.Name]
		if e == nil {
			e = &entry{}
			r.entries[s.Name] = e
			r.names = append(r.names, s.Name)
		}
		if e.version(s.Version) != nil {
			problems = append(problems, fmt.Errorf("%w: %s is defined twice (%s)", ErrConflict, s.Key(), s.File))
			continue
		}
		e.versions = append(e.versions, s.Clone())
	}
	sort.Strings(r.names)
	if r.statePath != "" {
		// A leftover temporary file costs only disk space; one that cannot
		// be removed is no reason not to start.
		_, _ = removeStaleTemps(r.statePath)
		st, err := readState(r.statePath)
		if err != nil {
			return nil, err
		}
		r.state = st
	}
	for _, name := range r.names {
		e := r.entries[name]
		sort.Slice(e.versions, func(i, j int) bool { return e.versions[i].Version < e.versions[j].Version })
		if r.state != nil {
			r.applyState(e)
		}
		if err := checkOneActive(e); err != nil {
			problems = append(problems, err)
		}
	}
	if r.packs != nil {
		if err := r.packs.ValidateSkills(func(name string) bool { return r.entries[name] != nil }); err != nil {
			problems = append(problems, err)
		}
	}
	if len(problems) > 0 {
		return nil, errors.Join(problems...)
	}
	return r, nil
}

func checkOneActive(e *entry) error {
	var active []string
	for _, s := range e.versions {
		if s.Status == skills.StatusActive {
			active = append(active, s.Key())
		}
	}
	if len(active) > 1 {
		return fmt.Errorf("%w: %s are all active; at most one version of a skill may be active", ErrConflict, strings.Join(active, ", "))
	}
	return nil
}

// ConfigTiers returns the tier table of a configuration root: tiers when not
// nil, else the root's tiers.yaml when it has one, else the shipped table.
func ConfigTiers(fsys fs.FS, tiers *rules.Tiers) (*rules.Tiers, error) {
	if tiers != nil {
		return tiers, nil
	}
	data, err := filelimit.ReadFS(fsys, "tiers.yaml", filelimit.MaxConfig)
	if errors.Is(err, fs.ErrNotExist) {
		return rules.Default().Tiers, nil
	}
	if err != nil {
		return nil, err
	}
	return rules.ParseTiers("tiers.yaml", data)
}

// LoadConfig loads specs from skills/ and packs from skill_packs/ under the
// root of fsys (the layout of the shipped config directory; a tiers.yaml
// there replaces the shipped tier table) and builds a registry. Every problem in every file is reported together; the result is
// not finalized.
func LoadConfig(fsys fs.FS, opts Options) (*Registry, error) {
	tiers, err := ConfigTiers(fsys, opts.Tiers)
	if err != nil {
		return nil, err
	}
	var errs strictyaml.Errors
	specs, err := skills.LoadOptions{Tiers: tiers}.LoadDir(fsys, "skills")
	errs = append(errs, strictyaml.Flatten("skills", err)...)
	if opts.Packs == nil {
		if _, statErr := fs.Stat(fsys, "skill_packs"); statErr == nil {
			set, err := packs.LoadDir(fsys, "skill_packs", tiers)
			errs = append(errs, strictyaml.Flatten("skill_packs", err)...)
			opts.Packs = set
		}
	}
	if len(errs) > 0 {
		if opts.Packs != nil {
			known := map[string]bool{}
			for _, s := range specs {
				known[s.Name] = true
			}
			if err := opts.Packs.ValidateSkills(func(n string) bool { return known[n] }); err != nil {
				errs = append(errs, strictyaml.Flatten("skill_packs", err)...)
			}
		}
		errs.Sort()
		return nil, errs
	}
	opts.Tiers = tiers
	return New(specs, opts)
}

// Rules returns the rule set the registry binds its skills to (the shipped
// one when none was given).
func (r *Registry) Rules() *rules.Set {
	if r.rules == nil {
		return rules.Default()
	}
	return r.rules
}

// Tiers returns the registry's tier table.
func (r *Registry) Tiers() *rules.Tiers { return r.tiers }

// Packs returns the registry's pack set (nil when none).
func (r *Registry) Packs() *packs.Set { return r.packs }

// Policy returns the current candidate policy.
func (r *Registry) Policy() Policy {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.policy
}

// SetPolicy changes which versions planners see.
func (r *Registry) SetPolicy(p Policy) error {
	if _, err := ParsePolicy(p.String()); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.policy != p {
		r.policy = p
		r.catalogs = map[string]*catalog{}
	}
	return nil
}

// Register binds a Go implementation to its skill. It fails after Finalize,
// without a spec of that name, for a second implementation of a name, when
// every version of the skill is deprecated, and when no version is a go skill.
func (r *Registry) Register(impl skills.Implementation) error {
	if impl == nil {
		return fmt.Errorf("registry: Register called with a nil implementation")
	}
	name := impl.Name()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finalized {
		return fmt.Errorf("%w: cannot register %q after Finalize", ErrFinalized, name)
	}
	e := r.entries[name]
	if e == nil {
		return fmt.Errorf("%w %q (expected config/skills/%s.yaml)", ErrNoSpec, name, name)
	}
	if e.impl != nil {
		return fmt.Errorf("%w: %q (%T, then %T)", ErrDuplicate, name, e.impl, impl)
	}
	live, goSpec := false, false
	for _, s := range e.versions {
		if s.Status != skills.StatusDeprecated {
			live = true
			goSpec = goSpec || s.Implementation == skills.ImplGo
		}
	}
	if !live {
		return fmt.Errorf("%w: cannot register %q, every version is deprecated", ErrDeprecated, name)
	}
	if !goSpec {
		return fmt.Errorf("%w: %q is a template skill and needs no Go implementation", ErrNotGo, name)
	}
	if u, ok := impl.(skills.RuleUser); ok && r.rules != nil {
		impl = u.WithRules(r.rules)
	}
	e.impl = impl
	return nil
}

// RegisterProvided registers every implementation added with Provide whose
// skill has a live go spec here, and reports the others together. Provided
// implementations for skills this registry has no spec for are an error.
func (r *Registry) RegisterProvided() error {
	var errs []error
	for _, impl := range Provided() {
		if err := r.Register(impl); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Finalize ends the build phase: every active go spec must have an
// implementation (all missing ones are reported together). After Finalize,
// Register fails; specs can still change through UpdateSpec and
// PromoteCandidate.
func (r *Registry) Finalize() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finalized {
		return nil
	}
	var missing []string
	for _, name := range r.names {
		e := r.entries[name]
		if a := e.active(); a != nil && a.Implementation == skills.ImplGo && e.impl == nil {
			missing = append(missing, a.Key())
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: %s (import the package that provides it, e.g. skills/base)", ErrMissingImpl, strings.Join(missing, ", "))
	}
	r.finalized = true
	return nil
}

// Finalized reports whether Finalize succeeded.
func (r *Registry) Finalized() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.finalized
}

// runnable reports whether a spec version can run here.
func (e *entry) runnable(s *skills.Spec) bool {
	return s.Implementation == skills.ImplTemplate || e.impl != nil
}

// selected is the version planners see under policy p, or nil.
func (e *entry) selected(p Policy) *skills.Spec {
	var s *skills.Spec
	switch p {
	case ActiveOnly:
		s = e.active()
	case CandidatesAsFallback:
		if s = e.active(); s == nil || !e.runnable(s) {
			s = e.newestCandidate()
		}
	case PreferCandidates:
		if s = e.newestCandidate(); s == nil || !e.runnable(s) {
			s = e.active()
		}
	}
	if s == nil || !e.runnable(s) {
		return nil
	}
	return s
}

// ListSkills returns the names of skills planners can use under the current
// policy (a runnable, non-deprecated version), sorted.
func (r *Registry) ListSkills() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, len(r.names))
	for _, name := range r.names {
		if r.entries[name].selected(r.policy) != nil {
			out = append(out, name)
		}
	}
	return out
}

// Names returns every skill name with a spec, in any status, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]string(nil), r.names...)
}

// Versions returns copies of every version of a skill, oldest first.
func (r *Registry) Versions(name string) ([]*skills.Spec, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e := r.entries[name]
	if e == nil {
		return nil, fmt.Errorf("%w %q", ErrUnknownSkill, name)
	}
	out := make([]*skills.Spec, len(e.versions))
	for i, s := range e.versions {
		out[i] = s.Clone()
	}
	return out, nil
}

// GetSkill returns the version of a skill planners see under the current
// policy, bound to its implementation.
func (r *Registry) GetSkill(name string) (*Executable, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e := r.entries[name]
	if e == nil {
		return nil, fmt.Errorf("%w %q", ErrUnknownSkill, name)
	}
	s := e.selected(r.policy)
	if s == nil {
		return nil, r.whyNot(name, e)
	}
	return r.bind(e, s), nil
}

// GetSkillVersion returns one version of a skill, bound to its
// implementation, whatever its status (deprecated versions included, for
// replaying old traces).
func (r *Registry) GetSkillVersion(name string, version int) (*Executable, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e := r.entries[name]
	if e == nil {
		return nil, fmt.Errorf("%w %q", ErrUnknownSkill, name)
	}
	s := e.version(version)
	if s == nil {
		return nil, fmt.Errorf("%w %s@%d", ErrUnknownSkill, name, version)
	}
	if !e.runnable(s) {
		return nil, fmt.Errorf("%w: %s", ErrNotRunnable, s.Key())
	}
	return r.bind(e, s), nil
}

func (r *Registry) whyNot(name string, e *entry) error {
	if a := e.active(); a != nil && !e.runnable(a) {
		return fmt.Errorf("%w: %s has no registered Go implementation", ErrNotRunnable, a.Key())
	}
	if e.newestCandidate() != nil && r.policy == ActiveOnly {
		return fmt.Errorf("%w %q: only candidate versions exist and the policy is %s", ErrUnknownSkill, name, r.policy)
	}
	return fmt.Errorf("%w %q: no usable version (all deprecated)", ErrUnknownSkill, name)
}

func (r *Registry) bind(e *entry, s *skills.Spec) *Executable {
	impl := e.impl
	if s.Implementation == skills.ImplTemplate {
		impl = nil
	}
	spec := s.Clone()
	if impl == nil {
		impl = skills.Template{Spec: spec}
	}
	return &Executable{spec: spec, impl: impl, tiers: r.tiers}
}

// invalidate drops cached descriptions of one spec and every catalog.
func (r *Registry) invalidate(key string) {
	delete(r.descs, key)
	r.catalogs = map[string]*catalog{}
}

// UpdateSpec replaces a version of a skill or adds a new one (the hook for
// skill evolution). The spec is validated; a second active version, or an
// active go version without an implementation after Finalize, is rejected.
// Status and metrics changes are persisted to the state file.
func (r *Registry) UpdateSpec(spec *skills.Spec) error {
	if spec == nil {
		return fmt.Errorf("%w: nil spec", ErrInvalidSpec)
	}
	if err := spec.Validate(r.tiers); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidSpec, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s := spec.Clone()
	e := r.entries[s.Name]
	isNew := e == nil
	if isNew {
		e = &entry{}
	}
	if s.Status == skills.StatusActive {
		if a := e.active(); a != nil && a.Version != s.Version {
			return fmt.Errorf("%w: %s is active; use PromoteCandidate to replace it with %s", ErrConflict, a.Key(), s.Key())
		}
		if r.finalized && s.Implementation == skills.ImplGo && e.impl == nil {
			return fmt.Errorf("%w: %s", ErrMissingImpl, s.Key())
		}
	}
	if old := e.version(s.Version); old != nil {
		*old = *s
	} else {
		e.versions = append(e.versions, s)
		sort.Slice(e.versions, func(i, j int) bool { return e.versions[i].Version < e.versions[j].Version })
	}
	if isNew {
		r.entries[s.Name] = e
		r.names = append(r.names, s.Name)
		sort.Strings(r.names)
	}
	r.invalidate(s.Key())
	return r.persistLocked(s)
}

// PromoteCandidate makes a candidate version active and deprecates the
// previously active version. A go candidate needs a registered
// implementation. The change is persisted to the state file.
func (r *Registry) PromoteCandidate(name string, version int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.entries[name]
	if e == nil {
		return fmt.Errorf("%w %q", ErrUnknownSkill, name)
	}
	c := e.version(version)
	if c == nil {
		return fmt.Errorf("%w %s@%d", ErrUnknownSkill, name, version)
	}
	if c.Status != skills.StatusCandidate {
		return fmt.Errorf("%w: %s is %s", ErrNotCandidate, c.Key(), c.Status)
	}
	if !e.runnable(c) {
		return fmt.Errorf("%w: %s has no registered Go implementation", ErrNotRunnable, c.Key())
	}
	prev := e.active()
	c.Status = skills.StatusActive
	r.invalidate(c.Key())
	if prev != nil {
		prev.Status = skills.StatusDeprecated
		r.invalidate(prev.Key())
	}
	if err := r.persistLocked(c, prev); err != nil {
		// Keep memory and disk in agreement.
		c.Status = skills.StatusCandidate
		if prev != nil {
			prev.Status = skills.StatusActive
		}
		return err
	}
	return nil
}
