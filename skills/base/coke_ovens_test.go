package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// cokeOven builds a Railcraft coke oven with the given input, output and
// creosote (of a 64-bucket tank).
func cokeOven(x, y, z int, formed bool, input, output world.ItemStack, creosote int) world.Machine {
	return world.Machine{
		Kind:   world.MachineCokeOven,
		Pos:    world.Pos(x, y, z),
		Formed: formed,
		Slots:  map[string]world.ItemStack{"input": input, "output": output},
		Fluids: map[string]world.FluidTank{"creosote": {Fluid: "creosote", Amount: creosote, Capacity: 64000}},
	}
}

func feedVisit(p world.BlockPos, item string, n int, slot string) []action.Action {
	return []action.Action{
		action.MoveTo{Pos: p, Radius: 3},
		action.OpenContainer{Pos: p},
		action.TransferItems{Pos: p, Item: item, Count: n, Direction: action.Deposit, Slot: slot},
		action.CloseContainer{},
	}
}

func TestFeedCokeOvens(t *testing.T) {
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
			name: "nearest first, topping up to per_oven until the coal runs out",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal(20)),
				cokeOven(0, 64, 6, true, coal(10), none, 0),
				cokeOven(3, 64, 0, true, none, none, 0)),
			want: append(feedVisit(near, "minecraft:coal", 16, "input"), feedVisit(far, "minecraft:coal", 4, "input")...),
		},
		{
			name: "unformed ovens are skipped",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal(64)),
				cokeOven(3, 64, 0, false, none, none, 0),
				cokeOven(0, 64, 6, true, none, none, 0)),
			raw:  map[string]any{"per_oven": 32},
			want: feedVisit(far, "minecraft:coal", 32, "input"),
		},
		{
			name: "ovens out of radius are skipped",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal(64)),
				cokeOven(3, 64, 0, true, none, none, 0),
				cokeOven(0, 64, 6, true, none, none, 0)),
			raw:  map[string]any{"radius": 4},
			want: feedVisit(near, "minecraft:coal", 16, "input"),
		},
		{
			name: "coal is written :0 when charcoal is also held; charcoal is not coal",
			w: snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:coal", 1, 30), coal(5)),
				cokeOven(3, 64, 0, true, none, none, 0)),
			want: feedVisit(near, "minecraft:coal:0", 5, "input"),
		},
		{
			name: "logs for charcoal: a slot only stacks the same log",
			w: snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 10), stack("minecraft:log", 2, 10)),
				cokeOven(3, 64, 0, true, stack("minecraft:log", 2, 5), none, 0),
				cokeOven(0, 64, 6, true, none, none, 0)),
			raw:  map[string]any{"fuel": "ore:logWood"},
			want: append(feedVisit(near, "minecraft:log:2", 10, "input"), feedVisit(far, "minecraft:log:0", 10, "input")...),
		},
		{
			name: "an oven busy with another input is left alone",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal(64)),
				cokeOven(3, 64, 0, true, stack("minecraft:log", 0, 3), none, 0),
				cokeOven(0, 64, 6, true, none, none, 0)),
			want: feedVisit(far, "minecraft:coal", 16, "input"),
		},
		{
			name: "the input slot holds one stack",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal(64)),
				cokeOven(3, 64, 0, true, coal(60), none, 0)),
			raw:  map[string]any{"per_oven": 64},
			want: feedVisit(near, "minecraft:coal", 4, "input"),
		},
		{
			name: "slot contents without tags (as a body may send them) are matched by the tag table",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal(64)),
				cokeOven(3, 64, 0, true, world.ItemStack{ID: "minecraft:coal", Count: 6}, none, 0)),
			want: feedVisit(near, "minecraft:coal", 10, "input"),
		},
		{
			name: "coal blocks by exact id",
			w: snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:coal_block", 0, 9)),
				cokeOven(3, 64, 0, true, none, none, 0)),
			raw:  map[string]any{"fuel": "minecraft:coal_block"},
			want: feedVisit(near, "minecraft:coal_block", 9, "input"),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, checkActions(t, FeedCokeOvens{}, tc.w, tc.raw))
		})
	}
}

func TestFeedCokeOvensNothingOrFailure(t *testing.T) {
	none := world.ItemStack{}
	coal := func(n int) world.ItemStack { return stack("minecraft:coal", 0, n) }

	t.Run("every oven already full", func(t *testing.T) {
		w := snap(at(0, 64, 0), nil, world.NewInventory(coal(64)),
			cokeOven(3, 64, 0, true, coal(16), none, 0),
			cokeOven(0, 64, 6, true, coal(40), none, 0))
		acts, err := run(t, FeedCokeOvens{}, w, nil)
		require.NoError(t, err)
		assert.Nil(t, acts)
		// Full ovens need no fuel, so an empty inventory is no failure either.
		acts, err = run(t, FeedCokeOvens{}, snap(at(0, 64, 0), nil, world.Inventory{}, w.Machines...), nil)
		require.NoError(t, err)
		assert.Nil(t, acts)
	})

	tests := []struct {
		name string
		w    *world.Snapshot
		raw  map[string]any
		code skills.Code
		msg  string
	}{
		{"no oven", snap(at(0, 64, 0), nil, world.NewInventory(coal(64))), nil, skills.CodeNoTarget, "no coke oven"},
		{"only unformed ovens", snap(at(0, 64, 0), nil, world.NewInventory(coal(64)), cokeOven(3, 64, 0, false, none, none, 0)), nil, skills.CodeNoTarget, "none is formed"},
		{"oven out of radius", snap(at(0, 64, 0), nil, world.NewInventory(coal(64)), cokeOven(30, 64, 0, true, none, none, 0)), nil, skills.CodeNoTarget, "no coke oven within 24"},
		{"no coal", snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:coal", 1, 64)), cokeOven(3, 64, 0, true, none, none, 0)), nil, skills.CodeMissingItems, "no ore:gemCoal"},
		{"the slot's log kind is not held", snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 64)), cokeOven(3, 64, 0, true, stack("minecraft:log", 1, 4), none, 0)), map[string]any{"fuel": "ore:logWood"}, skills.CodeMissingItems, "lacks"},
		{"every wanting oven is busy with another input", snap(at(0, 64, 0), nil, world.NewInventory(coal(64)), cokeOven(3, 64, 0, true, stack("minecraft:log", 0, 3), none, 0)), nil, skills.CodeNoTarget, "another input"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			acts, err := run(t, FeedCokeOvens{}, tc.w, tc.raw)
			f := requireFailure(t, err, tc.code)
			assert.Contains(t, f.Msg, tc.msg)
			assert.Nil(t, acts)
		})
	}
}

func collectVisit(p world.BlockPos, item string, n int) []action.Action {
	return []action.Action{
		action.MoveTo{Pos: p, Radius: 3},
		action.OpenContainer{Pos: p},
		action.TransferItems{Pos: p, Item: item, Count: n, Direction: action.Withdraw, Slot: "output"},
		action.CloseContainer{},
	}
}

// unknownOven is a formed coke oven as a live client first knows it: from
// Railcraft's tile messages, its contents unknown.
func unknownOven(x, y, z int) world.Machine {
	return world.Machine{Kind: world.MachineCokeOven, Pos: world.Pos(x, y, z), Formed: true, ContentsUnknown: true}
}

func lookVisit(p world.BlockPos) []action.Action {
	return []action.Action{action.MoveTo{Pos: p, Radius: 3}, action.OpenContainer{Pos: p}, action.CloseContainer{}}
}

func TestMaintainCokeOvens(t *testing.T) {
	none := world.ItemStack{}
	coke := func(n int) world.ItemStack { return stack("Railcraft:fuel.coke", 0, n) }
	coal := stack("minecraft:coal", 0, 8)
	buckets := func(n int) world.ItemStack { return stack("minecraft:bucket", 0, n) }
	near := world.Pos(3, 64, 0)
	far := world.Pos(0, 64, 6)
	drain := func(p world.BlockPos, item string, n int) []action.Action {
		var out []action.Action
		for range n {
			out = append(out, action.UseItem{Item: item, Target: ptr(p)})
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
			name: "collect coke from every oven, nearest first",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal),
				cokeOven(0, 64, 6, true, none, coke(5), 0),
				cokeOven(3, 64, 0, true, none, coke(20), 0)),
			want: append(collectVisit(near, "Railcraft:fuel.coke", 20), collectVisit(far, "Railcraft:fuel.coke", 5)...),
		},
		{
			name: "min_output skips ovens with little output",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal),
				cokeOven(0, 64, 6, true, none, coke(40), 0),
				cokeOven(3, 64, 0, true, none, coke(20), 0)),
			raw:  map[string]any{"min_output": 32},
			want: collectVisit(far, "Railcraft:fuel.coke", 40),
		},
		{
			name: "charcoal from logs is collected by its own id",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal),
				cokeOven(3, 64, 0, true, none, stack("minecraft:coal", 1, 12), 0)),
			want: collectVisit(near, "minecraft:coal:1", 12),
		},
		{
			name: "collect and drain creosote with the buckets held, one per 1000 mB",
			w: snap(at(0, 64, 0), nil, world.NewInventory(buckets(2)),
				cokeOven(3, 64, 0, true, none, coke(20), 50000)),
			want: append(collectVisit(near, "Railcraft:fuel.coke", 20), drain(near, "minecraft:bucket", 2)...),
		},
		{
			name: "drain only: whole buckets only, cells work too",
			w: snap(at(0, 64, 0), nil, world.NewInventory(stack("IC2:itemCellEmpty", 0, 10)),
				cokeOven(3, 64, 0, true, none, none, 3500)),
			raw:  map[string]any{"drain_threshold": 0.0},
			want: append([]action.Action{action.MoveTo{Pos: near, Radius: 3}}, drain(near, "IC2:itemCellEmpty", 3)...),
		},
		{
			name: "below the drain threshold the creosote stays",
			w: snap(at(0, 64, 0), nil, world.NewInventory(buckets(4)),
				cokeOven(3, 64, 0, true, none, coke(3), 40000)),
			want: collectVisit(near, "Railcraft:fuel.coke", 3),
		},
		{
			name: "a full inventory still takes what fits on a partial coke stack",
			w: snap(at(0, 64, 0), nil, fullInventory(coke(60)),
				cokeOven(3, 64, 0, true, none, coke(20), 0)),
			want: collectVisit(near, "Railcraft:fuel.coke", 4),
		},
		{
			name: "an oven with unknown contents is looked into; known ones are collected",
			w: snap(at(0, 64, 0), nil, world.NewInventory(coal),
				unknownOven(3, 64, 0),
				cokeOven(0, 64, 6, true, none, coke(5), 0)),
			want: append(lookVisit(near), collectVisit(far, "Railcraft:fuel.coke", 5)...),
		},
		{
			name: "room runs out across ovens",
			w: snap(at(0, 64, 0), nil, fullInventory(coke(60), world.ItemStack{}),
				cokeOven(3, 64, 0, true, none, coke(64), 0),
				cokeOven(0, 64, 6, true, none, coke(64), 0)),
			want: append(collectVisit(near, "Railcraft:fuel.coke", 64), collectVisit(far, "Railcraft:fuel.coke", 4)...),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, checkActions(t, MaintainCokeOvens{}, tc.w, tc.raw))
		})
	}
}

func TestMaintainCokeOvensNothingOrFailure(t *testing.T) {
	none := world.ItemStack{}
	coke := func(n int) world.ItemStack { return stack("Railcraft:fuel.coke", 0, n) }

	t.Run("nothing to collect or drain", func(t *testing.T) {
		w := snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:bucket", 0, 4)),
			cokeOven(3, 64, 0, true, stack("minecraft:coal", 0, 10), none, 1000),
			cokeOven(0, 64, 6, true, none, none, 0))
		acts, err := run(t, MaintainCokeOvens{}, w, nil)
		require.NoError(t, err)
		assert.Nil(t, acts)
	})

	t.Run("an unformed oven with unknown contents is not looked into", func(t *testing.T) {
		o := unknownOven(3, 64, 0)
		o.Formed = false
		acts, err := run(t, MaintainCokeOvens{}, snap(at(0, 64, 0), nil, world.Inventory{}, o), nil)
		requireFailure(t, err, skills.CodeNoTarget)
		assert.Nil(t, acts)
	})
	t.Run("even with a full inventory an unknown oven is looked into", func(t *testing.T) {
		acts, err := run(t, MaintainCokeOvens{}, snap(at(0, 64, 0), nil, fullInventory(), unknownOven(3, 64, 0)), nil)
		require.NoError(t, err)
		assert.Equal(t, lookVisit(world.Pos(3, 64, 0)), acts)
	})

	tests := []struct {
		name string
		w    *world.Snapshot
		code skills.Code
		msg  string
	}{
		{"no oven", snap(at(0, 64, 0), nil, world.Inventory{}), skills.CodeNoTarget, "no coke oven"},
		{"only unformed ovens", snap(at(0, 64, 0), nil, world.Inventory{}, cokeOven(3, 64, 0, false, none, coke(10), 0)), skills.CodeNoTarget, "none is formed"},
		{"inventory full", snap(at(0, 64, 0), nil, fullInventory(), cokeOven(3, 64, 0, true, none, coke(10), 0)), skills.CodeMissingItems, "inventory full"},
		{"creosote to drain but no empty container", snap(at(0, 64, 0), nil, world.Inventory{}, cokeOven(3, 64, 0, true, none, none, 60000)), skills.CodeMissingItems, "no empty bucket or cell"},
		{"creosote to drain but no free slot", snap(at(0, 64, 0), nil, fullInventory(stack("minecraft:bucket", 0, 16)), cokeOven(3, 64, 0, true, none, none, 60000)), skills.CodeMissingItems, "no free slot"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			acts, err := run(t, MaintainCokeOvens{}, tc.w, nil)
			f := requireFailure(t, err, tc.code)
			assert.Contains(t, f.Msg, tc.msg)
			assert.Nil(t, acts)
		})
	}
}

// TestFeedCokeOvensUnknownContents: an oven whose contents are unknown is
// looked into, never fed blind (its input may hold fuel already, or
// another item); known ovens are fed as usual, nearest first, and an oven
// is looked into only while fuel is left for it.
func TestFeedCokeOvensUnknownContents(t *testing.T) {
	none := world.ItemStack{}
	coal := func(n int) world.ItemStack { return stack("minecraft:coal", 0, n) }
	near := world.Pos(3, 64, 0)
	far := world.Pos(0, 64, 6)

	t.Run("unknown oven: a look, no deposit", func(t *testing.T) {
		w := snap(at(0, 64, 0), nil, world.NewInventory(coal(32)), unknownOven(3, 64, 0))
		require.Equal(t, lookVisit(near), checkActions(t, FeedCokeOvens{}, w, nil))
	})
	t.Run("a known oven is fed, an unknown one looked into", func(t *testing.T) {
		w := snap(at(0, 64, 0), nil, world.NewInventory(coal(32)),
			unknownOven(3, 64, 0), cokeOven(0, 64, 6, true, coal(10), none, 0))
		require.Equal(t, append(lookVisit(near), feedVisit(far, "minecraft:coal", 6, "input")...),
			checkActions(t, FeedCokeOvens{}, w, nil))
	})
	t.Run("no look when the nearer oven took the last fuel", func(t *testing.T) {
		w := snap(at(0, 64, 0), nil, world.NewInventory(coal(16)),
			cokeOven(3, 64, 0, true, none, none, 0), unknownOven(0, 64, 6))
		require.Equal(t, feedVisit(near, "minecraft:coal", 16, "input"), checkActions(t, FeedCokeOvens{}, w, nil))
	})
	t.Run("no fuel: missing_items, no look", func(t *testing.T) {
		w := snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:coal", 1, 64)), unknownOven(3, 64, 0))
		acts, err := run(t, FeedCokeOvens{}, w, nil)
		f := requireFailure(t, err, skills.CodeMissingItems)
		assert.Contains(t, f.Msg, "not looked into")
		assert.Nil(t, acts)
	})
	t.Run("no fuel: the count names the unknown and the wanting ovens", func(t *testing.T) {
		w := snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:coal", 1, 64)),
			unknownOven(3, 64, 0), cokeOven(0, 64, 6, true, coal(10), none, 0))
		_, err := run(t, FeedCokeOvens{}, w, nil)
		f := requireFailure(t, err, skills.CodeMissingItems)
		assert.Contains(t, f.Msg, "2 coke oven(s) may want fuel (1 not looked into yet)")
	})
	t.Run("once looked into, only what fits goes in", func(t *testing.T) {
		seen := unknownOven(3, 64, 0)
		seen.ContentsUnknown = false
		seen.Slots = map[string]world.ItemStack{"input": coal(10)}
		w := snap(at(0, 64, 0), nil, world.NewInventory(coal(32)), seen)
		require.Equal(t, feedVisit(near, "minecraft:coal", 6, "input"), checkActions(t, FeedCokeOvens{}, w, nil))
	})
}
