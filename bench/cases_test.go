package bench

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

var (
	fixOnce    sync.Once
	fixWorld   *benchworld.World
	fixPackets []*proto17.ChunkData
	fixChunks  *chunk.Chunks
)

// fixture is the benchmark world, its packets and the chunk store decoded
// from them, as Run builds them.
func fixture(t testing.TB) (*benchworld.World, []*proto17.ChunkData, *chunk.Chunks) {
	fixOnce.Do(func() {
		fixWorld = benchworld.Generate(1337)
		var err error
		fixPackets, err = Packets(Columns(fixWorld))
		if err != nil {
			panic(err)
		}
		store := chunk.NewChunkStore(chunk.NewResolver(rules.Default().IDs, rules.Default().Tags))
		if err := Decode(proto17.NewChunkDecoder(proto17.Formats{}), fixPackets, store); err != nil {
			panic(err)
		}
		fixChunks = store.View()
	})
	require.NotNil(t, fixChunks)
	return fixWorld, fixPackets, fixChunks
}

// TestOurPathsWalk runs the pathfinder on every route over the decoded
// chunk store, as the comparison does, and checks each path with the
// independent walking rules: complete, no corner cut, nothing invalid, and
// its cost in ticks what TickCost adds up step by step.
func TestOurPathsWalk(t *testing.T) {
	w, _, chunks := fixture(t)
	g := chunkGrid(chunks)
	for _, c := range PathCases {
		t.Run(c.Name, func(t *testing.T) {
			from, to := c.Ends(w)
			res, err := path.Find(g, from, path.At(to), path.Options{})
			require.NoError(t, err)
			require.True(t, res.Complete, res.Reason)
			var steps []world.BlockPos
			for _, s := range res.Steps {
				steps = append(steps, s.Pos)
			}
			walk := CheckWalk(w, steps)
			assert.Empty(t, walk.Invalid)
			assert.Zero(t, walk.CornerCuts)
			assert.Zero(t, walk.FallDamage)
			ticks, detours, ok := TickCost(g, steps)
			require.True(t, ok)
			assert.Zero(t, detours)
			assert.InDelta(t, res.Cost, ticks, 1e-6)
		})
	}
}

// TestOurNearestIsExact checks every nearest-block case of the comparison
// against the brute-force scan.
func TestOurNearestIsExact(t *testing.T) {
	w, _, chunks := fixture(t)
	for _, c := range NearestCases() {
		t.Run(c.Name(), func(t *testing.T) {
			want := BruteNearest(w, NearestCenter, c.Radius, c.K, c.ID)
			name := "minecraft:" + c.Block
			var got []world.BlockPos
			for _, h := range chunks.Nearest(NearestCenter, c.Radius, c.K, func(b world.Block) bool { return b.ID == name }) {
				got = append(got, h.Pos)
			}
			ok, why := SameNearest(w, NearestCenter, c.Radius, c.ID, want, got)
			assert.True(t, ok, why)
			assert.Equal(t, want, got, "ties broken by BlockPos.Less as the brute force breaks them")
		})
	}
}

// TestSameNearestRejects checks that wrong answers are caught.
func TestSameNearestRejects(t *testing.T) {
	w, _, _ := fixture(t)
	c := NearestCenter
	want := BruteNearest(w, c, 32, 10, benchworld.CoalOre)
	require.Len(t, want, 10)
	ok, _ := SameNearest(w, c, 32, benchworld.CoalOre, want, want)
	assert.True(t, ok)
	farther := BruteNearest(w, c, 32, 11, benchworld.CoalOre)[1:]
	for name, got := range map[string][]world.BlockPos{
		"one short":       want[:9],
		"a farther block": farther,
		"another block":   append([]world.BlockPos{world.Pos(c.X, 0, c.Z)}, want[1:]...),
		"a duplicate":     append([]world.BlockPos{want[0]}, want[:9]...),
		"out of order":    append([]world.BlockPos{want[9]}, want[:9]...),
	} {
		ok, why := SameNearest(w, c, 32, benchworld.CoalOre, want, got)
		assert.False(t, ok, name)
		assert.NotEmpty(t, why, name)
	}
	// Beyond the radius: the nearest coal ore further out than 2 blocks.
	ok, _ = SameNearest(w, c, 2, benchworld.CoalOre, nil, want[:0])
	assert.True(t, ok)
	ok, _ = SameNearest(w, c, 2, benchworld.CoalOre, want[:1], want[:1])
	assert.False(t, ok, "a hit outside the radius")
	// The same block twice where two lie at the same distance.
	ore := benchworld.CoalOre
	tie := testBlocks{world.Pos(1, 5, 0): ore, world.Pos(-1, 5, 0): ore}
	at := world.Pos(0, 5, 0)
	twins := BruteNearest(tie, at, 4, 2, ore)
	require.Len(t, twins, 2)
	ok, _ = SameNearest(tie, at, 4, ore, twins, []world.BlockPos{twins[1], twins[0]})
	assert.True(t, ok, "ties in any order")
	ok, _ = SameNearest(tie, at, 4, ore, twins, []world.BlockPos{twins[0], twins[0]})
	assert.False(t, ok, "a duplicate among ties")
	ok, _ = SameNearest(tie, at, 4, ore, twins[:1], []world.BlockPos{world.Pos(0, 5, 1)})
	assert.False(t, ok, "a block at the right distance that is not the one asked for")
	// Ties may come in any order.
	if len(want) >= 2 && want[0].DistSq(c) == want[1].DistSq(c) {
		ok, _ = SameNearest(w, c, 32, benchworld.CoalOre, want[:2], []world.BlockPos{want[1], want[0]})
		assert.True(t, ok)
	}
}

// recorded is mineflayer-pathfinder's answer to the routes, recorded by
// TestMineflayerLive with BENCH_RECORD=1 (testdata/mineflayer-paths.json).
type recorded struct {
	Versions map[string]string `json:"versions"`
	Cases    []recordedCase    `json:"cases"`
}

type recordedCase struct {
	Name     string   `json:"name"`
	From     [3]int   `json:"from"`
	To       [3]int   `json:"to"`
	Status   string   `json:"status"`
	Expanded int      `json:"expanded"`
	Cost     float64  `json:"cost"`
	Path     [][3]int `json:"path"`
}

func (c recordedCase) steps() []world.BlockPos {
	out := make([]world.BlockPos, len(c.Path))
	for i, p := range c.Path {
		out[i] = world.Pos(p[0], p[1], p[2])
	}
	return out
}

const recordFile = "testdata/mineflayer-paths.json"

// TestMineflayerPathsRecorded checks mineflayer-pathfinder's recorded paths
// with the same rules as ours: the ends are the cases' ends, its own cost
// figure is what MineflayerCost gives (so the cost model is its real one),
// and the walking check finds the corner cuts it makes.
func TestMineflayerPathsRecorded(t *testing.T) {
	w, _, chunks := fixture(t)
	b, err := os.ReadFile(recordFile)
	require.NoError(t, err)
	var rec recorded
	require.NoError(t, json.Unmarshal(b, &rec))
	require.Len(t, rec.Cases, len(PathCases))
	g := chunkGrid(chunks)
	cuts, other := 0, 0
	for i, c := range rec.Cases {
		t.Run(c.Name, func(t *testing.T) {
			from, to := PathCases[i].Ends(w)
			assert.Equal(t, xyz(from), c.From)
			assert.Equal(t, xyz(to), c.To)
			require.Equal(t, "success", c.Status)
			steps := c.steps()
			require.Equal(t, from, steps[0])
			require.Equal(t, to, steps[len(steps)-1])
			assert.InDelta(t, c.Cost, MineflayerCost(w, steps), 1e-9, "mineflayer-pathfinder's own cost")
			walk := CheckWalk(w, steps)
			cuts += walk.CornerCuts
			other += len(walk.Invalid) - walk.CornerCuts
			ticks, _, ok := TickCost(g, steps)
			require.True(t, ok)
			ours, err := path.Find(g, from, path.At(to), path.Options{})
			require.NoError(t, err)
			assert.LessOrEqual(t, ours.Cost, ticks+1e-9, "our path is optimal in ticks")
			// In mineflayer's own units ours may be longer (it optimises
			// ticks), but never by much.
			assert.Less(t, MineflayerCost(w, stepsOf(ours)), c.Cost*1.1)
		})
	}
	// The recorded paths cut corners (and nothing else is wrong with them):
	// a detector that never fires fails here.
	assert.Positive(t, cuts, "mineflayer-pathfinder cuts corners on these routes")
	assert.Zero(t, other)
}

func stepsOf(r path.Result) []world.BlockPos {
	out := make([]world.BlockPos, len(r.Steps))
	for i, s := range r.Steps {
		out[i] = s.Pos
	}
	return out
}

// TestMineflayerLive runs the JavaScript side on the quick routes, when
// bench/js has its node_modules (CI installs them): the world it decodes
// from our packets is ours, and its paths pass the same checks as the
// recorded ones. With BENCH_RECORD=1 it runs every route and rewrites the
// recording.
func TestMineflayerLive(t *testing.T) {
	if _, err := os.Stat(filepath.Join("js", "node_modules", "mineflayer-pathfinder")); err != nil {
		t.Skip("skipping: bench/js/node_modules is not installed (npm ci in bench/js)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("skipping: node is not installed")
	}
	w, packets, chunks := fixture(t)
	js, err := StartWorker("js")
	require.NoError(t, err)
	defer js.Close()
	file := filepath.Join(t.TempDir(), "columns.gbw")
	require.NoError(t, WritePacketFile(file, packets))
	var loaded struct {
		SHA256 string `json:"sha256"`
	}
	require.NoError(t, js.Call(map[string]any{"op": "load", "file": file}, &loaded))
	require.Equal(t, w.Hash(), loaded.SHA256, "the JavaScript side decodes the same world")

	record := os.Getenv("BENCH_RECORD") == "1"
	cases := PathCases[:2]
	if record {
		cases = PathCases
	}
	rec := recorded{Versions: map[string]string{}}
	g := chunkGrid(chunks)
	for _, c := range cases {
		from, to := c.Ends(w)
		var out jsPath
		require.NoError(t, js.Call(map[string]any{"op": "path", "from": xyz(from), "to": xyz(to), "timeout": (10 * time.Minute).Milliseconds()}, &out))
		require.Equal(t, "success", out.Status, c.Name)
		rc := recordedCase{Name: c.Name, From: xyz(from), To: xyz(to), Status: out.Status, Expanded: out.Expanded, Cost: out.Cost, Path: out.Path}
		steps := rc.steps()
		assert.InDelta(t, out.Cost, MineflayerCost(w, steps), 1e-9, "%s: mineflayer-pathfinder's own cost", c.Name)
		walk := CheckWalk(w, steps)
		assert.Equal(t, len(walk.Invalid), walk.CornerCuts, "%s: %v", c.Name, walk.Invalid)
		_, _, ok := TickCost(g, steps)
		assert.True(t, ok)
		rec.Cases = append(rec.Cases, rc)
	}
	var near struct {
		Hits [][3]int `json:"hits"`
	}
	c := NearestCases()[0]
	require.NoError(t, js.Call(map[string]any{"op": "nearest", "block": c.Block, "center": xyz(NearestCenter), "radius": c.Radius, "count": c.K}, &near))
	assert.NotEmpty(t, near.Hits, "findBlocks finds a log within 16 blocks")
	if record {
		pkg, err := os.ReadFile(filepath.Join("js", "package.json"))
		require.NoError(t, err)
		var p struct {
			Dependencies map[string]string `json:"dependencies"`
		}
		require.NoError(t, json.Unmarshal(pkg, &p))
		rec.Versions = p.Dependencies
		b, err := json.MarshalIndent(rec, "", " ")
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(recordFile, append(b, '\n'), 0o644))
		t.Logf("recorded %s", recordFile)
	}
}
