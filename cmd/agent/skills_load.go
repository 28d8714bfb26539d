package main

import (
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// skillsLoadCommand is agent skills load: it prints exactly what the
// load_skill tool returns.
type skillsLoadCommand struct {
	cf     configFlags
	kf     knowledgeFlags
	asJSON bool
	name   string
}

var _ subcommand = (*skillsLoadCommand)(nil)

func (c *skillsLoadCommand) parse(e *env, args []string) error {
	fs := newFlagSet(e, "skills load", "skills load NAME [--json] [--config DIR] [--skills-dir DIR] [--skills-config FILE]")
	c.cf.register(fs)
	c.kf.register(fs)
	fs.BoolVar(&c.asJSON, "json", false, "print the loaded skill as JSON (name, id, kind, root, resources, body)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("skills load: expected one skill name, got %d arguments", len(pos))
	}
	c.name = pos[0]
	return nil
}

func (c *skillsLoadCommand) validate(*env) error { return nil }

func (c *skillsLoadCommand) run(e *env) error {
	cat, _, err := c.kf.catalog(e, &c.cf, registry.ActiveOnly)
	if err != nil {
		return err
	}
	if _, ok := cat.Lookup(c.name); !ok {
		return unknownName("skill", c.name, catalog.Names(cat.Entries()))
	}
	l, err := cat.LoadSkill(c.name)
	if err != nil {
		return err
	}
	if c.asJSON {
		return writeJSON(e.stdout, l)
	}
	_, err = fmt.Fprint(e.stdout, l.Text())
	return err
}
