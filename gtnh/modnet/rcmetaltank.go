package modnet

import "github.com/gtnh-agent/gtnh-agent/proto17"

// Railcraft's iron and steel tanks (GTNH Railcraft, blocks/machine/beta:
// TileTankBase, TileTankIron*/TileTankSteel*; docs/gtnh-protocol.md, "The
// iron and steel tanks"). Their blocks are Railcraft:machine.beta; the tile
// id in an RC TILE_ENTITY message is the block's EnumMachineBeta ordinal,
// which is also its metadata.
const (
	IronTankWallID   = 0  // EnumMachineBeta.TANK_IRON_WALL
	IronTankGaugeID  = 1  // EnumMachineBeta.TANK_IRON_GAUGE
	IronTankValveID  = 2  // EnumMachineBeta.TANK_IRON_VALVE
	SteelTankWallID  = 13 // EnumMachineBeta.TANK_STEEL_WALL
	SteelTankGaugeID = 14 // EnumMachineBeta.TANK_STEEL_GAUGE
	SteelTankValveID = 15 // EnumMachineBeta.TANK_STEEL_VALVE
)

// Capacity per block of a tank's inside (TileTankBase
// CAPACITY_PER_BLOCK_IRON = 16 buckets, CAPACITY_PER_BLOCK_STEEL = 32).
const (
	IronTankBlockCapacity  = 16_000
	SteelTankBlockCapacity = 32_000
)

// MetalTankPatterns is the number of tank patterns (TileTankBase
// buildPatterns: bases of 3, 5, 7 and 9 blocks inside, each 4 to 8 high).
const MetalTankPatterns = 20

// MaxMetalTankCapacity is the largest tank: a steel 9×9×8.
const MaxMetalTankCapacity = 9 * 9 * 8 * SteelTankBlockCapacity

const msgRCMetalTank = "RC TILE_ENTITY iron/steel tank"

// IsMetalTankID reports whether a machine.beta tile id is a block of an
// iron or steel tank, and whether of a steel one.
func IsMetalTankID(id int16) (tank, steel bool) {
	switch id {
	case IronTankWallID, IronTankGaugeID, IronTankValveID:
		return true, false
	case SteelTankWallID, SteelTankGaugeID, SteelTankValveID:
		return true, true
	}
	return false, false
}

// MetalTank is what one block of an iron or steel tank reports
// (TileMultiBlock.writePacketData, then TileTankBase.writePacketData: the
// block's colour and its own tank manager). Only the master's tank holds
// the tank's fluid; the other blocks report their own empty tanks.
type MetalTank struct {
	X, Y, Z int32
	Steel   bool
	// Formed is hasMaster: the block belongs to a complete tank.
	Formed                       bool
	Pattern                      int8
	PatternX, PatternY, PatternZ int8
	// Color is the block's paint (EnumColor ordinal, 0..15).
	Color int8
	// Fluid is nil when the block's tank is empty (fluid id -1).
	Fluid *TankFluid
}

// metalPattern describes pattern p (TileTankBase.buildPatterns: 5 heights
// per base, the bases in order 3, 5, 7, 9): the inside's width n, its
// height h and the master's x and z in the pattern (xOffset = zOffset).
func metalPattern(p int8) (n, h, c int8) {
	g := p / 5
	return 3 + 2*g, 4 + p%5, 2 + g
}

// IsMaster reports whether this block is the master: the bottom centre
// block. Its height in the pattern is 0 when the server allows stacking
// tanks (irontank.allow.stacking, the default) and 1 when not (the pattern
// then has a border layer below); the other cell is never a tank block
// (the centre of the first middle layer is air, of the border layer
// 'O'), so the cell names the master under either setting.
func (t MetalTank) IsMaster() bool {
	if !t.Formed {
		return false
	}
	_, _, c := metalPattern(t.Pattern)
	return t.PatternX == c && t.PatternZ == c && (t.PatternY == 0 || t.PatternY == 1)
}

// Capacity is the formed tank's capacity in mB (TileTankBase.onPatternLock:
// the inside's width × height × depth × the capacity per block; the
// pattern's border layers are taken out of the height).
func (t MetalTank) Capacity() int {
	n, h, _ := metalPattern(t.Pattern)
	per := IronTankBlockCapacity
	if t.Steel {
		per = SteelTankBlockCapacity
	}
	return int(n) * int(n) * int(h) * per
}

// Amount is the fluid the block reports, in mB (0 when empty).
func (t MetalTank) Amount() int {
	if t.Fluid == nil {
		return 0
	}
	return int(t.Fluid.Amount)
}

// DecodeMetalTank reads the data of an RC TILE_ENTITY message whose block
// is Railcraft:machine.beta and whose id is an iron or steel tank block's:
// bool hasMaster, [i8 pattern, i8 x, i8 y, i8 z], i8 colour, then i16
// fluid id and, unless it is -1, i32 amount and i32 colour. The pattern
// must be one of the 20, the cell a block of it (x and z 1..n, y 0..h, not
// the air inside the middle layers), the
// colour 0..15, the amount within the master's capacity (another block's
// up to the largest tank's).
func DecodeMetalTank(t RCTile) (MetalTank, error) {
	r := proto17.NewFieldReader(msgRCMetalTank, t.Body)
	tank, steel := IsMetalTankID(t.ID)
	if !tank {
		r.Failf("id", -1, "tile id %d is not an iron or steel tank block", t.ID)
		return MetalTank{}, r.Err()
	}
	m := MetalTank{X: t.X, Y: t.Y, Z: t.Z, Steel: steel}
	var patternAt, at int
	m.Formed, m.Pattern, m.PatternX, m.PatternY, m.PatternZ, patternAt, at = readMultiBlock(r)
	if m.Formed {
		if r.Err() == nil && (m.Pattern < 0 || m.Pattern >= MetalTankPatterns) {
			r.Failf("patternIndex", patternAt, "pattern %d, the tanks have 0..%d", m.Pattern, MetalTankPatterns-1)
		}
		if r.Err() == nil {
			n, h, _ := metalPattern(m.Pattern)
			// Inside the walls only the bottom and top layers are blocks
			// (y 0 and h-1 with stacking allowed, 1 and h without); the
			// layers between are air there under either setting.
			inside := m.PatternX > 1 && m.PatternX < n && m.PatternZ > 1 && m.PatternZ < n
			switch {
			case m.PatternX < 1 || m.PatternX > n || m.PatternZ < 1 || m.PatternZ > n || m.PatternY < 0 || m.PatternY > h:
				r.Failf("pattern position", at, "cell (%d,%d,%d) is not in pattern %d", m.PatternX, m.PatternY, m.PatternZ, m.Pattern)
			case inside && m.PatternY >= 2 && m.PatternY <= h-2:
				r.Failf("pattern position", at, "cell (%d,%d,%d) is air inside pattern %d", m.PatternX, m.PatternY, m.PatternZ, m.Pattern)
			}
		}
	}
	at = r.Offset()
	m.Color = r.I8("color")
	if r.Err() == nil && (m.Color < 0 || m.Color > 15) {
		r.Failf("color", at, "colour %d outside 0..15", m.Color)
	}
	// A block's own tank keeps the capacity it had as a master until the
	// tank it belongs to now locks its pattern, so only the master's bound
	// is the pattern's.
	limit := MaxMetalTankCapacity
	if m.IsMaster() {
		limit = m.Capacity()
	}
	m.Fluid = readTankFluid(r, limit)
	if err := r.Finish(); err != nil {
		return MetalTank{}, err
	}
	return m, nil
}
