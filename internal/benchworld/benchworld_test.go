package benchworld

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMatchesTheJavaScriptGenerator(t *testing.T) {
	w := Generate(1337)
	assert.Len(t, w.Trees, 551, "BENCHMARKS.md: 551 oak trees")
	assert.Equal(t, JSHash, w.Hash(), "the Go port must produce the identical block array")
	assert.Equal(t, 70, w.StandY(20, 20))
	assert.Equal(t, 61, w.StandY(70, 60))
}

func BenchmarkGenerate(b *testing.B) {
	for b.Loop() {
		Generate(1337)
	}
}
