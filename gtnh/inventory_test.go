package gtnh

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"runtime"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// gtToolID is an item id the vanilla map does not name, so toStack reads
// its wear from GregTech's NBT.
const gtToolID = 4000

func gzipBytes(t testing.TB, raw []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write(raw)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// enchListBomb is item NBT {ench: TAG_List<Compound>[0x7FFFFFFF]} with no
// elements, uncompressed.
func enchListBomb() []byte {
	b := []byte{10, 0, 0, 9, 0, 4, 'e', 'n', 'c', 'h', 10}
	b = binary.BigEndian.AppendUint32(b, 0x7FFFFFFF)
	return append(b, 0)
}

func TestItemNBTReadsToolWearAndEnchantments(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := &proto17.NBT{Root: proto17.Compound{
			"GT.ToolStats": proto17.Compound{"Damage": int64(1200), "MaxDamage": int64(51200), "PrimaryMaterial": "Steel"},
			"ench": proto17.List{Type: proto17.TagCompound, Values: []any{
				proto17.Compound{"id": int16(34), "lvl": int16(1)},
				proto17.Compound{"id": int16(32), "lvl": int16(3)},
			}},
		}}
		gz, err := n.Gzip()
		require.NoError(t, err)
		s := proto17.Slot{ID: gtToolID, Count: 1, NBT: gz}
		st := toStack(s, rules.Default().IDs, rules.Default())
		assert.Equal(t, 1200, st.Damage)
		assert.Equal(t, 51200, st.MaxDamage)
		assert.Equal(t, 3, efficiency(s))

		// Without GT.ToolStats (or with a MaxDamage of 0) there is no wear.
		n.Root["GT.ToolStats"] = proto17.Compound{"Damage": int64(5), "MaxDamage": int64(0)}
		gz, err = n.Gzip()
		require.NoError(t, err)
		st = toStack(proto17.Slot{ID: gtToolID, Count: 1, NBT: gz}, rules.Default().IDs, rules.Default())
		assert.Zero(t, st.MaxDamage)
		assert.Zero(t, st.Damage)
		// Undecodable NBT is no wear and no enchantment.
		bad := proto17.Slot{ID: gtToolID, Count: 1, NBT: []byte{1, 2, 3}}
		assert.Zero(t, toStack(bad, rules.Default().IDs, rules.Default()).MaxDamage)
		assert.Zero(t, efficiency(bad))
	})
}

// TestItemNBTListBomb: a list announcing 2^31-1 compounds in a few bytes
// decodes to nothing, and the client allocates next to nothing for it
// (go-mc's decoder sized the list from the count: an ~8 GiB allocation,
// fatal where memory is not overcommitted).
func TestItemNBTListBomb(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := proto17.Slot{ID: gtToolID, Count: 1, NBT: gzipBytes(t, enchListBomb())}
		ids := rules.Default().IDs
		var st world.ItemStack
		var eff int
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		st = toStack(s, ids, rules.Default())
		eff = efficiency(s)
		runtime.ReadMemStats(&after)
		assert.Zero(t, eff)
		assert.Zero(t, st.MaxDamage)
		assert.Equal(t, 1, st.Count)
		got := after.TotalAlloc - before.TotalAlloc
		assert.Less(t, got, uint64(4<<20), "decoding the bomb allocated %d bytes", got)
		_, ok := readItemNBT(s.NBT)
		assert.False(t, ok)
	})
}

// FuzzItemNBT feeds item NBT through the client's slot-to-stack path. The
// first byte picks the form: even, the rest is raw NBT the fuzzer gzips
// (reaching the NBT parser); odd, the rest is the slot's bytes as sent.
func FuzzItemNBT(f *testing.F) {
	n := &proto17.NBT{Root: proto17.Compound{
		"GT.ToolStats": proto17.Compound{"Damage": int64(7), "MaxDamage": int64(100)},
		"ench":         proto17.List{Type: proto17.TagCompound, Values: []any{proto17.Compound{"id": int16(32), "lvl": int16(2)}}},
	}}
	raw, err := n.Bytes()
	require.NoError(f, err)
	f.Add(append([]byte{0}, raw...))
	f.Add(append([]byte{0}, enchListBomb()...))
	f.Add(append([]byte{1}, gzipBytes(f, enchListBomb())...))
	infi, err := (&proto17.NBT{Root: proto17.Compound{"InfiTool": proto17.Compound{"Head": int32(2), "HarvestLevel": int32(2)}}}).Bytes()
	require.NoError(f, err)
	f.Add(append([]byte{0}, infi...))
	ids := rules.Default().IDs
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		nbt := data[1:]
		if data[0]&1 == 0 {
			nbt = gzipBytes(t, nbt)
		}
		s := proto17.Slot{ID: gtToolID, Count: 1, NBT: nbt}
		st := toStack(s, ids, rules.Default())
		e := efficiency(s)
		v, ok := readItemNBT(nbt)
		_, perr := proto17.DecodeGzipNBT(nbt)
		if ok != (perr == nil) {
			t.Fatalf("readItemNBT ok=%t but the decoder says %v", ok, perr)
		}
		if st.MaxDamage != 0 && (!v.hasWear || st.MaxDamage <= 0) {
			t.Fatalf("wear %d/%d without GT.ToolStats MaxDamage > 0", st.Damage, st.MaxDamage)
		}
		if v.tinker != nil && (!ok || v.tinker.Head != int(int32(v.tinker.Head)) || v.tinker.HarvestLevel != int(int32(v.tinker.HarvestLevel))) {
			t.Fatalf("a Tinkers' tool %+v out of an int's range", *v.tinker)
		}
		if e != int(v.ench[32]) {
			t.Fatalf("efficiency %d, ench map %v", e, v.ench)
		}
	})
}

// TestClientFollowsItsRules: the client reads wear and tags by the rules of
// its configuration, not by the shipped tables, and builds its world with
// them.
func TestClientFollowsItsRules(t *testing.T) {
	shipped := rules.Default()
	mining, err := rules.ParseMiningRules("mining.yaml", []byte("blocks: {}\ntools:\n  - {prefix: \"minecraft:iron_\", speed: 6, durability: 99, harvest_level: 2}\n"))
	require.NoError(t, err)
	tags, err := rules.ParseTags("tags.yaml", []byte("blocks:\n  minecraft:log: [other_log]\nitems:\n  minecraft:iron_pickaxe: [\"tool:other\"]\n"))
	require.NoError(t, err)
	other := *shipped
	other.Mining, other.Tags = mining, tags

	pick, ok := shipped.IDs.ItemID("minecraft:iron_pickaxe")
	require.True(t, ok)
	slot := proto17.Slot{ID: int16(pick), Count: 1, Damage: 7}
	st := toStack(slot, shipped.IDs, &other)
	assert.Equal(t, 99, st.MaxDamage, "durability from the given mining table")
	assert.Equal(t, 7, st.Damage)
	assert.Equal(t, []string{"tool:other"}, st.Tags, "tags from the given table")
	assert.Equal(t, 250, toStack(slot, shipped.IDs, shipped).MaxDamage, "the shipped iron pickaxe")

	cfg := Config{Rules: &other}.withDefaults()
	assert.Same(t, &other, cfg.Rules)
	cfg.State.Update(func(tx *world.Tx) { require.NoError(t, tx.SetBlock(world.Pos(0, 64, 0), "minecraft:log", 0)) })
	assert.Equal(t, []string{"other_log"}, cfg.State.Snapshot().BlockAt(world.Pos(0, 64, 0)).Tags, "the world is built with the same rules")
	assert.Same(t, shipped, Config{}.withDefaults().Rules, "the shipped set by default")
}

// TestItemNBTReadsTinkersTool: a Tinkers' tool's InfiTool tag gives the
// stack its head and harvest level (an iron-headed pickaxe before its
// boost: 2), which the mining table then uses; a tag without both, or an
// item of another mod, gives none.
func TestItemNBTReadsTinkersTool(t *testing.T) {
	ids := rules.Default().IDs.Clone()
	require.NoError(t, ids.SetItem(4001, "TConstruct:pickaxe"))
	set := *rules.Default()
	set.IDs = ids
	slot := func(id int16, tag proto17.Compound) proto17.Slot {
		gz, err := (&proto17.NBT{Root: tag}).Gzip()
		require.NoError(t, err)
		return proto17.Slot{ID: id, Count: 1, NBT: gz}
	}
	infi := proto17.Compound{"InfiTool": proto17.Compound{"Head": int32(2), "Handle": int32(0), "HarvestLevel": int32(2), "MiningSpeed": int32(600)}}
	st := toStack(slot(4001, infi), ids, &set)
	require.NotNil(t, st.Tinker)
	assert.Equal(t, world.TinkerTool{Head: 2, HarvestLevel: 2}, *st.Tinker)
	assert.Equal(t, 2, set.Mining.ToolLevel(st, "pickaxe", -1))

	assert.Nil(t, toStack(slot(4001, proto17.Compound{"InfiTool": proto17.Compound{"Head": int32(2)}}), ids, &set).Tinker, "no HarvestLevel")
	assert.Nil(t, toStack(slot(4001, proto17.Compound{"InfiTool": proto17.Compound{"Head": "iron", "HarvestLevel": int32(2)}}), ids, &set).Tinker, "not an integer")
	assert.Nil(t, toStack(slot(4001, proto17.Compound{"InfiTool": proto17.Compound{"Head": int64(1 << 40), "HarvestLevel": int32(2)}}), ids, &set).Tinker, "beyond an int")
	assert.Nil(t, toStack(slot(gtToolID, infi), ids, &set).Tinker, "not a Tinkers' item")
	assert.Nil(t, toStack(proto17.Slot{ID: 4001, Count: 1, NBT: []byte{1, 2, 3}}, ids, &set).Tinker, "NBT that does not decode")
}
