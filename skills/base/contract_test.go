package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// implementations are the skills of this package.
var implementations = []skills.Implementation{
	BasicCrafting{}, BuildStructure{}, ChopTree{}, FeedCokeOvens{}, FeedSteamBoiler{},
	MaintainCokeOvens{}, PlantSapling{}, RefillWaterTanks{},
}

type scenario struct {
	name string
	impl skills.Implementation
	w    *world.Snapshot
	raw  map[string]any
}

// scenarios are typical worlds in which each skill has work to do; together
// they exercise every action kind each spec declares.
func scenarios() []scenario {
	none := world.ItemStack{}
	coal := stack("minecraft:coal", 0, 32)
	trees := forest([3]int{5, 8, 0}, [3]int{-5, 4, 3})
	pool := ground(world.NewSparseBlocks(), 63, -3, -3, 3, 3).
		SetID(world.Pos(-6, 63, 0), "minecraft:water", 0).
		SetID(world.Pos(-6, 63, 1), "minecraft:water", 0)
	return []scenario{
		{"chop by hand", ChopTree{}, snap(at(0, 64, 0), trees, world.Inventory{}), nil},
		{"chop with an axe", ChopTree{}, snap(at(0, 64, 0), trees, world.NewInventory(stack("minecraft:dirt", 0, 1), world.NewTool("minecraft:stone_axe", 0, 90, 131))), map[string]any{"min_logs": 12}},
		{"plant", PlantSapling{}, snap(at(0, 64, 0), ground(world.NewSparseBlocks(), 63, -4, -4, 4, 4), world.NewInventory(stack("minecraft:sapling", 0, 4))), map[string]any{"count": 4}},
		{"craft planks", BasicCrafting{}, snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 4))), map[string]any{"item": "minecraft:planks", "count": 8}},
		{"craft a chest at a table", BasicCrafting{}, snap(at(0, 64, 0), world.NewSparseBlocks().SetID(world.Pos(2, 64, 2), "minecraft:crafting_table", 0), world.NewInventory(stack("minecraft:planks", 0, 8), stack("minecraft:log", 0, 4), stack("minecraft:flint", 0, 1))), map[string]any{"item": "minecraft:chest"}},
		{"craft a chest placing a table", BasicCrafting{}, snap(at(0, 64, 0), ground(world.NewSparseBlocks(), 63, -1, -1, 1, 1), world.NewInventory(stack("minecraft:planks", 0, 8), stack("minecraft:log", 0, 4), stack("minecraft:flint", 0, 1), stack("minecraft:crafting_table", 0, 1))), map[string]any{"item": "minecraft:chest"}},
		{"build a coke oven", BuildStructure{}, snap(at(0, 64, 0), ground(world.NewSparseBlocks(), 63, -6, -6, 6, 6), world.NewInventory(stack("Railcraft:machine.alpha", 7, 26))), map[string]any{"name": "coke_oven", "pos": "2,64,2"}},
		{"feed coke ovens", FeedCokeOvens{}, snap(at(0, 64, 0), nil, world.NewInventory(coal), cokeOven(3, 64, 0, true, none, none, 0), cokeOven(0, 64, 5, true, stack("minecraft:coal", 0, 3), none, 0)), nil},
		{"maintain coke ovens", MaintainCokeOvens{}, snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:bucket", 0, 3)), cokeOven(3, 64, 0, true, none, stack("Railcraft:fuel.coke", 0, 30), 60000)), nil},
		{"feed boilers", FeedSteamBoiler{}, snap(at(0, 64, 0), nil, world.NewInventory(coal), boiler(3, 64, 0, 12000, 400, none), boiler(0, 64, 4, 0, 400, none)), nil},
		{"refill a boiler with cells", RefillWaterTanks{}, snap(at(0, 64, 0), pool, world.NewInventory(stack("IC2:itemCellEmpty", 1, 2)), boiler(0, 64, 4, 1000, 150, none)), nil},
		{"refill water", RefillWaterTanks{}, snap(at(0, 64, 0), pool, world.NewInventory(stack("minecraft:water_bucket", 0, 1), stack("minecraft:bucket", 0, 2)), tank(3, 64, 0, 0, 16000), boiler(0, 64, 4, 0, 450, none)), nil},
	}
}

func TestProvidedMatchesShippedSpecs(t *testing.T) {
	provided := map[string]skills.Implementation{}
	for _, impl := range registry.Provided() {
		provided[impl.Name()] = impl
	}
	for _, impl := range implementations {
		t.Run(impl.Name(), func(t *testing.T) {
			got, ok := provided[impl.Name()]
			require.True(t, ok, "%s is not provided to the registry", impl.Name())
			assert.IsType(t, impl, got)
			s := spec(t, impl.Name())
			assert.Equal(t, skills.ImplGo, s.Implementation)
			assert.Equal(t, skills.StatusActive, s.Status)
			assert.Equal(t, "config/skills/"+impl.Name()+".yaml", "config/"+s.File)
			assert.NotEmpty(t, s.Description)
		})
	}
}

func TestEveryEmitIsDeclaredAndUsed(t *testing.T) {
	used := map[string]action.KindSet{}
	for _, sc := range scenarios() {
		t.Run(sc.impl.Name()+"/"+sc.name, func(t *testing.T) {
			acts := checkActions(t, sc.impl, sc.w, sc.raw)
			require.NotEmpty(t, acts)
			if used[sc.impl.Name()] == nil {
				used[sc.impl.Name()] = action.KindSet{}
			}
			for _, a := range acts {
				used[sc.impl.Name()][a.Kind()] = struct{}{}
			}
		})
	}
	for _, impl := range implementations {
		declared := spec(t, impl.Name()).EmitSet()
		assert.Equal(t, declared.Sorted(), used[impl.Name()].Sorted(),
			"%s: the scenarios should exercise exactly the declared emits", impl.Name())
	}
}

func TestDeterministic(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.impl.Name()+"/"+sc.name, func(t *testing.T) {
			first, err := run(t, sc.impl, sc.w, sc.raw)
			require.NoError(t, err)
			for range 20 {
				again, err := run(t, sc.impl, sc.w, sc.raw)
				require.NoError(t, err)
				require.Equal(t, first, again)
			}
			// The same world built again (fresh maps) gives the same plan.
			for _, other := range scenarios() {
				if other.name == sc.name {
					again, err := run(t, other.impl, other.w, other.raw)
					require.NoError(t, err)
					require.Equal(t, first, again)
				}
			}
		})
	}
}

// TestDefaultsMatchSpec checks the fallbacks the code uses for absent
// parameters against the spec defaults.
func TestDefaultsMatchSpec(t *testing.T) {
	for _, sc := range scenarios() {
		if sc.raw != nil {
			continue
		}
		t.Run(sc.impl.Name()+"/"+sc.name, func(t *testing.T) {
			want, wantErr := run(t, sc.impl, sc.w, nil)
			got, gotErr := sc.impl.SuggestActions(sc.w, skills.Params{})
			assert.Equal(t, wantErr, gotErr)
			assert.Equal(t, want, got)
		})
	}
	for _, impl := range implementations {
		s := spec(t, impl.Name())
		defaults, err := s.ResolveParams(map[string]any{})
		if impl.Name() == "basic_crafting" || impl.Name() == "build_structure" {
			require.Error(t, err, "item and name have no default")
			continue
		}
		require.NoError(t, err)
		for _, name := range s.ParamNames() {
			assert.NotNil(t, defaults[name], "%s.%s has a default", impl.Name(), name)
		}
	}
}

// TestThroughTheRegistry runs every scenario the way the loop does: the
// shipped config, the provided implementations, preconditions and the emit
// check of the registry.
func TestThroughTheRegistry(t *testing.T) {
	r, err := registry.LoadConfig(config.FS, registry.Options{})
	require.NoError(t, err)
	require.NoError(t, r.RegisterProvided())
	require.NoError(t, r.Finalize())
	for _, sc := range scenarios() {
		t.Run(sc.impl.Name()+"/"+sc.name, func(t *testing.T) {
			sk, err := r.GetSkill(sc.impl.Name())
			require.NoError(t, err)
			sug, err := sk.Suggest(sc.w, sc.raw)
			require.NoError(t, err)
			want, err := run(t, sc.impl, sc.w, sc.raw)
			require.NoError(t, err)
			assert.Equal(t, want, sug.Actions)
		})
	}
}

func TestSafetyAcrossSkills(t *testing.T) {
	// A hot boiler that ran dry: neither fuel nor water may go in.
	hotDry := boiler(3, 64, 0, 0, 800, world.ItemStack{})
	w := snap(at(0, 64, 0), world.NewSparseBlocks().SetID(world.Pos(-3, 63, 0), "minecraft:water", 0),
		world.NewInventory(stack("minecraft:coal", 0, 64), stack("minecraft:water_bucket", 0, 1), stack("minecraft:bucket", 0, 8)), hotDry)
	_, err := run(t, FeedSteamBoiler{}, w, nil)
	requireFailure(t, err, skills.CodeUnsafe)
	_, err = run(t, RefillWaterTanks{}, w, map[string]any{"min_fill": 1.0})
	requireFailure(t, err, skills.CodeUnsafe)

	// Once it has cooled, water first, then fuel.
	cold := hotDry
	cold.Temperature = 25
	w = snap(at(0, 64, 0), w.Blocks.(*world.SparseBlocks), w.Inventory, cold)
	acts, err := run(t, RefillWaterTanks{}, w, nil)
	require.NoError(t, err)
	assert.NotEmpty(t, acts)
	_, err = run(t, FeedSteamBoiler{}, w, nil)
	requireFailure(t, err, skills.CodeUnsafe)
}

// TestSpecPreconditionsGate checks the spec-level gates the registry applies
// before any shipped skill runs: the wrong dimension, a tier too low, a
// missing required tool, nothing to work on, for Go and template skills alike.
func TestSpecPreconditionsGate(t *testing.T) {
	r, err := registry.LoadConfig(config.FS, registry.Options{})
	require.NoError(t, err)
	require.NoError(t, r.RegisterProvided())
	require.NoError(t, r.Finalize())

	trees := forest([3]int{5, 8, 0})
	pool := world.NewSparseBlocks().SetID(world.Pos(-4, 63, 0), "minecraft:water", 0)
	inNether := snap(at(0, 64, 0), trees, world.Inventory{})
	inNether.Player.Dimension = world.Nether
	stone := func(w *world.Snapshot) *world.Snapshot { w.TechState = "stone_age"; return w }
	steam := func(w *world.Snapshot) *world.Snapshot { return w } // snap's default tier
	none := world.ItemStack{}

	tests := []struct {
		skill string
		w     *world.Snapshot
		raw   map[string]any
		code  skills.Code // "" = must succeed with actions
	}{
		{"chop_tree", inNether, nil, skills.CodeWrongDimension},
		{"chop_tree", snap(at(0, 64, 0), world.NewSparseBlocks(), world.Inventory{}), nil, skills.CodeNoTarget},
		{"chop_tree", snap(at(0, 64, 0), trees, world.Inventory{}), map[string]any{"require_axe": true}, skills.CodeMissingTool},
		{"chop_tree", snap(at(0, 64, 0), trees, world.Inventory{}), map[string]any{"radius": 0}, skills.CodeInvalidParams},
		{"feed_steam_boiler", stone(snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:coal", 0, 8)), boiler(3, 64, 0, 8000, 300, none))), nil, skills.CodeTierMismatch},
		{"feed_steam_boiler", steam(snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:coal", 0, 8)), boiler(3, 64, 0, 8000, 300, none))), nil, ""},
		{"fill_bucket", steam(snap(at(0, 64, 0), pool, world.Inventory{})), nil, skills.CodeMissingTool},
		{"fill_bucket", steam(snap(at(0, 64, 0), world.NewSparseBlocks(), world.NewInventory(stack("minecraft:bucket", 0, 1)))), nil, skills.CodeNoTarget},
		{"fill_bucket", steam(snap(at(0, 64, 0), pool, world.NewInventory(stack("minecraft:bucket", 0, 1)))), nil, ""},
		{"mine_block", snap(at(0, 64, 0), trees, world.Inventory{}), map[string]any{"target": "minecraft:gravel"}, skills.CodeNoTarget},
		{"mine_block", snap(at(0, 64, 0), trees, world.Inventory{}), map[string]any{"target": "minecraft:log"}, ""},
		{"mine_block", snap(at(0, 64, 0), trees, world.Inventory{}), nil, skills.CodeInvalidParams},
		{"report_status", inNether, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.skill+"/"+string(tc.code), func(t *testing.T) {
			sk, err := r.GetSkill(tc.skill)
			require.NoError(t, err)
			sug, err := sk.Suggest(tc.w, tc.raw)
			if tc.code == "" {
				require.NoError(t, err)
				assert.NotEmpty(t, sug.Actions)
				return
			}
			f := requireFailure(t, err, tc.code)
			assert.Equal(t, tc.skill+"@1", f.Skill)
		})
	}
}
