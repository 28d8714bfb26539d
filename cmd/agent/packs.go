package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// packsListCommand is agent packs list: the skill packs, their tier gates,
// dependencies, conflicts and skills.
type packsListCommand struct {
	cf     configFlags
	asJSON bool
}

var _ subcommand = (*packsListCommand)(nil)

func (c *packsListCommand) parse(e *env, args []string) error {
	fs := newFlagSet(e, "packs list", "packs list [--json] [--config DIR]")
	c.cf.register(fs)
	fs.BoolVar(&c.asJSON, "json", false, "print packs as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	return noArgs("packs list", pos)
}

func (c *packsListCommand) validate(*env) error { return nil }

func (c *packsListCommand) run(e *env) error {
	reg, err := c.cf.load(e, registry.ActiveOnly)
	if err != nil {
		return err
	}
	all := reg.Packs().All()
	if c.asJSON {
		return writeJSON(e.stdout, all)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PACK\tTIERS\tDEPENDS ON\tCONFLICTS\tSKILLS")
	for _, p := range all {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Name, p.RequiresTechState, orNone(p.DependsOn), orNone(p.ConflictsWith), strings.Join(p.Skills, ", "))
	}
	return tw.Flush()
}
