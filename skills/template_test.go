package skills

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func posPtr(x, y, z int) *world.BlockPos { p := world.Pos(x, y, z); return &p }

// snapshot returns a steam-age player standing on (0, 64, 0) in the overworld.
func snapshot(blocks world.BlockSource, machines ...world.Machine) *world.Snapshot {
	return &world.Snapshot{
		Tick:      1200,
		Player:    world.Player{Name: "agent", Pos: world.Vec3{X: 0.5, Y: 64, Z: 0.5}, Dimension: world.Overworld, Health: 20, Food: 20},
		Inventory: world.NewInventory(world.NewStack("minecraft:bucket", 0, 1)),
		Blocks:    blocks,
		Machines:  machines,
		TechState: "steam_age",
	}
}

func loadFixture(t *testing.T, name string) *Spec {
	t.Helper()
	spec, err := ParseSpec(name, readFixture(t, "specs/"+name))
	require.NoError(t, err)
	return spec
}

func parseSrc(t *testing.T, src string) *Spec {
	t.Helper()
	spec, err := ParseSpec("dig.yaml", []byte(src))
	require.NoError(t, err)
	return spec
}

func suggest(t *testing.T, spec *Spec, w *world.Snapshot, raw map[string]any) ([]action.Action, error) {
	t.Helper()
	p, err := spec.ResolveParams(raw)
	require.NoError(t, err)
	return Template{Spec: spec}.SuggestActions(w, p)
}

func requireFailure(t *testing.T, err error, code Code) *Failure {
	t.Helper()
	require.Error(t, err)
	var f *Failure
	require.True(t, errors.As(err, &f), "want *Failure, got %T: %v", err, err)
	assert.Equal(t, code, f.Code, "%v", f)
	return f
}

func TestTemplateStringTarget(t *testing.T) {
	spec := loadFixture(t, "fill_water_tank.yaml")
	tmpl := Template{Spec: spec}
	assert.Equal(t, "fill_water_tank", tmpl.Name())

	// Two water sources at d²=25 (the tie goes to the smaller Z), flowing
	// water nearer but not a source.
	water := func() *world.SparseBlocks {
		return world.NewSparseBlocks().
			SetID(world.Pos(0, 64, 5), "minecraft:water", 0).
			SetID(world.Pos(-5, 64, 0), "minecraft:water", 0).
			SetID(world.Pos(1, 64, 1), "minecraft:flowing_water", 0)
	}
	fill := func(tank world.BlockPos) []action.Action {
		return []action.Action{
			action.Equip{Item: "minecraft:bucket"},
			action.MoveTo{Pos: world.Pos(-5, 64, 0), Radius: 2},
			action.UseItem{Item: "minecraft:bucket", Target: posPtr(-5, 64, 0)},
			action.MoveTo{Pos: tank, Radius: 2},
			action.UseItem{Item: "minecraft:water_bucket", Target: &tank},
			action.Chat{Message: "agent filled the water_tank at " + spaced(tank) + " from 0 64 0"},
		}
	}
	tests := []struct {
		name     string
		blocks   *world.SparseBlocks
		machines []world.Machine
		tank     world.BlockPos
	}{
		{"machine kind nearer than tagged block",
			water().SetID(world.Pos(0, 64, -7), "minecraft:cauldron", 0),
			[]world.Machine{{Kind: world.MachineWaterTank, Pos: world.Pos(6, 64, 0)}},
			world.Pos(6, 64, 0)},
		{"tagged block nearer than machine",
			water().SetID(world.Pos(0, 64, -3), "minecraft:cauldron", 0),
			[]world.Machine{{Kind: world.MachineWaterTank, Pos: world.Pos(6, 64, 0)}},
			world.Pos(0, 64, -3)},
		{"tie: block wins by position",
			water().SetID(world.Pos(0, 64, -3), "minecraft:cauldron", 0),
			[]world.Machine{{Kind: world.MachineWaterTank, Pos: world.Pos(3, 64, 0)}},
			world.Pos(0, 64, -3)},
		{"tie: machine wins by position",
			water().SetID(world.Pos(3, 64, 0), "minecraft:cauldron", 0),
			[]world.Machine{{Kind: world.MachineWaterTank, Pos: world.Pos(-3, 64, 0)}},
			world.Pos(-3, 64, 0)},
		{"block with tag from the tag table (BuildCraft tank)",
			water().SetID(world.Pos(2, 65, 2), "BuildCraft|Factory:tankBlock", 0),
			nil,
			world.Pos(2, 65, 2)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			acts, err := suggest(t, spec, snapshot(tc.blocks, tc.machines...), nil)
			require.NoError(t, err)
			assert.Equal(t, fill(tc.tank), acts)
			for _, a := range acts {
				assert.NoError(t, a.Validate())
				assert.True(t, spec.EmitSet().Has(a.Kind()), "%s not declared", a.Kind())
			}
		})
	}

	t.Run("target parameter names a machine kind", func(t *testing.T) {
		w := snapshot(water(), world.Machine{Kind: world.MachineCokeOven, Pos: world.Pos(2, 64, 2)})
		acts, err := suggest(t, spec, w, map[string]any{"target": "coke_oven"})
		require.NoError(t, err)
		require.Len(t, acts, 6)
		assert.Equal(t, action.MoveTo{Pos: world.Pos(2, 64, 2), Radius: 2}, acts[3])
		assert.Equal(t, action.Chat{Message: "agent filled the coke_oven at 2 64 2 from 0 64 0"}, acts[5])
	})
	t.Run("radius parameter limits the search", func(t *testing.T) {
		w := snapshot(water(), world.Machine{Kind: world.MachineWaterTank, Pos: world.Pos(3, 64, 0)})
		_, err := suggest(t, spec, w, map[string]any{"radius": 4})
		f := requireFailure(t, err, CodeNoTarget)
		assert.Equal(t, "no block tagged water_source within 4 blocks", f.Msg)

		_, err = suggest(t, spec, w, map[string]any{"radius": 5})
		require.NoError(t, err, "the radius is inclusive")

		_, err = suggest(t, spec, w, map[string]any{"radius": 5.0})
		require.NoError(t, err, "a JSON number works as the radius")
	})
	t.Run("no tank", func(t *testing.T) {
		acts, err := suggest(t, spec, snapshot(water()), nil)
		assert.Nil(t, acts)
		f := requireFailure(t, err, CodeNoTarget)
		assert.Equal(t, "no water_tank within 16 blocks", f.Msg)
	})
	t.Run("no water", func(t *testing.T) {
		_, err := suggest(t, spec, snapshot(world.NewSparseBlocks(), world.Machine{Kind: world.MachineWaterTank, Pos: world.Pos(1, 64, 0)}), nil)
		f := requireFailure(t, err, CodeNoTarget)
		assert.Contains(t, f.Msg, "water_source")
	})
}

func spaced(p world.BlockPos) string {
	return itoa(p.X) + " " + itoa(p.Y) + " " + itoa(p.Z)
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestTemplateBlockIDTarget(t *testing.T) {
	spec := loadFixture(t, "mine_block.yml")
	blocks := world.NewSparseBlocks().
		SetID(world.Pos(3, 64, 0), "minecraft:log", 0).
		SetID(world.Pos(0, 64, 2), "minecraft:log", 1).
		SetID(world.Pos(-2, 64, 0), "minecraft:log2", 0).
		SetID(world.Pos(1, 64, 0), "minecraft:dirt", 0).
		SetID(world.Pos(40, 64, 0), "minecraft:iron_ore", 0).
		SetID(world.Pos(0, 63, 0), "minecraft:stone", 0). // under the feet
		SetID(world.Pos(0, 63, 3), "minecraft:stone", 0)
	mine := func(p world.BlockPos, tool string, pause action.Ticks) []action.Action {
		return []action.Action{
			action.Equip{Item: tool},
			action.MoveTo{Pos: p, Radius: 3},
			action.BreakBlock{Pos: p},
			action.Wait{Ticks: pause},
		}
	}
	tests := []struct {
		name string
		raw  map[string]any
		want []action.Action
		fail string
	}{
		{"any metadata", map[string]any{"target": "minecraft:log"}, mine(world.Pos(0, 64, 2), "tool:pickaxe", 10), ""},
		{"exact metadata", map[string]any{"target": "minecraft:log:0"}, mine(world.Pos(3, 64, 0), "tool:pickaxe", 10), ""},
		{"other id", map[string]any{"target": "minecraft:log2"}, mine(world.Pos(-2, 64, 0), "tool:pickaxe", 10), ""},
		{"parameters substituted", map[string]any{"target": "minecraft:dirt", "tool": "minecraft:iron_shovel", "pause": "1s"}, mine(world.Pos(1, 64, 0), "minecraft:iron_shovel", 20), ""},
		{"duration in ticks", map[string]any{"target": "minecraft:dirt", "pause": 7}, mine(world.Pos(1, 64, 0), "tool:pickaxe", 7), ""},
		{"no such metadata", map[string]any{"target": "minecraft:log:5"}, nil, "no minecraft:log:5 within 32 blocks"},
		{"beyond the default radius", map[string]any{"target": "minecraft:iron_ore"}, nil, "no minecraft:iron_ore within 32 blocks"},
		{"absent block", map[string]any{"target": "minecraft:diamond_ore"}, nil, "no minecraft:diamond_ore within 32 blocks"},
		{"never the block under the feet", map[string]any{"target": "minecraft:stone"}, mine(world.Pos(0, 63, 3), "tool:pickaxe", 10), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			acts, err := suggest(t, spec, snapshot(blocks), tc.raw)
			if tc.fail != "" {
				assert.Nil(t, acts)
				f := requireFailure(t, err, CodeNoTarget)
				assert.Equal(t, tc.fail, f.Msg)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, acts)
		})
	}
}

func TestTemplateDerivedAndTypedValues(t *testing.T) {
	src := hdr + `params:
  n:
    type: int
    default: 3
    description: n
  d:
    type: duration
    default: 2s
    description: d
  at:
    type: block_pos
    default: [1, 2, 3]
    description: at
  f:
    type: float
    default: 0.5
    description: f
  item:
    type: item_id
    default: "minecraft:coal:0"
    description: item
  b:
    type: block_id
    default: "minecraft:dirt"
    description: b
  dir:
    type: string
    default: deposit
    enum: [deposit, withdraw]
    description: dir
action_sequence:
  - type: move_to
    pos: "{at}"
    radius: "{f}"
  - type: move_to
    pos: "{position}"
    radius: "{n}"
  - type: transfer_items
    pos: "{at}"
    item: "{item}"
    count: "{n}"
    direction: "{dir}"
  - type: place_block
    pos: "{position}"
    item: "{b}"
  - type: wait
    ticks: "{d}"
  - type: wait
    ticks: "{n}"
  - type: move_to
    pos: "{nearest:coke_oven}"
  - type: chat
    message: "n={n} d={d} at={at} f={f} {item} {b} {player}@{dimension}/{tech_state} pos={position}"
`
	spec := parseSrc(t, src)
	w := snapshot(world.NewSparseBlocks(), world.Machine{Kind: world.MachineCokeOven, Pos: world.Pos(-4, 64, 4), Formed: true})
	w.Player.Pos = world.Vec3{X: -0.5, Y: 70, Z: 10.9}

	acts, err := suggest(t, spec, w, nil)
	require.NoError(t, err)
	assert.Equal(t, []action.Action{
		action.MoveTo{Pos: world.Pos(1, 2, 3), Radius: 0.5},
		action.MoveTo{Pos: world.Pos(-1, 70, 10), Radius: 3},
		action.TransferItems{Pos: world.Pos(1, 2, 3), Item: "minecraft:coal:0", Count: 3, Direction: "deposit"},
		action.PlaceBlock{Pos: world.Pos(-1, 70, 10), Item: "minecraft:dirt", Face: "auto"},
		action.Wait{Ticks: 40},
		action.Wait{Ticks: 3},
		action.MoveTo{Pos: world.Pos(-4, 64, 4)},
		action.Chat{Message: "n=3 d=40 at=1 2 3 f=0.5 minecraft:coal:0 minecraft:dirt agent@overworld/steam_age pos=-1 70 10"},
	}, acts)

	// Invocation values, as JSON would deliver them.
	acts, err = suggest(t, spec, w, map[string]any{
		"n": 5.0, "d": "40t", "at": []any{7.0, 8.0, 9.0}, "f": 2, "item": "ore:gemCoal", "b": "minecraft:stone", "dir": "withdraw",
	})
	require.NoError(t, err)
	assert.Equal(t, action.MoveTo{Pos: world.Pos(7, 8, 9), Radius: 2}, acts[0])
	assert.Equal(t, action.MoveTo{Pos: world.Pos(-1, 70, 10), Radius: 5}, acts[1])
	assert.Equal(t, action.TransferItems{Pos: world.Pos(7, 8, 9), Item: "ore:gemCoal", Count: 5, Direction: "withdraw"}, acts[2])
	assert.Equal(t, action.Wait{Ticks: 40}, acts[4])
	assert.Equal(t, action.Chat{Message: "n=5 d=40 at=7 8 9 f=2 ore:gemCoal minecraft:stone agent@overworld/steam_age pos=-1 70 10"}, acts[7])

	t.Run("action validation fails at invocation", func(t *testing.T) {
		_, err := suggest(t, spec, w, map[string]any{"n": 0})
		f := requireFailure(t, err, CodeInvalidParams)
		assert.Contains(t, f.Msg, "action_sequence[2]: transfer_items: count: must be at least 1, got 0")
	})
	t.Run("nearest finds nothing", func(t *testing.T) {
		w := snapshot(world.NewSparseBlocks())
		_, err := suggest(t, spec, w, nil)
		f := requireFailure(t, err, CodeNoTarget)
		assert.Equal(t, "no block tagged coke_oven within 32 blocks", f.Msg)
	})
	t.Run("snapshot is not modified", func(t *testing.T) {
		w := snapshot(world.NewSparseBlocks().SetID(world.Pos(1, 64, 1), "Railcraft:machine.alpha", 7))
		before := *w
		_, err := suggest(t, spec, w, nil)
		require.NoError(t, err)
		assert.Equal(t, before, *w)
	})
}

func TestTemplateNearestTag(t *testing.T) {
	src := hdr + `params:
  radius:
    type: int
    default: 8
    description: r
action_sequence:
  - type: move_to
    pos: "{nearest:water_source}"
    radius: 1
  - type: use_item
    item: "minecraft:bucket"
    target: "{nearest:water_source}"
  - type: break_block
    pos: "{nearest:log}"
`
	spec := parseSrc(t, src)
	blocks := world.NewSparseBlocks().
		SetID(world.Pos(3, 64, 3), "minecraft:water", 0).
		SetID(world.Pos(-3, 64, -3), "minecraft:water", 0).
		SetID(world.Pos(0, 63, 0), "minecraft:flowing_water", 0).
		SetID(world.Pos(0, 64, 4), "minecraft:log2", 1)
	acts, err := suggest(t, spec, snapshot(blocks), nil)
	require.NoError(t, err)
	assert.Equal(t, []action.Action{
		action.MoveTo{Pos: world.Pos(-3, 64, -3), Radius: 1},
		action.UseItem{Item: "minecraft:bucket", Target: posPtr(-3, 64, -3)},
		action.BreakBlock{Pos: world.Pos(0, 64, 4)},
	}, acts)

	_, err = suggest(t, spec, snapshot(blocks), map[string]any{"radius": 3})
	f := requireFailure(t, err, CodeNoTarget)
	assert.Equal(t, "no block tagged water_source within 3 blocks", f.Msg)

	// A source with air over it comes before a nearer one under stone
	// (a lake's floor over a bot in a pit): a bucket fills at the first
	// source the look meets.
	covered := world.NewSparseBlocks().
		SetID(world.Pos(0, 66, 0), "minecraft:water", 0).
		SetID(world.Pos(0, 67, 0), "minecraft:stone", 0).
		SetID(world.Pos(4, 64, 0), "minecraft:water", 0).
		SetID(world.Pos(0, 64, 4), "minecraft:log", 0)
	acts, err = suggest(t, spec, snapshot(covered), nil)
	require.NoError(t, err)
	assert.Equal(t, action.MoveTo{Pos: world.Pos(4, 64, 0), Radius: 1}, acts[0])
	// With none open, the nearest.
	covered.SetID(world.Pos(4, 65, 0), "minecraft:stone", 0)
	acts, err = suggest(t, spec, snapshot(covered), nil)
	require.NoError(t, err)
	assert.Equal(t, action.MoveTo{Pos: world.Pos(0, 66, 0), Radius: 1}, acts[0])
}

func TestTemplateNilBlocks(t *testing.T) {
	tests := []struct {
		name string
		spec *Spec
		raw  map[string]any
	}{
		{"string target", loadFixture(t, "fill_water_tank.yaml"), nil},
		{"block_id target", loadFixture(t, "mine_block.yml"), map[string]any{"target": "minecraft:log"}},
		{"nearest", parseSrc(t, hdr+"action_sequence:\n  - type: move_to\n    pos: \"{nearest:tree}\"\n"), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := snapshot(nil)
			var err error
			assert.NotPanics(t, func() {
				_, err = suggest(t, tc.spec, w, tc.raw)
			})
			requireFailure(t, err, CodeNoTarget)
		})
	}

	t.Run("machines are found without blocks", func(t *testing.T) {
		spec := parseSrc(t, hdr+"action_sequence:\n  - type: open_container\n    pos: \"{nearest:chest}\"\n  - type: chat\n    message: at {position}\n")
		w := snapshot(nil, world.Machine{Kind: world.MachineChest, Pos: world.Pos(2, 64, 0)})
		acts, err := suggest(t, spec, w, nil)
		require.NoError(t, err)
		assert.Equal(t, []action.Action{action.OpenContainer{Pos: world.Pos(2, 64, 0)}, action.Chat{Message: "at 0 64 0"}}, acts)
	})
}

func TestTemplateInternalErrors(t *testing.T) {
	// Specs built in code bypass the loader's checks.
	spec := &Spec{
		Name:           "raw",
		Version:        1,
		Implementation: ImplTemplate,
		ActionSequence: []ActionTemplate{{Kind: action.KindChat, Params: map[string]any{"message": "{bogus}"}}},
	}
	_, err := Template{Spec: spec}.SuggestActions(snapshot(nil), Params{})
	f := requireFailure(t, err, CodeInternal)
	assert.Equal(t, "unknown placeholder {bogus}", f.Msg)

	spec.ActionSequence[0].Params["message"] = "hello {bogus} world"
	_, err = Template{Spec: spec}.SuggestActions(snapshot(nil), Params{})
	requireFailure(t, err, CodeInternal)

	// Braces that are not placeholders are left alone.
	spec.ActionSequence[0].Params["message"] = "{Not A Placeholder} {}"
	acts, err := Template{Spec: spec}.SuggestActions(snapshot(nil), Params{})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.Chat{Message: "{Not A Placeholder} {}"}}, acts)

	// A step without parameters.
	spec.ActionSequence = []ActionTemplate{{Kind: action.KindCloseContainer}}
	acts, err = Template{Spec: spec}.SuggestActions(snapshot(nil), Params{})
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.CloseContainer{}}, acts)
}

func TestTemplateWholePlaceholderIntoString(t *testing.T) {
	params := "params:\n  n:\n    type: int\n    default: 3\n    description: n\n"

	// Embedded in text, a typed value is formatted.
	spec := parseSrc(t, hdr+params+"action_sequence:\n  - type: chat\n    message: \"{n} logs at {position}\"\n")
	acts, err := suggest(t, spec, snapshot(nil), nil)
	require.NoError(t, err)
	assert.Equal(t, []action.Action{action.Chat{Message: "3 logs at 0 64 0"}}, acts)

	// As the whole value the loader accepts it too.
	spec = parseSrc(t, hdr+params+"action_sequence:\n  - type: chat\n    message: \"{n}\"\n")
	assert.Equal(t, []action.Kind{action.KindChat}, spec.Emits)
	acts, err = suggest(t, spec, snapshot(nil), nil)
	require.NoError(t, err, "a whole placeholder of any type fills a string parameter as text")
	assert.Equal(t, []action.Action{action.Chat{Message: "3"}}, acts)
}

func TestDerivedPlaceholders(t *testing.T) {
	d := DerivedPlaceholders()
	var keys []string
	for k := range d {
		keys = append(keys, k)
	}
	assert.ElementsMatch(t, []string{"position", "target_location", "nearest:TAG", "player", "dimension", "tech_state"}, keys)
	assert.Contains(t, d["position"], "(block_pos)")
	assert.Contains(t, d["player"], "(string)")
	assert.Contains(t, d["target_location"], "default 32")
}

// TestTemplateTargetPrefersTheSurface: {target_location} for a block id
// takes a block open to the air at or above the block the player stands on
// first, then an open one lower down, and a buried one last, each time
// even when a less preferred one is nearer: a buried block means digging
// down to it, and a low one a pit.
func TestTemplateTargetPrefersTheSurface(t *testing.T) {
	spec := loadFixture(t, "mine_block.yml")
	buried, low, level := world.Pos(1, 61, 0), world.Pos(0, 60, 3), world.Pos(6, 63, 0)
	gravelAt := func(with ...world.BlockPos) *world.SparseBlocks {
		b := world.NewSparseBlocks()
		for _, d := range [][3]int{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} {
			b.SetID(buried.Add(d[0], d[1], d[2]), "minecraft:stone", 0)
		}
		for _, p := range with {
			b.SetID(p, "minecraft:gravel", 0)
		}
		return b
	}
	for _, c := range []struct {
		name string
		with []world.BlockPos
		want world.BlockPos
	}{
		{"open at the feet's level first", []world.BlockPos{buried, low, level}, level},
		{"then open lower down", []world.BlockPos{buried, low}, low},
		{"a buried one last", []world.BlockPos{buried}, buried},
	} {
		t.Run(c.name, func(t *testing.T) {
			acts, err := suggest(t, spec, snapshot(gravelAt(c.with...)), map[string]any{"target": "minecraft:gravel"})
			require.NoError(t, err)
			assert.Equal(t, action.BreakBlock{Pos: c.want}, acts[2])
		})
	}
}

// TestTemplateTargetDigsToTheShallowest: of buried blocks the one under
// the least cover is taken, even farther off: the gravel of a lake's
// floor (water is no cover), then a pocket two blocks down before one
// nearer but five down.
func TestTemplateTargetDigsToTheShallowest(t *testing.T) {
	spec := loadFixture(t, "mine_block.yml")
	b := world.NewSparseBlocks()
	// A slab of stone from y = 55 to 63 under x 0..9, z -2..2.
	for x := 0; x <= 9; x++ {
		for z := -2; z <= 2; z++ {
			for y := 55; y <= 63; y++ {
				b.SetID(world.Pos(x, y, z), "minecraft:stone", 0)
			}
		}
	}
	deep, shallow := world.Pos(2, 58, 0), world.Pos(7, 61, 0) // 5 and 2 blocks of cover
	b.SetID(deep, "minecraft:gravel", 0)
	b.SetID(shallow, "minecraft:gravel", 0)
	// A lake's floor: gravel under three blocks of water, no cover.
	lake := world.Pos(-6, 60, 0)
	b.SetID(lake, "minecraft:gravel", 0)
	b.SetID(lake.Down(), "minecraft:stone", 0)
	for dy := 1; dy <= 3; dy++ {
		b.SetID(lake.Add(0, dy, 0), "minecraft:water", 0)
	}
	w := snapshot(b)
	assert.Equal(t, 5, Cover(w, deep))
	assert.Equal(t, 2, Cover(w, shallow))
	assert.Equal(t, 0, Cover(w, lake), "water is no cover")
	// The work: five blocks walked for each dug, and the walk there.
	assert.Equal(t, 5*5+2, DigWork(w, deep))
	assert.Equal(t, 2*5+7, DigWork(w, shallow))
	assert.Equal(t, 6, DigWork(w, lake))
	require.Less(t, deep.DistSq(w.Feet()), shallow.DistSq(w.Feet()), "the deep one is nearer")
	acts, err := suggest(t, spec, w, map[string]any{"target": "minecraft:gravel"})
	require.NoError(t, err)
	assert.Equal(t, action.BreakBlock{Pos: lake}, acts[2], "the lake's floor first")
	b.SetID(lake, "minecraft:stone", 0)
	acts, err = suggest(t, spec, snapshot(b), map[string]any{"target": "minecraft:gravel"})
	require.NoError(t, err)
	assert.Equal(t, action.BreakBlock{Pos: shallow}, acts[2], "then the shallow pocket")
}

// edged is a world that ends past x = 9: nothing is known beyond it.
type edged struct{ *world.SparseBlocks }

func (edged) Known(p world.BlockPos) bool { return p.X <= 9 }

// TestOpenToAirAtTheWorldsEdge: a block whose only air is past the edge
// of the loaded world is not open (the air read there is not known), so
// a gravel pocket at the simulated world's edge is not taken for an open
// block; inside the world the same block is open.
func TestOpenToAirAtTheWorldsEdge(t *testing.T) {
	b := world.NewSparseBlocks()
	for y := 60; y <= 64; y++ {
		for z := -1; z <= 1; z++ {
			for x := 7; x <= 9; x++ {
				b.SetID(world.Pos(x, y, z), "minecraft:stone", 0)
			}
		}
	}
	edge := world.Pos(9, 62, 0)
	b.SetID(edge, "minecraft:gravel", 0)
	assert.True(t, OpenToAir(snapshot(b), edge), "without an edge, x = 10 is air")
	assert.False(t, OpenToAir(snapshot(edged{b}), edge), "past the edge nothing is known")
}

// TestTemplateTargetAwayFromMobs: {target_location} leaves a block a
// hostile mob guards (the block, or the way to it, within the mob's follow
// range, and nearer to it than the bot is) for one no mob guards, even
// farther off: the bot that fled a creeper beside the gravel goes to other
// gravel instead of walking back into it. A spider by day in the open
// guards nothing; with every block guarded, the nearest is taken.
func TestTemplateTargetAwayFromMobs(t *testing.T) {
	spec := loadFixture(t, "mine_block.yml")
	near, far := world.Pos(10, 63, 0), world.Pos(-25, 63, 0)
	b := world.NewSparseBlocks()
	for _, p := range []world.BlockPos{near, far} {
		b.SetID(p, "minecraft:gravel", 0)
		b.SetID(p.Up(), "minecraft:air", 0)
	}
	mob := func(name string, x float64) world.Entity {
		return world.Entity{ID: 887, Kind: world.EntityMob, Name: name, Pos: world.Vec3{X: x, Y: 64, Z: 0.5}, Health: 20}
	}
	for _, c := range []struct {
		name string
		mobs []world.Entity
		tod  int64
		want world.BlockPos
	}{
		{"no mob: the nearest", nil, 6000, near},
		{"a creeper beside the near gravel: the far one", []world.Entity{mob("creeper", 14.5)}, 6000, far},
		{"a creeper 16 blocks past it (its follow range): still guarded", []world.Entity{mob("creeper", 10.5+16)}, 6000, far},
		{"a creeper beyond its follow range: the nearest", []world.Entity{mob("creeper", 10.5+16.5)}, 6000, near},
		{"a zombie sees 40 blocks", []world.Entity{mob("zombie", 10.5+39)}, 6000, far},
		{"a spider by day in the open guards nothing", []world.Entity{mob("spider", 14.5)}, 6000, near},
		{"a spider at night does", []world.Entity{mob("spider", 14.5)}, 18000, far},
		{"a cow guards nothing", []world.Entity{mob("cow", 14.5)}, 6000, near},
		{"at the bot's elbow: the gravel away from it", []world.Entity{mob("creeper", 3.5)}, 6000, far},
		{"on the way to both: the nearest", []world.Entity{mob("creeper", 3.5), mob("creeper", -4.5)}, 6000, near},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := snapshot(b)
			w.TimeOfDay = c.tod
			w.Entities = c.mobs
			acts, err := suggest(t, spec, w, map[string]any{"target": "minecraft:gravel"})
			require.NoError(t, err)
			assert.Contains(t, acts, action.BreakBlock{Pos: c.want})
		})
	}
}
