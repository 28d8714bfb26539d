package main

import (
	"context"
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

// fakeBody answers an observation with a snapshot and each action with a
// result: a move ends where it was going.
type fakeBody struct {
	ipc.Body
	snap *world.Snapshot
}

func (f fakeBody) Observe(context.Context) (*world.Snapshot, error) { return f.snap, nil }

func (f fakeBody) Execute(_ context.Context, a action.Action) ipc.Result {
	if m, ok := a.(action.MoveTo); ok {
		return ipc.Result{Code: ipc.OK, Details: map[string]any{"to": m.Pos}}
	}
	return ipc.Result{Code: ipc.OK}
}

// TestMapBodyFollowsAServedBody: agent serve's tracker takes each action
// as a client has the body execute it: a move starts where the last
// observation showed the player, the next where the move before ended,
// without an observation between; digs are marked with the observation's
// tick.
func TestMapBodyFollowsAServedBody(t *testing.T) {
	tr := &mapTracker{}
	b := mapBody(fakeBody{snap: &world.Snapshot{Tick: 40, Player: world.Player{Pos: world.Vec3{X: 0.5, Y: 64, Z: 0.5}}}}, tr)
	ctx := context.Background()
	_, err := b.Observe(ctx)
	require.NoError(t, err)
	b.Execute(ctx, action.MoveTo{Pos: world.Pos(5, 64, 0), Radius: 1})
	require.NotNil(t, tr.move)
	assert.Equal(t, world.Pos(0, 64, 0), tr.move.from, "from the observation")
	b.Execute(ctx, action.MoveTo{Pos: world.Pos(9, 64, 2), Radius: 1})
	assert.Equal(t, world.Pos(5, 64, 0), tr.move.from, "from where the move before ended")
	b.Execute(ctx, action.BreakBlock{Pos: world.Pos(9, 64, 3)})
	require.Len(t, tr.events, 1)
	assert.Equal(t, mapview.Event{Kind: mapview.EventDig, Pos: world.Pos(9, 64, 3), Tick: 40}, tr.events[0])
	require.NotNil(t, tr.yaw, "facing the dig")
	assert.InDelta(t, 0, *tr.yaw, 0.01, "south, +z")
}
