// Package race tells a test whether the race detector is on, so that a
// long test that runs on one goroutine (nothing for the detector to check)
// can leave the detector's run to the plain go test, which runs it in full.
package race

import "testing"

// SkipOneGoroutine skips t when the binary is built with -race, saying
// why: what the test does runs on t's goroutine alone, so the detector can
// find nothing in it and only makes it slower (by 5 to 20 times).
func SkipOneGoroutine(t testing.TB, what string) {
	t.Helper()
	if Enabled {
		t.Skipf("under the race detector: %s runs on one goroutine, so there is nothing for it to check; go test without -race runs it", what)
	}
}
