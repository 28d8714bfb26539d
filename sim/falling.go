package sim

import (
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Falling blocks, as Minecraft 1.7.10 has them: sand and gravel are
// BlockFalling. When such a block has below it air, fire, water or lava
// (BlockFalling.func_149831_e, checked in updateTick, which onBlockAdded
// and onNeighborBlockChange schedule), it becomes an EntityFallingBlock
// that falls until it stands on something and places itself there as a
// block again (EntityFallingBlock.onUpdate, replacing the air or liquid it
// lands in). The simulator lets the fall happen at once: the few ticks of
// flight are not modelled.

// fallsInto reports whether a falling block falls into a block
// (rules.FallsThrough; a block with no registry name is air).
func fallsInto(b world.Block) bool {
	return rules.FallsThrough(b.ID) || b.IsAir()
}

// settleFalling lets the falling blocks at p and above it fall after the block
// at p changed: each sand or gravel with room below drops to the first
// block that holds it, and the column above follows. It returns the
// positions the blocks landed at.
func (s *Sim) settleFalling(tx *world.Tx, p world.BlockPos) []world.BlockPos {
	var landed []world.BlockPos
	for y := p.Y; y < worldHeight; y++ {
		at := world.Pos(p.X, y, p.Z)
		b := tx.BlockAt(at)
		if !rules.Falls(b.ID) {
			if y > p.Y {
				return landed // the column above rests
			}
			continue
		}
		land := at
		for land.Y > 0 && fallsInto(tx.BlockAt(land.Add(0, -1, 0))) {
			land = land.Add(0, -1, 0)
		}
		if land == at {
			if y > p.Y {
				return landed
			}
			continue
		}
		if err := tx.SetBlock(at, "minecraft:air", 0); err != nil {
			return landed
		}
		if err := tx.SetBlock(land, b.ID, b.Meta); err != nil {
			return landed
		}
		landed = append(landed, land)
	}
	return landed
}

// worldHeight is the height of a 1.7.10 world.
const worldHeight = 256
