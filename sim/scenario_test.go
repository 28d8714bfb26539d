package sim

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func TestDefaultScenarioParses(t *testing.T) {
	sc, err := DefaultScenario()
	require.NoError(t, err)
	assert.Equal(t, "forest_base", sc.Name)
	assert.Equal(t, world.Pos(24, 64, 32), sc.Player.Pos)
	kinds := map[string]int{}
	for _, m := range sc.Machines {
		kinds[m.Kind]++
	}
	assert.Equal(t, map[string]int{"coke_oven": 2, "steam_boiler": 1, "water_tank": 1, "chest": 1}, kinds)
	assert.Equal(t, 32, sc.Machines[4].Slots["0"].Count)
}

// Every block, fuel and coke oven product the simulator's own data uses is
// a name of the shipped tables, so Names (what scenarios, goals and scripts
// are checked against) covers the simulated world.
func TestSimDataNamesAreKnown(t *testing.T) {
	n := Names()
	for kind, b := range machineBlocks {
		assert.NoError(t, n.CheckBlock(b), "machine %s", kind)
	}
	for id := range fuels {
		assert.NoError(t, n.CheckItem(id), "fuel")
	}
	for _, r := range rules.Default().Coke.All() {
		assert.NoError(t, n.CheckItem(r.Input.String()), "coke oven input")
		assert.NoError(t, n.CheckItem(r.Output), "coke oven output")
	}
	assert.Error(t, n.CheckItem("Railcraft:fuel.cok"))
}

func TestScenarioErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"unknown key", "name: x\nplayer: {pos: [1, 64, 1]}\nmachine: []\n", []string{`s.yaml:3:1: machine: unknown field "machine" (did you mean "machines"?)`}},
		{"missing player", "name: x\n", []string{"s.yaml:1:1: player: required field is missing"}},
		{"outside", "name: x\nsize: {x: 16, z: 16}\nplayer: {pos: [20, 64, 1]}\n", []string{"s.yaml:3:15: player.pos: (20, 64, 1) is outside the world"}},
		{"bad size", "name: x\nsize: {x: 2, z: 16}\nplayer: {pos: [1, 64, 1]}\n", []string{"s.yaml:2:11: size.x: must be within 8..1024"}},
		{"bad block", "name: x\nplayer: {pos: [1, 64, 1]}\nblocks:\n  - {block: stone, pos: [1, 63, 1]}\n", []string{`s.yaml:4:13: blocks[0].block: "stone" is not an id`}},
		{"pos and fill", "name: x\nplayer: {pos: [1, 64, 1]}\nblocks:\n  - {block: minecraft:stone, pos: [1, 63, 1], from: [1, 1, 1], to: [2, 2, 2]}\n", []string{"s.yaml:4:5: blocks[0]: give either pos, or from and to"}},
		{"tree needs room", "name: x\nplayer: {pos: [1, 64, 1]}\ntrees:\n  - {at: [0, 5]}\n", []string{"s.yaml:4:10: trees[0].at: trees need 2 blocks of room"}},
		{"unknown machine", "name: x\nplayer: {pos: [1, 64, 1]}\nmachines:\n  - {kind: fusion_reactor, pos: [3, 64, 3]}\n", []string{`s.yaml:4:12: machines[0].kind: unknown machine kind "fusion_reactor"`}},
		{"bad tank", "name: x\nplayer: {pos: [1, 64, 1]}\nmachines:\n  - kind: steam_boiler\n    pos: [3, 64, 3]\n    fluids:\n      water: {amount: 16001, capacity: 16000}\n", []string{"s.yaml:7:14: machines[0].fluids.water: amount must be within 0..capacity"}},
		{"unknown block", "name: x\nplayer: {pos: [1, 64, 1]}\nblocks:\n  - {block: minecraft:gravle, pos: [1, 63, 1]}\n  - {block: minecraft:log, pos: [2, 63, 1]}\n",
			[]string{`s.yaml:4:13: blocks[0].block: unknown block "minecraft:gravle" (did you mean "minecraft:gravel"?)`}},
		{"an item is not a block", "name: x\nplayer: {pos: [1, 64, 1]}\nblocks:\n  - {block: minecraft:stick, pos: [1, 63, 1]}\n",
			[]string{`s.yaml:4:13: blocks[0].block: unknown block "minecraft:stick"`}},
		{"unknown mod block", "name: x\nplayer: {pos: [1, 64, 1]}\nblocks:\n  - {block: somemod:widget, pos: [1, 63, 1]}\n",
			[]string{`s.yaml:4:13: blocks[0].block: unknown block "somemod:widget"`}},
		{"unknown items", "name: x\nplayer:\n  pos: [1, 64, 1]\n  inventory:\n    - {item: minecraft:lgo}\n    - {item: minecraft:log}\nmachines:\n  - kind: chest\n    pos: [3, 64, 3]\n    slots:\n      \"0\": {item: Railcraft:fuel.cok}\n",
			[]string{`s.yaml:5:14: player.inventory[0].item: unknown item "minecraft:lgo" (did you mean "minecraft:log"?)`,
				`s.yaml:11:19: machines[0].slots.0.item: unknown item "Railcraft:fuel.cok" (did you mean "Railcraft:fuel.coke"?)`}},
		{"misspelt machine kind", "name: x\nplayer: {pos: [1, 64, 1]}\nmachines:\n  - {kind: coke_ovn, pos: [3, 64, 3]}\n",
			[]string{`s.yaml:4:12: machines[0].kind: unknown machine kind "coke_ovn" (did you mean "coke_oven"?)`}},
		{"unknown tank", "name: x\nplayer: {pos: [1, 64, 1]}\nmachines:\n  - kind: coke_oven\n    pos: [3, 64, 3]\n    fluids: {creosot: {amount: 0, capacity: 10}}\n  - kind: steam_boiler\n    pos: [5, 64, 5]\n    fluids: {water: {amount: 0, capacity: 16000}, steam: {amount: 0, capacity: 16000}}\n  - kind: chest\n    pos: [7, 64, 7]\n    fluids: {water: {amount: 0, capacity: 10}}\n",
			[]string{`s.yaml:6:14: machines[0].fluids.creosot: a coke_oven has no "creosot" tank (did you mean "creosote"?) (its tanks: creosote)`,
				`s.yaml:12:14: machines[2].fluids.water: a chest has no fluid tanks`}},
		{"bad stack", "name: x\nplayer:\n  pos: [1, 64, 1]\n  inventory:\n    - {item: minecraft:stone_axe, durability: 3}\n    - {item: minecraft:log, count: 65}\n",
			[]string{"s.yaml:5:35: player.inventory[0].durability: needs max_durability", "s.yaml:6:36: player.inventory[1].count: must be within 1..64"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseScenario("s.yaml", []byte(tc.src))
			var list strictyaml.Errors
			require.True(t, errors.As(err, &list), "%v", err)
			var got []string
			for _, e := range list {
				got = append(got, e.Error())
			}
			for _, w := range tc.want {
				found := false
				for _, g := range got {
					found = found || len(g) >= len(w) && g[:len(w)] == w
				}
				assert.True(t, found, "want %q in %q", w, got)
			}
			assert.Len(t, got, len(tc.want), "no other problem: %q", got)
		})
	}
}

func FuzzParseScenario(f *testing.F) {
	for _, name := range EmbeddedNames() {
		data, err := embedded.ReadFile(embeddedFiles[name])
		require.NoError(f, err)
		f.Add(data)
	}
	f.Add([]byte("name: x\nplayer: {pos: [1, 64, 1]}\ntrees:\n  - {random: 3}\n"))
	f.Add([]byte("name: [\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := ParseScenario("s.yaml", data)
		if err != nil {
			var list strictyaml.Errors
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error is not a located list: %T %v", err, err)
			}
			return
		}
		if sc.SizeX < 8 || sc.SizeZ < 8 || sc.Name == "" {
			t.Fatalf("accepted an invalid scenario: %+v", sc)
		}
	})
}

// TestGenerationIsCancellable: building a world stops when its context is
// done, with an error that wraps the context's.
func TestGenerationIsCancellable(t *testing.T) {
	sc, err := DefaultScenario()
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = NewContext(ctx, sc, Options{})
	require.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "generating the terrain")

	// Trees: the terrain is done, planting is cut short.
	ctx, cancel = context.WithCancel(context.Background())
	calls := 0
	_, err = NewContext(cancelAfter{ctx, cancel, &calls, sc.SizeZ + 1}, sc, Options{})
	require.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "planting trees")

	_, err = NewContext(context.Background(), sc, Options{})
	require.NoError(t, err)
}

// cancelAfter is a context that is cancelled once Err has been asked n times.
type cancelAfter struct {
	context.Context
	cancel context.CancelFunc
	calls  *int
	n      int
}

func (c cancelAfter) Err() error {
	*c.calls++
	if *c.calls > c.n {
		c.cancel()
	}
	return c.Context.Err()
}
