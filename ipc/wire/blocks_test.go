package wire

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// names resolves palette entries with a fixed vanilla-like table.
func testIDs(t testing.TB, extra int) *chunk.Resolver {
	ids := rules.Default().IDs.Clone()
	for i := range extra {
		require.NoError(t, ids.SetBlock(4096+i, fmt.Sprintf("test:block_%d", i)))
	}
	return chunk.NewResolver(ids, rules.Default().Tags)
}

func stateFunc(res *chunk.Resolver) func(PaletteEntry) (chunk.StateID, error) {
	return func(e PaletteEntry) (chunk.StateID, error) {
		st, ok := res.State(e.ID, e.Meta)
		if !ok {
			return 0, fmt.Errorf("unknown %s", e.ID)
		}
		return st, nil
	}
}

func TestSectionRoundTrip(t *testing.T) {
	res := testIDs(t, 400)
	stone, _ := res.State("minecraft:stone", 0)
	wool3, _ := res.State("minecraft:wool", 3)
	var many [chunk.SectionVolume]chunk.StateID
	for i := range many {
		many[i] = chunk.MakeState(4096+i%300, 0)
	}
	var two [chunk.SectionVolume]chunk.StateID
	for i := range two {
		if i%7 == 0 {
			two[i] = wool3
		} else if i%5 == 0 {
			two[i] = stone
		}
	}
	for name, sec := range map[string]*chunk.Section{
		"nil":     nil,
		"uniform": chunk.NewUniformSection(stone),
		"mixed":   chunk.NewSection(&two),
		"wide":    chunk.NewSection(&many),
	} {
		d := EncodeSection(5, sec, res)
		b, err := json.Marshal(d)
		require.NoError(t, err)
		var back SectionData
		require.NoError(t, json.Unmarshal(b, &back))
		var got [chunk.SectionVolume]chunk.StateID
		require.NoError(t, DecodeSection(back, stateFunc(res), &got), name)
		var want [chunk.SectionVolume]chunk.StateID
		if sec != nil {
			sec.States(&want)
		}
		assert.Equal(t, want, got, name)
		switch name {
		case "nil":
			assert.Empty(t, d.Palette)
		case "uniform":
			assert.Equal(t, []PaletteEntry{{ID: "minecraft:stone"}}, d.Palette)
			assert.Empty(t, d.Data)
		case "mixed":
			assert.Contains(t, d.Palette, PaletteEntry{ID: "minecraft:wool", Meta: 3})
			assert.Less(t, len(b), 600, "a patterned section compresses")
		case "wide":
			assert.Len(t, d.Palette, 300)
		}
	}
}

func TestDecodeSectionErrors(t *testing.T) {
	res := testIDs(t, 0)
	two := []PaletteEntry{{ID: "minecraft:stone"}, {ID: "minecraft:dirt"}}
	enc := func(raw []byte) string {
		return base64.StdEncoding.EncodeToString(deflate(raw))
	}
	full := make([]byte, chunk.SectionVolume)
	bad := make([]byte, chunk.SectionVolume)
	bad[100] = 2
	for _, tc := range []struct {
		d    SectionData
		want string
	}{
		{SectionData{Y: 16}, "out of range"},
		{SectionData{Y: -1}, "out of range"},
		{SectionData{Data: "AAAA"}, "data without a palette"},
		{SectionData{Palette: two[:1], Data: "AAAA"}, "one-entry palette"},
		{SectionData{Palette: []PaletteEntry{{ID: "nope:x"}}}, "unknown nope:x"},
		{SectionData{Palette: two, Data: "!!"}, "illegal base64"},
		{SectionData{Palette: two, Data: enc(full[:100])}, "want 4096 index bytes"},
		{SectionData{Palette: two, Data: enc(append(full, 0))}, "more than 4096 index bytes"},
		{SectionData{Palette: two, Data: enc(bad)}, "palette index 2 of 2"},
		{SectionData{Palette: two, Data: base64.StdEncoding.EncodeToString([]byte{0xff, 0xff, 0xff})}, "data"},
		{SectionData{Palette: make([]PaletteEntry, chunk.SectionVolume+1)}, "at most 4096"},
	} {
		var dst [chunk.SectionVolume]chunk.StateID
		err := DecodeSection(tc.d, stateFunc(res), &dst)
		assert.ErrorContains(t, err, tc.want)
	}
	var dst [chunk.SectionVolume]chunk.StateID
	require.NoError(t, DecodeSection(SectionData{Palette: two, Data: enc(full)}, stateFunc(res), &dst))
}

// world1 is a small world: two columns with terrain and a few blocks.
func world1(t testing.TB) *world.State {
	st := world.NewState(world.StateOptions{Rules: rules.Default()})
	st.Update(func(tx *world.Tx) {
		for x := -16; x < 16; x++ {
			for z := 0; z < 16; z++ {
				for y := 0; y < 4; y++ {
					require.NoError(t, tx.SetBlock(world.Pos(x, y, z), "minecraft:stone", 0))
				}
				require.NoError(t, tx.SetBlock(world.Pos(x, 4, z), "minecraft:grass", 0))
			}
		}
		require.NoError(t, tx.SetBlock(world.Pos(3, 5, 3), "minecraft:log", 2))
		require.NoError(t, tx.SetBlock(world.Pos(-3, 40, 3), "minecraft:wool", 14))
	})
	return st
}

// sameBlocks checks that the mirror holds exactly the state's blocks.
func sameBlocks(t *testing.T, want *chunk.Chunks, got *chunk.Chunks) {
	t.Helper()
	require.Equal(t, want.Columns(), got.Columns())
	want.ForEachColumn(func(c *chunk.Column) {
		g := got.Column(c.Pos().X, c.Pos().Z)
		require.NotNil(t, g, "column %v", c.Pos())
		for y := 0; y < chunk.WorldHeight; y++ {
			for z := 0; z < 16; z++ {
				for x := 0; x < 16; x++ {
					p := world.Pos(c.Pos().X*16+x, y, c.Pos().Z*16+z)
					if wb, gb := want.BlockAt(p), got.BlockAt(p); wb.ID != gb.ID || wb.Meta != gb.Meta {
						t.Fatalf("block at %v: want %v, got %v", p, wb, gb)
					}
				}
			}
		}
	})
}

func roundTrip(t *testing.T, d *BlockDelta) *BlockDelta {
	b, err := json.Marshal(d)
	require.NoError(t, err)
	var out BlockDelta
	require.NoError(t, json.Unmarshal(b, &out))
	return &out
}

func TestTrackerAndMirror(t *testing.T) {
	st := world1(t)
	tr := NewTracker()
	m := NewMirror(MirrorOptions{})
	view := st.Snapshot().Blocks.(*chunk.Chunks)
	d := tr.Delta(view, m.Seq(), 1<<20)
	assert.True(t, d.Reset)
	assert.Len(t, d.Columns, 2)
	require.NoError(t, m.Apply(roundTrip(t, d)))
	sameBlocks(t, view, m.View())
	assert.Equal(t, []world.BlockHit{{Pos: world.Pos(3, 5, 3), Block: world.NewBlock("minecraft:log", 2), DistSq: 1}},
		m.View().Nearest(world.Pos(3, 6, 3), 8, 5, func(b world.Block) bool { return b.HasTag("log") }))

	// Nothing changed: an empty delta.
	d = tr.Delta(view, m.Seq(), 1<<20)
	assert.False(t, d.Reset)
	assert.Empty(t, d.Columns)
	require.NoError(t, m.Apply(roundTrip(t, d)))

	// One block: one section of one column.
	st.Update(func(tx *world.Tx) { tx.SetBlock(world.Pos(3, 5, 3), "minecraft:air", 0) })
	view = st.Snapshot().Blocks.(*chunk.Chunks)
	d = tr.Delta(view, m.Seq(), 1<<20)
	require.Len(t, d.Columns, 1)
	assert.False(t, d.Columns[0].Full)
	require.Len(t, d.Columns[0].Sections, 1)
	assert.Equal(t, 0, d.Columns[0].Sections[0].Y)
	require.NoError(t, m.Apply(roundTrip(t, d)))
	sameBlocks(t, view, m.View())

	// Clearing a section (the wool up high) sends an empty one.
	st.Update(func(tx *world.Tx) { tx.SetBlock(world.Pos(-3, 40, 3), "minecraft:air", 0) })
	view = st.Snapshot().Blocks.(*chunk.Chunks)
	d = tr.Delta(view, m.Seq(), 1<<20)
	require.Len(t, d.Columns, 1)
	assert.Equal(t, []SectionData{{Y: 2}}, d.Columns[0].Sections)
	require.NoError(t, m.Apply(roundTrip(t, d)))
	sameBlocks(t, view, m.View())

	// Unloading.
	st.Update(func(tx *world.Tx) { tx.UnloadColumn(-1, 0) })
	view = st.Snapshot().Blocks.(*chunk.Chunks)
	d = tr.Delta(view, m.Seq(), 1<<20)
	assert.Equal(t, []chunk.ChunkPos{{X: -1, Z: 0}}, d.Unloaded)
	require.NoError(t, m.Apply(roundTrip(t, d)))
	sameBlocks(t, view, m.View())

	// A client that lost a delta (it sends an older base) starts over.
	tr.Delta(view, m.Seq(), 1<<20)
	d = tr.Delta(view, m.Seq(), 1<<20)
	assert.True(t, d.Reset)
	assert.Len(t, d.Columns, 1)
	require.NoError(t, m.Apply(roundTrip(t, d)))
	sameBlocks(t, view, m.View())
}

// TestTrackerBudget: past its budget a delta says More, and the rest comes
// in the next ones.
func TestTrackerBudget(t *testing.T) {
	st := world.NewState(world.StateOptions{Rules: rules.Default()})
	st.Update(func(tx *world.Tx) {
		for cx := 0; cx < 6; cx++ {
			for i := 0; i < 40; i++ {
				tx.SetBlock(world.Pos(cx*16+i%16, i, i*7%16), "minecraft:wool", i%16)
			}
		}
	})
	view := st.Snapshot().Blocks.(*chunk.Chunks)
	tr := NewTracker()
	m := NewMirror(MirrorOptions{})
	rounds := 0
	for {
		d := tr.Delta(view, m.Seq(), 1)
		rounds++
		require.LessOrEqual(t, len(d.Columns), 1, "one column per delta at a budget of one byte")
		if len(d.Columns) == 1 {
			assert.Len(t, d.Columns[0].Sections, 1, "one section per delta at a budget of one byte")
		}
		require.NoError(t, m.Apply(roundTrip(t, d)))
		if !d.More {
			break
		}
		require.Less(t, rounds, 20)
	}
	assert.Equal(t, 6*3, rounds, "six columns of three sections (y 0..39)")
	sameBlocks(t, view, m.View())
}

func TestMirrorLimits(t *testing.T) {
	m := NewMirror(MirrorOptions{MaxColumns: 2})
	d := &BlockDelta{Seq: 1, Reset: true, Columns: []ColumnData{{X: 0, Full: true}, {X: 1, Full: true}, {X: 2, Full: true}}}
	assert.ErrorContains(t, m.Apply(d), "more than 2 loaded columns")
	assert.Equal(t, uint64(0), m.Seq(), "a failed delta empties the mirror")
	assert.Equal(t, 0, m.View().Columns())
	assert.ErrorContains(t, m.Apply(&BlockDelta{}), "without a seq")
	bad := &BlockDelta{Seq: 2, Columns: []ColumnData{{Sections: []SectionData{{Palette: []PaletteEntry{{ID: "no colon"}}}}}}}
	assert.ErrorContains(t, m.Apply(bad), "not an id")
	meta := &BlockDelta{Seq: 2, Columns: []ColumnData{{Sections: []SectionData{{Palette: []PaletteEntry{{ID: "a:b", Meta: 70000}}}}}}}
	assert.ErrorContains(t, m.Apply(meta), "metadata 70000 out of range")
}
