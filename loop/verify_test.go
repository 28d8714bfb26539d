package loop_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// effectSpec parses a go skill with the given effects block; it has an
// item_id "fuel", a block_id "target" and an int "radius" parameter.
func effectSpec(t *testing.T, effects string) *skills.Spec {
	t.Helper()
	s, err := skills.ParseSpec("probe.yaml", []byte("name: probe\nversion: 1\ndescription: p\nemits: [wait]\nparams:\n"+
		"  fuel: {type: item_id, default: \"ore:gemCoal\", description: f}\n"+
		"  target: {type: block_id, default: \"minecraft:iron_ore\", description: t}\n"+
		"  radius: {type: int, default: 8, description: r}\n"+
		"effects:\n"+effects))
	require.NoError(t, err)
	return s
}

func params(t *testing.T, s *skills.Spec, raw map[string]any) skills.Params {
	t.Helper()
	p, err := s.ResolveParams(raw)
	require.NoError(t, err)
	return p
}

// snap is a world at the origin with an inventory, blocks and machines.
func snap(inv []world.ItemStack, blocks map[world.BlockPos]string, machines ...world.Machine) *world.Snapshot {
	bs := world.NewSparseBlocks()
	for p, id := range blocks {
		bs.SetID(p, id, 0)
	}
	return &world.Snapshot{Player: world.Player{Pos: world.Vec3{X: 0.5, Y: 64, Z: 0.5}}, Inventory: world.NewInventory(inv...), Blocks: bs, Machines: machines}
}

// chunkSnaps builds the worlds of before and after in one chunk store,
// the second written over the first, and returns a snapshot of each, as a
// body reports the world before and after a step.
func chunkSnaps(t *testing.T, before, after map[world.BlockPos]string) (*world.Snapshot, *world.Snapshot) {
	t.Helper()
	st := world.NewState(world.StateOptions{Rules: rules.Default()})
	set := func(blocks map[world.BlockPos]string) *world.Snapshot {
		st.Update(func(tx *world.Tx) {
			tx.MovePlayer(world.Vec3{X: 0.5, Y: 64, Z: 0.5})
			for p := range before {
				require.NoError(t, tx.SetBlock(p, "minecraft:air", 0))
			}
			for p, id := range blocks {
				require.NoError(t, tx.SetBlock(p, id, 0))
			}
		})
		return st.Snapshot()
	}
	b := set(before)
	return b, set(after)
}

func stacks(kv ...any) []world.ItemStack {
	var out []world.ItemStack
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, world.NewStack(kv[i].(string), 0, kv[i+1].(int)))
	}
	return out
}

func verify(t *testing.T, s *skills.Spec, raw map[string]any, before, after *world.Snapshot) ([]loop.EffectCheck, bool) {
	t.Helper()
	return loop.VerifyEffects(s, params(t, s, raw), before, after, rules.Default().Tiers, nil)
}

func TestVerifyInventoryDeltas(t *testing.T) {
	tests := []struct {
		name          string
		effects       string
		before, after []world.ItemStack
		want          bool
	}{
		// min_increase is on the change, not on the count held.
		{"gain of 4 meets min_increase 4", `  inventory_delta: {"minecraft:log": {min_increase: 4}}`, stacks("minecraft:log", 10), stacks("minecraft:log", 14), true},
		{"gain of 3 misses min_increase 4", `  inventory_delta: {"minecraft:log": {min_increase: 4}}`, stacks("minecraft:log", 10), stacks("minecraft:log", 13), false},
		{"holding 10 is not a gain of 4", `  inventory_delta: {"minecraft:log": {min_increase: 4}}`, stacks("minecraft:log", 10), stacks("minecraft:log", 10), false},
		{"min_decrease needs a loss", `  inventory_delta: {"minecraft:coal": {min_decrease: 1}}`, stacks("minecraft:coal", 5), stacks("minecraft:coal", 5), false},
		{"a gain is no decrease", `  inventory_delta: {"minecraft:coal": {min_decrease: 1}}`, stacks("minecraft:coal", 5), stacks("minecraft:coal", 6), false},
		{"a loss of 1 meets min_decrease 1", `  inventory_delta: {"minecraft:coal": {min_decrease: 1}}`, stacks("minecraft:coal", 5), stacks("minecraft:coal", 4), true},
		{"max_decrease holds at the limit", `  inventory_delta: {"minecraft:coal": {max_decrease: 2}}`, stacks("minecraft:coal", 5), stacks("minecraft:coal", 3), true},
		{"max_decrease breaks above it", `  inventory_delta: {"minecraft:coal": {max_decrease: 2}}`, stacks("minecraft:coal", 5), stacks("minecraft:coal", 2), false},
		{"parameter item and amount", `  inventory_delta: {"{fuel}": {min_decrease: "{radius}"}}`, stacks("minecraft:coal", 10), stacks("minecraft:coal", 2), true},
		{"parameter amount missed", `  inventory_delta: {"{fuel}": {min_decrease: "{radius}"}}`, stacks("minecraft:coal", 10), stacks("minecraft:coal", 3), false},
		// Any item: gains of one kind are not cancelled by losses of another.
		{"any item gained while another is lost", `  inventory_delta: {"*": {min_increase: 1}}`, stacks("minecraft:coal", 5), stacks("minecraft:coal", 3, "minecraft:dirt", 1), true},
		{"nothing gained", `  inventory_delta: {"*": {min_increase: 1}}`, stacks("minecraft:coal", 5), stacks("minecraft:coal", 3), false},
		{"a swap of kinds is a gain", `  inventory_delta: {"*": {min_increase: 2}}`, stacks("minecraft:coal", 2), stacks("minecraft:dirt", 2), true},
		{"any item lost", `  inventory_delta: {"*": {min_decrease: 2}}`, stacks("minecraft:coal", 5, "minecraft:dirt", 1), stacks("minecraft:coal", 4), true},
		// GregTech's items share one id and differ by metadata: a plate
		// made from an ingot is a gain. A tool wearing down is not.
		{"another metadata is another kind", `  inventory_delta: {"*": {min_increase: 1}}`,
			[]world.ItemStack{world.NewStack("gregtech:gt.metaitem.01", 11300, 1)}, []world.ItemStack{world.NewStack("gregtech:gt.metaitem.01", 17300, 1)}, true},
		{"a tool wearing down is no gain", `  inventory_delta: {"*": {min_increase: 1}}`,
			[]world.ItemStack{world.NewTool("minecraft:stone_pickaxe", 0, 100, 131)}, []world.ItemStack{world.NewTool("minecraft:stone_pickaxe", 0, 99, 131)}, false},
		{"any item lost too little", `  inventory_delta: {"*": {min_decrease: 2}}`, stacks("minecraft:coal", 5), stacks("minecraft:coal", 4, "minecraft:dirt", 9), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := effectSpec(t, tc.effects+"\n")
			checks, ok := verify(t, s, map[string]any{"fuel": "minecraft:coal"}, snap(tc.before, nil), snap(tc.after, nil))
			require.Len(t, checks, 1)
			assert.Equal(t, tc.want, ok, "%+v", checks)
			assert.Equal(t, tc.want, checks[0].OK)
		})
	}
}

func TestVerifyBlocks(t *testing.T) {
	ore, far := world.Pos(3, 64, 0), world.Pos(20, 64, 0)
	tests := []struct {
		name          string
		effects       string
		before, after map[world.BlockPos]string
		want          bool
		effect        string
	}{
		{"the target was mined", `  blocks: {"{target}": {min_removed: 1, radius: "{radius}"}}`,
			map[world.BlockPos]string{ore: "minecraft:iron_ore"}, nil, true, "minecraft:iron_ore blocks within 8 removed >= 1 (removed 1)"},
		{"the target is still there", `  blocks: {"{target}": {min_removed: 1, radius: "{radius}"}}`,
			map[world.BlockPos]string{ore: "minecraft:iron_ore"}, map[world.BlockPos]string{ore: "minecraft:iron_ore"}, false, "(removed 0)"},
		{"replaced by another block counts as removed", `  blocks: {"{target}": {min_removed: 1, radius: 8}}`,
			map[world.BlockPos]string{ore: "minecraft:iron_ore"}, map[world.BlockPos]string{ore: "minecraft:cobblestone"}, true, "(removed 1)"},
		{"a target mined outside the radius does not count", `  blocks: {"{target}": {min_removed: 1, radius: "{radius}"}}`,
			map[world.BlockPos]string{far: "minecraft:iron_ore"}, nil, false, "(removed 0)"},
		{"two removed when two are asked", `  blocks: {"tag:log": {min_removed: 2, radius: 8}}`,
			map[world.BlockPos]string{ore: "minecraft:log", ore.Add(0, 1, 0): "minecraft:log2"}, nil, true, "(removed 2)"},
		{"one removed when two are asked", `  blocks: {"tag:log": {min_removed: 2, radius: 8}}`,
			map[world.BlockPos]string{ore: "minecraft:log", ore.Add(0, 1, 0): "minecraft:log"}, map[world.BlockPos]string{ore: "minecraft:log"}, false, "(removed 1)"},
		{"a log appearing elsewhere does not hide a removal", `  blocks: {"tag:log": {min_removed: 1, radius: 8}}`,
			map[world.BlockPos]string{ore: "minecraft:log"}, map[world.BlockPos]string{ore.Add(1, 0, 0): "minecraft:log"}, true, "(removed 1)"},
		{"a sapling was planted", `  blocks: {"tag:sapling": {min_placed: 1, radius: 8}}`,
			nil, map[world.BlockPos]string{ore: "minecraft:sapling"}, true, "tag:sapling blocks within 8 placed >= 1 (placed 1)"},
		{"no sapling planted", `  blocks: {"tag:sapling": {min_placed: 1, radius: 8}}`,
			map[world.BlockPos]string{ore: "minecraft:sapling"}, map[world.BlockPos]string{ore: "minecraft:sapling"}, false, "(placed 0)"},
		{"a sapling removed elsewhere does not hide a placement", `  blocks: {"tag:sapling": {min_placed: 1, radius: 8}}`,
			map[world.BlockPos]string{ore.Add(1, 0, 0): "minecraft:sapling"}, map[world.BlockPos]string{ore: "minecraft:sapling"}, true, "(placed 1)"},
		{"a removal is no placement", `  blocks: {"tag:sapling": {min_placed: 1, radius: 8}}`,
			map[world.BlockPos]string{ore: "minecraft:sapling"}, nil, false, "(placed 0)"},
		{"a log turned into another log is no placement", `  blocks: {"tag:log": {min_placed: 1, radius: 8}}`,
			map[world.BlockPos]string{ore: "minecraft:log"}, map[world.BlockPos]string{ore: "minecraft:log2"}, false, "(placed 0)"},
		{"a log turned into another log is no removal", `  blocks: {"tag:log": {min_removed: 1, radius: 8}}`,
			map[world.BlockPos]string{ore: "minecraft:log"}, map[world.BlockPos]string{ore: "minecraft:log2"}, false, "(removed 0)"},
		{"a placement is no removal", `  blocks: {"tag:sapling": {min_removed: 1, radius: 8}}`,
			nil, map[world.BlockPos]string{ore: "minecraft:sapling"}, false, "(removed 0)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := effectSpec(t, tc.effects+"\n")
			checks, ok := verify(t, s, nil, snap(nil, tc.before), snap(nil, tc.after))
			require.Len(t, checks, 1)
			assert.Equal(t, tc.want, ok, "%+v", checks)
			assert.Contains(t, checks[0].Effect, tc.effect)
			// The same two worlds as views of one chunk store, compared
			// where they differ (world.ChangedBlocks): the same verdict
			// and the same counts.
			cb, ca := chunkSnaps(t, tc.before, tc.after)
			viaChunks, ok := verify(t, s, nil, cb, ca)
			assert.Equal(t, tc.want, ok, "%+v", viaChunks)
			assert.Equal(t, checks, viaChunks)
		})
	}
	t.Run("min_near counts around where the player ends", func(t *testing.T) {
		s := effectSpec(t, `  blocks: {"{target}": {min_near: 1, radius: 8}}`+"\n")
		world40 := map[world.BlockPos]string{world.Pos(40, 64, 0): "minecraft:iron_ore"}
		walked := func(x float64) *world.Snapshot {
			a := snap(nil, world40)
			a.Player.Pos.X = x
			return a
		}
		checks, ok := verify(t, s, nil, snap(nil, world40), walked(34.5))
		assert.True(t, ok, "%+v", checks)
		assert.Contains(t, checks[0].Effect, "minecraft:iron_ore blocks within 8 of the end >= 1 (found 1)")
		checks, ok = verify(t, s, nil, snap(nil, world40), walked(20.5))
		assert.False(t, ok, "still 20 blocks away: %+v", checks)
		assert.Contains(t, checks[0].Effect, "(found 0)")
		_, ok = verify(t, s, nil, walked(34.5), snap(nil, world40))
		assert.False(t, ok, "near at the start, far at the end")
		two := effectSpec(t, `  blocks: {"{target}": {min_near: 2, radius: 8}}`+"\n")
		_, ok = verify(t, two, nil, snap(nil, world40), walked(34.5))
		assert.False(t, ok, "one block near, two asked")
	})
	t.Run("a body without blocks observes nothing", func(t *testing.T) {
		s := effectSpec(t, `  blocks: {"{target}": {min_removed: 1, radius: 8}}`+"\n")
		b := snap(nil, map[world.BlockPos]string{ore: "minecraft:iron_ore"})
		a := snap(nil, nil)
		a.Blocks = nil
		checks, ok := verify(t, s, nil, b, a)
		assert.False(t, ok, "no blocks after: nothing observed")
		assert.Contains(t, checks[0].Effect, "blocks not observed")
		b.Blocks, a.Blocks = nil, world.NewSparseBlocks()
		_, ok = verify(t, s, nil, b, a)
		assert.False(t, ok, "no blocks before: nothing observed")
	})
}

func oven(pos world.BlockPos, input world.ItemStack, creosote int) world.Machine {
	return world.Machine{Kind: world.MachineCokeOven, Pos: pos, Formed: true,
		Slots:  map[string]world.ItemStack{"input": input},
		Fluids: map[string]world.FluidTank{"creosote": {Fluid: "creosote", Amount: creosote, Capacity: 64000}}}
}

// unknown marks a machine's contents unknown (the live client's machine
// known from its blocks, not from its window).
func unknown(m world.Machine) world.Machine {
	m.ContentsUnknown = true
	return m
}

func TestVerifyMachines(t *testing.T) {
	a, b, far := world.Pos(3, 64, 0), world.Pos(-3, 64, 0), world.Pos(40, 64, 0)
	coal := func(n int) world.ItemStack { return world.NewStack("minecraft:coal", 0, n) }
	logs := func(n int) world.ItemStack { return world.NewStack("minecraft:log", 0, n) }
	const load = `  machines: [{kind: coke_oven, slot: input, item: "{fuel}", min_increase: 2, radius: "{radius}"}]`
	const drain = `  machines: [{kind: coke_oven, fluid: creosote, min_decrease: 1000}]`
	tests := []struct {
		name          string
		effects       string
		before, after []world.Machine
		want          bool
		effect        string
		b, a          int
	}{
		{"an oven was loaded", load, []world.Machine{oven(a, coal(1), 0)}, []world.Machine{oven(a, coal(3), 0)}, true,
			"coke_oven minecraft:coal in the input slot within 8 increases by >= 2", 1, 3},
		{"loaded too little", load, []world.Machine{oven(a, coal(1), 0)}, []world.Machine{oven(a, coal(2), 0)}, false, "", 1, 2},
		{"unloaded is not loaded", load, []world.Machine{oven(a, coal(5), 0)}, []world.Machine{oven(a, coal(2), 0)}, false, "", 5, 2},
		{"the best of two ovens counts", load, []world.Machine{oven(a, coal(1), 0), oven(b, coal(0), 0)}, []world.Machine{oven(a, coal(1), 0), oven(b, coal(4), 0)}, true, "", 0, 4},
		{"another item in the slot does not count", load, []world.Machine{oven(a, world.ItemStack{}, 0)}, []world.Machine{oven(a, logs(8), 0)}, false, "", 0, 0},
		{"an oven beyond the radius does not count", load, []world.Machine{oven(far, coal(0), 0)}, []world.Machine{oven(far, coal(9), 0)}, false, "no coke_oven within 8 seen before and after", 0, 0},
		{"an oven not seen after does not count", load, []world.Machine{oven(a, coal(0), 0)}, nil, false, "no coke_oven", 0, 0},
		{"creosote drained", drain, []world.Machine{oven(a, coal(0), 3000)}, []world.Machine{oven(a, coal(0), 2000)}, true,
			"coke_oven creosote (mB) decreases by >= 1000", 3000, 2000},
		{"creosote drained too little", drain, []world.Machine{oven(a, coal(0), 3000)}, []world.Machine{oven(a, coal(0), 2500)}, false, "", 3000, 2500},
		{"creosote made is not drained", drain, []world.Machine{oven(a, coal(0), 3000)}, []world.Machine{oven(a, coal(0), 4500)}, false, "", 3000, 4500},
		{"no radius: any distance", `  machines: [{kind: coke_oven, fluid: creosote, min_increase: 1}]`, []world.Machine{oven(far, coal(0), 0)}, []world.Machine{oven(far, coal(0), 1)}, true, "", 0, 1},
		{"creosote of an oven not known before says nothing", `  machines: [{kind: coke_oven, fluid: creosote, min_increase: 1}]`,
			[]world.Machine{unknown(oven(a, coal(0), 0))}, []world.Machine{oven(a, coal(0), 5000)}, false, "no coke_oven seen before and after with known contents", 0, 0},
		{"creosote of an oven not known after says nothing", `  machines: [{kind: coke_oven, fluid: creosote, min_increase: 1}]`,
			[]world.Machine{oven(a, coal(0), 0)}, []world.Machine{unknown(oven(a, coal(0), 5000))}, false, "no coke_oven", 0, 0},
		{"a known oven next to an unknown one counts", `  machines: [{kind: coke_oven, fluid: creosote, min_increase: 1}]`,
			[]world.Machine{unknown(oven(a, coal(0), 0)), oven(b, coal(0), 0)}, []world.Machine{oven(a, coal(0), 9000), oven(b, coal(0), 1000)}, true, "", 0, 1000},
		{"the input of an oven not known before says nothing", load,
			[]world.Machine{unknown(oven(a, world.ItemStack{}, 0))}, []world.Machine{oven(a, coal(16), 0)}, false, "no coke_oven within 8 seen before and after with known contents", 0, 0},
		{"the input of an oven not known after says nothing", load,
			[]world.Machine{oven(a, coal(0), 0)}, []world.Machine{unknown(oven(a, coal(16), 0))}, false, "no coke_oven", 0, 0},
		{"a known oven's input next to an unknown one counts", load,
			[]world.Machine{unknown(oven(a, world.ItemStack{}, 0)), oven(b, coal(1), 0)}, []world.Machine{oven(a, coal(16), 0), oven(b, coal(3), 0)}, true, "", 1, 3},
		{"a slot without item filter", `  machines: [{kind: coke_oven, slot: input, min_decrease: 1}]`, []world.Machine{oven(a, logs(3), 0)}, []world.Machine{oven(a, logs(2), 0)}, true, "coke_oven input slot decreases by >= 1", 3, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := effectSpec(t, tc.effects+"\n")
			checks, ok := verify(t, s, map[string]any{"fuel": "minecraft:coal"}, snap(nil, nil, tc.before...), snap(nil, nil, tc.after...))
			require.Len(t, checks, 1)
			assert.Equal(t, tc.want, ok, "%+v", checks)
			assert.Contains(t, checks[0].Effect, tc.effect)
			assert.Equal(t, tc.b, checks[0].Before, "before")
			assert.Equal(t, tc.a, checks[0].After, "after")
		})
	}
}

func TestVerifyAnyOf(t *testing.T) {
	s := effectSpec(t, `  inventory_delta: {"minecraft:bucket": {max_decrease: 4}}
  any_of:
    - machines: [{kind: coke_oven, slot: input, min_decrease: 1}]
    - machines: [{kind: coke_oven, fluid: creosote, min_decrease: 1000}]
`)
	coal := world.NewStack("minecraft:coal", 0, 4)
	before := snap(stacks("minecraft:bucket", 2), nil, oven(world.Pos(2, 64, 0), coal, 2000))

	t.Run("the second alternative holds", func(t *testing.T) {
		after := snap(stacks("minecraft:bucket", 1), nil, oven(world.Pos(2, 64, 0), coal, 1000))
		checks, ok := verify(t, s, nil, before, after)
		assert.True(t, ok, "%+v", checks)
		require.Len(t, checks, 2, "the top level and the alternative that held: %+v", checks)
		assert.Contains(t, checks[1].Effect, "creosote")
		for _, c := range checks {
			assert.True(t, c.OK)
		}
	})
	t.Run("no alternative holds", func(t *testing.T) {
		checks, ok := verify(t, s, nil, before, snap(stacks("minecraft:bucket", 2), nil, oven(world.Pos(2, 64, 0), coal, 2000)))
		assert.False(t, ok)
		require.Len(t, checks, 3, "%+v", checks)
		assert.True(t, checks[0].OK)
		assert.True(t, strings.HasPrefix(checks[1].Effect, "any_of[0]: coke_oven input slot"), checks[1].Effect)
		assert.True(t, strings.HasPrefix(checks[2].Effect, "any_of[1]: coke_oven creosote"), checks[2].Effect)
	})
	t.Run("an alternative does not excuse the top level", func(t *testing.T) {
		after := snap(nil, nil, oven(world.Pos(2, 64, 0), coal, 1000))
		checks, ok := verify(t, s, nil, before, snap(stacks("minecraft:bucket", 2), nil, oven(world.Pos(2, 64, 0), coal, 1000)))
		assert.True(t, ok, "%+v", checks)
		before6 := snap(stacks("minecraft:bucket", 6), nil, oven(world.Pos(2, 64, 0), coal, 2000))
		checks, ok = verify(t, s, nil, before6, after)
		assert.False(t, ok, "6 buckets lost, at most 4 allowed: %+v", checks)
	})
	t.Run("an empty alternative built in code never holds", func(t *testing.T) {
		c := s.Clone()
		c.Effects.AnyOf[1] = skills.EffectSet{}
		checks, ok := verify(t, c, nil, before, snap(stacks("minecraft:bucket", 2), nil, oven(world.Pos(2, 64, 0), coal, 0)))
		assert.False(t, ok, "%+v", checks)
	})
}

// TestVerifyTier: tech_delta.reaches_tier holds when the tier after the
// step is the declared one or higher, not when it stays below.
func TestVerifyTier(t *testing.T) {
	s := effectSpec(t, "  tech_delta: {reaches_tier: steam_age}\n")
	for _, tc := range []struct {
		before, after string
		want          bool
	}{
		{"stone_age", "steam_age", true},
		{"stone_age", "lv", true},
		{"stone_age", "stone_age", false},
		{"steam_age", "stone_age", false},
	} {
		b, a := snap(nil, nil), snap(nil, nil)
		b.TechState, a.TechState = tc.before, tc.after
		checks, ok := verify(t, s, nil, b, a)
		require.Len(t, checks, 1)
		assert.Equal(t, tc.want, ok, "%s -> %s: %+v", tc.before, tc.after, checks)
		assert.Equal(t, "tier reaches steam_age", checks[0].Effect)
	}
}
