package world

import "github.com/gtnh-agent/gtnh-agent/rules"

// NewStack builds a stack with tags from the shipped tag table.
func NewStack(id string, meta, count int) ItemStack {
	return ItemStack{ID: id, Meta: meta, Count: count, Tags: rules.DefaultTags().ItemTags(id, meta)}
}

// NewTool builds a single damageable item with the given remaining durability.
func NewTool(id string, meta, durability, maxDurability int) ItemStack {
	s := NewStack(id, meta, 1)
	s.MaxDamage = maxDurability
	s.Damage = maxDurability - durability
	return s
}
