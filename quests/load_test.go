package quests_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/quests"
)

func names(qs []*quests.Quest) []string {
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.Name
	}
	return out
}

func problems(b *quests.Book) string {
	var sb strings.Builder
	for _, p := range b.Problems {
		sb.WriteString(p.Error() + "\n")
	}
	return sb.String()
}

// TestLoadPerQuestLayout: the directory layout of current GTNH, found from
// the config directory above it; a broken file and an unknown task type
// are problems, the rest loads.
func TestLoadPerQuestLayout(t *testing.T) {
	b, err := quests.Load(filepath.Join("testdata", "perquest"))
	require.NoError(t, err)
	require.Len(t, b.Lines, 1)
	assert.Equal(t, "First Steps", b.Lines[0].Name, "formatting codes stripped")
	assert.Len(t, b.Lines[0].Quests, 4)
	assert.Equal(t, []string{"Get Some Logs", "Monster Hunter", "Planks and Sticks", "Read the Manual"}, names(b.Quests()), "files in name order")

	logs, err := b.FindQuest("get some logs")
	require.NoError(t, err)
	assert.Equal(t, "AAAAAAAAAAAAAAAAAAAAAQ==", logs.ID.String())
	require.Len(t, logs.Tasks, 2)
	assert.Equal(t, quests.Task{Type: quests.TaskRetrieval, Items: []quests.Item{{ID: "minecraft:log", Count: 4}}}, logs.Tasks[0])
	assert.True(t, logs.Tasks[1].Optional())
	assert.Equal(t, []string{"First Steps"}, logs.Lines)

	planks, err := b.FindQuest("AAAAAAAAAAAAAAAAAAAAAg==")
	require.NoError(t, err)
	assert.Equal(t, []quests.ID{{Low: 1}}, planks.Prereqs)
	assert.Equal(t, "ore:plankWood", planks.Tasks[0].Items[0].Matcher())

	p := problems(b)
	assert.Contains(t, p, filepath.Join("Line1", "Broken-AAAAAAAAAAAAAAAAAAAABQ==.json")+": not JSON")
	assert.Contains(t, p, `Hunt-AAAAAAAAAAAAAAAAAAAABA==.json: tasks:9.1:10.taskID:8: unknown task type "somemod:dance"`)
	hunt, err := b.FindQuest("Monster Hunter")
	require.NoError(t, err)
	assert.Equal(t, []quests.Task{{Type: quests.TaskHunt, Target: "Zombie", Count: 3}, {Type: "somemod:dance", Index: 1}}, hunt.Tasks)
}

// TestLoadSingleFile: an older pack's DefaultQuests.json, numeric ids, int
// array prerequisites, a wildcard damage, a line naming a missing quest.
func TestLoadSingleFile(t *testing.T) {
	b, err := quests.Load(filepath.Join("testdata", "single"))
	require.NoError(t, err)
	require.Len(t, b.Lines, 1)
	assert.Equal(t, "Basics", b.Lines[0].Name)
	assert.Equal(t, []quests.ID{{Low: 7}, {Low: 0}}, b.Lines[0].Quests)
	assert.Contains(t, problems(b), `line "Basics" places quest AAAAAAAAAAAAAAAAAAAAYw==, which the book does not have`)

	pick, err := b.FindQuest("7")
	require.NoError(t, err)
	assert.Equal(t, "Stone Pick", pick.Name)
	assert.True(t, pick.AnyPrereq)
	assert.Equal(t, []quests.ID{{Low: 0}}, pick.Prereqs)
	assert.Equal(t, quests.Task{Type: quests.TaskBlockBreak, Items: []quests.Item{{ID: "minecraft:stone", Damage: quests.Wildcard, Count: 5}}}, pick.Tasks[0])
	assert.Equal(t, "minecraft:dye:4", pick.Tasks[1].Items[0].Matcher())

	sticks, err := b.FindQuest("Sticks")
	require.NoError(t, err)
	assert.True(t, sticks.AnyTask)
	assert.Equal(t, quests.Task{Type: quests.TaskHunt, Target: "Pig", Count: 1, DamageType: "arrow"}, sticks.Tasks[0], "a hunt by arrows")
	assert.True(t, sticks.Tasks[1].Consume)
	assert.Equal(t, "minecraft:stick", sticks.Tasks[1].Items[0].Matcher(), "wildcard damage: any metadata")
}

// TestLoadErrors: what Load refuses, naming the file and the reason.
func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o600))
		return p
	}
	for _, c := range []struct{ name, text, want string }{
		{"syntax.json", "{\n  \"questDatabase:9\": {,\n}", "syntax.json: not JSON: line 2, column 23"},
		{"array.json", "[1]", "array.json: want a JSON object at the top, got an array"},
		{"other.json", `{"hello:8": "world"}`, "other.json: no questDatabase: not a BetterQuesting database"},
		{"deep.json", strings.Repeat("[", 100) + strings.Repeat("]", 100), "deep.json: nested more than 64 levels deep"},
		{"trailing.json", `{"questDatabase:9": {}} {}`, "trailing.json: not JSON: data after the top-level value"},
	} {
		_, err := quests.Load(write(c.name, c.text))
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), c.want)
	}
	_, err := quests.Load(filepath.Join(dir, "missing"))
	assert.ErrorContains(t, err, "missing")
	empty := t.TempDir()
	_, err = quests.Load(empty)
	assert.ErrorContains(t, err, "holds no quest database")

	// A quest without an id, a prerequisite naming nothing, a task with no
	// type: problems, the rest loads.
	b, err := quests.ParseDatabase("db.json", []byte(`{"questDatabase:9": {
		"0:10": {"properties:10": {}},
		"1:10": {"questID:3": 1, "preRequisites:11": [5], "tasks:9": {"0:10": {"requiredItems:9": {}}}},
		"2:10": {"questID:3": 2, "tasks:9": {"0:10": {"taskID:8": "bq_standard:retrieval", "requiredItems:9": {"0:10": {"id:8": "minecraft:log", "Count:3": 0}}}}},
		"x:10": {"questID:3": 3}
	}}`))
	require.NoError(t, err)
	p := problems(b)
	assert.Contains(t, p, "db.json: questDatabase:9.0:10: a quest needs questIDHigh and questIDLow (or questID)")
	assert.Contains(t, p, "db.json: questDatabase:9.1:10.tasks:9.0:10: a task needs a taskID")
	assert.Contains(t, p, "needs quest AAAAAAAAAAAAAAAAAAAABQ==, which the book does not have")
	assert.Contains(t, p, "questDatabase:9.2:10.tasks:9.0:10.requiredItems:9.0:10.Count:3: an item's count must be at least 1, got 0")
	assert.Contains(t, p, `questDatabase:9.x:10: a list entry's key must be an index`)
	assert.Len(t, b.Quests(), 2)
}

// TestFindDidYouMean: names compare by letters and digits; a miss suggests
// the nearest.
func TestFindDidYouMean(t *testing.T) {
	b, err := quests.Load(filepath.Join("testdata", "perquest"))
	require.NoError(t, err)
	l, err := b.FindLine("first steps!")
	require.NoError(t, err)
	assert.Equal(t, "First Steps", l.Name)
	_, err = b.FindLine("Frist Steps")
	assert.EqualError(t, err, `no quest line "Frist Steps" in the quest book; did you mean "First Steps"?`)
	_, err = b.FindQuest("Get Sme Logs")
	assert.EqualError(t, err, `no quest "Get Sme Logs" in the quest book; did you mean "Get Some Logs"?`)
}

// TestOrder: prerequisites first, a cycle broken and reported.
func TestOrder(t *testing.T) {
	b, err := quests.ParseDatabase("db.json", []byte(`{"questDatabase:9": {
		"0:10": {"questID:3": 1, "preRequisites:11": [2, 3], "properties:10": {"betterquesting:10": {"name:8": "top"}}},
		"1:10": {"questID:3": 2, "preRequisites:11": [3], "properties:10": {"betterquesting:10": {"name:8": "mid"}}},
		"2:10": {"questID:3": 3, "properties:10": {"betterquesting:10": {"name:8": "base"}}},
		"3:10": {"questID:3": 4, "preRequisites:11": [5], "properties:10": {"betterquesting:10": {"name:8": "a"}}},
		"4:10": {"questID:3": 5, "preRequisites:11": [4], "properties:10": {"betterquesting:10": {"name:8": "b"}}},
		"5:10": {"questID:3": 6, "preRequisites:11": [8, 7], "properties:10": {"betterquesting:10": {"name:8": "needs both"}}},
		"6:10": {"questID:3": 7, "properties:10": {"betterquesting:10": {"name:8": "first"}}},
		"7:10": {"questID:3": 8, "properties:10": {"betterquesting:10": {"name:8": "second"}}}
	}}`))
	require.NoError(t, err)
	order, probs := b.Order([]quests.ID{{Low: 1}})
	assert.Equal(t, []string{"base", "mid", "top"}, names(order))
	assert.Empty(t, probs)
	order, _ = b.Order([]quests.ID{{Low: 6}})
	assert.Equal(t, []string{"first", "second", "needs both"}, names(order), "free prerequisites in book order, not as listed")
	order, probs = b.Order([]quests.ID{{Low: 4}})
	assert.Equal(t, []string{"b", "a"}, names(order))
	require.Len(t, probs, 1)
	assert.Contains(t, probs[0].Error(), "need each other")
}

// TestParseID: both spellings of an id.
func TestParseID(t *testing.T) {
	for s, want := range map[string]quests.ID{
		"12":                       {Low: 12},
		"AAAAAAAAAAAAAAAAAAAAAQ==": {Low: 1},
		"h_PK8qnyR9CBUoOhT9nwzA==": {High: -8650347315666466864, Low: -9128088765873917748},
		"h/PK8qnyR9CBUoOhT9nwzA==": {High: -8650347315666466864, Low: -9128088765873917748},
	} {
		id, ok := quests.ParseID(s)
		require.True(t, ok, s)
		assert.Equal(t, want, id, s)
	}
	id, _ := quests.ParseID("h_PK8qnyR9CBUoOhT9nwzA==")
	assert.Equal(t, "h_PK8qnyR9CBUoOhT9nwzA==", id.String())
	for _, s := range []string{"", "abc", "AAAA", "-"} {
		_, ok := quests.ParseID(s)
		assert.False(t, ok, s)
	}
}

// TestLoadRewards: item rewards and choices keep their items; a reward of
// another type keeps its type; one without a rewardID is a problem.
func TestLoadRewards(t *testing.T) {
	b, err := quests.Load(filepath.Join("testdata", "perquest"))
	require.NoError(t, err)
	planks, err := b.FindQuest("Planks and Sticks")
	require.NoError(t, err)
	assert.Equal(t, []quests.Reward{
		{Type: quests.RewardItem, Items: []quests.Item{{ID: "TConstruct:pickaxeHead", Damage: 2, Count: 1}, {ID: "minecraft:flint", Count: 2}}},
		{Type: quests.RewardChoice, Index: 1, Items: []quests.Item{{ID: "enhancedlootbags:lootbag", Damage: 1, Count: 1}, {ID: "TConstruct:hatchetHead", Damage: 2, Count: 1}}},
		{Type: "bq_standard:xp", Index: 2},
	}, planks.Rewards)
	assert.True(t, planks.Rewards[1].Choice())
	assert.False(t, planks.Rewards[0].Choice())
	hunt, err := b.FindQuest("Monster Hunter")
	require.NoError(t, err)
	assert.Equal(t, []quests.Reward{{Type: "(none)"}}, hunt.Rewards)
	assert.Contains(t, problems(b), `Hunt-AAAAAAAAAAAAAAAAAAAABA==.json: rewards:9.0:10: a reward needs a rewardID`)
}
