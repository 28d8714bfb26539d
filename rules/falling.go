package rules

// Falls reports whether a block of this registry name is one of 1.7.10's
// BlockFalling blocks of the Stone Age's world (sand and gravel; the anvil
// and the dragon egg aside): when the block under it is one it falls
// through (FallsThrough; checked by the updateTick that onBlockAdded and
// onNeighborBlockChange schedule) it becomes an EntityFallingBlock that
// falls until it stands on something and places itself there again. The
// falling entity collides with blocks only — it passes through players —
// so it lands in whatever open cell a player stands in under it.
func Falls(id string) bool {
	return id == "minecraft:sand" || id == "minecraft:gravel"
}

// FallsThrough reports whether a falling block falls into a block of this
// registry name (BlockFalling.func_149831_e: air, fire, water or lava);
// anything else, a torch or tall grass among them, holds it up.
func FallsThrough(id string) bool {
	switch id {
	case "minecraft:air", "minecraft:fire", "minecraft:water", "minecraft:flowing_water", "minecraft:lava", "minecraft:flowing_lava":
		return true
	}
	return false
}
