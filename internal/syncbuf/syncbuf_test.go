package syncbuf

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestConcurrentWritesAndReads: writers and readers at once lose no byte
// (run with -race to check the locking), and Bytes is a copy.
func TestConcurrentWritesAndReads(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for range 100 {
				b.Write([]byte("ab"))
			}
		}()
		go func() {
			defer wg.Done()
			for range 100 {
				_ = b.String()
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, strings.Repeat("ab", 800), b.String())
	got := b.Bytes()
	got[0] = 'x'
	assert.Equal(t, byte('a'), b.Bytes()[0], "Bytes returns a copy")
}
