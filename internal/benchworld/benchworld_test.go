package benchworld

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMatchesTheJavaScriptGenerator(t *testing.T) {
	w := Generate(1337)
	assert.Len(t, w.Trees, 551, "BENCHMARKS.md: 551 oak trees")
	assert.Equal(t, JSHash, w.Hash(), "the Go port must produce the identical block array")
	assert.Equal(t, 70, w.StandY(20, 20))
	assert.Equal(t, 61, w.StandY(70, 60))
}

// TestAgainstNode regenerates the hash with the JavaScript generator itself
// when node and ../shared are available (CI has both).
func TestAgainstNode(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "bench", "world.js"))
	require.NoError(t, err)
	if _, err := os.Stat(script); err != nil {
		t.Skipf("skipping: %s not found (../shared is not beside the repository)", script)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("skipping: node is not installed; the hash is still checked against the recorded JSHash")
	}
	out, err := exec.Command(node, "-e", `const g=require(process.argv[1]), c=require('crypto');
console.log(c.createHash('sha256').update(Buffer.from(g.generate(1337).w.buffer)).digest('hex'))`, script).CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, JSHash, strings.TrimSpace(string(out)))
}

func BenchmarkGenerate(b *testing.B) {
	for b.Loop() {
		Generate(1337)
	}
}
