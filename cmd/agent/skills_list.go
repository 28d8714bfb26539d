package main

import (
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// skillsListCommand is agent skills list: the skills planners can use,
// executable and knowledge, with their tiers and success rates.
type skillsListCommand struct {
	cf         configFlags
	kf         knowledgeFlags
	tech       string
	packList   string
	candidates bool
	kind       string
	asJSON     bool
}

var _ subcommand = (*skillsListCommand)(nil)

func (c *skillsListCommand) parse(e *env, args []string) error {
	fs := newFlagSet(e, "skills list", "skills list [--tech-state T] [--packs a,b] [--candidates] [--kind all|knowledge|executable] [--json] [--config DIR] [--state FILE] [--skills-dir DIR] [--skills-config FILE]")
	c.cf.register(fs)
	c.kf.register(fs)
	fs.StringVar(&c.tech, "tech-state", "", "show only skills usable at this tier: executable skills in active packs, knowledge skills whose tiers admit it")
	fs.StringVar(&c.packList, "packs", "", "comma-separated packs to enable with --tech-state (default: all packs)")
	fs.BoolVar(&c.candidates, "candidates", false, "show candidate versions in place of active ones where they exist")
	fs.StringVar(&c.kind, "kind", "all", "all, knowledge (SKILL.md skills) or executable (go and template skills)")
	fs.BoolVar(&c.asJSON, "json", false, "print the catalog as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	return noArgs("skills list", pos)
}

func (c *skillsListCommand) validate(*env) error {
	if c.packList != "" && c.tech == "" {
		return usagef("skills list: --packs needs --tech-state")
	}
	if c.kind != "all" && c.kind != "knowledge" && c.kind != "executable" {
		return usagef("skills list: --kind must be all, knowledge or executable, got %q", c.kind)
	}
	return nil
}

func (c *skillsListCommand) run(e *env) error {
	policy := registry.ActiveOnly
	if c.candidates {
		policy = registry.PreferCandidates
	}
	cat, _, err := c.kf.catalog(e, &c.cf, policy)
	if err != nil {
		return err
	}
	entries, err := catalogEntries(cat, c.tech, c.packList)
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) {
			return usagef("skills list: %v", err)
		}
		return err
	}
	var shown []listEntry
	for _, en := range entries {
		if (c.kind == "knowledge" && !en.Kind.Knowledge()) || (c.kind == "executable" && !en.Kind.Executable()) {
			continue
		}
		shown = append(shown, listEntry{Entry: en, Spec: en.Spec()})
	}
	if c.asJSON {
		if shown == nil {
			shown = []listEntry{}
		}
		return writeJSON(e.stdout, shown)
	}
	return printList(e.stdout, shown)
}

// printList prints the skills as a table.
func printList(w io.Writer, shown []listEntry) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
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
