package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func fptr(f float64) *float64 { return &f }

// TestParamsSchema: every parameter type, its default, range, allowed
// values and whether it is required.
func TestParamsSchema(t *testing.T) {
	d := &registry.Description{Name: "x", Params: map[string]registry.ParamDescription{
		"count":  {Type: action.TypeInt, Default: 4, Description: "How many.", Min: fptr(1), Max: fptr(64)},
		"ratio":  {Type: action.TypeFloat, Default: 0.5},
		"axe":    {Type: action.TypeBool, Default: false},
		"mode":   {Type: action.TypeString, Default: "fast", Enum: []string{"fast", "safe"}},
		"item":   {Type: action.TypeItemID, Required: true, Description: "What."},
		"block":  {Type: action.TypeBlockID, Default: "minecraft:log"},
		"at":     {Type: action.TypeBlockPos, Required: true},
		"for":    {Type: action.TypeDuration, Default: 40},
		"absent": {Type: action.TypeString},
	}}
	got := ParamsSchema(d)
	b, err := json.Marshal(got)
	require.NoError(t, err)
	want := `{
	"additionalProperties": false,
	"properties": {
		"absent": {"type": "string"},
		"at": {"additionalProperties": false, "description": "(block position)",
			"properties": {"x": {"type": "integer"}, "y": {"type": "integer"}, "z": {"type": "integer"}},
			"required": ["x", "y", "z"], "type": "object"},
		"axe": {"default": false, "type": "boolean"},
		"block": {"default": "minecraft:log", "description": "(block: modid:name[:meta])", "type": "string"},
		"count": {"default": 4, "description": "How many.", "maximum": 64, "minimum": 1, "type": "integer"},
		"for": {"default": 40, "description": "(game ticks, or a number with a unit: \"2s\", \"500ms\", \"1m\")", "type": ["integer", "string"]},
		"item": {"description": "What. (item: modid:name[:meta], ore:Name or tool:class)", "type": "string"},
		"mode": {"default": "fast", "enum": ["fast", "safe"], "type": "string"},
		"ratio": {"default": 0.5, "type": "number"}
	},
	"required": ["at", "item"],
	"type": "object"
}`
	assert.JSONEq(t, want, string(b))

	none := ParamsSchema(&registry.Description{Name: "y"})
	b, err = json.Marshal(none)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type": "object", "properties": {}, "required": [], "additionalProperties": false}`, string(b))
}

// TestObservationListsTheNearestMachines: nearest first, at most
// maxMachines, with their contents compact.
func TestObservationListsTheNearestMachines(t *testing.T) {
	snap := &world.Snapshot{Tick: 7, TechState: "steam_age",
		Player:    world.Player{Pos: world.Vec3{X: 0.5, Y: 64, Z: 0.5}, Dimension: "overworld", Health: 18, Food: 12},
		Inventory: world.NewInventory(world.NewStack("minecraft:log", 0, 3), world.NewStack("minecraft:coal", 1, 2))}
	for i := range maxMachines + 5 {
		snap.Machines = append(snap.Machines, world.Machine{Kind: "chest", Pos: world.Pos(maxMachines+8-i, 64, 0)}) // 40 down to 4 blocks away
	}
	snap.Machines = append(snap.Machines, world.Machine{Kind: "coke_oven", Pos: world.Pos(0, 64, 3), Formed: true, Active: true, Progress: 0.25,
		Slots:  map[string]world.ItemStack{"input": world.NewStack("minecraft:coal", 0, 5), "output": {}},
		Fluids: map[string]world.FluidTank{"creosote": {Amount: 500, Capacity: 64000}}})
	g := &GoalStatus{Goal: "have 1 minecraft:diamond", Unmet: []string{"0/1 minecraft:diamond"}}
	inv := loop.Invocation{Skill: "chop_tree", Params: map[string]any{"radius": 8}}
	o := observation(loop.Observation{Snapshot: snap, Blocked: []loop.Invocation{inv},
		Last: &loop.StepRecord{Invocation: &inv, Verdict: loop.ActionFailed}}, g)
	assert.Equal(t, int64(7), o.Tick)
	assert.Equal(t, world.Pos(0, 64, 0), o.Position)
	assert.Equal(t, map[string]int{"minecraft:log": 3, "minecraft:coal:1": 2}, o.Inventory)
	assert.Equal(t, "minecraft:log", o.Held)
	require.Len(t, o.Machines, maxMachines)
	oven := o.Machines[0]
	assert.Equal(t, "coke_oven", oven.Kind)
	assert.Equal(t, 3.0, oven.Distance)
	assert.Equal(t, map[string]string{"input": "5 minecraft:coal"}, oven.Slots, "empty slots left out")
	assert.Equal(t, map[string]string{"creosote": "500/64000 mB"}, oven.Fluids)
	assert.Equal(t, 0.3, oven.Progress, "rounded")
	assert.False(t, oven.ContentsUnknown)
	snap.Machines[len(snap.Machines)-1] = world.Machine{Kind: "coke_oven", Pos: world.Pos(0, 64, 3), Formed: true, ContentsUnknown: true}
	assert.True(t, observation(loop.Observation{Snapshot: snap}, g).Machines[0].ContentsUnknown, "an oven not looked into says so")
	for i := 1; i < len(o.Machines); i++ {
		assert.LessOrEqual(t, o.Machines[i-1].Distance, o.Machines[i].Distance)
	}
	assert.Equal(t, 4.0, o.Machines[1].Distance)
	assert.Equal(t, 34.0, o.Machines[maxMachines-1].Distance, "the farthest chests are the ones left out")
	assert.Equal(t, []string{"chop_tree radius=8"}, o.Blocked)
	assert.Equal(t, "chop_tree radius=8: action_failed", o.Last)
	assert.Same(t, g, o.Goal)
}

// TestDecodeParams: a skill tool's arguments, at most maxParams of them.
func TestDecodeParams(t *testing.T) {
	p, err := decodeParams([]byte(`{"radius": 12345678901234567, "item": "minecraft:log"}`))
	require.NoError(t, err)
	assert.Equal(t, json.Number("12345678901234567"), p["radius"], "integers keep every digit")
	p, err = decodeParams(nil)
	require.NoError(t, err)
	assert.Nil(t, p)
	p, err = decodeParams([]byte(" null "))
	require.NoError(t, err)
	assert.Nil(t, p)
	for _, bad := range []struct{ in, want string }{
		{`[1, 2]`, "not a JSON object"},
		{`"radius"`, "not a JSON object"},
		{`{"radius": 1} {"radius": 2}`, "more follows it"},
		{`{"radius": `, "not a JSON object"},
		{`{` + strings.Repeat(`"p":1,`, 0) + manyKeys(maxParams+1) + `}`, "65 parameters; at most 64"},
	} {
		_, err := decodeParams([]byte(bad.in))
		require.Error(t, err, bad.in[:min(len(bad.in), 40)])
		assert.Contains(t, err.Error(), bad.want)
	}
	_, err = decodeParams([]byte(`{` + manyKeys(maxParams) + `}`))
	require.NoError(t, err)
}

func manyKeys(n int) string {
	keys := make([]string, n)
	for i := range n {
		keys[i] = `"p` + strings.Repeat("x", i) + `": 1`
	}
	return strings.Join(keys, ",")
}

// FuzzDecodeParams: any bytes give parameters within the bounds or an
// error, never a panic.
func FuzzDecodeParams(f *testing.F) {
	for _, s := range []string{`{"min_logs": 3}`, `{}`, `null`, `[1]`, `{"at": {"x": 1, "y": 2, "z": 3}, "for": "2s"}`, `{"a": 1} x`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := decodeParams(data)
		if err != nil {
			return
		}
		if len(p) > maxParams {
			t.Fatalf("out of bounds: %d params", len(p))
		}
		if _, err := json.Marshal(p); err != nil {
			t.Fatalf("decoded parameters do not encode: %v", err)
		}
	})
}
