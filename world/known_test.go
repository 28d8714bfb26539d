package world

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/rules"
)

// TestKnownIsTheLoadedColumns: a snapshot knows the blocks of its loaded
// chunk columns (air there is air) and nothing of the others, through the
// position tags' view too; without blocks it knows nothing.
func TestKnownIsTheLoadedColumns(t *testing.T) {
	a := newRawColumn(t, 6, 0, 0)
	s := NewState(StateOptions{Rules: rules.Default()})
	s.Update(func(tx *Tx) { tx.LoadColumn(a.col) })
	snap := s.Snapshot()
	assert.True(t, snap.Known(Pos(3, 200, 15)), "air in a loaded column is known")
	assert.False(t, snap.Known(Pos(16, 64, 0)), "the next column is not loaded")
	assert.False(t, snap.Known(Pos(-1, 64, 0)))
	s.Update(func(tx *Tx) { tx.SetBlockTags(Pos(1, 64, 1), []string{"base"}) })
	tagged := s.Snapshot()
	assert.True(t, tagged.Known(Pos(3, 64, 3)))
	assert.False(t, tagged.Known(Pos(40, 64, 3)))
	assert.False(t, (&Snapshot{}).Known(Pos(0, 0, 0)))
}
