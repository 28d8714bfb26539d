package chunk

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tests of raw (wire-format) sections. Every expectation is derived from a
// per-block list of (id, meta) pairs that the test encodes into the wire
// arrays itself, never from fillVanillaStates or fillNEIDStates.

// rawBlocks is a section's content as per-block id and metadata, in
// SectionIndex order; air blocks may carry any metadata.
type rawBlocks struct {
	id, meta [SectionVolume]int
}

// states returns the expected states: id<<16 | meta, and 0 for every block
// whose id is 0 whatever its metadata.
func (b *rawBlocks) states() *[SectionVolume]StateID {
	var st [SectionVolume]StateID
	for i := range st {
		if b.id[i] != 0 {
			st[i] = StateID(uint32(b.id[i])<<16 | uint32(b.meta[i]))
		}
	}
	return &st
}

// ensureNonAir makes sure at least one block is not air (constructors give
// an empty palette section for all-air arrays).
func (b *rawBlocks) ensureNonAir(r *rand.Rand) {
	for _, id := range b.id {
		if id != 0 {
			return
		}
	}
	b.id[r.IntN(SectionVolume)] = 1
}

// rawEncodeVanilla encodes blocks as the 1.7.10 vanilla arrays: one id byte a
// block, metadata and add nibbles with the even block in the low nibble. add
// is nil unless withAdd. With packet set, the arrays are consecutive slices
// of one buffer, as a decoder would hand them over.
func rawEncodeVanilla(b *rawBlocks, withAdd, packet bool) (ids, meta, add []byte) {
	if packet {
		buf := make([]byte, SectionVolume*2+64)
		ids = buf[16 : 16+SectionVolume]
		meta = buf[16+SectionVolume : 16+SectionVolume+SectionVolume/2]
		if withAdd {
			add = buf[16+SectionVolume+SectionVolume/2 : 16+2*SectionVolume]
		}
	} else {
		ids = make([]byte, SectionVolume)
		meta = make([]byte, SectionVolume/2)
		if withAdd {
			add = make([]byte, SectionVolume/2)
		}
	}
	for i := 0; i < SectionVolume; i++ {
		shift := 4 * uint(i%2)
		ids[i] = byte(b.id[i] & 0xFF)
		meta[i/2] |= byte(b.meta[i]&0xF) << shift
		if withAdd {
			add[i/2] |= byte(b.id[i]>>8&0xF) << shift
		}
	}
	return ids, meta, add
}

// rawEncodeNEID encodes blocks as NotEnoughIds arrays: a big-endian u16 id
// and a big-endian u16 metadata a block.
func rawEncodeNEID(b *rawBlocks) (ids, meta []byte) {
	ids = make([]byte, 2*SectionVolume)
	meta = make([]byte, 2*SectionVolume)
	for i := 0; i < SectionVolume; i++ {
		ids[2*i] = byte(b.id[i] >> 8)
		ids[2*i+1] = byte(b.id[i])
		meta[2*i] = byte(b.meta[i] >> 8)
		meta[2*i+1] = byte(b.meta[i])
	}
	return ids, meta
}

// rawGenRuns fills blocks with runs of pairs drawn from a small set.
func rawGenRuns(r *rand.Rand, pairs [][2]int, maxRun int) *rawBlocks {
	b := &rawBlocks{}
	for i := 0; i < SectionVolume; {
		p := pairs[r.IntN(len(pairs))]
		n := 1 + r.IntN(maxRun)
		for ; n > 0 && i < SectionVolume; n, i = n-1, i+1 {
			b.id[i], b.meta[i] = p[0], p[1]
		}
	}
	b.ensureNonAir(r)
	return b
}

// rawGenEach fills every block independently.
func rawGenEach(r *rand.Rand, gen func(r *rand.Rand) (id, meta int)) *rawBlocks {
	b := &rawBlocks{}
	for i := range b.id {
		b.id[i], b.meta[i] = gen(r)
	}
	b.ensureNonAir(r)
	return b
}

// rawRandPairs returns n random (id, meta) pairs below the given bounds.
func rawRandPairs(r *rand.Rand, n, ids, metas int) [][2]int {
	out := make([][2]int, n)
	for i := range out {
		out[i] = [2]int{r.IntN(ids), r.IntN(metas)}
	}
	return out
}

// rawFormat is how a distribution is encoded.
type rawFormat int

const (
	fmtVanilla rawFormat = iota
	fmtVanillaAdd
	fmtNEID
	fmtNEIDNibble // NotEnoughIds ids, metadata as nibbles (every value below 16)
)

type rawDist struct {
	name   string
	format rawFormat
	gen    func(r *rand.Rand) *rawBlocks
	// manyStates asks the test to check that the content has more than 256
	// distinct states (16-bit palette indices).
	manyStates bool
}

var rawDists = []rawDist{
	{name: "vanilla/few-long-runs", format: fmtVanilla, gen: func(r *rand.Rand) *rawBlocks {
		return rawGenRuns(r, rawRandPairs(r, 1+r.IntN(4), 256, 16), 700)
	}},
	{name: "vanilla/uniform-stone", format: fmtVanilla, gen: func(r *rand.Rand) *rawBlocks {
		return rawGenRuns(r, [][2]int{{1, 0}}, SectionVolume)
	}},
	{name: "vanilla/many-states", format: fmtVanilla, manyStates: true, gen: func(r *rand.Rand) *rawBlocks {
		return rawGenEach(r, func(r *rand.Rand) (int, int) { return r.IntN(256), r.IntN(16) })
	}},
	{name: "vanilla/medium-palette", format: fmtVanilla, gen: func(r *rand.Rand) *rawBlocks {
		return rawGenRuns(r, rawRandPairs(r, 20+r.IntN(200), 256, 16), 8)
	}},
	{name: "vanilla/air-with-meta", format: fmtVanilla, gen: func(r *rand.Rand) *rawBlocks {
		return rawGenEach(r, func(r *rand.Rand) (int, int) {
			if r.IntN(2) == 0 {
				return 0, 1 + r.IntN(15)
			}
			return 1 + r.IntN(20), r.IntN(16)
		})
	}},
	{name: "vanilla/sparse", format: fmtVanilla, gen: func(r *rand.Rand) *rawBlocks {
		return rawGenEach(r, func(r *rand.Rand) (int, int) {
			if r.IntN(100) == 0 {
				return 14 + r.IntN(4), r.IntN(16)
			}
			return 0, r.IntN(16)
		})
	}},
	{name: "add/dense", format: fmtVanillaAdd, manyStates: true, gen: func(r *rand.Rand) *rawBlocks {
		return rawGenEach(r, func(r *rand.Rand) (int, int) { return r.IntN(4096), r.IntN(16) })
	}},
	{name: "add/low-byte-zero", format: fmtVanillaAdd, gen: func(r *rand.Rand) *rawBlocks {
		// ids whose low byte is 0 are air only when the add nibble is 0 too.
		return rawGenRuns(r, [][2]int{{0, 0}, {0, 9}, {0x100, 0}, {0x200, 3}, {0xF00, 15}, {0x1FF, 7}, {1, 0}}, 40)
	}},
	{name: "add/few-high-ids", format: fmtVanillaAdd, gen: func(r *rand.Rand) *rawBlocks {
		return rawGenEach(r, func(r *rand.Rand) (int, int) {
			if r.IntN(500) == 0 {
				return 256 * (1 + r.IntN(15)), r.IntN(16)
			}
			return r.IntN(3), r.IntN(16)
		})
	}},
	{name: "add/zero-nibbles", format: fmtVanillaAdd, gen: func(r *rand.Rand) *rawBlocks {
		// An add array of zeros: the section must treat it as absent.
		return rawGenRuns(r, rawRandPairs(r, 6, 256, 16), 100)
	}},
	{name: "neid/dense", format: fmtNEID, manyStates: true, gen: func(r *rand.Rand) *rawBlocks {
		return rawGenEach(r, func(r *rand.Rand) (int, int) {
			if r.IntN(10) == 0 {
				return 0, r.IntN(65536)
			}
			return r.IntN(65536), r.IntN(65536)
		})
	}},
	{name: "neid/runs-wide", format: fmtNEID, gen: func(r *rand.Rand) *rawBlocks {
		return rawGenRuns(r, [][2]int{
			{0, 0}, {0, 65535}, {0, 16}, {1, 0}, {4095, 15}, {4096, 0}, {4097, 16},
			{65535, 65535}, {0x1234, 0x5678}, {0x100, 0x100}, {0xFF00, 1},
		}, 300)
	}},
	{name: "neid/vanilla-range", format: fmtNEID, gen: func(r *rand.Rand) *rawBlocks {
		return rawGenRuns(r, rawRandPairs(r, 1+r.IntN(40), 256, 16), 50)
	}},
	{name: "neid-nibble/dense", format: fmtNEIDNibble, manyStates: true, gen: func(r *rand.Rand) *rawBlocks {
		return rawGenEach(r, func(r *rand.Rand) (int, int) {
			if r.IntN(10) == 0 {
				return 0, r.IntN(16)
			}
			return r.IntN(65536), r.IntN(16)
		})
	}},
	{name: "neid-nibble/runs-wide", format: fmtNEIDNibble, gen: func(r *rand.Rand) *rawBlocks {
		return rawGenRuns(r, [][2]int{
			{0, 0}, {0, 15}, {1, 0}, {4095, 15}, {4096, 0}, {4097, 1},
			{65535, 15}, {0x1234, 5}, {0x100, 8}, {0xFF00, 1},
		}, 300)
	}},
	{name: "neid-nibble/zero-meta", format: fmtNEIDNibble, gen: func(r *rand.Rand) *rawBlocks {
		return rawGenRuns(r, rawRandPairs(r, 1+r.IntN(40), 8000, 1), 50)
	}},
	{name: "vanilla/zero-meta", format: fmtVanilla, gen: func(r *rand.Rand) *rawBlocks {
		return rawGenRuns(r, rawRandPairs(r, 1+r.IntN(20), 256, 1), 50)
	}},
}

// zeroMeta reports whether every block of b has metadata 0.
func (b *rawBlocks) zeroMeta() bool {
	for _, m := range b.meta {
		if m != 0 {
			return false
		}
	}
	return true
}

// rawBuild encodes b in the distribution's format and returns the section
// and the storage kind it must have. Odd seeds take the arrays from one
// packet buffer and, for vanilla without add, pass an all-zero add array.
// When every metadata is 0, even seeds pass a nil metadata array to the
// constructors that accept one (vanilla, NEID with nibble metadata).
func rawBuild(t *testing.T, format rawFormat, b *rawBlocks, seed uint64) (*Section, uint8) {
	t.Helper()
	switch format {
	case fmtNEID:
		ids, meta := rawEncodeNEID(b)
		return NewNEIDSection(ids, meta), bitsRawNEID
	case fmtNEIDNibble:
		ids, _ := rawEncodeNEID(b)
		_, meta, _ := rawEncodeVanilla(b, false, false)
		if seed%2 == 0 && b.zeroMeta() {
			meta = nil
		}
		return NewNEIDNibbleSection(ids, meta), bitsRawNEIDNibble
	case fmtVanillaAdd:
		ids, meta, add := rawEncodeVanilla(b, true, seed%2 == 1)
		kind := bitsRawVanilla
		for _, id := range b.id {
			if id>>8 != 0 {
				kind = bitsRawVanillaAdd
				break
			}
		}
		return NewVanillaSection(ids, meta, add), kind
	}
	withZeroAdd := seed%2 == 1
	ids, meta, add := rawEncodeVanilla(b, withZeroAdd, withZeroAdd)
	if seed%2 == 0 && b.zeroMeta() {
		meta = nil
	}
	return NewVanillaSection(ids, meta, add), bitsRawVanilla
}

// checkContent compares a section with the expected states: every block by
// index and by coordinates, the counts, Contains, NonAir, IsEmpty, the
// palette as a set and States.
func checkContent(t *testing.T, s *Section, want *[SectionVolume]StateID, label string) {
	t.Helper()
	for i := range want {
		if got := s.at(i); got != want[i] {
			t.Fatalf("%s: at(%d) = %v, want %v", label, i, got, want[i])
		}
	}
	for y := 0; y < 16; y++ {
		for z := 0; z < 16; z++ {
			for x := 0; x < 16; x++ {
				w := want[y*256+z*16+x]
				if got := s.Get(x, y, z); got != w {
					t.Fatalf("%s: Get(%d, %d, %d) = %v, want %v", label, x, y, z, got, w)
				}
				// Coordinates are taken modulo 16.
				if got := s.Get(x+16, y-32, z-16); got != w {
					t.Fatalf("%s: Get(%d, %d, %d) = %v, want %v", label, x+16, y-32, z-16, got, w)
				}
			}
		}
	}
	counts := map[StateID]int{}
	nonAir := 0
	for _, st := range want {
		counts[st]++
		if st != AirState {
			nonAir++
		}
	}
	for st, n := range counts {
		if got := s.Count(st); got != n {
			t.Fatalf("%s: Count(%v) = %d, want %d", label, st, got, n)
		}
		if !s.Contains(st) {
			t.Fatalf("%s: Contains(%v) = false", label, st)
		}
	}
	// Air with metadata is air.
	assert.Equal(t, counts[AirState], s.Count(StateID(7)), "%s: Count of air with metadata", label)
	assert.Equal(t, counts[AirState], s.Count(StateID(0xFFFF)), "%s: Count of air with metadata", label)
	assert.Equal(t, counts[AirState] > 0, s.Contains(StateID(3)), "%s: Contains air with metadata", label)
	// States that are absent.
	for _, st := range []StateID{MakeState(1, 16), MakeState(0xFFFF, 0xFFFE), MakeState(4096, 17), MakeState(300, 40000)} {
		if counts[st] == 0 {
			assert.Zero(t, s.Count(st), "%s: Count of absent %v", label, st)
			assert.False(t, s.Contains(st), "%s: Contains absent %v", label, st)
		}
	}
	assert.Equal(t, nonAir, s.NonAir(), "%s: NonAir", label)
	assert.Equal(t, nonAir == 0, s.IsEmpty(), "%s: IsEmpty", label)

	pal := s.Palette()
	wantPal := make([]StateID, 0, len(counts))
	for st := range counts {
		wantPal = append(wantPal, st)
	}
	slices.Sort(pal)
	slices.Sort(wantPal)
	assert.Equal(t, wantPal, pal, "%s: Palette as a set (no duplicates)", label)

	var got [SectionVolume]StateID
	got[5] = MakeState(99, 99) // States must overwrite every entry
	s.States(&got)
	if got != *want {
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: States[%d] = %v, want %v", label, i, got[i], want[i])
			}
		}
	}
}

func TestRawSectionMatchesPaletteSection(t *testing.T) {
	for _, d := range rawDists {
		t.Run(d.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 10; seed++ {
				r := rand.New(rand.NewPCG(seed, 0xC0FFEE^uint64(len(d.name))))
				b := d.gen(r)
				want := b.states()
				label := fmt.Sprintf("%s seed %d", d.name, seed)

				raw, kind := rawBuild(t, d.format, b, seed)
				require.True(t, raw.IsRaw(), label)
				require.Equal(t, kind, raw.bits, "%s: storage kind", label)
				require.Nil(t, raw.raw.packed.Load(), "%s: palette form built before any query", label)

				// The palette section the raw one must be equivalent to.
				ref := NewSection(want)
				require.False(t, ref.IsRaw())

				// Block reads do not need the palette form.
				for i := range want {
					if raw.at(i) != ref.at(i) {
						t.Fatalf("%s: raw.at(%d) = %v, palette section has %v", label, i, raw.at(i), ref.at(i))
					}
				}
				assert.Nil(t, raw.raw.packed.Load(), "%s: at builds no palette form", label)

				checkContent(t, raw, want, label+" raw")
				checkContent(t, ref, want, label+" palette")
				assert.Equal(t, ref.Bits(), raw.Bits(), "%s: Bits", label)
				assert.Equal(t, ref.NonAir(), raw.NonAir(), label)
				assert.False(t, raw.IsEmpty(), "%s: a raw section is never empty", label)
				if d.manyStates {
					assert.Greater(t, len(raw.Palette()), 256, "%s: distribution meant to exceed 256 states", label)
					assert.Equal(t, 16, raw.Bits(), label)
				}

				// Queries cache the palette form but leave the section raw.
				assert.True(t, raw.IsRaw(), "%s: still raw after queries", label)
				assert.Equal(t, kind, raw.bits, label)
				p := raw.raw.packed.Load()
				require.NotNil(t, p, "%s: palette form cached", label)
				assert.Same(t, p, raw.packed(), "%s: packed returns the cached form", label)
				assert.False(t, p.IsRaw(), label)
				checkContent(t, p, want, label+" cached palette form")
			}
		})
	}
}

func TestRawSectionAllAirArrays(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	randBytes := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return b
	}
	var air [SectionVolume]StateID
	cases := []struct {
		name string
		sec  *Section
	}{
		{"vanilla", NewVanillaSection(make([]byte, VanillaIDBytes), randBytes(NibbleBytes), nil)},
		{"vanilla zero add", NewVanillaSection(make([]byte, VanillaIDBytes), randBytes(NibbleBytes), make([]byte, NibbleBytes))},
		{"neid", NewNEIDSection(make([]byte, NEIDIDBytes), randBytes(NEIDMetaBytes))},
		{"neid-nibble", NewNEIDNibbleSection(make([]byte, NEIDIDBytes), randBytes(NibbleBytes))},
		{"neid-nibble nil meta", NewNEIDNibbleSection(make([]byte, NEIDIDBytes), nil)},
		{"vanilla nil meta", NewVanillaSection(make([]byte, VanillaIDBytes), nil, nil)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.NotNil(t, tc.sec)
			assert.False(t, tc.sec.IsRaw())
			assert.True(t, tc.sec.IsEmpty())
			assert.Zero(t, tc.sec.NonAir())
			assert.Equal(t, []StateID{AirState}, tc.sec.Palette())
			checkContent(t, tc.sec, &air, tc.name)
			// A column drops an empty section.
			col := NewColumn(0, 0)
			col.SetSection(2, tc.sec)
			assert.Nil(t, col.Section(2))
		})
	}

	// Non-zero add with zero id bytes is not air.
	t.Run("add only", func(t *testing.T) {
		add := make([]byte, NibbleBytes)
		add[10] = 0x30 // block 21: id 0x300
		meta := randBytes(NibbleBytes)
		s := NewVanillaSection(make([]byte, VanillaIDBytes), meta, add)
		require.True(t, s.IsRaw())
		var want [SectionVolume]StateID
		want[21] = StateID(0x300<<16) | StateID(meta[10]>>4)
		checkContent(t, s, &want, "add only")
		assert.Equal(t, 1, s.NonAir())
	})

	// An all-zero add array is the same as none.
	t.Run("zero add is no add", func(t *testing.T) {
		b := rawGenEach(r, func(r *rand.Rand) (int, int) { return r.IntN(256), r.IntN(16) })
		ids, meta, _ := rawEncodeVanilla(b, false, false)
		s := NewVanillaSection(ids, meta, make([]byte, NibbleBytes))
		require.True(t, s.IsRaw())
		assert.Equal(t, bitsRawVanilla, s.bits)
		assert.Nil(t, s.raw.add)
		checkContent(t, s, b.states(), "zero add")
	})
}

// panicText runs fn and returns what it panicked with, as a string.
func panicText(fn func()) (msg string, panicked bool) {
	defer func() {
		if v := recover(); v != nil {
			msg, panicked = fmt.Sprint(v), true
		}
	}()
	fn()
	return "", false
}

func TestRawSectionWrongLengthsPanic(t *testing.T) {
	ok := func(n int) []byte { b := make([]byte, n); b[0] = 1; return b }
	cases := []struct {
		name  string
		array string
		fn    func()
	}{
		{"vanilla ids short", "ids", func() { NewVanillaSection(ok(VanillaIDBytes-1), ok(NibbleBytes), nil) }},
		{"vanilla ids long", "ids", func() { NewVanillaSection(ok(VanillaIDBytes+1), ok(NibbleBytes), nil) }},
		{"vanilla ids nil", "ids", func() { NewVanillaSection(nil, ok(NibbleBytes), nil) }},
		{"vanilla ids NEID size", "ids", func() { NewVanillaSection(ok(NEIDIDBytes), ok(NibbleBytes), nil) }},
		{"vanilla meta short", "meta", func() { NewVanillaSection(ok(VanillaIDBytes), ok(NibbleBytes-1), nil) }},
		{"vanilla meta full bytes", "meta", func() { NewVanillaSection(ok(VanillaIDBytes), ok(VanillaIDBytes), nil) }},
		{"vanilla meta empty", "meta", func() { NewVanillaSection(ok(VanillaIDBytes), []byte{}, nil) }},
		{"vanilla add short", "add", func() { NewVanillaSection(ok(VanillaIDBytes), ok(NibbleBytes), ok(NibbleBytes-1)) }},
		{"vanilla add long", "add", func() { NewVanillaSection(ok(VanillaIDBytes), ok(NibbleBytes), ok(VanillaIDBytes)) }},
		{"vanilla add empty", "add", func() { NewVanillaSection(ok(VanillaIDBytes), ok(NibbleBytes), []byte{}) }},
		{"vanilla zero ids, bad meta", "meta", func() { NewVanillaSection(make([]byte, VanillaIDBytes), ok(10), nil) }},
		{"neid ids vanilla size", "ids", func() { NewNEIDSection(ok(VanillaIDBytes), ok(NEIDMetaBytes)) }},
		{"neid ids nil", "ids", func() { NewNEIDSection(nil, ok(NEIDMetaBytes)) }},
		{"neid meta short", "meta", func() { NewNEIDSection(ok(NEIDIDBytes), ok(NEIDMetaBytes-2)) }},
		{"neid meta nibble size", "meta", func() { NewNEIDSection(ok(NEIDIDBytes), ok(NibbleBytes)) }},
		{"neid zero ids, bad meta", "meta", func() { NewNEIDSection(make([]byte, NEIDIDBytes), nil) }},
		{"neid-nibble ids vanilla size", "ids", func() { NewNEIDNibbleSection(ok(VanillaIDBytes), ok(NibbleBytes)) }},
		{"neid-nibble ids nil", "ids", func() { NewNEIDNibbleSection(nil, nil) }},
		{"neid-nibble meta u16 size", "meta", func() { NewNEIDNibbleSection(ok(NEIDIDBytes), ok(NEIDMetaBytes)) }},
		{"neid-nibble meta short", "meta", func() { NewNEIDNibbleSection(ok(NEIDIDBytes), ok(NibbleBytes-1)) }},
		{"neid-nibble meta empty", "meta", func() { NewNEIDNibbleSection(ok(NEIDIDBytes), []byte{}) }},
		{"neid-nibble zero ids, bad meta", "meta", func() { NewNEIDNibbleSection(make([]byte, NEIDIDBytes), ok(10)) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Panics(t, tc.fn)
			msg, panicked := panicText(tc.fn)
			require.True(t, panicked)
			assert.Contains(t, msg, "section "+tc.array+" array", "the message names the array")
		})
	}
	// The right lengths do not panic.
	assert.NotPanics(t, func() { NewVanillaSection(ok(VanillaIDBytes), ok(NibbleBytes), nil) })
	assert.NotPanics(t, func() { NewVanillaSection(ok(VanillaIDBytes), ok(NibbleBytes), ok(NibbleBytes)) })
	assert.NotPanics(t, func() { NewNEIDSection(ok(NEIDIDBytes), ok(NEIDMetaBytes)) })
	assert.NotPanics(t, func() { NewNEIDNibbleSection(ok(NEIDIDBytes), ok(NibbleBytes)) })
	// nil metadata is all zeros.
	assert.NotPanics(t, func() { NewVanillaSection(ok(VanillaIDBytes), nil, nil) })
	assert.NotPanics(t, func() { NewNEIDNibbleSection(ok(NEIDIDBytes), nil) })
}

func TestRawSectionSetMaterializes(t *testing.T) {
	for _, d := range rawDists {
		t.Run(d.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(77, uint64(len(d.name))))
			b := d.gen(r)
			want := b.states()
			raw, _ := rawBuild(t, d.format, b, 2)
			require.True(t, raw.IsRaw())
			arrays := raw.raw

			before := raw.Clone() // shares the immutable arrays
			require.True(t, before.IsRaw())
			assert.Same(t, arrays, before.raw, "a clone of a raw section shares its arrays")
			assert.False(t, before.owned)

			// Build the cached palette form first on odd distributions, so
			// materialize must copy it rather than write into it.
			cacheFirst := len(d.name)%2 == 1
			if cacheFirst {
				require.Positive(t, raw.NonAir())
				require.NotNil(t, arrays.packed.Load())
			}

			x, y, z := r.IntN(16), r.IntN(16), r.IntN(16)
			i := y<<8 | z<<4 | x
			st := MakeState(4321, 1234)
			prev := raw.Set(x, y, z, st)
			assert.Equal(t, want[i], prev, "Set returns the previous state")
			assert.False(t, raw.IsRaw(), "Set materializes")
			assert.Contains(t, raw.String(), "states")

			after := *want
			after[i] = st
			checkContent(t, raw, &after, d.name+" after Set")

			// The clone and the cached palette form still show the old content.
			assert.True(t, before.IsRaw())
			checkContent(t, before, want, d.name+" clone taken before Set")
			if p := arrays.packed.Load(); p != nil {
				checkContent(t, p, want, d.name+" cached palette form")
			}

			// Writes to the clone leave the materialized section alone.
			j := (i + 1) % SectionVolume
			prev = before.Set(j&15, j>>8, j>>4&15, AirState)
			assert.Equal(t, want[j], prev)
			assert.False(t, before.IsRaw())
			old := *want
			old[j] = AirState
			checkContent(t, before, &old, d.name+" clone after its own Set")
			checkContent(t, raw, &after, d.name+" unaffected by the clone's Set")
		})
	}
}

func TestRawSectionRandomSets(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		d := rawDists[int(seed)%len(rawDists)]
		r := rand.New(rand.NewPCG(seed, 99))
		b := d.gen(r)
		want := *b.states()
		s, _ := rawBuild(t, d.format, b, seed)
		require.True(t, s.IsRaw())
		states := []StateID{AirState, StateID(5), MakeState(1, 0), MakeState(4096, 3), MakeState(65535, 65535)}
		for n := 0; n < 400; n++ {
			i := r.IntN(SectionVolume)
			var st StateID
			switch r.IntN(3) {
			case 0:
				st = states[r.IntN(len(states))]
			case 1:
				st = want[r.IntN(SectionVolume)]
			default:
				st = MakeState(1+r.IntN(70000), r.IntN(70000))
			}
			prev := s.Set(i&15, i>>8, i>>4&15, st)
			require.Equal(t, want[i], prev, "%s seed %d step %d", d.name, seed, n)
			want[i] = normState(st)
		}
		checkContent(t, s, &want, fmt.Sprintf("%s seed %d after sets", d.name, seed))
	}
}

func TestRawSectionSetToAllAir(t *testing.T) {
	b := &rawBlocks{}
	for i := range b.meta {
		b.meta[i] = i % 16
	}
	pos := []int{0, 1, 255, 256, 2047, 4095}
	for k, i := range pos {
		b.id[i] = 1 + k
	}
	ids, meta, _ := rawEncodeVanilla(b, false, false)
	s := NewVanillaSection(ids, meta, nil)
	require.True(t, s.IsRaw())
	assert.Equal(t, len(pos), s.NonAir())
	for k, i := range pos {
		assert.Equal(t, MakeState(1+k, i%16), s.Set(i&15, i>>8, i>>4&15, AirState))
	}
	assert.True(t, s.IsEmpty())
	assert.Zero(t, s.NonAir())
	assert.Equal(t, []StateID{AirState}, s.Palette())

	// Through a column, which drops the section once it is all air.
	s = NewVanillaSection(ids, meta, nil)
	col := NewColumn(0, 0)
	col.SetSection(4, s)
	require.Same(t, s, col.Section(4))
	for k, i := range pos {
		y := 64 + i>>8
		assert.Equal(t, MakeState(1+k, i%16), col.StateAt(i&15, y, i>>4&15))
		assert.Equal(t, MakeState(1+k, i%16), col.SetState(i&15, y, i>>4&15, StateID(9)))
	}
	assert.Nil(t, col.Section(4))
}

func TestRawSectionConcurrentReaders(t *testing.T) {
	const readers = 16
	type result struct {
		count, nonAir, bits int
		contains            bool
		palette             []StateID
		blocks              [SectionVolume]StateID
		states              [SectionVolume]StateID
		clone               StateID
		mem                 int
		str                 string
	}
	for round, d := range rawDists {
		r := rand.New(rand.NewPCG(uint64(round), 5))
		b := d.gen(r)
		want := b.states()
		probe := want[r.IntN(SectionVolume)]
		wantCount := 0
		wantNonAir := 0
		for _, st := range want {
			if st == probe {
				wantCount++
			}
			if st != AirState {
				wantNonAir++
			}
		}
		wantPal := NewSection(want).Palette()
		slices.Sort(wantPal)

		s, _ := rawBuild(t, d.format, b, uint64(round))
		require.True(t, s.IsRaw())
		results := make([]result, readers)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for g := 0; g < readers; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				<-start
				res := &results[g]
				// Vary the order so different calls build the palette form.
				switch g % 4 {
				case 0:
					res.count = s.Count(probe)
					res.palette = s.Palette()
					res.nonAir = s.NonAir()
				case 1:
					res.palette = s.Palette()
					res.nonAir = s.NonAir()
					res.count = s.Count(probe)
				case 2:
					res.nonAir = s.NonAir()
					res.count = s.Count(probe)
					res.palette = s.Palette()
				default:
					res.mem = s.MemBytes()
					res.str = s.String()
					res.count = s.Count(probe)
					res.nonAir = s.NonAir()
					res.palette = s.Palette()
				}
				res.contains = s.Contains(probe)
				res.bits = s.Bits()
				for y := 0; y < 16; y++ {
					for z := 0; z < 16; z++ {
						for x := 0; x < 16; x++ {
							res.blocks[y<<8|z<<4|x] = s.Get(x, y, z)
						}
					}
				}
				s.States(&res.states)
				res.clone = s.Clone().Get(g, g, g)
			}(g)
		}
		close(start)
		wg.Wait()

		assert.True(t, s.IsRaw(), d.name)
		for g, res := range results {
			label := fmt.Sprintf("%s reader %d", d.name, g)
			assert.Equal(t, wantCount, res.count, label)
			assert.True(t, res.contains, label)
			assert.Equal(t, wantNonAir, res.nonAir, label)
			assert.Equal(t, results[0].bits, res.bits, label)
			slices.Sort(res.palette)
			assert.Equal(t, wantPal, res.palette, label)
			assert.True(t, res.blocks == *want, "%s: blocks", label)
			assert.True(t, res.states == *want, "%s: States", label)
			assert.Equal(t, want[g<<8|g<<4|g], res.clone, label)
			if g%4 == 3 {
				assert.Contains(t, res.str, "raw", label)
				assert.Positive(t, res.mem, label)
			}
		}
		assert.NotNil(t, s.raw.packed.Load(), d.name)
	}
}

func TestRawSectionMemBytesAndString(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	cases := []struct {
		format rawFormat
		kind   string
		arrays int
	}{
		{fmtVanilla, "vanilla", VanillaIDBytes + NibbleBytes},
		{fmtVanillaAdd, "vanilla+add", VanillaIDBytes + 2*NibbleBytes},
		{fmtNEID, "neid", NEIDIDBytes + NEIDMetaBytes},
		{fmtNEIDNibble, "neid+nibble meta", NEIDIDBytes + NibbleBytes},
	}
	for _, tc := range cases {
		t.Run(tc.kind, func(t *testing.T) {
			b := rawGenEach(r, func(r *rand.Rand) (int, int) { return 1 + r.IntN(4095), 1 + r.IntN(15) })
			s, _ := rawBuild(t, tc.format, b, 0)
			require.True(t, s.IsRaw())
			str := s.String()
			assert.Contains(t, str, "raw")
			assert.True(t, strings.HasSuffix(str, " "+tc.kind+"}"), "String %q names the kind %q", str, tc.kind)

			m0 := s.MemBytes()
			assert.GreaterOrEqual(t, m0, tc.arrays, "MemBytes counts the wire arrays")
			s.NonAir() // caches the palette form
			p := s.raw.packed.Load()
			require.NotNil(t, p)
			m1 := s.MemBytes()
			assert.Greater(t, m1, m0, "MemBytes grows once the palette form is cached")
			assert.GreaterOrEqual(t, m1, tc.arrays+p.MemBytes())
			assert.Equal(t, m1, s.MemBytes(), "stable once cached")

			// A state already present: the palette form does not grow.
			s.Set(0, 0, 0, s.Get(1, 0, 0))
			require.False(t, s.IsRaw())
			assert.NotContains(t, s.String(), "raw")
			assert.Less(t, s.MemBytes(), tc.arrays+p.MemBytes(), "a materialized section drops the arrays")
		})
	}
}

// A metadata array left out (nil: every value 0) reads as zeros and is not
// counted in MemBytes: the section shares one array of zeros.
func TestRawSectionNilMetaIsSharedZeros(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	b := rawGenEach(r, func(r *rand.Rand) (int, int) { return 1 + r.IntN(255), 0 })
	vids, vmeta, _ := rawEncodeVanilla(b, false, false)
	nids, _ := rawEncodeNEID(b)
	cases := []struct {
		name      string
		nilMeta   *Section
		zeroArray *Section
	}{
		{"vanilla", NewVanillaSection(vids, nil, nil), NewVanillaSection(vids, vmeta, nil)},
		{"neid-nibble", NewNEIDNibbleSection(nids, nil), NewNEIDNibbleSection(nids, make([]byte, NibbleBytes))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.True(t, tc.nilMeta.IsRaw())
			assert.True(t, isZeroNibbles(tc.nilMeta.raw.meta))
			assert.False(t, isZeroNibbles(tc.zeroArray.raw.meta))
			assert.Equal(t, tc.zeroArray.MemBytes()-NibbleBytes, tc.nilMeta.MemBytes(), "the shared zeros are not the section's memory")
			checkContent(t, tc.nilMeta, b.states(), tc.name)
			// A write materializes the section and leaves the shared zeros alone.
			tc.nilMeta.Set(3, 4, 5, MakeState(7, 9))
			assert.False(t, tc.nilMeta.IsRaw())
			assert.Equal(t, MakeState(7, 9), tc.nilMeta.Get(3, 4, 5))
			assert.Equal(t, [NibbleBytes]byte{}, zeroNibbles)
		})
	}
}

// TestZeroBytesEveryByte sets each byte of arrays of the section sizes (and
// of sizes that are not a multiple of 8 or 64) and checks zeroBytes sees it.
func TestZeroBytesEveryByte(t *testing.T) {
	for _, n := range []int{0, 3, 8, 13, 64, 77, NibbleBytes, VanillaIDBytes, NEIDIDBytes} {
		b := make([]byte, n)
		if !zeroBytes(b) {
			t.Fatalf("n %d: all zero reported non-zero", n)
		}
		for i := range b {
			b[i] = 0x80
			if zeroBytes(b) {
				t.Fatalf("n %d: byte %d set, zeroBytes says all zero", n, i)
			}
			b[i] = 0
		}
	}
}
