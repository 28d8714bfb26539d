package modnet

import "github.com/gtnh-agent/gtnh-agent/proto17"

// WaterTankMachineID is the Railcraft water tank's id in an RC TILE_ENTITY
// message: EnumMachineAlpha.TANK_WATER's ordinal (14), which is also its
// metadata on Railcraft:machine.alpha.
const WaterTankMachineID = 14

// WaterTankCapacity is the water tank's capacity in mB (TileTankWater:
// TANK_CAPACITY = FluidHelper.BUCKET_VOLUME × 400). Railcraft does not send
// it; it is a constant of the tank.
const WaterTankCapacity = 400_000

// waterTankMaster is the master's cell in the water tank's one pattern
// (TileTankWater: new MultiBlockPattern(map, 2, 1, 2)): the bottom centre
// block of the 3×3×3, counting the pattern's one-cell border.
var waterTankMaster = [3]int8{2, 1, 2}

const msgRCTank = "RC TILE_ENTITY water tank"

// TankFluid is the fluid a Railcraft tank reports in its tile data
// (TankManager.writePacketData): the Forge fluid id (numbered by the
// server), the amount in mB and the fluid's colour.
type TankFluid struct {
	ID     int16
	Amount int32
	Color  int32
}

// WaterTank is what one block of a Railcraft water tank reports
// (TileMultiBlock, then TileTank.writePacketData). Every block of a formed
// tank reports its cell; each block writes its own tank, and only the
// master's holds the water, so the other blocks report no fluid.
type WaterTank struct {
	X, Y, Z int32
	// Formed is hasMaster: the block belongs to a complete tank.
	Formed                       bool
	Pattern                      int8
	PatternX, PatternY, PatternZ int8
	// Fluid is nil when the block's tank is empty (fluid id -1).
	Fluid *TankFluid
}

// Master is the position of the tank's master block, where its GUI opens
// (MultiBlockPattern.getMasterRelativeX/Y/Z).
func (w WaterTank) Master() (x, y, z int32, ok bool) {
	if !w.Formed {
		return 0, 0, 0, false
	}
	return w.X + int32(waterTankMaster[0]-w.PatternX),
		w.Y + int32(waterTankMaster[1]-w.PatternY),
		w.Z + int32(waterTankMaster[2]-w.PatternZ), true
}

// IsMaster reports whether this block is the master.
func (w WaterTank) IsMaster() bool {
	return w.Formed && w.PatternX == waterTankMaster[0] && w.PatternY == waterTankMaster[1] &&
		w.PatternZ == waterTankMaster[2]
}

// Water is the amount of water the block reports, in mB (0 when empty).
func (w WaterTank) Water() int {
	if w.Fluid == nil {
		return 0
	}
	return int(w.Fluid.Amount)
}

// DecodeWaterTank reads the data of an RC TILE_ENTITY message whose block is
// Railcraft:machine.alpha and whose id is WaterTankMachineID: bool
// hasMaster, [i8 pattern, i8 x, i8 y, i8 z], then i16 fluid id and, unless
// it is -1, i32 amount and i32 colour. The cell must be one of the 26
// blocks of the pattern (cells 1..3, the centre (2, 2, 2) is air), the
// pattern index 0 (the tank has one), the amount 0..WaterTankCapacity.
// Offsets in errors count from the start of the tile's data.
func DecodeWaterTank(t RCTile) (WaterTank, error) {
	r := proto17.NewFieldReader(msgRCTank, t.Body)
	if t.ID != WaterTankMachineID {
		r.Failf("id", -1, "tile id %d is not the water tank (%d)", t.ID, WaterTankMachineID)
		return WaterTank{}, r.Err()
	}
	w := WaterTank{X: t.X, Y: t.Y, Z: t.Z}
	var patternAt, at int
	w.Formed, w.Pattern, w.PatternX, w.PatternY, w.PatternZ, patternAt, at = readMultiBlock(r)
	if w.Formed {
		if r.Err() == nil && w.Pattern != 0 {
			r.Failf("patternIndex", patternAt, "pattern %d, the water tank has only pattern 0", w.Pattern)
		}
		centre := w.PatternX == 2 && w.PatternY == 2 && w.PatternZ == 2
		if r.Err() == nil && (!inBrick(w.PatternX) || !inBrick(w.PatternY) || !inBrick(w.PatternZ) || centre) {
			r.Failf("pattern position", at, "cell (%d,%d,%d) is not a block of the tank", w.PatternX, w.PatternY, w.PatternZ)
		}
	}
	w.Fluid = readTankFluid(r, WaterTankCapacity)
	if err := r.Finish(); err != nil {
		return WaterTank{}, err
	}
	return w, nil
}

// readMultiBlock reads TileMultiBlock.writePacketData (Railcraft
// common/blocks/machine/TileMultiBlock.java): bool hasMaster and, when set,
// i8 pattern index and the block's i8 x, y, z cell in the pattern. It
// returns the offsets of the pattern index and of the cell, for errors.
func readMultiBlock(r *proto17.FieldReader) (formed bool, pattern, x, y, z int8, patternAt, cellAt int) {
	formed = r.Bool("hasMaster")
	if !formed {
		return
	}
	patternAt = r.Offset()
	pattern = r.I8("patternIndex")
	cellAt = r.Offset()
	x, y, z = r.I8("patternX"), r.I8("patternY"), r.I8("patternZ")
	return
}

// readTankFluid reads one tank of TankManager.writePacketData (Railcraft
// common/fluids/TankManager.java): i16 fluid id and, unless it is -1 (no
// fluid, nil), i32 amount in mB (0..limit) and i32 colour.
func readTankFluid(r *proto17.FieldReader, limit int) *TankFluid {
	at := r.Offset()
	id := r.I16("fluidId")
	if r.Err() != nil || id == -1 {
		return nil
	}
	if id < 0 {
		r.Failf("fluidId", at, "fluid id %d", id)
	}
	f := TankFluid{ID: id}
	at = r.Offset()
	f.Amount = r.I32("amount")
	if r.Err() == nil && (f.Amount < 0 || int(f.Amount) > limit) {
		r.Failf("amount", at, "%d mB is outside 0..%d", f.Amount, limit)
	}
	f.Color = r.I32("color")
	return &f
}
