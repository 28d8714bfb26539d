package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/view/mapview"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func env1(a action.Action) action.Envelope { return action.Envelope{Action: a} }

func TestMapTrackerFollowsSteps(t *testing.T) {
	tr := &mapTracker{}
	tr.step(loop.StepRecord{
		Before: loop.Summary{Pos: world.Pos(0, 64, 0), Tick: 7},
		Actions: []action.Envelope{
			env1(action.MoveTo{Pos: world.Pos(5, 64, 0), Radius: 1}),
			env1(action.BreakBlock{Pos: world.Pos(5, 64, 3)}),
			env1(action.PlaceBlock{Pos: world.Pos(4, 64, 0), Item: "minecraft:dirt"}),
			env1(action.BreakBlock{Pos: world.Pos(9, 9, 9)}),
			env1(action.BreakBlock{Pos: world.Pos(1, 1, 1)}), // never ran
		},
		Results: []ipc.Result{
			{Code: ipc.OK, Details: map[string]any{"to": map[string]any{"x": 5.0, "y": 64.0, "z": 0.0}}},
			{Code: ipc.OK},
			{Code: ipc.OK},
			{Code: ipc.Unreachable},
		},
	})
	assert.Equal(t, []mapview.Event{
		{Kind: mapview.EventDig, Pos: world.Pos(5, 64, 3), Tick: 7},
		{Kind: mapview.EventPlace, Pos: world.Pos(4, 64, 0), Block: "minecraft:dirt", Tick: 7},
	}, tr.events, "what was dug and placed, not what failed or never ran")
	require.NotNil(t, tr.yaw)
	assert.InDelta(t, 90, *tr.yaw, 1e-9, "last it placed west of where the move ended (5, 64, 0)")
	assert.Equal(t, "west", compass(*tr.yaw))
	require.NotNil(t, tr.move)
	assert.Equal(t, lastMove{from: world.Pos(0, 64, 0), target: world.Pos(5, 64, 0), radius: 1}, *tr.move)

	tr.step(loop.StepRecord{
		Before:  loop.Summary{Pos: world.Pos(5, 64, 0)},
		Actions: []action.Envelope{env1(action.MoveTo{Pos: world.Pos(5, 64, 9)})},
		Results: []ipc.Result{{Code: ipc.OK, Details: map[string]any{"to": world.Pos(5, 64, 8)}}},
	})
	assert.Equal(t, "south", compass(*tr.yaw))
	tr.face(world.Pos(0, 0, 0), world.Pos(4, 0, 0))
	assert.Equal(t, "east", compass(*tr.yaw))
	tr.face(world.Pos(0, 0, 0), world.Pos(0, 0, -4))
	assert.Equal(t, "north", compass(*tr.yaw))
	tr.face(world.Pos(0, 0, 0), world.Pos(0, 9, 0))
	assert.Equal(t, "north", compass(*tr.yaw), "straight up or down keeps the facing")
}

func TestMapTrackerKeepsTheLatestEvents(t *testing.T) {
	tr := &mapTracker{}
	for i := range mapview.MaxMarkers + 3 {
		tr.step(loop.StepRecord{Actions: []action.Envelope{env1(action.BreakBlock{Pos: world.Pos(i, 0, 0)})}, Results: []ipc.Result{{Code: ipc.OK}}})
	}
	require.Len(t, tr.events, mapview.MaxMarkers)
	assert.Equal(t, 3, tr.events[0].Pos.X)
	assert.Equal(t, mapview.MaxMarkers+2, tr.events[len(tr.events)-1].Pos.X)
}

func TestMapFlagsBounds(t *testing.T) {
	ok := []mapFlags{
		{radius: 1024, scale: 1, maxY: -1},
		{radius: 1, scale: 32, maxY: 0},
		{radius: 127, scale: 32, maxY: 255, center: " -30000000 , 30000000"},
		{radius: 1024, scale: 32, maxY: -1, asJSON: true},
	}
	for _, f := range ok {
		assert.NoError(t, f.check("map", ""), "%+v", f)
	}
	bad := []mapFlags{
		{radius: 1025, scale: 1, maxY: -1},
		{radius: 0, scale: 1, maxY: -1},
		{radius: 128, scale: 32, maxY: -1},
		{radius: 1, scale: 0, maxY: -1},
		{radius: 1, scale: 1, maxY: -2},
		{radius: 1, scale: 1, maxY: 256},
		{radius: 1025, scale: 1, maxY: -1, asJSON: true},
		{radius: 1, scale: 1, maxY: -1, center: "30000001,0"},
		{radius: 1, scale: 1, maxY: -1, center: "-30000001,0"},
		{radius: 1, scale: 1, maxY: -1, center: "0,30000001"},
		{radius: 1, scale: 1, maxY: -1, center: "0,-30000001"},
		{radius: 1, scale: 1, maxY: -1, center: "1;2"},
	}
	for _, f := range bad {
		assert.Error(t, f.check("map", ""), "%+v", f)
	}
	f := mapFlags{radius: 1, scale: 1, maxY: -1, center: "-7,12"}
	require.NoError(t, f.check("map", ""))
	assert.Equal(t, [3]any{-7, 12, true}, [3]any{f.centerX, f.centerZ, f.hasCenter})
}
