package skills

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// preSpec builds a go spec named "dig" with the given preconditions block.
func preSpec(t *testing.T, preconditions string) *Spec {
	t.Helper()
	return parseSrc(t, goHdr+"preconditions:\n"+preconditions)
}

func checkPre(t *testing.T, spec *Spec, w *world.Snapshot) error {
	t.Helper()
	return CheckPreconditions(spec, w, rules.Default().Tiers)
}

func assertPre(t *testing.T, err error, code Code, msg string) {
	t.Helper()
	if code == "" {
		assert.NoError(t, err)
		return
	}
	require.Error(t, err)
	var f *Failure
	require.True(t, errors.As(err, &f), "%T", err)
	assert.Equal(t, code, f.Code, "%v", f)
	assert.Equal(t, "dig", f.Skill)
	if msg != "" {
		assert.Equal(t, msg, f.Msg)
	}
}

func TestCheckPreconditionsTier(t *testing.T) {
	tests := []struct {
		name  string
		anyOf string
		tier  string
		code  Code
		msg   string
	}{
		{"exact match", "[lv]", "lv", "", ""},
		{"exact mismatch above", "[lv]", "mv", CodeTierMismatch, `tech state "mv" is not in lv`},
		{"exact mismatch below", "[lv]", "steam_age", CodeTierMismatch, ""},
		{"range includes", `[">= steam_age"]`, "hv", "", ""},
		{"range includes its bound", `[">= steam_age"]`, "steam_age", "", ""},
		{"range excludes", `[">= steam_age"]`, "stone_age", CodeTierMismatch, `tech state "stone_age" is not in >= steam_age`},
		{"span", `["steam_age..lv"]`, "lv", "", ""},
		{"span excludes", `["steam_age..lv"]`, "mv", CodeTierMismatch, ""},
		{"strictly below", `["< lv"]`, "steam_age", "", ""},
		{"strictly below excludes", `["< lv"]`, "lv", CodeTierMismatch, ""},
		{"any of several", `[stone_age, ">= mv"]`, "ev", "", ""},
		{"any of several, none", `[stone_age, ">= mv"]`, "lv", CodeTierMismatch, `tech state "lv" is not in stone_age | >= mv`},
		{"any", `[any]`, "max", "", ""},
		{"unknown tech state", "[lv]", "", CodeTierMismatch, `tech state "" is not in lv`},
		{"unknown tech state with any", "[any]", "ulv", CodeTierMismatch, ""},
		{"no tier requirement", "[]", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec := preSpec(t, "  tech_states_any_of: "+tc.anyOf+"\n")
			w := snapshot(nil)
			w.TechState = tc.tier
			assertPre(t, checkPre(t, spec, w), tc.code, tc.msg)
		})
	}

	t.Run("invalid range in a spec built in code", func(t *testing.T) {
		spec := &Spec{Name: "dig", Preconditions: Preconditions{TechStatesAnyOf: []string{"lv", "bogus"}}}
		w := snapshot(nil)
		w.TechState = "mv"
		assertPre(t, checkPre(t, spec, w), CodeInternal, "")
		w.TechState = "lv"
		assertPre(t, checkPre(t, spec, w), "", "")
	})
	t.Run("custom tier table", func(t *testing.T) {
		tiers, err := rules.ParseTiers("t.yaml", []byte("tiers:\n  - name: early\n  - name: late\n"))
		require.NoError(t, err)
		spec := &Spec{Name: "dig", Preconditions: Preconditions{TechStatesAnyOf: []string{">= late"}}}
		w := snapshot(nil)
		w.TechState = "late"
		assert.NoError(t, CheckPreconditions(spec, w, tiers))
		w.TechState = "early"
		assertPre(t, CheckPreconditions(spec, w, tiers), CodeTierMismatch, "")
	})
}

func TestCheckPreconditionsDimension(t *testing.T) {
	spec := preSpec(t, "  dimension_allowlist: [overworld, nether]\n")
	for dim, code := range map[string]Code{
		world.Overworld: "",
		world.Nether:    "",
		world.End:       CodeWrongDimension,
		"":              CodeWrongDimension,
	} {
		w := snapshot(nil)
		w.Player.Dimension = dim
		err := checkPre(t, spec, w)
		assertPre(t, err, code, "")
		if code != "" {
			assert.Contains(t, err.Error(), `dimension "`+dim+`" is not one of overworld, nether`)
		}
	}
}

func TestCheckPreconditionsTools(t *testing.T) {
	axeSpec := preSpec(t, "  required_tools:\n    - item_id: minecraft:iron_axe\n      min_durability: 10\n")
	classSpec := preSpec(t, "  required_tools:\n    - item_id: \"tool:axe\"\n      min_durability: 10\n    - item_id: \"ore:craftingToolSaw\"\n")
	tests := []struct {
		name string
		spec *Spec
		inv  world.Inventory
		code Code
		msg  string
	}{
		{"present", axeSpec, world.NewInventory(world.NewTool("minecraft:iron_axe", 0, 200, 250)), "", ""},
		{"exactly worn to the limit", axeSpec, world.NewInventory(world.NewTool("minecraft:iron_axe", 0, 10, 250)), "", ""},
		{"absent", axeSpec, world.NewInventory(world.NewStack("minecraft:log", 0, 5)), CodeMissingTool, "no minecraft:iron_axe in the inventory"},
		{"empty inventory", axeSpec, world.Inventory{}, CodeMissingTool, "no minecraft:iron_axe in the inventory"},
		{"worn", axeSpec, world.NewInventory(world.NewTool("minecraft:iron_axe", 0, 9, 250)), CodeMissingTool, "minecraft:iron_axe has less than 10 durability left"},
		{"one worn, one good", axeSpec, world.NewInventory(
			world.NewTool("minecraft:iron_axe", 0, 3, 250),
			world.NewTool("minecraft:iron_axe", 0, 100, 250)), "", ""},
		{"other axe does not match an exact id", axeSpec, world.NewInventory(world.NewTool("minecraft:stone_axe", 0, 100, 131)), CodeMissingTool, "no minecraft:iron_axe in the inventory"},
		{"tool class and ore name", classSpec, world.NewInventory(
			world.NewTool("minecraft:stone_axe", 0, 100, 131),
			world.NewTool("gregtech:gt.metatool.01", 10, 1, 100)), "", ""},
		{"tool class, second tool missing", classSpec, world.NewInventory(world.NewTool("TConstruct:hatchet", 0, 11, 500)), CodeMissingTool, "no ore:craftingToolSaw in the inventory"},
		{"tool class worn", classSpec, world.NewInventory(world.NewTool("minecraft:stone_axe", 0, 2, 131)), CodeMissingTool, "tool:axe has less than 10 durability left"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := snapshot(nil)
			w.Inventory = tc.inv
			assertPre(t, checkPre(t, tc.spec, w), tc.code, tc.msg)
		})
	}

	t.Run("invalid matcher in a spec built in code", func(t *testing.T) {
		spec := &Spec{Name: "dig", Preconditions: Preconditions{RequiredTools: []ToolRequirement{{ItemID: "axe"}}}}
		assertPre(t, checkPre(t, spec, snapshot(nil)), CodeInternal, "")
	})
}

func TestCheckPreconditionsSemanticTags(t *testing.T) {
	treeSpec := preSpec(t, "  semantic_tags_any_of: [tree]\n")
	ovenOrWater := preSpec(t, "  semantic_tags_any_of: [coke_oven, water_source]\n")
	wideSpec := preSpec(t, "  semantic_tags_any_of: [tree]\n  extra:\n    tag_radius: 50\n")
	tests := []struct {
		name     string
		spec     *Spec
		blocks   world.BlockSource
		machines []world.Machine
		code     Code
		msg      string
	}{
		{"tagged block nearby", treeSpec, world.NewSparseBlocks().SetID(world.Pos(5, 70, 5), "minecraft:leaves", 0), nil, "", ""},
		{"block at the default radius", treeSpec, world.NewSparseBlocks().SetID(world.Pos(32, 64, 0), "minecraft:log", 0), nil, "", ""},
		{"block beyond the default radius", treeSpec, world.NewSparseBlocks().SetID(world.Pos(33, 64, 0), "minecraft:log", 0), nil, CodeNoTarget, "no block tagged tree within 32 blocks"},
		{"extra.tag_radius widens the search", wideSpec, world.NewSparseBlocks().SetID(world.Pos(40, 64, 0), "minecraft:log", 0), nil, "", ""},
		{"untagged blocks only", treeSpec, world.NewSparseBlocks().SetID(world.Pos(1, 64, 0), "minecraft:dirt", 0), nil, CodeNoTarget, ""},
		{"second tag found via block", ovenOrWater, world.NewSparseBlocks().SetID(world.Pos(3, 64, 0), "minecraft:water", 0), nil, "", ""},
		{"tag found via machine kind", ovenOrWater, world.NewSparseBlocks(), []world.Machine{{Kind: world.MachineCokeOven, Pos: world.Pos(10, 64, 10)}}, "", ""},
		{"machine kind without blocks", ovenOrWater, nil, []world.Machine{{Kind: world.MachineCokeOven, Pos: world.Pos(0, 64, -20)}}, "", ""},
		{"machine too far", ovenOrWater, nil, []world.Machine{{Kind: world.MachineCokeOven, Pos: world.Pos(0, 64, 40)}}, CodeNoTarget, "no block tagged coke_oven or water_source within 32 blocks"},
		{"other machine kind", ovenOrWater, nil, []world.Machine{{Kind: world.MachineChest, Pos: world.Pos(1, 64, 0)}}, CodeNoTarget, ""},
		{"nothing at all", treeSpec, nil, nil, CodeNoTarget, "no block tagged tree within 32 blocks"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertPre(t, checkPre(t, tc.spec, snapshot(tc.blocks, tc.machines...)), tc.code, tc.msg)
		})
	}
}

func TestCheckPreconditionsOrderAndSeedSpec(t *testing.T) {
	spec := loadFixture(t, "chop_tree.yaml")
	good := func() *world.Snapshot {
		w := snapshot(world.NewSparseBlocks().SetID(world.Pos(4, 64, 0), "minecraft:log", 0))
		w.TechState = "stone_age"
		w.Inventory = world.NewInventory(world.NewTool("minecraft:iron_axe", 0, 100, 250))
		return w
	}
	assert.NoError(t, checkPre(t, spec, good()))

	// Break every precondition, then repair them one by one: the first
	// unmet one in order (tier, dimension, tools, tags) is reported.
	w := good()
	w.TechState = "lv"
	w.Player.Dimension = world.Nether
	w.Inventory = world.Inventory{}
	w.Blocks = nil
	err := checkPre(t, spec, w)
	var f *Failure
	require.True(t, errors.As(err, &f))
	assert.Equal(t, CodeTierMismatch, f.Code)
	assert.Equal(t, "chop_tree", f.Skill)

	w.TechState = "steam_age"
	require.True(t, errors.As(checkPre(t, spec, w), &f))
	assert.Equal(t, CodeWrongDimension, f.Code)

	w.Player.Dimension = world.Overworld
	require.True(t, errors.As(checkPre(t, spec, w), &f))
	assert.Equal(t, CodeMissingTool, f.Code)

	w.Inventory = world.NewInventory(world.NewTool("minecraft:iron_axe", 0, 100, 250))
	require.True(t, errors.As(checkPre(t, spec, w), &f))
	assert.Equal(t, CodeNoTarget, f.Code)
	assert.Equal(t, "chop_tree: no_target: no block tagged tree within 32 blocks", f.Error())

	assert.NoError(t, checkPre(t, &Spec{Name: "free"}, snapshot(nil)), "no preconditions, nothing to check")
}
