package sim

import (
	"slices"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// Saplings grow by Minecraft 1.7.10's rules (MCP names), with the game
// ticks the run's actions take:
//
//   - Random ticks: WorldServer.func_147456_g gives every 16×16×16 section
//     of a loaded chunk 3 random block updates a tick (1.7.10 has no
//     randomTickSpeed rule; 3 is fixed), so a block gets its updateTick
//     with a chance of 3 in 4,096 a tick.
//   - BlockSapling.updateTick: BlockBush's check first (a sapling whose
//     soil is gone pops off as an item, BlockBush.checkAndDropBlock; its
//     light condition is not modelled), then,
//     when the light above it (World.getBlockLightValue(x, y+1, z)) is at
//     least 9, 1 in 7: func_149879_c sets metadata bit 8 when it is clear
//     and grows the tree (func_149878_d) when it is set. Two such updates
//     make a tree: about 19,100 ticks (16 minutes) on average in the
//     light.
//   - func_149878_d sets the sapling to air and runs the tree's generator;
//     when it fails the sapling is put back. For an oak sapling (metadata
//     & 7 == 0) that is WorldGenTrees(true) — minTreeHeight 4, oak log and
//     leaves — or, 1 in 10, WorldGenBigTree.
//
// The simulator grows the ordinary oak of WorldGenTrees.generate every
// time (the big oak, which gives more wood, is not modelled: the
// simulator's wood is a lower bound), and only oak saplings grow: the other
// kinds' generators are not modelled and their saplings stay as planted.
const (
	// randomTicksPerSection: WorldServer.func_147456_g's updates a
	// section a tick.
	randomTicksPerSection = 3
	// sectionBlocks: the blocks of a 16×16×16 section.
	sectionBlocks = 16 * 16 * 16
	// saplingLight: BlockSapling.updateTick's least light above.
	saplingLight = 9
	// saplingChance: BlockSapling.updateTick's 1 in 7.
	saplingChance = 7
	// saplingStage: the metadata bit func_149879_c sets.
	saplingStage = 8
	// oakMinHeight: WorldGenTrees' minTreeHeight for saplings
	// (BlockSapling.func_149878_d: new WorldGenTrees(true)); the trunk is
	// nextInt(3) + 4 logs.
	oakMinHeight = 4
)

const saplingBlock = "minecraft:sapling"

// trackSapling notes a sapling placed in the world: only those get random
// ticks (the game ticks every block; only saplings change here).
func (s *Sim) trackSapling(p world.BlockPos) { s.saplings[p] = struct{}{} }

// growSaplings runs the random ticks of ticks start+1 … start+n on the
// saplings, in position order.
func (s *Sim) growSaplings(tx *world.Tx, start, n int64) {
	if len(s.saplings) == 0 {
		return
	}
	ps := make([]world.BlockPos, 0, len(s.saplings))
	for p := range s.saplings {
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b world.BlockPos) int {
		if a.Y != b.Y {
			return a.Y - b.Y
		}
		if a.Z != b.Z {
			return a.Z - b.Z
		}
		return a.X - b.X
	})
	for _, p := range ps {
		if tx.BlockAt(p).ID != saplingBlock {
			delete(s.saplings, p) // broken, or grown over
			continue
		}
	ticks:
		for i := int64(1); i <= n; i++ {
			for range randomTicksPerSection {
				if s.rng.IntN(sectionBlocks) != 0 {
					continue
				}
				if s.saplingTick(tx, p, start+i) {
					delete(s.saplings, p)
					break ticks
				}
			}
		}
	}
}

// saplingTick is BlockSapling.updateTick at a game tick; it reports
// whether the sapling is gone (grown into a tree, or popped off).
func (s *Sim) saplingTick(tx *world.Tx, p world.BlockPos, tick int64) bool {
	if !tx.BlockAt(p.Down()).HasTag("soil") {
		// BlockBush.checkAndDropBlock: no soil, the sapling drops.
		meta := tx.BlockAt(p).Meta
		_ = tx.SetBlock(p, "minecraft:air", 0)
		s.dropItem(world.Vec3{X: float64(p.X) + 0.5, Y: float64(p.Y) + 0.5, Z: float64(p.Z) + 0.5},
			s.rules.Stack(saplingBlock, meta&7, 1), 10)
		s.lightReset()
		return true
	}
	darkness := s.rules.Mobs.SkyDarkness(s.timeAt(tick))
	if s.lightAt(tx, p.Up(), darkness) < saplingLight || s.rng.IntN(saplingChance) != 0 {
		return false
	}
	meta := tx.BlockAt(p).Meta
	if meta&saplingStage == 0 {
		_ = tx.SetBlock(p, saplingBlock, meta|saplingStage)
		return false
	}
	if meta&7 != 0 {
		return false // only the oak's generator is modelled
	}
	_ = tx.SetBlock(p, "minecraft:air", 0)
	if !s.growOak(tx, p) {
		_ = tx.SetBlock(p, saplingBlock, meta)
		return false
	}
	s.lightReset()
	return true
}

// growOak is WorldGenTrees.generate (1.7.10) for an oak from a sapling at
// p: a trunk of nextInt(3)+4 logs, leaves in four layers from three below
// the top of the trunk to one above it (a radius of 2 in the lower two, 1
// in the upper two; each corner left out at random, the top layer's
// always), only where the space is free. It reports false, changing
// nothing, when a block in the tree's space is in the way or the soil is
// not grass or dirt.
func (s *Sim) growOak(tx *world.Tx, p world.BlockPos) bool {
	height := s.rng.IntN(3) + oakMinHeight
	if p.Y < 1 || p.Y+height+1 > 256 {
		return false
	}
	inWorld := func(q world.BlockPos) bool {
		return q.X >= 0 && q.Z >= 0 && q.X < s.sc.SizeX && q.Z < s.sc.SizeZ
	}
	// The space check: radius 0 at the sapling, 1 along the trunk, 2 in
	// the top two layers.
	for y := p.Y; y <= p.Y+1+height; y++ {
		r := 1
		if y == p.Y {
			r = 0
		}
		if y >= p.Y+1+height-2 {
			r = 2
		}
		for z := p.Z - r; z <= p.Z+r; z++ {
			for x := p.X - r; x <= p.X+r; x++ {
				q := world.Pos(x, y, z)
				if inWorld(q) && !treeReplaceable(tx.BlockAt(q)) {
					return false
				}
			}
		}
	}
	if !tx.BlockAt(p.Down()).HasTag("soil") {
		return false
	}
	// Block.onPlantGrow: grass under a new tree turns to dirt.
	if tx.BlockAt(p.Down()).ID == "minecraft:grass" {
		_ = tx.SetBlock(p.Down(), "minecraft:dirt", 0)
	}
	top := p.Y + height
	for y := top - 3; y <= top; y++ {
		layer := y - top // -3 … 0
		r := 1 - layer/2 // Go's division truncates as Java's: 2, 2, 1, 1
		for z := p.Z - r; z <= p.Z+r; z++ {
			for x := p.X - r; x <= p.X+r; x++ {
				// A corner stays bare unless nextInt(2) != 0, and always
				// in the top layer (the draw is made all the same).
				corner := abs(x-p.X) == r && abs(z-p.Z) == r
				if corner && (s.rng.IntN(2) == 0 || layer == 0) {
					continue
				}
				q := world.Pos(x, y, z)
				if !inWorld(q) {
					continue
				}
				if b := tx.BlockAt(q); b.IsAir() || b.HasTag("leaves") {
					_ = tx.SetBlock(q, "minecraft:leaves", 0)
				}
			}
		}
	}
	for y := p.Y; y < top; y++ {
		q := world.Pos(p.X, y, p.Z)
		if b := tx.BlockAt(q); b.IsAir() || b.HasTag("leaves") {
			_ = tx.SetBlock(q, "minecraft:log", 0)
		}
	}
	return true
}

// treeReplaceable is WorldGenAbstractTree.isReplaceable (Forge 1.7.10):
// air, leaves, grass, dirt, logs, saplings and vines do not stop a tree.
func treeReplaceable(b world.Block) bool {
	switch b.ID {
	case "minecraft:grass", "minecraft:dirt", saplingBlock, "minecraft:vine":
		return true
	}
	return b.IsAir() || b.HasTag("leaves") || b.HasTag("log")
}
