package world

import (
	"testing"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A position tag makes the block found by that tag, at that position only,
// until the block changes.
func TestPositionTags(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	col := chunk.NewColumn(0, 0)
	stone := chunk.MakeState(1, 0)
	for x := 0; x < 16; x++ {
		for z := 0; z < 16; z++ {
			col.SetState(x, 10, z, stone)
		}
	}
	s.Update(func(tx *Tx) {
		tx.LoadColumn(col)
		tx.SetPlayer(Player{Pos: Vec3{X: 0.5, Y: 11, Z: 0.5}, Dimension: Overworld})
		tx.SetBlockTags(Pos(5, 10, 5), []string{"ore:oreCopper"})
	})
	snap := s.Snapshot()
	hits := snap.NearestBlocks(32, 0, "ore:oreCopper")
	require.Len(t, hits, 1)
	assert.Equal(t, Pos(5, 10, 5), hits[0].Pos)
	assert.True(t, snap.BlockAt(Pos(5, 10, 5)).HasTag("ore:oreCopper"))
	assert.False(t, snap.BlockAt(Pos(5, 10, 6)).HasTag("ore:oreCopper"))
	assert.Empty(t, snap.NearestBlocks(3, 0, "ore:oreCopper"), "outside the radius")

	// Mined: the tag goes with the block; the old snapshot keeps its view.
	s.Update(func(tx *Tx) { tx.SetState(Pos(5, 10, 5), chunk.AirState) })
	assert.Empty(t, s.Snapshot().NearestBlocks(32, 0, "ore:oreCopper"))
	assert.Len(t, snap.NearestBlocks(32, 0, "ore:oreCopper"), 1)
}

// ChunksOf finds the chunk view under position tags.
func TestChunksOf(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	c, ok := ChunksOf(s.Snapshot().Blocks)
	require.True(t, ok)
	s.Update(func(tx *Tx) { tx.SetBlockTags(Pos(0, 0, 0), []string{"x"}) })
	snap := s.Snapshot()
	_, plain := snap.Blocks.(*chunk.Chunks)
	assert.False(t, plain, "tags wrap the view")
	c2, ok := ChunksOf(snap.Blocks)
	require.True(t, ok)
	assert.NotNil(t, c2)
	assert.NotNil(t, c)
	_, ok = ChunksOf(&SparseBlocks{})
	assert.False(t, ok)
}

// TestCountBlocksWithPositionTags: counting over a snapshot with position
// tags agrees with counting its blocks one by one: a tag-only match
// counts at the tagged positions, and a block whose state changed since
// it was tagged is counted without its tags.
func TestCountBlocksWithPositionTags(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	s.Update(func(tx *Tx) {
		for x := 0; x < 8; x++ {
			require.NoError(t, tx.SetBlock(Pos(x, 64, 0), "minecraft:stone", 0))
		}
		tx.SetBlockTags(Pos(1, 64, 0), []string{"ore:oreCopper"})
		tx.SetBlockTags(Pos(2, 64, 0), []string{"ore:oreCopper"})
		tx.SetBlockTags(Pos(3, 64, 0), []string{"ore:oreTin"})
		require.NoError(t, tx.SetBlock(Pos(2, 64, 0), "minecraft:cobblestone", 0)) // no longer tagged
	})
	snap := s.Snapshot()
	center := Pos(0, 64, 0)
	for name, match := range map[string]func(Block) bool{
		"copper":            func(b Block) bool { return b.HasTag("ore:oreCopper") },
		"stone":             func(b Block) bool { return b.ID == "minecraft:stone" },
		"stone, not ore":    func(b Block) bool { return b.ID == "minecraft:stone" && !b.HasTag("ore:oreTin") },
		"any tag or cobble": func(b Block) bool { return len(b.Tags) > 0 || b.ID == "minecraft:cobblestone" },
	} {
		want := 0
		for x := -4; x < 12; x++ {
			p := Pos(x, 64, 0)
			if p.DistSq(center) <= 25 && !snap.BlockAt(p).IsAir() && match(snap.BlockAt(p)) {
				want++
			}
		}
		assert.Equal(t, want, CountBlocks(snap.Blocks, center, 5, match), name)
	}
}
