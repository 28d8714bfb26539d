package main

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
	"github.com/gtnh-agent/gtnh-agent/rules"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/packs"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// errInvalidConfig ends every command that needs the configuration when it
// is invalid (exit 2); the problems were printed first. skills validate,
// whose answer the problems are, exits 1 instead.
var errInvalidConfig = &usageError{"invalid configuration (see above)"}

// checkConfigDir is the one check of a configuration directory named on the
// command line (--config DIR, skills validate DIR, skills lint DIR): every
// command refuses a missing one with the same message and exit status 2.
func checkConfigDir(dir string) error { return checkDir("configuration directory", dir) }

// checkDir refuses a directory named on the command line that does not
// exist or is not a directory (exit 2).
func checkDir(what, dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usagef("%s %s does not exist", what, dir)
	case err != nil:
		return usagef("%s %s: %v", what, dir, err)
	case !st.IsDir():
		return usagef("%s %s is not a directory", what, dir)
	}
	return nil
}

// checkConfigRoot checks a directory given with --config: it must exist and
// hold skills/ (skill_packs/ and tiers.yaml are optional).
func checkConfigRoot(dir string) error {
	if err := checkConfigDir(dir); err != nil {
		return err
	}
	if st, err := os.Stat(filepath.Join(dir, "skills")); err != nil || !st.IsDir() {
		return usagef("configuration directory %s has no skills/ directory", dir)
	}
	return nil
}

// checkConfig is the one loader and checker of a configuration, used by
// skills validate and by every command that loads the configuration, so the
// two agree on what is valid: skill specs, packs and the skills they list,
// the registry's version and implementation rules, and every SKILL.md
// directory (fields, references, the safety scan). dir is "" for the shipped
// configuration alone; a directory with its own tiers.yaml is a
// configuration of its own (loadRegistry); any other adds its skills and
// packs to the shipped ones (loadMerged). It prints every problem (warnings
// only when warn is set) and returns the finalized registry (nil when the
// registry part failed) and the number of problems.
func checkConfig(e *env, dir string, kt knowledgeTarget, opts registry.Options, warn bool) (*registry.Registry, int) {
	var reg *registry.Registry
	problems := 0
	switch {
	case dir == "":
		var err error
		if reg, err = loadRegistry(config.FS, opts, true); err != nil {
			problems += printErrors(e.stderr, "config", err)
		}
	case ownTiers(dir):
		var err error
		if reg, err = loadRegistry(os.DirFS(dir), opts, false); err != nil {
			problems += printErrors(e.stderr, dir, err)
		}
	default:
		var err error
		if reg, err = loadMerged(e.log, dir, opts); err != nil {
			problems += printErrors(e.stderr, "", err)
		}
	}
	if reg != nil && reg.Packs() == nil {
		// Planners are offered the skills of packs only: a run, the MCP
		// server and the loop refuse a registry without them.
		fmt.Fprintf(e.stderr, "%s: no skill packs: a configuration with its own tiers.yaml needs skill_packs/ (planners are offered only the skills of packs)\n", dir)
		problems++
	}
	names := shippedSpecNames()
	if reg != nil {
		for _, n := range reg.Names() {
			names[n] = true
		}
	}
	kn, _ := validateKnowledge(e, kt, names, knowledge.ValidateOptions{SkipSpecs: true}, warn)
	problems += kn
	if problems > 0 {
		return nil, problems
	}
	return reg, 0
}

// ownTiers tells a configuration directory with its own tier table: the
// shipped skills and packs are written for the shipped tiers, so such a
// directory replaces the shipped configuration instead of adding to it.
func ownTiers(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "tiers.yaml"))
	return err == nil && !st.IsDir()
}

// loadMerged loads the shipped configuration with the skills and packs of
// dir added: a skill dir defines (any of its versions) replaces every
// version of the shipped skill of that name, a pack replaces the shipped
// pack of its name, each with a warning. Packs of dir may depend on shipped
// packs and list shipped skills. Every problem is returned with its file
// under dir (or config/ for the shipped files it touches).
func loadMerged(log zerolog.Logger, dir string, opts registry.Options) (*registry.Registry, error) {
	tiers, err := registry.ConfigTiers(config.FS, opts.Tiers)
	if err != nil {
		return nil, located("config", err)
	}
	m := &merge{log: log, dir: dir, custom: os.DirFS(dir), tiers: tiers}
	m.mergeSpecs()
	m.mergePacks()
	opts.Tiers, opts.Packs = tiers, m.set
	reg := m.registry(opts)
	if len(m.errs) > 0 {
		m.errs.Sort()
		return nil, m.errs
	}
	return reg, nil
}

// merge is the state of loadMerged: the shipped configuration and dir's,
// and every problem found.
type merge struct {
	log    zerolog.Logger
	dir    string
	custom fs.FS
	tiers  *rules.Tiers
	errs   strictyaml.Errors

	specs    []*skills.Spec
	replaced map[string]string // skill → the file of dir that replaces it
	set      *packs.Set        // nil when the packs are invalid (reported)
}

// mergeSpecs loads the skill specs of dir and the shipped ones it does not
// replace, warning about each it replaces.
func (m *merge) mergeSpecs() {
	shipped, err := skills.LoadOptions{Tiers: m.tiers}.LoadDir(config.FS, "skills")
	m.errs = append(m.errs, located("config", err)...)
	own, err := skills.LoadOptions{Tiers: m.tiers}.LoadDir(m.custom, "skills")
	m.errs = append(m.errs, located(m.dir, err)...)
	m.replaced = map[string]string{}
	for _, s := range own {
		s.File = path.Join(m.dir, s.File)
		if _, seen := m.replaced[s.Name]; !seen {
			m.replaced[s.Name] = s.File
		}
	}
	m.specs = own
	shippedNames := map[string]bool{}
	for _, s := range shipped {
		shippedNames[s.Name] = true
		if _, ok := m.replaced[s.Name]; ok {
			continue
		}
		s.File = path.Join("config", s.File)
		m.specs = append(m.specs, s)
	}
	for _, name := range slices.Sorted(maps.Keys(m.replaced)) {
		if shippedNames[name] {
			m.log.Warn().Str("skill", name).Str("file", m.replaced[name]).Msgf("skill %s in %s replaces the shipped skill of that name", name, m.replaced[name])
		}
	}
}

// mergePacks builds the pack set from dir's packs and the shipped ones
// they do not replace, checks the skills they list, and warns about each
// skill of dir in no pack.
func (m *merge) mergePacks() {
	shippedPacks, perrs := parsePacks(config.FS, "config", m.tiers)
	m.errs = append(m.errs, perrs...)
	var ownPacks []*packs.Pack
	if exists(m.custom, "skill_packs") {
		ownPacks, perrs = parsePacks(m.custom, m.dir, m.tiers)
		m.errs = append(m.errs, perrs...)
	}
	list := ownPacks
	ownPack := map[string]bool{}
	for _, p := range ownPacks {
		ownPack[p.Name] = true
	}
	for _, p := range shippedPacks {
		if ownPack[p.Name] {
			m.log.Warn().Str("pack", p.Name).Msgf("skill pack %s in %s replaces the shipped pack of that name", p.Name, m.dir)
			continue
		}
		list = append(list, p)
	}
	set, err := packs.NewSet(m.tiers, list...)
	m.errs = append(m.errs, strictyaml.Flatten("", err)...)
	if set == nil {
		return
	}
	known := map[string]bool{}
	for _, s := range m.specs {
		known[s.Name] = true
	}
	if err := set.ValidateSkills(func(n string) bool { return known[n] }); err != nil {
		m.errs = append(m.errs, strictyaml.Flatten("", err)...)
		return // reported; the registry would report it again
	}
	m.set = set
	inPack := map[string]bool{}
	for _, p := range set.All() {
		for _, n := range p.Skills {
			inPack[n] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m.replaced)) {
		if !inPack[name] {
			m.log.Warn().Str("skill", name).Str("file", m.replaced[name]).Msgf("skill %s (%s) is in no skill pack: planners are never offered it; list it in a pack under %s", name, m.replaced[name], path.Join(m.dir, "skill_packs"))
		}
	}
}

// registry builds and finalizes the registry of the merged specs with the
// Go skills; a Go skill dir replaced with a template is not an error.
func (m *merge) registry(opts registry.Options) *registry.Registry {
	reg, err := registry.New(m.specs, opts)
	if err != nil {
		m.errs = append(m.errs, strictyaml.Flatten("", err)...)
		return nil
	}
	for _, impl := range registry.Provided() {
		err := reg.Register(impl)
		switch {
		case err == nil, errors.Is(err, registry.ErrNoSpec):
		case errors.Is(err, registry.ErrNotGo) && m.replaced[impl.Name()] != "":
			// dir replaced a shipped Go skill with a template.
		default:
			m.errs = append(m.errs, strictyaml.Flatten("", err)...)
		}
	}
	if err := reg.Finalize(); err != nil {
		m.errs = append(m.errs, strictyaml.Flatten("", err)...)
	}
	return reg
}

// parsePacks parses every pack file of skill_packs/ in fsys, each with its
// file under prefix, without checking what spans files (packs.NewSet does,
// over the merged list).
func parsePacks(fsys fs.FS, prefix string, tiers *rules.Tiers) ([]*packs.Pack, strictyaml.Errors) {
	entries, err := fs.ReadDir(fsys, "skill_packs")
	if err != nil {
		return nil, strictyaml.Errors{{File: path.Join(prefix, "skill_packs"), Msg: fmt.Sprintf("cannot read pack directory: %v", err)}}
	}
	var list []*packs.Pack
	var errs strictyaml.Errors
	for _, en := range entries {
		n := en.Name()
		if en.IsDir() || strings.HasPrefix(n, ".") || !(strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml")) {
			continue
		}
		file := path.Join(prefix, "skill_packs", n)
		data, err := filelimit.ReadFS(fsys, path.Join("skill_packs", n), filelimit.MaxConfig)
		if err != nil {
			errs = append(errs, &strictyaml.Error{File: file, Msg: filelimit.Message(err)})
			continue
		}
		p, err := packs.ParsePack(file, data, tiers)
		if err != nil {
			errs = append(errs, strictyaml.Flatten(file, err)...)
			continue
		}
		list = append(list, p)
	}
	return list, errs
}

// located is err's problems with their files under prefix.
func located(prefix string, err error) strictyaml.Errors {
	list := strictyaml.Flatten("", err)
	for i, x := range list {
		if x.File != "" && !path.IsAbs(x.File) && !strings.HasPrefix(x.File, prefix+"/") {
			c := *x
			c.File = path.Join(prefix, x.File)
			list[i] = &c
		}
	}
	return list
}

// loadRegistry loads skills/ and skill_packs/ (a tiers.yaml at the root
// replaces the shipped tier table), checks the skills the packs list, binds
// the shipped Go skills and finalizes the registry. The shipped
// configuration must cover every shipped Go skill (strict); a custom one may
// leave shipped skills out. Every problem in every file is returned, not
// just the first: a broken pack does not hide a skill without its code.
func loadRegistry(fsys fs.FS, opts registry.Options, strict bool) (*registry.Registry, error) {
	tiers, err := registry.ConfigTiers(fsys, opts.Tiers)
	if err != nil {
		return nil, err
	}
	var errs strictyaml.Errors
	specs, err := skills.LoadOptions{Tiers: tiers}.LoadDir(fsys, "skills")
	errs = append(errs, strictyaml.Flatten("skills", err)...)
	var set *packs.Set
	if exists(fsys, "skill_packs") {
		set, err = packs.LoadDir(fsys, "skill_packs", tiers)
		errs = append(errs, strictyaml.Flatten("skill_packs", err)...)
		if set != nil {
			known := map[string]bool{}
			for _, s := range specs {
				known[s.Name] = true
			}
			if err := set.ValidateSkills(func(n string) bool { return known[n] }); err != nil {
				errs = append(errs, strictyaml.Flatten("skill_packs", err)...)
				set = nil // reported; the registry would report it again
			}
		}
	}
	opts.Tiers, opts.Packs = tiers, set
	reg, err := registry.New(specs, opts)
	if err != nil {
		errs = append(errs, strictyaml.Flatten("", err)...)
	} else if strict {
		if err := reg.RegisterProvided(); err != nil {
			errs = append(errs, strictyaml.Flatten("", err)...)
		} else if err := reg.Finalize(); err != nil {
			errs = append(errs, strictyaml.Flatten("", err)...)
		}
	} else {
		errs = append(errs, registerOwn(reg)...)
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return reg, nil
}

// configSummary describes a loaded configuration for skills validate.
func configSummary(reg *registry.Registry) string {
	versions := 0
	for _, n := range reg.Names() {
		vs, _ := reg.Versions(n)
		versions += len(vs)
	}
	packsN := 0
	if reg.Packs() != nil {
		packsN = len(reg.Packs().Names())
	}
	return fmt.Sprintf("%d skills, %d spec versions, %d packs", len(reg.Names()), versions, packsN)
}

// unknownName is the usage error for a skill, pack or tier named on the
// command line that the configuration does not have: the nearest known name
// as a hint, then the known ones.
func unknownName(kind, name string, known []string) error {
	return usagef("unknown %s %q%s (known: %s)", kind, name, suggest.DidYouMean(name, known), strings.Join(known, ", "))
}

// registerOwn registers the Go implementations of the skills reg defines
// and finalizes it. Implementations for skills it does not define belong to
// other configurations and are passed over; any other problem is returned.
func registerOwn(reg *registry.Registry) strictyaml.Errors {
	var errs strictyaml.Errors
	for _, impl := range registry.Provided() {
		if err := reg.Register(impl); err != nil && !errors.Is(err, registry.ErrNoSpec) {
			errs = append(errs, strictyaml.Flatten("", err)...)
		}
	}
	if err := reg.Finalize(); err != nil {
		errs = append(errs, strictyaml.Flatten("", err)...)
	}
	return errs
}
