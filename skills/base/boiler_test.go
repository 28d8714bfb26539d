package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// boiler builds a GregTech small coal boiler (16 buckets of water).
func boiler(x, y, z, water int, temp float64, fuel world.ItemStack) world.Machine {
	return world.Machine{
		Kind:  world.MachineSteamBoiler,
		Pos:   world.Pos(x, y, z),
		Slots: map[string]world.ItemStack{"fuel": fuel},
		Fluids: map[string]world.FluidTank{
			"water": {Fluid: "water", Amount: water, Capacity: 16000},
			"steam": {Fluid: "steam", Amount: 0, Capacity: 32000},
		},
		Temperature: temp,
	}
}

// burning marks a boiler as burning fuel.
func burning(m world.Machine) world.Machine {
	m.Active = true
	return m
}

// tank builds a water tank.
func tank(x, y, z, water, capacity int) world.Machine {
	return world.Machine{
		Kind:   world.MachineWaterTank,
		Pos:    world.Pos(x, y, z),
		Formed: true,
		Fluids: map[string]world.FluidTank{"water": {Fluid: "water", Amount: water, Capacity: capacity}},
	}
}

// unknownTank marks a water tank's contents unknown (the live client's tank
// known from its blocks before its master's data).
func unknownTank(m world.Machine) world.Machine {
	m.ContentsUnknown = true
	return m
}

// unknownBoiler is a boiler as the live client knows it before its window
// showed its water: no slots, contents unknown, at least 1 mB and 101 °C
// while boiling, else no water and its maximum temperature.
func unknownBoiler(x, y, z int, boiling bool) world.Machine {
	m := boiler(x, y, z, 0, 500, world.ItemStack{})
	m.Slots, m.ContentsUnknown = nil, true
	if boiling {
		m.Fluids["water"] = world.FluidTank{Fluid: "water", Amount: 1, Capacity: 16000}
		m.Temperature = 101
	}
	return m
}

func TestFeedSteamBoiler(t *testing.T) {
	none := world.ItemStack{}
	coal := func(n int) world.ItemStack { return stack("minecraft:coal", 0, n) }
	near := world.Pos(3, 64, 0)
	far := world.Pos(0, 64, 6)

	tests := []struct {
		name string
		w    *world.Snapshot
		raw  map[string]any
		want []action.Action
	}{
		{
			name: "top up every watered boiler, nearest first",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal(40)),
				boiler(0, 64, 6, 8000, 250, coal(10)),
				boiler(3, 64, 0, 16000, 20, none)),
			want: append(feedVisit(near, "minecraft:coal", 16, "fuel"), feedVisit(far, "minecraft:coal", 6, "fuel")...),
		},
		{
			name: "a dry boiler is skipped while the others are fed",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal(40)),
				boiler(3, 64, 0, 0, 400, none),
				boiler(0, 64, 6, 8000, 250, none)),
			want: feedVisit(far, "minecraft:coal", 16, "fuel"),
		},
		{
			name: "coke by ore-dictionary name",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal(40), stack("Railcraft:fuel.coke", 0, 12)),
				boiler(3, 64, 0, 16000, 20, none)),
			raw:  map[string]any{"fuel": "ore:fuelCoke", "amount": 32},
			want: feedVisit(near, "Railcraft:fuel.coke", 12, "fuel"),
		},
		{
			name: "charcoal by exact id",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal(40), stack("minecraft:coal", 1, 5)),
				boiler(3, 64, 0, 16000, 20, none)),
			raw:  map[string]any{"fuel": "minecraft:coal:1"},
			want: feedVisit(near, "minecraft:coal:1", 5, "fuel"),
		},
		{
			name: "a fuel slot only stacks the same fuel",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal(40)),
				boiler(3, 64, 0, 16000, 300, stack("minecraft:coal", 1, 4)),
				boiler(0, 64, 6, 16000, 300, coal(4))),
			raw:  map[string]any{"fuel": "ore:gemCoal"},
			want: feedVisit(far, "minecraft:coal", 12, "fuel"),
		},
		{
			name: "a boiler whose contents are unknown is looked into, not fuelled",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal(40)),
				unknownBoiler(3, 64, 0, true)),
			want: lookVisit(near),
		},
		{
			name: "an unknown boiler that may be dry is looked into, not refused",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal(40)),
				unknownBoiler(3, 64, 0, false)),
			want: lookVisit(near),
		},
		{
			name: "an unknown boiler is looked into, a known one fuelled",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal(40)),
				unknownBoiler(3, 64, 0, true), boiler(0, 64, 6, 8000, 250, none)),
			want: append(lookVisit(near), feedVisit(far, "minecraft:coal", 16, "fuel")...),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			acts := checkActions(t, FeedSteamBoiler{}, tc.w, tc.raw)
			require.Equal(t, tc.want, acts)
			// Never a transfer into a boiler without water.
			for _, a := range acts {
				if tr, ok := a.(action.TransferItems); ok {
					for _, m := range tc.w.Machines {
						if m.Pos == tr.Pos {
							assert.Positive(t, m.Fluid("water").Amount, "fuel into dry boiler at %s", m.Pos)
							assert.False(t, m.ContentsUnknown, "fuel into a boiler not looked into at %s", m.Pos)
						}
					}
				}
			}
		})
	}
}

func TestFeedSteamBoilerNothingOrFailure(t *testing.T) {
	none := world.ItemStack{}
	coal := func(n int) world.ItemStack { return stack("minecraft:coal", 0, n) }

	t.Run("every boiler already fuelled", func(t *testing.T) {
		w := snap(at(0, 64, 0), nil, world.NewInventory(coal(40)),
			boiler(3, 64, 0, 16000, 500, coal(16)),
			boiler(0, 64, 6, 0, 500, coal(20))) // dry but nothing to add: not our business
		acts, err := run(t, FeedSteamBoiler{}, w, nil)
		require.NoError(t, err)
		assert.Nil(t, acts)
	})

	t.Run("a dry boiler holding exactly amount is fuelled enough", func(t *testing.T) {
		w := snap(at(0, 64, 0), nil, world.NewInventory(coal(40)), boiler(3, 64, 0, 0, 500, coal(8)))
		acts, err := run(t, FeedSteamBoiler{}, w, map[string]any{"amount": 8})
		require.NoError(t, err, "nothing to add, so nothing unsafe")
		assert.Nil(t, acts)
	})

	tests := []struct {
		name string
		w    *world.Snapshot
		raw  map[string]any
		code skills.Code
		msg  []string
	}{
		{"no boiler", snap(at(0, 64, 0), nil, world.NewInventory(coal(40))), nil, skills.CodeNoTarget, []string{"no steam boiler"}},
		{"boiler out of radius", snap(at(0, 64, 0), nil, world.NewInventory(coal(40)), boiler(30, 64, 0, 16000, 20, none)), nil, skills.CodeNoTarget, []string{"within 24"}},
		{
			"a hot dry boiler is never fuelled",
			snap(at(0, 64, 0), nil, world.NewInventory(coal(40)), boiler(3, 64, 0, 0, 450, none)),
			nil, skills.CodeUnsafe, []string{"(3, 64, 0)", "no water", "explodes", "refill water first"},
		},
		{
			"a cold dry boiler is not fuelled either",
			snap(at(0, 64, 0), nil, world.NewInventory(coal(40)), boiler(3, 64, 0, 0, 20, coal(2))),
			nil, skills.CodeUnsafe, []string{"(3, 64, 0)"},
		},
		{
			"all wanting boilers are dry",
			snap(at(0, 64, 0), nil, world.NewInventory(coal(40)), boiler(3, 64, 0, 0, 20, none), boiler(0, 64, 6, 0, 20, none), boiler(0, 64, -8, 16000, 20, coal(64))),
			nil, skills.CodeUnsafe, []string{"(3, 64, 0), (0, 64, 6)"},
		},
		{"no fuel", snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 40)), boiler(3, 64, 0, 16000, 20, none)), nil, skills.CodeMissingItems, []string{"no ore:gemCoal"}},
		{"no fuel to feed an unknown boiler: not looked into", snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 40)), unknownBoiler(3, 64, 0, true)), nil, skills.CodeMissingItems, []string{"1 not looked into yet", "no ore:gemCoal"}},
		{"logs are refused", snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 40)), boiler(3, 64, 0, 16000, 20, none)), map[string]any{"fuel": "ore:logWood"}, skills.CodeInvalidParams, []string{"does not take ore:logWood", "2000 ticks", "ore:gemCharcoal"}},
		{"planks are refused", snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:planks", 0, 40)), boiler(3, 64, 0, 16000, 20, none)), map[string]any{"fuel": "minecraft:planks"}, skills.CodeInvalidParams, []string{"minecraft:planks"}},
		{"a log by id is refused", snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 40)), boiler(3, 64, 0, 16000, 20, none)), map[string]any{"fuel": "minecraft:log"}, skills.CodeInvalidParams, []string{"minecraft:log"}},
		{"sticks are refused", snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:stick", 0, 40)), boiler(3, 64, 0, 16000, 20, none)), map[string]any{"fuel": "ore:stickWood"}, skills.CodeInvalidParams, []string{"ore:stickWood"}},
		{"a block of any Railcraft cube is refused", snap(at(0, 64, 0), nil, world.NewInventory(stack("Railcraft:cube", 2, 4)), boiler(3, 64, 0, 16000, 20, none)), map[string]any{"fuel": "Railcraft:cube"}, skills.CodeInvalidParams, []string{"Railcraft:cube:0"}},
		{"another fuel in the slot", snap(at(0, 64, 0), nil, world.NewInventory(coal(40)), boiler(3, 64, 0, 16000, 20, stack("minecraft:log", 0, 2))), nil, skills.CodeNoTarget, []string{"another fuel"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			acts, err := run(t, FeedSteamBoiler{}, tc.w, tc.raw)
			f := requireFailure(t, err, tc.code)
			for _, m := range tc.msg {
				assert.Contains(t, f.Msg, m)
			}
			assert.Nil(t, acts)
		})
	}
}

func TestRefillWaterTanks(t *testing.T) {
	none := world.ItemStack{}
	water := func(n int) world.ItemStack { return stack("minecraft:water_bucket", 0, n) }
	pool := world.NewSparseBlocks().
		SetID(world.Pos(-5, 63, 0), "minecraft:water", 0).
		SetID(world.Pos(-5, 63, 1), "minecraft:water", 0).
		SetID(world.Pos(-6, 63, 0), "minecraft:water", 0)
	src := world.Pos(-5, 63, 0)
	near := world.Pos(3, 64, 0)
	far := world.Pos(0, 64, 6)
	pour := func(p world.BlockPos, item string, n int) []action.Action {
		out := []action.Action{action.MoveTo{Pos: p, Radius: 3}}
		for range n {
			out = append(out, action.UseItem{Item: item, Target: ptr(p)})
		}
		return out
	}
	// tpour pours into a water tank or a boiler, then opens and closes its
	// window so the body reads the new amount from the server.
	tpour := func(p world.BlockPos, item string, n int) []action.Action {
		return append(pour(p, item, n), action.OpenContainer{Pos: p}, action.CloseContainer{})
	}
	fill := func(n int, spots ...world.BlockPos) []action.Action {
		out := []action.Action{action.MoveTo{Pos: src, Radius: 3}}
		for i := range n {
			out = append(out, action.UseItem{Item: "ore:bucketEmpty", Target: ptr(spots[i%len(spots)])})
		}
		return out
	}
	// cells goes to a boiler and pours n cells through its GUI's fluid
	// slots, then opens its window again to read the new amount.
	cells := func(p world.BlockPos, item string, n int) []action.Action {
		out := []action.Action{action.MoveTo{Pos: p, Radius: 3}, action.OpenContainer{Pos: p}}
		for range n {
			out = append(out, action.TransferItems{Pos: p, Item: item, Count: 1, Direction: action.Deposit, Slot: "fluid_in"})
		}
		return append(out,
			action.TransferItems{Pos: p, Item: "ore:cellEmpty", Count: n, Direction: action.Withdraw, Slot: "fluid_out"},
			action.CloseContainer{}, action.OpenContainer{Pos: p}, action.CloseContainer{})
	}
	cat := func(parts ...[]action.Action) []action.Action {
		var out []action.Action
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}

	tests := []struct {
		name string
		w    *world.Snapshot
		raw  map[string]any
		want []action.Action
	}{
		{
			name: "water buckets held go to the nearest tank first",
			w: snap(at(0, 64, 0), nil, world.NewInventory(water(1), water(1), water(1)),
				tank(0, 64, 6, 1000, 16000),
				tank(3, 64, 0, 14000, 16000)),
			raw:  map[string]any{"min_fill": 0.9},
			want: cat(tpour(near, "minecraft:water_bucket", 2), tpour(far, "minecraft:water_bucket", 1)),
		},
		{
			name: "water cells go into a boiler through its GUI",
			w: snap(at(0, 64, 0), nil, world.NewInventory(stack("IC2:itemCellEmpty", 1, 5)),
				boiler(3, 64, 0, 4000, 300, none)),
			want: cells(near, "IC2:itemCellEmpty:1", 5),
		},
		{
			name: "water cells are right-clicked into a water tank",
			w: snap(at(0, 64, 0), nil, world.NewInventory(stack("IC2:itemCellEmpty", 1, 2)),
				tank(3, 64, 0, 0, 2000)),
			want: tpour(near, "IC2:itemCellEmpty:1", 2),
		},
		{
			name: "a boiler gets a bucket by right-click and cells through its GUI, then trips with both",
			w: snap(at(0, 64, 0), pool, world.NewInventory(water(1), stack("IC2:itemCellEmpty", 1, 1)),
				boiler(3, 64, 0, 12000, 300, none)),
			raw: map[string]any{"min_fill": 0.9},
			want: cat(
				[]action.Action{action.MoveTo{Pos: near, Radius: 3}, action.UseItem{Item: "minecraft:water_bucket", Target: ptr(near)},
					action.OpenContainer{Pos: near},
					action.TransferItems{Pos: near, Item: "IC2:itemCellEmpty:1", Count: 1, Direction: action.Deposit, Slot: "fluid_in"},
					action.TransferItems{Pos: near, Item: "ore:cellEmpty", Count: 1, Direction: action.Withdraw, Slot: "fluid_out"},
					action.CloseContainer{}, action.OpenContainer{Pos: near}, action.CloseContainer{}},
				[]action.Action{action.MoveTo{Pos: src, Radius: 3},
					action.UseItem{Item: "ore:bucketEmpty", Target: ptr(src)},
					action.UseItem{Item: "ore:cellEmpty", Target: ptr(world.Pos(-6, 63, 0))}},
				[]action.Action{action.MoveTo{Pos: near, Radius: 3}, action.UseItem{Item: "ore:bucketWater", Target: ptr(near)}},
				cells(near, "ore:cellWater", 1)[1:],
			),
		},
		{
			name: "held water first, then trips with the emptied buckets",
			w: snap(at(0, 64, 0), pool, world.NewInventory(water(1)),
				tank(3, 64, 0, 13000, 16000)),
			raw: map[string]any{"min_fill": 0.9},
			want: cat(
				tpour(near, "minecraft:water_bucket", 1),
				fill(1, src), tpour(near, "ore:bucketWater", 1),
				fill(1, src), tpour(near, "ore:bucketWater", 1),
			),
		},
		{
			name: "empty buckets are filled at adjacent source blocks",
			w: snap(at(0, 64, 0), pool, world.NewInventory(stack("minecraft:bucket", 0, 16)),
				tank(3, 64, 0, 13000, 16000)),
			raw:  map[string]any{"min_fill": 0.9},
			want: cat(fill(3, src, world.Pos(-6, 63, 0), world.Pos(-5, 63, 1)), tpour(near, "ore:bucketWater", 3)),
		},
		{
			name: "trips are bounded by max_trips",
			w: snap(at(0, 64, 0), pool, world.NewInventory(stack("minecraft:bucket", 0, 1)),
				tank(3, 64, 0, 0, 16000)),
			raw: map[string]any{"max_trips": 2},
			want: cat(
				fill(1, src), tpour(near, "ore:bucketWater", 1),
				fill(1, src), tpour(near, "ore:bucketWater", 1),
			),
		},
		{
			name: "a hot dry boiler is skipped; the tank behind it is filled",
			w: snap(at(0, 64, 0), nil, world.NewInventory(water(2)),
				boiler(3, 64, 0, 0, 450, stack("minecraft:coal", 0, 10)),
				tank(0, 64, 6, 0, 2000)),
			want: tpour(far, "minecraft:water_bucket", 2),
		},
		{
			name: "a dry boiler still burning near 100 °C is skipped; one far below is filled",
			w: snap(at(0, 64, 0), nil, world.NewInventory(water(2)),
				burning(boiler(3, 64, 0, 0, 61, none)),
				burning(boiler(0, 64, 6, 0, 60, none))),
			want: tpour(far, "minecraft:water_bucket", 2),
		},
		{
			name: "a dry boiler at 100 °C that is not burning only cools: safe",
			w: snap(at(0, 64, 0), nil, world.NewInventory(water(1)),
				boiler(3, 64, 0, 0, 100, none)),
			want: tpour(near, "minecraft:water_bucket", 1),
		},
		{
			name: "a cold dry boiler is safe to fill",
			w: snap(at(0, 64, 0), nil, world.NewInventory(water(2)),
				boiler(3, 64, 0, 0, 20, none)),
			want: tpour(near, "minecraft:water_bucket", 2),
		},
		{
			name: "partial delivery when there is no water source for the emptied buckets",
			w: snap(at(0, 64, 0), nil, world.NewInventory(water(1)),
				tank(3, 64, 0, 0, 16000)),
			want: tpour(near, "minecraft:water_bucket", 1),
		},
		{
			name: "a water tank whose water is not known is looked into, not filled",
			w: snap(at(0, 64, 0), nil, world.NewInventory(water(2)),
				unknownTank(tank(3, 64, 0, 0, 0))),
			want: []action.Action{action.MoveTo{Pos: near, Radius: 3}, action.OpenContainer{Pos: near}, action.CloseContainer{}},
		},
		{
			name: "a boiler whose water is not known is looked into, not watered",
			w: snap(at(0, 64, 0), nil, world.NewInventory(water(2)),
				unknownBoiler(3, 64, 0, true)),
			want: []action.Action{action.MoveTo{Pos: near, Radius: 3}, action.OpenContainer{Pos: near}, action.CloseContainer{}},
		},
		{
			name: "an unknown boiler that may be hot and dry is looked into, not refused",
			w: snap(at(0, 64, 0), nil, world.NewInventory(water(2)),
				unknownBoiler(3, 64, 0, false)),
			want: []action.Action{action.MoveTo{Pos: near, Radius: 3}, action.OpenContainer{Pos: near}, action.CloseContainer{}},
		},
		{
			name: "an unknown boiler is looked into first, a known tank filled",
			w: snap(at(0, 64, 0), nil, world.NewInventory(water(2)),
				unknownBoiler(3, 64, 0, true), tank(0, 64, 6, 0, 16000)),
			want: cat([]action.Action{action.MoveTo{Pos: near, Radius: 3}, action.OpenContainer{Pos: near}, action.CloseContainer{}},
				tpour(far, "minecraft:water_bucket", 2)),
		},
		{
			name: "an unknown tank is looked into first, a known one filled",
			w: snap(at(0, 64, 0), nil, world.NewInventory(water(2)),
				unknownTank(tank(3, 64, 0, 0, 16000)), tank(0, 64, 6, 0, 16000)),
			want: cat([]action.Action{action.MoveTo{Pos: near, Radius: 3}, action.OpenContainer{Pos: near}, action.CloseContainer{}},
				tpour(far, "minecraft:water_bucket", 2)),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			acts := checkActions(t, RefillWaterTanks{}, tc.w, tc.raw)
			require.Equal(t, tc.want, acts)
			for _, a := range acts {
				u, ok := a.(action.UseItem)
				if !ok {
					continue
				}
				for _, m := range tc.w.Machines {
					if m.Pos == *u.Target && m.Kind == world.MachineSteamBoiler {
						assert.False(t, m.Fluid("water").Amount == 0 && m.Temperature > 100, "water into a hot dry boiler at %s", m.Pos)
						assert.False(t, m.ContentsUnknown, "water into a boiler not looked into at %s", m.Pos)
					}
				}
			}
		})
	}
}

func TestRefillWaterTanksNothingOrFailure(t *testing.T) {
	none := world.ItemStack{}
	t.Run("nothing below min_fill", func(t *testing.T) {
		w := snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:water_bucket", 0, 1)),
			tank(3, 64, 0, 9000, 16000),
			boiler(0, 64, 6, 16000, 500, none),
			tank(0, 64, -3, 0, 500)) // too small for a bucket's worth
		acts, err := run(t, RefillWaterTanks{}, w, nil)
		require.NoError(t, err)
		assert.Nil(t, acts)
	})

	pool := world.NewSparseBlocks().SetID(world.Pos(-5, 63, 0), "minecraft:water", 0)
	tests := []struct {
		name string
		w    *world.Snapshot
		code skills.Code
		msg  []string
	}{
		{
			"the only boiler is hot and dry",
			snap(at(0, 64, 0), pool, world.NewInventory(stack("minecraft:water_bucket", 0, 4)), boiler(3, 64, 0, 0, 101, none)),
			skills.CodeUnsafe, []string{"(3, 64, 0)", "explode", "cool down"},
		},
		{
			"the only boiler is burning dry at 90 °C",
			snap(at(0, 64, 0), pool, world.NewInventory(stack("minecraft:water_bucket", 0, 4)), burning(boiler(3, 64, 0, 0, 90, none))),
			skills.CodeUnsafe, []string{"(3, 64, 0)", "burning dry", "burn out"},
		},
		{
			"no bucket or cell at all",
			snap(at(0, 64, 0), pool, world.NewInventory(stack("minecraft:coal", 0, 4)), tank(3, 64, 0, 0, 16000)),
			skills.CodeMissingItems, []string{"no water bucket or cell"},
		},
		{
			"empty buckets but no water source",
			snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:bucket", 0, 4)), tank(3, 64, 0, 0, 16000)),
			skills.CodeNoTarget, []string{"no water source"},
		},
		{
			"water source out of radius",
			snap(at(0, 64, 0), world.NewSparseBlocks().SetID(world.Pos(-40, 63, 0), "minecraft:water", 0), world.NewInventory(stack("minecraft:bucket", 0, 4)), tank(3, 64, 0, 0, 16000)),
			skills.CodeNoTarget, []string{"no water source"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			acts, err := run(t, RefillWaterTanks{}, tc.w, nil)
			f := requireFailure(t, err, tc.code)
			for _, m := range tc.msg {
				assert.Contains(t, f.Msg, m)
			}
			assert.Nil(t, acts)
		})
	}
}
