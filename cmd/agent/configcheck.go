package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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

// checkConfig is the one loader and checker of a configuration root, used by
// skills validate and by every command that loads the configuration, so the
// two agree on what is valid: skill specs, packs and the skills they list,
// the registry's version and implementation rules (loadRegistry), and every
// SKILL.md directory (fields, references, the safety scan). It prints every
// problem under prefix (warnings only when warn is set) and returns the
// finalized registry (nil when the registry part failed) and the number of
// problems.
func checkConfig(e *env, fsys fs.FS, prefix string, kt knowledgeTarget, opts registry.Options, strict, warn bool) (*registry.Registry, int) {
	reg, err := loadRegistry(fsys, opts, strict)
	problems := 0
	if err != nil {
		problems += printErrors(e.stderr, prefix, err)
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
