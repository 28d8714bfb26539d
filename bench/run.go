package bench

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// Config says how much to measure.
type Config struct {
	// Reps is the number of timed repetitions of each case on each side.
	Reps int
	// Short skips the slowest JavaScript route (P4) and the warm-up runs:
	// the version CI runs so the command cannot rot.
	Short bool
	// JSDir is bench/js with its node_modules installed.
	JSDir string
	// PathTimeout bounds one mineflayer-pathfinder search.
	PathTimeout time.Duration
	// Progress, when set, receives a line per finished case.
	Progress io.Writer
}

// Sample is the repeated measurements of one quantity.
type Sample []float64

// Median of the sample (the mean of the middle two for an even count).
func (s Sample) Median() float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	c := slices.Clone(s)
	slices.Sort(c)
	if len(c)%2 == 1 {
		return c[len(c)/2]
	}
	return (c[len(c)/2-1] + c[len(c)/2]) / 2
}

// Range is the smallest and largest measurement.
func (s Sample) Range() (lo, hi float64) {
	if len(s) == 0 {
		return math.NaN(), math.NaN()
	}
	return slices.Min(s), slices.Max(s)
}

// PathSide is one side's answer to a path case.
type PathSide struct {
	Status     string // "success", "timeout", …
	Expanded   int
	Ticks      float64 // cost in this project's model
	Detours    int     // steps TickCost had to go round
	MFUnits    float64 // cost in mineflayer-pathfinder's units
	Path       []world.BlockPos
	Walk       Walk
	Ms         Sample
	ReportedMF float64 // the JavaScript side's own cost figure
}

// PathResult is one path case on both sides.
type PathResult struct {
	Case     PathCase
	From, To world.BlockPos
	Go, JS   PathSide
}

// NearestSide is one side's answer to a nearest case.
type NearestSide struct {
	Hits  []world.BlockPos
	Exact bool
	Why   string
	Ms    Sample
}

// NearestResult is one nearest case on both sides.
type NearestResult struct {
	Case   NearestCase
	Go, JS NearestSide
}

// DecodeResult is the chunk decode of the 256 columns on both sides, in
// milliseconds per pass over all of them.
type DecodeResult struct {
	RawBytes, ZlibBytes                  int
	GoInflate, GoDecode                  Sample
	JSInflate, JSDecode                  Sample
	Prismarine, PrismarineInflate        Sample
	GoMemRaw, GoMemPacked, JSMem, JSCols int
}

// Report is everything one run measured.
type Report struct {
	Reps       int
	Short      bool
	Node       string
	Go         string
	WorldHash  string
	Paths      []PathResult
	Nearest    []NearestResult
	Decode     DecodeResult
	Started    time.Time
	Took       time.Duration
	Env        string
	JSVersions map[string]string
}

func (c Config) progress(format string, args ...any) {
	if c.Progress != nil {
		fmt.Fprintf(c.Progress, format+"\n", args...)
	}
}

// chunkGrid is the pathfinder's view of the decoded chunk store, as the
// live client builds it: block states classified once per state.
func chunkGrid(chunks *chunk.Chunks) path.Grid {
	cache := map[chunk.StateID]path.Cell{}
	return path.GridFunc(func(x, y, z int) path.Cell {
		if y < 0 {
			return path.Unknown
		}
		if y > 255 {
			return path.Passable
		}
		if uint(x) >= benchworld.SX || uint(z) >= benchworld.SZ {
			return path.Unknown
		}
		st := chunks.StateAt(x, y, z)
		if c, ok := cache[st]; ok {
			return c
		}
		c := path.LegacyStateCell(st.ID(), st.Meta())
		cache[st] = c
		return c
	})
}

// Run measures every case on both sides.
func Run(cfg Config) (*Report, error) {
	if cfg.Reps < 1 {
		cfg.Reps = 1
	}
	if cfg.PathTimeout <= 0 {
		cfg.PathTimeout = 120 * time.Second
	}
	rep := &Report{Reps: cfg.Reps, Short: cfg.Short, Go: runtime.Version(), Started: time.Now()}
	w := benchworld.Generate(1337)
	rep.WorldHash = w.Hash()
	packets, err := Packets(Columns(w))
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "gtnh-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "columns.gbw")
	if err := WritePacketFile(file, packets); err != nil {
		return nil, err
	}

	js, err := StartWorker(cfg.JSDir)
	if err != nil {
		return nil, err
	}
	defer js.Close()
	rep.Node = js.Node
	var loaded struct {
		SHA256  string  `json:"sha256"`
		Columns int     `json:"columns"`
		Ms      float64 `json:"ms"`
	}
	if err := js.Call(map[string]any{"op": "load", "file": file}, &loaded); err != nil {
		return nil, err
	}
	if loaded.SHA256 != rep.WorldHash {
		return nil, fmt.Errorf("the JavaScript side decoded a different world: sha256 %s, want %s", loaded.SHA256, rep.WorldHash)
	}
	cfg.progress("world: %d columns, identical on both sides (sha256 %.12s…); JavaScript load %.0f ms", loaded.Columns, loaded.SHA256, loaded.Ms)

	store := chunk.NewChunkStore(chunk.NewResolver(rules.Default().IDs, rules.Default().Tags))
	if err := Decode(proto17.NewChunkDecoder(proto17.Formats{}), packets, store); err != nil {
		return nil, err
	}
	chunks := store.View()

	if err := runPaths(cfg, rep, w, chunks, js); err != nil {
		return nil, err
	}
	if err := runNearest(cfg, rep, w, chunks, js); err != nil {
		return nil, err
	}
	if err := runDecode(cfg, rep, packets, js); err != nil {
		return nil, err
	}
	rep.Took = time.Since(rep.Started)
	return rep, nil
}

// alternate runs a and b reps times, a first on even repetitions and b
// first on odd ones, so drift in the machine's speed hits both alike.
func alternate(reps int, a, b func() error) error {
	for i := 0; i < reps; i++ {
		first, second := a, b
		if i%2 == 1 {
			first, second = b, a
		}
		if err := first(); err != nil {
			return err
		}
		if err := second(); err != nil {
			return err
		}
	}
	return nil
}

type jsPath struct {
	Status   string   `json:"status"`
	Expanded int      `json:"expanded"`
	Cost     float64  `json:"cost"`
	Ms       float64  `json:"ms"`
	Path     [][3]int `json:"path"`
}

func runPaths(cfg Config, rep *Report, w *benchworld.World, chunks *chunk.Chunks, js *Worker) error {
	g := chunkGrid(chunks)
	f := path.NewFinder()
	for _, c := range PathCases {
		from, to := c.Ends(w)
		r := PathResult{Case: c, From: from, To: to}
		skipJS := cfg.Short && c.Name != PathCases[0].Name
		goRun := func() error {
			t0 := time.Now()
			res, err := f.Find(g, from, path.At(to), path.Options{})
			el := time.Since(t0)
			if err != nil {
				return fmt.Errorf("%s: %w", c.Name, err)
			}
			r.Go.Ms = append(r.Go.Ms, ms(el))
			r.Go.Status, r.Go.Expanded, r.Go.Ticks = "success", res.Expanded, res.Cost
			if !res.Complete {
				r.Go.Status = string(res.Reason)
			}
			r.Go.Path = r.Go.Path[:0]
			for _, s := range res.Steps {
				r.Go.Path = append(r.Go.Path, s.Pos)
			}
			return nil
		}
		var last jsPath
		jsRun := func() error {
			if skipJS {
				return nil
			}
			req := map[string]any{"op": "path", "from": xyz(from), "to": xyz(to), "timeout": cfg.PathTimeout.Milliseconds()}
			if err := js.Call(req, &last); err != nil {
				return fmt.Errorf("%s: %w", c.Name, err)
			}
			r.JS.Ms = append(r.JS.Ms, last.Ms)
			return nil
		}
		if !cfg.Short {
			if err := goRun(); err != nil {
				return err
			}
			if err := jsRun(); err != nil {
				return err
			}
			r.Go.Ms, r.JS.Ms = nil, nil
		}
		if err := alternate(cfg.Reps, goRun, jsRun); err != nil {
			return err
		}
		r.Go.Walk = CheckWalk(w, r.Go.Path)
		r.Go.MFUnits = MineflayerCost(w, r.Go.Path)
		if !skipJS {
			r.JS.Status, r.JS.Expanded, r.JS.ReportedMF = last.Status, last.Expanded, last.Cost
			for _, p := range last.Path {
				r.JS.Path = append(r.JS.Path, world.Pos(p[0], p[1], p[2]))
			}
			r.JS.Walk = CheckWalk(w, r.JS.Path)
			r.JS.MFUnits = MineflayerCost(w, r.JS.Path)
			if last.Status == "success" && math.Abs(r.JS.MFUnits-last.Cost) > 1e-6 {
				return fmt.Errorf("%s: mineflayer-pathfinder reports cost %.4f for its path, MineflayerCost gives %.4f: the cost model is out of date", c.Name, last.Cost, r.JS.MFUnits)
			}
			var ok bool
			r.JS.Ticks, r.JS.Detours, ok = TickCost(g, r.JS.Path)
			if !ok {
				r.JS.Ticks = math.NaN()
			}
		}
		rep.Paths = append(rep.Paths, r)
		if skipJS {
			cfg.progress("%s: ours %d nodes %.2f ms; mineflayer-pathfinder not run (short mode)", c.Name, r.Go.Expanded, r.Go.Ms.Median())
		} else {
			cfg.progress("%s: ours %d nodes %.2f ms; mineflayer-pathfinder %d nodes %.1f ms (%s)", c.Name, r.Go.Expanded, r.Go.Ms.Median(), r.JS.Expanded, r.JS.Ms.Median(), r.JS.Status)
		}
	}
	return nil
}

func xyz(p world.BlockPos) [3]int { return [3]int{p.X, p.Y, p.Z} }

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

func runNearest(cfg Config, rep *Report, w *benchworld.World, chunks *chunk.Chunks, js *Worker) error {
	for _, c := range NearestCases() {
		r := NearestResult{Case: c}
		name := "minecraft:" + c.Block
		match := func(b world.Block) bool { return b.ID == name }
		want := BruteNearest(w, NearestCenter, c.Radius, c.K, c.ID)
		goRun := func() error {
			// One call takes microseconds: time enough calls to fill a
			// millisecond and take the mean.
			var hits []world.BlockHit
			n := 0
			t0 := time.Now()
			for n == 0 || time.Since(t0) < time.Millisecond {
				hits = chunks.Nearest(NearestCenter, c.Radius, c.K, match)
				n++
			}
			r.Go.Ms = append(r.Go.Ms, ms(time.Since(t0))/float64(n))
			r.Go.Hits = r.Go.Hits[:0]
			for _, h := range hits {
				r.Go.Hits = append(r.Go.Hits, h.Pos)
			}
			return nil
		}
		jsRun := func() error {
			var out struct {
				Ms   float64  `json:"ms"`
				Hits [][3]int `json:"hits"`
			}
			req := map[string]any{"op": "nearest", "block": c.Block, "center": xyz(NearestCenter), "radius": c.Radius, "count": c.K}
			if err := js.Call(req, &out); err != nil {
				return fmt.Errorf("%s: %w", c.Name(), err)
			}
			r.JS.Ms = append(r.JS.Ms, out.Ms)
			r.JS.Hits = r.JS.Hits[:0]
			for _, p := range out.Hits {
				r.JS.Hits = append(r.JS.Hits, world.Pos(p[0], p[1], p[2]))
			}
			return nil
		}
		if !cfg.Short {
			if err := alternate(1, goRun, jsRun); err != nil {
				return err
			}
			r.Go.Ms, r.JS.Ms = nil, nil
		}
		if err := alternate(cfg.Reps, goRun, jsRun); err != nil {
			return err
		}
		r.Go.Exact, r.Go.Why = SameNearest(w, NearestCenter, c.Radius, c.ID, want, r.Go.Hits)
		r.JS.Exact, r.JS.Why = SameNearest(w, NearestCenter, c.Radius, c.ID, want, r.JS.Hits)
		rep.Nearest = append(rep.Nearest, r)
	}
	cfg.progress("nearest: %d cases", len(rep.Nearest))
	return nil
}

func runDecode(cfg Config, rep *Report, packets []*proto17.ChunkData, js *Worker) error {
	d := &rep.Decode
	for _, p := range packets {
		d.ZlibBytes += len(p.Data)
	}
	dec := proto17.NewChunkDecoder(proto17.Formats{})
	var inf Inflater
	goRun := func() error {
		t0 := time.Now()
		raw := 0
		for _, p := range packets {
			n, err := inf.Inflate(p.Data)
			if err != nil {
				return fmt.Errorf("inflating column %d,%d: %w", p.X, p.Z, err)
			}
			raw += n
		}
		t1 := time.Now()
		if err := Decode(dec, packets, nil); err != nil {
			return err
		}
		d.GoInflate = append(d.GoInflate, ms(t1.Sub(t0)))
		d.GoDecode = append(d.GoDecode, ms(time.Since(t1)))
		d.RawBytes = raw
		return nil
	}
	jsRun := func() error {
		var out struct {
			InflateMs, DecodeMs, PrismarineMs, PrismarineInflateMs float64
		}
		if err := js.Call(map[string]any{"op": "decode"}, &out); err != nil {
			return err
		}
		d.JSInflate = append(d.JSInflate, out.InflateMs)
		d.JSDecode = append(d.JSDecode, out.DecodeMs)
		d.Prismarine = append(d.Prismarine, out.PrismarineMs)
		d.PrismarineInflate = append(d.PrismarineInflate, out.PrismarineInflateMs)
		return nil
	}
	if err := alternate(1, goRun, jsRun); err != nil { // warm-up
		return err
	}
	*d = DecodeResult{ZlibBytes: d.ZlibBytes, RawBytes: d.RawBytes}
	if err := alternate(max(cfg.Reps, 3), goRun, jsRun); err != nil {
		return err
	}
	cfg.progress("decode: ours %.1f ms, Node %.1f ms", d.GoDecode.Median(), d.JSDecode.Median())

	// Memory: the 256 columns as the client keeps them, decoded and after
	// packing, against prismarine-chunk's columns.
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	base := heap()
	store := chunk.NewChunkStore(chunk.NewResolver(rules.Default().IDs, rules.Default().Tags))
	if err := Decode(proto17.NewChunkDecoder(proto17.Formats{}), packets, store); err != nil {
		return err
	}
	d.GoMemRaw = int(heap() - base)
	store.Compact(len(packets) * chunk.ColumnSections)
	d.GoMemPacked = int(heap() - base)
	runtime.KeepAlive(store)
	var mem struct {
		Bytes   int `json:"bytes"`
		Columns int `json:"columns"`
	}
	if err := js.Call(map[string]any{"op": "memory"}, &mem); err != nil {
		return err
	}
	d.JSMem, d.JSCols = mem.Bytes, mem.Columns
	return nil
}
