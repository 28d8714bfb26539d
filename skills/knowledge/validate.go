package knowledge

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
)

// Report is the validation of one skill directory.
type Report struct {
	// Name is the directory name (the skill name when valid).
	Name string `json:"name"`
	// Dir is the directory as shown in messages.
	Dir string `json:"dir"`
	// Errors are the problems that make the skill invalid.
	Errors strictyaml.Errors `json:"errors,omitempty"`
	// Findings are the safety findings in SKILL.md and text resources.
	Findings []Finding `json:"findings,omitempty"`
	// Resources are the readable files.
	Resources []string `json:"resources,omitempty"`
	// Doc is the parsed SKILL.md (nil when it does not parse).
	Doc *Document `json:"-"`
}

// Blocked returns the blocking findings.
func (r *Report) Blocked() []Finding { return Blocking(r.Findings) }

// OK reports whether the skill is valid and not blocked.
func (r *Report) OK() bool { return len(r.Errors) == 0 && len(r.Blocked()) == 0 }

// ValidateOptions tune validation.
type ValidateOptions struct {
	// Tiers validates metadata.tiers and executable specs (nil = shipped).
	Tiers *rules.Tiers
	// Known reports whether an executable skill exists, for metadata.uses;
	// nil skips that check.
	Known func(name string) bool
	// SkipSpecs leaves executable specs in the directory unchecked, for
	// callers that load them with skills.LoadDir anyway.
	SkipSpecs bool
}

// ValidateDir validates an OS skill directory. Files are read through
// os.Root, so symlinks that leave the directory are reported, never
// followed.
func ValidateDir(dir string, opts ValidateOptions) *Report {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return &Report{Name: filepath.Base(dir), Dir: dir, Errors: strictyaml.Errors{{File: dir, Msg: err.Error()}}}
	}
	defer r.Close()
	return validate(&skillDir{fsys: r.FS(), root: r, display: dir}, opts)
}

// ValidateFS validates a skill directory of a read-only file system; fsys
// is rooted at the skill directory and display names it in messages.
func ValidateFS(fsys fs.FS, display string, opts ValidateOptions) *Report {
	return validate(&skillDir{fsys: fsys, display: display, embedded: true}, opts)
}

// validate checks the frontmatter fields and lengths, name = directory,
// resources that escape the directory, dead internal references, the
// executable skills named in metadata.uses, any executable spec carried in
// the directory, and runs the safety scan over SKILL.md and every text
// resource.
func validate(d *skillDir, opts ValidateOptions) *Report {
	name := path.Base(filepath.ToSlash(d.display))
	rep := &Report{Name: name, Dir: d.display}
	file := d.path(SkillFile)
	errf := func(file string, line int, field, format string, args ...any) {
		col := 0
		if line > 0 {
			col = 1
		}
		rep.Errors = append(rep.Errors, &strictyaml.Error{File: file, Line: line, Column: col, Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	data, err := readLimited(d.fsys, SkillFile, maxSkillFile)
	switch {
	case err != nil:
		errf(file, 0, "", "%s is missing or unreadable: %v", SkillFile, err)
		return rep
	case len(strings.TrimSpace(string(data))) == 0:
		errf(file, 0, "", "%s is empty", SkillFile)
		return rep
	}
	doc, err := ParseSkillMD(file, data, ParseOptions{Dir: name, Tiers: opts.Tiers})
	if err != nil {
		rep.Errors = append(rep.Errors, strictyaml.Flatten(file, err)...)
	}
	rep.Doc = doc
	rep.Findings = ScanText(file, 1, string(data))
	res, refused := listResources(d.fsys)
	rep.Resources = res
	for _, r := range refused {
		if r.escapes {
			errf(d.path(r.path), 0, "resources", "%s", r.reason)
		}
	}
	for _, r := range res {
		if IsSpecFile(name, r) && !strings.Contains(r, "/") && !opts.SkipSpecs {
			validateSpec(d, r, opts, rep)
		}
		b, err := readLimited(d.fsys, r, maxResourceSize)
		if err != nil || !isText(b) {
			continue
		}
		rep.Findings = append(rep.Findings, ScanText(d.path(r), 1, string(b))...)
	}
	body, bodyLine := "", 0
	if doc != nil {
		body, bodyLine = doc.Body, doc.BodyLine
	} else if sp, err := splitFrontmatter(bufio.NewReader(bytes.NewReader(data))); err == nil {
		// Broken frontmatter: still check the body, to report every
		// problem at once.
		rest, _ := io.ReadAll(sp.rest)
		body, bodyLine = string(rest), sp.bodyLine
	}
	for _, ref := range References(body, bodyLine) {
		if msg := checkReference(ref.Target, res); msg != "" {
			errf(file, ref.Line, "references", "%s", msg)
		}
	}
	if doc != nil {
		if opts.Known != nil {
			if opts.Known(doc.Name) {
				errf(file, 0, "name", "%q is also the name of an executable skill; the catalog would hold two skills of that name", doc.Name)
			}
			for _, u := range doc.Metadata.Uses {
				if !opts.Known(u) {
					errf(file, 0, "metadata.uses", "executable skill %q does not exist", u)
				}
			}
		}
	}
	rep.Errors.Sort()
	return rep
}

func validateSpec(d *skillDir, file string, opts ValidateOptions, rep *Report) {
	data, err := readLimited(d.fsys, file, maxResourceSize)
	if err != nil {
		rep.Errors = append(rep.Errors, &strictyaml.Error{File: d.path(file), Msg: err.Error()})
		return
	}
	if _, err := (skills.LoadOptions{Tiers: opts.Tiers}).ParseSpec(d.path(file), data); err != nil {
		rep.Errors = append(rep.Errors, strictyaml.Flatten(d.path(file), err)...)
	}
}

func readLimited(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", name, limit)
	}
	return data, nil
}

// Ref is a path a SKILL.md body refers to.
type Ref struct {
	Target string
	Line   int
}

var (
	linkRE     = regexp.MustCompile(`!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)\n]*)?\)`)
	codeSpanRE = regexp.MustCompile("`([^`\n]+)`")
	baseDirRE  = regexp.MustCompile(`\{baseDir\}/([^\s` + "`" + `'"()<>\[\]]+)`)
	pathLikeRE = regexp.MustCompile(`^(\./|\.\./|/|scripts/|references/|assets/)[^\s]*$`)
	schemeRE   = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.\-]*:`)
)

// References returns the internal paths a body refers to: relative
// markdown link targets, code spans that look like skill paths
// (./x, ../x, scripts/…, references/…, assets/…) and {baseDir}/… paths.
// firstLine is the file line of the body's first line.
func References(body string, firstLine int) []Ref {
	var out []Ref
	seen := map[string]bool{}
	add := func(target string, line int) {
		key := fmt.Sprintf("%d|%s", line, target)
		if target == "" || seen[key] {
			return
		}
		seen[key] = true
		out = append(out, Ref{Target: target, Line: line})
	}
	inFence := false
	for i, line := range strings.Split(body, "\n") {
		n := firstLine + i
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		for _, m := range baseDirRE.FindAllStringSubmatch(line, -1) {
			add(m[1], n)
		}
		if inFence {
			continue
		}
		for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
			t := m[1]
			if schemeRE.MatchString(t) || strings.HasPrefix(t, "#") {
				continue
			}
			if j := strings.IndexAny(t, "#?"); j >= 0 {
				t = t[:j]
			}
			if u, err := url.PathUnescape(t); err == nil {
				t = u
			}
			add(strings.TrimPrefix(t, BaseDirPlaceholder+"/"), n)
		}
		for _, m := range codeSpanRE.FindAllStringSubmatch(line, -1) {
			t := strings.TrimSpace(m[1])
			if strings.HasPrefix(t, BaseDirPlaceholder+"/") {
				continue // counted by baseDirRE
			}
			if pathLikeRE.MatchString(t) && !strings.ContainsAny(t, "*?<>{}$") {
				add(t, n)
			}
		}
	}
	return out
}

// checkReference returns why a referenced path is wrong, or "".
func checkReference(target string, resources []string) string {
	if strings.ContainsAny(target, "*?") {
		return ""
	}
	if path.IsAbs(target) || filepath.IsAbs(target) || (len(target) >= 2 && target[1] == ':') || strings.HasPrefix(target, "\\") {
		return fmt.Sprintf("reference %q is an absolute path; write it relative to the skill directory", target)
	}
	c := path.Clean(strings.ReplaceAll(target, "\\", "/"))
	if c == ".." || strings.HasPrefix(c, "../") {
		return fmt.Sprintf("reference %q escapes the skill directory", target)
	}
	if c == "." || c == SkillFile {
		return ""
	}
	if _, ok := slices.BinarySearch(resources, c); ok {
		return ""
	}
	for _, r := range resources {
		if strings.HasPrefix(r, c+"/") {
			return ""
		}
	}
	return fmt.Sprintf("dead reference %q: no such file in the skill directory", target)
}

// SkillDirs returns the skill directories under dir of fsys (the direct
// children holding SKILL.md, or deeper ones with recursive), sorted.
func SkillDirs(fsys fs.FS, dir string, recursive bool) []string {
	return findSkillDirs(fsys, dir, recursive, func(string, error) {})
}
