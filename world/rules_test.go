package world

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// fakeRules is a Rules far from the shipped ones: every block carries one
// tag naming it, and the tier says whether a machine is known.
type fakeRules struct{ ids *rules.IDMap }

func (f fakeRules) StartIDs() *rules.IDMap               { return f.ids }
func (fakeRules) BlockTags(id string, meta int) []string { return []string{"seen:" + id} }
func (fakeRules) InferTier(inv Inventory, machines []Machine) string {
	if len(machines) > 0 {
		return "machine_age"
	}
	return "zero_age"
}

var _ Rules = fakeRules{}

func TestStateTakesItsRules(t *testing.T) {
	assert.PanicsWithValue(t, "world: NewState needs StateOptions.Rules (rules.Default() is the shipped set)",
		func() { NewState(StateOptions{}) })

	start := rules.NewIDMap()
	require.NoError(t, start.SetBlock(0, "minecraft:air"))
	require.NoError(t, start.SetBlock(5, "test:start"))
	s := NewState(StateOptions{Rules: fakeRules{ids: start}})
	assert.Same(t, start, s.Resolver().IDs(), "the id map the rules start with")
	s.Update(func(tx *Tx) { require.NoError(t, tx.SetBlock(Pos(1, 64, 1), "test:start", 0)) })
	snap := s.Snapshot()
	assert.Equal(t, []string{"seen:test:start"}, snap.BlockAt(Pos(1, 64, 1)).Tags, "tags come from the rules given")
	assert.Equal(t, "zero_age", snap.TechState, "the tier comes from the rules given")

	s.Update(func(tx *Tx) { tx.PutMachine(Machine{Kind: "anything", Pos: Pos(2, 64, 2)}) })
	assert.Equal(t, "machine_age", s.Snapshot().TechState)

	// A server's id map replaces the start map; the tags still come from
	// the same rules.
	ids := rules.NewIDMap()
	require.NoError(t, ids.SetBlock(0, "minecraft:air"))
	require.NoError(t, ids.SetBlock(7, "mod:thing"))
	s.Update(func(tx *Tx) {
		tx.SetIDMap(ids)
		tx.SetState(Pos(3, 64, 3), chunk.MakeState(7, 0))
	})
	assert.Equal(t, []string{"seen:mod:thing"}, s.Snapshot().BlockAt(Pos(3, 64, 3)).Tags)
}
