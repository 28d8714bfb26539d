package knowledge

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// refusal is a file left out of a skill's resources.
type refusal struct {
	path, reason string
	// escapes marks links that leave the directory (or cannot be
	// resolved), as opposed to what is merely not followed.
	escapes bool
}

func (r refusal) String() string { return r.path + ": " + r.reason }

// listResources walks a skill directory and returns the files an agent may
// read, and the ones refused because they leave the directory. fsys must be
// rooted at the skill directory and must refuse to follow links out of it
// (os.Root's file system does; embedded file systems have no links).
// SKILL.md, hidden files and hidden directories are not resources;
// symlinked directories are not followed.
func listResources(fsys fs.FS) (res []string, refused []refusal) {
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p != "." {
				refused = append(refused, refusal{p, err.Error(), true})
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p == "." {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if strings.Count(p, "/")+1 > MaxDepth+2 {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			st, err := fs.Stat(fsys, p)
			switch {
			case err != nil:
				refused = append(refused, refusal{p, "symlink leaves the skill directory, is absolute or dangles", true})
				return nil
			case st.IsDir():
				refused = append(refused, refusal{p, "symlinked directories are not followed", false})
				return nil
			case !st.Mode().IsRegular():
				return nil
			}
		} else if !d.Type().IsRegular() {
			return nil // devices, pipes, sockets
		}
		if p == SkillFile {
			return nil
		}
		if len(res) >= maxResources {
			refused = append(refused, refusal{p, fmt.Sprintf("more than %d resources; the rest are not listed", maxResources), false})
			return fs.SkipAll
		}
		res = append(res, p)
		return nil
	})
	slices.Sort(res)
	return res, refused
}

// CleanResourcePath checks a resource path as an agent wrote it and returns
// its canonical form (a clean, relative slash path). It refuses empty
// paths, absolute paths (Unix, Windows drive or UNC), backslashes, NUL
// bytes, and any ".." element, even one that would resolve back inside the
// directory: resources are named exactly as listed.
func CleanResourcePath(p string) (string, error) {
	refuse := func(why string) (string, error) {
		return "", fmt.Errorf("%w: %q: %s", ErrRefused, p, why)
	}
	switch {
	case p == "":
		return refuse("empty path")
	case strings.ContainsRune(p, 0):
		return refuse("NUL byte in path")
	case strings.ContainsRune(p, '\\'):
		return refuse("backslashes are not path separators here")
	case path.IsAbs(p) || filepath.IsAbs(p) || filepath.VolumeName(p) != "" || (len(p) >= 2 && p[1] == ':'):
		return refuse("absolute paths are not allowed; name the file relative to the skill directory")
	}
	p = strings.TrimPrefix(p, "./")
	for _, el := range strings.Split(p, "/") {
		if el == ".." {
			return refuse("\"..\" leaves the skill directory")
		}
	}
	c := path.Clean(p)
	if c == "." || !fs.ValidPath(c) {
		return refuse("not a file path")
	}
	return c, nil
}

// ReadResource returns the content of one resource of a skill. Only files
// listed at discovery (Skill.Resources) are served; the path is checked with
// CleanResourcePath, and the file is opened through os.Root, so a symlink
// swapped in after discovery cannot lead out of the directory either. A
// resource whose content trips a blocking safety flag is refused.
func (l *Library) ReadResource(nameOrID, rel string) ([]byte, error) {
	e, err := l.lookup(nameOrID)
	if err != nil {
		return nil, err
	}
	l.mu.RLock()
	sk := e.skill
	l.mu.RUnlock()
	c, err := CleanResourcePath(rel)
	if err != nil {
		return nil, err
	}
	if _, listed := slices.BinarySearch(sk.Resources, c); !listed {
		return nil, fmt.Errorf("%w: %q is not a resource of %s (resources: %s)", ErrRefused, rel, sk.Name, orNone(sk.Resources))
	}
	d, err := l.open(e)
	if err != nil {
		return nil, err
	}
	defer d.close()
	st, err := fs.Stat(d.fsys, c)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrRefused, d.path(c), err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a regular file", ErrRefused, d.path(c))
	}
	f, err := d.fsys.Open(c)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrRefused, d.path(c), err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a regular file", ErrRefused, d.path(c))
	}
	data, err := io.ReadAll(io.LimitReader(f, maxResourceSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxResourceSize {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrRefused, d.path(c), maxResourceSize)
	}
	if isText(data) {
		if b := Blocking(ScanText(d.path(c), 1, string(data))); len(b) > 0 {
			return nil, fmt.Errorf("%w: %s: %s", ErrBlocked, d.path(c), b[0])
		}
	}
	return data, nil
}

// open opens an entry's skill directory.
func (l *Library) open(e *entry) (*skillDir, error) {
	if e.src.FS != nil {
		return openFS(e.src, e.dir)
	}
	return openOS(e.dir)
}

// isText reports whether data looks like text (no NUL in its first 8 KiB).
func isText(data []byte) bool {
	head := data
	if len(head) > 8<<10 {
		head = head[:8<<10]
	}
	return !slices.Contains(head, 0)
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
