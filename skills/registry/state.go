package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
	"github.com/gtnh-agent/gtnh-agent/skills"
)

// stateFormat is the version of the state file layout.
const stateFormat = 1

// stateFile is what the registry persists: learned metrics and status
// changes per skill version ("chop_tree@1"). Entries for skills not loaded
// in this run are kept, so switching configurations loses nothing.
type stateFile struct {
	Format int                    `json:"format"`
	Skills map[string]*stateEntry `json:"skills"`
}

type stateEntry struct {
	Status  skills.Status  `json:"status,omitempty"`
	Metrics skills.Metrics `json:"metrics"`
}

func readState(path string) (*stateFile, error) {
	data, err := filelimit.ReadFile(path, filelimit.MaxConfig)
	if errors.Is(err, fs.ErrNotExist) {
		return &stateFile{Format: stateFormat, Skills: map[string]*stateEntry{}}, nil
	}
	var tl *filelimit.TooLargeError
	if errors.As(err, &tl) {
		return nil, fmt.Errorf("%w %s: %s (fix or remove the file; it is never reset automatically)", ErrCorruptState, path, tl.Msg())
	}
	if err != nil {
		return nil, fmt.Errorf("registry: reading state file: %w", err)
	}
	return parseState(path, data)
}

func parseState(path string, data []byte) (*stateFile, error) {
	corrupt := func(format string, args ...any) error {
		return fmt.Errorf("%w %s: %s (fix or remove the file; it is never reset automatically)", ErrCorruptState, path, fmt.Sprintf(format, args...))
	}
	if err := filelimit.Check(path, len(data), filelimit.MaxConfig); err != nil {
		return nil, corrupt("%s", err.(*filelimit.TooLargeError).Msg())
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var st stateFile
	if err := dec.Decode(&st); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := position(data, se.Offset)
			return nil, corrupt("line %d, column %d: %v", line, col, err)
		}
		return nil, corrupt("%v", err)
	}
	if dec.More() {
		return nil, corrupt("trailing data after the JSON object")
	}
	if st.Format != stateFormat {
		return nil, corrupt("format %d is not supported (expected %d)", st.Format, stateFormat)
	}
	if st.Skills == nil {
		st.Skills = map[string]*stateEntry{}
	}
	for key, e := range st.Skills {
		name, _, ok := strings.Cut(key, "@")
		if !ok || name == "" || e == nil {
			return nil, corrupt("entry %q is not name@version with an object", key)
		}
		switch e.Status {
		case "", skills.StatusActive, skills.StatusCandidate, skills.StatusDeprecated:
		default:
			return nil, corrupt("entry %q has status %q", key, e.Status)
		}
		m := e.Metrics
		if m.SuccessRate != nil && (*m.SuccessRate < 0 || *m.SuccessRate > 1) {
			return nil, corrupt("entry %q has success_rate %v outside 0..1", key, *m.SuccessRate)
		}
		if m.AvgCost != nil && (*m.AvgCost < 0 || math.IsInf(*m.AvgCost, 0)) {
			return nil, corrupt("entry %q has avg_cost %v", key, *m.AvgCost)
		}
		if m.Samples < 0 {
			return nil, corrupt("entry %q has negative samples", key)
		}
	}
	return &st, nil
}

func position(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// applyState overlays persisted status and metrics on a skill's versions.
func (r *Registry) applyState(e *entry) {
	for _, s := range e.versions {
		st, ok := r.state.Skills[s.Key()]
		if !ok {
			continue
		}
		if st.Status != "" {
			s.Status = st.Status
		}
		s.Metrics = st.Metrics
	}
}

// persistLocked records the given specs' status and metrics in the state and
// writes the file atomically. Callers hold r.mu.
func (r *Registry) persistLocked(specs ...*skills.Spec) error {
	if r.statePath == "" {
		return nil
	}
	for _, s := range specs {
		if s == nil {
			continue
		}
		r.state.Skills[s.Key()] = &stateEntry{Status: s.Status, Metrics: s.Metrics}
	}
	data, err := json.MarshalIndent(r.state, "", "  ")
	if err != nil {
		return fmt.Errorf("registry: encoding state: %w", err)
	}
	return writeFileAtomic(r.statePath, append(data, '\n'))
}

// tempPrefix starts the name of writeFileAtomic's temporary file beside
// path.
func tempPrefix(path string) string { return "." + filepath.Base(path) + ".tmp-" }

// staleTempAge is the age past which a temporary state file is taken for
// one a killed process left between creating and renaming it: a write takes
// milliseconds (its fsync, on a slow disk, seconds), so a younger one may be
// another process's write in flight.
const staleTempAge = time.Minute

// now is the clock removeStaleTemps judges ages by; tests replace it.
var now = time.Now

// removeStaleTemps deletes the temporary files beside the state file at path
// that writeFileAtomic left when the process was killed mid-write (they are
// never renamed, so nothing else would remove them): regular files named
// like its temporaries and older than staleTempAge. It returns the names
// removed and the first failure; the others are still tried.
func removeStaleTemps(path string) ([]string, error) {
	dir := filepath.Dir(path)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("registry: listing %s for stale temporary state files: %w", dir, err)
	}
	prefix := tempPrefix(path)
	var removed []string
	var first error
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil || now().Sub(info.ModTime()) < staleTempAge {
			continue
		}
		name := filepath.Join(dir, e.Name())
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			if first == nil {
				first = fmt.Errorf("registry: removing the stale temporary state file %s: %w", name, err)
			}
			continue
		}
		removed = append(removed, name)
	}
	return removed, first
}

// writeData writes the new state into the temporary file; tests replace it
// to make the write fail half-way (a full disk, an I/O error).
var writeData = func(f *os.File, data []byte) (int, error) { return f.Write(data) }

// writeFileAtomic writes data to a temporary file in the same directory,
// syncs it and renames it over path, so readers see the old or the new file,
// never a torn one.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("registry: state directory: %w", err)
	}
	tmp, err := os.CreateTemp(dir, tempPrefix(path)+"*")
	if err != nil {
		return fmt.Errorf("registry: writing state: %w", err)
	}
	cleanup := func() { _ = os.Remove(tmp.Name()) }
	if _, err := writeData(tmp, data); err != nil {
		tmp.Close()
		cleanup()
		return fmt.Errorf("registry: writing state: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		cleanup()
		return fmt.Errorf("registry: syncing state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		cleanup()
		return fmt.Errorf("registry: writing state: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		cleanup()
		return fmt.Errorf("registry: replacing state file: %w", err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// RecordOutcome folds one execution of a skill into its metrics and persists
// them. version 0 means the version planners currently see. cost is what the
// attempt spent (game ticks in the loop) and must be finite and >= 0.
//
// The update rule is a moving average with weight w = max(α, 1/n), where n
// counts samples including this one and α is Options.Alpha (default 0.2):
//
//	success_rate += w × (1 or 0 − success_rate)
//	avg_cost     += w × (cost − avg_cost)
//
// so the first 1/α samples are averaged exactly and later ones decay
// exponentially, letting metrics follow a skill whose reliability changes.
func (r *Registry) RecordOutcome(name string, version int, success bool, cost float64) (skills.Metrics, error) {
	if math.IsNaN(cost) || math.IsInf(cost, 0) || cost < 0 {
		return skills.Metrics{}, fmt.Errorf("registry: cost must be a finite number >= 0, got %v", cost)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.entries[name]
	if e == nil {
		return skills.Metrics{}, fmt.Errorf("%w %q", ErrUnknownSkill, name)
	}
	var s *skills.Spec
	if version == 0 {
		s = e.selected(r.policy)
	} else {
		s = e.version(version)
	}
	if s == nil {
		return skills.Metrics{}, fmt.Errorf("%w %s@%d", ErrUnknownSkill, name, version)
	}
	old := s.Metrics
	m := old
	m.Samples++
	w := math.Max(r.alpha, 1/float64(m.Samples))
	x := 0.0
	if success {
		x = 1
	}
	rate, avg := x, cost
	if m.SuccessRate != nil {
		rate = *m.SuccessRate + w*(x-*m.SuccessRate)
	}
	if m.AvgCost != nil {
		avg = *m.AvgCost + w*(cost-*m.AvgCost)
	}
	m.SuccessRate, m.AvgCost = &rate, &avg
	s.Metrics = m
	if err := r.persistLocked(s); err != nil {
		s.Metrics = old
		r.state.Skills[s.Key()] = &stateEntry{Status: s.Status, Metrics: old}
		return old, err
	}
	r.patchMetricsLocked(s)
	return m, nil
}
