package sim

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// The figures below follow from the GregTech small coal boiler's rules
// (MTEBoiler, MTEBoilerBronze) and Railcraft's coke oven (TileCokeOven,
// ModuleFactory) worked out by hand for the ticks given; see sim/data.go.

var (
	boilerAt = world.Pos(10, 64, 8)
	ovenAt   = world.Pos(10, 64, 10)
)

// boilerWorld is a world with one small coal boiler next to the player.
func boilerWorld(t *testing.T, temp, water, steam int, fuel, inv string) *Sim {
	t.Helper()
	extra := "  inventory:\n" + inv + "machines:\n  - kind: steam_boiler\n    pos: [10, 64, 8]\n" +
		fmt.Sprintf("    temperature: %d\n", temp) +
		fmt.Sprintf("    fluids: {water: {amount: %d, capacity: 16000}, steam: {amount: %d, capacity: 16000}}\n", water, steam)
	if fuel != "" {
		extra += "    slots: {fuel: " + fuel + "}\n"
	}
	return small(t, extra)
}

// ovenWorld is a world with one formed coke oven next to the player.
func ovenWorld(t *testing.T, input string, creosote int, output string) *Sim {
	t.Helper()
	extra := "machines:\n  - kind: coke_oven\n    pos: [10, 64, 10]\n    formed: true\n" +
		fmt.Sprintf("    fluids: {creosote: {amount: %d, capacity: 64000}}\n", creosote) +
		"    slots: {input: " + input
	if output != "" {
		extra += ", output: " + output
	}
	return small(t, extra+"}\n")
}

func wait(t *testing.T, s *Sim, ticks int) ipc.Result {
	t.Helper()
	r := exec(t, s, action.Wait{Ticks: action.Ticks(ticks)})
	require.True(t, r.OK(), r.Error)
	return r
}

func TestBoilerHeatsUpAtGregTechRate(t *testing.T) {
	s := boilerWorld(t, 20, 16000, 0, "{item: minecraft:coal, count: 1}", "")
	wait(t, s, 1200)
	m := machine(t, s, boilerAt)
	// Coal: 1600 burn ticks → 160 energy. A degree every 12th tick
	// (100 steps to tick 1200) at one energy each; from tick 13 the boiler
	// is above 20 °C and loses a degree every 46 ticks (ticks 58 … 1162: 25).
	assert.Equal(t, 20.0+100-25, m.Temperature)
	assert.Equal(t, 60, s.boilers[boilerAt].processingEnergy)
	assert.True(t, m.Slot("fuel").Empty(), "the coal was taken at tick 1")
	assert.True(t, m.Active)
	assert.Equal(t, 0, m.Fluid("steam").Amount, "no steam at or below 100 °C")
	assert.Equal(t, 16000, m.Fluid("water").Amount)
}

func TestBoilerStopsHeatingAtItsMaximum(t *testing.T) {
	s := boilerWorld(t, 500, 16000, 0, "{item: minecraft:coal, count: 1}", "")
	wait(t, s, 12*46)
	m := machine(t, s, boilerAt)
	// At 500 °C no heat step runs and no energy is spent until the boiler
	// has cooled a degree (tick 46); the next step (tick 48) brings it back.
	// Twelve degrees lost (ticks 46, 92, … 552) cost twelve energy.
	assert.Equal(t, 500.0, m.Temperature)
	assert.Equal(t, 160-12, s.boilers[boilerAt].processingEnergy)
}

func TestBoilerMakesSteamAndUsesWaterAtGregTechRate(t *testing.T) {
	s := boilerWorld(t, 200, 16000, 0, "", "")
	wait(t, s, 1000)
	m := machine(t, s, boilerAt)
	// 100 steam checks (ticks 10 … 1000) make 60 mB each; water is paid in
	// whole mB per 160 mB of steam: floor(6000 / 160) = 37.
	assert.Equal(t, 6000, m.Fluid("steam").Amount)
	assert.Equal(t, 16000-37, m.Fluid("water").Amount)
	assert.Equal(t, 6000-37*160, -s.boilers[boilerAt].excessWater)
	// No fuel: a degree lost every 46 ticks, 21 by tick 1000.
	assert.Equal(t, 179.0, m.Temperature)
	assert.False(t, m.Active)
}

func TestBoilerCoolsDownToAmbient(t *testing.T) {
	s := boilerWorld(t, 22, 0, 0, "", "")
	wait(t, s, 46*3)
	m := machine(t, s, boilerAt)
	assert.Equal(t, 20.0, m.Temperature, "two degrees lost at ticks 46 and 92, then it stays at 20 °C")
}

func TestFullSteamTankVentsToThreeQuarters(t *testing.T) {
	s := boilerWorld(t, 200, 16000, 15990, "", "")
	wait(t, s, 10)
	m := machine(t, s, boilerAt)
	// Tick 10 makes 60 mB: 16050 > 16000, so the boiler vents to 12000.
	assert.Equal(t, 12000, m.Fluid("steam").Amount)
	wait(t, s, 10)
	assert.Equal(t, 12060, machine(t, s, boilerAt).Fluid("steam").Amount)
	for i := 0; i < 100; i++ {
		wait(t, s, 10)
		require.LessOrEqual(t, machine(t, s, boilerAt).Fluid("steam").Amount, 16000)
	}
}

func TestHotDryBoilerExplodesWhenWaterReachesIt(t *testing.T) {
	s := boilerWorld(t, 200, 0, 0, "", "    - {item: minecraft:water_bucket, count: 1}\n")
	wait(t, s, 10) // tick 10: above 100 °C with no water
	r := exec(t, s, action.UseItem{Item: "minecraft:water_bucket", Target: &boilerAt})
	require.True(t, r.OK(), "the bucket pours: %s", r.Error)
	assert.Equal(t, 1000, machine(t, s, boilerAt).Fluid("water").Amount)
	r = wait(t, s, 6) // tick 20: water and the dry note: the boiler explodes
	require.Contains(t, r.Details, "events")
	assert.Contains(t, fmt.Sprint(r.Details["events"]), "exploded")
	w := snap(t, s)
	assert.Empty(t, w.Machines, "the boiler is gone")
	assert.True(t, w.Blocks.BlockAt(boilerAt).IsAir())
	assert.Equal(t, 8.0, w.Player.Health, "12 damage from the blast")
	assert.Empty(t, s.boilers)
}

func TestHotBoilerWithWaterDoesNotExplode(t *testing.T) {
	s := boilerWorld(t, 200, 1000, 0, "{item: minecraft:coal, count: 4}", "    - {item: minecraft:water_bucket, count: 1}\n")
	wait(t, s, 10)
	require.True(t, exec(t, s, action.UseItem{Item: "minecraft:water_bucket", Target: &boilerAt}).OK())
	r := wait(t, s, 2000)
	assert.NotContains(t, r.Details, "events")
	m := machine(t, s, boilerAt)
	assert.Greater(t, m.Fluid("steam").Amount, 0)
	assert.Equal(t, 20.0, snap(t, s).Player.Health)
}

func TestDryBoilerThatCooledBelowBoilingIsSafeToWater(t *testing.T) {
	s := boilerWorld(t, 102, 0, 0, "", "    - {item: minecraft:water_bucket, count: 1}\n")
	// Dry above 100 °C at tick 10; 100 °C from tick 92; tick 100 clears the note.
	wait(t, s, 100)
	require.Equal(t, 100.0, machine(t, s, boilerAt).Temperature)
	require.False(t, s.boilers[boilerAt].hadNoWater)
	require.True(t, exec(t, s, action.UseItem{Item: "minecraft:water_bucket", Target: &boilerAt}).OK())
	r := wait(t, s, 100)
	assert.NotContains(t, r.Details, "events")
	assert.Len(t, snap(t, s).Machines, 1)
}

func TestWaterBucketOnBoiler(t *testing.T) {
	s := boilerWorld(t, 20, 15500, 0, "", "    - {item: minecraft:water_bucket, count: 1}\n    - {item: \"IC2:itemCellEmpty:1\", count: 1}\n")
	r := exec(t, s, action.UseItem{Item: "minecraft:water_bucket", Target: &boilerAt})
	require.True(t, r.OK(), r.Error)
	// MTEBoiler.onRightclick fills what fits and always hands back an empty bucket.
	assert.Equal(t, 500, r.Details["filled_mb"])
	assert.Equal(t, 500, r.Details["spilled_mb"])
	assert.Equal(t, 16000, machine(t, s, boilerAt).Fluid("water").Amount)
	inv := snap(t, s).Inventory
	assert.Equal(t, 1, inv.CountID("minecraft:bucket"))
	assert.Equal(t, 0, inv.CountID("minecraft:water_bucket"))

	r = exec(t, s, action.UseItem{Item: "IC2:itemCellEmpty:1", Target: &boilerAt})
	assert.Equal(t, ipc.Rejected, r.Code, "a cell opens the GUI")
	assert.Contains(t, r.Error, "fluid_in")
}

func TestWaterCellThroughTheBoilerGUI(t *testing.T) {
	s := boilerWorld(t, 20, 1000, 0, "", "    - {item: \"IC2:itemCellEmpty:1\", count: 1}\n    - {item: \"IC2:itemCellEmpty:1\", count: 1}\n")
	require.True(t, exec(t, s, action.OpenContainer{Pos: boilerAt}).OK())
	r := exec(t, s, action.TransferItems{Pos: boilerAt, Item: "IC2:itemCellEmpty:1", Count: 1, Direction: action.Deposit, Slot: "fluid_in"})
	require.True(t, r.OK(), r.Error)
	m := machine(t, s, boilerAt)
	// The transfer took 2 ticks; the tank empties one container a tick.
	assert.Equal(t, 2000, m.Fluid("water").Amount)
	assert.True(t, m.Slot("fluid_in").Empty())
	assert.Equal(t, world.NewStack("IC2:itemCellEmpty", 0, 1).ID, m.Slot("fluid_out").ID)
	assert.Equal(t, 0, m.Slot("fluid_out").Meta)
	r = exec(t, s, action.TransferItems{Pos: boilerAt, Item: "IC2:itemCellEmpty:0", Count: 1, Direction: action.Withdraw, Slot: "fluid_out"})
	require.True(t, r.OK(), r.Error)
	assert.Equal(t, ipc.Rejected, exec(t, s, action.TransferItems{Pos: boilerAt, Item: "IC2:itemCellEmpty:0", Count: 1, Direction: action.Deposit, Slot: "fluid_in"}).Code, "an empty cell is no water")
	assert.Equal(t, ipc.Rejected, exec(t, s, action.TransferItems{Pos: boilerAt, Item: "IC2:itemCellEmpty:1", Count: 1, Direction: action.Deposit, Slot: "fluid_out"}).Code, "the output slot takes nothing")
}

func TestBoilerFuelSlotTakesOnlyWhatGregTechBurns(t *testing.T) {
	inv := ""
	for _, it := range []string{"minecraft:log", "minecraft:planks", "minecraft:stick", "minecraft:coal", "minecraft:coal:1", "Railcraft:fuel.coke", "minecraft:coal_block", "minecraft:blaze_rod", "Railcraft:cube"} {
		inv += fmt.Sprintf("    - {item: %q, count: 1}\n", it)
	}
	s := boilerWorld(t, 20, 16000, 0, "", inv)
	require.True(t, exec(t, s, action.OpenContainer{Pos: boilerAt}).OK())
	for _, c := range []struct {
		item string
		ok   bool
	}{
		{"minecraft:log", false}, {"minecraft:planks", false}, {"minecraft:stick", false},
		{"minecraft:coal:0", true}, {"minecraft:coal:1", true}, {"Railcraft:fuel.coke", true},
		{"minecraft:coal_block", true}, {"minecraft:blaze_rod", true}, {"Railcraft:cube:0", true},
	} {
		r := exec(t, s, action.TransferItems{Pos: boilerAt, Item: c.item, Count: 1, Direction: action.Deposit, Slot: "fuel"})
		if !c.ok {
			assert.Equal(t, ipc.Rejected, r.Code, c.item)
			assert.Contains(t, r.Error, "2000", c.item)
			continue
		}
		require.True(t, r.OK(), "%s: %s", c.item, r.Error)
		// Burn it away so the slot is free for the next kind.
		require.True(t, exec(t, s, action.Wait{Ticks: 1}).OK())
		require.True(t, machine(t, s, boilerAt).Slot("fuel").Empty(), c.item)
		s.boilers[boilerAt].processingEnergy = 0
	}
}

func TestBoilerNeverBurnsARefusedFuel(t *testing.T) {
	s := boilerWorld(t, 20, 16000, 0, "{item: minecraft:log, count: 8}", "")
	wait(t, s, 1000)
	m := machine(t, s, boilerAt)
	assert.Equal(t, 8, m.Slot("fuel").Count)
	assert.Equal(t, 20.0, m.Temperature)
	assert.False(t, m.Active)
}

func TestCokeOvenCooksCoalInRailcraftTime(t *testing.T) {
	s := ovenWorld(t, "{item: minecraft:coal, count: 3}", 0, "")
	wait(t, s, 1799)
	m := machine(t, s, ovenAt)
	assert.True(t, m.Slot("output").Empty(), "1800 ticks a coal")
	assert.InDelta(t, 1750.0/1800, m.Progress, 1e-12, "35 steps of 50 ticks")
	assert.True(t, m.Active)
	wait(t, s, 1)
	m = machine(t, s, ovenAt)
	assert.Equal(t, world.NewStack("Railcraft:fuel.coke", 0, 1).ID, m.Slot("output").ID)
	assert.Equal(t, 1, m.Slot("output").Count)
	assert.Equal(t, 2, m.Slot("input").Count)
	assert.Equal(t, 500, m.Fluid("creosote").Amount)
	wait(t, s, 3600)
	m = machine(t, s, ovenAt)
	assert.Equal(t, 3, m.Slot("output").Count)
	assert.Equal(t, 1500, m.Fluid("creosote").Amount)
	assert.True(t, m.Slot("input").Empty())
	wait(t, s, 1)
	assert.False(t, machine(t, s, ovenAt).Active, "no input: the oven goes out")
}

func TestCokeOvenMakesCharcoalFromLogs(t *testing.T) {
	s := ovenWorld(t, "{item: \"minecraft:log:2\", count: 2}", 0, "")
	wait(t, s, 3600)
	m := machine(t, s, ovenAt)
	assert.Equal(t, "minecraft:coal", m.Slot("output").ID)
	assert.Equal(t, 1, m.Slot("output").Meta, "charcoal")
	assert.Equal(t, 2, m.Slot("output").Count)
	assert.Equal(t, 500, m.Fluid("creosote").Amount, "250 mB a log")
}

func TestCokeOvenStopsWhenCreosoteIsFull(t *testing.T) {
	s := ovenWorld(t, "{item: minecraft:coal, count: 2}", 63500, "")
	wait(t, s, 1800*3)
	m := machine(t, s, ovenAt)
	assert.Equal(t, 1, m.Slot("output").Count, "the first coal fits the tank exactly")
	assert.Equal(t, 64000, m.Fluid("creosote").Amount)
	assert.Equal(t, 1, m.Slot("input").Count, "the second would overflow it")
	assert.False(t, m.Active)
	assert.Zero(t, m.Progress)
}

func TestCokeOvenStopsWhenOutputIsFull(t *testing.T) {
	s := ovenWorld(t, "{item: minecraft:coal, count: 2}", 0, "{item: Railcraft:fuel.coke, count: 64}")
	wait(t, s, 1800*2)
	m := machine(t, s, ovenAt)
	assert.Equal(t, 64, m.Slot("output").Count)
	assert.Equal(t, 2, m.Slot("input").Count)
	assert.Zero(t, m.Fluid("creosote").Amount)
	assert.False(t, m.Active)
}

// machineState is a machine with the hidden state the simulator keeps for it.
type machineState struct {
	M      world.Machine
	Boiler boilerCore
	Oven   ovenCore
}

func statesOf(t *testing.T, s *Sim) []machineState {
	t.Helper()
	var out []machineState
	for _, m := range snap(t, s).Machines {
		st := machineState{M: m}
		if c, ok := s.boilers[m.Pos]; ok {
			st.Boiler = *c
		}
		if c, ok := s.ovens[m.Pos]; ok {
			st.Oven = *c
		}
		out = append(out, st)
	}
	return out
}

func TestMachinesRunOnGameTimeNotOnActions(t *testing.T) {
	const total = 3000
	build := func() *Sim {
		return small(t, "machines:\n"+
			"  - kind: steam_boiler\n    pos: [10, 64, 8]\n    fluids: {water: {amount: 4000, capacity: 16000}}\n    slots: {fuel: {item: minecraft:coal, count: 8}}\n"+
			"  - kind: coke_oven\n    pos: [10, 64, 10]\n    formed: true\n    slots: {input: {item: minecraft:coal, count: 5}}\n")
	}
	once := build()
	wait(t, once, total)
	want := statesOf(t, once)
	require.Len(t, want, 2)
	require.Greater(t, want[0].M.Temperature+want[1].M.Temperature, 120.0, "the boiler got past boiling")

	for _, step := range []int{1, 7, 13, 1000} {
		s := build()
		for done := 0; done < total; done += step {
			wait(t, s, min(step, total-done))
		}
		assert.Equal(t, want, statesOf(t, s), "waits of %d ticks", step)
		assert.Equal(t, snap(t, once).Tick, snap(t, s).Tick)
	}
}

func TestScenarioTanksMustMatchTheMachine(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"  - kind: coke_oven\n    pos: [3, 64, 3]\n    fluids: {creosote: {amount: 0, capacity: 10000}}\n",
			"t.yaml:6:46: machines[0].fluids.creosote.capacity: a coke_oven's creosote tank holds 64000 mB, not 10000"},
		{"  - kind: steam_boiler\n    pos: [3, 64, 3]\n    fluids: {water: {amount: 0, capacity: 32000}}\n",
			"t.yaml:6:43: machines[0].fluids.water.capacity: a steam_boiler's water tank holds 16000 mB, not 32000"},
		{"  - kind: steam_boiler\n    pos: [3, 64, 3]\n    fluids: {lava: {amount: 0, capacity: 16000}}\n",
			"t.yaml:6:14: machines[0].fluids.lava: a steam_boiler has no \"lava\" tank (its tanks: steam, water)"},
	} {
		_, err := ParseScenario("t.yaml", []byte("name: t\nplayer: {pos: [1, 64, 1]}\nmachines:\n"+c.src))
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.want)
	}

	s := small(t, "machines:\n  - kind: steam_boiler\n    pos: [10, 64, 8]\n  - kind: coke_oven\n    pos: [10, 64, 10]\n")
	m := machine(t, s, boilerAt)
	assert.Equal(t, world.FluidTank{Fluid: "water", Capacity: 16000}, m.Fluid("water"))
	assert.Equal(t, world.FluidTank{Fluid: "steam", Capacity: 16000}, m.Fluid("steam"))
	assert.Equal(t, world.FluidTank{Fluid: "creosote", Capacity: 64000}, machine(t, s, ovenAt).Fluid("creosote"))
}

// BenchmarkMachinesHour runs the default scenario's machines (two coke
// ovens and a boiler, all loaded) for an in-game hour in one wait.
func BenchmarkMachinesHour(b *testing.B) {
	sc, err := DefaultScenario()
	require.NoError(b, err)
	for b.Loop() {
		b.StopTimer()
		s, err := New(sc, Options{})
		require.NoError(b, err)
		s.state.Update(func(tx *world.Tx) {
			for _, m := range s.machinesOf(tx) {
				switch m.Kind {
				case world.MachineCokeOven:
					m.Slots["input"] = world.NewStack("minecraft:coal", 0, 64)
				case world.MachineSteamBoiler:
					m.Slots["fuel"] = world.NewStack("minecraft:coal", 0, 64)
				}
				tx.PutMachine(m)
			}
		})
		b.StartTimer()
		r := s.Execute(context.Background(), action.Wait{Ticks: 72000})
		require.True(b, r.OK(), r.Error)
	}
}

// TestCokeOvenOutputMustBeTheSameItem: TileCokeOven cooks only when the
// output slot is empty or holds the recipe's own item (isItemEqual: id and
// metadata); logs make charcoal, so coke or plain coal there stops them.
func TestCokeOvenOutputMustBeTheSameItem(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"minecraft:log", "Railcraft:fuel.coke"},   // another id and metadata
		{"minecraft:log", "\"minecraft:coal:0\""},  // charcoal's id, another metadata
		{"minecraft:coal", "\"minecraft:coal:0\""}, // coke's metadata, another id
	} {
		s := ovenWorld(t, "{item: "+c.in+", count: 2}", 0, "{item: "+c.out+", count: 1}")
		wait(t, s, 1800*2)
		m := machine(t, s, ovenAt)
		assert.Equal(t, 1, m.Slot("output").Count, c.out)
		assert.Equal(t, 0, m.Slot("output").Meta, c.out)
		assert.Equal(t, 2, m.Slot("input").Count, "%s over %s: nothing cooked", c.in, c.out)
		assert.Zero(t, m.Fluid("creosote").Amount, c.out)
		assert.False(t, m.Active, c.out)
	}
	// Charcoal already there: the logs cook onto it.
	s := ovenWorld(t, "{item: minecraft:log, count: 1}", 0, "{item: \"minecraft:coal:1\", count: 1}")
	wait(t, s, 1800)
	assert.Equal(t, 2, machine(t, s, ovenAt).Slot("output").Count)
}

// TestCokeOvenForgetsProgressWhenTheInputIsTakenOut: an empty input slot
// sets cookTime to 0 every tick (TileCokeOven.updateEntity), so a coal taken
// out half-cooked and put back starts over.
func TestCokeOvenForgetsProgressWhenTheInputIsTakenOut(t *testing.T) {
	s := ovenWorld(t, "{item: minecraft:coal, count: 1}", 0, "")
	wait(t, s, 900)
	require.InDelta(t, 0.5, machine(t, s, ovenAt).Progress, 1e-12)
	require.True(t, exec(t, s, action.OpenContainer{Pos: ovenAt}).OK())
	r := exec(t, s, action.TransferItems{Pos: ovenAt, Item: "minecraft:coal", Count: 1, Direction: action.Withdraw, Slot: "input"})
	require.True(t, r.OK(), r.Error)
	r = exec(t, s, action.TransferItems{Pos: ovenAt, Item: "minecraft:coal", Count: 1, Direction: action.Deposit, Slot: "input"})
	require.True(t, r.OK(), r.Error)
	require.True(t, exec(t, s, action.CloseContainer{}).OK())
	m := machine(t, s, ovenAt)
	require.Less(t, snap(t, s).Tick, int64(950), "back in before the next step")
	assert.Zero(t, m.Progress, "the half-cooked coal starts over")
	// Steps at ticks 950 … 2700: the coal is done after 36 of them.
	wait(t, s, int(2699-snap(t, s).Tick))
	assert.True(t, machine(t, s, ovenAt).Slot("output").Empty(), "not done at tick 2699")
	wait(t, s, 1)
	assert.Equal(t, 1, machine(t, s, ovenAt).Slot("output").Count, "done at tick 2700")
}

// TestCokeOvenCooksACoalBlock: a coal block takes nine times a coal's time
// and creosote and makes a block of coke (ModuleFactory, EnumCube.COKE_BLOCK).
func TestCokeOvenCooksACoalBlock(t *testing.T) {
	s := ovenWorld(t, "{item: minecraft:coal_block, count: 1}", 0, "")
	wait(t, s, 16199)
	assert.True(t, machine(t, s, ovenAt).Slot("output").Empty())
	wait(t, s, 1)
	m := machine(t, s, ovenAt)
	assert.Equal(t, "Railcraft:cube", m.Slot("output").ID)
	assert.Equal(t, 0, m.Slot("output").Meta)
	assert.Equal(t, 4500, m.Fluid("creosote").Amount)
}

// TestSteamTankVentsOnlyAboveCapacity: ventSteamIfTankIsFull vents when the
// steam is above the capacity; exactly full is kept.
func TestSteamTankVentsOnlyAboveCapacity(t *testing.T) {
	s := boilerWorld(t, 200, 16000, 15940, "", "")
	wait(t, s, 10)
	assert.Equal(t, 16000, machine(t, s, boilerAt).Fluid("steam").Amount)
}

// TestBoilerTakesTheNextFuelOnlyWhenOutOfEnergy: updateFuelTimed runs when
// mProcessingEnergy <= 0: a coal gives 160 energy, one per heat step (ticks
// 12 … 1920), and the second coal goes in at tick 1921, not while one
// energy is left.
func TestBoilerTakesTheNextFuelOnlyWhenOutOfEnergy(t *testing.T) {
	s := boilerWorld(t, 20, 16000, 0, "{item: minecraft:coal, count: 2}", "")
	wait(t, s, 1919)
	assert.Equal(t, 1, s.boilers[boilerAt].processingEnergy)
	assert.Equal(t, 1, machine(t, s, boilerAt).Slot("fuel").Count)
	wait(t, s, 1)
	assert.Equal(t, 0, s.boilers[boilerAt].processingEnergy)
	assert.Equal(t, 1, machine(t, s, boilerAt).Slot("fuel").Count)
	wait(t, s, 1)
	assert.Equal(t, 160, s.boilers[boilerAt].processingEnergy)
	assert.True(t, machine(t, s, boilerAt).Slot("fuel").Empty())
}

// fluidSlotBoiler is a cold boiler with the given water and fluid slots.
func fluidSlotBoiler(t *testing.T, water int, slots string) *Sim {
	t.Helper()
	return small(t, "machines:\n  - kind: steam_boiler\n    pos: [10, 64, 8]\n"+
		fmt.Sprintf("    fluids: {water: {amount: %d, capacity: 16000}}\n", water)+
		"    slots: {"+slots+"}\n")
}

// TestBoilerFluidSlotEmptiesOnlyWhatFits: MTEBasicTank.onPreTick empties a
// container only when all its water fits the tank and its empty form fits
// the output slot (addStackToSlot: the same item, below its stack limit);
// an empty cell is no water.
func TestBoilerFluidSlotEmptiesOnlyWhatFits(t *testing.T) {
	cell := `fluid_in: {item: "IC2:itemCellEmpty:1", count: 1}`
	for _, c := range []struct {
		name      string
		water     int
		slots     string
		wantWater int
	}{
		{"the tank has room for the cell", 15000, cell, 16000},
		{"the tank has 500 mB of room", 15500, cell, 15500},
		{"a bucket in the output slot", 1000, cell + `, fluid_out: {item: minecraft:bucket, count: 1}`, 1000},
		{"64 empty cells in the output slot", 1000, cell + `, fluid_out: {item: "IC2:itemCellEmpty:0", count: 64}`, 1000},
		{"63 empty cells in the output slot", 1000, cell + `, fluid_out: {item: "IC2:itemCellEmpty:0", count: 63}`, 2000},
		{"an empty cell in the input slot", 1000, `fluid_in: {item: "IC2:itemCellEmpty:0", count: 1}`, 1000},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := fluidSlotBoiler(t, c.water, c.slots)
			wait(t, s, 5)
			m := machine(t, s, boilerAt)
			assert.Equal(t, c.wantWater, m.Fluid("water").Amount)
			assert.Equal(t, c.wantWater == c.water, !m.Slot("fluid_in").Empty(), "the container stays in the input slot when nothing is poured")
		})
	}
}

// TestBoilerFuelAcceptanceEdges: isItemValidFuel takes a burn time of at
// least 2000 ticks whatever the item (couldProduceRegularAshes) and nothing
// with burnTime / 10 == 0, coal-like or not (getCombustionPotential).
func TestBoilerFuelAcceptanceEdges(t *testing.T) {
	fuels["test:exactly_2000"] = fuel{burn: 2000}
	fuels["test:just_below"] = fuel{burn: 1999}
	fuels["test:coal_dust_speck"] = fuel{burn: 9, coalLike: true}
	defer func() {
		delete(fuels, "test:exactly_2000")
		delete(fuels, "test:just_below")
		delete(fuels, "test:coal_dust_speck")
	}()
	assert.True(t, boilerAccepts(world.NewStack("test:exactly_2000", 0, 1)))
	assert.False(t, boilerAccepts(world.NewStack("test:just_below", 0, 1)))
	assert.False(t, boilerAccepts(world.NewStack("test:coal_dust_speck", 0, 1)))
	assert.False(t, boilerAccepts(world.NewStack("minecraft:lava_bucket", 0, 1)), "a filled container is not a solid fuel")
}

// TestExplosionHurtsWithinEightBlocks: the blast reaches a player whose feet
// are at most explosionHurtRadius (8) blocks from the boiler's centre.
func TestExplosionHurtsWithinEightBlocks(t *testing.T) {
	for _, c := range []struct {
		dx   float64
		want float64
	}{{8, 8}, {8.01, 20}} {
		s := boilerWorld(t, 200, 0, 0, "", "")
		s.state.Update(func(tx *world.Tx) {
			p := tx.Player()
			p.Pos = boilerAt.Center()
			p.Pos.X += c.dx
			tx.SetPlayer(p)
			m, ok := tx.Machine(boilerAt)
			require.True(t, ok)
			s.explode(tx, m, 20)
		})
		assert.Equal(t, c.want, snap(t, s).Player.Health, "%.2f blocks away", c.dx)
	}
}

// TestCokeOvenOutputTakesNothing: the output slot is for taking the
// product out (TileCokeOven.isItemValidForSlot refuses every item there).
func TestCokeOvenOutputTakesNothing(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: Railcraft:fuel.coke, count: 4}\n"+
		"machines:\n  - kind: coke_oven\n    pos: [10, 64, 10]\n    formed: true\n")
	require.True(t, exec(t, s, action.OpenContainer{Pos: ovenAt}).OK())
	r := exec(t, s, action.TransferItems{Pos: ovenAt, Item: "Railcraft:fuel.coke", Count: 1, Direction: action.Deposit, Slot: "output"})
	assert.Equal(t, ipc.Rejected, r.Code)
	assert.True(t, machine(t, s, ovenAt).Slot("output").Empty())
}

// TestCokeOvenInputTakesWhatTheTableCooks: the input slot takes what the
// coke oven's table has a recipe for (TileCokeOven.isItemValidForSlot):
// logs and coal, not planks, not charcoal.
func TestCokeOvenInputTakesWhatTheTableCooks(t *testing.T) {
	s := small(t, "  inventory:\n    - {item: minecraft:planks, count: 2}\n    - {item: \"minecraft:coal:1\", count: 2}\n    - {item: minecraft:log2, count: 2}\n"+
		"machines:\n  - {kind: coke_oven, pos: [10, 64, 10], formed: true}\n")
	require.True(t, exec(t, s, action.OpenContainer{Pos: ovenAt}).OK())
	for _, c := range []struct {
		item string
		ok   bool
	}{{"minecraft:planks:0", false}, {"minecraft:coal:1", false}, {"minecraft:log2:0", true}} {
		r := exec(t, s, action.TransferItems{Pos: ovenAt, Item: c.item, Count: 1, Direction: action.Deposit, Slot: "input"})
		if c.ok {
			assert.True(t, r.OK(), "%s: %s", c.item, r.Error)
		} else {
			assert.Equal(t, ipc.Rejected, r.Code, c.item)
		}
	}
}
