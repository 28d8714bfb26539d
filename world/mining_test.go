package world

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

func TestShippedMiningRules(t *testing.T) {
	r := DefaultMiningRules()
	log, ok := r.Block("minecraft:log")
	require.True(t, ok)
	assert.Equal(t, BlockRule{Hardness: 2, Tool: "axe"}, log)
	stone, _ := r.Block("minecraft:stone")
	assert.True(t, stone.NeedsTool)
	_, ok = r.Block("gregtech:gt.blockores")
	assert.False(t, ok, "mod blocks are left to the caller's guess")

	axe := NewTool("minecraft:iron_axe", 0, 250, 250)
	assert.Equal(t, 6.0, r.ToolSpeed(axe, "axe", 4))
	assert.Equal(t, 1.0, r.ToolSpeed(axe, "pickaxe", 4), "the wrong class mines like a hand")
	assert.Equal(t, 1.0, r.ToolSpeed(ItemStack{}, "axe", 4))
	gt := NewStack("gregtech:gt.metatool.01", 6, 1)
	assert.Equal(t, 4.0, r.ToolSpeed(gt, "axe", 4), "unknown materials take the caller's guess")
	m, ok := r.Material("minecraft:diamond_pickaxe")
	require.True(t, ok)
	assert.Equal(t, 1561, m.Durability)

	assert.True(t, stone.Harvests(NewTool("minecraft:stone_pickaxe", 0, 131, 131)))
	assert.False(t, stone.Harvests(ItemStack{}))
	assert.True(t, log.Harvests(ItemStack{}))
}

func TestBreakTicks(t *testing.T) {
	assert.Equal(t, 60.0, BreakTicks(2, 1, true), "a log by hand")
	assert.Equal(t, 10.0, BreakTicks(2, 6, true), "with an iron axe")
	assert.Equal(t, 150.0, BreakTicks(1.5, 1, false), "stone by hand: no harvest")
	assert.Equal(t, 1.0, BreakTicks(0, 1, true))
	assert.True(t, math.IsInf(BreakTicks(-1, 1, true), 1))
}

func TestParseMiningRulesErrors(t *testing.T) {
	_, err := ParseMiningRules("m.yaml", []byte("blocks:\n  minecraft:log: {hardness: 2, tool: spoon}\n  stone: {hardness: 1}\n  minecraft:dirt: {tool: shovel}\n  minecraft:x: {hardness: 1, needs_tool: true}\ntools:\n  - {prefix: \"minecraft:wooden_\", speed: 0.5, durability: 0}\n"))
	var list strictyaml.Errors
	require.True(t, errors.As(err, &list))
	var got []string
	for _, e := range list {
		got = append(got, e.Error())
	}
	assert.Contains(t, got, `m.yaml:2:38: blocks.minecraft:log.tool: unknown tool class "spoon" (pickaxe, axe, shovel, hoe, sword, shears)`)
	assert.Contains(t, got, `m.yaml:3:3: blocks.stone: "stone" is not an id of the form modid:name or modid:name:meta`)
	assert.Contains(t, got, `m.yaml:4:19: blocks.minecraft:dirt.hardness: required field is missing`)
	assert.Contains(t, got, `m.yaml:5:42: blocks.minecraft:x.needs_tool: needs_tool requires a tool class`)
	assert.Contains(t, got, `m.yaml:7:42: tools[0].speed: must be at least 1 (the hand)`)
	assert.Contains(t, got, `m.yaml:7:59: tools[0].durability: must be at least 1`)
}

func FuzzParseMiningRules(f *testing.F) {
	f.Add([]byte("blocks:\n  minecraft:log: {hardness: 2, tool: axe}\ntools:\n  - {prefix: \"minecraft:iron_\", speed: 6, durability: 250}\n"))
	f.Add([]byte("blocks: {minecraft:x: {hardness: -1}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseMiningRules("m.yaml", data)
		if err != nil {
			var list strictyaml.Errors
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error is not a located list: %T %v", err, err)
			}
			return
		}
		for _, m := range r.materials {
			if m.Speed < 1 || m.Durability < 1 {
				t.Fatalf("accepted a bad material %+v", m)
			}
		}
	})
}
