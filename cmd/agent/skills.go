package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

func skillsList(e *env, args []string) error {
	fs := newFlagSet(e, "skills list", "skills list [--tech-state T] [--packs a,b] [--candidates] [--kind all|knowledge|executable] [--json] [--config DIR] [--state FILE] [--skills-dir DIR] [--skills-config FILE]")
	var cf configFlags
	var kf knowledgeFlags
	cf.register(fs)
	kf.register(fs)
	tech := fs.String("tech-state", "", "show only skills usable at this tier: executable skills in active packs, knowledge skills whose tiers admit it")
	packList := fs.String("packs", "", "comma-separated packs to enable with --tech-state (default: all packs)")
	candidates := fs.Bool("candidates", false, "show candidate versions in place of active ones where they exist")
	kind := fs.String("kind", "all", "all, knowledge (SKILL.md skills) or executable (go and template skills)")
	asJSON := fs.Bool("json", false, "print the catalog as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("skills list: unexpected argument %q", pos[0])
	}
	if *packList != "" && *tech == "" {
		return usagef("skills list: --packs needs --tech-state")
	}
	if *kind != "all" && *kind != "knowledge" && *kind != "executable" {
		return usagef("skills list: --kind must be all, knowledge or executable, got %q", *kind)
	}
	policy := registry.ActiveOnly
	if *candidates {
		policy = registry.PreferCandidates
	}
	cat, _, err := kf.catalog(e, &cf, policy)
	if err != nil {
		return err
	}
	entries, err := catalogEntries(cat, *tech, *packList)
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) {
			return usagef("skills list: %v", err)
		}
		return err
	}
	var shown []listEntry
	for _, en := range entries {
		if (*kind == "knowledge" && !en.Kind.Knowledge()) || (*kind == "executable" && !en.Kind.Executable()) {
			continue
		}
		shown = append(shown, listEntry{Entry: en, Spec: en.Spec()})
	}
	if *asJSON {
		if shown == nil {
			shown = []listEntry{}
		}
		return writeJSON(e.stdout, shown)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tVERSION\tSTATUS\tTIERS\tSUCCESS\tDESCRIPTION")
	for _, en := range shown {
		status, success := en.Source, "-"
		if d := en.Spec; d != nil {
			status, success = string(d.Status), rate(d.Metrics)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", en.Name, en.Kind, orDash(en.Version), status, orAny(en.Tiers), success, firstSentence(en.Description, 70))
	}
	return tw.Flush()
}

// listEntry is a catalog entry as `skills list --json` prints it: the
// unified fields, plus the full registry description of executable skills.
type listEntry struct {
	catalog.Entry
	Spec *registry.Description `json:"spec,omitempty"`
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func rate(m skills.Metrics) string {
	if m.SuccessRate == nil {
		return "-"
	}
	return fmt.Sprintf("%.0f%% (%d)", *m.SuccessRate*100, m.Samples)
}

func firstSentence(s string, max int) string {
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func skillsDescribe(e *env, args []string) error {
	fs := newFlagSet(e, "skills describe", "skills describe NAME[@VERSION] [--json] [--config DIR] [--state FILE] [--skills-dir DIR] [--skills-config FILE]")
	var cf configFlags
	var kf knowledgeFlags
	cf.register(fs)
	kf.register(fs)
	asJSON := fs.Bool("json", false, "print the description as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("skills describe: expected one skill name, got %d arguments", len(pos))
	}
	name, version := pos[0], 0
	if n, v, ok := strings.Cut(pos[0], "@"); ok {
		version, err = strconv.Atoi(v)
		if err != nil || version < 1 {
			return usagef("skills describe: %q: version must be a positive integer", pos[0])
		}
		name = n
	}
	cat, _, err := kf.catalog(e, &cf, registry.ActiveOnly)
	if err != nil {
		return err
	}
	reg := cat.Registry
	var sk *registry.Skill
	if version > 0 {
		sk, err = reg.GetSkillVersion(name, version)
	} else {
		sk, err = reg.GetSkill(name)
	}
	if errors.Is(err, registry.ErrUnknownSkill) && version == 0 {
		if ks, ok := cat.Library.Get(name); ok {
			if *asJSON {
				return writeJSON(e.stdout, ks)
			}
			printKnowledge(e.stdout, ks)
			return nil
		}
	}
	if err != nil {
		if errors.Is(err, registry.ErrUnknownSkill) && version == 0 {
			known := append(reg.Names(), catalog.Names(catalog.Knowledge(cat.Entries()))...)
			return unknownName("skill", name, known)
		}
		if errors.Is(err, registry.ErrUnknownSkill) {
			return usagef("skills describe: %v", err) // no such version
		}
		return err
	}
	d := sk.Describe()
	if *asJSON {
		return writeJSON(e.stdout, d)
	}
	printDescription(e.stdout, d)
	return nil
}

func printDescription(w io.Writer, d registry.Description) {
	fmt.Fprintf(w, "%s  (version %d, %s, %s, %s)\n\n", d.Name, d.Version, d.Status, d.Origin, d.Implementation)
	fmt.Fprintf(w, "%s\n\n", d.Description)
	if len(d.Params) > 0 {
		fmt.Fprintln(w, "Parameters:")
		for _, n := range d.ParamNames() {
			p := d.Params[n]
			fmt.Fprintf(w, "  %-14s %-9s %-16s %s\n", n, p.Type, p.DefaultText(), p.Description)
		}
		fmt.Fprintln(w)
	}
	pre := d.Preconditions
	fmt.Fprintln(w, "Preconditions:")
	fmt.Fprintf(w, "  tech states:    %s\n", orAny(pre.TechStatesAnyOf))
	fmt.Fprintf(w, "  dimensions:     %s\n", orAny(pre.DimensionAllowlist))
	var tools []string
	for _, t := range pre.RequiredTools {
		tools = append(tools, fmt.Sprintf("%s (durability >= %d)", t.ItemID, t.MinDurability))
	}
	fmt.Fprintf(w, "  tools:          %s\n", orNone(tools))
	fmt.Fprintf(w, "  nearby blocks:  %s\n", orAny(pre.SemanticTagsAnyOf))
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Effects:")
	keys := make([]string, 0, len(d.Effects.InventoryDelta))
	for k := range d.Effects.InventoryDelta {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b, _ := json.Marshal(d.Effects.InventoryDelta[k])
		fmt.Fprintf(w, "  inventory %s %s\n", k, b)
	}
	for _, l := range d.Effects.WorldEffectLines() {
		fmt.Fprintf(w, "  %s\n", l)
	}
	if t := d.Effects.TechDelta; t.ReachesTier != "" || len(t.Unlocks) > 0 {
		fmt.Fprintf(w, "  tech: reaches %s, unlocks %s\n", orNone([]string{t.ReachesTier}), orNone(t.Unlocks))
	}
	if len(d.Effects.Tags) > 0 {
		fmt.Fprintf(w, "  tags: %s\n", strings.Join(d.Effects.Tags, ", "))
	}
	fmt.Fprintln(w)
	emits := make([]string, len(d.Emits))
	for i, k := range d.Emits {
		emits[i] = string(k)
	}
	fmt.Fprintf(w, "Emits:    %s\n", strings.Join(emits, ", "))
	fmt.Fprintf(w, "Tags:     %s\n", orNone(d.Tags))
	fmt.Fprintf(w, "Success:  %s", rate(d.Metrics))
	if d.Metrics.AvgCost != nil {
		fmt.Fprintf(w, ", average cost %.1f", *d.Metrics.AvgCost)
	}
	fmt.Fprintln(w)
}

func printKnowledge(w io.Writer, s *knowledge.Skill) {
	md := s.Frontmatter.Metadata
	fmt.Fprintf(w, "%s  (knowledge skill, version %s, %s)\n\n", s.Name, orDash(md.Version), s.Source)
	fmt.Fprintf(w, "%s\n\n", s.Description)
	fmt.Fprintf(w, "ID:         %s (%s)\n", s.ID, s.IDFrom)
	fmt.Fprintf(w, "Root:       %s\n", s.Root)
	fmt.Fprintf(w, "Tiers:      %s\n", orAny(md.Tiers))
	fmt.Fprintf(w, "Tags:       %s\n", orNone(md.Tags))
	fmt.Fprintf(w, "Uses:       %s\n", orNone(md.Uses))
	fmt.Fprintf(w, "Resources:  %s\n", orNone(s.Resources))
	if len(s.Specs) > 0 {
		fmt.Fprintf(w, "Executable: %s (%s)\n", s.ExecutableName(), strings.Join(s.Specs, ", "))
	}
	if s.Frontmatter.License != "" {
		fmt.Fprintf(w, "License:    %s\n", s.Frontmatter.License)
	}
	if s.Frontmatter.Compatibility != "" {
		fmt.Fprintf(w, "Compatible: %s\n", s.Frontmatter.Compatibility)
	}
	for _, f := range s.Warnings {
		fmt.Fprintf(w, "Warning:    %s\n", f)
	}
}

func orAny(s []string) string {
	if len(s) == 0 {
		return "any"
	}
	return strings.Join(s, ", ")
}

func orNone(s []string) string {
	var kept []string
	for _, x := range s {
		if x != "" {
			kept = append(kept, x)
		}
	}
	if len(kept) == 0 {
		return "none"
	}
	return strings.Join(kept, ", ")
}

// skillsValidate checks configuration directories. A directory holding
// skills/ or skill_packs/ is a configuration root; a directory holding
// SKILL.md is one knowledge skill; any other directory is a directory of
// skill specs and skill directories. Go implementations are checked too:
// every active go spec needs one. SKILL.md directories are validated
// (fields, lengths, name = directory, resources escaping the directory,
// dead references, executable skills in metadata.uses) and safety-scanned.
// Every problem is printed, and every invalid or blocked skill named; exit
// status 1 if any.
func skillsValidate(e *env, args []string) error {
	flags := newFlagSet(e, "skills validate", "skills validate [DIR...]")
	pos, err := parseFlags(flags, args)
	if err != nil {
		return err
	}
	type target struct {
		fsys   fs.FS
		prefix string
		dir    string // as --config DIR takes it; "" for the shipped configuration
		kt     knowledgeTarget
	}
	var targets []target
	if len(pos) == 0 {
		targets = append(targets, target{config.FS, "config", "", embeddedTarget()})
	}
	for _, dir := range pos {
		if err := checkConfigDir(dir); err != nil {
			return err
		}
		kt, err := osTarget(dir)
		if err != nil {
			return usagef("skills validate: %v", err)
		}
		dir = filepath.Clean(dir)
		targets = append(targets, target{os.DirFS(dir), dir, dir, kt})
	}
	shipped := shippedSpecNames()
	problems := 0
	for _, t := range targets {
		n, summary, kskills := 0, "", 0
		switch {
		case t.kt.single:
			names := nameSet{}
			for k := range shipped {
				names[k] = true
			}
			n, kskills = validateKnowledge(e, t.kt, names, knowledge.ValidateOptions{}, true)
		case exists(t.fsys, "skills") || exists(t.fsys, "skill_packs"):
			// A configuration root: exactly what --config DIR loads.
			if t.dir != "" {
				if err := checkConfigRoot(t.dir); err != nil {
					fmt.Fprintln(e.stderr, err)
					n++
					break
				}
			}
			var reg *registry.Registry
			reg, n = checkConfig(e, t.dir, t.kt, registry.Options{}, true)
			if reg != nil {
				summary = configSummary(reg)
				if t.dir != "" && !ownTiers(t.dir) {
					summary += ", the shipped ones included"
				}
			}
			kskills = len(t.kt.dirs)
		default:
			var names nameSet
			var specs int
			n, summary, names, specs = validateOne(e, t.fsys, t.prefix)
			for k := range shipped {
				names[k] = true
			}
			var kn int
			kn, kskills = validateKnowledge(e, t.kt, names, knowledge.ValidateOptions{SkipSpecs: true}, true)
			n += kn
			if n == 0 && specs == 0 && kskills == 0 {
				fmt.Fprintf(e.stderr, "%s: no skill specs, skill packs or SKILL.md directories: not a configuration\n", t.prefix)
				n++
			}
		}
		problems += n
		if n == 0 {
			var parts []string
			if summary != "" {
				parts = append(parts, summary)
			}
			if kskills > 0 || summary == "" {
				parts = append(parts, fmt.Sprintf("%d knowledge skills", kskills))
			}
			fmt.Fprintf(e.stdout, "%s: ok (%s)\n", t.prefix, strings.Join(parts, ", "))
		}
	}
	if problems > 0 {
		fmt.Fprintf(e.stderr, "%d problem(s) found\n", problems)
		return &reportedError{fmt.Sprintf("%d problems", problems)}
	}
	return nil
}

// validateOne checks a directory of skill specs (not a configuration root:
// checkConfig checks those): the specs, and the registry's version and
// implementation rules. It returns the number of problems, a summary, the
// skill names and the number of spec versions.
func validateOne(e *env, fsys fs.FS, prefix string) (int, string, nameSet, int) {
	tiers, err := registry.ConfigTiers(fsys, nil)
	if err != nil {
		return printErrors(e.stderr, prefix, err), "", nameSet{}, 0
	}
	var errs strictyaml.Errors
	specs, err := skills.LoadOptions{Tiers: tiers}.LoadDir(fsys, ".")
	errs = append(errs, strictyaml.Flatten(".", err)...)
	reg, err := registry.New(specs, registry.Options{Tiers: tiers})
	if err != nil {
		errs = append(errs, strictyaml.Flatten("", err)...)
	} else {
		errs = append(errs, registerOwn(reg)...)
	}
	errs.Sort()
	n := printErrors(e.stderr, prefix, errs.Err())
	names := nameSet{}
	for _, s := range specs {
		names[s.Name] = true
	}
	return n, fmt.Sprintf("%d skills, %d spec versions, 0 packs", len(names), len(specs)), names, len(specs)
}

func exists(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && st.IsDir()
}
