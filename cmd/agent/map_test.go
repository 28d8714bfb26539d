package main

import (
	"bufio"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/view/mapview"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func abs(v int) int { return max(v, -v) }

// dugBlocks are the blocks a trace's break_block actions dug.
func dugBlocks(t *testing.T, file string) []world.BlockPos {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	tr := newTraceReader(file, f)
	var out []world.BlockPos
	for {
		rec, err := tr.next()
		if err != nil {
			return out
		}
		for i, res := range rec.Results {
			if b, ok := rec.Actions[i].Action.(action.BreakBlock); ok && res.OK() {
				out = append(out, b.Pos)
			}
		}
	}
}

// mapPNG decodes a map picture.
func mapPNG(t *testing.T, file string) image.Image {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	return img
}

// columnColor is the colour at the centre of column (x, z) of a map drawn
// around (cx, cz) with radius r at scale s.
func columnColor(img image.Image, cx, cz, r, s, x, z int) color.RGBA {
	px, py := (x-(cx-r))*s+s/2, (z-(cz-r))*s+s/2
	return color.RGBAModel.Convert(img.At(px, py)).(color.RGBA)
}

func isBlueish(c color.RGBA) bool { return int(c.B) > int(c.R)+60 && int(c.B) > int(c.G)+40 }

// lastStep is the last step of a trace file.
func lastStep(t *testing.T, file string) loop.StepRecord {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	var rec loop.StepRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 8<<20)
	for sc.Scan() {
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
	}
	return rec
}

// TestMapFromTrace: a simulated run's trace, drawn by agent map: the pond
// is blue, the bot's marker is on the column where the run ended and faces
// the way it last moved, and the logs it chopped are marked.
func TestMapFromTrace(t *testing.T) {
	dir := t.TempDir()
	trace, out := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "map.png")
	code, stdout, stderr := runAgent(t, "run", "--goal", "collect 4 minecraft:log", "--trace", trace)
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	end := lastStep(t, trace).After.Pos

	code, stdout, stderr = runAgent(t, "map", "--trace", trace, "--out", out, "--center", "32,32", "--radius", "31", "--scale", "5")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "wrote "+out+": 315×323 pixels, 63×63 columns (x 1..63, z 1..63), 5 pixels a block")
	assert.Contains(t, stdout, "bot: at "+end.String()+", facing")
	assert.Regexp(t, `markers: 5 machines, 0 ores, [1-9]\d* digs, 0 placements, path of [1-9]\d* blocks`, stdout)
	assert.Regexp(t, `water +#3050d0 +25\n`, stdout, "the pond's 25 columns in the legend")

	img := mapPNG(t, out)
	assert.Equal(t, image.Rect(0, 0, 315, 323), img.Bounds())
	assert.True(t, isBlueish(columnColor(img, 32, 32, 31, 5, 52, 46)), "the pond")
	assert.False(t, isBlueish(columnColor(img, 32, 32, 31, 5, 60, 60)), "the plain")
	assert.Equal(t, mapview.BotColor, columnColor(img, 32, 32, 31, 5, end.X, end.Z), "the bot where the run ended")

	// The same run stopped after its first step: the same place here, as
	// the run is one step; a step past the end is refused.
	code, _, stderr = runAgent(t, "map", "--trace", trace, "--out", out, "--step", "9")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--step 9: the trace has 1 steps")
}

// twoMoves is a trace of two steps in forest_base, each a walk east.
const twoMoves = `{"step":1,"before":{"pos":{"x":24,"y":64,"z":32}},"actions":[{"type":"move_to","pos":{"x":30,"y":64,"z":32},"radius":0}],"results":[{"code":"ok"}],"verdict":"success"}
{"step":2,"before":{"pos":{"x":30,"y":64,"z":32}},"actions":[{"type":"move_to","pos":{"x":35,"y":64,"z":32},"radius":0}],"results":[{"code":"ok"}],"verdict":"success"}
`

// TestMapStep: --step N draws the world after step N.
func TestMapStep(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"two.jsonl": twoMoves})
	trace, out := filepath.Join(dir, "two.jsonl"), filepath.Join(dir, "m.png")
	code, stdout, stderr := runAgent(t, "map", "--trace", trace, "--out", out, "--step", "1")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "bot: at (30, 64, 32), facing east")
	code, stdout, stderr = runAgent(t, "map", "--trace", trace, "--out", out)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "bot: at (35, 64, 32), facing east")
	assert.Regexp(t, `path of [6-9] blocks`, stdout, "the last move's path, from (30, 64, 32)")
}

// TestMapTraceOfAnotherWorld: a trace played in another world than its
// own is refused where it parts from it.
func TestMapTraceOfAnotherWorld(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "run.jsonl")
	code, _, _ := runAgent(t, "run", "--goal", "collect 4 minecraft:log", "--trace", trace)
	require.Equal(t, exitOK, code)
	code, _, stderr := runAgent(t, "map", "--trace", trace, "--out", filepath.Join(dir, "m.png"), "--scenario", "fresh_start")
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "run.jsonl:1: step 1 starts at (24, 64, 32) in the trace")
	assert.Contains(t, stderr, "was the run in scenario fresh_start with seed 0?")
	code, _, stderr = runAgent(t, "map", "--trace", trace, "--out", filepath.Join(dir, "m.png"), "--seed", "3")
	assert.Equal(t, exitFail, code)
	assert.Regexp(t, `run.jsonl:1: step 1, action \d+ \(\w+\): ok in the trace, \w+ here`, stderr)
	assert.NoFileExists(t, filepath.Join(dir, "m.png"))
}

// oreScenario is a flat world with an iron ore under the grass at
// (20, 55, 20).
const oreScenario = `name: ore_test
seed: 1
size: {x: 32, z: 32}
generator: flat
ground_y: 63
player:
  pos: [10, 64, 10]
blocks:
  - {block: "minecraft:iron_ore", pos: [20, 55, 20]}
`

// TestMapDepthFilter: --max-y shows what lies under the surface. An empty
// trace is the scenario as it starts.
func TestMapDepthFilter(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"ore.yaml": oreScenario, "empty.jsonl": ""})
	sc, trace, out := filepath.Join(dir, "ore.yaml"), filepath.Join(dir, "empty.jsonl"), filepath.Join(dir, "m.png")

	code, stdout, stderr := runAgent(t, "map", "--trace", trace, "--scenario", sc, "--out", out, "--center", "16,16", "--radius", "15", "--scale", "2")
	require.Equal(t, exitOK, code, stderr)
	assert.NotContains(t, stdout, "Iron ore")
	surface := columnColor(mapPNG(t, out), 16, 16, 15, 2, 20, 20)
	assert.Greater(t, surface.G, surface.R, "grass over the ore")

	code, stdout, stderr = runAgent(t, "map", "--trace", trace, "--scenario", sc, "--out", out, "--center", "16,16", "--radius", "15", "--scale", "2", "--max-y", "55")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "depth: at y 55 and below")
	assert.Regexp(t, `Iron ore +#d8a27a +1\n`, stdout)
	assert.Contains(t, stdout, "1 ores")
	img := mapPNG(t, out)
	iron := mapview.Look{Color: "#d8a27a"}.RGBA()
	assert.Equal(t, iron, columnColor(img, 16, 16, 15, 2, 20, 20), "the ore at y 55")
	assert.NotEqual(t, iron, columnColor(img, 16, 16, 15, 2, 21, 20))
}

// TestMapJSON: --json writes the map's data, the form the web view sends.
func TestMapJSON(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"empty.jsonl": ""})
	out := filepath.Join(dir, "m.json")
	code, stdout, stderr := runAgent(t, "map", "--trace", filepath.Join(dir, "empty.jsonl"), "--out", out, "--radius", "10", "--json")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "21×21 columns (x 14..34, z 22..42) as JSON")
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	var m mapview.Map
	require.NoError(t, json.Unmarshal(data, &m))
	assert.Len(t, m.Columns, 21*21)
	c, l, ok := m.At(24, 32)
	require.True(t, ok)
	assert.Equal(t, mapview.KindGrass, l.Kind)
	assert.Equal(t, 63, c.Y)
	require.NotEmpty(t, m.Markers)
	bot := m.Markers[len(m.Markers)-1]
	assert.Equal(t, mapview.MarkerBot, bot.Kind)
	assert.Equal(t, world.Pos(24, 64, 32), bot.Pos)
	assert.Nil(t, bot.Yaw, "no step, no facing")
}

// TestMapFromRecording: a recording of a server session, drawn.
func TestMapFromRecording(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.png")
	rec := filepath.Join("..", "..", "gtnh", "record", "testdata", "session-neid.rec")
	code, stdout, stderr := runAgent(t, "map", "--recording", rec, "--out", out, "--radius", "8", "--scale", "3")
	require.Equal(t, exitOK, code, stderr)
	look := lastLook(t, rec)
	require.NotNil(t, look)
	yaw := float64(look.Yaw)
	assert.Contains(t, stdout, "bot: at (11, 64, 8), facing "+compass(yaw)+"\n", "the way the bot last looked")
	assert.Regexp(t, `grass +#5b8c32`, stdout)
	img := mapPNG(t, out)
	assert.Equal(t, image.Rect(0, 0, 51, 51+8), img.Bounds())
	assert.Equal(t, mapview.BotColor, columnColor(img, 11, 8, 8, 3, 11, 8))
}

// TestMapRefusesBadFlags: the flags are checked before anything is read,
// and a picture too large is refused with what to lower.
func TestMapRefusesBadFlags(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // a map wrongly written lands here
	writeFiles(t, dir, map[string]string{"empty.jsonl": ""})
	trace := filepath.Join(dir, "empty.jsonl")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--out", "m.png"}, "give --recording FILE or --trace FILE"},
		{[]string{"--trace", trace}, "--out FILE is needed"},
		{[]string{"--trace", trace, "--recording", "x", "--out", "m.png"}, "not both"},
		{[]string{"--trace", trace, "--out", "m.png", "--at", "5"}, "--at is for --recording"},
		{[]string{"--recording", "x", "--out", "m.png", "--seed", "5"}, "--seed is for --trace"},
		{[]string{"--trace", trace, "--out", "m.png", "--radius", "0"}, "--radius 0: want 1..1024 blocks"},
		{[]string{"--trace", trace, "--out", "m.png", "--radius", "5000"}, "--radius 5000: want 1..1024 blocks"},
		{[]string{"--trace", trace, "--out", "m.png", "--scale", "0"}, "want 1..32 pixels per block"},
		{[]string{"--trace", trace, "--out", "m.png", "--scale", "33"}, "want 1..32 pixels per block"},
		{[]string{"--trace", trace, "--out", "m.png", "--scale", "32", "--radius", "200"}, "12832×12832 pixels is too large (at most 8192 a side): lower the scale or the radius"},
		{[]string{"--trace", trace, "--out", "m.png", "--max-y", "256"}, "--max-y 256: want 0..255"},
		{[]string{"--trace", trace, "--out", "m.png", "--center", "12"}, `--center "12": want the column as X,Z`},
		{[]string{"--trace", trace, "--out", "m.png", "--center", "1,99999999999"}, "want the column as X,Z"},
		{[]string{"--trace", trace, "--out", "m.png", "--step", "-1"}, "--step must not be negative"},
		{[]string{"--trace", trace, "--out", "m.png", "--radus", "5"}, `unknown flag --radus (did you mean "--radius"?)`},
		{[]string{"--trace", filepath.Join(dir, "missing.jsonl"), "--out", "m.png"}, "missing.jsonl: no such file"},
		{[]string{"--recording", filepath.Join(dir, "missing.rec"), "--out", "m.png"}, "missing.rec: no such file"},
	} {
		code, _, stderr := runAgent(t, append([]string{"map"}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
	assert.NoFileExists(t, "m.png")
}

// TestMapRefusesABadTrace: a file that is not a trace is refused naming
// the line.
func TestMapRefusesABadTrace(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"bad.jsonl":   "\n{\"step\": 1, \"before\": {\"pos\": {\"x\": 24, \"y\": 64, \"z\": 32}}}\nnot json\n",
		"types.jsonl": "{\"step\": 1, \"actions\": [{\"type\": \"fly\"}]}\n",
	})
	code, _, stderr := runAgent(t, "map", "--trace", filepath.Join(dir, "bad.jsonl"), "--out", filepath.Join(dir, "m.png"))
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "bad.jsonl:3: not a step of a trace")
	code, _, stderr = runAgent(t, "map", "--trace", filepath.Join(dir, "types.jsonl"), "--out", filepath.Join(dir, "m.png"))
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "types.jsonl:1: not a step of a trace")
	assert.True(t, strings.Contains(stderr, "fly"), stderr)
}

// TestRunMapOut: agent run --map-out draws the world at the end of the run
// with the bot where it ended and the blocks of the trees it chopped
// before the last.
func TestRunMapOut(t *testing.T) {
	dir := t.TempDir()
	trace, out := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "end.png")
	code, stdout, stderr := runAgent(t, "run", "--goal", "collect 16 minecraft:log", "--trace", trace,
		"--map-out", out, "--map-radius", "20", "--map-scale", "3")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	end := lastStep(t, trace).After.Pos
	assert.Contains(t, stdout, "wrote "+out+": 123×131 pixels, 41×41 columns")
	img := mapPNG(t, out)
	assert.Equal(t, mapview.BotColor, columnColor(img, end.X, end.Z, 20, 3, end.X, end.Z))
	// A block the run dug, away from the bot's marker, is marked.
	dug := dugBlocks(t, trace)
	require.NotEmpty(t, dug)
	marked := 0
	for _, p := range dug {
		if max(abs(p.X-end.X), abs(p.Z-end.Z)) >= 2 && columnColor(img, end.X, end.Z, 20, 3, p.X, p.Z) == mapview.DigColor {
			marked++
		}
	}
	assert.Positive(t, marked, "digs %v around %v", dug, end)

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--map-radius", "5"}, "--map-radius is for --map-out"},
		{[]string{"--map-out", filepath.Join(dir, "no", "m.png")}, "does not exist"},
		{[]string{"--map-out", out, "--map-scale", "99"}, "--map-scale 99: want 1..32"},
		{[]string{"--map-out", out, "--map-scale", "32", "--map-radius", "300"}, "--map-scale 32 with --map-radius 300: map image 19232×19232 pixels is too large"},
		{[]string{"--map-out", out, "--map-center", "a,b"}, `--map-center "a,b"`},
	} {
		code, _, stderr := runAgent(t, append([]string{"run"}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%v", tc.args)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
}

// TestServeMapOut: agent serve --map-out draws, when serving ends, the
// served world with the bot where a client's run left it and the blocks
// that run had the body dig; a directory that does not exist is refused
// at the start.
func TestServeMapOut(t *testing.T) {
	t.Parallel()
	dir := shortDir(t)
	out, trace := filepath.Join(dir, "served.png"), filepath.Join(dir, "run.jsonl")
	srv := startAgent(t, 0, "serve", "--body", "sim", "--listen", "unix://"+filepath.Join(dir, "gtnh.sock"),
		"--map-out", out, "--map-radius", "20", "--map-scale", "3")
	addr := waitServing(t, srv)
	code, stdout, stderr := runAgent(t, "run", "--body", addr, "--goal", "collect 8 minecraft:log", "--trace", trace, "--max-steps", "10")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	require.NoError(t, srv.cmd.Process.Signal(syscall.SIGTERM))
	code, _, _ = srv.wait(t)
	require.Equal(t, 0, code, tail(srv.stderrText(), 2000))
	assert.Contains(t, srv.stdout(), "wrote "+out+": 123×131 pixels, 41×41 columns")

	end := lastStep(t, trace).After.Pos
	img := mapPNG(t, out)
	assert.Equal(t, mapview.BotColor, columnColor(img, end.X, end.Z, 20, 3, end.X, end.Z), "the bot where the run left it")
	dug := dugBlocks(t, trace)
	require.NotEmpty(t, dug)
	marked := 0
	for _, p := range dug {
		if max(abs(p.X-end.X), abs(p.Z-end.Z)) >= 2 && columnColor(img, end.X, end.Z, 20, 3, p.X, p.Z) == mapview.DigColor {
			marked++
		}
	}
	assert.Positive(t, marked, "the client's digs %v around %v", dug, end)

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--map-radius", "5"}, "serve: --map-radius is for --map-out"},
		{[]string{"--map-out", filepath.Join(dir, "no", "m.png")}, "serve: --map-out " + filepath.Join(dir, "no", "m.png") + ": the directory " + filepath.Join(dir, "no") + " does not exist"},
		{[]string{"--map-out", out, "--map-scale", "99"}, "serve: --map-scale 99: want 1..32"},
	} {
		code, _, stderr := runAgent(t, append([]string{"serve", "--listen", "unix://" + filepath.Join(dir, "x.sock")}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%v", tc.args)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
}
