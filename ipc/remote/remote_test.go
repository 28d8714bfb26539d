package remote_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestSameSnapshotAsInProcess: the client's snapshot of a simulated world
// equals the in-process one, blocks included: every block of the world,
// and the nearest-block search the skills use.
func TestSameSnapshotAsInProcess(t *testing.T) {
	for _, network := range []string{"unix", "tcp"} {
		t.Run(network, func(t *testing.T) {
			w := newSim(t, 0)
			addr, _ := serve(t, remote.ServerOptions{Body: w}, network)
			c := dial(t, addr, remote.ClientOptions{Name: "test"})
			got, err := c.Observe(context.Background())
			require.NoError(t, err)
			want, err := ipc.InProcess(w).Observe(context.Background())
			require.NoError(t, err)
			assert.Equal(t, string(mustJSON(t, want)), string(mustJSON(t, got)))
			wc, gc := want.Blocks.(*world.Chunks), got.Blocks.(*world.Chunks)
			require.Equal(t, wc.Columns(), gc.Columns())
			n := 0
			wc.ForEachColumn(func(col *world.Column) {
				for y := 0; y < world.WorldHeight; y++ {
					for z := 0; z < 16; z++ {
						for x := 0; x < 16; x++ {
							p := world.Pos(col.Pos().X*16+x, y, col.Pos().Z*16+z)
							wb, gb := want.BlockAt(p), got.BlockAt(p)
							if wb.ID != gb.ID || wb.Meta != gb.Meta || !slices.Equal(wb.Tags, gb.Tags) {
								t.Errorf("block at %v: want %+v, got %+v", p, wb, gb)
								return
							}
							n++
						}
					}
				}
			})
			assert.Greater(t, n, 0)
			for _, tag := range []string{"log", "ore", "stone"} {
				assert.Equal(t, want.NearestBlocks(32, 20, tag), got.NearestBlocks(32, 20, tag), tag)
			}
		})
	}
}

// TestSameTraceAsInProcess: the goal planner's run over a socket writes the
// same trace, byte for byte, as the in-process run.
func TestSameTraceAsInProcess(t *testing.T) {
	const goal = "have 8 minecraft:stick and collect 8 minecraft:log"
	want, wantOut := runTrace(t, ipc.InProcess(newSim(t, 0)), goal, 60)
	addr, _ := serve(t, remote.ServerOptions{Body: newSim(t, 0)}, "unix")
	got, gotOut := runTrace(t, dial(t, addr, remote.ClientOptions{}), goal, 60)
	require.True(t, wantOut.GoalMet, "the in-process run meets its goal")
	assert.Equal(t, string(want), string(got))
	assert.Equal(t, wantOut, gotOut)
}
