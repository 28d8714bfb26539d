package gtnh

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/proto17"
)

func TestBadItemNBT(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		good, err := (&proto17.NBT{Root: proto17.Compound{"GT.ToolStats": proto17.Compound{"Damage": int64(3), "MaxDamage": int64(100)}}}).Gzip()
		require.NoError(t, err)
		bomb := fakeserver.NBTBomb()
		stack := func(nbt []byte) proto17.Slot { return proto17.Slot{ID: 280, Count: 1, NBT: nbt} }
		meta := func(sl proto17.Slot) *proto17.EntityMetadata {
			return &proto17.EntityMetadata{EntityID: 7, Metadata: proto17.Metadata{{Key: proto17.MetaKeyItem, Type: proto17.MetaSlot, Slot: sl}}}
		}
		cases := []struct {
			name string
			p    proto17.Packet
			bad  bool
		}{
			{"set slot without NBT", &proto17.SetSlot{Slot: 20, Item: stack(nil)}, false},
			{"set slot with good NBT", &proto17.SetSlot{Slot: 20, Item: stack(good)}, false},
			{"set slot with the bomb", &proto17.SetSlot{Slot: 20, Item: stack(bomb)}, true},
			{"set slot with broken gzip", &proto17.SetSlot{Slot: 20, Item: stack([]byte{1, 2, 3})}, true},
			{"window items, the bomb in the last slot", &proto17.WindowItems{Items: []proto17.Slot{stack(good), {}, stack(bomb)}}, true},
			{"window items, good", &proto17.WindowItems{Items: []proto17.Slot{stack(good), {}}}, false},
			{"item metadata with the bomb", meta(stack(bomb)), true},
			{"item metadata with good NBT", meta(stack(good)), false},
			{"other packets", &proto17.KeepAlive{ID: 1}, false},
		}
		for _, tc := range cases {
			err := badItemNBT(tc.p)
			if tc.bad {
				assert.Error(t, err, tc.name)
			} else {
				assert.NoError(t, err, tc.name)
			}
		}
	})
}

// TestHostileServerPacketsAreDropped: against the fake server's hostile
// mode the client drops the NBT bombs (Set Slot, an item's metadata), the
// zlib bomb column, the short Window Items and the FML|MP preamble, counts
// each as malformed, keeps the real inventory and goes on playing.
func TestHostileServerPacketsAreDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := joinedClient(t, fakeserver.Options{Hostile: true})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		want := []string{"SetSlot", "EntityMetadata", "ChunkData", "WindowItems", "PluginMessage(FML|MP)"}
		require.NoError(t, c.waitFor(ctx, c.sess, func() bool {
			for _, name := range want {
				if c.stats.Malformed[name] == 0 {
					return false
				}
			}
			return true
		}), "every hostile packet counted: %v", c.Stats().Malformed)
		st := c.Stats()
		for _, name := range want {
			assert.Equal(t, int64(1), st.Malformed[name], name)
		}
		assert.Contains(t, st.Unknown, "inventory")
		snap := c.State().Snapshot()
		assert.Zero(t, snap.Inventory.CountID("minecraft:stick"), "the bomb's stick never reached the inventory")
		assert.Equal(t, 1, snap.Inventory.CountID("minecraft:iron_axe"))
		for _, e := range snap.Entities {
			assert.Nil(t, e.Item, "no item entity kept from the bomb: %+v", e)
		}
		assert.True(t, c.Connected())
		assert.Empty(t, srv.Kicks())
	})
}
