package gtnh

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
)

// TestArrivedSince: a column that was not loaded counts as arrived, even
// when another one was unloaded meanwhile (the count is the same); a
// column merely unloaded, or listed as not loaded, does not.
func TestArrivedSince(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		before := map[[2]int]bool{{0, 0}: true, {1, 0}: true}
		assert.False(t, arrivedSince(map[[2]int]bool{{0, 0}: true, {1, 0}: true}, before), "nothing new")
		assert.False(t, arrivedSince(map[[2]int]bool{{0, 0}: true}, before), "one unloaded")
		assert.True(t, arrivedSince(map[[2]int]bool{{0, 0}: true, {2, 0}: true}, before), "one unloaded, one arrived: same count")
		assert.False(t, arrivedSince(map[[2]int]bool{{0, 0}: true, {1, 0}: true, {2, 0}: false}, before), "listed as not loaded")
		assert.True(t, arrivedSince(map[[2]int]bool{{0, 0}: true, {1, 0}: true, {2, 0}: true}, before), "one more")
	})
}
