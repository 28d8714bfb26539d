package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge/selection"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// knowledgeFlags select the knowledge skills: the shipped ones come with
// --config (or the embedded configuration), custom ones from the knowledge
// configuration file and --skills-dir.
type knowledgeFlags struct {
	file      string
	workspace string
	dirs      stringList
}

type stringList []string

// String implements flag.Value.
func (s *stringList) String() string { return strings.Join(*s, ",") }

// Set implements flag.Value: each use of the flag adds a value.
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func (k *knowledgeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&k.file, "skills-config", "", "knowledge skill configuration (YAML: dirs, preload, selection, quality_file)")
	fs.StringVar(&k.workspace, "workspace", "", "workspace that relative skill paths resolve against (default: $"+knowledge.WorkspaceEnv+", else the current directory)")
	fs.Var(&k.dirs, "skills-dir", "custom skill directory (repeatable; added after the configured ones, so it wins on name clashes)")
}

// config reads the knowledge configuration and resolves its paths.
func (k *knowledgeFlags) config(e *env) (*knowledge.Config, error) {
	cfg := knowledge.DefaultConfig()
	if k.file != "" {
		c, err := knowledge.LoadConfig(k.file)
		if pe := (*os.PathError)(nil); errors.As(err, &pe) {
			return nil, usagef("--skills-config: %v", err) // cannot open or read the file
		}
		if err != nil {
			printErrors(e.stderr, "", err)
			return nil, &usageError{"invalid knowledge configuration (see above)"}
		}
		cfg = *c
	}
	for _, d := range k.dirs {
		// A directory in the configuration file may appear later (the
		// library picks it up when it does); one typed on the command
		// line is meant to exist now.
		if err := checkDir("skill directory", d); err != nil {
			return nil, err
		}
		cfg.Dirs = append(cfg.Dirs, knowledge.DirConfig{Path: d})
	}
	if err := cfg.Resolve(k.workspace); err != nil {
		return nil, usagef("%v", err)
	}
	return &cfg, nil
}

// library discovers the shipped and custom knowledge skills.
func (k *knowledgeFlags) library(e *env, cf *configFlags, reg *registry.Registry) (*knowledge.Library, *knowledge.Config, error) {
	cfg, err := k.config(e)
	if err != nil {
		return nil, nil, err
	}
	opts := knowledge.Options{Logger: e.pkgLog()}
	if reg != nil {
		opts.Tiers = reg.Tiers()
	}
	lib := knowledge.New(opts)
	shipped := knowledge.Source{Label: knowledge.LabelShipped, FS: config.FS, FSDir: "skills", Display: "config/skills"}
	var added *knowledge.Source
	switch {
	case cf.dir != "" && ownTiers(cf.dir):
		// A configuration of its own replaces the shipped one.
		shipped = knowledge.Source{Label: knowledge.LabelShipped, Dir: filepath.Join(cf.dir, "skills"), ReadOnly: true}
	case cf.dir != "":
		// Its skills are added to the shipped ones; one of the same name
		// overrides the shipped one, with a warning naming both.
		added = &knowledge.Source{Label: knowledge.LabelCustom, Dir: filepath.Join(cf.dir, "skills"), ReadOnly: true}
	}
	if _, err := lib.Add(shipped); err != nil {
		return nil, nil, err
	}
	if added != nil {
		if _, err := lib.Add(*added); err != nil {
			return nil, nil, err
		}
	}
	for _, d := range cfg.Dirs {
		if _, err := lib.Add(knowledge.Source{Label: knowledge.LabelCustom, Dir: d.Path, Recursive: d.Recursive}); err != nil {
			return nil, nil, err
		}
	}
	return lib, cfg, nil
}

// catalog loads the registry and the knowledge library and joins them.
func (k *knowledgeFlags) catalog(e *env, cf *configFlags, policy registry.Policy) (*catalog.Catalog, *knowledge.Config, error) {
	reg, err := cf.load(e, policy)
	if err != nil {
		return nil, nil, err
	}
	lib, cfg, err := k.library(e, cf, reg)
	if err != nil {
		return nil, nil, err
	}
	c := &catalog.Catalog{Registry: reg, Library: lib}
	if err := c.RegisterSpecs(); err != nil {
		e.log.Warn().Err(err).Msg("executable specs in custom skill directories were not registered")
	}
	return c, cfg, nil
}

// catalogEntries returns the whole catalog, or the tier-gated view.
func catalogEntries(cat *catalog.Catalog, tech, packList string) ([]catalog.Entry, error) {
	if tech == "" {
		if packList != "" {
			return nil, usagef("--packs needs --tech-state")
		}
		return cat.Entries(), nil
	}
	reg := cat.Registry
	if _, ok := reg.Tiers().Index(tech); !ok {
		return nil, unknownName("tech state", tech, reg.Tiers().Names())
	}
	enabled := reg.Packs().Names()
	if packList != "" {
		enabled = splitList(packList)
		for _, p := range enabled {
			if _, ok := reg.Packs().Get(p); !ok {
				return nil, unknownName("pack", p, reg.Packs().Names())
			}
		}
	}
	return cat.ForTechState(tech, enabled)
}

func printSelection(e *env, res *selection.Result, cands []selection.Candidate, top int) {
	w := e.stdout
	kind := map[string]string{}
	name := map[string]string{}
	for _, c := range cands {
		kind[c.ID], name[c.ID] = c.Kind, c.Name
	}
	fmt.Fprintf(w, "task: %s\n", res.Task)
	fmt.Fprintf(w, "candidates: %d\n\n", len(cands))
	removed := 0
	for _, d := range res.Filtered {
		if !d.Kept {
			removed++
		}
	}
	fmt.Fprintf(w, "quality filter: %d with records, %d removed\n", len(res.Filtered), removed)
	for _, d := range res.Filtered {
		verdict := "removed"
		if d.Kept {
			verdict = "kept"
		}
		fmt.Fprintf(w, "  %-8s %s: %s\n", verdict, d.Name, strings.TrimPrefix(d.Reason, "kept: "))
	}
	p := res.Prefilter
	if p.Used {
		fmt.Fprintf(w, "pre-filter: %d candidates > threshold %d: %d offered (max(15, 5 x max_skills) = %d)\n", p.Before, p.Threshold, p.After, p.Keep)
	} else {
		fmt.Fprintf(w, "pre-filter: not needed (%d candidates <= threshold %d)\n", p.Before, p.Threshold)
	}
	method := "BM25"
	if p.Embeddings {
		method = "BM25 + re-rank by the hashing embedder, the offline fallback"
	}
	fmt.Fprintf(w, "\nranking (%s, %d matches):\n", method, len(res.Ranking))
	for i, r := range res.Ranking {
		if i == top {
			fmt.Fprintf(w, "  … %d more\n", len(res.Ranking)-top)
			break
		}
		if p.Embeddings {
			fmt.Fprintf(w, "  %2d. %-28s %-19s score %.3f (bm25 %.2f, cosine %.3f)  relevance %.2f\n", i+1, name[r.ID], kind[r.ID], r.Score, r.BM25, r.Embedding, r.Relevance)
		} else {
			fmt.Fprintf(w, "  %2d. %-28s %-19s bm25 %5.2f  relevance %.2f\n", i+1, name[r.ID], kind[r.ID], r.BM25, r.Relevance)
		}
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	fmt.Fprintf(w, "\nselection (method %s", res.Method)
	if res.Method == selection.MethodBM25 {
		fmt.Fprintf(w, ", score floor %.2f", res.Floor)
	}
	if res.Fallback != "" {
		fmt.Fprintf(w, "; fallback: %s", res.Fallback)
	}
	fmt.Fprintln(w, "):")
	if len(res.Selected) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, s := range res.Selected {
		fmt.Fprintf(w, "  %s  (%s, id %s)\n", s.Name, s.Kind, s.ID)
	}
	if len(res.BelowFloor) > 0 {
		relevance := map[string]float64{}
		for _, r := range res.Ranking {
			relevance[r.ID] = r.Relevance
		}
		below := make([]string, len(res.BelowFloor))
		for i, b := range res.BelowFloor {
			below[i] = fmt.Sprintf("%s (%.2f)", b.Name, relevance[b.ID])
		}
		fmt.Fprintf(w, "below the score floor: %s\n", strings.Join(below, ", "))
	}
}

// knowledgeTarget is a place whose skill directories are checked.
type knowledgeTarget struct {
	label string
	dirs  []skillDirRef
	// single marks a target that is itself one skill directory.
	single bool
}

// skillDirRef is one skill directory, on disk or embedded.
type skillDirRef struct {
	osDir   string // "" for embedded
	fsys    fs.FS
	display string
}

func (d skillDirRef) file() string {
	if d.osDir != "" {
		return filepath.Join(d.osDir, knowledge.SkillFile)
	}
	return d.display + "/" + knowledge.SkillFile
}

func (d skillDirRef) validate(opts knowledge.ValidateOptions) *knowledge.Report {
	if d.osDir != "" {
		return knowledge.ValidateDir(d.osDir, opts)
	}
	return knowledge.ValidateFS(d.fsys, d.display, opts)
}

// knowledgeTargets resolves lint and validate arguments: none means the
// embedded configuration.
func knowledgeTargets(args []string) ([]knowledgeTarget, error) {
	if len(args) == 0 {
		return []knowledgeTarget{embeddedTarget()}, nil
	}
	var out []knowledgeTarget
	for _, dir := range args {
		t, err := osTarget(dir)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func embeddedTarget() knowledgeTarget {
	t := knowledgeTarget{label: "config"}
	for _, d := range knowledge.SkillDirs(config.FS, "skills", false) {
		sub, err := fs.Sub(config.FS, d)
		if err != nil {
			continue
		}
		t.dirs = append(t.dirs, skillDirRef{fsys: sub, display: "config/" + d})
	}
	return t
}

func osTarget(dir string) (knowledgeTarget, error) {
	if err := checkConfigDir(dir); err != nil {
		return knowledgeTarget{}, err
	}
	dir = filepath.Clean(dir)
	t := knowledgeTarget{label: dir}
	if fi, err := os.Stat(filepath.Join(dir, knowledge.SkillFile)); err == nil && !fi.IsDir() {
		t.single = true
		t.dirs = []skillDirRef{{osDir: dir, display: dir}}
		return t, nil
	}
	base := "."
	if fi, err := os.Stat(filepath.Join(dir, "skills")); err == nil && fi.IsDir() {
		base = "skills"
	}
	for _, d := range knowledge.SkillDirs(os.DirFS(dir), base, false) {
		p := filepath.Join(dir, filepath.FromSlash(d))
		t.dirs = append(t.dirs, skillDirRef{osDir: p, display: p})
	}
	return t, nil
}

// nameSet is a set of executable skill names.
type nameSet map[string]bool

func (s nameSet) has(n string) bool { return s[n] }

// shippedSpecNames returns the names of the executable skills shipped in the
// binary.
func shippedSpecNames() nameSet {
	shippedOnce.Do(func() {
		specs, _ := skills.LoadDir(config.FS, "skills")
		for _, s := range specs {
			shippedNames[s.Name] = true
		}
	})
	out := nameSet{}
	for n := range shippedNames {
		out[n] = true
	}
	return out
}

// shippedNames caches shippedSpecNames: the binary's specs never change.
var (
	shippedOnce  sync.Once
	shippedNames = nameSet{}
)

// validateKnowledge validates the SKILL.md directories of a target and
// prints every problem, blocking safety flag and (when warn is set) warning. It returns the
// number of problems and the number of skill directories checked.
func validateKnowledge(e *env, t knowledgeTarget, known nameSet, tiersOpt knowledge.ValidateOptions, warn bool) (problems, n int) {
	tiersOpt.Known = known.has
	for _, d := range t.dirs {
		n++
		rep := d.validate(tiersOpt)
		for _, f := range rep.Findings {
			if warn && f.Severity == knowledge.SeverityWarn {
				fmt.Fprintf(e.stderr, "%s:%d: warning: %s: %s: %q\n", f.File, f.Line, f.Flag, f.Rule, f.Excerpt)
			}
		}
		if rep.OK() {
			continue
		}
		problems += printErrors(e.stderr, "", rep.Errors)
		blocked := rep.Blocked()
		for _, f := range blocked {
			fmt.Fprintf(e.stderr, "%s:%d: blocked: %s: %s: %q\n", f.File, f.Line, f.Flag, f.Rule, f.Excerpt)
			problems++
		}
		switch {
		case len(blocked) > 0:
			var flags []string
			for _, f := range blocked {
				flags = append(flags, fmt.Sprintf("%s (line %d)", f.Flag, f.Line))
			}
			fmt.Fprintf(e.stderr, "blocked skill %s (%s): %s\n", rep.Name, rep.Dir, strings.Join(flags, ", "))
			if len(rep.Errors) > 0 {
				fmt.Fprintf(e.stderr, "invalid skill %s (%s): %d problem(s)\n", rep.Name, rep.Dir, len(rep.Errors))
			}
		default:
			fmt.Fprintf(e.stderr, "invalid skill %s (%s): %d problem(s)\n", rep.Name, rep.Dir, len(rep.Errors))
		}
	}
	return problems, n
}
