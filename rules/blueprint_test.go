package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// world3 is a sparse block map for Check, keyed by offset.
type world3 map[Offset]BlockRef

func (w world3) at(o Offset) (string, int) {
	b, ok := w[o]
	if !ok {
		return "", 0
	}
	return b.ID, b.Meta
}

// built returns the blocks of a blueprint's pattern, as built at the origin.
func built(b *Blueprint) world3 {
	w := world3{}
	for _, o := range b.Offsets() {
		if c := b.Cell(o); !c.Air {
			w[o] = c.Block
		}
	}
	return w
}

// TestShippedCokeOven: Railcraft 9.16.33's coke oven: a 3×3×3 cube of 26
// Railcraft:machine.alpha:7 with an air centre, the master at the
// bottom centre, no other oven block in the one-block shell.
func TestShippedCokeOven(t *testing.T) {
	bp, ok := Default().Builds.Get("coke_oven")
	require.True(t, ok)
	assert.Equal(t, []string{"coke_oven"}, Default().Builds.Names())
	assert.Equal(t, "coke_oven", bp.Machine)
	assert.Equal(t, [3]int{3, 3, 3}, [3]int{bp.SizeX, bp.SizeY, bp.SizeZ})
	assert.Equal(t, Offset{1, 0, 1}, bp.Master)
	oven := BlockRef{ID: "Railcraft:machine.alpha", Meta: 7}
	assert.Equal(t, []BlockCount{{Block: oven, Count: 26}}, bp.Blocks())
	for _, o := range bp.Offsets() {
		c := bp.Cell(o)
		if o == (Offset{1, 1, 1}) {
			assert.True(t, c.Air, "the centre is air")
		} else {
			assert.Equal(t, Cell{Block: oven}, c, "%v", o)
		}
	}
	assert.Equal(t, 1, bp.ShellWidth)
	assert.Equal(t, []BlockRef{oven}, bp.Forbid)
	assert.Len(t, Default().Builds.Using("Railcraft:machine.alpha", 7), 1)
	assert.Empty(t, Default().Builds.Using("Railcraft:machine.alpha", 6))
	assert.True(t, Default().Builds.Forbids("Railcraft:machine.alpha", 7))
	assert.False(t, Default().Builds.Forbids("minecraft:stone", 0))
}

func TestBlueprintCheck(t *testing.T) {
	bp, _ := Default().Builds.Get("coke_oven")
	oven := BlockRef{ID: "Railcraft:machine.alpha", Meta: 7}
	w := built(bp)
	assert.Empty(t, bp.Check(w.at), "the full pattern stands")
	// Other blocks in the shell do not matter.
	w[Offset{-1, 0, 0}] = BlockRef{ID: "minecraft:stone"}
	w[Offset{1, -1, 1}] = BlockRef{ID: "minecraft:dirt"}
	assert.Empty(t, bp.Check(w.at))

	for _, c := range []struct {
		name string
		edit func(world3)
		want string
	}{
		{"a block missing", func(w world3) { delete(w, Offset{2, 2, 0}) }, "{2 2 0} needs Railcraft:machine.alpha:7, is empty"},
		{"a window missing", func(w world3) { delete(w, Offset{1, 1, 0}) }, "{1 1 0} needs"},
		{"wrong meta", func(w world3) { w[Offset{0, 0, 0}] = BlockRef{ID: "Railcraft:machine.alpha", Meta: 6} }, "holds Railcraft:machine.alpha:6"},
		{"the centre filled", func(w world3) { w[Offset{1, 1, 1}] = BlockRef{ID: "minecraft:cobblestone"} }, "{1 1 1} must be air"},
		{"an oven block in the shell beside", func(w world3) { w[Offset{3, 1, 1}] = oven }, "{3 1 1} in the shell"},
		{"an oven block in the shell below", func(w world3) { w[Offset{1, -1, 1}] = oven }, "{1 -1 1} in the shell"},
		{"an oven block in the shell's corner", func(w world3) { w[Offset{-1, 3, -1}] = oven }, "{-1 3 -1} in the shell"},
	} {
		w := built(bp)
		c.edit(w)
		assert.Contains(t, bp.Check(w.at), c.want, c.name)
	}
	// Beyond the shell another oven block is allowed.
	w = built(bp)
	w[Offset{4, 1, 1}] = oven
	assert.Empty(t, bp.Check(w.at))
	assert.True(t, bp.InShell(Offset{3, 3, 3}))
	assert.False(t, bp.InShell(Offset{4, 1, 1}))
	assert.False(t, bp.InShell(Offset{-2, 0, 0}))
}

func TestParseBlueprints(t *testing.T) {
	good := "blueprints:\n  - name: post\n    machine: marker\n    legend: {S: minecraft:stone, A: air}\n    layers:\n      - [S]\n      - [A]\n    master: [0, 0, 0]\n"
	bt, err := ParseBlueprints("b.yaml", []byte(good))
	require.NoError(t, err)
	bp, ok := bt.Get("post")
	require.True(t, ok)
	assert.Equal(t, BlockRef{ID: "minecraft:stone"}, bp.Cell(Offset{0, 0, 0}).Block, "no meta is meta 0")
	assert.True(t, bp.Cell(Offset{0, 1, 0}).Air)
	assert.Equal(t, "minecraft:stone", bp.Cell(Offset{0, 0, 0}).Block.Item())
	assert.Equal(t, "Railcraft:machine.alpha:7", BlockRef{ID: "Railcraft:machine.alpha", Meta: 7}.Item())
	assert.Equal(t, 0, bp.ShellWidth)
	_, ok = bt.Get("coke_oven")
	assert.False(t, ok)
	names := NewNames()
	require.Error(t, names.CheckBlock("minecraft:stone"))
	names.AddBlueprints(bt)
	assert.NoError(t, names.CheckBlock("minecraft:stone"), "a blueprint's blocks are known names")

	for _, c := range []struct{ yaml, want string }{
		{"{}\n", "blueprints: required field is missing"},
		{"blueprints:\n  - name: x\n", "blueprints[0].machine: required field is missing"},
		{"blueprints:\n  - {name: X, machine: m, legend: {S: minecraft:stone}, layers: [[S]], master: [0,0,0]}\n", "lower-case"},
		{"blueprints:\n  - {name: x, machine: m, legend: {S: minecraft:stone}, layers: [[S, SS]], master: [0,0,0]}\n", "has 2 cells, the first row has 1"},
		{"blueprints:\n  - {name: x, machine: m, legend: {S: minecraft:stone}, layers: [[S], [S, S]], master: [0,0,0]}\n", "layer 1 has 2 rows, layer 0 has 1"},
		{"blueprints:\n  - {name: x, machine: m, legend: {S: minecraft:stone}, layers: [[T]], master: [0,0,0]}\n", `"T" is not in the legend`},
		{"blueprints:\n  - {name: x, machine: m, legend: {SS: minecraft:stone}, layers: [[S]], master: [0,0,0]}\n", "one character"},
		{"blueprints:\n  - {name: x, machine: m, legend: {S: stone}, layers: [[S]], master: [0,0,0]}\n", "not an id"},
		{"blueprints:\n  - {name: x, machine: m, legend: {S: minecraft:stone}, layers: [[S]], master: [1,0,0]}\n", "outside the 1×1×1 pattern"},
		{"blueprints:\n  - {name: x, machine: m, legend: {S: minecraft:stone, A: air}, layers: [[SA]], master: [1,0,0]}\n", "is an air cell"},
		{"blueprints:\n  - {name: x, machine: m, legend: {S: minecraft:stone}, layers: [[S]], master: [0,0]}\n", "got 2 numbers"},
		{"blueprints:\n  - {name: x, machine: m, legend: {S: minecraft:stone}, layers: [[S]], master: [0,0,0], shell: {width: -1, forbid: []}}\n", "must be within 0..16"},
		{"blueprints:\n  - {name: x, machine: m, legend: {S: minecraft:stone}, layers: [[S]], master: [0,0,0], shell: {width: 1}}\n", "shell.forbid: required field is missing"},
		{"blueprints:\n  - {name: x, machine: m, legend: {S: minecraft:stone}, layers: [], master: [0,0,0]}\n", "1..16 layers"},
		{"blueprints:\n  - {name: x, machine: m, legend: {S: minecraft:stone}, layers: [[S]], master: [0,0,0]}\n  - {name: x, machine: m, legend: {S: minecraft:stone}, layers: [[S]], master: [0,0,0]}\n", `duplicate blueprint "x"`},
	} {
		_, err := ParseBlueprints("b.yaml", []byte(c.yaml))
		require.Error(t, err, c.yaml)
		assert.Contains(t, err.Error(), c.want, c.yaml)
		assert.Contains(t, err.Error(), "b.yaml:", c.yaml)
		located(t, err)
	}
}

func FuzzParseBlueprints(f *testing.F) {
	f.Add([]byte("blueprints:\n  - name: post\n    machine: marker\n    legend: {S: minecraft:stone, A: air}\n    layers:\n      - [S]\n      - [A]\n    master: [0, 0, 0]\n    shell: {width: 1, forbid: [minecraft:stone]}\n"))
	f.Add([]byte("blueprints:\n  - {name: x, machine: m, legend: {S: minecraft:stone}, layers: [[S, SS]], master: [0,0,0]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		bt, err := ParseBlueprints("f.yaml", data)
		if err != nil {
			located(t, err)
			return
		}
		for _, bp := range bt.All() {
			if bp.SizeX*bp.SizeY*bp.SizeZ != len(bp.Offsets()) || !bp.Inside(bp.Master) || bp.Cell(bp.Master).Air {
				t.Fatalf("accepted a broken blueprint: %+v", bp)
			}
			w := built(bp)
			if r := bp.Check(w.at); r != "" && len(bp.Forbid) == 0 {
				t.Fatalf("its own pattern fails: %s", r)
			}
		}
	})
}
