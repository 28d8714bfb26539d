package remote_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// TestSameSnapshotAsInProcess: the client's snapshot of a simulated world
// equals the in-process one, blocks included: every block of the world,
// and the nearest-block search the skills use.
func TestSameSnapshotAsInProcess(t *testing.T) {
	for name, max := range map[string]int{"whole": 0, "in parts": 6 << 10} {
		t.Run(name, func(t *testing.T) {
			w := newSim(t, 0)
			addr, _ := serve(t, remote.ServerOptions{Body: w, MaxMessage: max}, "unix")
			c := dial(t, addr, remote.ClientOptions{Name: "test"})
			got, err := c.Observe(context.Background())
			require.NoError(t, err)
			want, err := ipc.InProcess(w).Observe(context.Background())
			require.NoError(t, err)
			assert.Equal(t, string(mustJSON(t, want)), string(mustJSON(t, got)))
			wc, gc := want.Blocks.(*chunk.Chunks), got.Blocks.(*chunk.Chunks)
			require.Equal(t, wc.Columns(), gc.Columns())
			// Every block of every section: the states differ in number
			// (the mirror has its own id map), the blocks they stand for
			// must not.
			n := 0
			checked := map[[2]chunk.StateID]bool{}
			var ws, gs [chunk.SectionVolume]chunk.StateID
			wc.ForEachColumn(func(col *chunk.Column) {
				gcol := gc.Column(col.Pos().X, col.Pos().Z)
				if !assert.NotNil(t, gcol, "column %v", col.Pos()) {
					return
				}
				for cy := 0; cy < chunk.ColumnSections; cy++ {
					ws, gs = [chunk.SectionVolume]chunk.StateID{}, [chunk.SectionVolume]chunk.StateID{}
					if sec := col.Section(cy); sec != nil {
						sec.States(&ws)
					}
					if sec := gcol.Section(cy); sec != nil {
						sec.States(&gs)
					}
					for i := range ws {
						pair := [2]chunk.StateID{ws[i], gs[i]}
						if checked[pair] {
							continue
						}
						wb, gb := wc.Resolver().Block(ws[i]), gc.Resolver().Block(gs[i])
						if wb.ID != gb.ID || wb.Meta != gb.Meta || !slices.Equal(wb.Tags, gb.Tags) {
							t.Fatalf("column %v section %d block %d: want %+v, got %+v", col.Pos(), cy, i, wb, gb)
						}
						checked[pair] = true
						n++
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
