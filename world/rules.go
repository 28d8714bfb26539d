package world

import (
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Rules is what the world model takes from the game's rules: the id map a
// world starts with, the tags every block of a snapshot carries, and the
// tech tier that the inventory and the known machines show. The state
// receives it (StateOptions.Rules) and never loads a table itself;
// *rules.Set implements it, and a test may pass anything smaller.
type Rules interface {
	// StartIDs is the id map chunk data is read with until the body sets
	// the server's own registry (Tx.SetIDMap).
	StartIDs() *rules.IDMap
	chunk.Tagger
	// InferTier returns the highest tech tier the inventory or the known
	// machines show, or the lowest tier.
	InferTier(inv Inventory, machines []Machine) string
}

var _ Rules = (*rules.Set)(nil)
