package proto17

import (
	"math/rand"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// benchColumn cuts column (cx, cz) out of the benchmark world.
func benchColumn(w *benchworld.World, cx, cz int) *world.Column {
	col := world.NewColumn(cx, cz)
	var st [world.SectionVolume]world.StateID
	for cy := 0; cy < world.ColumnSections; cy++ {
		any := false
		for y := 0; y < 16; y++ {
			for z := 0; z < 16; z++ {
				for x := 0; x < 16; x++ {
					v := world.LegacyState(w.W[benchworld.Index(cx*16+x, cy*16+y, cz*16+z)])
					st[world.SectionIndex(x, y, z)] = v
					any = any || v != world.AirState
				}
			}
		}
		if any {
			col.SetSection(cy, world.NewSection(&st))
		}
	}
	return col
}

// entropyColumn makes a column less compressible the way real GTNH terrain
// is: stone varieties (metadata 0..6), ores of a dozen kinds with random
// metadata, dirt and gravel pockets, small caves, and the surface layers of
// the benchmark column on top.
func entropyColumn(rng *rand.Rand, base *world.Column) *world.Column {
	col := world.NewColumn(base.Pos().X, base.Pos().Z)
	ores := []int{14, 15, 16, 21, 56, 73, 129, 153, 1, 13, 3, 82}
	var st [world.SectionVolume]world.StateID
	for cy := 0; cy < world.ColumnSections; cy++ {
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
				st[i] = world.AirState // caves
			case r < 22:
				st[i] = world.MakeState(ores[rng.Intn(len(ores))], rng.Intn(16))
			default:
				st[i] = world.MakeState(benchworld.Stone, rng.Intn(7))
			}
		}
		col.SetSection(cy, world.NewSection(&st))
	}
	return col
}

// benchSet is the 256 columns of the benchmark world encoded as Chunk Data
// packets.
type benchSet struct {
	packets    []*ChunkData
	raw        int // inflated bytes in all
	compressed int // zlib bytes in all
}

var (
	benchOnce sync.Once
	benchSets map[string]*benchSet
)

func benchData(b *testing.B, name string) *benchSet {
	benchOnce.Do(func() {
		w := benchworld.Generate(1337)
		rng := rand.New(rand.NewSource(1))
		var terrain, entropy []*world.Column
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
			for wname, cols := range map[string][]*world.Column{"terrain": terrain, "entropy": entropy} {
				set := &benchSet{}
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
//	inflate  zlib only, into the decoder's reused buffer
//	fill     inflate, then the byte→state conversion of every section into
//	         the decoder's reused [4096]StateID (the wire parse, without
//	         building world sections)
//	full     inflate + parse into world.Section (world.NewSection) and
//	         world.Column, as ChunkDecoder.ChunkData does
//
// fill and full also report the split, timed per column inside the same
// loop so machine drift cancels: inflate-ms and parse-ms per 256 columns
// and parse-% (parse time over inflate time). full reports mem-B/column,
// world.Column.MemBytes of the decoded columns.
func BenchmarkChunkDecode(b *testing.B) {
	for _, f := range []Formats{vanilla, neid} {
		for _, wname := range []string{"terrain", "entropy"} {
			name := formatName(f) + "/" + wname
			for _, stage := range []string{"inflate", "fill", "full"} {
				b.Run(name+"/"+stage, func(b *testing.B) {
					set := benchData(b, name)
					d := NewChunkDecoder(f)
					b.SetBytes(int64(set.raw))
					b.ReportAllocs()
					var ms runtime.MemStats
					runtime.ReadMemStats(&ms)
					mallocs := ms.Mallocs
					var tInflate, tParse time.Duration
					memBytes := 0
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						for _, p := range set.packets {
							l := columnLayout(f, p.PrimaryMask, p.AddMask, true, true)
							if stage == "inflate" {
								if _, err := d.inflate("ChunkData", p.Data, l.size); err != nil {
									b.Fatal(err)
								}
								continue
							}
							t0 := time.Now()
							buf, err := d.inflate("ChunkData", p.Data, l.size)
							if err != nil {
								b.Fatal(err)
							}
							t1 := time.Now()
							if stage == "fill" {
								d.fillColumn(buf, l, p.PrimaryMask, p.AddMask)
							} else {
								col := d.parseColumn(buf, l, int(p.X), int(p.Z), p.PrimaryMask, p.AddMask)
								if i == 0 {
									memBytes += col.MemBytes()
								}
							}
							t2 := time.Now()
							tInflate += t1.Sub(t0)
							tParse += t2.Sub(t1)
						}
					}
					b.StopTimer()
					runtime.ReadMemStats(&ms)
					cols := float64(b.N * len(set.packets))
					b.ReportMetric(cols/b.Elapsed().Seconds(), "chunks/s")
					b.ReportMetric(float64(ms.Mallocs-mallocs)/cols, "allocs/column")
					if stage == "inflate" {
						b.ReportMetric(float64(set.raw)/float64(set.compressed), "zlib-ratio")
					} else {
						b.ReportMetric(float64(tInflate.Microseconds())/1000/float64(b.N), "inflate-ms")
						b.ReportMetric(float64(tParse.Microseconds())/1000/float64(b.N), "parse-ms")
						b.ReportMetric(100*float64(tParse)/float64(tInflate), "parse-%")
					}
					if stage == "full" {
						// The world model's estimate of what a decoded column
						// keeps; ×441 is a 21×21-column view.
						b.ReportMetric(float64(memBytes)/float64(len(set.packets)), "mem-B/column")
					}
				})
			}
		}
	}
}

// fillColumn runs the byte→state conversion of every section of a column
// without building world sections (benchmark only).
func (d *ChunkDecoder) fillColumn(buf []byte, l layout, mask, addMask uint16) {
	k, a := 0, 0
	for cy := 0; cy < world.ColumnSections; cy++ {
		if mask&(1<<cy) == 0 {
			continue
		}
		ids := buf[l.ids+k*l.idBytes : l.ids+(k+1)*l.idBytes]
		meta := buf[l.meta+k*l.metaBytes : l.meta+(k+1)*l.metaBytes]
		if d.Formats.NEID {
			fillNEID(&d.states, ids, meta)
		} else {
			var add []byte
			if addMask&(1<<cy) != 0 {
				add = buf[l.add+a*nibbleBytes : l.add+(a+1)*nibbleBytes]
				a++
			}
			fillVanilla(&d.states, ids, meta, add)
		}
		k++
	}
}
