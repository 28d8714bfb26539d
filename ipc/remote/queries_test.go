package remote_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestBlocksInIsTheReplyMarshalled: the blocks_in answer, written as JSON
// while the box is read, is byte for byte wire.BlocksReply marshalled, for
// boxes with logs and leaves (tags, metadata), water, ground, and only air.
func TestBlocksInIsTheReplyMarshalled(t *testing.T) {
	w := newSim(t, 0)
	snap, err := w.Observe(context.Background())
	require.NoError(t, err)
	logs := snap.NearestBlocks(64, 1, "log")
	require.NotEmpty(t, logs)
	tree := logs[0].Pos
	// A world of one block in several metadata: each is a kind of its own.
	wool := newSmall()
	wool.st.Update(func(tx *world.Tx) {
		for i := range 16 {
			tx.SetBlock(world.Pos(i, 5, 0), "minecraft:wool", i%4)
		}
	})
	for _, tc := range []struct {
		body interface {
			Observe(context.Context) (*world.Snapshot, error)
		}
		box [2]world.BlockPos
	}{
		{w, [2]world.BlockPos{tree.Add(-3, -2, -3), tree.Add(3, 6, 3)}},
		{w, [2]world.BlockPos{world.Pos(48, 60, 42), world.Pos(56, 64, 50)}},
		{w, [2]world.BlockPos{world.Pos(8, 20, 16), world.Pos(39, 51, 47)}},
		{w, [2]world.BlockPos{world.Pos(0, 200, 0), world.Pos(3, 203, 3)}},
		{wool, [2]world.BlockPos{world.Pos(-1, 3, -1), world.Pos(16, 5, 1)}},
	} {
		q := remote.Queries{Observe: tc.body.Observe}
		snap, err := tc.body.Observe(context.Background())
		require.NoError(t, err)
		box := tc.box
		want := wire.BlocksReply{Blocks: []wire.PosBlock{}}
		for y := box[0].Y; y <= box[1].Y; y++ {
			for z := box[0].Z; z <= box[1].Z; z++ {
				for x := box[0].X; x <= box[1].X; x++ {
					if b := snap.BlockAt(world.Pos(x, y, z)); !b.IsAir() {
						want.Blocks = append(want.Blocks, wire.PosBlock{Pos: world.Pos(x, y, z), Block: b})
					}
				}
			}
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(want))
		got, err := q.Answer(context.Background(), wire.TypeBlocksIn,
			mustJSON(t, wire.BlocksInRequest{From: box[1], To: box[0]}))
		require.NoError(t, err)
		raw, ok := got.(json.RawMessage)
		require.True(t, ok, "%T", got)
		assert.Equal(t, string(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), string(raw), box)
		assert.Equal(t, len(raw), cap(raw), "the buffer is sized for the reply: %v", box)
	}
}
