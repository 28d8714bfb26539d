package sim_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// stationSim is a flat world with a tool station beside the player, who
// holds an iron and a flint pickaxe head, bindings and sticks.
func stationSim(t *testing.T) (*sim.Sim, world.BlockPos) {
	t.Helper()
	sc, err := sim.ParseScenario("station.yaml", []byte(`name: station
seed: 1
size: {x: 32, z: 32}
generator: flat
ground_y: 63
player:
  pos: [16, 64, 16]
  inventory:
    - {item: "TConstruct:pickaxeHead:3", count: 1}
    - {item: "TConstruct:pickaxeHead:2", count: 1}
    - {item: "TConstruct:hatchetHead:2", count: 1}
    - {item: "TConstruct:binding", count: 2}
    - {item: minecraft:stick, count: 3}
blocks:
  - {block: "TConstruct:ToolStationBlock", pos: [18, 64, 16]}
`))
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return s, world.Pos(18, 64, 16)
}

func tinkerOf(inv world.Inventory, id string) []world.TinkerTool {
	var out []world.TinkerTool
	for _, st := range inv.Slots {
		if st.ID == id && st.Tinker != nil {
			out = append(out, *st.Tinker)
		}
	}
	return out
}

// TestToolStationTakesTheHead: the tool station writes the head's material
// and level into the tool (an iron pickaxe mines at 2 until its boost, an
// iron hatchet at 3); given both heads it builds on the iron one first;
// two tools do not stack; equip takes the pickaxe of the highest level.
func TestToolStationTakesTheHead(t *testing.T) {
	s, station := stationSim(t)
	ctx := context.Background()
	res := s.Execute(ctx, action.Craft{Item: "TConstruct:pickaxe", Count: 1, Table: &station})
	require.Equal(t, ipc.OK, res.Code, res.Error)
	assert.Equal(t, []world.TinkerTool{{Head: 2, HarvestLevel: 2}}, tinkerOf(s.State().Snapshot().Inventory, "TConstruct:pickaxe"), "the iron head first")
	res = s.Execute(ctx, action.Craft{Item: "TConstruct:pickaxe", Count: 1, Table: &station})
	require.Equal(t, ipc.OK, res.Code, res.Error)
	res = s.Execute(ctx, action.Craft{Item: "TConstruct:hatchet", Count: 1, Table: &station})
	require.Equal(t, ipc.OK, res.Code, res.Error)
	inv := s.State().Snapshot().Inventory
	assert.ElementsMatch(t, []world.TinkerTool{{Head: 2, HarvestLevel: 2}, {Head: 3, HarvestLevel: 0}}, tinkerOf(inv, "TConstruct:pickaxe"), "then the flint one; not stacked")
	assert.Equal(t, []world.TinkerTool{{Head: 2, HarvestLevel: 3}}, tinkerOf(inv, "TConstruct:hatchet"))
	assert.Zero(t, inv.CountID("TConstruct:pickaxeHead"))

	// Move the iron pickaxe behind the flint one: equip still takes it.
	for i, st := range inv.Slots {
		if st.Tinker != nil && st.Tinker.Head == 2 && st.ID == "TConstruct:pickaxe" {
			inv.Slots[i], inv.Slots[35] = inv.Slots[35], inv.Slots[i]
		}
	}
	s.State().Update(func(tx *world.Tx) { tx.SetInventory(inv) })
	res = s.Execute(ctx, action.Equip{Item: "tool:pickaxe"})
	require.Equal(t, ipc.OK, res.Code, res.Error)
	held := s.State().Snapshot().Inventory.HeldStack()
	require.NotNil(t, held.Tinker)
	assert.Equal(t, 2, held.Tinker.HarvestLevel)
}

// TestGive: a quest's reward goes into the inventory, merging with what is
// there; bad input and an inventory without room are errors.
func TestGive(t *testing.T) {
	s, _ := stationSim(t)
	require.NoError(t, s.Give("minecraft:stick", 5))
	require.NoError(t, s.Give("TConstruct:shovelHead:2", 1))
	inv := s.State().Snapshot().Inventory
	assert.Equal(t, 8, inv.Count(world.MustItem("minecraft:stick")))
	assert.Equal(t, 1, inv.Count(world.MustItem("TConstruct:shovelHead:2")))
	assert.ErrorContains(t, s.Give("ore:plankWood", 1), "an item id expected")
	assert.ErrorContains(t, s.Give("nope", 1), "an item id expected")
	assert.ErrorContains(t, s.Give("minecraft:stick", 0), "at least 1")
	assert.ErrorContains(t, s.Give("minecraft:cobblestone", 64*40), "no room")
}

// TestIronPickaxeFromUpgrade20: with Upgrade 2.0's iron pickaxe head and a
// flint pickaxe (level 0) that mines no metal ore, the planner builds the
// iron pickaxe (a binding at the part builder, the tool at the tool
// station) and mines copper and iron with it, from the shipped rules.
func TestIronPickaxeFromUpgrade20(t *testing.T) {
	data, err := os.ReadFile("../examples/upgrade_2_0.yaml")
	require.NoError(t, err)
	sc, err := sim.ParseScenario("upgrade_2_0.yaml", data)
	require.NoError(t, err)
	s, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	out, steps, trace := runGoal(t, s, "have 3 gregtech:gt.metaitem.01:11035 and have 2 minecraft:iron_ingot", chain.Planner{})
	require.True(t, out.GoalMet, trace)
	require.GreaterOrEqual(t, len(steps), 2)
	assert.Equal(t, "binding", itemOf(steps[0].Invocation))
	assert.Equal(t, "pickaxe", itemOf(steps[1].Invocation))
	mined := 0
	for _, st := range steps {
		if st.Invocation.Skill == "mine_gt_ore" {
			mined++
			assert.Equal(t, loop.Success, st.Verdict, st.Error)
		}
	}
	assert.GreaterOrEqual(t, mined, 5, "three raw copper ores and two raw iron ores")
	assert.Equal(t, []world.TinkerTool{{Head: 2, HarvestLevel: 2}}, tinkerOf(s.State().Snapshot().Inventory, "TConstruct:pickaxe"))
}

// itemOf is a crafting step's item without its mod ("TConstruct:binding":
// "binding").
func itemOf(inv *loop.Invocation) string {
	if inv == nil || inv.Skill != "basic_crafting" {
		return ""
	}
	item, _ := inv.Params["item"].(string)
	_, name, _ := cutColon(item)
	return name
}

func cutColon(s string) (string, string, bool) {
	for i := range s {
		if s[i] == ':' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
