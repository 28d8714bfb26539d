package rules

import (
	"errors"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

func located(t *testing.T, err error) {
	t.Helper()
	var list strictyaml.Errors
	if !errors.As(err, &list) || len(list) == 0 {
		t.Fatalf("error is not a located list: %T %v", err, err)
	}
}

func FuzzParseTiers(f *testing.F) {
	f.Add([]byte("tiers:\n  - name: a\n    voltage: 8\n  - name: b\n"))
	f.Add([]byte("tiers: []\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tiers, err := ParseTiers("t.yaml", data)
		if err != nil {
			located(t, err)
			return
		}
		names := tiers.Names()
		if len(names) == 0 {
			t.Fatal("accepted an empty tier table")
		}
		r, err := tiers.ParseRange(">= " + names[0])
		if err != nil || !tiers.Includes(r, names[len(names)-1]) {
			t.Fatalf("range over a parsed table failed: %v", err)
		}
	})
}

func FuzzParseTags(f *testing.F) {
	f.Add([]byte("blocks:\n  minecraft:log: [log]\nitems:\n  minecraft:coal:1: [ore:gemCharcoal]\n"))
	f.Add([]byte("blocks: {bad: [x]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tags, err := ParseTags("tags.yaml", data)
		if err != nil {
			located(t, err)
			return
		}
		_ = tags.BlockTags("minecraft:log", 0)
		_ = tags.ItemTags("minecraft:coal", 1)
	})
}

func FuzzParseRecipes(f *testing.F) {
	f.Add([]byte("recipes:\n  - output: minecraft:planks\n    count: 2\n    grid: 2x2\n    ingredients:\n      - {item: \"ore:logWood\", count: 1}\n"))
	f.Add([]byte("recipes:\n  - output: x\n"))
	f.Add([]byte("recipes:\n  - output: TConstruct:pickaxeHead:3\n    station: TConstruct:ToolStationBlock:1\n    ingredients: [{item: minecraft:flint}]\n    tools: [\"TConstruct:woodPattern:2\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		book, err := ParseRecipes("r.yaml", data)
		if err != nil {
			located(t, err)
			return
		}
		for _, r := range book.All() {
			if r.Output == "" || r.Count < 1 || len(book.For(r.Output)) == 0 {
				t.Fatalf("accepted a broken recipe: %+v", r)
			}
			if r.AtStation() {
				// A station recipe names one block and takes no grid.
				if _, _, err := game.SplitID(r.Station); err != nil || r.Grid != "" || r.Shape != nil || r.NeedsTable() {
					t.Fatalf("accepted a broken station recipe: %+v", r)
				}
			}
			if r.Shape != nil {
				// An accepted pattern lays out within its grid.
				if _, _, ok := r.Layout(3); !ok {
					t.Fatalf("accepted a pattern that does not fit: %+v", r)
				}
			}
		}
	})
}

func FuzzParseIDMap(f *testing.F) {
	f.Add([]byte("blocks:\n  0: minecraft:air\n  1: minecraft:stone\nitems:\n  263: minecraft:coal\n"))
	f.Add([]byte("blocks:\n  1: stone\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ids, err := ParseIDMap("ids.yaml", data)
		if err != nil {
			located(t, err)
			return
		}
		if !ids.Frozen() {
			t.Fatal("a parsed map is not frozen")
		}
		// Every registered name resolves back to its id.
		for id := 0; id < len(ids.blocks); id++ {
			if name, ok := ids.BlockName(id); ok {
				if back, ok := ids.BlockID(name); !ok || back != id {
					t.Fatalf("block %d %q resolves back to %d", id, name, back)
				}
			}
		}
		for id := 0; id < len(ids.items); id++ {
			if name := ids.items[id]; name != "" {
				if back, ok := ids.ItemID(name); !ok || back != id {
					t.Fatalf("item %d %q resolves back to %d", id, name, back)
				}
			}
		}
	})
}

func FuzzParseTech(f *testing.F) {
	f.Add([]byte("tiers:\n  a: []\n  b:\n    - item: ore:ingotBronze\n    - machine: coke_oven\n      formed: true\n  c:\n    - machine_tier: c\n"))
	f.Add([]byte("tiers:\n  a: [{machine: x}]\n"))
	tiers, err := ParseTiers("t.yaml", []byte("tiers:\n  - name: a\n  - name: b\n  - name: c\n"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tech, err := ParseTech("tech.yaml", data, tiers)
		if err != nil {
			located(t, err)
			return
		}
		if len(tech.Evidence("a")) != 0 {
			t.Fatal("the lowest tier accepted evidence")
		}
		for _, name := range []string{"b", "c"} {
			ev := tech.Evidence(name)
			if len(ev) == 0 {
				t.Fatalf("tier %s accepted without evidence", name)
			}
			for _, e := range ev {
				if e.Kind != EvidenceItem && e.Kind != EvidenceMachine && e.Kind != EvidenceMachineTier {
					t.Fatalf("evidence of kind %q", e.Kind)
				}
			}
		}
		if got := tech.Infer(game.NewInventory(), nil); got != "a" {
			t.Fatalf("empty world inferred %s", got)
		}
	})
}

func FuzzParseOres(f *testing.F) {
	f.Add([]byte("block: gregtech:gt.blockores\nraw_ore: {item: gregtech:gt.metaitem.03, offset: 5000}\nsmall_ore_tag: oreSmall\n" +
		"veins: {grid: 3, percentage: 100, attempts: 64, placement_attempts: 8, small_ores_multiplier: 2}\n" +
		"materials:\n  Copper: {id: 35, tool_quality: 1, smelts_into: \"gregtech:gt.metaitem.01:11035\"}\nunplaced: [Gold]\n" +
		"mixes:\n  - {name: a, min_y: 5, max_y: 60, weight: 1, density: 3, size: 24, primary: Copper, secondary: Copper, between: Gold, sporadic: Copper}\n"))
	f.Add([]byte("block: x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := ParseOres("o.yaml", data)
		if err != nil {
			located(t, err)
			return
		}
		for _, m := range o.Materials() {
			if l := m.HarvestLevel(false); l < 0 || l > 7 {
				t.Fatalf("%s: harvest level %d", m.Name, l)
			}
			_ = o.Tag(m, true)
		}
		for _, mix := range o.Mixes() {
			if mix.MaxY < mix.MinY+9 || mix.Density < 1 || mix.Size < 1 {
				t.Fatalf("accepted a mix the generator cannot place: %+v", mix)
			}
		}
		_ = o.SmeltRecipes()
	})
}
