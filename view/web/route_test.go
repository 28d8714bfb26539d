package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/view/web"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// The bodies that tell their routes: the simulator and the game client.
var (
	_ web.RouteSource = (*sim.Sim)(nil)
	_ web.RouteSource = (*gtnh.Client)(nil)
)

// stateOf is the view's /api/state.
func stateOf(t *testing.T, v *web.View) web.State {
	t.Helper()
	w := get(t, v.Handler(web.ServeOptions{}), "/api/state")
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	var st web.State
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &st))
	return st
}

func cells(steps []path.Step) []world.BlockPos {
	out := make([]world.BlockPos, len(steps))
	for i, s := range steps {
		out[i] = s.Pos
	}
	return out
}

// TestTheRouteDrawnIsTheSimulatorsOwn: after a move_to in the simulated
// world, the route on the map is the one the simulator planned and
// walked, cell for cell.
func TestTheRouteDrawnIsTheSimulatorsOwn(t *testing.T) {
	w := newSim(t)
	v := web.New(web.Options{World: w})
	conn := v.Conn(ipc.InProcess(w))
	ctx := context.Background()
	snap, err := conn.Observe(ctx)
	require.NoError(t, err)
	target := snap.Feet().Add(6, 0, 3)
	res, err := conn.Execute(ctx, action.MoveTo{Pos: target, Radius: 1})
	require.NoError(t, err)
	require.True(t, res.OK(), res.Error)
	seq, steps := w.PlannedRoute()
	require.Equal(t, uint64(1), seq)
	st := stateOf(t, v)
	require.NotNil(t, st.Move)
	assert.Equal(t, "body", st.Move.PlannedBy)
	assert.Equal(t, cells(steps), st.Move.Path)
	assert.True(t, st.Move.Complete)
	assert.Equal(t, "ok", st.Move.Code)
}

// routedWorld is a world whose body tells a route of its own: one the
// view's search would never find (a detour), to tell the two apart.
type routedWorld struct {
	*sim.Sim
	seq   uint64
	steps []path.Step
}

func (r *routedWorld) PlannedRoute() (uint64, []path.Step) { return r.seq, r.steps }

// plainWorld is a world that tells no route (as a body across the IPC).
type plainWorld struct{ s *sim.Sim }

func (p plainWorld) State() *world.State { return p.s.State() }

// TestTheRouteDrawnIsTheBodys: the route drawn is the body's latest one
// planned since the move started, not the view's search: none while the
// move has planned none, the body's detour once it has, a re-plan when it
// re-plans; a body that tells none gets the view's own search.
func TestTheRouteDrawnIsTheBodys(t *testing.T) {
	w := newSim(t)
	feet := w.State().Snapshot().Feet()
	target := feet.Add(3, 0, 0)
	rw := &routedWorld{Sim: w, seq: 5, steps: []path.Step{{Pos: feet}}} // a route of an earlier move
	v := web.New(web.Options{World: rw})
	ctx := context.Background()
	var planned []path.Step
	for i := range 4 {
		planned = append(planned, path.Step{Pos: feet.Add(i, 0, 2)}) // a detour two blocks south
	}
	planned = append(planned, path.Step{Pos: target})
	started := make(chan struct{})
	replan := make(chan struct{})
	done := make(chan struct{})
	body := fakeBody{execute: func(context.Context, action.Action) (ipc.Result, error) {
		close(started)
		<-replan
		return ipc.Result{Code: ipc.OK}, nil
	}}
	go func() {
		defer close(done)
		_, _ = v.Conn(body).Execute(ctx, action.MoveTo{Pos: target})
	}()
	<-started
	st := stateOf(t, v)
	require.NotNil(t, st.Move)
	assert.Empty(t, st.Move.Path, "the move has planned no route yet: the earlier move's is not drawn")
	rw.seq, rw.steps = 6, planned
	st = stateOf(t, v)
	assert.Equal(t, cells(planned), st.Move.Path, "the body's route, not the view's straight search")
	assert.Equal(t, "body", st.Move.PlannedBy)
	assert.True(t, st.Move.Complete, "it ends at the target")
	rw.seq, rw.steps = 7, planned[2:4]
	st = stateOf(t, v)
	assert.Equal(t, cells(planned[2:4]), st.Move.Path, "the re-plan")
	assert.False(t, st.Move.Complete, "a segment short of the target")
	close(replan)
	<-done

	pv := web.New(web.Options{World: plainWorld{w}})
	_, err := pv.Conn(ipc.InProcess(w)).Observe(ctx) // where the move starts
	require.NoError(t, err)
	_, err = pv.Conn(fakeBody{execute: func(context.Context, action.Action) (ipc.Result, error) {
		return ipc.Result{Code: ipc.OK}, nil
	}}).Execute(ctx, action.MoveTo{Pos: target})
	require.NoError(t, err)
	st = stateOf(t, pv)
	require.NotNil(t, st.Move)
	assert.Equal(t, "view", st.Move.PlannedBy)
	want, complete := web.Route(w.State().Snapshot(), feet, target, 0)
	require.NotEmpty(t, want)
	assert.Equal(t, want, st.Move.Path)
	assert.Equal(t, complete, st.Move.Complete)
}

// fakeBody is an ipc.Conn whose Execute is a function.
type fakeBody struct {
	ipc.Conn
	execute func(context.Context, action.Action) (ipc.Result, error)
}

func (b fakeBody) Execute(ctx context.Context, a action.Action) (ipc.Result, error) {
	return b.execute(ctx, a)
}
