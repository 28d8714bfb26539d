package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

// questBook is the example quest book (single-file layout): a line of
// seven quests the fresh_start world can and cannot do.
var questBook = filepath.Join("..", "..", "examples", "quests")

// TestQuestsLines: the lines with what the agent can do.
func TestQuestsLines(t *testing.T) {
	code, out, stderr := runAgent(t, "quests", "lines", "--quests", questBook)
	require.Equal(t, exitOK, code, stderr)
	assert.Regexp(t, `Basics\s+7\s+5\s+AAAAAAAAAAAAAAAAAAAAAA==`, out)
	assert.Contains(t, out, "1 lines, 7 quests; no problems")
	code, out, _ = runAgent(t, "quests", "lines", "--quests", questBook, "--quests-checkbox")
	require.Equal(t, exitOK, code)
	assert.Regexp(t, `Basics\s+7\s+6\s`, out, "a checkbox allowed is a quest the agent can do")
}

// TestQuestsList: a line's quests in prerequisite order with what each
// needs and the verdict; a misspelt line gets a did-you-mean.
func TestQuestsList(t *testing.T) {
	code, out, stderr := runAgent(t, "quests", "list", "--quests", questBook, "--line", "basics")
	require.Equal(t, exitOK, code, stderr)
	for _, s := range []string{
		"Wood Start                               can do\n    needs retrieval 3 minecraft:log",
		"Read the Book                            cannot: a checkbox task",
		"Kill a Pig                               can do\n    needs hunt 1 Pig",
		"Modded Pick                              cannot: the agent does not know examplemod:widget",
		"the agent can do 5 of 7 quests of the line",
	} {
		assert.Contains(t, out, s)
	}
	code, _, stderr = runAgent(t, "quests", "list", "--quests", questBook, "--line", "Basis")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `no quest line "Basis" in the quest book; did you mean "Basics"?`)
	code, _, stderr = runAgent(t, "quests", "list", "--quests", questBook)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--line NAME is required")
}

// TestQuestsShow: one quest by name or id, with the goal it becomes.
func TestQuestsShow(t *testing.T) {
	code, out, stderr := runAgent(t, "quests", "show", "--quests", questBook, "planks")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, out, "Planks (AAAAAAAAAAAAAAAAAAAAAg==)\n  lines: Basics\n  needs all of: Wood Start\n")
	assert.Contains(t, out, "crafting 4 minecraft:planks -- can do")
	assert.Contains(t, out, "as a goal: 2 quests, this one last")
	assert.Contains(t, out, "the agent can do it: collect 4 minecraft:planks")
	assert.Contains(t, out, "  rewards:\n    item 1 TConstruct:pickaxeHead:2, 4 minecraft:stick\n    choice of one: 1 examplemod:coin, 2 minecraft:apple\n  the agent claims: 1 TConstruct:pickaxeHead:2, 4 minecraft:stick, 2 minecraft:apple\n")
	code, out, _ = runAgent(t, "quests", "show", "--quests", questBook, "Wood Start")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "  rewards:\n    item 5 examplemod:coin, 1 minecraft:apple\n  the agent leaves it unclaimed: it needs none of its items, or does not know them all\n")
	code, out, _ = runAgent(t, "quests", "show", "--quests", questBook, "AAAAAAAAAAAAAAAAAAAAAw==")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "Read the Book")
	code, _, stderr = runAgent(t, "quests", "show", "--quests", questBook, "Plonks")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `did you mean "Planks"?`)
	code, _, stderr = runAgent(t, "quests", "show", "Planks")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "no quest book: give --quests PATH")
	code, _, stderr = runAgent(t, "quests", "show", "--quests", filepath.Join("testdata", "nothing-here"), "Planks")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "nothing-here")
}

// TestRunQuestLine: a line goal in the simulated world from an empty
// inventory: quests completed in prerequisite order, the checkbox quest
// and those after it skipped unless allowed, the figure, the reasons and
// the blockers; the trace records each quest.
func TestRunQuestLine(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	code, out, stderr := runAgent(t, "run", "--scenario", "fresh_start", "--quests", questBook, "--goal", `line "Basics"`, "--trace", trace)
	require.Equal(t, exitFail, code, stderr)
	assert.Contains(t, out, "quest completed: Wood Start")
	assert.Contains(t, out, "quest completed: Planks")
	assert.NotContains(t, out, "rewards claimed", "the book's clicks are not allowed")
	assert.Contains(t, out, "quest skipped: Crafting Table: prerequisite not completed: Read the Book")
	assert.Contains(t, out, "quest completed: Kill a Pig")
	assert.Contains(t, out, "\n3 of 7 quests")
	assert.Contains(t, out, "  Basics: 3 of 7 quests")
	assert.Contains(t, out, "  Shiny [failed]: stuck: no plan: no available skill produces minecraft:emerald")
	assert.Regexp(t, `blockers \(quests each keeps from completion\):\n\s+2  checkbox task \(needs --quests-checkbox\)\n\s+1  no producer: minecraft:emerald\n`, out)
	data, err := os.ReadFile(trace)
	require.NoError(t, err)
	assert.Contains(t, string(data), `{"quest":{"id":"AAAAAAAAAAAAAAAAAAAAAQ==","name":"Wood Start","status":"completed"`)

	code, out, stderr = runAgent(t, "run", "--scenario", "fresh_start", "--quests", questBook, "--quests-checkbox", "--goal", `quest "Crafting Table"`, "--json")
	require.Equal(t, exitOK, code, stderr)
	var res loop.QuestOutcome
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	assert.Equal(t, 4, res.Completed)
	assert.Equal(t, 4, res.Total)
	// Claiming is the book's click, allowed with the checkboxes: Planks
	// gives an iron pickaxe head, which nothing the agent does makes (with
	// its sticks, and the apples picked of its choice); Wood Start's coins
	// and apple are left in the book.
	require.Len(t, res.Results, 4)
	assert.Empty(t, res.Results[0].Claimed, res.Results[0].Name)
	assert.Equal(t, []loop.RewardItem{{Item: "TConstruct:pickaxeHead:2", Count: 1}, {Item: "minecraft:stick", Count: 4}, {Item: "minecraft:apple", Count: 2}}, res.Results[1].Claimed, res.Results[1].Name)
	assert.Empty(t, res.Results[1].Unclaimed)

	// Unlocked: the crafting table is tried although the book was not
	// ticked, and only the checkbox itself is blocked by it.
	code, out, stderr = runAgent(t, "run", "--scenario", "fresh_start", "--quests", questBook, "--quests-unlocked", "--goal", `line "Basics"`)
	require.Equal(t, exitFail, code, stderr)
	assert.Contains(t, out, "quest completed: Crafting Table")
	assert.Contains(t, out, "\n4 of 7 quests")
	assert.Regexp(t, `\n\s+1  checkbox task \(needs --quests-checkbox\)\n`, out)
}

// TestRunQuestGoalErrors: a quest goal without a book, or naming a quest
// the book lacks, is a usage error before the run.
func TestRunQuestGoalErrors(t *testing.T) {
	code, _, stderr := runAgent(t, "run", "--scenario", "fresh_start", "--goal", `quest "Planks"`)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "no quest book is loaded (give --quests PATH")
	code, _, stderr = runAgent(t, "run", "--scenario", "fresh_start", "--quests", questBook, "--goal", `quest "Plank"`)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `did you mean "Planks"?`)
}

// TestQuestsConfigFile: the config file's quests section, its path from
// the file's directory.
func TestQuestsConfigFile(t *testing.T) {
	dir := t.TempDir()
	abs, err := filepath.Abs(questBook)
	require.NoError(t, err)
	rel, err := filepath.Rel(dir, abs)
	require.NoError(t, err)
	cfg := filepath.Join(dir, "agent.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("quests:\n  path: "+rel+"\n  checkbox: true\n"), 0o600))
	code, out, stderr := runAgent(t, "quests", "lines", "--config-file", cfg)
	require.Equal(t, exitOK, code, stderr)
	assert.Regexp(t, `Basics\s+7\s+6\s`, out)
	require.NoError(t, os.WriteFile(cfg, []byte("quests:\n  pth: x\n"), 0o600))
	code, _, stderr = runAgent(t, "quests", "lines", "--config-file", cfg)
	assert.NotEqual(t, exitOK, code)
	assert.Contains(t, stderr, "pth")
}

// TestServerQuestDone: the live client's BetterQuesting progress answers
// for the quests it synced, by the book's quest ids; nothing is known
// before a sync or for an id that is not a quest's.
func TestServerQuestDone(t *testing.T) {
	var qp gtnh.QuestProgress
	done := serverQuestDone(func() gtnh.QuestProgress { return qp })
	d, known := done("AAAAAAAAAAAAAAAAAAAADw==")
	assert.False(t, d || known, "no sync yet")

	qp = gtnh.QuestProgress{Synced: true, Completed: map[[2]int64]bool{{0, 15}: true}}
	d, known = done("AAAAAAAAAAAAAAAAAAAADw==") // quest 15, "Ready, Set, Go!"
	assert.True(t, d && known)
	d, known = done("AAAAAAAAAAAAAAAAAAAAEQ==") // 17
	assert.True(t, !d && known, "synced and not completed")
	d, known = done("not an id")
	assert.False(t, d || known)
}

// TestRewardNeeded: a reward is needed when a recipe takes it and nothing
// makes it: the iron pickaxe head, not flint (from gravel), smelted stone,
// an apple no recipe takes, or an unknown id.
func TestRewardNeeded(t *testing.T) {
	needs := rewardNeeded(rules.Default())
	assert.True(t, needs("TConstruct:pickaxeHead:2"))
	assert.True(t, needs("TConstruct:hatchetHead:2"))
	assert.True(t, needs("minecraft:string"), "string: the wool recipe takes it, nothing makes it here")
	assert.False(t, needs("gregtech:gt.metatool.01:10"), "a saw: a tool of the planks and sticks recipes, made here from iron")
	for _, item := range []string{"minecraft:flint", "minecraft:stone", "minecraft:apple", "TConstruct:pickaxeHead:3", "nope"} {
		assert.False(t, needs(item), item)
	}
}
