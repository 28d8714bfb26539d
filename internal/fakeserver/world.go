package fakeserver

import (
	"fmt"
	"math"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Modded registry entries of the fake GTNH server. Ids differ per world on a
// real server; these are fixed so tests can name them.
const (
	// OreBlock is the modded block placed below the spawn by default.
	OreBlock = "gregtech:gt.blockores"
	// OreBlock2 is the ore block of GregTech 5.09.52.25 on (GTBlockOre
	// series 2: the material in the metadata, no tile entity); the server
	// places its ores as this block when its gregtech version reads ores
	// from metadata.
	OreBlock2 = "gregtech:gt.blockores2"
	// MachineBlock is a second modded block in the registry.
	MachineBlock = "gregtech:gt.blockmachines"
	// MetaItem is a modded item in the registry.
	MetaItem = "gregtech:gt.metaitem.01"
	// GTTool is GregTech's first tool item (MetaGeneratedTool01: the tool
	// id is the metadata, the wear is in the NBT).
	GTTool = "gregtech:gt.metatool.01"
	// EmptyCell is IC2's empty cell (GregTech's ItemList.Cell_Empty), what
	// a GregTech cell leaves when emptied.
	EmptyCell = "IC2:itemCellEmpty"
)

// Numeric ids of the modded blocks: above 4095 with NotEnoughIds (only its
// 16-bit format can carry them), below it in vanilla format (where they need
// the "add" nibbles).
const (
	oreIDNEID        = 4200
	machineIDNEID    = 4201
	ore2IDNEID       = 4210
	oreIDVanilla     = 1000
	ore2IDVanilla    = 1010
	machineIDVanilla = 1001
	metaItemID       = 5000
	cokeItemID       = 5001
	emptyCellID      = 5002
	stoneAgeItemID   = 5003 // the first of stoneAgeItems
	fillerItemFirst  = 6000
)

// stoneAgeItems are the modded items of the Stone Age chain to the coke
// oven (config/recipes.yaml, config/smelting.yaml): GregTech's flint tools,
// Tinkers' blank pattern, NewHorizonsCoreMod's brick form and bricks and
// IguanaTinkerTweaks' clay buckets, registered so the server can hand
// them out.
var stoneAgeItems = []string{
	GTTool, "TConstruct:blankPattern",
	"dreamcraft:item.WoodenBrickForm", "dreamcraft:item.UnfiredCokeOvenBrick", "dreamcraft:item.CokeOvenBrick",
	"IguanaTweaksTConstruct:clayBucketUnfired", "IguanaTweaksTConstruct:clayBucketFired", "IguanaTweaksTConstruct:clayBucketWater",
}

// buildRegistry makes the server's id registry: every vanilla block and item
// (block items under the block's id, as Forge registers them), the GregTech
// entries and filler items.
func buildRegistry(f proto17.Formats, filler int) (*proto17.ModIDData, *rules.IDMap, error) {
	van := rules.Default().IDs
	ids := rules.NewIDMap()
	data := &proto17.ModIDData{HasSubstitutions: true}
	add := func(kind string, id int, name string) error {
		var err error
		if kind == "block" {
			err = ids.SetBlock(id, name)
			data.Entries = append(data.Entries, proto17.RegistryEntry{Name: proto17.RegistryBlockPrefix + name, ID: int32(id)})
		} else {
			err = ids.SetItem(id, name)
			data.Entries = append(data.Entries, proto17.RegistryEntry{Name: proto17.RegistryItemPrefix + name, ID: int32(id)})
		}
		return err
	}
	items := map[string]bool{}
	for id := 256; id < 32000; id++ {
		if name, ok := van.ItemName(id); ok {
			items[name] = true
			if err := add("item", id, name); err != nil {
				return nil, nil, err
			}
		}
	}
	for id := 0; id < 4096; id++ {
		name, ok := van.BlockName(id)
		if !ok {
			continue
		}
		if err := add("block", id, name); err != nil {
			return nil, nil, err
		}
		// Blocks whose item has its own id (wheat, reeds, cake, …) have no
		// item form under the block's id.
		if id != 0 && !items[name] {
			if err := add("item", id, name); err != nil {
				return nil, nil, err
			}
		}
	}
	ore, ore2, machine, cokeOven, ironChest, stationID := oreIDVanilla, ore2IDVanilla, machineIDVanilla, machineIDVanilla+1, machineIDVanilla+2, stationIDVanilla
	if f.NEID {
		ore, ore2, machine, cokeOven, ironChest, stationID = oreIDNEID, ore2IDNEID, machineIDNEID, machineIDNEID+1, machineIDNEID+2, stationIDNEID
	}
	machineBeta := machine + 3
	for _, e := range []struct {
		kind string
		id   int
		name string
	}{
		{"block", ore, OreBlock}, {"item", ore, OreBlock},
		{"block", ore2, OreBlock2}, {"item", ore2, OreBlock2},
		{"block", machine, MachineBlock}, {"item", machine, MachineBlock},
		{"item", metaItemID, MetaItem},
		{"block", cokeOven, CokeOvenBlock}, {"item", cokeOven, CokeOvenBlock},
		{"block", ironChest, IronChestBlock}, {"item", ironChest, IronChestBlock},
		{"block", machineBeta, MetalTankBlock}, {"item", machineBeta, MetalTankBlock},
		{"item", cokeItemID, CokeItem},
		{"item", emptyCellID, EmptyCell},
		{"block", stationID, StationBlock}, {"item", stationID, StationBlock},
	} {
		if err := add(e.kind, e.id, e.name); err != nil {
			return nil, nil, err
		}
	}
	for i, name := range append(append([]string(nil), stoneAgeItems...), tinkersItems...) {
		if err := add("item", stoneAgeItemID+i, name); err != nil {
			return nil, nil, err
		}
	}
	for i := 0; i < filler; i++ {
		if err := add("item", fillerItemFirst+i, fmt.Sprintf("gregtech:gt.filler.%04d", i)); err != nil {
			return nil, nil, err
		}
	}
	return data, ids.Freeze(), nil
}

// blockRule is what the server knows about breaking a block: the shared
// 1.7.10 mining rule (config/mining.yaml).
type blockRule struct {
	rules.BlockRule
}

// noDrops are the modded blocks of the fake world that drop nothing here:
// a GregTech ore's drops depend on its material, which this server does
// not model, and the machines are unbreakable. Every other block drops
// what the shared drop table (config/drops.yaml) says.
var noDrops = map[string]bool{OreBlock: true, OreBlock2: true, MachineBlock: true, CokeOvenBlock: true, MetalTankBlock: true}

// ruleFor returns the rule of a block name. The modded ore and machine of
// the fake world are a GregTech ore and machine; unknown blocks are
// stone-like.
func ruleFor(name string) blockRule {
	r, ok := rules.Default().Mining.Block(name)
	switch {
	case ok:
	case name == OreBlock || name == OreBlock2:
		r = rules.BlockRule{Hardness: 3, Tool: "pickaxe", NeedsTool: true}
	case name == MachineBlock:
		r = rules.BlockRule{Hardness: -1}
	default:
		r = rules.BlockRule{Hardness: 1.5, Tool: "pickaxe", NeedsTool: true}
	}
	return blockRule{BlockRule: r}
}

// replaceable blocks give way to a placed block.
var replaceable = map[string]bool{
	"minecraft:air": true, "minecraft:tallgrass": true, "minecraft:water": true,
	"minecraft:flowing_water": true, "minecraft:snow_layer": true,
}

// toolClass and toolSpeed read a held item name: "minecraft:iron_axe" is an
// axe of speed 6. Vanilla materials: wood 2, stone 4, iron 6, diamond 8,
// gold 12.
func toolClass(item string) string {
	for _, c := range []string{"pickaxe", "axe", "shovel", "hoe", "sword"} {
		if strings.HasSuffix(item, "_"+c) {
			return c
		}
	}
	return ""
}

func toolSpeed(item string) float64 {
	if m, ok := rules.Default().Mining.Material(item); ok {
		return m.Speed
	}
	return 1
}

// wearOf is the durability the held item loses for breaking a block of the
// given hardness (rules.Wear: 1 for pickaxes, axes and shovels, 2 for
// swords, 0 for hoes).
func wearOf(held string, hardness float64) int {
	st := world.NewStack(held, 0, 1)
	st.MaxDamage = maxDamage(held)
	return rules.Wear(st, hardness)
}

// maxDamage is the durability of a vanilla tool (0: not a tool).
func maxDamage(item string) int {
	if toolClass(item) == "" {
		return 0
	}
	if m, ok := rules.Default().Mining.Material(item); ok {
		return m.Durability
	}
	return 0
}

// maxStack is how many of an item fit in one slot.
func maxStack(item string) int {
	if toolClass(item) != "" {
		return 1
	}
	return 64
}

// relativeHardness is 1.7.10's Block.getPlayerRelativeBlockHardness: the
// fraction of the block broken per tick with the held item, and whether the
// held item harvests it (drops come only then: a tool of the block's class
// with at least its harvest level). A player not on the ground
// digs five times slower.
func relativeHardness(block, held string, onGround bool) (perTick float64, harvest bool) {
	r := ruleFor(block)
	if r.Hardness < 0 {
		return 0, false
	}
	speed, level := 1.0, -1
	if rules.Default().Mining.MinesNothing(held) {
		// IguanaTinkerTweaks' VanillaToolNerfHandler.breakSpeed: speed 0
		// whatever the block (getPlayerRelativeBlockHardness 0, or NaN
		// for a block of hardness 0: never broken).
		return 0, false
	}
	if r.Tool != "" && toolClass(held) == r.Tool {
		speed = toolSpeed(held)
		if m, ok := rules.Default().Mining.Material(held); ok {
			level = m.Level
		}
	}
	// ForgeHooks.canHarvestBlock: the tool's harvest level must reach the
	// block's.
	harvest = !r.NeedsTool || level >= r.Level
	if !onGround {
		speed /= 5
	}
	if r.Hardness == 0 {
		return math.Inf(1), harvest
	}
	div := 100.0
	if harvest {
		div = 30
	}
	return speed / r.Hardness / div, harvest
}

// VanillaBreakTicks is the vanilla time in ticks to break a block with the
// held item on the ground (0 for an instant break, -1 for an unbreakable
// block). The server accepts a finish after DigThreshold of it.
func VanillaBreakTicks(block, held string) int {
	rel, _ := relativeHardness(block, held, true)
	switch {
	case rel == 0:
		return -1
	case math.IsInf(rel, 1) || rel >= 1:
		return 0
	}
	return int(math.Ceil(1 / rel))
}

// generate builds the world: bedrock at 0, stone, three layers of dirt and
// grass at GroundY, then the trees and extra blocks.
func generate(o Options, ids *rules.IDMap, f proto17.Formats) (map[chunk.ChunkPos]*chunk.Column, error) {
	state := func(name string, meta int) (chunk.StateID, error) {
		id, ok := ids.BlockID(name)
		if !ok {
			return 0, fmt.Errorf("fakeserver: block %q is not in the registry", name)
		}
		return chunk.MakeState(id, meta), nil
	}
	must := func(name string) chunk.StateID {
		st, err := state(name, 0)
		if err != nil {
			panic(err) // vanilla names are always in the registry
		}
		return st
	}
	bedrock, stone, dirt, grass := must("minecraft:bedrock"), must("minecraft:stone"), must("minecraft:dirt"), must("minecraft:grass")
	logS, leaves := must("minecraft:log"), must("minecraft:leaves")

	cx0, cz0 := int(math.Floor(o.Spawn[0]))>>4, int(math.Floor(o.Spawn[2]))>>4
	cols := map[chunk.ChunkPos]*chunk.Column{}
	if o.Terrain != nil {
		if err := copyTerrain(o.Terrain, cols, state); err != nil {
			return nil, err
		}
	}
	for cx := cx0 - o.ViewRadius; cx <= cx0+o.ViewRadius && o.Terrain == nil; cx++ {
		for cz := cz0 - o.ViewRadius; cz <= cz0+o.ViewRadius; cz++ {
			col := chunk.NewColumn(cx, cz)
			for x := 0; x < 16; x++ {
				for z := 0; z < 16; z++ {
					col.SetState(x, 0, z, bedrock)
					for y := 1; y <= o.GroundY-4; y++ {
						col.SetState(x, y, z, stone)
					}
					for y := o.GroundY - 3; y < o.GroundY; y++ {
						col.SetState(x, y, z, dirt)
					}
					col.SetState(x, o.GroundY, z, grass)
				}
			}
			cols[chunk.ChunkPos{X: cx, Z: cz}] = col
		}
	}
	set := func(x, y, z int, st chunk.StateID, onlyAir bool) {
		col := cols[chunk.ChunkPos{X: x >> 4, Z: z >> 4}]
		if col == nil || y < 0 || y > 255 {
			return
		}
		if onlyAir && !col.StateAt(x, y, z).IsAir() {
			return
		}
		col.SetState(x, y, z, st)
	}
	for _, t := range o.Trees {
		if o.Terrain != nil {
			break
		}
		top := o.GroundY + t.Height
		for y := o.GroundY + 1; y <= top; y++ {
			set(t.X, y, t.Z, logS, false)
		}
		// A crown like a small oak's: two wide layers below the top, a
		// narrow one at the top and a cross above it.
		for y := top - 1; y <= top+1; y++ {
			r := 2
			if y >= top {
				r = 1
			}
			for dx := -r; dx <= r; dx++ {
				for dz := -r; dz <= r; dz++ {
					corner := (dx == -r || dx == r) && (dz == -r || dz == r)
					if corner && (r == 2 || y == top+1) {
						continue
					}
					if y <= o.GroundY {
						continue
					}
					set(t.X+dx, y, t.Z+dz, leaves, true)
				}
			}
		}
	}
	extra := o.Blocks
	if extra == nil {
		meta := 5
		if f.NEID {
			meta = 300
		}
		extra = []Block{{X: int(math.Floor(o.Spawn[0])), Y: o.GroundY - 20, Z: int(math.Floor(o.Spawn[2])), Name: OreBlock, Meta: meta}}
	}
	mod, err := modBlocks(o)
	if err != nil {
		return nil, err
	}
	extra = append(append([]Block(nil), extra...), mod...)
	for _, b := range extra {
		st, err := state(b.Name, b.Meta)
		if err != nil {
			return nil, err
		}
		if b.Meta < 0 || b.Meta > 0xFFFF || (!f.NEID && b.Meta > 15) {
			return nil, fmt.Errorf("fakeserver: block %s at %d,%d,%d: metadata %d does not fit the %s format", b.Name, b.X, b.Y, b.Z, b.Meta, formatName(f))
		}
		if cols[chunk.ChunkPos{X: b.X >> 4, Z: b.Z >> 4}] == nil || b.Y < 0 || b.Y > 255 {
			return nil, fmt.Errorf("fakeserver: block %s at %d,%d,%d is outside the world", b.Name, b.X, b.Y, b.Z)
		}
		set(b.X, b.Y, b.Z, st, false)
	}
	return cols, nil
}

// copyTerrain copies the columns of a world into the server's, block by
// block by name (the two id maps may differ).
func copyTerrain(src *chunk.Chunks, cols map[chunk.ChunkPos]*chunk.Column, state func(string, int) (chunk.StateID, error)) error {
	res := src.Resolver()
	states := map[chunk.StateID]chunk.StateID{}
	var err error
	src.ForEachColumn(func(sc *chunk.Column) {
		if err != nil {
			return
		}
		p := sc.Pos()
		col := chunk.NewColumn(p.X, p.Z)
		for cy := 0; cy < chunk.ColumnSections; cy++ {
			if sc.Section(cy) == nil {
				continue
			}
			for y := cy * 16; y < cy*16+16; y++ {
				for x := 0; x < 16; x++ {
					for z := 0; z < 16; z++ {
						st := sc.StateAt(x, y, z)
						if st.IsAir() {
							continue
						}
						to, ok := states[st]
						if !ok {
							b := res.Block(st)
							if to, err = state(b.ID, b.Meta); err != nil {
								err = fmt.Errorf("fakeserver: Terrain at %d,%d,%d: %w", p.X*16+x, y, p.Z*16+z, err)
								return
							}
							states[st] = to
						}
						col.SetState(x, y, z, to)
					}
				}
			}
		}
		cols[p] = col
	})
	return err
}

func formatName(f proto17.Formats) string {
	if f.NEID {
		return "NotEnoughIds"
	}
	return "vanilla"
}
