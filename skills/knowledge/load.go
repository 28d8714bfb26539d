package knowledge

import (
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"time"
)

// BaseDirPlaceholder in a SKILL.md body is replaced by the skill's root path
// when the body is loaded.
const BaseDirPlaceholder = "{baseDir}"

// Loaded is what load_skill returns for one skill: its full instructions
// with {baseDir} resolved, and where its files are.
type Loaded struct {
	Name string `json:"name"`
	ID   string `json:"id"`
	Kind Kind   `json:"kind"`
	// Root is the skill directory (empty for executable skills, which have
	// none).
	Root string `json:"root,omitempty"`
	// Embedded is set when Root is inside the agent binary: files are read
	// with read_skill_resource, not from disk.
	Embedded  bool     `json:"embedded,omitempty"`
	Resources []string `json:"resources,omitempty"`
	// Executable names the executable skill a knowledge skill carries.
	Executable string `json:"executable,omitempty"`
	// Body is the markdown instructions.
	Body string `json:"body"`
}

// Text renders what the load_skill tool returns: a heading, the root path
// (the base for every relative path in the instructions), the resources
// and the body.
func (d *Loaded) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "### Skill: %s\n\n", d.Name)
	if d.Root != "" {
		fmt.Fprintf(&b, "**Root Path:** `%s`", d.Root)
		if d.Embedded {
			b.WriteString(" (embedded in the agent binary: read its files with `read_skill_resource`)")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "**Kind:** %s", d.Kind)
	if d.Executable != "" {
		fmt.Fprintf(&b, " (executable skill `%s`)", d.Executable)
	}
	b.WriteString("\n")
	if len(d.Resources) > 0 {
		quoted := make([]string, len(d.Resources))
		for i, r := range d.Resources {
			quoted[i] = "`" + r + "`"
		}
		fmt.Fprintf(&b, "**Resources:** %s\n", strings.Join(quoted, ", "))
	}
	b.WriteString("\n")
	b.WriteString(strings.TrimSpace(d.Body))
	b.WriteString("\n")
	return b.String()
}

// Load returns a skill's full instructions (load_skill for knowledge
// skills). The body is read on first use and cached; the cache is dropped
// when SKILL.md's modification time or size changes (an edit that keeps the
// size still moves the modification time), and when the file was modified
// too close to the last read for its time stamp to tell (then the bytes are
// compared), so edits made while the agent runs are picked up by the next
// Load. A reloaded file is parsed and
// scanned again: if it no longer parses the error says so and the cached
// version is kept; if it now trips a blocking safety flag the skill is
// removed from the library.
func (l *Library) Load(nameOrID string) (*Loaded, error) {
	e, err := l.lookup(nameOrID)
	if err != nil {
		return nil, err
	}
	body, sk, err := l.body(e)
	if err != nil {
		return nil, err
	}
	return &Loaded{
		Name: sk.Name, ID: sk.ID, Kind: KindKnowledge,
		Root: sk.Root, Embedded: sk.Embedded, Resources: sk.Resources,
		Executable: sk.ExecutableName(),
		Body:       strings.ReplaceAll(body, BaseDirPlaceholder, sk.Root),
	}, nil
}

// Body returns a skill's raw body (no placeholder resolved), loading it like
// Load. Rankers use it to index instructions.
func (l *Library) Body(nameOrID string) (string, error) {
	e, err := l.lookup(nameOrID)
	if err != nil {
		return "", err
	}
	body, _, err := l.body(e)
	return body, err
}

func (l *Library) body(e *entry) (string, *Doc, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	l.mu.RLock()
	sk := e.skill
	l.mu.RUnlock()
	d, err := l.open(e)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", sk.Root, err)
	}
	defer d.close()
	file := d.path(SkillFile)
	st, err := fs.Stat(d.fsys, SkillFile)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", file, err)
	}
	same := e.loaded && st.ModTime().Equal(e.mod) && st.Size() == e.size
	if same && !e.racy() {
		return e.body, sk, nil
	}
	f, err := d.fsys.Open(SkillFile)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", file, err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSkillFile+1))
	f.Close()
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(data) > maxSkillFile {
		return "", nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrInvalidSkill, file, maxSkillFile)
	}
	sum := sha256.Sum256(data)
	if same && sum == e.sum {
		// A racily clean file whose bytes did not change: once the
		// modification time is older than the window, stat alone decides.
		e.checked = time.Now()
		return e.body, sk, nil
	}
	dirName := path.Base(filepath.ToSlash(d.display))
	doc, err := ParseSkillMD(file, data, ParseOptions{Dir: dirName, Tiers: l.tiers})
	if err != nil {
		if e.loaded {
			return "", nil, fmt.Errorf("%w: %s changed and no longer parses (the previous version stays listed): %v", ErrInvalidSkill, file, describeErr(err))
		}
		return "", nil, fmt.Errorf("%w: %v", ErrInvalidSkill, describeErr(err))
	}
	findings := ScanText(file, 1, string(data))
	if b := Blocking(findings); len(b) > 0 {
		l.block(e, d.display, b)
		return "", nil, fmt.Errorf("%w: %s", ErrBlocked, Problem{Dir: d.display, Blocked: b})
	}
	if !reflect.DeepEqual(doc.Frontmatter, sk.Frontmatter) || !reflect.DeepEqual(findings, sk.Warnings) {
		fresh := *sk
		fresh.Frontmatter = doc.Frontmatter
		fresh.Description = doc.Description
		fresh.Warnings = findings
		l.mu.Lock()
		e.skill = &fresh
		l.mu.Unlock()
		sk = &fresh
	}
	e.body, e.loaded, e.mod, e.size = doc.Body, true, st.ModTime(), st.Size()
	e.sum, e.checked = sum, time.Now()
	return e.body, sk, nil
}

// racyWindow is how close to the moment the cache last read SKILL.md a
// modification time must be for stat to be untrustworthy: an edit within the
// same timestamp granule (1 s on ext3 and HFS+, 2 s on FAT) that keeps the
// size leaves both modification time and size as they were.
const racyWindow = 2 * time.Second

// racy reports whether the cached body may be stale although SKILL.md's
// modification time and size are unchanged (git's "racily clean" entries):
// the file was modified within racyWindow of the cache's last read, so the
// bytes are compared. Older files are trusted on modification time and size.
func (e *entry) racy() bool {
	return !e.mod.Before(e.checked.Add(-racyWindow))
}

// block removes a skill whose reloaded content trips a blocking flag.
func (l *Library) block(e *entry, dir string, findings []Finding) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := e.src
	for i, x := range s.entries {
		if x == e {
			s.entries = append(s.entries[:i:i], s.entries[i+1:]...)
			break
		}
	}
	p := Problem{Source: s.Label, Dir: dir, Blocked: findings}
	s.problems = append(s.problems, p)
	l.rebuildLocked()
	f := findings[0]
	l.log.Warn().Str("source", s.Label).Str("dir", dir).Str("flag", f.Flag).Int("line", f.Line).
		Msgf("blocked skill removed after an edit: %s", p)
}
