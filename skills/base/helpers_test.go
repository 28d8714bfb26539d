package base

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// at is the feet position of a player standing in block (x, y, z).
func at(x, y, z int) world.Vec3 {
	return world.Vec3{X: float64(x) + 0.5, Y: float64(y), Z: float64(z) + 0.5}
}

// snap builds a snapshot of a player in the overworld at steam_age.
func snap(feet world.Vec3, blocks *world.SparseBlocks, inv world.Inventory, machines ...world.Machine) *world.Snapshot {
	if blocks == nil {
		blocks = world.NewSparseBlocks()
	}
	if inv.Slots == nil {
		inv = world.NewInventory()
	}
	return &world.Snapshot{
		Tick:      100,
		Player:    world.Player{Name: "Bot", Pos: feet, Dimension: world.Overworld, Health: 20, Food: 20},
		Inventory: inv,
		Blocks:    blocks,
		Machines:  machines,
		TechState: "steam_age",
	}
}

// ground fills y with grass over the square from (x0, z0) to (x1, z1).
func ground(b *world.SparseBlocks, y, x0, z0, x1, z1 int) *world.SparseBlocks {
	for x := x0; x <= x1; x++ {
		for z := z0; z <= z1; z++ {
			b.SetID(world.Pos(x, y, z), "minecraft:grass", 0)
		}
	}
	return b
}

func stack(id string, meta, count int) world.ItemStack { return world.NewStack(id, meta, count) }

// fullInventory is 36 slots of the given stacks followed by stacks of dirt.
func fullInventory(stacks ...world.ItemStack) world.Inventory {
	inv := world.NewInventory(stacks...)
	for i := len(stacks); i < len(inv.Slots); i++ {
		inv.Slots[i] = stack("minecraft:dirt", 0, 64)
	}
	return inv
}

func pos(x, y, z int) *world.BlockPos { p := world.Pos(x, y, z); return &p }

// requireFailure asserts err is a *skills.Failure with the code and returns it.
func requireFailure(t *testing.T, err error, code skills.Code) *skills.Failure {
	t.Helper()
	require.Error(t, err)
	var f *skills.Failure
	require.True(t, errors.As(err, &f), "want *skills.Failure, got %T: %v", err, err)
	require.Equal(t, code, f.Code, "failure: %v", err)
	return f
}

var (
	specsOnce sync.Once
	specsByID map[string]*skills.Spec
	specsErr  error
)

// spec returns the shipped spec of a skill (config/skills/<name>.yaml).
func spec(t *testing.T, name string) *skills.Spec {
	t.Helper()
	specsOnce.Do(func() {
		var list []*skills.Spec
		list, specsErr = skills.LoadDir(config.FS, "skills")
		specsByID = map[string]*skills.Spec{}
		for _, s := range list {
			specsByID[s.Name] = s
		}
	})
	s, ok := specsByID[name]
	if !ok {
		require.NoError(t, specsErr, "loading config/skills")
		t.Fatalf("no spec %q in config/skills", name)
	}
	return s
}

// run resolves raw parameters against the shipped spec and runs impl.
func run(t *testing.T, impl skills.Implementation, w *world.Snapshot, raw map[string]any) ([]action.Action, error) {
	t.Helper()
	p, err := spec(t, impl.Name()).ResolveParams(raw)
	require.NoError(t, err, "params %v", raw)
	return impl.SuggestActions(w, p)
}

// checkActions asserts the contract every emitted action list must meet:
// kinds declared in the spec's emits, Validate passes, the wire form round
// trips, and the snapshot is untouched and the output deterministic.
func checkActions(t *testing.T, impl skills.Implementation, w *world.Snapshot, raw map[string]any) []action.Action {
	t.Helper()
	before, err := json.Marshal(w)
	require.NoError(t, err)
	acts, err := run(t, impl, w, raw)
	require.NoError(t, err)
	emits := spec(t, impl.Name()).EmitSet()
	for i, a := range acts {
		require.True(t, emits.Has(a.Kind()), "action %d (%s) is not in %s's emits %v", i, a.Kind(), impl.Name(), emits.Sorted())
		require.NoError(t, a.Validate(), "action %d (%s)", i, a.Kind())
		data, err := action.Marshal(a)
		require.NoError(t, err)
		back, err := action.Unmarshal(data)
		require.NoError(t, err, "action %d: %s", i, data)
		require.Equal(t, a, back, "action %d round trip", i)
	}
	again, err := run(t, impl, w, raw)
	require.NoError(t, err)
	require.Equal(t, acts, again, "same input must give the same actions")
	after, err := json.Marshal(w)
	require.NoError(t, err)
	require.JSONEq(t, string(before), string(after), "the snapshot must not change")
	return acts
}

// kinds lists the kinds of actions.
func kinds(acts []action.Action) []action.Kind {
	out := make([]action.Kind, len(acts))
	for i, a := range acts {
		out[i] = a.Kind()
	}
	return out
}
