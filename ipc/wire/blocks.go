package wire

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// The wire form of blocks. A section (16×16×16 blocks) is a palette of
// block names with metadata and, unless the palette has a single entry, the
// palette index of every block in chunk.SectionIndex order (y, z, x): one
// byte per block when the palette has at most 256 entries, two (big-endian)
// otherwise, compressed with raw DEFLATE (RFC 1951) and base64-encoded. A
// section without a palette is all air. Names rather than numeric ids cross
// the wire, so peers need not share an id map; tags come from the
// receiver's tag table.

// PaletteEntry is one block state of a section's palette.
type PaletteEntry struct {
	ID   string `json:"id"`
	Meta int    `json:"meta,omitempty"`
}

// SectionData is one section on the wire.
type SectionData struct {
	// Y is the section's index in its column, 0..15 (blocks Y*16..Y*16+15).
	Y       int            `json:"y"`
	Palette []PaletteEntry `json:"palette,omitempty"`
	Data    string         `json:"data,omitempty"`
}

// ColumnData is a column's changed sections.
type ColumnData struct {
	X int `json:"x"`
	Z int `json:"z"`
	// Full replaces the whole column: sections not listed are air.
	Full     bool          `json:"full,omitempty"`
	Sections []SectionData `json:"sections,omitempty"`
}

// BlockDelta is the block part of an observe reply: what changed since the
// delta whose Seq the client sent as Base.
type BlockDelta struct {
	// Seq names this delta; the client sends it back as Base once applied.
	Seq uint64 `json:"seq"`
	// Reset: the client must drop every block it holds first (its Base was
	// not the server's last delta, or this is the first).
	Reset bool `json:"reset,omitempty"`
	// More: the changes did not fit in one reply; observe again (with this
	// Seq as Base) for the rest. The snapshot is only complete with the
	// last delta of a series.
	More     bool             `json:"more,omitempty"`
	Columns  []ColumnData     `json:"columns,omitempty"`
	Unloaded []chunk.ChunkPos `json:"unloaded,omitempty"`
}

const airName = "minecraft:air"

// EncodeSection builds the wire form of section cy (nil: all air).
func EncodeSection(cy int, sec *chunk.Section, res *chunk.Resolver) SectionData {
	out := SectionData{Y: cy}
	if sec == nil || sec.IsEmpty() {
		return out
	}
	var states [chunk.SectionVolume]chunk.StateID
	sec.States(&states)
	// Runs of one state are the common case: the map is consulted only
	// where the state changes.
	var idx [chunk.SectionVolume]uint16
	index := map[chunk.StateID]int{}
	var pal []chunk.StateID
	last, lastIdx := chunk.StateID(0), -1
	for i, st := range states {
		if lastIdx < 0 || st != last {
			j, ok := index[st]
			if !ok {
				j = len(pal)
				index[st] = j
				pal = append(pal, st)
			}
			last, lastIdx = st, j
		}
		idx[i] = uint16(lastIdx)
	}
	for _, st := range pal {
		b := res.Block(st)
		if b.IsAir() {
			out.Palette = append(out.Palette, PaletteEntry{ID: airName})
			continue
		}
		out.Palette = append(out.Palette, PaletteEntry{ID: b.ID, Meta: b.Meta})
	}
	if len(pal) == 1 {
		return out
	}
	width := 1
	if len(pal) > 256 {
		width = 2
	}
	raw := make([]byte, 0, chunk.SectionVolume*width)
	for _, i := range idx {
		if width == 2 {
			raw = append(raw, byte(i>>8))
		}
		raw = append(raw, byte(i))
	}
	var buf bytes.Buffer
	zw := flateWriters.Get().(*flate.Writer)
	zw.Reset(&buf)
	zw.Write(raw)
	zw.Close()
	flateWriters.Put(zw)
	out.Data = base64.StdEncoding.EncodeToString(buf.Bytes())
	return out
}

// A DEFLATE writer holds about a megabyte of state, a reader tens of
// kilobytes: they are reused.
var (
	flateWriters = sync.Pool{New: func() any {
		zw, _ := flate.NewWriter(nil, flate.BestSpeed)
		return zw
	}}
	flateReaders = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}
)

// maxEncodedData bounds a section's base64 data: DEFLATE expands
// incompressible input by well under 1%.
const maxEncodedData = 4 * (chunk.SectionVolume*2 + 1024) / 3

// DecodeSection parses a section's palette and indices into block states,
// resolving names through state. The error says what is wrong.
func DecodeSection(d SectionData, state func(PaletteEntry) (chunk.StateID, error), dst *[chunk.SectionVolume]chunk.StateID) error {
	if d.Y < 0 || d.Y >= chunk.ColumnSections {
		return fmt.Errorf("section y %d out of range 0..%d", d.Y, chunk.ColumnSections-1)
	}
	if len(d.Palette) > chunk.SectionVolume {
		return fmt.Errorf("section %d: a palette of %d entries (at most %d)", d.Y, len(d.Palette), chunk.SectionVolume)
	}
	pal := make([]chunk.StateID, len(d.Palette))
	for i, e := range d.Palette {
		st, err := state(e)
		if err != nil {
			return fmt.Errorf("section %d: palette entry %d: %w", d.Y, i, err)
		}
		pal[i] = st
	}
	switch len(pal) {
	case 0:
		if d.Data != "" {
			return fmt.Errorf("section %d: data without a palette", d.Y)
		}
		clear(dst[:])
		return nil
	case 1:
		if d.Data != "" {
			return fmt.Errorf("section %d: data with a one-entry palette", d.Y)
		}
		for i := range dst {
			dst[i] = pal[0]
		}
		return nil
	}
	if len(d.Data) > maxEncodedData {
		return fmt.Errorf("section %d: %d bytes of data (at most %d)", d.Y, len(d.Data), maxEncodedData)
	}
	comp, err := base64.StdEncoding.DecodeString(d.Data)
	if err != nil {
		return fmt.Errorf("section %d: data: %w", d.Y, err)
	}
	width := 1
	if len(pal) > 256 {
		width = 2
	}
	raw := make([]byte, chunk.SectionVolume*width)
	zr := flateReaders.Get().(io.ReadCloser)
	defer flateReaders.Put(zr)
	if err := zr.(flate.Resetter).Reset(bytes.NewReader(comp), nil); err != nil {
		return fmt.Errorf("section %d: data: %w", d.Y, err)
	}
	if _, err := io.ReadFull(zr, raw); err != nil {
		return fmt.Errorf("section %d: data: want %d index bytes: %w", d.Y, len(raw), err)
	}
	// The stream must end here: one more byte means the data is longer
	// than a section.
	var one [1]byte
	switch n, err := zr.Read(one[:]); {
	case n > 0:
		return fmt.Errorf("section %d: data: more than %d index bytes", d.Y, len(raw))
	case err != nil && err != io.EOF:
		return fmt.Errorf("section %d: data: %w", d.Y, err)
	}
	for i := range dst {
		v := int(raw[i*width])
		if width == 2 {
			v = v<<8 | int(raw[i*2+1])
		}
		if v >= len(pal) {
			return fmt.Errorf("section %d: block %d has palette index %d of %d", d.Y, i, v, len(pal))
		}
		dst[i] = pal[v]
	}
	return nil
}

// sentColumn is what a client holds of one column.
type sentColumn struct {
	col  *chunk.Column
	secs [chunk.ColumnSections]*chunk.Section
}

// Tracker computes block deltas for one connection: it remembers which
// column and section it last sent (the world's copy-on-write storage gives
// a changed section a new identity), so a delta costs a pointer comparison
// per loaded section plus the encoding of what changed.
type Tracker struct {
	seq  uint64
	sent map[chunk.ChunkPos]*sentColumn
}

// NewTracker returns a tracker for a client that holds nothing yet.
func NewTracker() *Tracker {
	return &Tracker{sent: map[chunk.ChunkPos]*sentColumn{}}
}

// approxSize estimates a section's encoded size.
func approxSize(d SectionData) int {
	n := len(d.Data) + 16
	for _, e := range d.Palette {
		n += len(e.ID) + 24
	}
	return n
}

// Delta returns the changes from what the client holds (the delta named
// base) to chunks, about budget bytes of section data at most (at least one
// section is always sent, so a series of deltas ends); the rest is left for
// the next delta and More is set. A base that is not the last delta sent
// resets the client.
func (t *Tracker) Delta(chunks *chunk.Chunks, base uint64, budget int) *BlockDelta {
	t.seq++
	d := &BlockDelta{Seq: t.seq}
	if base == 0 || base != t.seq-1 {
		d.Reset = true
		clear(t.sent)
	}
	if chunks == nil {
		for p := range t.sent {
			d.Unloaded = append(d.Unloaded, p)
		}
		clear(t.sent)
		sortChunks(d.Unloaded)
		return d
	}
	var cols []*chunk.Column
	chunks.ForEachColumn(func(c *chunk.Column) { cols = append(cols, c) })
	slices.SortFunc(cols, func(a, b *chunk.Column) int { return cmpChunk(a.Pos(), b.Pos()) })
	present := make(map[chunk.ChunkPos]bool, len(cols))
	res := chunks.Resolver()
	size := 0
	for _, c := range cols {
		present[c.Pos()] = true
		s := t.sent[c.Pos()]
		if s != nil && s.col == c {
			continue
		}
		if size >= budget && len(d.Columns) > 0 {
			d.More = true
			continue
		}
		cd := ColumnData{X: c.Pos().X, Z: c.Pos().Z, Full: s == nil}
		// ns records what the client will hold: a new column is all air
		// until its sections are sent.
		ns := &sentColumn{col: c}
		if s != nil {
			ns.secs = s.secs
		}
		for cy := 0; cy < chunk.ColumnSections; cy++ {
			sec := c.Section(cy)
			if ns.secs[cy] == sec {
				continue
			}
			if size >= budget && (len(d.Columns) > 0 || len(cd.Sections) > 0) {
				// The rest of the column goes in the next delta; the
				// column is compared again then.
				d.More = true
				ns.col = nil
				continue
			}
			sd := EncodeSection(cy, sec, res)
			size += approxSize(sd)
			cd.Sections = append(cd.Sections, sd)
			ns.secs[cy] = sec
		}
		t.sent[c.Pos()] = ns
		d.Columns = append(d.Columns, cd)
	}
	for p := range t.sent {
		if !present[p] {
			d.Unloaded = append(d.Unloaded, p)
			delete(t.sent, p)
		}
	}
	sortChunks(d.Unloaded)
	return d
}

func cmpChunk(a, b chunk.ChunkPos) int {
	if a.X != b.X {
		return a.X - b.X
	}
	return a.Z - b.Z
}

func sortChunks(ps []chunk.ChunkPos) { slices.SortFunc(ps, cmpChunk) }

// MirrorOptions bound a Mirror.
type MirrorOptions struct {
	// MaxColumns bounds the loaded columns (0: 65536, a 256-chunk square).
	MaxColumns int
	// Tags gives blocks their tags (nil: the shipped table).
	Tags *rules.TagTable
}

// Mirror is a client's copy of a remote world's blocks, kept up to date by
// applying block deltas. Its View is a chunk.Chunks, the same kind of block
// source an in-process body's snapshots carry, so the pathfinder and the
// nearest-block search see the same world. Not safe for concurrent use.
type Mirror struct {
	store *chunk.ChunkStore
	ids   *rules.IDMap
	names map[string]int
	tags  *rules.TagTable
	seq   uint64
	max   int
}

// NewMirror returns an empty mirror.
func NewMirror(opts MirrorOptions) *Mirror {
	if opts.MaxColumns <= 0 {
		opts.MaxColumns = 1 << 16
	}
	if opts.Tags == nil {
		opts.Tags = rules.Default().Tags
	}
	m := &Mirror{tags: opts.Tags, max: opts.MaxColumns}
	m.reset()
	return m
}

func (m *Mirror) reset() {
	m.ids = rules.NewIDMap()
	m.ids.SetBlock(0, airName)
	m.names = map[string]int{airName: 0}
	m.store = chunk.NewChunkStore(chunk.NewResolver(m.ids.Clone(), m.tags))
	m.seq = 0
}

// Seq is the last delta applied (0: none); send it as Base.
func (m *Mirror) Seq() uint64 { return m.seq }

// View returns the blocks as an immutable chunk.Chunks.
func (m *Mirror) View() *chunk.Chunks { return m.store.View() }

// Apply applies a delta. On error the mirror is emptied and Seq is 0, so
// the next observe asks for everything again.
func (m *Mirror) Apply(d *BlockDelta) error {
	if err := m.apply(d); err != nil {
		m.reset()
		return err
	}
	m.seq = d.Seq
	return nil
}

func (m *Mirror) apply(d *BlockDelta) error {
	if d.Seq == 0 {
		return fmt.Errorf("block delta without a seq")
	}
	if d.Reset {
		m.reset()
	}
	// Register new names first: the resolver changes once per delta.
	fresh := false
	for _, c := range d.Columns {
		for _, s := range c.Sections {
			for _, e := range s.Palette {
				if _, ok := m.names[e.ID]; ok {
					continue
				}
				if e.ID == "" {
					return fmt.Errorf("column (%d, %d) section %d: a palette entry without an id", c.X, c.Z, s.Y)
				}
				id := len(m.names)
				if id > rules.MaxNumericID {
					return fmt.Errorf("more than %d distinct block names", rules.MaxNumericID)
				}
				if err := m.ids.SetBlock(id, e.ID); err != nil {
					return fmt.Errorf("column (%d, %d) section %d: %w", c.X, c.Z, s.Y, err)
				}
				m.names[e.ID] = id
				fresh = true
			}
		}
	}
	if fresh {
		m.store.SetResolver(chunk.NewResolver(m.ids.Clone(), m.tags))
	}
	state := func(e PaletteEntry) (chunk.StateID, error) {
		if e.Meta < 0 || e.Meta > 0xFFFF {
			return 0, fmt.Errorf("%s: metadata %d out of range", e.ID, e.Meta)
		}
		if e.ID == airName {
			return chunk.AirState, nil
		}
		return chunk.MakeState(m.names[e.ID], e.Meta), nil
	}
	var states [chunk.SectionVolume]chunk.StateID
	for _, p := range d.Unloaded {
		m.store.UnloadColumn(p.X, p.Z)
	}
	for _, c := range d.Columns {
		if m.store.Column(c.X, c.Z) == nil && m.store.Columns() >= m.max {
			return fmt.Errorf("more than %d loaded columns", m.max)
		}
		if c.Full {
			m.store.LoadColumn(chunk.NewColumn(c.X, c.Z))
		}
		for _, s := range c.Sections {
			if err := DecodeSection(s, state, &states); err != nil {
				return fmt.Errorf("column (%d, %d): %w", c.X, c.Z, err)
			}
			var sec *chunk.Section
			if len(s.Palette) > 0 {
				sec = chunk.NewSection(&states)
			}
			if sec == nil && m.store.Column(c.X, c.Z) == nil {
				// Clearing a section of a column the mirror does not hold
				// would leave nothing either way; load it so the column
				// exists as the server has it.
				m.store.LoadColumn(chunk.NewColumn(c.X, c.Z))
			}
			m.store.SetSection(c.X, s.Y, c.Z, sec)
		}
		if m.store.Column(c.X, c.Z) == nil {
			m.store.LoadColumn(chunk.NewColumn(c.X, c.Z))
		}
	}
	return nil
}
