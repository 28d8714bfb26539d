package ipctest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/ipctest"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/planner/peer"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/sim"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base" // provides the Go skills
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// The default scenario's fixtures: the player starts at (24, 64, 32); a
// tree stands at (27, 36).
var (
	simWalk  = world.Pos(26, 64, 36)
	simBreak = world.Pos(27, 64, 36)
	simOpts  = ipctest.Options{Walk: &simWalk, Break: &simBreak}
)

func newSim(t testing.TB) *sim.Sim {
	t.Helper()
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return w
}

func TestSimInProcess(t *testing.T) {
	ipctest.TestBody(t, func(t *testing.T) ipc.Conn { return ipc.InProcess(newSim(t)) }, simOpts)
}

// serveSim starts a server for a fresh default-scenario sim and stops it
// when the test ends.
func serveSim(t *testing.T) *remote.Server {
	t.Helper()
	srv, err := remote.NewServer(remote.ServerOptions{Body: newSim(t), Log: zerolog.Nop()})
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	return srv
}

func TestRemoteOverUnixSocket(t *testing.T) {
	ipctest.TestBody(t, func(t *testing.T) ipc.Conn {
		srv := serveSim(t)
		dir, err := os.MkdirTemp("", "ipctest")
		require.NoError(t, err)
		t.Cleanup(func() { os.RemoveAll(dir) })
		a := wire.Addr{Network: "unix", Address: filepath.Join(dir, "body.sock")}
		l, err := wire.Listen(a, wire.ListenOptions{})
		require.NoError(t, err)
		go srv.Serve(l)
		ctx, cancel := testdeadline.WithCancel(t, "the dial")
		defer cancel()
		c, err := remote.Dial(ctx, a.String(), remote.ClientOptions{Name: "ipctest"})
		require.NoError(t, err)
		return c
	}, simOpts)
}

func TestRemoteOverPipes(t *testing.T) {
	ipctest.TestBody(t, func(t *testing.T) ipc.Conn {
		srv := serveSim(t)
		client, server := ipctest.Pipes(t)
		go srv.ServeConn(server)
		ctx, cancel := testdeadline.WithCancel(t, "the client's hello")
		defer cancel()
		c, err := remote.NewClient(ctx, client, remote.ClientOptions{Name: "ipctest"})
		require.NoError(t, err)
		return c
	}, simOpts)
}

// partial is a sim that declares only some kinds: the suite checks that the
// others are refused as unsupported, in process and over the wire.
type partial struct{ *sim.Sim }

func (p partial) Info() ipc.Info {
	return ipc.Info{Name: "partial", Supports: []action.Kind{action.KindMoveTo, action.KindBreakBlock, action.KindWait}}
}

func TestPartialBody(t *testing.T) {
	t.Run("InProcess", func(t *testing.T) {
		ipctest.TestBody(t, func(t *testing.T) ipc.Conn { return ipc.InProcess(partial{newSim(t)}) }, simOpts)
	})
	t.Run("Remote", func(t *testing.T) {
		ipctest.TestBody(t, func(t *testing.T) ipc.Conn {
			srv, err := remote.NewServer(remote.ServerOptions{Body: partial{newSim(t)}, Log: zerolog.Nop()})
			require.NoError(t, err)
			t.Cleanup(func() { srv.Close() })
			client, server := ipctest.Pipes(t)
			go srv.ServeConn(server)
			c, err := remote.NewClient(context.Background(), client, remote.ClientOptions{Name: "ipctest"})
			require.NoError(t, err)
			return c
		}, simOpts)
	})
}

func registryOf(t *testing.T) *registry.Registry {
	t.Helper()
	reg, err := registry.LoadConfig(config.FS, registry.Options{})
	require.NoError(t, err)
	require.NoError(t, reg.RegisterProvided())
	require.NoError(t, reg.Finalize())
	return reg
}

// plannerCases asks about the default scenario's start with a few goals.
func plannerCases(t *testing.T, reg *registry.Registry) []ipctest.PlannerCase {
	t.Helper()
	snap, err := newSim(t).Observe(context.Background())
	require.NoError(t, err)
	var out []ipctest.PlannerCase
	for _, text := range []string{"collect 4 minecraft:log", "have 4 ore:plankWood", "reach steam_age", "have 1 minecraft:bucket"} {
		g, err := loop.ParseGoal(text, reg.Tiers())
		require.NoError(t, err)
		g = g.Anchor(snap)
		out = append(out, ipctest.PlannerCase{Name: text, Goal: g,
			Observation: loop.Observation{Step: 1, Snapshot: snap, Progress: g.Check(snap, reg.Tiers(), false)}})
	}
	return out
}

func TestGoalPlanner(t *testing.T) {
	reg := registryOf(t)
	ipctest.TestPlanner(t, func(t *testing.T) loop.Planner { return chain.Planner{} }, plannerCases(t, reg), ipctest.PlannerOptions{Registry: reg})
}

func TestScriptedPlanner(t *testing.T) {
	reg := registryOf(t)
	for _, steps := range [][]loop.Invocation{
		nil, // done at once
		{{Skill: "chop_tree", Params: map[string]any{"min_logs": 2}}},
	} {
		ipctest.TestPlanner(t, func(t *testing.T) loop.Planner { return script.New(steps...) }, plannerCases(t, reg), ipctest.PlannerOptions{Registry: reg})
	}
}

// TestRemotePlanner: a planner in another process (peer.Planner talking
// to a peer.PlannerServer over OS pipes) keeps the planner contract, and
// decides what the planner it serves decides in process.
func TestRemotePlanner(t *testing.T) {
	reg := registryOf(t)
	remoteOf := func(t *testing.T, inner loop.Planner) loop.Planner {
		srv, err := peer.NewPlannerServer(peer.PlannerServerOptions{Planner: inner, Name: "scripted"})
		require.NoError(t, err)
		agentSide, plannerSide := ipctest.Pipes(t)
		go srv.ServeConn(plannerSide)
		ctx, cancel := testdeadline.WithCancel(t, "the client's hello")
		defer cancel()
		c, err := remote.NewClient(ctx, agentSide, remote.ClientOptions{Name: "test"})
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		p, err := peer.NewPlanner(c, peer.PlannerOptions{Timeout: 5 * time.Second})
		require.NoError(t, err)
		return p
	}
	for _, steps := range [][]loop.Invocation{
		nil, // done at once
		{{Skill: "chop_tree", Params: map[string]any{"min_logs": 2}}},
	} {
		ipctest.TestPlanner(t, func(t *testing.T) loop.Planner { return remoteOf(t, script.New(steps...)) },
			plannerCases(t, reg), ipctest.PlannerOptions{Registry: reg})
		for _, tc := range plannerCases(t, reg) {
			catalog, err := reg.DescribeForTechState(tc.Observation.Snapshot.TechState, nil)
			require.NoError(t, err)
			want, err := script.New(steps...).Plan(context.Background(), tc.Goal, tc.Observation, catalog)
			require.NoError(t, err)
			got, err := remoteOf(t, script.New(steps...)).Plan(context.Background(), tc.Goal, tc.Observation, catalog)
			require.NoError(t, err)
			assert.Equal(t, want.Done, got.Done, tc.Name)
			if want.Invocation != nil {
				require.NotNil(t, got.Invocation, tc.Name)
				assert.Equal(t, want.Invocation.String(), got.Invocation.String(), tc.Name)
			}
		}
	}
}
