package sim

import (
	"sort"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// structure is a multiblock the player built from a blueprint: where its
// pattern stands. Its machine is at origin + the blueprint's master.
type structure struct {
	bp     *rules.Blueprint
	origin world.BlockPos
}

func (st structure) master() world.BlockPos {
	m := st.bp.Master
	return st.origin.Add(m.X, m.Y, m.Z)
}

// holds checks the blueprint's pattern and shell at the structure's origin.
func (s *Sim) holds(tx *world.Tx, bp *rules.Blueprint, origin world.BlockPos) string {
	return bp.Check(func(o rules.Offset) (string, int) {
		b := tx.BlockAt(origin.Add(o.X, o.Y, o.Z))
		if b.IsAir() {
			return "", 0
		}
		return b.ID, b.Meta
	})
}

// blockChanged runs after a block at p was placed or broken, as Railcraft's
// onBlockAdded/onBlockRemoval → onBlockChange do: every built structure
// whose pattern or shell holds p is tested again (formed when it holds,
// unformed when it does not; the machine goes when its master block is
// gone), and a placed block of some blueprint forms a new structure when
// the whole pattern around it now holds.
func (s *Sim) blockChanged(tx *world.Tx, p world.BlockPos) {
	s.settleFalling(tx, p) // sand and gravel fall into the room it left
	for _, key := range s.structureKeys() {
		st := s.structures[key]
		if !st.bp.InShell(rules.Offset{X: p.X - st.origin.X, Y: p.Y - st.origin.Y, Z: p.Z - st.origin.Z}) {
			continue
		}
		m, ok := tx.Machine(key)
		if !ok {
			delete(s.structures, key)
			continue
		}
		mc := st.bp.Cell(st.bp.Master).Block
		if b := tx.BlockAt(key); !mc.Is(b.ID, b.Meta) {
			// The master block is gone, and its tile entity with it.
			tx.RemoveMachine(key)
			delete(s.structures, key)
			delete(s.ovens, key)
			continue
		}
		formed := s.holds(tx, st.bp, st.origin) == ""
		if formed != m.Formed {
			m.Formed = formed
			if !formed {
				m.Active, m.Progress = false, 0
				if c, ok := s.ovens[key]; ok {
					c.cookTime = 0
				}
			}
			tx.PutMachine(m)
		}
	}
	b := tx.BlockAt(p)
	if b.IsAir() {
		return
	}
	for _, bp := range s.rules.Builds.Using(b.ID, b.Meta) {
		for _, o := range bp.Offsets() {
			if c := bp.Cell(o); c.Air || !c.Block.Is(b.ID, b.Meta) {
				continue
			}
			st := structure{bp: bp, origin: p.Add(-o.X, -o.Y, -o.Z)}
			key := st.master()
			if _, taken := tx.Machine(key); taken {
				continue
			}
			if s.holds(tx, bp, st.origin) != "" {
				continue
			}
			m := world.Machine{Kind: bp.Machine, Pos: key, Formed: true,
				Slots: map[string]world.ItemStack{}, Fluids: map[string]world.FluidTank{}}
			addTanks(&m)
			tx.PutMachine(m)
			s.structures[key] = st
		}
	}
}

// structureKeys returns the built structures' master positions in order,
// so that tests and formation run the same way every time.
func (s *Sim) structureKeys() []world.BlockPos {
	keys := make([]world.BlockPos, 0, len(s.structures))
	for k := range s.structures {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].Less(keys[j]) })
	return keys
}
