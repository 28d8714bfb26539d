package chain

import (
	"context"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// BenchmarkPlanFreshStart plans the first step of GTNH's deepest early
// chain the planner knows (the flint mortar: stone smelted from
// cobblestone in a furnace of cobblestone mined with a wooden pickaxe)
// from an empty inventory in fresh_start: one whole search, every level of
// it, over a generated world with its forest.
func BenchmarkPlanFreshStart(b *testing.B) {
	reg, err := registry.LoadConfig(config.FS, registry.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := reg.RegisterProvided(); err != nil {
		b.Fatal(err)
	}
	if err := reg.Finalize(); err != nil {
		b.Fatal(err)
	}
	sc, err := sim.Embedded("fresh_start")
	if err != nil {
		b.Fatal(err)
	}
	s, err := sim.New(sc, sim.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w, err := s.Observe(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	goal, err := loop.ParseGoal("have 1 gregtech:gt.metatool.01:24", reg.Tiers())
	if err != nil {
		b.Fatal(err)
	}
	catalog, err := reg.DescribeForTechState(w.TechState, reg.Packs().Names())
	if err != nil {
		b.Fatal(err)
	}
	obs := loop.Observation{Snapshot: w, Progress: goal.Check(w, reg.Tiers(), false)}
	for b.Loop() {
		dec, err := Planner{}.Plan(context.Background(), goal, obs, catalog)
		if err != nil || dec.Invocation == nil {
			b.Fatalf("no first step: %v", err)
		}
	}
}
