package main

import (
	"errors"
	"strconv"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// skillsDescribeCommand is agent skills describe: one skill's full
// metadata, an executable skill (of a version with NAME@VERSION) or a
// knowledge skill.
type skillsDescribeCommand struct {
	cf      configFlags
	kf      knowledgeFlags
	asJSON  bool
	arg     string // NAME[@VERSION] as given
	name    string
	version int // 0: the active one
}

var _ subcommand = (*skillsDescribeCommand)(nil)

func (c *skillsDescribeCommand) parse(e *env, args []string) error {
	fs := newFlagSet(e, "skills describe", "skills describe NAME[@VERSION] [--json] [--config DIR] [--state FILE] [--skills-dir DIR] [--skills-config FILE]")
	c.cf.register(fs)
	c.kf.register(fs)
	fs.BoolVar(&c.asJSON, "json", false, "print the description as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("skills describe: expected one skill name, got %d arguments", len(pos))
	}
	c.arg = pos[0]
	return nil
}

func (c *skillsDescribeCommand) validate(*env) error {
	c.name = c.arg
	if n, v, ok := strings.Cut(c.arg, "@"); ok {
		version, err := strconv.Atoi(v)
		if err != nil || version < 1 {
			return usagef("skills describe: %q: version must be a positive integer", c.arg)
		}
		c.name, c.version = n, version
	}
	return nil
}

func (c *skillsDescribeCommand) run(e *env) error {
	cat, _, err := c.kf.catalog(e, &c.cf, registry.ActiveOnly)
	if err != nil {
		return err
	}
	reg := cat.Registry
	var sk *registry.Executable
	if c.version > 0 {
		sk, err = reg.GetSkillVersion(c.name, c.version)
	} else {
		sk, err = reg.GetSkill(c.name)
	}
	if errors.Is(err, registry.ErrUnknownSkill) && c.version == 0 {
		if ks, ok := cat.Library.Get(c.name); ok {
			if c.asJSON {
				return writeJSON(e.stdout, ks)
			}
			printKnowledge(e.stdout, ks)
			return nil
		}
	}
	if err != nil {
		if errors.Is(err, registry.ErrUnknownSkill) && c.version == 0 {
			known := append(reg.Names(), catalog.Names(catalog.Knowledge(cat.Entries()))...)
			return unknownName("skill", c.name, known)
		}
		if errors.Is(err, registry.ErrUnknownSkill) {
			return usagef("skills describe: %v", err) // no such version
		}
		return err
	}
	d := sk.Describe()
	if c.asJSON {
		return writeJSON(e.stdout, d)
	}
	printDescription(e.stdout, d)
	return nil
}
