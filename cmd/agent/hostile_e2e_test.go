package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
)

const (
	// hostileVMemKiB is the agent's virtual-memory limit (ulimit -v, KiB):
	// about 3 GB, room for Go's address-space reservations but not for
	// the gigabytes an allocation bomb asks for.
	hostileVMemKiB = 3_000_000
	// hostileMaxRSS is the agent's allowed peak resident memory.
	hostileMaxRSS = 150 << 20
)

var malformedRE = regexp.MustCompile(`malformed dropped: (.*)$`)

// TestHostileServerMemory runs the agent under a 3 GB virtual-memory limit
// against a server that sends NBT list-length bombs (in a Set Slot and in
// a dropped item's metadata), a zlib bomb column, a Window Items announcing
// 32,767 slots and an FML|MP preamble announcing 2^31-1 bytes, twice: the
// agent drops each bad packet (counted and logged once), keeps playing,
// chops its tree, and its peak memory stays under 150 MB.
func TestHostileServerMemory(t *testing.T) {
	t.Parallel()                       // mostly waiting on a child process or a timer: overlap it with the others
	const tick = 50 * time.Millisecond // the game's: the agent is a child process, outside any synctest bubble
	srv, err := fakeserver.New(fakeserver.Options{Hostile: true, TickDuration: tick})
	require.NoError(t, err)
	defer srv.Close()
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.jsonl")
	agent := startAgent(t, hostileVMemKiB, "run", "--server", srv.Addr(), "--username", "Bot",
		"--goal", "collect 4 minecraft:log", "--config-file", agentYAML(t, tick), "--trace", trace, "--max-steps", "10")
	code, peak, elapsed := agent.wait(t)
	out, errOut := agent.stdout(), agent.stderrText()
	t.Logf("hostile server: peak RSS %.1f MB (VmHWM, limit %d MB), run %v", float64(peak)/(1<<20), hostileMaxRSS>>20, elapsed)
	require.Equal(t, exitOK, code, "the agent survives the hostile server\nstdout:\n%s\nstderr:\n%s", out, crashReport(errOut))
	assert.Contains(t, out, "goal met")
	assert.Empty(t, srv.Kicks())
	assert.GreaterOrEqual(t, srv.HostileBursts(), 2, "a burst after the join and one after the first dig")
	require.NotZero(t, peak, "VmHWM of the agent could not be read from /proc")
	assert.Less(t, peak, int64(hostileMaxRSS), "peak resident memory")

	m := malformedRE.FindStringSubmatch(out)
	require.NotNil(t, m, "the connection line lists the malformed packets:\n%s", out)
	counts := map[string]int{}
	total := 0
	for _, kv := range strings.Fields(m[1]) {
		name, n, ok := strings.Cut(kv, "=")
		require.True(t, ok, kv)
		v, err := strconv.Atoi(n)
		require.NoError(t, err)
		counts[name] = v
		total += v
	}
	for _, name := range []string{"SetSlot", "EntityMetadata", "ChunkData", "WindowItems", "PluginMessage(FML|MP)"} {
		assert.GreaterOrEqual(t, counts[name], 1, "%s dropped as malformed (%v)", name, counts)
	}
	logged := strings.Count(errOut, `"malformed packet skipped"`) + strings.Count(errOut, `"FML|MP message dropped"`)
	assert.Equal(t, total, logged, "each dropped packet is logged once")

	data, err := os.ReadFile(trace)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"verdict":"success"`)

}

func TestConnectionLine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		assert.Equal(t, "connection: 10 packets in, 4 out, 1 reconnects, 2 corrections, no malformed packets",
			connectionLine(gtnh.Stats{PacketsIn: 10, PacketsOut: 4, Reconnects: 1, Corrections: 2}))
		assert.Equal(t, "connection: 10 packets in, 4 out, 0 reconnects, 0 corrections, malformed dropped: ChunkData=2 SetSlot=1",
			connectionLine(gtnh.Stats{PacketsIn: 10, PacketsOut: 4, Malformed: map[string]int64{"SetSlot": 1, "ChunkData": 2}}))
	})
}
