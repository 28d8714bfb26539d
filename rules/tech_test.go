package rules

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// evidenceWorld builds an inventory and machine list that show exactly one
// piece of evidence, using the shipped tag table for ore-dictionary items.
func evidenceWorld(t *testing.T, e Evidence) (game.Inventory, []game.Machine) {
	t.Helper()
	switch e.Kind {
	case EvidenceItem:
		count := max(e.Count, 1)
		if e.Item.IsTag() {
			keys := loadTags().ItemIDsWithTag(e.Item.String())
			require.NotEmpty(t, keys, "config/tags.yaml gives no item the tag %s used in config/tech.yaml", e.Item)
			id, meta, err := game.SplitID(keys[0])
			require.NoError(t, err)
			return game.NewInventory(newStack(id, max(meta, 0), count)), nil
		}
		id, meta := e.Item.ID()
		return game.NewInventory(newStack(id, max(meta, 0), count)), nil
	case EvidenceMachine:
		return game.NewInventory(), []game.Machine{{Kind: e.Machine, Formed: e.Formed, Pos: game.Pos(5, 64, 5)}}
	case EvidenceMachineTier:
		return game.NewInventory(), []game.Machine{{Kind: "gt_machine", Tier: e.MachineTier, Pos: game.Pos(5, 64, 5)}}
	}
	t.Fatalf("unknown evidence kind %q", e.Kind)
	return game.Inventory{}, nil
}

func TestShippedTechEveryTierReachable(t *testing.T) {
	data, err := fs.ReadFile(config.FS, "tech.yaml")
	require.NoError(t, err)
	tech, err := ParseTech("config/tech.yaml", data, loadTiers())
	require.NoError(t, err)
	assert.Same(t, loadTech(), loadTech())
	assert.Same(t, loadTiers(), loadTech().Tiers())

	names := loadTiers().Names()
	require.Equal(t, shippedTierOrder, names)
	assert.Empty(t, tech.Evidence("stone_age"), "the lowest tier needs nothing")
	assert.Nil(t, tech.Evidence("bronze_age"))
	for _, tier := range names[1:] {
		evidence := tech.Evidence(tier)
		require.NotEmpty(t, evidence, "tier %s has evidence", tier)
		for _, e := range evidence {
			inv, machines := evidenceWorld(t, e)
			got, why := tech.Explain(inv, machines)
			assert.Equal(t, tier, got, "evidence %s alone infers %s", e, tier)
			if assert.NotNil(t, why) {
				assert.True(t, why.Met(inv, machines))
			}
		}
	}
}

func TestShippedTechInference(t *testing.T) {
	tech := loadTech()
	bronze := newStack("gregtech:gt.metaitem.01", 11300, 4)
	lvCircuit := newStack("IC2:itemPartCircuit", 0, 1)
	mvCircuit := newStack("gregtech:gt.metaitem.03", 32080, 1)
	tests := []struct {
		name     string
		inv      game.Inventory
		machines []game.Machine
		want     string
	}{
		{"fresh player, empty inventory", game.NewInventory(), nil, "stone_age"},
		{"no slots at all", game.Inventory{}, nil, "stone_age"},
		{"stone age kit", game.NewInventory(newStack("minecraft:log", 0, 16), newTool("minecraft:stone_axe", 0, 100, 131), newStack("minecraft:coal", 0, 8)), nil, "stone_age"},
		{"bronze ingots", game.NewInventory(bronze), nil, "steam_age"},
		{"coal coke", game.NewInventory(newStack("Railcraft:fuel.coke", 0, 3)), nil, "steam_age"},
		{"formed coke oven", game.NewInventory(), []game.Machine{{Kind: game.MachineCokeOven, Formed: true}}, "steam_age"},
		{"unformed coke oven is not evidence", game.NewInventory(), []game.Machine{{Kind: game.MachineCokeOven}}, "stone_age"},
		{"small coal boiler", game.NewInventory(), []game.Machine{{Kind: game.MachineSteamBoiler}}, "steam_age"},
		{"a chest is not evidence", game.NewInventory(), []game.Machine{{Kind: game.MachineChest}}, "stone_age"},
		{"LV circuit without steam evidence", game.NewInventory(lvCircuit), nil, "lv"},
		{"LV circuit with bronze", game.NewInventory(bronze, lvCircuit), nil, "lv"},
		{"MV wins over LV", game.NewInventory(bronze, lvCircuit, mvCircuit), nil, "mv"},
		{"LV machine", game.NewInventory(bronze), []game.Machine{{Kind: "macerator", Tier: "lv"}}, "lv"},
		{"IV machine with MV items", game.NewInventory(mvCircuit), []game.Machine{{Kind: "assembler", Tier: "iv"}}, "iv"},
		{"tungstensteel", game.NewInventory(newStack("gregtech:gt.metaitem.01", 11316, 1)), nil, "iv"},
		{"transcendent mainframe", game.NewInventory(newStack("gregtech:gt.metaitem.03", 32177, 1)), nil, "max"},
		{"empty stack ignored", game.NewInventory(game.ItemStack{ID: "IC2:itemPartCircuit", Count: 0, Tags: []string{"ore:circuitBasic"}}), nil, "stone_age"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tech.Infer(tc.inv, tc.machines))
		})
	}
	_, why := tech.Explain(game.NewInventory(), nil)
	assert.Nil(t, why)
	tier, why := tech.Explain(game.NewInventory(), []game.Machine{{Kind: game.MachineCokeOven, Formed: true}})
	assert.Equal(t, "steam_age", tier)
	require.NotNil(t, why)
	assert.Equal(t, "formed machine coke_oven", why.String())
}

func TestTechEvidenceCountAndStrings(t *testing.T) {
	tiers, err := ParseTiers("t.yaml", []byte("tiers:\n  - name: a\n  - name: b\n  - name: c\n"))
	require.NoError(t, err)
	tech, err := ParseTech("tech.yaml", []byte(`tiers:
  a: ~
  b:
    - item: minecraft:coal:1
      count: 8
    - machine: furnace
  c:
    - machine_tier: c
`), tiers)
	require.NoError(t, err)
	assert.Equal(t, "a", tech.Infer(game.NewInventory(newStack("minecraft:coal", 1, 7)), nil))
	assert.Equal(t, "b", tech.Infer(game.NewInventory(newStack("minecraft:coal", 1, 5), newStack("minecraft:coal", 1, 3)), nil), "counts add up over slots")
	assert.Equal(t, "a", tech.Infer(game.NewInventory(newStack("minecraft:coal", 0, 64)), nil), "metadata must match")
	assert.Equal(t, "b", tech.Infer(game.NewInventory(), []game.Machine{{Kind: "furnace"}}))
	assert.Equal(t, "c", tech.Infer(game.NewInventory(), []game.Machine{{Kind: "furnace", Tier: "c"}}))
	ev := tech.Evidence("b")
	require.Len(t, ev, 2)
	assert.Equal(t, "item minecraft:coal:1 ×8", ev[0].String())
	assert.Equal(t, "machine furnace", ev[1].String())
	assert.Equal(t, "machine of tier c", tech.Evidence("c")[0].String())
	assert.Equal(t, "item ore:x", Evidence{Kind: EvidenceItem, Item: game.MustItem("ore:x")}.String())
	assert.Equal(t, "no evidence", Evidence{}.String())
	assert.False(t, Evidence{}.Met(game.NewInventory(), nil))
}

func TestParseTechErrors(t *testing.T) {
	tiers, err := ParseTiers("t.yaml", []byte("tiers:\n  - name: a\n  - name: b\n  - name: c\n"))
	require.NoError(t, err)
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"missing tiers", "{}\n", []string{"tech.yaml:1:1: tiers: required field is missing"}},
		{"unknown tier", "tiers:\n  a: []\n  b: [{machine: x}]\n  c: [{machine: y}]\n  bronze_age: [{machine: z}]\n",
			[]string{`tech.yaml:5:3: tiers.bronze_age: unknown tier "bronze_age" (known: a, b, c)`}},
		{"missing tier", "tiers:\n  a: []\n  c: [{machine: y}]\n", []string{"tech.yaml:2:3: tiers: missing tiers: b (every tier of the tier table needs an entry)"}},
		{"tier without evidence", "tiers:\n  a: []\n  b: []\n  c: [{machine: y}]\n",
			[]string{"tech.yaml:3:6: tiers.b: tier b needs at least one piece of evidence, or it could never be inferred"}},
		{"evidence on the lowest tier", "tiers:\n  a: [{machine: x}]\n  b: [{machine: x}]\n  c: [{machine: y}]\n",
			[]string{"tech.yaml:2:6: tiers.a: a is the lowest tier, reached with nothing; it takes no evidence"}},
		{"two kinds", "tiers:\n  a: []\n  b:\n    - {item: minecraft:coal, machine: furnace}\n  c: [{machine: y}]\n",
			[]string{"tech.yaml:4:7: tiers.b[0]: evidence needs exactly one of item, machine or machine_tier"}},
		{"no kind", "tiers:\n  a: []\n  b:\n    - {formed: true}\n  c: [{machine: y}]\n",
			[]string{"tech.yaml:4:7: tiers.b[0]: evidence needs exactly one of item, machine or machine_tier"}},
		{"unknown field", "tiers:\n  a: []\n  b:\n    - {item: minecraft:coal, cout: 2}\n  c: [{machine: y}]\n",
			[]string{`tech.yaml:4:30: tiers.b[0].cout: unknown field "cout" (did you mean "count"?)`}},
		{"bad matcher", "tiers:\n  a: []\n  b:\n    - item: \"ore:\"\n  c: [{machine: y}]\n",
			[]string{`tech.yaml:4:13: tiers.b[0].item: "ore:": ore-dictionary name expected after ore:`}},
		{"count on machine", "tiers:\n  a: []\n  b:\n    - {machine: furnace, count: 2}\n  c: [{machine: y}]\n",
			[]string{"tech.yaml:4:26: tiers.b[0].count: count applies to item evidence only"}},
		{"count zero", "tiers:\n  a: []\n  b:\n    - {item: minecraft:coal, count: 0}\n  c: [{machine: y}]\n",
			[]string{"tech.yaml:4:37: tiers.b[0].count: count must be at least 1, got 0"}},
		{"formed on item", "tiers:\n  a: []\n  b:\n    - {item: minecraft:coal, formed: true}\n  c: [{machine: y}]\n",
			[]string{"tech.yaml:4:30: tiers.b[0].formed: formed applies to machine evidence only"}},
		{"formed not bool", "tiers:\n  a: []\n  b:\n    - {machine: x, formed: yes please}\n  c: [{machine: y}]\n",
			[]string{`tech.yaml:4:28: tiers.b[0].formed: expected true or false, got the string "yes please"`}},
		{"bad machine kind", "tiers:\n  a: []\n  b:\n    - machine: Coke Oven\n  c: [{machine: y}]\n",
			[]string{`tech.yaml:4:16: tiers.b[0].machine: machine kind "Coke Oven" must be lowercase letters, digits and underscores`}},
		{"unknown machine tier", "tiers:\n  a: []\n  b:\n    - machine_tier: luv\n  c: [{machine: y}]\n",
			[]string{`tech.yaml:4:21: tiers.b[0].machine_tier: unknown tier "luv" (known: a, b, c)`}},
		{"tier not a list", "tiers:\n  a: []\n  b: {machine: x}\n  c: [{machine: y}]\n",
			[]string{"tech.yaml:3:6: tiers.b: expected a list, got a mapping"}},
		{"two documents", "tiers: {}\n---\ntiers: {}\n", []string{"tech.yaml:3:1: a file holds one YAML document; found a second one"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTech("tech.yaml", []byte(tc.src), tiers)
			require.Error(t, err)
			var list strictyaml.Errors
			require.True(t, errors.As(err, &list), "errors are located: %v", err)
			var got []string
			for _, e := range list {
				got = append(got, e.Error())
			}
			assert.Equal(t, tc.want, got)
		})
	}

	// Several problems are all reported, in file order.
	_, err = ParseTech("tech.yaml", []byte("tiers:\n  a: []\n  b:\n    - machine: X\n    - item: nope\n  c: [{machine_tier: zz}]\n"), tiers)
	require.Error(t, err)
	assert.Equal(t, 3, strings.Count(err.Error(), "tech.yaml:"), err.Error())
}
