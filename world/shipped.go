package world

import "github.com/gtnh-agent/gtnh-agent/rules"

// Conveniences over the shipped rule set (rules.Default()) for tests and the
// top of the program. The world model itself (State) never calls them: it
// tags blocks with the Rules it was given; a body or a simulator that holds
// its own rules builds stacks with rules.TagTable.Stack.

// NewStack builds a stack with tags from the shipped tag table.
func NewStack(id string, meta, count int) ItemStack {
	return rules.Default().Tags.Stack(id, meta, count)
}

// NewTool builds a single damageable item with the given remaining
// durability, tagged from the shipped tag table.
func NewTool(id string, meta, durability, maxDurability int) ItemStack {
	s := NewStack(id, meta, 1)
	s.MaxDamage = maxDurability
	s.Damage = maxDurability - durability
	return s
}

// NewBlock builds a block with tags from the shipped tag table.
func NewBlock(id string, meta int) Block { return rules.Default().Tags.Block(id, meta) }
