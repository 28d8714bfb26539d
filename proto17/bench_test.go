package proto17

import (
	"bytes"
	stdzlib "compress/zlib"
	"io"
	"math/rand"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/zlib"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// benchColumn cuts column (cx, cz) out of the benchmark world.
func benchColumn(w *benchworld.World, cx, cz int) *chunk.Column {
	col := chunk.NewColumn(cx, cz)
	var st [chunk.SectionVolume]chunk.StateID
	for cy := 0; cy < chunk.ColumnSections; cy++ {
		any := false
		for y := 0; y < 16; y++ {
			for z := 0; z < 16; z++ {
				for x := 0; x < 16; x++ {
					v := chunk.LegacyState(w.W[benchworld.Index(cx*16+x, cy*16+y, cz*16+z)])
					st[chunk.SectionIndex(x, y, z)] = v
					any = any || v != chunk.AirState
				}
			}
		}
		if any {
			col.SetSection(cy, chunk.NewSection(&st))
		}
	}
	return col
}

// entropyColumn makes a column less compressible the way real GTNH terrain
// is: stone varieties (metadata 0..6), ores of a dozen kinds with random
// metadata, dirt and gravel pockets, small caves, and the surface layers of
// the benchmark column on top.
func entropyColumn(rng *rand.Rand, base *chunk.Column) *chunk.Column {
	col := chunk.NewColumn(base.Pos().X, base.Pos().Z)
	ores := []int{14, 15, 16, 21, 56, 73, 129, 153, 1, 13, 3, 82}
	var st [chunk.SectionVolume]chunk.StateID
	for cy := 0; cy < chunk.ColumnSections; cy++ {
		s := base.Section(cy)
		if s == nil {
			continue
		}
		s.States(&st)
		for i, v := range st {
			if v.ID() != benchworld.Stone && v.ID() != benchworld.CoalOre && v.ID() != benchworld.IronOre && v.ID() != benchworld.DiamondOre {
				continue
			}
			switch r := rng.Intn(100); {
			case r < 6:
				st[i] = chunk.AirState // caves
			case r < 22:
				st[i] = chunk.MakeState(ores[rng.Intn(len(ores))], rng.Intn(16))
			default:
				st[i] = chunk.MakeState(benchworld.Stone, rng.Intn(7))
			}
		}
		col.SetSection(cy, chunk.NewSection(&st))
	}
	return col
}

// benchSet is the 256 columns of the benchmark world encoded as Chunk Data
// packets.
type benchSet struct {
	cols       []*chunk.Column // the source columns, for tests
	packets    []*ChunkData
	raw        int // inflated bytes in all
	compressed int // zlib bytes in all
}

var (
	benchOnce sync.Once
	benchSets map[string]*benchSet
)

func benchData(_ testing.TB, name string) *benchSet {
	benchOnce.Do(func() {
		w := benchworld.Generate(1337)
		rng := rand.New(rand.NewSource(1))
		var terrain, entropy []*chunk.Column
		for cz := 0; cz < benchworld.SZ/16; cz++ {
			for cx := 0; cx < benchworld.SX/16; cx++ {
				c := benchColumn(w, cx, cz)
				terrain = append(terrain, c)
				entropy = append(entropy, entropyColumn(rng, c))
			}
		}
		benchSets = map[string]*benchSet{}
		for _, f := range []Formats{vanilla, neid} {
			enc := NewChunkEncoder(f)
			for wname, cols := range map[string][]*chunk.Column{"terrain": terrain, "entropy": entropy} {
				set := &benchSet{cols: cols}
				for _, c := range cols {
					p, err := enc.ChunkData(c, ColumnOptions{GroundUp: true, SkyLight: true})
					if err != nil {
						panic(err)
					}
					set.packets = append(set.packets, p)
					set.compressed += len(p.Data)
					set.raw += columnLayout(f, p.PrimaryMask, p.AddMask, true, true).size
				}
				benchSets[formatName(f)+"/"+wname] = set
			}
		}
	})
	return benchSets[name]
}

func formatName(f Formats) string {
	if f.NEID {
		return "neid"
	}
	return "vanilla"
}

// BenchmarkChunkDecode decodes the 256 columns of the benchmark world, as
// Chunk Data payloads, in both formats and for the plain terrain and a
// higher-entropy variant. Stages:
//
//	inflate   zlib only, into a reused buffer: the floor any decoder pays
//	decode    ChunkDecoder.ChunkData: inflate + parse into chunk.Column, as
//	          the client does; reports allocs/column, alloc-B/column and
//	          mem-B/column (chunk.Column.MemBytes of the decoded columns)
//	overhead  inflate-only into a reused buffer, inflate-only into new
//	          memory of the column's size, inflate-only into new memory of
//	          the sizes the decoder keeps (inflateKept), and decode, of every
//	          packet back to back in a rotating order, each timed on its own
//	          so machine drift cancels: inflate-ms, inflate-fresh-ms,
//	          inflate-kept-ms and decode-ms per 256 columns; parse-% is the
//	          decode time on top of inflate into the reused (cache-hot)
//	          buffer, parse-fresh-% on top of inflate into new memory of the
//	          column's size, parse-kept-% on top of inflate into the memory
//	          the decoder keeps — the parse alone, since both write the same
//	          new memory; the -p50-% figures are the medians of the same
//	          figures taken a column at a time, which the other load of a
//	          busy machine moves much less
//	compact   decode, then the palette form of every raw section, the work
//	          State.CompactChunks defers: compact-ms per 256 columns,
//	          compact-us/section and mem-B/column once compacted
func BenchmarkChunkDecode(b *testing.B) {
	for _, f := range []Formats{vanilla, neid} {
		for _, wname := range []string{"terrain", "entropy"} {
			name := formatName(f) + "/" + wname
			for _, stage := range []string{"inflate", "decode", "overhead", "compact"} {
				b.Run(name+"/"+stage, func(b *testing.B) {
					benchDecodeStage(b, f, benchData(b, name), stage)
				})
			}
		}
	}
}

// inflateOnly inflates a Chunk Data payload into buf, as ChunkData would
// without keeping anything.
func (d *ChunkDecoder) inflateOnly(p *ChunkData, buf []byte) error {
	l := columnLayout(d.Formats, p.PrimaryMask, p.AddMask, true, p.GroundUp)
	if err := d.open(p.PacketName(), p.Data, l.size); err != nil {
		return err
	}
	if err := d.read(buf[:l.size]); err != nil {
		return err
	}
	return d.close()
}

// inflateKept inflates a Chunk Data payload as ChunkData does, into memory
// of the sizes the decoder keeps, without looking at a byte: the block ids
// and add arrays into one new allocation, keptMeta bytes of the metadata
// copied into a second (the metadata bytes the decoder kept of this
// packet), everything else into buf. Decode over this is the parse alone:
// what the decoder adds to inflating into the memory it must keep.
func (d *ChunkDecoder) inflateKept(p *ChunkData, buf []byte, keptMeta int) error {
	l := columnLayout(d.Formats, p.PrimaryMask, p.AddMask, true, p.GroundUp)
	if err := d.open(p.PacketName(), p.Data, l.size); err != nil {
		return err
	}
	nIDs := l.n * l.idBytes
	blocks := make([]byte, nIDs+l.nAdd*nibbleBytes)
	if err := d.read(blocks[:nIDs]); err != nil {
		return err
	}
	meta := buf[:l.n*l.metaBytes]
	if err := d.read(meta); err != nil {
		return err
	}
	if keptMeta > 0 {
		copy(make([]byte, keptMeta), meta)
	}
	if err := d.read(buf[:l.add-l.light]); err != nil {
		return err
	}
	if err := d.read(blocks[nIDs:]); err != nil {
		return err
	}
	if err := d.read(buf[:l.size-l.bio]); err != nil {
		return err
	}
	return d.close()
}

func benchDecodeStage(b *testing.B, f Formats, set *benchSet, stage string) {
	d := NewChunkDecoder(f)
	buf := make([]byte, columnLayout(f, 0xFFFF, 0xFFFF, true, true).size)
	decode := func(p *ChunkData) *chunk.Column {
		c, err := d.ChunkData(p, true)
		if err != nil {
			b.Fatal(err)
		}
		return c.Column
	}
	inflate := func(p *ChunkData) {
		if err := d.inflateOnly(p, buf); err != nil {
			b.Fatal(err)
		}
	}
	// inflateFresh inflates into new memory of the column's size, as any
	// decoder that keeps the blocks must write them somewhere new.
	inflateFresh := func(p *ChunkData) {
		l := columnLayout(f, p.PrimaryMask, p.AddMask, true, p.GroundUp)
		if err := d.inflateOnly(p, make([]byte, l.size)); err != nil {
			b.Fatal(err)
		}
	}
	// Warm up: one pass sizes the heap, so the timed passes see a running
	// client's steady state rather than the page faults of a growing heap.
	// It also notes the metadata bytes the decoder keeps of each packet.
	keptMeta := make(map[*ChunkData]int, len(set.packets))
	for _, p := range set.packets {
		inflate(p)
		decode(p)
		keptMeta[p] = d.keptMeta
	}
	inflateKept := func(p *ChunkData) {
		if err := d.inflateKept(p, buf, keptMeta[p]); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(set.raw))
	b.ReportAllocs()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mallocs, allocB := ms.Mallocs, ms.TotalAlloc
	var tInflate, tFresh, tKept, tDecode, tCompact time.Duration
	var ratios, freshRatios, keptRatios []float64 // overhead: decode over inflate, a column at a time
	memBytes, packedBytes, sections := 0, 0, 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, p := range set.packets {
			switch stage {
			case "inflate":
				inflate(p)
			case "decode":
				col := decode(p)
				if i == 0 {
					memBytes += col.MemBytes()
				}
			case "overhead":
				// The four in a rotating order, each timed on its own.
				fns := [4]func(p *ChunkData){inflate, inflateFresh, inflateKept, func(p *ChunkData) { decode(p) }}
				ts := [4]*time.Duration{&tInflate, &tFresh, &tKept, &tDecode}
				var dt [4]time.Duration
				for k := range 4 {
					m := (i + j + k) % 4
					t0 := time.Now()
					fns[m](p)
					dt[m] = time.Since(t0)
					*ts[m] += dt[m]
				}
				ratios = append(ratios, float64(dt[3])/float64(dt[0]))
				freshRatios = append(freshRatios, float64(dt[3])/float64(dt[1]))
				keptRatios = append(keptRatios, float64(dt[3])/float64(dt[2]))
			case "compact":
				col := decode(p)
				t0 := time.Now()
				for cy := 0; cy < chunk.ColumnSections; cy++ {
					if s := col.Section(cy); s != nil && s.IsRaw() {
						s.NonAir() // builds and caches the palette form
						if i == 0 {
							sections++
						}
					}
				}
				tCompact += time.Since(t0)
				if i == 0 {
					packedBytes += compactedMem(col)
				}
			}
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms)
	cols := float64(b.N * len(set.packets))
	perN := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	switch stage {
	case "inflate":
		b.ReportMetric(cols/b.Elapsed().Seconds(), "chunks/s")
		b.ReportMetric(float64(ms.Mallocs-mallocs)/cols, "allocs/column")
		b.ReportMetric(float64(set.raw)/float64(set.compressed), "zlib-ratio")
	case "decode":
		b.ReportMetric(cols/b.Elapsed().Seconds(), "chunks/s")
		b.ReportMetric(float64(ms.Mallocs-mallocs)/cols, "allocs/column")
		b.ReportMetric(float64(ms.TotalAlloc-allocB)/cols, "alloc-B/column")
		b.ReportMetric(float64(memBytes)/float64(len(set.packets)), "mem-B/column")
	case "overhead":
		b.ReportMetric(perN(tInflate), "inflate-ms")
		b.ReportMetric(perN(tDecode), "decode-ms")
		b.ReportMetric(100*float64(tDecode-tInflate)/float64(tInflate), "parse-%")
		b.ReportMetric(perN(tFresh), "inflate-fresh-ms")
		b.ReportMetric(100*float64(tDecode-tFresh)/float64(tFresh), "parse-fresh-%")
		med := func(v []float64) float64 { slices.Sort(v); return v[len(v)/2] }
		b.ReportMetric(100*(med(ratios)-1), "parse-p50-%")
		b.ReportMetric(100*(med(freshRatios)-1), "parse-fresh-p50-%")
		b.ReportMetric(perN(tKept), "inflate-kept-ms")
		b.ReportMetric(100*float64(tDecode-tKept)/float64(tKept), "parse-kept-%")
		b.ReportMetric(100*(med(keptRatios)-1), "parse-kept-p50-%")
	case "compact":
		b.ReportMetric(perN(tCompact), "compact-ms")
		if sections > 0 {
			b.ReportMetric(float64(tCompact.Nanoseconds())/1000/float64(b.N*sections), "compact-us/section")
		}
		b.ReportMetric(float64(packedBytes)/float64(len(set.packets)), "mem-B/column")
	}
}

// compactedMem is the memory a column keeps once ChunkStore.Compact swapped
// every raw section for its palette form.
func compactedMem(col *chunk.Column) int {
	store := chunk.NewChunkStore(chunk.NewResolver(rules.Default().IDs, rules.Default().Tags))
	store.LoadColumn(col)
	store.Compact(chunk.ColumnSections)
	return store.View().Column(col.Pos().X, col.Pos().Z).MemBytes()
}

// BenchmarkViewMemory reports the resident memory of a 21×21-column view
// (the client's default view distance) decoded from Chunk Data payloads of
// the benchmark world (tiled): as decoded, with sections reading the wire
// arrays (raw-MiB), and after the store packed every section (packed-MiB),
// with the per-column figures.
func BenchmarkViewMemory(b *testing.B) {
	const side = 21
	for _, f := range []Formats{vanilla, neid} {
		for _, wname := range []string{"terrain", "entropy"} {
			name := formatName(f) + "/" + wname
			b.Run(name, func(b *testing.B) {
				set := benchData(b, name)
				var raw, packed uint64
				heap := func() uint64 {
					var ms runtime.MemStats
					runtime.GC()
					runtime.ReadMemStats(&ms)
					return ms.HeapAlloc
				}
				for b.Loop() {
					base := heap()
					store := chunk.NewChunkStore(chunk.NewResolver(rules.Default().IDs, rules.Default().Tags))
					d := NewChunkDecoder(f)
					for cz := 0; cz < side; cz++ {
						for cx := 0; cx < side; cx++ {
							p := *set.packets[(cz%16)*16+cx%16]
							p.X, p.Z = int32(cx), int32(cz)
							c, err := d.ChunkData(&p, true)
							if err != nil {
								b.Fatal(err)
							}
							store.LoadColumn(c.Column)
						}
					}
					d = nil
					raw = heap() - base
					store.Compact(side * side * chunk.ColumnSections)
					packed = heap() - base
					runtime.KeepAlive(store)
				}
				cols := float64(side * side)
				b.ReportMetric(float64(raw)/(1<<20), "raw-MiB")
				b.ReportMetric(float64(raw)/cols, "raw-B/column")
				b.ReportMetric(float64(packed)/(1<<20), "packed-MiB")
				b.ReportMetric(float64(packed)/cols, "packed-B/column")
			})
		}
	}
}

// BenchmarkInflaterChoice is why the decoder inflates with
// klauspost/compress/zlib rather than the standard library's compress/zlib:
// each iteration inflates the 256 packets with both, in alternating order,
// and the per-iteration ratio cancels the drift of a shared machine.
// Reports std-ms and klauspost-ms (medians) and klauspost/std (median of
// the per-iteration ratios; below 1 means klauspost is faster).
func BenchmarkInflaterChoice(b *testing.B) {
	for _, name := range []string{"vanilla/terrain", "vanilla/entropy", "neid/terrain", "neid/entropy"} {
		b.Run(name, func(b *testing.B) {
			set := benchData(b, name)
			buf := make([]byte, 64<<10)
			var src bytes.Reader
			var std, kp io.ReadCloser
			inflateAll := func(zr *io.ReadCloser, open func(io.Reader) (io.ReadCloser, error)) time.Duration {
				t0 := time.Now()
				for _, p := range set.packets {
					src.Reset(p.Data)
					var err error
					if *zr == nil {
						*zr, err = open(&src)
					} else {
						err = (*zr).(stdzlib.Resetter).Reset(&src, nil)
					}
					if err == nil {
						_, err = io.CopyBuffer(io.Discard, *zr, buf)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				return time.Since(t0)
			}
			openStd := func(r io.Reader) (io.ReadCloser, error) { return stdzlib.NewReader(r) }
			openKP := func(r io.Reader) (io.ReadCloser, error) { return zlib.NewReader(r) }
			var ratios, ts, tk []float64
			i := 0
			for b.Loop() {
				var s, k time.Duration
				if i%2 == 0 {
					s, k = inflateAll(&std, openStd), inflateAll(&kp, openKP)
				} else {
					k, s = inflateAll(&kp, openKP), inflateAll(&std, openStd)
				}
				ts = append(ts, float64(s)/1e6)
				tk = append(tk, float64(k)/1e6)
				ratios = append(ratios, float64(k)/float64(s))
				i++
			}
			med := func(v []float64) float64 { slices.Sort(v); return v[len(v)/2] }
			b.ReportMetric(med(ts), "std-ms")
			b.ReportMetric(med(tk), "klauspost-ms")
			b.ReportMetric(med(ratios), "klauspost/std")
		})
	}
}
