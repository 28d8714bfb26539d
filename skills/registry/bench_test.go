package registry

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/packs"
)

// bigRegistry builds nSkills go skills and nPacks packs; pack i holds the
// skills i*per .. i*per+per-1 plus 10 skills shared with the next pack, and
// packs span the tiers so gating does real work.
func bigRegistry(tb testing.TB, nSkills, nPacks int) (*Registry, []string) {
	tb.Helper()
	base, err := skills.ParseSpec("", []byte(`name: base
version: 1
description: A generated skill used to measure catalog building.
params:
  radius: {type: int, default: 16, description: Search radius.}
  item: {type: item_id, default: "ore:logWood", description: Item.}
preconditions:
  tech_states_any_of: [">= stone_age"]
  dimension_allowlist: [overworld]
  semantic_tags_any_of: [tree]
effects:
  inventory_delta:
    "{item}": {min_increase: 1}
  tags: [gathers]
tags: [gathering, generated]
emits: [move_to, break_block]
`))
	require.NoError(tb, err)
	specs := make([]*skills.Spec, nSkills)
	for i := range specs {
		s := base.Clone()
		s.Name = fmt.Sprintf("skill_%05d", i)
		specs[i] = s
	}
	tiers := []string{">= stone_age", ">= steam_age", "steam_age..mv", "<= hv", "any"}
	per := nSkills / nPacks
	var list []*packs.Pack
	var names []string
	for p := range nPacks {
		var b strings.Builder
		fmt.Fprintf(&b, "name: pack_%03d\nrequires_tech_state: %q\nskills:\n", p, tiers[p%len(tiers)])
		for i := p * per; i < p*per+per+10 && i < nSkills; i++ {
			fmt.Fprintf(&b, "  - skill_%05d\n", i)
		}
		pk, err := packs.ParsePack(fmt.Sprintf("pack_%03d.yaml", p), []byte(b.String()), nil)
		require.NoError(tb, err)
		list = append(list, pk)
		names = append(names, pk.Name)
	}
	set, err := packs.NewSet(nil, list...)
	require.NoError(tb, err)
	r, err := New(specs, Options{Packs: set})
	require.NoError(tb, err)
	for _, s := range specs {
		require.NoError(tb, r.Register(fakeImpl{name: s.Name}))
	}
	require.NoError(tb, r.Finalize())
	return r, names
}

// BenchmarkDescribeForTechState: 10,000 skills, 100 packs, every pack
// enabled, after the first call. Target: ≤ 1 ms per call.
func BenchmarkDescribeForTechState(b *testing.B) {
	r, names := bigRegistry(b, 10000, 100)
	first, err := r.DescribeForTechState("lv", names)
	require.NoError(b, err)
	require.Greater(b, len(first), 5000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.DescribeForTechState("lv", names); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDescribeForTechStateAfterOutcome measures the rebuild after a
// metric update (the loop records one outcome per step), which drops the
// cached catalog but keeps the other skills' descriptions.
func BenchmarkDescribeForTechStateAfterOutcome(b *testing.B) {
	r, names := bigRegistry(b, 10000, 100)
	_, err := r.DescribeForTechState("lv", names)
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.RecordOutcome("skill_00042", 0, true, 10); err != nil {
			b.Fatal(err)
		}
		if _, err := r.DescribeForTechState("lv", names); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDescribeForTechStateCold measures the very first call: pack
// resolution plus describing every skill.
func BenchmarkDescribeForTechStateCold(b *testing.B) {
	r, names := bigRegistry(b, 10000, 100)
	b.ReportAllocs()
	for b.Loop() {
		r.mu.Lock()
		r.descs = map[string]*Description{}
		r.catalogs = map[string]*catalog{}
		r.mu.Unlock()
		if _, err := r.DescribeForTechState("lv", names); err != nil {
			b.Fatal(err)
		}
	}
}
