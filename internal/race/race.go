// Package race tells a test whether the race detector is on, so that a
// long test that runs on one goroutine (nothing for the detector to check),
// or whose goroutines another test already plays under the detector, can
// leave the detector's run to the plain go test, which runs it in full.
package race

import (
	"fmt"
	"testing"
)

// SkipOneGoroutine skips t when the binary is built with -race, saying
// why: what the test does runs on t's goroutine alone, so the detector can
// find nothing in it and only makes it slower (by 5 to 20 times).
func SkipOneGoroutine(t testing.TB, what string) {
	t.Helper()
	if Enabled {
		t.Skipf("under the race detector: %s runs on one goroutine, so there is nothing for it to check; go test without -race runs it", what)
	}
}

// SkipCovered skips t when the binary is built with -race, saying why:
// the goroutines what starts, and the ways they meet, are the ones the
// test named by by (which runs under the detector) already plays, so the
// detector would only see them again, 5 to 20 times slower. go test
// without -race runs t in full. by must name a test: a reader looks there
// for the detector's coverage.
func SkipCovered(t testing.TB, what, by string) {
	t.Helper()
	if by == "" {
		panic(fmt.Sprintf("race.SkipCovered(%q): name the test that covers it under the detector", what))
	}
	if Enabled {
		t.Skipf("under the race detector: %s has the goroutines %s already runs under it; go test without -race runs it", what, by)
	}
}
