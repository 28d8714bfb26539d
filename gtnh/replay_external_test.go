package gtnh_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/gtnh/record"
	"github.com/gtnh-agent/gtnh-agent/ipc"
)

// TestReplayedChestIsTheLiveOne: the bot opens a chest (a vanilla window,
// which does not say where it is: the bot's click does) and takes logs
// from it; the replay knows the same chest with the same contents.
func TestReplayedChestIsTheLiveOne(t *testing.T) {
	var buf bytes.Buffer
	rec, err := record.NewRecorder(&buf, record.RecorderOptions{})
	require.NoError(t, err)
	c, chest := gtnh.ChestClientForTest(t, rec)
	ctx := context.Background()
	require.NoError(t, c.Open(ctx))
	res := c.Execute(ctx, action.OpenContainer{Pos: chest})
	require.Equal(t, ipc.OK, res.Code, res.Error)
	res = c.Execute(ctx, action.TransferItems{Pos: chest, Item: "minecraft:log", Count: 4, Direction: action.Withdraw})
	require.Equal(t, ipc.OK, res.Code, res.Error)
	live := c.State().Snapshot()
	require.Len(t, live.Machines, 1)
	require.NoError(t, c.Close())
	require.NoError(t, rec.Close())

	got, err := record.Replay(ctx, bytes.NewReader(buf.Bytes()), record.ReplayOptions{})
	require.NoError(t, err)
	assert.Equal(t, 1, got.Clicks, "the chest")
	assert.Positive(t, got.WindowClicks, "the transfer")
	assert.Equal(t, live.Machines, got.World.Machines)
	assert.Equal(t, live.Inventory, got.World.Inventory)
	assert.Equal(t, 4, got.World.Inventory.CountID("minecraft:log"))
	assert.Equal(t, 6, got.World.Machines[0].Slots["0"].Count)
}
