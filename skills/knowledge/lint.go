package knowledge

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// LintIssue is one style problem in a SKILL.md. Style issues never block a
// skill; `agent skills lint` reports them.
type LintIssue struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// String renders the issue as file:line: rule: message.
func (i LintIssue) String() string {
	if i.Line > 0 {
		return fmt.Sprintf("%s:%d: %s: %s", i.File, i.Line, i.Rule, i.Message)
	}
	return fmt.Sprintf("%s: %s: %s", i.File, i.Rule, i.Message)
}

// Lint thresholds.
const (
	MinDescriptionLen = 40
	MaxBodyLines      = 500
	MaxLineLen        = 300
	MinBodyLines      = 3
)

// LintRules names every rule Lint applies, for documentation and tests.
var LintRules = map[string]string{
	"missing-version":     "metadata.version is not set",
	"missing-tags":        "metadata.tags is empty",
	"missing-author":      "metadata.author is not set",
	"short-description":   fmt.Sprintf("the description is shorter than %d characters", MinDescriptionLen),
	"description-trigger": "the description does not say when to use the skill",
	"no-title":            "the body does not start with a '# ' title",
	"multiple-titles":     "the body has more than one '# ' title",
	"heading-skip":        "a heading jumps more than one level",
	"short-body":          fmt.Sprintf("the body has fewer than %d non-blank lines", MinBodyLines),
	"long-body":           fmt.Sprintf("the body is longer than %d lines; move details to references/", MaxBodyLines),
	"long-line":           fmt.Sprintf("a line is longer than %d characters", MaxLineLen),
	"trailing-whitespace": "a line ends in spaces or tabs",
	"todo-marker":         "the text holds TODO, FIXME, XXX or TBD",
	"unclosed-fence":      "a ``` code block is never closed",
	"unused-resource":     "a resource file is never mentioned in the body, so an agent cannot find it",
	"uses-not-mentioned":  "an executable skill in metadata.uses is never named in the body",
	"unlisted-executable": "the body names an executable skill that metadata.uses does not list",
}

var (
	headingRE = regexp.MustCompile(`^(#{1,6})\s+\S`)
	todoRE    = regexp.MustCompile(`\b(TODO|FIXME|XXX|TBD)\b`)
	triggerRE = regexp.MustCompile(`(?i)\b(when|use (it|this)|before|after|whenever|if you|for (any|every|a|an))\b`)
	spanRE    = regexp.MustCompile("`([a-z][a-z0-9_]*)`")
)

// LintOptions tune Lint.
type LintOptions struct {
	// Known reports whether a name is an executable skill; it enables the
	// unlisted-executable rule.
	Known func(name string) bool
}

// Lint reports style issues of a parsed SKILL.md. file names it in issues;
// resources are the skill's resource files.
func Lint(file string, doc *Document, resources []string, opts LintOptions) []LintIssue {
	var out []LintIssue
	add := func(line int, rule, format string, args ...any) {
		out = append(out, LintIssue{File: file, Line: line, Rule: rule, Message: fmt.Sprintf(format, args...)})
	}
	md := doc.Metadata
	if md.Version == "" {
		add(0, "missing-version", "add metadata.version (e.g. 1.0.0) so changes can be told apart")
	}
	if len(md.Tags) == 0 {
		add(0, "missing-tags", "add metadata.tags so catalogs can group the skill")
	}
	if md.Author == "" {
		add(0, "missing-author", "add metadata.author")
	}
	if n := utf8.RuneCountInString(doc.Description); n < MinDescriptionLen {
		add(0, "short-description", "the description has %d characters; say what the skill covers and when to use it", n)
	}
	if !triggerRE.MatchString(doc.Description) {
		add(0, "description-trigger", "say when to use the skill (\"Use when …\"): planners choose by the description alone")
	}

	lines := strings.Split(doc.Body, "\n")
	inFence, fenceLine := false, 0
	titles, lastLevel, nonBlank, firstContent := 0, 0, 0, ""
	for i, l := range lines {
		n := doc.BodyLine + i
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			fenceLine = n
		}
		if t != "" {
			nonBlank++
			if firstContent == "" {
				firstContent = t
			}
		}
		if strings.TrimRight(l, " \t") != l {
			add(n, "trailing-whitespace", "remove trailing whitespace")
		}
		if c := utf8.RuneCountInString(l); c > MaxLineLen {
			add(n, "long-line", "line is %d characters long; wrap it", c)
		}
		if todoRE.MatchString(l) {
			add(n, "todo-marker", "finish the text: %q", shorten(t, 60))
		}
		if inFence {
			continue
		}
		if m := headingRE.FindStringSubmatch(l); m != nil {
			level := len(m[1])
			if level == 1 {
				titles++
				if titles == 2 {
					add(n, "multiple-titles", "use one '# ' title; make this a '## ' section")
				}
			}
			if lastLevel > 0 && level > lastLevel+1 {
				add(n, "heading-skip", "heading level %d follows level %d", level, lastLevel)
			}
			lastLevel = level
		}
	}
	if inFence {
		add(fenceLine, "unclosed-fence", "close the code block")
	}
	if !strings.HasPrefix(firstContent, "# ") {
		add(doc.BodyLine, "no-title", "start the body with a '# ' title")
	}
	if nonBlank < MinBodyLines {
		add(doc.BodyLine, "short-body", "the body has %d non-blank lines; an agent loads a skill for its instructions", nonBlank)
	}
	if len(lines) > MaxBodyLines {
		add(doc.BodyLine+MaxBodyLines, "long-body", "the body has %d lines; keep SKILL.md under %d and move details to references/", len(lines), MaxBodyLines)
	}

	mentioned := map[string]bool{}
	for _, r := range References(doc.Body, doc.BodyLine) {
		mentioned[strings.TrimPrefix(r.Target, "./")] = true
	}
	for _, r := range resources {
		if IsSpecFile(doc.Name, r) && !strings.Contains(r, "/") {
			continue
		}
		if !mentioned[r] && !strings.Contains(doc.Body, r) {
			add(0, "unused-resource", "%s is never mentioned in the body", r)
		}
	}
	for _, u := range md.Uses {
		if !strings.Contains(doc.Body, u) {
			add(0, "uses-not-mentioned", "metadata.uses lists %s but the body never says when to use it", u)
		}
	}
	if opts.Known != nil {
		seen := map[string]bool{}
		for i, l := range lines {
			for _, m := range spanRE.FindAllStringSubmatch(l, -1) {
				name := m[1]
				if seen[name] || !strings.Contains(name, "_") || !opts.Known(name) || slices.Contains(md.Uses, name) || name == SpecName(doc.Name) {
					continue
				}
				seen[name] = true
				add(doc.BodyLine+i, "unlisted-executable", "the body names `%s`; list it in metadata.uses", name)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}
