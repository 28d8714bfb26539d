package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

func packsList(e *env, args []string) error {
	fs := newFlagSet(e, "packs list", "packs list [--json] [--config DIR]")
	var cf configFlags
	cf.register(fs)
	asJSON := fs.Bool("json", false, "print packs as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("packs list: unexpected argument %q", pos[0])
	}
	reg, err := cf.load(e, registry.ActiveOnly)
	if err != nil {
		return err
	}
	all := reg.Packs().All()
	if *asJSON {
		return writeJSON(e.stdout, all)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PACK\tTIERS\tDEPENDS ON\tCONFLICTS\tSKILLS")
	for _, p := range all {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Name, p.RequiresTechState, orNone(p.DependsOn), orNone(p.ConflictsWith), strings.Join(p.Skills, ", "))
	}
	return tw.Flush()
}
