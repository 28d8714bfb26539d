package rules

import "github.com/gtnh-agent/gtnh-agent/game"

// newStack, newTool and newBlock build values with tags from the shipped tag
// table, as world.NewStack, world.NewTool and world.NewBlock do above this
// package.
func newStack(id string, meta, count int) game.ItemStack {
	return game.ItemStack{ID: id, Meta: meta, Count: count, Tags: loadTags().ItemTags(id, meta)}
}

func newTool(id string, meta, durability, maxDurability int) game.ItemStack {
	s := newStack(id, meta, 1)
	s.MaxDamage = maxDurability
	s.Damage = maxDurability - durability
	return s
}

func newBlock(id string, meta int) game.Block {
	return game.Block{ID: id, Meta: meta, Tags: loadTags().BlockTags(id, meta)}
}
