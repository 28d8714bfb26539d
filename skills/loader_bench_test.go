package skills

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// genSpec writes a realistic spec: several typed params, every precondition
// field, inventory effects with parameter references, tags and metrics.
func genSpec(i int) string {
	return fmt.Sprintf(`name: gen_skill_%04d
version: 1
status: active
origin: synthesized
implementation: go
description: >-
  Generated skill number %d. Finds the nearest matching block within the
  radius, walks there and works it, collecting the drops.
params:
  radius:
    type: int
    default: 16
    min: 1
    max: 64
    description: Search radius in blocks.
  count:
    type: int
    default: 4
    min: 1
    description: How many items to gather.
  item:
    type: item_id
    default: "ore:logWood"
    description: What to gather.
  pause:
    type: duration
    default: 2s
    description: Wait between steps.
  target:
    type: block_pos
    default: [10, 64, -3]
    description: Where to start.
preconditions:
  tech_states_any_of: [">= stone_age", "steam_age..lv"]
  required_tools:
    - item_id: "tool:axe"
      min_durability: 10
  dimension_allowlist: [overworld, twilight_forest]
  semantic_tags_any_of: [tree, log]
  extra: {note: generated, weight: %d}
effects:
  inventory_delta:
    "{item}": {min_increase: "{count}"}
    "minecraft:apple": {max_decrease: 0}
  tech_delta: {unlocks: [wood]}
  tags: [gathers]
  extra: {}
tags: [gathering, generated, low_risk]
metrics: {success_rate: 0.75, avg_cost: 120.5, samples: 3}
emits: [equip, move_to, break_block, wait]
`, i, i, i%7)
}

func writeGenerated(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	for i := range n {
		name := filepath.Join(dir, fmt.Sprintf("gen_skill_%04d.yaml", i))
		require.NoError(tb, os.WriteFile(name, []byte(genSpec(i)), 0o644))
	}
	return dir
}

// BenchmarkLoadDir1000 measures loading 1,000 generated spec files from disk
// (read, parse, validate, all errors collected). Target: ≤ 200 ms per load.
func BenchmarkLoadDir1000(b *testing.B) {
	dir := writeGenerated(b, 1000)
	fsys := os.DirFS(dir)
	b.ReportAllocs()
	for b.Loop() {
		specs, err := LoadDir(fsys, ".")
		if err != nil {
			b.Fatal(err)
		}
		if len(specs) != 1000 {
			b.Fatalf("loaded %d specs", len(specs))
		}
	}
}

func TestGeneratedSpecsLoad(t *testing.T) {
	dir := writeGenerated(t, 20)
	specs, err := LoadDir(os.DirFS(dir), ".")
	require.NoError(t, err)
	require.Len(t, specs, 20)
	require.Equal(t, "gen_skill_0000", specs[0].Name)
	require.Equal(t, Amount{Param: "count"}, *specs[0].Effects.InventoryDelta["{item}"].MinIncrease)
}
