package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

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

func printKnowledge(w io.Writer, s *knowledge.Doc) {
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
