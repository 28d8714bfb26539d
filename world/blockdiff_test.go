package world

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/rules"
)

func TestCountBlocksIsTheNumberOfHits(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	s.Update(func(tx *Tx) {
		for x := -6; x <= 6; x++ {
			for z := -6; z <= 6; z++ {
				require.NoError(t, tx.SetBlock(Pos(x, 60, z), "minecraft:stone", 0))
			}
		}
		require.NoError(t, tx.SetBlock(Pos(0, 61, 0), "minecraft:log", 0))
	})
	stone := func(b Block) bool { return b.ID == "minecraft:stone" }
	plain := s.Snapshot()
	s.Update(func(tx *Tx) { tx.SetBlockTags(Pos(1, 60, 1), []string{"ore:oreCopper"}) })
	tagged := s.Snapshot()
	sparse := NewSparseBlocks().SetID(Pos(1, 60, 1), "minecraft:stone", 0).SetID(Pos(9, 60, 1), "minecraft:stone", 0)
	for _, src := range []BlockSource{plain.Blocks, tagged.Blocks, sparse} {
		for _, r := range []int{-1, 0, 3, 5, 8, 20} {
			assert.Equal(t, len(src.Nearest(Pos(0, 61, 0), r, 0, stone)), CountBlocks(src, Pos(0, 61, 0), r, stone), "%T r=%d", src, r)
		}
	}
	assert.Equal(t, 13*13, CountBlocks(plain.Blocks, Pos(0, 61, 0), 20, stone))
}

func TestChangedBlocks(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	s.Update(func(tx *Tx) {
		require.NoError(t, tx.SetBlock(Pos(0, 60, 0), "minecraft:stone", 0))
		require.NoError(t, tx.SetBlock(Pos(2, 60, 0), "minecraft:stone", 0))
	})
	a := s.Snapshot()
	s.Update(func(tx *Tx) {
		require.NoError(t, tx.SetBlock(Pos(0, 60, 0), "minecraft:air", 0))
		require.NoError(t, tx.SetBlock(Pos(0, 62, 0), "minecraft:log", 0))
		require.NoError(t, tx.SetBlock(Pos(40, 60, 0), "minecraft:log", 0))
	})
	b := s.Snapshot()
	changed := func(x, y BlockSource, r int) ([]BlockPos, bool) {
		var out []BlockPos
		ok := ChangedBlocks(x, y, Pos(0, 60, 0), r, func(p BlockPos) { out = append(out, p) })
		return out, ok
	}
	got, ok := changed(a.Blocks, b.Blocks, 8)
	require.True(t, ok, "two chunk views compare")
	assert.ElementsMatch(t, []BlockPos{Pos(0, 60, 0), Pos(0, 62, 0)}, got, "what changed within 8, not the log 40 blocks away")

	// A tag that comes while the block stays is a change.
	s.Update(func(tx *Tx) { tx.SetBlockTags(Pos(2, 60, 0), []string{"ore:oreTin"}) })
	c := s.Snapshot()
	s.Update(func(tx *Tx) { tx.SetBlockTags(Pos(2, 60, 0), []string{"ore:oreCopper"}) })
	d := s.Snapshot()
	got, ok = changed(c.Blocks, d.Blocks, 8)
	require.True(t, ok, "two tagged views compare")
	assert.Contains(t, got, Pos(2, 60, 0))
	got, ok = changed(c.Blocks, d.Blocks, 1)
	require.True(t, ok)
	assert.Empty(t, got, "the tagged block is 2 blocks away")

	// Sources of different kinds cannot be compared here.
	_, ok = changed(a.Blocks, c.Blocks, 8)
	assert.False(t, ok, "a chunk view and a tagged view")
	_, ok = changed(NewSparseBlocks(), NewSparseBlocks(), 8)
	assert.False(t, ok, "sparse blocks")
}
