package selection

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
)

// Quality is what the agent has learned about one skill as a selection:
// how often it was selected, applied (its instructions actually used in a
// run), how often a run that applied it completed its task, and how often
// the agent abandoned it and fell back to working without it.
type Quality struct {
	Selections  int `json:"selections"`
	Applied     int `json:"applied"`
	Completions int `json:"completions"`
	Fallbacks   int `json:"fallbacks"`
}

// FilterReason says why a skill is filtered out, or "" to keep it. The rules
// are seed 002's: selected at least twice and never completed; or applied at
// least twice with more than half of the applications falling back.
func (q Quality) FilterReason() string {
	if q.Selections >= 2 && q.Completions == 0 {
		return fmt.Sprintf("selected %d times and never completed", q.Selections)
	}
	if q.Applied >= 2 && float64(q.Fallbacks)/float64(q.Applied) > 0.5 {
		return fmt.Sprintf("fell back in %d of %d applications (> 50%%)", q.Fallbacks, q.Applied)
	}
	return ""
}

// Note renders the quality as the selection prompt shows it.
func (q Quality) Note() string {
	switch {
	case q.Applied > 0:
		return fmt.Sprintf("success %d/%d = %.0f%%", q.Completions, q.Applied, 100*float64(q.Completions)/float64(q.Applied))
	case q.Selections > 0:
		return fmt.Sprintf("selected %dx, never succeeded", q.Selections)
	}
	return "new"
}

// ErrCorruptQuality marks a quality file that cannot be read; it is never
// reset silently.
var ErrCorruptQuality = errors.New("corrupt skill quality file")

const qualityFormat = 1

type qualityFile struct {
	Format int                 `json:"format"`
	Skills map[string]*Quality `json:"skills"`
}

// QualityStore records per-skill quality, keyed by skill id, and persists it
// atomically (temporary file, fsync, rename) after every change when it has
// a path. It is safe for concurrent use.
type QualityStore struct {
	mu   sync.Mutex
	path string
	m    map[string]*Quality
}

// NewQualityStore returns an empty in-memory store.
func NewQualityStore() *QualityStore { return &QualityStore{m: map[string]*Quality{}} }

// OpenQualityStore reads the store at path (a missing file is an empty
// store). A corrupt file is an error naming the file and position.
func OpenQualityStore(path string) (*QualityStore, error) {
	s := &QualityStore{path: path, m: map[string]*Quality{}}
	data, err := filelimit.ReadFile(path, filelimit.MaxConfig)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	var tl *filelimit.TooLargeError
	if errors.As(err, &tl) {
		return nil, fmt.Errorf("%w %s: %s (fix or remove the file)", ErrCorruptQuality, path, tl.Msg())
	}
	if err != nil {
		return nil, err
	}
	m, err := parseQuality(path, data)
	if err != nil {
		return nil, err
	}
	s.m = m
	return s, nil
}

func parseQuality(path string, data []byte) (map[string]*Quality, error) {
	corrupt := func(format string, args ...any) error {
		return fmt.Errorf("%w %s: %s (fix or remove the file)", ErrCorruptQuality, path, fmt.Sprintf(format, args...))
	}
	if err := filelimit.Check(path, len(data), filelimit.MaxConfig); err != nil {
		return nil, corrupt("%s", err.(*filelimit.TooLargeError).Msg())
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f qualityFile
	if err := dec.Decode(&f); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line := bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n")) + 1
			return nil, corrupt("line %d: %v", line, err)
		}
		return nil, corrupt("%v", err)
	}
	if dec.More() {
		return nil, corrupt("trailing data after the JSON object")
	}
	if f.Format != qualityFormat {
		return nil, corrupt("format %d is not supported (expected %d)", f.Format, qualityFormat)
	}
	if f.Skills == nil {
		f.Skills = map[string]*Quality{}
	}
	for id, q := range f.Skills {
		if id == "" || q == nil {
			return nil, corrupt("entry %q is empty", id)
		}
		if q.Selections < 0 || q.Applied < 0 || q.Completions < 0 || q.Fallbacks < 0 {
			return nil, corrupt("entry %q has a negative count", id)
		}
	}
	return f.Skills, nil
}

// Get returns a skill's quality (zero when nothing is recorded).
func (s *QualityStore) Get(id string) Quality {
	s.mu.Lock()
	defer s.mu.Unlock()
	if q := s.m[id]; q != nil {
		return *q
	}
	return Quality{}
}

// All returns a copy of every record.
func (s *QualityStore) All() map[string]Quality {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]Quality, len(s.m))
	for k, v := range s.m {
		out[k] = *v
	}
	return out
}

// RecordSelected counts a selection of each id.
func (s *QualityStore) RecordSelected(ids ...string) error {
	return s.update(func(q *Quality) { q.Selections++ }, ids...)
}

// RecordApplied counts a run that applied the skill.
func (s *QualityStore) RecordApplied(id string) error {
	return s.update(func(q *Quality) { q.Applied++ }, id)
}

// RecordCompleted counts a run that applied the skill and completed its task.
func (s *QualityStore) RecordCompleted(id string) error {
	return s.update(func(q *Quality) { q.Completions++ }, id)
}

// RecordFallback counts a run that abandoned the skill.
func (s *QualityStore) RecordFallback(id string) error {
	return s.update(func(q *Quality) { q.Fallbacks++ }, id)
}

func (s *QualityStore) update(f func(*Quality), ids ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := make(map[string]*Quality, len(ids))
	for _, id := range ids {
		if id == "" {
			return errors.New("selection: empty skill id")
		}
		q := s.m[id]
		if q == nil {
			q = &Quality{}
			s.m[id] = q
			old[id] = nil
		} else if _, kept := old[id]; !kept {
			c := *q
			old[id] = &c
		}
		f(q)
	}
	if err := s.saveLocked(); err != nil {
		for id, q := range old {
			if q == nil {
				delete(s.m, id)
			} else {
				s.m[id] = q
			}
		}
		return err
	}
	return nil
}

func (s *QualityStore) saveLocked() error {
	if s.path == "" {
		return nil
	}
	data, err := json.MarshalIndent(qualityFile{Format: qualityFormat, Skills: s.m}, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	dir := filepath.Dir(s.path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(s.path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("selection: writing quality: %w", err)
	}
	cleanup := func() { os.Remove(tmp.Name()) }
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		cleanup()
		return fmt.Errorf("selection: writing quality: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		cleanup()
		return fmt.Errorf("selection: syncing quality: %w", err)
	}
	if err := tmp.Close(); err != nil {
		cleanup()
		return fmt.Errorf("selection: writing quality: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		cleanup()
		return fmt.Errorf("selection: replacing quality file: %w", err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
