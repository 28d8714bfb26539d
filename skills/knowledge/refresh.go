package knowledge

import (
	"encoding/binary"
	"hash"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Stamp is a cheap fingerprint of what Refresh reads from the directory
// sources: the names and modification times of the directories it searches
// (a skill directory added, removed or renamed changes its parent's), and
// of each skill directory and its SKILL.md (a SKILL.md edited in place
// changes only the file). Read-only file systems, such as the configuration
// embedded in the binary, never change and are left out. A stamp that
// differs from the last one means Refresh may find something new; polling
// it costs a few stats per skill instead of re-reading every SKILL.md.
func (l *Library) Stamp() uint64 {
	l.mu.RLock()
	srcs := make([]Source, len(l.sources))
	for i, s := range l.sources {
		srcs[i] = s.Source
	}
	l.mu.RUnlock()
	return stampOf(srcs)
}

// Loaded is the Stamp the library's skills were read at: taken before
// Add or Refresh read the directories, so a change made while they read
// gives a later Stamp that differs. A watcher compares Stamp with Loaded,
// not with a stamp of its own taken when it starts: a skill added between
// the library's loading and the watcher's start would be in that stamp
// but never read.
func (l *Library) Loaded() uint64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.loaded
}

// stampOf is the Stamp of these sources (those read from a directory).
func stampOf(srcs []Source) uint64 {
	h := fnv.New64a()
	for _, s := range srcs {
		if s.FS != nil {
			continue
		}
		h.Write([]byte(s.key()))
		h.Write([]byte{0})
		if s.Single {
			stampSkillDir(h, s.Dir)
			continue
		}
		stampTree(h, s.Dir, s.Recursive, 1)
	}
	return h.Sum64()
}

// stampTree stamps a directory searched for skill directories the way
// findSkillDirs searches it.
func stampTree(h hash.Hash64, dir string, recursive bool, depth int) {
	if !stampEntry(h, dir) {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, de := range entries {
		name := de.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		p := filepath.Join(dir, name)
		isLink := de.Type()&fs.ModeSymlink != 0
		if isLink {
			if st, err := os.Stat(p); err != nil || !st.IsDir() {
				continue
			}
		} else if !de.IsDir() {
			continue
		}
		if st, err := os.Stat(filepath.Join(p, SkillFile)); err == nil && !st.IsDir() {
			stampSkillDir(h, p)
			continue
		}
		if recursive && !isLink && depth < MaxDepth {
			stampTree(h, p, recursive, depth+1)
		}
	}
}

// stampSkillDir stamps one skill directory and its SKILL.md.
func stampSkillDir(h hash.Hash64, dir string) {
	stampEntry(h, dir)
	stampEntry(h, filepath.Join(dir, SkillFile))
}

// stampEntry writes a path with its modification time and size, or with
// nothing when it does not exist; it reports whether it exists.
func stampEntry(h hash.Hash64, p string) bool {
	h.Write([]byte(p))
	var b [17]byte
	st, err := os.Stat(p)
	if err == nil {
		b[0] = 1
		binary.LittleEndian.PutUint64(b[1:], uint64(st.ModTime().UnixNano()))
		binary.LittleEndian.PutUint64(b[9:], uint64(st.Size()))
	}
	h.Write(b[:])
	return err == nil
}
