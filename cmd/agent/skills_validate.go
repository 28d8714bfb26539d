package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// skillsValidateCommand is agent skills validate: it checks configuration
// directories. A directory holding skills/ or skill_packs/ is a
// configuration root; a directory holding SKILL.md is one knowledge skill;
// any other directory is a directory of skill specs and skill directories.
// Go implementations are checked too: every active go spec needs one.
// SKILL.md directories are validated (fields, lengths, name = directory,
// resources escaping the directory, dead references, executable skills in
// metadata.uses) and safety-scanned. Every problem is printed, and every
// invalid or blocked skill named; exit status 1 if any.
type skillsValidateCommand struct {
	dirs []string

	// Set by validate.
	targets []validateTarget
}

// validateTarget is one directory skills validate checks.
type validateTarget struct {
	fsys   fs.FS
	prefix string
	dir    string // as --config DIR takes it; "" for the shipped configuration
	kt     knowledgeTarget
}

var _ subcommand = (*skillsValidateCommand)(nil)

func (c *skillsValidateCommand) parse(e *env, args []string) error {
	pos, err := parseFlags(newFlagSet(e, "skills validate", "skills validate [DIR...]"), args)
	c.dirs = pos
	return err
}

// validate checks that each DIR is a directory and lists its skill
// directories; with none, the shipped configuration is checked.
func (c *skillsValidateCommand) validate(*env) error {
	if len(c.dirs) == 0 {
		c.targets = append(c.targets, validateTarget{config.FS, "config", "", embeddedTarget()})
	}
	for _, dir := range c.dirs {
		if err := checkConfigDir(dir); err != nil {
			return err
		}
		kt, err := osTarget(dir)
		if err != nil {
			return usagef("skills validate: %v", err)
		}
		dir = filepath.Clean(dir)
		c.targets = append(c.targets, validateTarget{os.DirFS(dir), dir, dir, kt})
	}
	return nil
}

func (c *skillsValidateCommand) run(e *env) error {
	shipped := shippedSpecNames()
	problems := 0
	for _, t := range c.targets {
		n, summary, kskills := t.check(e, shipped)
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

// check validates the target, printing every problem: it returns their
// number, a summary of what is valid and the number of knowledge skills.
func (t validateTarget) check(e *env, shipped nameSet) (n int, summary string, kskills int) {
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
				return 1, "", 0
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
	return n, summary, kskills
}
