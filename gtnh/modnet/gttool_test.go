package modnet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// TestGTToolRoundTrip: a GregTech tool's stats survive encoding: a new
// tool has no Damage tag, a worn one does; two encodings of the same stats
// are the same NBT, and a different Damage is not.
func TestGTToolRoundTrip(t *testing.T) {
	fresh := GTTool{Primary: "Flint", Secondary: "Stone", MaxDamage: 12800}
	nbt, err := fresh.NBT()
	require.NoError(t, err)
	got, err := ParseGTTool(nbt)
	require.NoError(t, err)
	assert.Equal(t, fresh, got)
	worn := fresh
	worn.Damage, worn.HasDamage = 400, true
	wornNBT, err := worn.NBT()
	require.NoError(t, err)
	got, err = ParseGTTool(wornNBT)
	require.NoError(t, err)
	assert.Equal(t, worn, got)
	again, err := worn.NBT()
	require.NoError(t, err)
	assert.True(t, SameNBT(wornNBT, again))
	assert.False(t, SameNBT(nbt, wornNBT), "a worn tool is not the new one")
	worn.Damage = 800
	more, err := worn.NBT()
	require.NoError(t, err)
	assert.False(t, SameNBT(wornNBT, more))
	assert.True(t, SameNBT(nil, nil))
	assert.False(t, SameNBT(nil, nbt))
}

// TestParseGTToolRejects: NBT without the stats, with no positive
// MaxDamage or with a Damage that is not a long is no GregTech tool.
func TestParseGTToolRejects(t *testing.T) {
	for name, root := range map[string]proto17.Compound{
		"no stats":        {"ench": int16(1)},
		"no max damage":   {GTToolStatsKey: proto17.Compound{"Damage": int64(1)}},
		"zero max":        {GTToolStatsKey: proto17.Compound{"MaxDamage": int64(0)}},
		"damage not long": {GTToolStatsKey: proto17.Compound{"MaxDamage": int64(10), "Damage": "x"}},
	} {
		t.Run(name, func(t *testing.T) {
			n := proto17.NBT{Root: root}
			gz, err := n.Gzip()
			require.NoError(t, err)
			_, err = ParseGTTool(gz)
			assert.Error(t, err)
		})
	}
	_, err := ParseGTTool([]byte("not gzip"))
	assert.Error(t, err)
}

// FuzzParseGTTool: any bytes parse or fail with an error, never a panic,
// and what parses encodes back to the same stats.
func FuzzParseGTTool(f *testing.F) {
	nbt, _ := GTTool{Primary: "Flint", Secondary: "Wood", MaxDamage: 12800, Damage: 100, HasDamage: true}.NBT()
	f.Add(nbt)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		tool, err := ParseGTTool(data)
		if err != nil {
			return
		}
		again, err := tool.NBT()
		if err != nil {
			t.Fatalf("re-encoding %+v: %v", tool, err)
		}
		back, err := ParseGTTool(again)
		if err != nil || back != tool {
			t.Fatalf("round trip %+v → %+v (%v)", tool, back, err)
		}
	})
}
