package main

import (
	"fmt"
	"path/filepath"

	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
)

// skillsLintCommand is agent skills lint: it reports style issues in
// SKILL.md files: the shipped ones, or those under each DIR (a
// configuration root with skills/, a directory of skill directories, or one
// skill directory). Exit 1 when there are any.
type skillsLintCommand struct {
	dirs []string

	// Set by validate.
	targets []knowledgeTarget
}

var _ subcommand = (*skillsLintCommand)(nil)

func (c *skillsLintCommand) parse(e *env, args []string) error {
	pos, err := parseFlags(newFlagSet(e, "skills lint", "skills lint [DIR...]"), args)
	c.dirs = pos
	return err
}

func (c *skillsLintCommand) validate(*env) error {
	var err error
	c.targets, err = knowledgeTargets(c.dirs)
	return err
}

func (c *skillsLintCommand) run(e *env) error {
	known := shippedSpecNames()
	issues, skillsSeen := 0, 0
	for _, t := range c.targets {
		for _, d := range t.dirs {
			skillsSeen++
			rep := d.validate(knowledge.ValidateOptions{})
			if rep.Doc == nil {
				issues += printErrors(e.stderr, "", rep.Errors)
				continue
			}
			for _, is := range knowledge.Lint(filepath.ToSlash(d.file()), rep.Doc, rep.Resources, knowledge.LintOptions{Known: known.has}) {
				fmt.Fprintln(e.stderr, is)
				issues++
			}
		}
	}
	if issues > 0 {
		fmt.Fprintf(e.stderr, "%d style issue(s) in %d skill(s)\n", issues, skillsSeen)
		return &reportedError{fmt.Sprintf("%d style issues", issues)}
	}
	fmt.Fprintf(e.stdout, "%d skill(s): no style issues\n", skillsSeen)
	return nil
}
