package fakeserver

import (
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Falling blocks, as a 1.7.10 server plays them: sand and gravel are
// BlockFalling; when the block under one becomes air, fire, water or lava
// (func_149831_e, checked by the updateTick that onNeighborBlockChange
// schedules), the block turns into an EntityFallingBlock — every player
// sees the block change to air and a Spawn Object of type 70 whose data
// is the block id | its metadata << 16 (EntityTrackerEntry) — which falls
// until it stands on something and places itself there as a block again
// (EntityFallingBlock.onUpdate: the entity is destroyed and the block set,
// replacing the air or liquid it lands in). This server lets the column
// fall at once after the dig that freed it, in that order of packets; the
// flight's few ticks are not modelled.

// Fall is one block that fell: from where, where it landed, and the
// block.
type Fall struct {
	From, To world.BlockPos
	Block    string
}

// fallAboveLocked lets the sand and gravel above pos fall after pos
// became air: each block of the column with room below drops to the first
// block that holds it.
func (s *Server) fallAboveLocked(out *outbox, pos world.BlockPos) {
	for y := pos.Y + 1; y < 256; y++ {
		at := world.Pos(pos.X, y, pos.Z)
		if !s.loaded(at) {
			return
		}
		st := s.stateAt(at)
		name := s.blockName(st)
		if !rules.Falls(name) {
			return
		}
		land := at
		for land.Y > 0 && s.loaded(land.Add(0, -1, 0)) && rules.FallsThrough(s.blockName(s.stateAt(land.Add(0, -1, 0)))) {
			land = land.Add(0, -1, 0)
		}
		if land == at {
			return
		}
		s.setBlockLocked(0, at, chunk.AirState, "fall")
		out.all(s, StageNone, s.blockChange(at))
		s.nextEID++
		eid := s.nextEID
		c := at.Center()
		out.all(s, StageNone, &proto17.SpawnObject{EntityID: eid, Type: proto17.ObjectFallingBlock,
			X: proto17.ToFixed(c.X), Y: proto17.ToFixed(float64(at.Y)), Z: proto17.ToFixed(c.Z), Data: int32(st.ID() | st.Meta()<<16)})
		s.setBlockLocked(0, land, st, "fall")
		out.all(s, StageNone, &proto17.DestroyEntities{IDs: []int32{eid}})
		out.all(s, StageNone, s.blockChange(land))
		s.falls = append(s.falls, Fall{From: at, To: land, Block: name})
		s.logf("%s fell from %v to %v", name, at, land)
	}
}

// Falls returns every block that fell, in order.
func (s *Server) Falls() []Fall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Fall(nil), s.falls...)
}
