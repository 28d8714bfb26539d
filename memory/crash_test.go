package memory

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/game"
)

// crashChild is set in the child process TestKillNineMidWrite starts: it
// writes sightings one transaction at a time, saying after each commit how
// many are committed, until it is killed.
const crashChild = "GTNH_AGENT_MEMORY_CRASH_FILE"

func TestMain(m *testing.M) {
	if path := os.Getenv(crashChild); path != "" {
		s, err := Open(path, Options{MaxSightings: 150})
		if err != nil {
			fmt.Println("open:", err)
			os.Exit(3)
		}
		for i := 0; ; i++ {
			// Each look adds one block, forgets the oldest past the bound
			// and records a container, so the kill can land in any of them.
			o := Observation{Tick: int64(i), Seen: []Sighting{{Block: "minecraft:iron_ore", Pos: game.Pos(i, 30, 0)}},
				Containers: []Container{{Kind: "chest", Pos: game.Pos(0, 64, 0), Items: []Item{{ID: "minecraft:flint", Count: i%64 + 1}}}}}
			if _, err := s.Record(home, o); err != nil {
				fmt.Println("record:", err)
				os.Exit(3)
			}
			fmt.Printf("committed %d\n", i+1)
		}
	}
	os.Exit(m.Run())
}

// TestKillNineMidWrite: a process killed with SIGKILL while it writes
// leaves a file that opens, passes bbolt's consistency check and holds
// every write the process saw committed.
func TestKillNineMidWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChild+"="+path)
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		sc := bufio.NewScanner(out)
		committed := 0
		// Kill it at a different point each round, past the eviction bound
		// in the last.
		stop := []int{40, 97, 230}[round]
		for sc.Scan() {
			line := sc.Text()
			n, ok := strings.CutPrefix(line, "committed ")
			require.True(t, ok, "child said %q", line)
			committed, err = strconv.Atoi(n)
			require.NoError(t, err)
			if committed >= stop {
				require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
				break
			}
		}
		err = cmd.Wait()
		require.Error(t, err, "the child was killed")

		s, err := Open(path, Options{})
		require.NoError(t, err)
		require.NoError(t, s.Check(), "round %d: the file is consistent", round)
		got, err := s.Recall(home, Query{Block: "minecraft:iron_ore", Meta: -1, From: game.Pos(1000, 30, 0), K: 1})
		require.NoError(t, err)
		require.Len(t, got, 1)
		// Every round restarts at i = 0 over the same positions, so the
		// newest position committed is at least this round's count - 1.
		assert.GreaterOrEqual(t, got[0].Pos.X, committed-1, "round %d: the last committed write is there", round)
		sum, err := s.Places()
		require.NoError(t, err)
		require.Len(t, sum, 1)
		assert.LessOrEqual(t, sum[0].Sightings, 150, "the bound holds across the crash")
		all, err := s.Recall(home, Query{Block: "minecraft:iron_ore", Meta: -1})
		require.NoError(t, err)
		assert.Equal(t, sum[0].Sightings, len(all), "the count matches what is stored")
		require.NoError(t, s.Close())
	}
}
