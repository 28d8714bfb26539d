package sim

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

const ovenBlock = "Railcraft:machine.alpha:7"

// builtOrigin is where the tests build their coke oven: on the ground of
// the small world (grass at y 63), east of the player.
var builtOrigin = world.Pos(10, 64, 6)

// ovenSite gives a small world 26 coke oven blocks (and more when asked)
// and moves the player to the middle of the pattern's west side, from
// where every cell is within reach.
func ovenSite(t *testing.T, opts Options, extra string) *Sim {
	t.Helper()
	sc, err := ParseScenario("t.yaml", []byte("name: t\nseed: 5\nsize: {x: 16, z: 16}\nplayer:\n  pos: [8, 64, 8]\n"+
		"  inventory:\n    - {item: \""+ovenBlock+"\", count: 30}\n    - {item: minecraft:cobblestone, count: 4}\n    - {item: minecraft:log, count: 4}\n"+extra))
	require.NoError(t, err)
	s, err := New(sc, opts)
	require.NoError(t, err)
	r := exec(t, s, action.MoveTo{Pos: builtOrigin.Add(-1, 0, 1)})
	require.True(t, r.OK(), r.Error)
	return s
}

// ovenCells are the coke oven's block cells in an order a player can
// place them: bottom layer first, each layer's centre last (it rests on
// its neighbours).
func ovenCells(t *testing.T) []world.BlockPos {
	t.Helper()
	bp, ok := rules.Default().Builds.Get("coke_oven")
	require.True(t, ok)
	var out []world.BlockPos
	for y := 0; y < bp.SizeY; y++ {
		var centre []world.BlockPos
		for _, o := range bp.Offsets() {
			if o.Y != y || bp.Cell(o).Air {
				continue
			}
			p := builtOrigin.Add(o.X, o.Y, o.Z)
			if o.X == 1 && o.Z == 1 {
				centre = append(centre, p)
				continue
			}
			out = append(out, p)
		}
		out = append(out, centre...)
	}
	return out
}

func place(t *testing.T, s *Sim, p world.BlockPos, item string) {
	t.Helper()
	r := exec(t, s, action.PlaceBlock{Pos: p, Item: item})
	require.True(t, r.OK(), "%v: %s", p, r.Error)
}

func machineAt(t *testing.T, s *Sim, p world.BlockPos) (world.Machine, bool) {
	t.Helper()
	for _, m := range snap(t, s).Machines {
		if m.Pos == p {
			return m, true
		}
	}
	return world.Machine{}, false
}

// TestCokeOvenFormsWhenItsLastBlockIsPlaced: 26 coke oven blocks around
// an air centre form a coke oven at the bottom centre with the last block,
// not before; it cooks a log into charcoal in 1,800 ticks like any oven.
func TestCokeOvenFormsWhenItsLastBlockIsPlaced(t *testing.T) {
	s := ovenSite(t, Options{}, "")
	cells := ovenCells(t)
	require.Len(t, cells, 26)
	master := builtOrigin.Add(1, 0, 1)
	for _, p := range cells[:25] {
		place(t, s, p, ovenBlock)
		_, ok := machineAt(t, s, master)
		require.False(t, ok, "formed before the last block (at %v)", p)
	}
	place(t, s, cells[25], ovenBlock)
	m, ok := machineAt(t, s, master)
	require.True(t, ok, "the last block forms the oven")
	assert.Equal(t, world.MachineCokeOven, m.Kind)
	assert.True(t, m.Formed)
	assert.Equal(t, 64000, m.Fluids["creosote"].Capacity)
	assert.Len(t, snap(t, s).Machines, 1, "one oven, not one per block")
	assert.Equal(t, 4, snap(t, s).Inventory.Count(world.MustItem(ovenBlock)), "26 of 30 placed")

	require.True(t, exec(t, s, action.OpenContainer{Pos: master}).OK())
	r := exec(t, s, action.TransferItems{Pos: master, Item: "minecraft:log", Count: 2, Direction: action.Deposit, Slot: "input"})
	require.True(t, r.OK(), r.Error)
	wait(t, s, 1800)
	m = machine(t, s, master)
	assert.Equal(t, "minecraft:coal", m.Slots["output"].ID)
	assert.Equal(t, 1, m.Slots["output"].Meta)
	assert.Equal(t, 1, m.Slots["output"].Count, "one charcoal a 1,800 ticks")
	assert.Equal(t, 250, m.Fluids["creosote"].Amount)
}

// TestCokeOvenPatternMustHold: a filled centre or another oven block in
// the shell keeps the oven from forming; one placed in the shell of a
// formed oven unforms it, and it stops cooking.
func TestCokeOvenPatternMustHold(t *testing.T) {
	master := builtOrigin.Add(1, 0, 1)
	t.Run("centre filled", func(t *testing.T) {
		s := ovenSite(t, Options{}, "")
		cells := ovenCells(t)
		for _, p := range cells[:17] { // the bottom and middle layers
			place(t, s, p, ovenBlock)
		}
		place(t, s, builtOrigin.Add(1, 1, 1), "minecraft:cobblestone")
		for _, p := range cells[17:] {
			place(t, s, p, ovenBlock)
		}
		_, ok := machineAt(t, s, master)
		assert.False(t, ok)
	})
	t.Run("oven block in the shell first", func(t *testing.T) {
		s := ovenSite(t, Options{}, "")
		place(t, s, builtOrigin.Add(3, 0, 0), ovenBlock)
		for _, p := range ovenCells(t) {
			place(t, s, p, ovenBlock)
		}
		_, ok := machineAt(t, s, master)
		assert.False(t, ok)
	})
	t.Run("oven block in the shell after", func(t *testing.T) {
		s := ovenSite(t, Options{}, "")
		for _, p := range ovenCells(t) {
			place(t, s, p, ovenBlock)
		}
		require.True(t, machine(t, s, master).Formed)
		require.True(t, exec(t, s, action.OpenContainer{Pos: master}).OK())
		require.True(t, exec(t, s, action.TransferItems{Pos: master, Item: "minecraft:log", Count: 1, Direction: action.Deposit, Slot: "input"}).OK())
		place(t, s, builtOrigin.Add(-1, 0, 0), ovenBlock)
		m := machine(t, s, master)
		assert.False(t, m.Formed, "another oven block touches it")
		wait(t, s, 1800)
		assert.Empty(t, machine(t, s, master).Slots["output"].ID, "an unformed oven does not cook")
	})
}

// breakableOvens is the shipped rule set with coke oven blocks that break
// by hand (the shipped mining table takes them apart with a wrench only).
func breakableOvens(t *testing.T) *rules.Set {
	t.Helper()
	data, err := fs.ReadFile(config.FS, "mining.yaml")
	require.NoError(t, err)
	text := strings.Replace(string(data), "Railcraft:machine.alpha: {hardness: -1}", "Railcraft:machine.alpha: {hardness: 2}", 1)
	require.NotEqual(t, string(data), text)
	mining, err := rules.ParseMiningRules("mining.yaml", []byte(text))
	require.NoError(t, err)
	set := *rules.Default()
	set.Mining = mining
	return &set
}

// TestCokeOvenUnformsWhenABlockBreaks: breaking a block of a formed oven
// unforms it (its slots stay with the master), placing it back forms it
// again, and breaking the master block takes the machine away.
func TestCokeOvenUnformsWhenABlockBreaks(t *testing.T) {
	s := ovenSite(t, Options{Rules: breakableOvens(t)}, "")
	master := builtOrigin.Add(1, 0, 1)
	for _, p := range ovenCells(t) {
		place(t, s, p, ovenBlock)
	}
	require.True(t, machine(t, s, master).Formed)
	window := builtOrigin.Add(0, 1, 1)
	r := exec(t, s, action.BreakBlock{Pos: window})
	require.True(t, r.OK(), r.Error)
	assert.False(t, machine(t, s, master).Formed)
	place(t, s, window, ovenBlock)
	assert.True(t, machine(t, s, master).Formed, "whole again")

	r = exec(t, s, action.BreakBlock{Pos: master})
	require.True(t, r.OK(), r.Error)
	_, ok := machineAt(t, s, master)
	assert.False(t, ok, "the master block is gone")
	assert.Equal(t, ipc.OK, exec(t, s, action.PlaceBlock{Pos: master, Item: ovenBlock}).Code)
	assert.True(t, machine(t, s, master).Formed, "rebuilt")
}
