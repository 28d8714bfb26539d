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
