package gtnh_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/gtnh/record"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// TestReplayedChestIsTheLiveOne: the bot opens a chest (a vanilla window,
// which does not say where it is: the bot's click does) and takes logs
// from it; the replay knows the same chest with the same contents.
func TestReplayedChestIsTheLiveOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
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
	})
}

// TestReplayedCraftIsTheLiveOne: crafting clicks the result slot, whose
// prediction (the grid consumed) the server never sends; the replay makes
// it again.
func TestReplayedCraftIsTheLiveOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf bytes.Buffer
		rec, err := record.NewRecorder(&buf, record.RecorderOptions{})
		require.NoError(t, err)
		c := gtnh.CraftClientForTest(t, rec)
		ctx := context.Background()
		require.NoError(t, c.Open(ctx))
		gtnh.Eventually(t, "three logs", func() bool { return c.State().Snapshot().Inventory.CountID("minecraft:log") == 3 })
		res := c.Execute(ctx, action.Craft{Item: "minecraft:planks", Count: 1})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		live := c.State().Snapshot()
		require.Equal(t, 2, live.Inventory.CountID("minecraft:planks"))
		require.NoError(t, c.Close())
		require.NoError(t, rec.Close())

		got, err := record.Replay(ctx, bytes.NewReader(buf.Bytes()), record.ReplayOptions{})
		require.NoError(t, err)
		assert.Positive(t, got.WindowClicks)
		assert.Equal(t, live.Inventory, got.World.Inventory)
	})
}

// TestReplayedWindowOfNoClickHasNoBlock: a window the server opens after
// the chest's (not answering a click) belongs to no block, as live: the
// clicked block is forgotten once its window opened.
func TestReplayedWindowOfNoClickHasNoBlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf bytes.Buffer
		rec, err := record.NewRecorder(&buf, record.RecorderOptions{})
		require.NoError(t, err)
		c, chest := gtnh.ChestClientForTest(t, rec)
		ctx := context.Background()
		require.NoError(t, c.Open(ctx))
		res := c.Execute(ctx, action.OpenContainer{Pos: chest})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		live := c.State().Snapshot()
		require.NoError(t, c.Close())
		require.NoError(t, rec.Close())
		first, err := record.Replay(ctx, bytes.NewReader(buf.Bytes()), record.ReplayOptions{})
		require.NoError(t, err)

		// The same recording with a second window opened by the server.
		rd, err := record.NewReader(bytes.NewReader(buf.Bytes()))
		require.NoError(t, err)
		var out bytes.Buffer
		w, err := record.NewWriter(&out, record.WriterOptions{})
		require.NoError(t, err)
		packet := func(p proto17.Packet) {
			payload, err := p.AppendPayload(nil, first.Formats)
			require.NoError(t, err)
			body := append([]byte{record.StatePlay}, byte(p.PacketID()))
			require.NoError(t, w.Write(record.KindPacket, append(body, payload...)))
		}
		for {
			r, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err)
			if r.Kind == record.KindClosed {
				packet(&proto17.CloseWindow{WindowID: 3})
				packet(&proto17.OpenWindow{WindowID: 4, Type: 0, Title: "container.chest", Slots: 27})
				items := make([]proto17.Slot, 27+36)
				items[0] = proto17.Slot{ID: 3, Count: 64}
				packet(&proto17.WindowItems{WindowID: 4, Items: items})
			}
			require.NoError(t, w.Write(r.Kind, r.Body))
		}
		require.NoError(t, w.Close())
		got, err := record.Replay(ctx, bytes.NewReader(out.Bytes()), record.ReplayOptions{})
		require.NoError(t, err)
		assert.Equal(t, live.Machines, got.World.Machines, "the chest keeps its logs")
	})
}

// TestReplayedHotbarSwapIsTheLiveOne: equipping an axe from the main
// inventory swaps it into the hotbar (a mode-2 click the server only
// confirms), then holding the logs selects their hotbar slot; the replay
// does both.
func TestReplayedHotbarSwapIsTheLiveOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf bytes.Buffer
		rec, err := record.NewRecorder(&buf, record.RecorderOptions{})
		require.NoError(t, err)
		c := gtnh.EquipClientForTest(t, rec)
		ctx := context.Background()
		require.NoError(t, c.Open(ctx))
		gtnh.Eventually(t, "the iron axe", func() bool { return c.State().Snapshot().Inventory.CountID("minecraft:iron_axe") == 1 })
		res := c.Execute(ctx, action.Equip{Item: "minecraft:iron_axe"})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		require.Equal(t, "minecraft:iron_axe", c.State().Snapshot().Inventory.HeldStack().ID)
		// Holding what is in the hotbar selects its slot (Held Item Change),
		// which the server does not echo.
		res = c.Execute(ctx, action.Equip{Item: "minecraft:log"})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		live := c.State().Snapshot()
		require.Equal(t, 3, live.Inventory.Held)
		require.NoError(t, c.Close())
		require.NoError(t, rec.Close())

		got, err := record.Replay(ctx, bytes.NewReader(buf.Bytes()), record.ReplayOptions{})
		require.NoError(t, err)
		assert.Equal(t, 1, got.WindowClicks)
		assert.Equal(t, live.Inventory, got.World.Inventory)
	})
}
