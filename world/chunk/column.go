package chunk

import (
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/game"
)

// ChunkPos is the position of a column in chunk coordinates (block >> 4).
type ChunkPos struct {
	X int `json:"x"`
	Z int `json:"z"`
}

// ChunkOf returns the column holding the block at p.
func ChunkOf(p game.BlockPos) ChunkPos { return ChunkPos{p.X >> 4, p.Z >> 4} }

func (c ChunkPos) String() string { return fmt.Sprintf("chunk(%d, %d)", c.X, c.Z) }

// Column is a 16×256×16 chunk column: 16 sections, nil where a section is all
// air. Build one with NewColumn and SetSection (or SetState), then hand it to
// a ChunkStore, which owns it from then on: the column's mutators panic and
// changes go through the store.
type Column struct {
	pos      ChunkPos
	sections [ColumnSections]*Section
	gen      uint64
	owned    bool
	edits    uint64
}

// NewColumn returns an empty (all-air) column at chunk coordinates (cx, cz).
func NewColumn(cx, cz int) *Column { return &Column{pos: ChunkPos{cx, cz}} }

// Pos is the column's chunk position.
func (c *Column) Pos() ChunkPos { return c.pos }

// Edits counts the changes a ChunkStore wrote into the column (SetState,
// SetSection); a copy the store makes before writing keeps the count. A
// store writes in place into a column no view shares, so a reader that
// keeps a column to notice changes (a route planner's cache) compares the
// pointer and the count: either differs after a change. Loading and
// unloading a column change the pointer; packing raw sections
// (ChunkStore.Compact) changes neither, as the blocks stay the same.
func (c *Column) Edits() uint64 { return c.edits }

// Section returns section cy (0..15; y = cy*16 ..), nil when it is all air or
// cy is out of range. The section must be treated as read-only.
func (c *Column) Section(cy int) *Section {
	if cy < 0 || cy >= ColumnSections {
		return nil
	}
	return c.sections[cy]
}

// SetSection replaces section cy; nil or an all-air section clears it. It
// panics when a ChunkStore owns the column or cy is out of range.
func (c *Column) SetSection(cy int, s *Section) {
	c.mustBeFree()
	if cy < 0 || cy >= ColumnSections {
		panic(fmt.Sprintf("world: section index %d out of range 0..%d", cy, ColumnSections-1))
	}
	if s != nil && s.IsEmpty() {
		s = nil
	}
	c.sections[cy] = s
}

// StateAt returns the state at world height y (0..255) and x, z taken modulo
// 16; outside the height range it is air.
func (c *Column) StateAt(x, y, z int) StateID {
	if uint(y) >= WorldHeight {
		return AirState
	}
	s := c.sections[y>>4]
	if s == nil {
		return AirState
	}
	return s.at(SectionIndex(x, y, z))
}

// SetState changes one block (x, z modulo 16; y 0..255, other heights are
// ignored) and returns the previous state. It panics when a ChunkStore owns
// the column.
func (c *Column) SetState(x, y, z int, st StateID) StateID {
	c.mustBeFree()
	if uint(y) >= WorldHeight {
		return AirState
	}
	s := c.sections[y>>4]
	if s == nil {
		if normState(st) == AirState {
			return AirState
		}
		s = NewEmptySection()
		c.sections[y>>4] = s
	} else if s.owned {
		panic("world: Column.SetState on a section a ChunkStore owns")
	}
	prev := s.set(SectionIndex(x, y, z), st)
	if s.IsEmpty() {
		c.sections[y>>4] = nil
	}
	return prev
}

func (c *Column) mustBeFree() {
	if c.owned {
		panic("world: changing a column a ChunkStore owns; write through the store")
	}
}

// NonAir counts the column's non-air blocks.
func (c *Column) NonAir() int {
	n := 0
	for _, s := range c.sections {
		if s != nil {
			n += s.NonAir()
		}
	}
	return n
}

// MemBytes estimates the bytes the column and its sections occupy.
func (c *Column) MemBytes() int {
	n := 16 + ColumnSections*8 + 8 + 8
	for _, s := range c.sections {
		if s != nil {
			n += s.MemBytes()
		}
	}
	return n
}

// Clone returns an independent deep copy that no store owns.
func (c *Column) Clone() *Column {
	out := &Column{pos: c.pos}
	for i, s := range c.sections {
		if s != nil {
			out.sections[i] = s.Clone()
		}
	}
	return out
}
