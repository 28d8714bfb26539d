package loop_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/sim"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base" // the Go skills register themselves
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// Example plays the embedded simulated scenario from Go, as agent run does:
// a registry built from the shipped configuration, the simulated world as
// the body, the goal-chaining planner, and the loop until the goal holds.
func Example() {
	ctx := context.Background()

	// The registry: every spec and pack problem comes back at once, with
	// file:line:column. The Go skills of imported packages are bound, and
	// Finalize checks that every active Go spec has its implementation.
	reg, err := registry.LoadConfig(config.FS, registry.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if err := reg.RegisterProvided(); err != nil {
		log.Fatal(err)
	}
	if err := reg.Finalize(); err != nil {
		log.Fatal(err)
	}

	// The body: the simulated world of the embedded scenario.
	sc, err := sim.DefaultScenario()
	if err != nil {
		log.Fatal(err)
	}
	world, err := sim.New(sc, sim.Options{})
	if err != nil {
		log.Fatal(err)
	}

	// The goal. A GoalParser with Names (agent run builds them from the
	// registry and the world's name tables) also checks every item, skill
	// and parameter it names.
	goal, err := loop.GoalParser{Tiers: reg.Tiers()}.Parse("have 4 minecraft:planks")
	if err != nil {
		log.Fatal(err)
	}

	l, err := loop.New(ctx, loop.Config{
		Registry: reg,
		Conn:     ipc.InProcess(world),
		Planner:  chain.Planner{},
		Goal:     goal,
		OnStep: func(r loop.StepRecord) {
			fmt.Printf("step %d: %s %s\n", r.Step, r.Invocation, r.Verdict)
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	out, err := l.Run(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("goal met: %v after %d steps, %d ticks\n", out.GoalMet, out.Steps, out.Ticks)
	// Output:
	// step 1: chop_tree min_logs=2 success
	// step 2: basic_crafting count=4 item=minecraft:planks success
	// goal met: true after 2 steps, 336 ticks
}

// Example_registry uses the skill registry on its own: the catalog a
// planner sees at a tier, a skill's actions for a world, and the learned
// metrics.
func Example_registry() {
	reg, err := registry.LoadConfig(config.FS, registry.Options{}) // StatePath keeps metrics across runs
	if err != nil {
		log.Fatal(err)
	}
	if err := reg.RegisterProvided(); err != nil {
		log.Fatal(err)
	}
	if err := reg.Finalize(); err != nil {
		log.Fatal(err)
	}

	// The catalog at steam_age with two packs enabled, dependencies first.
	catalog, err := reg.DescribeForTechState("steam_age", []string{"stone_age", "steam_age"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(catalog), "skills, first", catalog[0].Name)

	// A skill's actions for a world: parameters validated and defaulted,
	// preconditions checked, or a *skills.Failure saying why not.
	sc, err := sim.DefaultScenario()
	if err != nil {
		log.Fatal(err)
	}
	world, err := sim.New(sc, sim.Options{})
	if err != nil {
		log.Fatal(err)
	}
	snapshot, err := world.Observe(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	skill, err := reg.GetSkill("mine_block")
	if err != nil {
		log.Fatal(err)
	}
	sug, err := skill.Suggest(snapshot, map[string]any{"target": "minecraft:gravel"})
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range sug.Actions {
		fmt.Println(a.Kind())
	}

	// The outcome of a run of it (success, 45 ticks) updates its metrics.
	m, err := reg.RecordOutcome("mine_block", skill.Version(), true, 45)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("success rate %.0f%%, average cost %.0f ticks\n", *m.SuccessRate*100, *m.AvgCost)
	// Output:
	// 20 skills, first chop_tree
	// move_to
	// break_block
	// success rate 100%, average cost 45 ticks
}
