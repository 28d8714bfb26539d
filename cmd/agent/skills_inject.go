package main

import (
	"fmt"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// skillsInjectCommand is agent skills inject: it prints the system-prompt
// injection: the catalog, the path rules and, in preloaded mode, the
// preloaded skills in full.
type skillsInjectCommand struct {
	cf       configFlags
	kf       knowledgeFlags
	preload  string
	tech     string
	packList string
}

var _ subcommand = (*skillsInjectCommand)(nil)

func (c *skillsInjectCommand) parse(e *env, args []string) error {
	fs := newFlagSet(e, "skills inject", "skills inject [--preload a,b] [--tech-state T] [--packs a,b] [--config DIR] [--skills-dir DIR] [--skills-config FILE]")
	c.cf.register(fs)
	c.kf.register(fs)
	fs.StringVar(&c.preload, "preload", "", "comma-separated skills (names or directories) to inject in full (default: the configuration's preload list; none = dynamic mode)")
	fs.StringVar(&c.tech, "tech-state", "", "list only the skills usable at this tier")
	fs.StringVar(&c.packList, "packs", "", "comma-separated packs to enable with --tech-state (default: all packs)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	return noArgs("skills inject", pos)
}

func (c *skillsInjectCommand) validate(*env) error { return nil }

func (c *skillsInjectCommand) run(e *env) error {
	cat, cfg, err := c.kf.catalog(e, &c.cf, registry.ActiveOnly)
	if err != nil {
		return err
	}
	list := cfg.Preload
	if c.preload != "" {
		list = splitList(c.preload)
	}
	for _, p := range list {
		if _, ok := cat.Lookup(p); !ok && !strings.ContainsAny(p, `/\`) {
			return unknownName("skill", p, catalog.Names(cat.Entries()))
		}
	}
	names, err := cat.Preload(list, cfg.Workspace)
	if err != nil {
		return err
	}
	entries, err := catalogEntries(cat, c.tech, c.packList)
	if err != nil {
		return err
	}
	text, err := cat.Injection(entries, names)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(e.stdout, text)
	return err
}
