package memory_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/memory"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// poolWorld: a flat plain with liquids on, the bot holding dirt walled in
// a pocket at (4, 64, 8), and a pool three deep at (12, 61..63, 8).
func poolWorld(t *testing.T) *sim.Sim {
	t.Helper()
	blocks := ""
	for y := 61; y <= 63; y++ {
		blocks += fmt.Sprintf("\n  - {block: \"minecraft:water\", pos: [12, %d, 8]}", y)
	}
	for _, p := range [][3]int{{4, 66, 8}, {3, 64, 8}, {5, 64, 8}, {4, 64, 7}, {4, 64, 9}, {3, 65, 8}, {5, 65, 8}, {4, 65, 7}, {4, 65, 9}} {
		blocks += fmt.Sprintf("\n  - {block: \"minecraft:cobblestone\", pos: [%d, %d, %d]}", p[0], p[1], p[2])
	}
	sc, err := sim.ParseScenario("pool.yaml", []byte(`name: pool
seed: 9
size: {x: 24, z: 16}
generator: flat
ground_y: 63
liquids: true
player:
  pos: [4, 64, 8]
  inventory: [{item: "minecraft:dirt", count: 5}]
blocks: `+blocks+`
`))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s
}

// TestDeathsAndSheltersAreRemembered: a bot that drowns in the pool has
// its death remembered (where, why, the items it held), a bot walled in
// has the place remembered as a shelter, once; after a restart the file
// shows both and LastDeath gives the death.
func TestDeathsAndSheltersAreRemembered(t *testing.T) {
	file := filepath.Join(t.TempDir(), "memory.db")
	st, err := memory.Open(file, memory.Options{})
	require.NoError(t, err)
	s := poolWorld(t)
	conn := memory.Wrap(ipc.InProcess(s), st, "sim/pool/9", zerolog.Nop())
	ctx := context.Background()
	exec := func(a action.Action) ipc.Result {
		t.Helper()
		_, err := conn.Observe(ctx)
		require.NoError(t, err)
		r, err := conn.Execute(ctx, a)
		require.NoError(t, err)
		return r
	}
	for range 3 {
		exec(action.Wait{Ticks: 20}) // three looks walled in: one shelter
	}
	require.Equal(t, ipc.OK, exec(action.BreakBlock{Pos: world.Pos(5, 65, 8)}).Code, "out of the pocket")
	require.Equal(t, ipc.OK, exec(action.BreakBlock{Pos: world.Pos(5, 64, 8)}).Code)
	require.Equal(t, ipc.OK, exec(action.MoveTo{Pos: world.Pos(12, 61, 8)}).Code)
	r := exec(action.Wait{Ticks: 600})
	require.Equal(t, true, r.Details["died"], r.Error)
	_, err = conn.Observe(ctx)
	require.NoError(t, err)
	require.NoError(t, st.Close())

	st, err = memory.Open(file, memory.Options{})
	require.NoError(t, err)
	defer st.Close()
	p := memory.Place{Server: "sim/pool/9", Dimension: "overworld"}
	got, err := st.Show(p, 0)
	require.NoError(t, err)
	require.Len(t, got.Deaths, 1)
	d := got.Deaths[0]
	assert.Equal(t, world.Pos(12, 61, 8), d.Pos)
	assert.Equal(t, "the player drowned", d.Cause, "the death's cause, not the step's error")
	assert.Equal(t, 5, d.Items, "the dirt it held")
	assert.Zero(t, d.WorldAge, "the simulator knows no world age")
	require.Len(t, got.Shelters, 1, "%+v", got.Shelters)
	assert.Equal(t, world.Pos(4, 64, 8), got.Shelters[0].Pos)
	assert.Equal(t, 1, got.Summary.Shelters)
	assert.Equal(t, 1, got.Summary.Deaths)
	last, ok, err := st.LastDeath(p)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, d, last)
	forgot, err := st.Forget(p, memory.ForgetShelters, "")
	require.NoError(t, err)
	require.True(t, forgot)
	got, err = st.Show(p, 0)
	require.NoError(t, err)
	assert.Empty(t, got.Shelters)
	assert.Len(t, got.Deaths, 1, "the deaths stay")
}

// TestSheltersAreBounded: past MaxShelters the oldest shelter goes.
func TestSheltersAreBounded(t *testing.T) {
	st, err := memory.Open(filepath.Join(t.TempDir(), "memory.db"), memory.Options{MaxShelters: 2})
	require.NoError(t, err)
	defer st.Close()
	p := memory.Place{Server: "s", Dimension: "overworld"}
	for i := range 3 {
		added, err := st.RecordShelter(p, memory.Shelter{Pos: world.Pos(i, 64, 0), Tick: int64(i)})
		require.NoError(t, err)
		assert.True(t, added)
	}
	added, err := st.RecordShelter(p, memory.Shelter{Pos: world.Pos(2, 64, 0)})
	require.NoError(t, err)
	assert.False(t, added, "already remembered")
	got, err := st.Show(p, 0)
	require.NoError(t, err)
	var at []world.BlockPos
	for _, sh := range got.Shelters {
		at = append(at, sh.Pos)
	}
	assert.ElementsMatch(t, []world.BlockPos{world.Pos(1, 64, 0), world.Pos(2, 64, 0)}, at)
}

// TestRecoverReflexRemembersADeath: a death remembered from before the
// run is gone back to while the server's world age says its items last,
// and let go when it says they are gone or does not say.
func TestRecoverReflexRemembersADeath(t *testing.T) {
	w := &world.Snapshot{Tick: 10, WorldAge: 13000, Player: world.Player{Pos: world.Vec3{X: 0.5, Y: 64, Z: 0.5}}}
	at := world.Vec3{X: 20.5, Y: 64, Z: 0.5}
	for _, c := range []struct {
		name     string
		worldAge int64
		now      int64
		fires    bool
	}{
		{"1,000 ticks ago", 12000, 13000, true},
		{"just under the lifespan with the walk", 13000 - 6000 + 140, 13000, true},
		{"too long ago to walk there", 13000 - 6000 + 130, 13000, false},
		{"no world age then (the simulator)", 0, 3000, false},
		{"no world age now", 12000, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &loop.RecoverReflex{Remembered: &loop.RememberedDeath{At: at, Items: 3, WorldAge: c.worldAge}}
			w.WorldAge = c.now
			inv, why, ok := r.Fire(w)
			assert.Equal(t, c.fires, ok, why)
			if ok {
				assert.Equal(t, "recover_drops", inv.Skill)
				assert.Contains(t, why, "holding 3 items")
			}
		})
	}
}

// TestSheltersAreRecalledNearestFirst: the shelters within the distance,
// nearest first, up to k.
func TestSheltersAreRecalledNearestFirst(t *testing.T) {
	st, err := memory.Open(filepath.Join(t.TempDir(), "memory.db"), memory.Options{})
	require.NoError(t, err)
	defer st.Close()
	p := memory.Place{Server: "s", Dimension: "overworld"}
	none, err := st.Shelters(p, world.Pos(0, 64, 0), 16, 0)
	require.NoError(t, err)
	assert.Empty(t, none, "an unknown world remembers none")
	for _, x := range []int{30, 10, -5, 17} {
		_, err := st.RecordShelter(p, memory.Shelter{Pos: world.Pos(x, 64, 0)})
		require.NoError(t, err)
	}
	pos := func(shs []memory.Shelter) []world.BlockPos {
		var out []world.BlockPos
		for _, sh := range shs {
			out = append(out, sh.Pos)
		}
		return out
	}
	got, err := st.Shelters(p, world.Pos(0, 64, 0), 16, 0)
	require.NoError(t, err)
	assert.Equal(t, []world.BlockPos{world.Pos(-5, 64, 0), world.Pos(10, 64, 0)}, pos(got))
	got, err = st.Shelters(p, world.Pos(0, 64, 0), 10, 0)
	require.NoError(t, err)
	assert.Equal(t, []world.BlockPos{world.Pos(-5, 64, 0), world.Pos(10, 64, 0)}, pos(got), "one exactly 10 away is within 10")
	got, err = st.Shelters(p, world.Pos(0, 64, 0), 17, 1)
	require.NoError(t, err)
	assert.Equal(t, []world.BlockPos{world.Pos(-5, 64, 0)}, pos(got))
	got, err = st.Shelters(p, world.Pos(0, 64, 0), 0, 0)
	require.NoError(t, err)
	assert.Len(t, got, 4, "no bound on the distance")
}
