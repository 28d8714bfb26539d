package chain

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// planAt plans a goal in w after the step last (nil: the first), with the
// catalog less the skills named in without.
func planAt(t *testing.T, reg *registry.Registry, goalText string, w *world.Snapshot, last *loop.StepRecord, without []string, blocked ...loop.Invocation) (loop.Decision, error) {
	t.Helper()
	goal, err := loop.ParseGoal(goalText, reg.Tiers())
	require.NoError(t, err)
	catalog, err := reg.DescribeForTechState(w.TechState, reg.Packs().Names())
	require.NoError(t, err)
	catalog = slices.DeleteFunc(slices.Clone(catalog), func(d *registry.Description) bool { return slices.Contains(without, d.Name) })
	obs := loop.Observation{Snapshot: w, Progress: goal.Check(w, reg.Tiers(), false), Last: last, Blocked: blocked}
	return Planner{}.Plan(context.Background(), goal, obs, catalog)
}

// armed is a stone-age world at a time of day, holding a wooden sword and
// more.
func armed(tod int64, more ...world.ItemStack) *world.Snapshot {
	sword := world.NewStack("minecraft:wooden_sword", 0, 1)
	sword.MaxDamage = 59
	w := snapshot("stone_age", nil, append([]world.ItemStack{sword}, more...)...)
	w.TimeOfDay = tod
	return w
}

// TestStringWaitsForTheNight: string comes from spiders, which spawn only
// in the dark. With none in the world model the plan waits for the night,
// walled in (a creeper walks up to a bot waiting in the open), half a
// minute a step or up to the dark, and names the hunt it waits for; a
// spider in sight is hunted; a sword comes first.
func TestStringWaitsForTheNight(t *testing.T) {
	reg := shipped(t)
	hunt2 := "hunt count=2 item=minecraft:string target=spider"
	for _, c := range []struct {
		name    string
		w       *world.Snapshot
		without []string
		want    string
		awaits  string
	}{
		{"by day: wait walled in", armed(1000), nil, "shelter wait=600", hunt2},
		{"near dusk: wait up to the dark", armed(13000), nil, "shelter wait=188", hunt2},
		{"at night with no spider yet", armed(18000), nil, "shelter wait=600", hunt2},
		{"without the shelter skill: wait_for", armed(1000), []string{"shelter"}, "wait_for duration=600", hunt2},
		{"a spider in sight by day", withMobs(armed(1000), mobAt("spider", 20.5, 0.5)), nil, hunt2, ""},
		{"a sword first", withMobs(snapshot("stone_age", nil, stack("minecraft:planks", 2), stack("minecraft:stick", 1), stack("minecraft:crafting_table", 1))),
			nil, "basic_crafting count=1 item=minecraft:wooden_sword", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dec, err := planAt(t, reg, "have 2 minecraft:string", c.w, nil, c.without)
			require.NoError(t, err)
			require.NotNil(t, dec.Invocation)
			assert.Equal(t, c.want, dec.Invocation.String())
			if c.awaits == "" {
				assert.Nil(t, dec.Awaits)
				return
			}
			require.NotNil(t, dec.Awaits)
			assert.Equal(t, c.awaits, dec.Awaits.String())
			assert.Contains(t, dec.Tree.String(), "no spider within 32 blocks")
			assert.Contains(t, dec.Tree.String(), "in the dark")
		})
	}
}

// TestStringWhereTheDayStands: where a step passed ticks and the time of
// day stayed (a world without a day cycle), the night never comes: the
// item cannot be had, and the reason says why.
func TestStringWhereTheDayStands(t *testing.T) {
	reg := shipped(t)
	stood := &loop.StepRecord{Before: loop.Summary{Tick: 100, TimeOfDay: 1000}, After: &loop.Summary{Tick: 700, TimeOfDay: 1000}}
	_, err := planAt(t, reg, "have 2 minecraft:string", armed(1000), stood, nil)
	require.ErrorIs(t, err, loop.ErrStuck)
	assert.Contains(t, err.Error(), "no spider within 32 blocks, and the day does not turn here (the time of day stayed at 1000 over the last step's 600 ticks)")
	turned := &loop.StepRecord{Before: loop.Summary{Tick: 100, TimeOfDay: 400}, After: &loop.Summary{Tick: 700, TimeOfDay: 1000}}
	dec, err := planAt(t, reg, "have 2 minecraft:string", armed(1000), turned, nil)
	require.NoError(t, err)
	assert.Equal(t, "shelter wait=600", dec.Invocation.String())
	still := &loop.StepRecord{Before: loop.Summary{Tick: 100, TimeOfDay: 1000}, After: &loop.Summary{Tick: 100, TimeOfDay: 1000}}
	_, err = planAt(t, reg, "have 2 minecraft:string", armed(1000), still, nil)
	assert.NoError(t, err, "a step that took no ticks says nothing of the day")
}

// TestStringOtherWorkFirst: the wait for the night comes when nothing else
// has work; the decision doing that work still names the hunt the plan
// waits for.
func TestStringOtherWorkFirst(t *testing.T) {
	reg := shipped(t)
	dec, err := planAt(t, reg, "have 2 minecraft:string and have 4 minecraft:planks", armed(1000, stack("minecraft:log", 2)), nil, nil)
	require.NoError(t, err)
	assert.Equal(t, "basic_crafting count=4 item=minecraft:planks", dec.Invocation.String())
	require.NotNil(t, dec.Awaits)
	assert.Equal(t, "hunt count=2 item=minecraft:string target=spider", dec.Awaits.String())
	dec, err = planAt(t, reg, "have 4 minecraft:planks", armed(1000, stack("minecraft:log", 2)), nil, nil)
	require.NoError(t, err)
	assert.Nil(t, dec.Awaits, "no hunt in the plan")
}

// TestStringGuardedSpider: a spider with a hostile mob of another kind
// within its follow range (16, a zombie's 40) of the way to it is left for
// now (wait walled in at night); one farther off does not stop the hunt.
func TestStringGuardedSpider(t *testing.T) {
	reg := shipped(t)
	dec, err := planAt(t, reg, "have 1 minecraft:string", withMobs(armed(18000), mobAt("spider", 20.5, 0.5), mobAt("creeper", 10.5, 12.5)), nil, nil)
	require.NoError(t, err)
	assert.Equal(t, "shelter wait=600", dec.Invocation.String())
	assert.Contains(t, dec.Tree.String(), "guarded: a creeper (entity 101) is 12 blocks from the way to the spider (entity 100)")
	require.NotNil(t, dec.Awaits)
	dec, err = planAt(t, reg, "have 1 minecraft:string", withMobs(armed(18000), mobAt("spider", 20.5, 0.5), mobAt("creeper", 10.5, 17)), nil, nil)
	require.NoError(t, err)
	assert.Equal(t, "hunt count=1 item=minecraft:string target=spider", dec.Invocation.String())
	dec, err = planAt(t, reg, "have 1 minecraft:string", withMobs(armed(1000), mobAt("spider", 20.5, 0.5), mobAt("zombie", 10.5, 35)), nil, nil)
	require.NoError(t, err)
	assert.Equal(t, "shelter wait=600", dec.Invocation.String(), "a zombie sees 40 blocks (and one beyond 32 despawns: no move away)")
	dec, err = planAt(t, reg, "have 1 minecraft:string", withMobs(armed(1000), mobAt("spider", 20.5, 0.5), mobAt("sheep", 10.5, 2)), nil, nil)
	require.NoError(t, err)
	assert.Equal(t, "hunt count=1 item=minecraft:string target=spider", dec.Invocation.String(), "a sheep guards nothing")
}

// TestStringLeavesTheDen: by day, a hostile mob that guards the spiders
// within 32 blocks (despawn_near) of the bot never despawns, and with the
// night's mobs round it fills the monster cap: the plan moves away from
// it, past 32 blocks by 8, and still names the hunt it waits for. At
// night the bot waits walled in; a guard beyond 32 blocks despawns in
// its time, and with the move blocked the plan waits too.
func TestStringLeavesTheDen(t *testing.T) {
	reg := shipped(t)
	den := func(tod int64, zx float64) *world.Snapshot {
		return withMobs(armed(tod), mobAt("spider", 22.5, 0.5), mobAt("zombie", zx, 0.5), mobAt("skeleton", zx+1, 1.5))
	}
	w := den(6000, 20.5)
	dec, err := planAt(t, reg, "have 1 minecraft:string", w, nil, nil)
	require.NoError(t, err)
	d := math.Sqrt(w.Entities[1].Pos.DistSq(w.Player.Pos))
	want := fmt.Sprintf("flee distance=%d entity=101", int(math.Ceil(32-d))+8)
	assert.Equal(t, want, dec.Invocation.String())
	require.NotNil(t, dec.Awaits)
	assert.Equal(t, "hunt count=1 item=minecraft:string target=spider", dec.Awaits.String())
	assert.Contains(t, dec.Tree.String(), "where a mob never despawns")

	dec, err = planAt(t, reg, "have 1 minecraft:string", den(18000, 20.5), nil, nil)
	require.NoError(t, err)
	assert.Equal(t, "shelter wait=600", dec.Invocation.String(), "at night the bot stays walled in")

	far := withMobs(armed(6000), mobAt("spider", 36.5, 0.5), mobAt("zombie", 33.5, 0.5))
	dec, err = planAt(t, reg, "have 1 minecraft:string", far, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, "shelter wait=600", dec.Invocation.String(), "a guard beyond 32 blocks despawns")
	assert.Contains(t, dec.Tree.String(), "guarded: a zombie (entity 101)")

	blocked := loop.Invocation{Skill: "flee", Params: map[string]any{"entity": 101, "distance": int(math.Ceil(32-d)) + 8}}
	dec, err = planAt(t, reg, "have 1 minecraft:string", den(6000, 20.5), nil, nil, blocked)
	require.NoError(t, err)
	assert.Equal(t, "shelter wait=600", dec.Invocation.String(), "the move is blocked: wait")
}

// TestStringBlockedHuntWaits: a hunt that gave nothing twice (a spider
// drops no string one time in three) is blocked; the plan waits for the
// night's others instead of giving up.
func TestStringBlockedHuntWaits(t *testing.T) {
	reg := shipped(t)
	w := withMobs(armed(1000), mobAt("spider", 20.5, 0.5))
	hunt := loop.Invocation{Skill: "hunt", Params: map[string]any{"target": "spider", "item": "minecraft:string", "count": 1}}
	dec, err := planAt(t, reg, "have 1 minecraft:string", w, nil, nil, hunt)
	require.NoError(t, err)
	assert.Equal(t, "shelter wait=600", dec.Invocation.String())
	blockedWait := loop.Invocation{Skill: "shelter", Params: map[string]any{"wait": 600}}
	dec, err = planAt(t, reg, "have 1 minecraft:string", w, nil, nil, hunt, blockedWait)
	require.NoError(t, err)
	assert.Equal(t, "wait_for duration=600", dec.Invocation.String(), "the shelter's wait blocked: wait_for")
}
