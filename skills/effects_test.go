package skills

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// effHdr is a go skill with a block_id, an item_id, an int and a string
// parameter (lines 1-9); effects start on line 10.
const effHdr = goHdr + "params:\n" +
	"  target: {type: block_id, description: t}\n" +
	"  fuel: {type: item_id, default: \"ore:gemCoal\", description: f}\n" +
	"  radius: {type: int, default: 8, description: r}\n" +
	"  note: {type: string, default: x, description: n}\n"

func TestParseWorldEffectErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []wantErr
	}{
		{name: "blocks key is not a block",
			src:  "effects:\n  blocks:\n    oak: {min_removed: 1, radius: 4}\n",
			want: []wantErr{{12, "oak", 0, "effects.blocks.oak", `"oak" is not a block: expected modid:name, modid:name:meta or tag:NAME`}}},
		{name: "blocks tag is empty",
			src:  "effects:\n  blocks:\n    \"tag:\": {min_removed: 1, radius: 4}\n",
			want: []wantErr{{12, "\"tag:\"", 0, "effects.blocks.tag:", "a semantic block tag is expected after tag:"}}},
		{name: "blocks key references a string parameter",
			src:  "effects:\n  blocks:\n    \"{note}\": {min_removed: 1, radius: 4}\n",
			want: []wantErr{{12, "\"{note}\"", 0, "effects.blocks.{note}", `references parameter "note" of type string; a block_id parameter is needed`}}},
		{name: "blocks key references an undeclared parameter",
			src:  "effects:\n  blocks:\n    \"{what}\": {min_removed: 1, radius: 4}\n",
			want: []wantErr{{12, "\"{what}\"", 0, "effects.blocks.{what}", `references undeclared parameter "what"`}}},
		{name: "blocks change without removed or placed",
			src:  "effects:\n  blocks:\n    \"{target}\": {radius: 4}\n",
			want: []wantErr{{12, "{radius", 0, "effects.blocks.{target}", "give min_removed, min_placed or min_near"}}},
		{name: "blocks change without a radius",
			src:  "effects:\n  blocks:\n    \"{target}\": {min_removed: 1}\n",
			want: []wantErr{{12, "{min_removed", 0, "effects.blocks.{target}.radius", "required field is missing"}}},
		{name: "blocks amount of zero always holds",
			src:  "effects:\n  blocks:\n    \"{target}\": {min_placed: 0, radius: 4}\n",
			want: []wantErr{{12, "0", 0, "effects.blocks.{target}.min_placed", "must be at least 1: an effect of 0 always holds"}}},
		{name: "blocks radius too large",
			src:  "effects:\n  blocks:\n    \"{target}\": {min_removed: 1, radius: 500}\n",
			want: []wantErr{{12, "500", 0, "effects.blocks.{target}.radius", "must be at most 128, got 500"}}},
		{name: "blocks radius references a string parameter",
			src:  "effects:\n  blocks:\n    \"{target}\": {min_removed: 1, radius: \"{note}\"}\n",
			want: []wantErr{{12, "\"{note}\"", 0, "effects.blocks.{target}.radius", `references parameter "note" of type string; an int parameter is needed`}}},
		{name: "blocks typo",
			src: "effects:\n  blocks:\n    \"{target}\": {min_remove: 1, radius: 4}\n",
			want: []wantErr{
				{12, "{min_remove", 0, "effects.blocks.{target}", "give min_removed, min_placed or min_near"},
				{12, "min_remove", 0, "effects.blocks.{target}.min_remove", `(did you mean "min_removed"?)`},
			}},
		{name: "machine without kind",
			src:  "effects:\n  machines:\n    - {slot: input, min_increase: 1}\n",
			want: []wantErr{{12, "{slot", 0, "effects.machines[0].kind", "required field is missing"}}},
		{name: "machine with slot and fluid",
			src:  "effects:\n  machines:\n    - {kind: coke_oven, slot: input, fluid: water, min_increase: 1}\n",
			want: []wantErr{{12, "fluid", 0, "effects.machines[0].fluid", "slot and fluid exclude each other"}}},
		{name: "machine with neither slot nor fluid",
			src:  "effects:\n  machines:\n    - {kind: coke_oven, min_increase: 1}\n",
			want: []wantErr{{12, "{kind", 0, "effects.machines[0]", "give slot (an item slot such as input, output or fuel) or fluid"}}},
		{name: "machine with both directions",
			src:  "effects:\n  machines:\n    - {kind: coke_oven, slot: input, min_increase: 1, min_decrease: 1}\n",
			want: []wantErr{{12, "min_decrease", 0, "effects.machines[0].min_decrease", "min_increase and min_decrease exclude each other"}}},
		{name: "machine without a direction",
			src:  "effects:\n  machines:\n    - {kind: coke_oven, fluid: creosote}\n",
			want: []wantErr{{12, "{kind", 0, "effects.machines[0]", "give min_increase or min_decrease"}}},
		{name: "machine item on a fluid",
			src:  "effects:\n  machines:\n    - {kind: steam_boiler, fluid: water, item: \"{fuel}\", min_increase: 1}\n",
			want: []wantErr{{12, "item", 0, "effects.machines[0].item", "item applies only to a slot"}}},
		{name: "machine item is any item",
			src:  "effects:\n  machines:\n    - {kind: steam_boiler, slot: fuel, item: \"*\", min_increase: 1}\n",
			want: []wantErr{{12, "\"*\"", 0, "effects.machines[0].item", "only an inventory_delta key"}}},
		{name: "machine item is not an item",
			src:  "effects:\n  machines:\n    - {kind: steam_boiler, slot: fuel, item: coal, min_increase: 1}\n",
			want: []wantErr{{12, "coal", 0, "effects.machines[0].item", `"coal" is not an item`}}},
		{name: "machine kind is not a name",
			src:  "effects:\n  machines:\n    - {kind: Coke Oven, slot: input, min_increase: 1}\n",
			want: []wantErr{{12, "Coke", 0, "effects.machines[0].kind", "must be a machine kind"}}},
		{name: "machine fluid is not a name",
			src:  "effects:\n  machines:\n    - {kind: steam_boiler, fluid: Hot Water, min_increase: 1}\n",
			want: []wantErr{{12, "Hot", 0, "effects.machines[0].fluid", "must be a fluid name"}}},
		{name: "machine empty slot name",
			src:  "effects:\n  machines:\n    - {kind: steam_boiler, slot: \"\", min_increase: 1}\n",
			want: []wantErr{{12, "\"\"", 0, "effects.machines[0].slot", "must name a slot"}}},
		{name: "machine amount zero",
			src:  "effects:\n  machines:\n    - {kind: steam_boiler, fluid: water, min_decrease: 0}\n",
			want: []wantErr{{12, "0}", 0, "effects.machines[0].min_decrease", "must be at least 1"}}},
		{name: "machines is not a list",
			src:  "effects:\n  machines: {kind: coke_oven}\n",
			want: []wantErr{{11, "{kind", 0, "effects.machines", "expected a list"}}},
		{name: "machine entry is not a mapping",
			src:  "effects:\n  machines: [coke_oven]\n",
			want: []wantErr{{11, "coke_oven", 0, "effects.machines[0]", "expected a mapping"}}},
		{name: "any_of with one alternative",
			src:  "effects:\n  any_of:\n    - inventory_delta: {\"*\": {min_increase: 1}}\n",
			want: []wantErr{{12, "-", 0, "effects.any_of", "list at least two alternatives"}}},
		{name: "any_of with an empty alternative",
			src:  "effects:\n  any_of:\n    - {}\n    - inventory_delta: {\"*\": {min_increase: 1}}\n",
			want: []wantErr{{12, "{}", 0, "effects.any_of[0]", "an alternative needs inventory_delta, blocks or machines"}}},
		{name: "any_of alternative with a tier",
			src: "effects:\n  any_of:\n    - tech_delta: {reaches_tier: lv}\n    - inventory_delta: {\"*\": {min_increase: 1}}\n",
			want: []wantErr{
				{12, "tech_delta", 0, "effects.any_of[0]", "an alternative needs inventory_delta, blocks or machines"},
				{12, "tech_delta", 0, "effects.any_of[0].tech_delta", `unknown field "tech_delta"`},
			}},
		{name: "any_of alternative problems are located",
			src:  "effects:\n  any_of:\n    - inventory_delta: {\"*\": {min_increase: 1}}\n    - machines:\n        - {kind: coke_oven, slot: output, min_decrease: -1}\n",
			want: []wantErr{{14, "-1", 0, "effects.any_of[1].machines[0].min_decrease", "must not be negative"}}},
		{name: "any_of is not a list",
			src:  "effects:\n  any_of: {machines: []}\n",
			want: []wantErr{{11, "{machines", 0, "effects.any_of", "expected a list"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := effHdr + tc.src
			require.Equal(t, "effects:", lineOf(src, 10), "test bug: effects must start on line 10")
			spec, err := ParseSpec("dig.yaml", []byte(src))
			assert.Nil(t, spec)
			checkErrors(t, "dig.yaml", src, err, tc.want)
		})
	}
}

func TestParseWorldEffects(t *testing.T) {
	spec, err := ParseSpec("dig.yaml", []byte(effHdr+`effects:
  inventory_delta:
    "*": {min_increase: 1}
  blocks:
    "{target}": {min_removed: 1, radius: "{radius}"}
    "tag:sapling": {min_placed: 2, radius: 8}
  machines:
    - {kind: steam_boiler, slot: fuel, item: "{fuel}", min_increase: 1, radius: "{radius}"}
  any_of:
    - machines: [{kind: coke_oven, slot: output, min_decrease: 1}]
    - machines: [{kind: coke_oven, fluid: creosote, min_decrease: 1}]
`))
	require.NoError(t, err)
	e := spec.Effects
	assert.True(t, e.Checkable())
	assert.Equal(t, InventoryChange{MinIncrease: &Amount{Value: 1}}, e.InventoryDelta[AnyItem])
	assert.Equal(t, BlockChange{MinRemoved: &Amount{Value: 1}, Radius: Amount{Param: "radius"}}, e.Blocks["{target}"])
	assert.Equal(t, BlockChange{MinPlaced: &Amount{Value: 2}, Radius: Amount{Value: 8}}, e.Blocks["tag:sapling"])
	assert.Equal(t, []MachineChange{{Kind: "steam_boiler", Slot: "fuel", Item: "{fuel}", MinIncrease: &Amount{Value: 1}, Radius: &Amount{Param: "radius"}}}, e.Machines)
	require.Len(t, e.AnyOf, 2)
	assert.Equal(t, "creosote", e.AnyOf[1].Machines[0].Fluid)
	require.NoError(t, spec.Validate(nil))

	// The clone shares nothing with the original.
	c := spec.Clone()
	require.Equal(t, spec, c)
	*c.Effects.Machines[0].MinIncrease = Amount{Value: 9}
	c.Effects.Blocks["{target}"].MinRemoved.Value = 9
	*c.Effects.AnyOf[0].Machines[0].MinDecrease = Amount{Value: 9}
	c.Effects.AnyOf[1].Machines[0].Fluid = "water"
	assert.Equal(t, 1, spec.Effects.Machines[0].MinIncrease.Value)
	assert.Equal(t, 1, spec.Effects.Blocks["{target}"].MinRemoved.Value)
	assert.Equal(t, 1, spec.Effects.AnyOf[0].Machines[0].MinDecrease.Value)
	assert.Equal(t, "creosote", spec.Effects.AnyOf[1].Machines[0].Fluid)

	// Effects declaring nothing checkable.
	bare, err := ParseSpec("dig.yaml", []byte(goHdr+"effects: {tags: [x], extra: {a: 1}}\n"))
	require.NoError(t, err)
	assert.False(t, bare.Effects.Checkable())
	tier, err := ParseSpec("dig.yaml", []byte(goHdr+"effects: {tech_delta: {reaches_tier: lv}}\n"))
	require.NoError(t, err)
	assert.True(t, tier.Effects.Checkable())
}

// TestValidateWorldEffects: specs built in code get the loader's checks.
func TestValidateWorldEffects(t *testing.T) {
	base := func() *Spec {
		s, err := ParseSpec("dig.yaml", []byte(effHdr))
		require.NoError(t, err)
		return s
	}
	one, zero := &Amount{Value: 1}, &Amount{Value: 0}
	tests := []struct {
		name string
		set  func(e *Effects)
		want string // "" = valid
	}{
		{"valid", func(e *Effects) {
			e.Blocks = map[string]BlockChange{"{target}": {MinRemoved: one, Radius: Amount{Param: "radius"}}}
			e.Machines = []MachineChange{{Kind: "coke_oven", Slot: "input", Item: "{fuel}", MinIncrease: one}}
			e.AnyOf = []EffectSet{{InventoryDelta: map[string]InventoryChange{AnyItem: {MinIncrease: one}}}, {Machines: e.Machines}}
		}, ""},
		{"bad block key", func(e *Effects) {
			e.Blocks = map[string]BlockChange{"log": {MinRemoved: one, Radius: *one}}
		}, `effects.blocks.log: "log" is not a block`},
		{"block without change", func(e *Effects) {
			e.Blocks = map[string]BlockChange{"tag:log": {Radius: *one}}
		}, "effects.blocks.tag:log: give min_removed, min_placed or min_near"},
		{"block zero radius", func(e *Effects) {
			e.Blocks = map[string]BlockChange{"tag:log": {MinPlaced: one}}
		}, "effects.blocks.tag:log.radius: must be at least 1, got 0"},
		{"block zero amount", func(e *Effects) {
			e.Blocks = map[string]BlockChange{"tag:log": {MinRemoved: zero, Radius: *one}}
		}, "effects.blocks.tag:log.min_removed: must be at least 1, got 0"},
		{"machine without direction", func(e *Effects) {
			e.Machines = []MachineChange{{Kind: "coke_oven", Slot: "input"}}
		}, "effects.machines[0]: give exactly one of min_increase and min_decrease"},
		{"machine slot and fluid", func(e *Effects) {
			e.Machines = []MachineChange{{Kind: "coke_oven", Slot: "input", Fluid: "water", MinIncrease: one}}
		}, "effects.machines[0]: slot and fluid exclude each other"},
		{"block radius too large", func(e *Effects) {
			e.Blocks = map[string]BlockChange{"tag:log": {MinRemoved: one, Radius: Amount{Value: 129}}}
		}, "effects.blocks.tag:log.radius: must be at most 128, got 129"},
		{"machine kind not a kind", func(e *Effects) {
			e.Machines = []MachineChange{{Kind: "Coke Oven", Slot: "input", MinIncrease: one}}
		}, `effects.machines[0]: kind "Coke Oven" must be a machine kind such as coke_oven or steam_boiler`},
		{"machine fluid not a fluid", func(e *Effects) {
			e.Machines = []MachineChange{{Kind: "coke_oven", Fluid: "Creosote Oil", MinDecrease: one}}
		}, `effects.machines[0]: fluid "Creosote Oil" must be a fluid name such as water or creosote`},
		{"machine item on a fluid", func(e *Effects) {
			e.Machines = []MachineChange{{Kind: "steam_boiler", Fluid: "water", Item: "minecraft:water_bucket", MinIncrease: one}}
		}, "effects.machines[0]: item applies only to a slot"},
		{"machine radius on a string parameter", func(e *Effects) {
			e.Machines = []MachineChange{{Kind: "coke_oven", Fluid: "water", MinIncrease: one, Radius: &Amount{Param: "note"}}}
		}, `effects.machines[0]: radius: references parameter "note" of type string`},
		{"inventory amount on an undeclared parameter", func(e *Effects) {
			e.InventoryDelta = map[string]InventoryChange{"minecraft:log": {MinIncrease: &Amount{Param: "nope"}}}
		}, `effects.inventory_delta.minecraft:log.min_increase: references undeclared parameter "nope"`},
		{"inventory both ways", func(e *Effects) {
			e.InventoryDelta = map[string]InventoryChange{"minecraft:log": {MinIncrease: one, MaxDecrease: one}}
		}, "effects.inventory_delta.minecraft:log: an item cannot both increase and decrease"},
		{"inventory without change", func(e *Effects) {
			e.InventoryDelta = map[string]InventoryChange{"minecraft:log": {}}
		}, "effects.inventory_delta.minecraft:log: give at least one of min_increase, min_decrease, max_decrease"},
		{"single any_of", func(e *Effects) {
			e.AnyOf = []EffectSet{{InventoryDelta: map[string]InventoryChange{AnyItem: {MinIncrease: one}}}}
		}, "effects.any_of: list at least two alternatives"},
		{"empty alternative", func(e *Effects) {
			e.AnyOf = []EffectSet{{}, {InventoryDelta: map[string]InventoryChange{AnyItem: {MinIncrease: one}}}}
		}, "effects.any_of[0]: an alternative needs inventory_delta, blocks or machines"},
		{"problem inside an alternative", func(e *Effects) {
			e.AnyOf = []EffectSet{{Machines: []MachineChange{{Kind: "x", Fluid: "water"}}}, {InventoryDelta: map[string]InventoryChange{AnyItem: {MinIncrease: one}}}}
		}, "effects.any_of[0].machines[0]: give exactly one of"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := base()
			tc.set(&s.Effects)
			err := s.Validate(nil)
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestBlockMatcher(t *testing.T) {
	log := world.NewBlock("minecraft:log", 1)
	tests := []struct {
		matcher string
		block   world.Block
		want    bool
	}{
		{"minecraft:log", log, true},
		{"minecraft:log:1", log, true},
		{"minecraft:log:0", log, false},
		{"minecraft:log2", log, false},
		{"tag:log", log, true},
		{"tag:sapling", log, false},
		{"tag:log", world.Air, false},
		{"minecraft:air", world.Air, false},
		{"minecraft:air", world.NewBlock("minecraft:air", 0), false},
	}
	for _, tc := range tests {
		m, err := ParseBlockMatcher(tc.matcher)
		require.NoError(t, err, tc.matcher)
		assert.Equal(t, tc.want, m.Matches(tc.block), "%s on %s:%d", tc.matcher, tc.block.ID, tc.block.Meta)
		assert.Equal(t, tc.matcher, m.String())
	}
	for _, bad := range []string{"", "log", "tag:", "tag:Log", "a:b:c:d"} {
		_, err := ParseBlockMatcher(bad)
		assert.Error(t, err, bad)
	}
	assert.Equal(t, "minecraft:dirt", ResolveKey("{target}", Params{"target": "minecraft:dirt"}))
	assert.Equal(t, "tag:log", ResolveKey("tag:log", Params{}))
	assert.Equal(t, "tag:{target}", ResolveKey("tag:{target}", Params{"target": "minecraft:dirt"}), "only a whole key is a reference")
	assert.Equal(t, "{target}s", ResolveKey("{target}s", Params{"target": "minecraft:dirt"}), "only a whole key is a reference")
	assert.True(t, strings.HasPrefix(ResolveKey("{nearest:tree}", Params{}), "{"), "derived placeholders are not parameters")
}

func TestWorldEffectLines(t *testing.T) {
	spec, err := ParseSpec("dig.yaml", []byte(effHdr+`effects:
  inventory_delta: {"*": {min_increase: 1}}
  blocks:
    "{target}": {min_removed: 1, radius: "{radius}"}
    "tag:sapling": {min_placed: 2, radius: 8}
  machines:
    - {kind: steam_boiler, slot: fuel, item: "{fuel}", min_increase: 1, radius: "{radius}"}
  any_of:
    - inventory_delta: {"minecraft:coal:1": {min_increase: 1}}
    - machines: [{kind: coke_oven, fluid: creosote, min_decrease: 1000}]
`))
	require.NoError(t, err)
	assert.Equal(t, []string{
		"blocks tag:sapling: placed >= 2 within 8",
		"blocks {target}: removed >= 1 within {radius}",
		"machine steam_boiler slot fuel ({fuel}): increases by >= 1 within {radius}",
		"any_of[0]: inventory minecraft:coal:1: min_increase 1",
		"any_of[1]: machine coke_oven fluid creosote (mB): decreases by >= 1000",
	}, spec.Effects.WorldEffectLines())
	assert.Empty(t, Effects{}.WorldEffectLines())
}
