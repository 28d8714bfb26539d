package quests_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/quests"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

// knownItems accepts the items of the fixtures the agent would know.
func knownItems(s string) error {
	if strings.HasPrefix(s, "minecraft:") || s == "ore:plankWood" {
		return nil
	}
	return errors.New("unknown")
}

// TestJudgeTasks: each task type becomes item goals or a reason to skip.
func TestJudgeTasks(t *testing.T) {
	j := quests.Judge{Item: knownItems}
	item := []quests.Item{{ID: "minecraft:log", Count: 4}}
	for _, c := range []struct {
		name string
		task quests.Task
		want quests.Verdict
	}{
		{"retrieval: have", quests.Task{Type: quests.TaskRetrieval, Items: item}, quests.Verdict{Items: []loop.ItemGoal{{Item: "minecraft:log", Count: 4}}}},
		{"consumed retrieval: collect", quests.Task{Type: quests.TaskRetrieval, Items: item, Consume: true}, quests.Verdict{Items: []loop.ItemGoal{{Item: "minecraft:log", Count: 4, Gain: true}}}},
		{"crafting: collect", quests.Task{Type: quests.TaskCrafting, Items: item}, quests.Verdict{Items: []loop.ItemGoal{{Item: "minecraft:log", Count: 4, Gain: true}}}},
		{"block breaking: collect", quests.Task{Type: quests.TaskBlockBreak, Items: item}, quests.Verdict{Items: []loop.ItemGoal{{Item: "minecraft:log", Count: 4, Gain: true}}}},
		{"unknown item", quests.Task{Type: quests.TaskRetrieval, Items: []quests.Item{{ID: "minecraft:log", Count: 1}, {ID: "TConstruct:binding", Count: 1}}},
			quests.Verdict{Skip: "the agent does not know TConstruct:binding", Blockers: []string{"unknown item: TConstruct:binding"}}},
		// BetterQuesting counts the stack or its ore-dictionary entry: an
		// ore name the agent lacks falls back to the stack.
		{"unknown ore name: the stack", quests.Task{Type: quests.TaskRetrieval, Items: []quests.Item{{ID: "minecraft:stick", OreDict: "woodStick", Count: 8}}},
			quests.Verdict{Items: []loop.ItemGoal{{Item: "minecraft:stick", Count: 8}}}},
		{"known ore name: the ore name", quests.Task{Type: quests.TaskCrafting, Items: []quests.Item{{ID: "minecraft:planks", Damage: 2, OreDict: "plankWood", Count: 2}}},
			quests.Verdict{Items: []loop.ItemGoal{{Item: "ore:plankWood", Count: 2, Gain: true}}}},
		{"unknown ore name and stack", quests.Task{Type: quests.TaskRetrieval, Items: []quests.Item{{ID: "Natura:berry", Damage: 1, OreDict: "cropRaspberry", Count: 1}}},
			quests.Verdict{Skip: "the agent does not know ore:cropRaspberry", Blockers: []string{"unknown item: ore:cropRaspberry"}}},
		{"checkbox", quests.Task{Type: quests.TaskCheckbox},
			quests.Verdict{Skip: "a checkbox task: a person ticks it (allow the agent with --quests-checkbox)", Blockers: []string{"checkbox task (needs --quests-checkbox)"}}},
		{"hunt without a mob table", quests.Task{Type: quests.TaskHunt, Target: "Zombie", Count: 3},
			quests.Verdict{Skip: "a hunt task: the agent has no mob table to judge it", Blockers: []string{"task type bq_standard:hunt"}}},
	} {
		assert.Equal(t, c.want, j.Task(c.task), c.name)
	}
	// With the mob table: the target is EntityList's name of a kind.
	j.Mobs = rules.Default().Mobs
	for _, c := range []struct {
		name string
		task quests.Task
		want quests.Verdict
	}{
		{"hunt pigs", quests.Task{Type: quests.TaskHunt, Target: "Pig", Count: 5}, quests.Verdict{Kills: []loop.KillGoal{{Mob: "pig", Count: 5}}}},
		{"hunt zombies", quests.Task{Type: quests.TaskHunt, Target: "Zombie", Count: 3}, quests.Verdict{Kills: []loop.KillGoal{{Mob: "zombie", Count: 3}}}},
		{"none required", quests.Task{Type: quests.TaskHunt, Target: "Cow", Count: 0}, quests.Verdict{}},
		{"an unknown mob", quests.Task{Type: quests.TaskHunt, Target: "Enderman", Count: 1},
			quests.Verdict{Skip: `a hunt task for "Enderman": the agent knows no such mob`, Blockers: []string{"unknown mob: Enderman"}}},
		{"the kind's name is not EntityList's", quests.Task{Type: quests.TaskHunt, Target: "pig", Count: 1},
			quests.Verdict{Skip: `a hunt task for "pig": the agent knows no such mob`, Blockers: []string{"unknown mob: pig"}}},
		{"by a damage type", quests.Task{Type: quests.TaskHunt, Target: "Pig", Count: 1, DamageType: "arrow"},
			quests.Verdict{Skip: "a hunt task counting only kills by arrow damage: not checked from the world model", Blockers: []string{"hunt task by damage type arrow"}}},
	} {
		assert.Equal(t, c.want, j.Task(c.task), c.name)
	}
	// Two hunt tasks for pigs: each counts every kill, so the larger count
	// stands; a cow's task adds its own goal.
	st := j.Stage(&quests.Quest{Name: "Hunter", Tasks: []quests.Task{
		{Type: quests.TaskHunt, Target: "Pig", Count: 2}, {Type: quests.TaskHunt, Target: "Pig", Count: 5}, {Type: quests.TaskHunt, Target: "Cow", Count: 1},
	}})
	assert.Empty(t, st.Skip)
	assert.Equal(t, []loop.KillGoal{{Mob: "pig", Count: 5}, {Mob: "cow", Count: 1}}, st.Kills)
	j.Checkbox = true
	assert.Equal(t, quests.Verdict{Checkbox: true}, j.Task(quests.Task{Type: quests.TaskCheckbox}))
}

// TestJudgeStages: a quest's stage (optional tasks left out, counts of
// one item summed, OR logic), a quest goal's prerequisites, a line's
// order.
func TestJudgeStages(t *testing.T) {
	b, err := quests.Load(filepath.Join("testdata", "perquest"))
	require.NoError(t, err)
	j := quests.Judge{Book: b, Item: knownItems}
	stages, err := j.QuestStages("Read the Manual")
	require.NoError(t, err)
	require.Len(t, stages, 3)
	assert.Equal(t, loop.QuestStage{ID: "AAAAAAAAAAAAAAAAAAAAAQ==", Name: "Get Some Logs", Lines: []string{"First Steps"},
		Items: []loop.ItemGoal{{Item: "minecraft:log", Count: 4}}}, stages[0], "the optional diamonds do not count")
	assert.Equal(t, []string{"AAAAAAAAAAAAAAAAAAAAAQ=="}, stages[1].Prereqs)
	assert.Equal(t, []loop.ItemGoal{{Item: "ore:plankWood", Count: 2, Gain: true}, {Item: "minecraft:stick", Count: 4, Gain: true}}, stages[1].Items)
	assert.Equal(t, "a checkbox task: a person ticks it (allow the agent with --quests-checkbox)", stages[2].Skip)

	line, stages, err := j.LineStages("first steps")
	require.NoError(t, err)
	assert.Equal(t, "First Steps", line)
	var order []string
	for _, s := range stages {
		order = append(order, s.Name)
	}
	assert.Equal(t, []string{"Get Some Logs", "Planks and Sticks", "Read the Manual", "Monster Hunter"}, order)
	assert.Equal(t, "a hunt task: the agent has no mob table to judge it; task type somemod:dance: not checked from the world model", stages[3].Skip)
	assert.Equal(t, []string{"task type bq_standard:hunt", "task type somemod:dance"}, stages[3].Blockers)
	// With the mob table the zombies can be hunted; the dance still cannot.
	j.Mobs = rules.Default().Mobs
	_, stages, err = j.LineStages("first steps")
	require.NoError(t, err)
	assert.Equal(t, "task type somemod:dance: not checked from the world model", stages[3].Skip)
	assert.Equal(t, []string{"task type somemod:dance"}, stages[3].Blockers)

	_, err = j.QuestStages("nothing like it")
	assert.Error(t, err)
	_, _, err = j.LineStages("nothing like it")
	assert.Error(t, err)

	// OR: the first task the agent can do stands for all.
	sb, err := quests.Load(filepath.Join("testdata", "single"))
	require.NoError(t, err)
	sticks, err := sb.FindQuest("Sticks")
	require.NoError(t, err)
	st := quests.Judge{Book: sb, Item: knownItems}.Stage(sticks)
	assert.Empty(t, st.Skip)
	assert.Empty(t, st.Blockers)
	assert.Equal(t, []loop.ItemGoal{{Item: "minecraft:stick", Count: 2, Gain: true}}, st.Items, "consumed: collect")
	pick, err := sb.FindQuest("Stone Pick")
	require.NoError(t, err)
	st = quests.Judge{Book: sb, Item: knownItems}.Stage(pick)
	assert.True(t, st.AnyPrereq)
	assert.Equal(t, []loop.ItemGoal{{Item: "minecraft:stone", Count: 5, Gain: true}, {Item: "minecraft:dye:4", Count: 1}}, st.Items, "AND: both tasks")
}

// TestJudgeClaims: a quest is claimed when it gives an item the agent
// needs and it knows every item it gives, with the needed (else the first
// known) option of a choice; a quest giving only what the agent makes, or
// an item it does not know (coins), is left unclaimed.
func TestJudgeClaims(t *testing.T) {
	known := func(s string) error {
		if strings.HasPrefix(s, "minecraft:") || strings.HasPrefix(s, "TConstruct:") {
			return nil
		}
		return errors.New("unknown")
	}
	needs := func(s string) bool { return strings.HasPrefix(s, "TConstruct:") }
	b, err := quests.Load(filepath.Join("testdata", "perquest"))
	require.NoError(t, err)
	j := quests.Judge{Book: b, Item: known, Needs: needs}
	stage := func(name string) loop.QuestStage {
		q, err := b.FindQuest(name)
		require.NoError(t, err)
		return j.Stage(q)
	}
	assert.Equal(t, []loop.RewardItem{{Item: "TConstruct:pickaxeHead:2", Count: 1}, {Item: "minecraft:flint", Count: 2}, {Item: "TConstruct:hatchetHead:2", Count: 1}},
		stage("Planks and Sticks").Rewards, "the items, the needed option of the choice, nothing for experience")
	assert.Empty(t, stage("Get Some Logs").Rewards, "coins: left unclaimed")
	assert.Empty(t, stage("Read the Manual").Rewards, "no rewards")

	choice := func(items ...quests.Item) *quests.Quest {
		return &quests.Quest{Name: "q", Rewards: []quests.Reward{{Type: quests.RewardChoice, Items: items}}}
	}
	assert.Empty(t, j.Stage(choice(quests.Item{ID: "somemod:coin", Count: 1})).Rewards, "no option known")
	assert.Equal(t, []loop.RewardItem{{Item: "TConstruct:binding", Count: 1}},
		j.Stage(choice(quests.Item{ID: "minecraft:apple", Count: 1}, quests.Item{ID: "TConstruct:binding", Count: 1})).Rewards, "the needed option, not the first known")
	// Only what the agent makes itself: not claimed.
	q := &quests.Quest{Name: "q", Rewards: []quests.Reward{{Type: quests.RewardItem, Items: []quests.Item{{ID: "minecraft:log", Damage: quests.Wildcard, Count: 3}}}}}
	assert.Empty(t, j.Stage(q).Rewards)
	// Without a Needs every known item is claimed; a wildcard gives the item.
	j.Needs = nil
	assert.Equal(t, []loop.RewardItem{{Item: "minecraft:log", Count: 3}}, j.Stage(q).Rewards)
	assert.Equal(t, []loop.RewardItem{{Item: "minecraft:apple", Count: 1}},
		j.Stage(choice(quests.Item{ID: "somemod:coin", Count: 1}, quests.Item{ID: "minecraft:apple", Count: 1})).Rewards, "the first known option")
}
