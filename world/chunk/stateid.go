package chunk

import "fmt"

// StateID is a block state as the chunk storage holds it: the numeric block
// id in the high 16 bits and the metadata in the low 16 bits. Vanilla 1.7.10
// uses 12-bit ids and 4-bit metadata; GTNH's NotEnoughIds widens both to 16
// bits, so both halves are kept whole. Every state whose block id is 0 is air
// and is stored as AirState.
type StateID uint32

// AirState is the empty block.
const AirState StateID = 0

// MakeState builds a state from a block id and metadata. Both are truncated to
// 16 bits; block id 0 gives AirState whatever the metadata.
func MakeState(id, meta int) StateID {
	id &= 0xFFFF
	if id == 0 {
		return AirState
	}
	return StateID(uint32(id)<<16 | uint32(meta&0xFFFF))
}

// LegacyState converts a 1.7.10 chunk-format state (id<<4 | meta, a 12-bit id
// and 4-bit metadata, as the shared benchmark world stores them).
func LegacyState(v uint16) StateID { return MakeState(int(v>>4), int(v&15)) }

// ID is the numeric block id.
func (s StateID) ID() int { return int(s >> 16) }

// Meta is the block metadata.
func (s StateID) Meta() int { return int(s & 0xFFFF) }

// IsAir reports whether the state is air.
func (s StateID) IsAir() bool { return s>>16 == 0 }

func (s StateID) String() string { return fmt.Sprintf("%d:%d", s.ID(), s.Meta()) }

// normState maps every block-id-0 state onto AirState so palettes and air
// counts never see two kinds of air.
func normState(s StateID) StateID {
	if s>>16 == 0 {
		return AirState
	}
	return s
}
