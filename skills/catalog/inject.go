package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
)

// pathRules is seed 004's "Critical Rules" block, word for word where the
// seed gives the words, with the embedded-skill case this agent adds.
const pathRules = `### Critical Rules for Using Skills

> **Path Resolution Required for Skill Files**
>
> Skill instructions use relative paths (e.g., ` + "`./scripts/run.sh` or `scripts/run.sh`" + `) to refer to internal files.
> However, standard tools resolve relative paths against the User's Workspace, not the skill directory.
>
> When using ANY file from a skill, you MUST convert its path to ABSOLUTE:
> ` + "`Root Path` + `Relative Path` = `Absolute Path`" + `
>
> **Examples:**
>
> 1. Root Path: ` + "`/path/to/skill`" + `
>    Relative: ` + "`./scripts/run.sh`" + `
>    Result: ` + "`/path/to/skill/scripts/run.sh`" + `
>
> 2. Root Path: ` + "`/path/to/skill`" + `
>    Relative: ` + "`scripts/run.sh`" + `
>    Result: ` + "`/path/to/skill/scripts/run.sh`" + `
>
> Skills marked as embedded live inside the agent binary and have no files on disk: read their
> files with ` + "`read_skill_resource`" + ` (skill name + relative path) instead.
`

// Injection builds the system-prompt fragment of seed 004: the skill
// catalog (name, kind, tags, tier gating and description of every entry),
// the path-resolution rules, and — in preloaded mode — the full
// instructions of each preloaded skill with its root path. preload names
// skills (by name or id); an empty list is dynamic mode.
func (c *Catalog) Injection(entries []Entry, preload []string) (string, error) {
	var details []*knowledge.Loaded
	for _, name := range preload {
		l, err := c.LoadSkill(name)
		if err != nil {
			return "", fmt.Errorf("preloading %q: %w", name, err)
		}
		details = append(details, l)
	}
	var b strings.Builder
	b.WriteString("## Agent Skills\n\n### Skill Catalog\n\n")
	if len(entries) == 0 {
		b.WriteString("No skills are available.\n")
	}
	for _, e := range entries {
		b.WriteString(CatalogLine(e))
		b.WriteString("\n")
	}
	if len(details) > 0 {
		b.WriteString("\nTo load a skill not shown in detail below, use the `load_skill` tool.\n\n")
	} else {
		b.WriteString("\nTo read a skill's full instructions, use the `load_skill` tool with its name.\n\n")
	}
	b.WriteString(pathRules)
	if len(details) > 0 {
		b.WriteString("\n### Skill Details\n")
		for _, d := range details {
			fmt.Fprintf(&b, "\n#### %s\n\n", d.Name)
			if d.Root != "" {
				fmt.Fprintf(&b, "**Root Path:** `%s`", d.Root)
				if d.Embedded {
					b.WriteString(" (embedded)")
				}
				b.WriteString("\n\n")
			}
			b.WriteString(strings.TrimSpace(d.Body))
			b.WriteString("\n")
		}
	}
	return b.String(), nil
}

// CatalogLine renders one catalog entry as the injection lists it.
func CatalogLine(e Entry) string {
	var meta []string
	meta = append(meta, string(e.Kind))
	if len(e.Tags) > 0 {
		meta = append(meta, "tags: "+strings.Join(e.Tags, ", "))
	}
	if len(e.Tiers) > 0 {
		meta = append(meta, "tiers: "+strings.Join(e.Tiers, " | "))
	}
	if len(e.Uses) > 0 {
		meta = append(meta, "uses: "+strings.Join(e.Uses, ", "))
	}
	return fmt.Sprintf("- **%s** (%s): %s", e.Name, strings.Join(meta, "; "), oneLine(e.Description))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Preload resolves the configuration's preload list (seed 004's hybrid
// loading): an entry that is a path (absolute, or starting with ./ or ../,
// or containing a path separator) is registered as a skill directory with
// AddSkillDir (relative paths against base); any other entry is a skill
// name that must be in the catalog. It returns the names to inject.
func (c *Catalog) Preload(entries []string, base string) ([]string, error) {
	var names []string
	for _, p := range entries {
		if isPathEntry(p) {
			dir := p
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(base, dir)
			}
			if c.Library == nil {
				return nil, fmt.Errorf("preload %q: no knowledge library", p)
			}
			sk, err := c.Library.AddSkillDir(dir)
			if err != nil {
				return nil, fmt.Errorf("preload %q: %w", p, err)
			}
			names = append(names, sk.Name)
			continue
		}
		if _, ok := c.Lookup(p); !ok {
			return nil, fmt.Errorf("preload: %w %q", knowledge.ErrUnknownSkill, p)
		}
		names = append(names, p)
	}
	return names, nil
}

func isPathEntry(p string) bool {
	return filepath.IsAbs(p) || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") ||
		strings.ContainsRune(p, '/') || strings.ContainsRune(p, os.PathSeparator)
}
