package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/gtnh-agent/gtnh-agent/loop"
)

// Bounds of a trace file read back (agent map --trace): a step is one line
// of the trace, and no step the loop writes comes near these.
const (
	maxTraceLine  = 8 << 20
	maxTraceSteps = 1_000_000
)

// traceReader reads the steps of a --trace file one line at a time, so a
// long trace never sits in memory whole.
type traceReader struct {
	file  string
	sc    *bufio.Scanner
	line  int
	steps int
}

func newTraceReader(file string, r io.Reader) *traceReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxTraceLine)
	return &traceReader{file: file, sc: sc}
}

// next returns the next step; io.EOF after the last. An error names the
// file and line and says what is wrong there.
func (t *traceReader) next() (loop.StepRecord, error) {
	for t.sc.Scan() {
		t.line++
		data := bytes.TrimSpace(t.sc.Bytes())
		if len(data) == 0 {
			continue
		}
		if t.steps++; t.steps > maxTraceSteps {
			return loop.StepRecord{}, fmt.Errorf("%s:%d: more than %d steps: not a trace of one run", t.file, t.line, maxTraceSteps)
		}
		var rec loop.StepRecord
		if err := json.Unmarshal(data, &rec); err != nil {
			return loop.StepRecord{}, fmt.Errorf("%s:%d: not a step of a trace: %v", t.file, t.line, err)
		}
		if len(rec.Results) > len(rec.Actions) {
			return loop.StepRecord{}, fmt.Errorf("%s:%d: step %d has %d results for %d actions", t.file, t.line, rec.Step, len(rec.Results), len(rec.Actions))
		}
		return rec, nil
	}
	if err := t.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return loop.StepRecord{}, fmt.Errorf("%s:%d: a line longer than %d MiB: not a trace", t.file, t.line+1, maxTraceLine>>20)
		}
		return loop.StepRecord{}, fmt.Errorf("%s: %w", t.file, err)
	}
	return loop.StepRecord{}, io.EOF
}
