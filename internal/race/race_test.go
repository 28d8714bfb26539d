package race

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSkipOneGoroutine: a test skips itself exactly when the detector is on.
func TestSkipOneGoroutine(t *testing.T) {
	var skipped bool
	t.Run("inner", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		SkipOneGoroutine(t, "the inner test")
	})
	assert.Equal(t, Enabled, skipped)
}

// TestSkipCovered: a test skips itself exactly when the detector is on,
// and a skip that names no covering test is refused.
func TestSkipCovered(t *testing.T) {
	var skipped bool
	t.Run("inner", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		SkipCovered(t, "the inner test", "TestSkipCovered")
	})
	assert.Equal(t, Enabled, skipped)
	assert.PanicsWithValue(t, `race.SkipCovered("the inner test"): name the test that covers it under the detector`, func() {
		SkipCovered(t, "the inner test", "")
	})
}
