package knowledge

import (
	"bufio"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

// Errors returned by the library; test with errors.Is.
var (
	ErrUnknownSkill  = errors.New("unknown skill")
	ErrBlocked       = errors.New("skill is blocked by the safety scan")
	ErrRefused       = errors.New("resource refused")
	ErrInvalidSource = errors.New("invalid skill source")
	ErrInvalidSkill  = errors.New("invalid skill")
)

// Source labels used by the agent.
const (
	LabelShipped = "shipped"
	LabelCustom  = "custom"
	LabelExtra   = "extra"
)

// MaxDepth bounds how deep a recursive source is searched for skill
// directories.
const MaxDepth = 4

// Limits that keep a hostile skill directory from costing much.
const (
	maxResources    = 1000
	maxResourceSize = 4 << 20
	maxSkillFile    = 4 << 20
)

// Source is a place skills are discovered in: an OS directory (Dir) or a
// directory of a read-only file system (FS and FSDir), either holding skill
// directories or, with Single, being one.
type Source struct {
	// Label names the source in catalogs and warnings ("shipped", "custom").
	Label string
	// Dir is an OS directory; relative paths are made absolute.
	Dir string
	// FS is a read-only file system, such as the configuration embedded in
	// the binary; FSDir is the directory inside it ("." for its root).
	FS    fs.FS
	FSDir string
	// Display is how FS paths are shown ("config/skills"); default FSDir.
	Display string
	// ReadOnly stops the library writing .skill_id sidecars: ids are then
	// derived from the skill's name and metadata.version. FS sources are
	// always read-only.
	ReadOnly bool
	// Recursive also searches subdirectories that are not skills, up to
	// MaxDepth levels, for skill directories.
	Recursive bool
	// Single marks Dir (or FSDir) as one skill directory.
	Single bool
}

func (s Source) key() string {
	if s.FS != nil {
		return fmt.Sprintf("fs:%p:%s:%v", s.FS, s.FSDir, s.Single)
	}
	return fmt.Sprintf("dir:%s:%v", s.Dir, s.Single)
}

// where is the source's location for messages.
func (s Source) where() string {
	if s.FS != nil {
		return s.Display
	}
	return s.Dir
}

// Doc is a discovered SKILL.md skill: what discovery learned from its
// frontmatter and its directory listing. A Doc is never modified; a
// reload replaces it.
type Doc struct {
	// ID is the persistent identity (see Library).
	ID string `json:"id"`
	// IDFrom says where the id came from: "sidecar" (.skill_id, written on
	// first discovery) or "derived" (name and metadata.version, for
	// read-only sources).
	IDFrom string `json:"id_from"`
	Name   string `json:"name"`
	// Description is the frontmatter description.
	Description string      `json:"description"`
	Frontmatter Frontmatter `json:"frontmatter"`
	// Source is the label of the source the skill came from.
	Source string `json:"source"`
	// Root is the skill directory: an absolute OS path, or for skills in a
	// read-only file system, its display path (see Embedded).
	Root string `json:"root"`
	// Embedded is set for skills served from a read-only file system: they
	// have no OS path and their files are read with ReadResource.
	Embedded bool `json:"embedded,omitempty"`
	// Resources are the readable files (slash paths relative to Root,
	// sorted), SKILL.md and hidden files excluded.
	Resources []string `json:"resources"`
	// Specs are the executable spec files among Resources
	// (<spec_name>.yaml, see SpecName).
	Specs []string `json:"specs,omitempty"`
	// Refused lists files left out of Resources because they escape the
	// directory (symlinks leaving it, absolute symlinks), with the reason.
	Refused []string `json:"refused,omitempty"`
	// Warnings are non-blocking safety findings.
	Warnings []Finding `json:"warnings,omitempty"`
}

// File is the path of the skill's SKILL.md.
func (s *Doc) File() string { return joinRoot(s.Root, SkillFile, s.Embedded) }

// ExecutableName is the name of the skill's executable spec ("" when the
// directory carries none).
func (s *Doc) ExecutableName() string {
	if len(s.Specs) == 0 {
		return ""
	}
	return SpecName(s.Name)
}

func joinRoot(root, rel string, embedded bool) string {
	if embedded {
		return path.Join(root, rel)
	}
	return filepath.Join(root, filepath.FromSlash(rel))
}

// Problem is a skill directory that discovery skipped.
type Problem struct {
	Source string `json:"source"`
	// Dir is the skill directory.
	Dir string `json:"dir"`
	// Err says why the skill is broken (nil when it is blocked).
	Err error `json:"-"`
	// Blocked lists the blocking safety findings.
	Blocked []Finding `json:"blocked,omitempty"`
}

// String says which directory was skipped and why, on one line.
func (p Problem) String() string {
	if len(p.Blocked) > 0 {
		parts := make([]string, len(p.Blocked))
		for i, f := range p.Blocked {
			parts[i] = fmt.Sprintf("%s at line %d (%s: %q)", f.Flag, f.Line, f.Rule, f.Excerpt)
		}
		return fmt.Sprintf("%s: blocked: %s", p.Dir, strings.Join(parts, "; "))
	}
	return fmt.Sprintf("%s: %v", p.Dir, describeErr(p.Err))
}

// Options configure a Library.
type Options struct {
	// Logger receives warnings (overrides, broken and blocked skills).
	Logger zerolog.Logger
	// Tiers validates metadata.tiers (nil = the shipped tier table).
	Tiers *rules.Tiers
}

// Library discovers SKILL.md skills in ordered sources and serves them.
//
// Precedence: sources are ranked in the order they were added (the shipped
// source first, then custom directories, then directories registered at
// run time). When two sources hold a skill of the same name, the later one
// wins and a warning names both paths. Within one source the first
// directory in path order wins.
//
// Identity: a skill in a writable directory gets a .skill_id sidecar on first
// discovery ("<name>__imp_<8 hex>", the seed's import format) and keeps that
// id afterwards, wherever the directory is moved. Skills in read-only
// sources (the configuration embedded in the binary) cannot carry a sidecar;
// their id is derived from the name and metadata.version
// ("<name>__ro_<8 hex>"), so it is stable across runs and machines and
// changes when the author bumps the version — the point at which learned
// quality should start afresh.
//
// A Library is safe for concurrent use.
type Library struct {
	log   zerolog.Logger
	tiers *rules.Tiers

	mu      sync.RWMutex
	sources []*source
	active  map[string]*entry // by name
	byID    map[string]*entry
	names   []string // sorted
	warned  map[string]bool
	loaded  uint64 // the Stamp the sources were read at (Loaded)
}

type source struct {
	Source
	entries  []*entry
	problems []Problem
}

// entry is one discovered skill. skill is guarded by Library.mu; the body
// cache by entry.mu.
type entry struct {
	skill *Doc
	src   *source
	dir   string // OS: absolute directory; FS: path inside src.FS

	mu     sync.Mutex
	body   string
	loaded bool
	mod    time.Time
	size   int64
	// sum is the SHA-256 of the cached SKILL.md, checked the last time
	// its bytes were read (see entry.racy).
	sum     [sha256.Size]byte
	checked time.Time
}

// New returns an empty library.
func New(opts Options) *Library {
	t := opts.Tiers
	if t == nil {
		t = rules.Default().Tiers
	}
	return &Library{
		log:    opts.Logger.With().Str("component", "knowledge").Logger(),
		tiers:  t,
		active: map[string]*entry{},
		byID:   map[string]*entry{},
		warned: map[string]bool{},
	}
}

func (src Source) normalized() (Source, error) {
	switch {
	case src.FS != nil && src.Dir != "":
		return src, fmt.Errorf("%w: give Dir or FS, not both", ErrInvalidSource)
	case src.FS == nil && src.Dir == "":
		return src, fmt.Errorf("%w: give Dir or FS", ErrInvalidSource)
	}
	if src.Label == "" {
		src.Label = LabelCustom
	}
	if src.FS != nil {
		src.ReadOnly = true
		if src.FSDir == "" {
			src.FSDir = "."
		}
		src.FSDir = path.Clean(src.FSDir)
		if !fs.ValidPath(src.FSDir) {
			return src, fmt.Errorf("%w: %q is not a valid path in the file system", ErrInvalidSource, src.FSDir)
		}
		if src.Display == "" {
			src.Display = src.FSDir
		}
		return src, nil
	}
	abs, err := filepath.Abs(src.Dir)
	if err != nil {
		return src, fmt.Errorf("%w: %v", ErrInvalidSource, err)
	}
	src.Dir = abs
	return src, nil
}

// Add registers a source (or re-scans it when it is already registered) and
// discovers its skills. It returns the skills of that source that are
// active afterwards (not overridden by a later source). A missing directory
// gives no skills and no error; broken and blocked skills are skipped with a
// warning (see Problems). Add may be called at any time, concurrently with
// every other method: this is the hot registration of extra directories.
func (l *Library) Add(src Source) ([]*Doc, error) {
	src, err := src.normalized()
	if err != nil {
		return nil, err
	}
	s := &source{Source: src}
	// The stamp of the sources as they will be, before they are read.
	l.mu.RLock()
	var after []Source
	replaced := false
	for _, old := range l.sources {
		if old.key() == src.key() {
			after, replaced = append(after, src), true
			continue
		}
		after = append(after, old.Source)
	}
	l.mu.RUnlock()
	if !replaced {
		after = append(after, src)
	}
	stamp := stampOf(after)
	l.discover(s)
	l.mu.Lock()
	defer l.mu.Unlock()
	replaced = false
	for i, old := range l.sources {
		if old.key() == src.key() {
			l.sources[i] = s
			replaced = true
			break
		}
	}
	if !replaced {
		l.sources = append(l.sources, s)
	}
	l.loaded = stamp
	l.rebuildLocked()
	var out []*Doc
	for _, e := range s.entries {
		if l.active[e.skill.Name] == e {
			out = append(out, e.skill)
		}
	}
	return out, nil
}

// AddDir hot-registers a directory of skill directories (label "extra").
func (l *Library) AddDir(dir string) ([]*Doc, error) {
	return l.Add(Source{Label: LabelExtra, Dir: dir})
}

// AddSkillDir hot-registers one skill directory (label "extra") and returns
// the skill, or an error saying why it could not be registered (broken,
// blocked, or missing).
func (l *Library) AddSkillDir(dir string) (*Doc, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidSource, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%w: %s is not a directory", ErrInvalidSource, dir)
	}
	added, err := l.Add(Source{Label: LabelExtra, Dir: dir, Single: true})
	if err != nil {
		return nil, err
	}
	if len(added) == 1 {
		return added[0], nil
	}
	abs, _ := filepath.Abs(dir)
	for _, p := range l.Problems() {
		if p.Dir == abs {
			if len(p.Blocked) > 0 {
				return nil, fmt.Errorf("%w: %s", ErrBlocked, p)
			}
			return nil, fmt.Errorf("%w: %s", ErrInvalidSkill, p)
		}
	}
	return nil, fmt.Errorf("%w: %s holds no %s", ErrInvalidSkill, dir, SkillFile)
}

// Refresh re-scans every source, picking up added, removed and edited
// skill directories.
func (l *Library) Refresh() {
	l.mu.RLock()
	srcs := make([]Source, len(l.sources))
	for i, s := range l.sources {
		srcs[i] = s.Source
	}
	l.mu.RUnlock()
	stamp := stampOf(srcs) // before reading: see Loaded
	fresh := make([]*source, len(srcs))
	for i, src := range srcs {
		fresh[i] = &source{Source: src}
		l.discover(fresh[i])
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.loaded = stamp
	for _, f := range fresh {
		for i, old := range l.sources {
			if old.key() == f.key() {
				l.sources[i] = f
			}
		}
	}
	l.rebuildLocked()
}

// rebuildLocked applies precedence over every source's entries. Callers
// hold l.mu for writing.
func (l *Library) rebuildLocked() {
	active := map[string]*entry{}
	for _, s := range l.sources {
		for _, e := range s.entries {
			name := e.skill.Name
			prev, ok := active[name]
			if ok && prev.src == s {
				l.warnOnce("dup|"+e.skill.Root, func() {
					l.log.Warn().Str("skill", name).Str("kept", prev.skill.Root).Str("ignored", e.skill.Root).
						Msgf("two directories of the %s source hold skill %q; keeping %s", s.Label, name, prev.skill.Root)
				})
				continue
			}
			if ok {
				l.warnOnce("override|"+prev.skill.Root+"|"+e.skill.Root, func() {
					l.log.Warn().Str("skill", name).Str("overrides", prev.skill.Root).Str("by", e.skill.Root).
						Msgf("%s skill %q at %s overrides %s skill at %s", s.Label, name, e.skill.Root, prev.src.Label, prev.skill.Root)
				})
			}
			active[name] = e
		}
	}
	l.active = active
	l.names = l.names[:0]
	for n := range active {
		l.names = append(l.names, n)
	}
	sort.Strings(l.names)
	l.byID = map[string]*entry{}
	for _, n := range l.names {
		e := active[n]
		if other, dup := l.byID[e.skill.ID]; dup {
			// A copied directory kept its sidecar: give the copy a
			// distinct id for this run rather than merge two skills.
			fixed := *e.skill
			fixed.ID = derivedID(fixed.Name, fixed.Frontmatter.Metadata.Version+"|"+fixed.Root)
			fixed.IDFrom = "derived"
			l.warnOnce("id|"+e.skill.Root, func() {
				l.log.Warn().Str("skill", n).Str("id", e.skill.ID).Str("also", other.skill.Root).
					Msgf("skill %q at %s has the same .skill_id as %s; using %s for this run (delete the copied .skill_id to fix)", n, e.skill.Root, other.skill.Root, fixed.ID)
			})
			e.skill = &fixed
		}
		l.byID[e.skill.ID] = e
	}
}

func (l *Library) warnOnce(key string, f func()) {
	if l.warned[key] {
		return
	}
	l.warned[key] = true
	f()
}

// Skills returns the active skills, sorted by name.
func (l *Library) Skills() []*Doc {
	l.mu.RLock()
	defer l.mu.RUnlock()
	out := make([]*Doc, len(l.names))
	for i, n := range l.names {
		out[i] = l.active[n].skill
	}
	return out
}

// Get returns the active skill of that name, or of that id.
func (l *Library) Get(nameOrID string) (*Doc, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if e := l.lookupLocked(nameOrID); e != nil {
		return e.skill, true
	}
	return nil, false
}

func (l *Library) lookupLocked(nameOrID string) *entry {
	if e, ok := l.active[nameOrID]; ok {
		return e
	}
	return l.byID[nameOrID]
}

func (l *Library) lookup(nameOrID string) (*entry, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if e := l.lookupLocked(nameOrID); e != nil {
		return e, nil
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownSkill, nameOrID)
}

// Problems returns the skill directories the last discovery of each source
// skipped, broken or blocked, in source order.
func (l *Library) Problems() []Problem {
	l.mu.RLock()
	defer l.mu.RUnlock()
	var out []Problem
	for _, s := range l.sources {
		out = append(out, s.problems...)
	}
	return out
}

// SourceInfo describes a registered source.
type SourceInfo struct {
	Label    string `json:"label"`
	Path     string `json:"path"`
	ReadOnly bool   `json:"read_only"`
	Skills   int    `json:"skills"`
}

// Sources lists the registered sources in precedence order (lowest first).
func (l *Library) Sources() []SourceInfo {
	l.mu.RLock()
	defer l.mu.RUnlock()
	out := make([]SourceInfo, len(l.sources))
	for i, s := range l.sources {
		out[i] = SourceInfo{Label: s.Label, Path: s.where(), ReadOnly: s.ReadOnly, Skills: len(s.entries)}
	}
	return out
}

// discover scans one source, filling s.entries and s.problems. It does not
// touch the library's state.
func (l *Library) discover(s *source) {
	var listing fs.FS
	base := "."
	if s.FS != nil {
		listing, base = s.FS, s.FSDir
	} else {
		listing = os.DirFS(s.Dir)
	}
	var dirs []string
	if s.Single {
		dirs = []string{base}
	} else {
		dirs = findSkillDirs(listing, base, s.Recursive, func(p string, err error) {
			l.log.Debug().Err(err).Str("dir", p).Msg("skill directory not readable; skipped")
		})
	}
	for _, d := range dirs {
		var e *entry
		var prob *Problem
		if s.FS != nil {
			e, prob = l.discoverFS(s, d)
		} else {
			e, prob = l.discoverOS(s, filepath.Join(s.Dir, filepath.FromSlash(d)))
		}
		if prob != nil {
			s.problems = append(s.problems, *prob)
			ev := l.log.Warn().Str("source", s.Label).Str("dir", prob.Dir)
			if len(prob.Blocked) > 0 {
				f := prob.Blocked[0]
				ev.Str("flag", f.Flag).Int("line", f.Line).Msgf("blocked skill skipped: %s", prob)
			} else {
				ev.Msgf("broken skill skipped: %s", prob)
			}
			continue
		}
		s.entries = append(s.entries, e)
	}
}

// findSkillDirs returns the skill directories (those holding SKILL.md) under
// base, sorted by path. Hidden directories are skipped; without recursive
// only base's children are looked at. Symlinked directories count as skill
// directories but are never descended into.
func findSkillDirs(fsys fs.FS, base string, recursive bool, onErr func(string, error)) []string {
	var out []string
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				onErr(dir, err)
			}
			return
		}
		for _, de := range entries {
			name := de.Name()
			if strings.HasPrefix(name, ".") {
				continue
			}
			p := path.Join(dir, name)
			isLink := de.Type()&fs.ModeSymlink != 0
			if isLink {
				st, err := fs.Stat(fsys, p)
				if err != nil || !st.IsDir() {
					continue
				}
			} else if !de.IsDir() {
				continue
			}
			if st, err := fs.Stat(fsys, path.Join(p, SkillFile)); err == nil && !st.IsDir() {
				out = append(out, p)
				continue
			}
			if recursive && !isLink && depth < MaxDepth {
				walk(p, depth+1)
			}
		}
	}
	walk(base, 1)
	sort.Strings(out)
	return out
}

// skillDir is one opened skill directory: a file system rooted at it that
// cannot be escaped (os.Root for OS directories), and how to show paths.
type skillDir struct {
	fsys     fs.FS
	root     *os.Root // nil for read-only file systems
	display  string   // the directory as shown
	embedded bool
}

func (d *skillDir) close() {
	if d.root != nil {
		d.root.Close()
	}
}

func (d *skillDir) path(rel string) string { return joinRoot(d.display, rel, d.embedded) }

func openOS(dir string) (*skillDir, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &skillDir{fsys: r.FS(), root: r, display: dir}, nil
}

func openFS(s *source, dir string) (*skillDir, error) {
	sub, err := fs.Sub(s.FS, dir)
	if err != nil {
		return nil, err
	}
	rel := dir
	switch {
	case s.Single:
		rel = ""
	case s.FSDir != ".":
		rel = strings.TrimPrefix(dir, s.FSDir+"/")
	}
	return &skillDir{fsys: sub, display: path.Join(s.Display, rel), embedded: true}, nil
}

func (l *Library) discoverOS(s *source, dir string) (*entry, *Problem) {
	d, err := openOS(dir)
	if err != nil {
		return nil, &Problem{Source: s.Label, Dir: dir, Err: err}
	}
	defer d.close()
	return l.discoverIn(s, d, dir)
}

func (l *Library) discoverFS(s *source, dir string) (*entry, *Problem) {
	d, err := openFS(s, dir)
	if err != nil {
		return nil, &Problem{Source: s.Label, Dir: path.Join(s.Display, dir), Err: err}
	}
	defer d.close()
	return l.discoverIn(s, d, dir)
}

// discoverIn reads the frontmatter of one skill, streams the rest of the
// file through the safety scan without keeping it, lists the resources and
// settles the id.
func (l *Library) discoverIn(s *source, d *skillDir, dir string) (*entry, *Problem) {
	problem := func(err error) (*entry, *Problem) {
		return nil, &Problem{Source: s.Label, Dir: d.display, Err: err}
	}
	file := d.path(SkillFile)
	f, err := d.fsys.Open(SkillFile)
	if err != nil {
		return problem(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return problem(err)
	}
	if !st.Mode().IsRegular() {
		return problem(fmt.Errorf("%s is not a regular file", file))
	}
	if st.Size() > maxSkillFile {
		return problem(fmt.Errorf("%s is larger than %d bytes", file, maxSkillFile))
	}
	dirName := path.Base(filepath.ToSlash(d.display))
	sp, err := splitFrontmatter(bufio.NewReader(f))
	if err != nil {
		return problem(locate(file, err))
	}
	fm, err := parseFrontmatter(file, sp.yaml, sp.yamlLine, ParseOptions{Dir: dirName, Tiers: l.tiers})
	if err != nil {
		return problem(err)
	}
	findings := ScanText(file, sp.yamlLine, string(sp.yaml))
	more, err := ScanReader(file, sp.bodyLine, sp.rest)
	if err != nil {
		return problem(err)
	}
	findings = append(findings, more...)
	if b := Blocking(findings); len(b) > 0 {
		return nil, &Problem{Source: s.Label, Dir: d.display, Blocked: b}
	}
	res, refused := listResources(d.fsys)
	sk := &Doc{
		Name: fm.Name, Description: fm.Description, Frontmatter: *fm,
		Source: s.Label, Root: d.display, Embedded: d.embedded,
		Resources: res, Warnings: findings,
	}
	for _, r := range refused {
		sk.Refused = append(sk.Refused, r.String())
	}
	for _, r := range res {
		if !strings.Contains(r, "/") && IsSpecFile(fm.Name, r) {
			sk.Specs = append(sk.Specs, r)
		}
	}
	sk.ID, sk.IDFrom = l.settleID(s, d, fm)
	return &entry{skill: sk, src: s, dir: dir, mod: st.ModTime(), size: st.Size()}, nil
}

var idRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:@\-]{0,127}$`)

// derivedID is the id of a skill that cannot carry a sidecar.
func derivedID(name, version string) string {
	sum := sha256.Sum256([]byte("gtnh-agent/skill-id\x00" + name + "\x00" + version))
	return name + "__ro_" + hex.EncodeToString(sum[:4])
}

// settleID reads the .skill_id sidecar, or writes one on first discovery.
// Read-only sources, and writable ones whose sidecar cannot be written,
// get the derived id.
func (l *Library) settleID(s *source, d *skillDir, fm *Frontmatter) (string, string) {
	derived := derivedID(fm.Name, fm.Metadata.Version)
	if s.ReadOnly || d.root == nil {
		return derived, "derived"
	}
	read := func() (string, bool) {
		data, err := d.root.ReadFile(IDFile)
		if err != nil {
			return "", false
		}
		id := strings.TrimSpace(string(data))
		if id == "" {
			return "", false
		}
		if !idRE.MatchString(id) {
			l.log.Warn().Str("skill", fm.Name).Str("file", d.path(IDFile)).
				Msgf("%s holds an invalid id; using %s for this run", d.path(IDFile), derived)
			return derived, true
		}
		return id, true
	}
	if id, ok := read(); ok {
		if id == derived {
			return id, "derived"
		}
		return id, "sidecar"
	}
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return derived, "derived"
	}
	id := fm.Name + "__imp_" + hex.EncodeToString(b[:])
	// An empty sidecar is replaced; otherwise O_EXCL makes the first of two
	// concurrent discoveries win and the other read its id.
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if st, err := d.root.Lstat(IDFile); err == nil && st.Mode().IsRegular() {
		flags = os.O_WRONLY | os.O_TRUNC
	}
	f, err := d.root.OpenFile(IDFile, flags, 0o644)
	if errors.Is(err, fs.ErrExist) {
		if id, ok := read(); ok {
			return id, "sidecar"
		}
	}
	if err != nil {
		l.log.Warn().Err(err).Str("skill", fm.Name).Str("file", d.path(IDFile)).
			Msgf("cannot write %s; the skill keeps the derived id %s", d.path(IDFile), derived)
		return derived, "derived"
	}
	_, werr := io.WriteString(f, id+"\n")
	cerr := f.Close()
	if werr != nil || cerr != nil {
		l.log.Warn().Str("skill", fm.Name).Str("file", d.path(IDFile)).
			Msgf("cannot write %s; the skill keeps the derived id %s", d.path(IDFile), derived)
		return derived, "derived"
	}
	l.log.Debug().Str("skill", fm.Name).Str("id", id).Msg("wrote .skill_id")
	return id, "sidecar"
}

// describeErr flattens a parse error into one line for problems.
func describeErr(err error) error {
	list := strictyaml.Flatten("", err)
	if len(list) <= 1 {
		return err
	}
	parts := make([]string, len(list))
	for i, e := range list {
		parts[i] = e.Error()
	}
	return errors.New(strings.Join(parts, "; "))
}
