package loop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// fakeQuests is a QuestSource over fixed stages: a quest is itself after
// the stages listed before it; a line is every stage.
type fakeQuests struct {
	line   string
	stages []loop.QuestStage
}

func (f fakeQuests) QuestStages(name string) ([]loop.QuestStage, error) {
	for i, s := range f.stages {
		if s.Name == name {
			return f.stages[:i+1], nil
		}
	}
	return nil, fmt.Errorf("no quest %q", name)
}

func (f fakeQuests) LineStages(name string) (string, []loop.QuestStage, error) {
	if !strings.EqualFold(name, f.line) {
		return "", nil, fmt.Errorf("no line %q", name)
	}
	return f.line, f.stages, nil
}

var bookStages = []loop.QuestStage{
	{ID: "A", Name: "Logs", Lines: []string{"Wood"}, Items: []loop.ItemGoal{{Item: "minecraft:log", Count: 2}}},
	{ID: "B", Name: "Tick Me", Lines: []string{"Wood"}, Skip: "a checkbox task", Blockers: []string{"checkbox"}},
	{ID: "C", Name: "After B", Lines: []string{"Wood"}, Prereqs: []string{"B"}},
	{ID: "D", Name: "Diamonds", Lines: []string{"Wood"}, Prereqs: []string{"A"}, Items: []loop.ItemGoal{{Item: "minecraft:diamond", Count: 1, Gain: true}}},
	{ID: "E", Name: "Either", Prereqs: []string{"B", "A"}, AnyPrereq: true},
	{ID: "F", Name: "After D and C", Lines: []string{"Wood"}, Prereqs: []string{"D", "C"}},
	{ID: "G", Name: "After A and B", Lines: []string{"Wood"}, Prereqs: []string{"A", "B"}},
	{ID: "H", Name: "After B and C", Prereqs: []string{"B", "C"}},
}

// TestParseQuestClauses: quest and line clauses, names in quotes holding
// " and ", stages not repeated, no book and mixing refused.
func TestParseQuestClauses(t *testing.T) {
	reg := shipped(t, registry.Options{})
	p := loop.GoalParser{Tiers: reg.Tiers(), Quests: fakeQuests{line: "Wood and Stone", stages: bookStages}}
	g, err := p.Parse(`quest "Diamonds" and line "wood and stone"`)
	require.NoError(t, err)
	ids := []string{}
	for _, s := range g.Quests {
		ids = append(ids, s.ID)
	}
	assert.Equal(t, []string{"A", "B", "C", "D", "E", "F", "G", "H"}, ids)
	assert.Equal(t, []string{"Wood and Stone"}, g.QuestLines)

	g, err = p.Parse(`quest Tick Me`)
	require.NoError(t, err)
	assert.Len(t, g.Quests, 2, "an unquoted name is the rest of the clause")

	for text, want := range map[string]string{
		`quest "Nope"`:                          `"quest \"Nope\"": no quest "Nope"`,
		`quest "Logs`:                           "a double quote is not closed",
		`quest ""`:                              `write quest "NAME"`,
		`line`:                                  `write line "NAME"`,
		`quest "Logs" and have 1 minecraft:log`: "quest and line clauses go only with other quest and line clauses",
	} {
		_, err := p.Parse(text)
		require.Error(t, err, text)
		assert.Contains(t, err.Error(), want, text)
	}
	_, err = loop.GoalParser{Tiers: reg.Tiers()}.Parse(`line "Wood"`)
	assert.ErrorContains(t, err, "no quest book is loaded (give --quests PATH")
}

// TestRunQuests: the stages in order on one body: a quest completed, one
// skipped with its reason, one skipped for its prerequisite with the
// prerequisite's blocker, one stuck on an item nobody produces, an OR
// prerequisite, and the blockers counted; the trace has a line per quest.
func TestRunQuests(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2), world.Pos(-4, 64, 5))
	pl := loop.PlannerFunc(func(_ context.Context, g loop.Goal, obs loop.Observation, _ []*registry.Description) (loop.Decision, error) {
		for _, ig := range g.Items {
			if ig.Item == "minecraft:log" {
				return loop.Decision{Invocation: &loop.Invocation{Skill: "chop_tree"}}, nil
			}
			return loop.Decision{}, fmt.Errorf("%w: no plan: no available skill produces %s; no available skill produces minecraft:coal", loop.ErrStuck, ig.Item)
		}
		return loop.Decision{}, fmt.Errorf("%w: nothing to do", loop.ErrStuck)
	})
	p := loop.GoalParser{Tiers: reg.Tiers(), Quests: fakeQuests{line: "Wood", stages: bookStages}}
	g, err := p.Parse(`line "Wood"`)
	require.NoError(t, err)
	var trace bytes.Buffer
	var seen []string
	out, err := loop.RunQuests(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: pl, Goal: g, Trace: &trace},
		loop.QuestOptions{OnQuest: func(r loop.QuestResult) { seen = append(seen, r.ID+" "+r.Status) }})
	require.NoError(t, err)
	assert.Equal(t, []string{"A completed", "B skipped", "C skipped", "D failed", "E completed", "F skipped", "G skipped", "H skipped"}, seen)
	assert.Equal(t, 2, out.Completed)
	assert.Equal(t, 8, out.Total)
	assert.Equal(t, []loop.LineFigure{{Line: "Wood", Completed: 1, Total: 6}}, out.Lines, "E is in no line")
	byID := map[string]loop.QuestResult{}
	for _, r := range out.Results {
		byID[r.ID] = r
	}
	assert.Greater(t, byID["A"].Steps, 0)
	assert.Equal(t, "a checkbox task", byID["B"].Reason)
	assert.Equal(t, "prerequisite not completed: Tick Me", byID["C"].Reason)
	assert.Equal(t, []string{"checkbox"}, byID["C"].Blockers, "the prerequisite's blocker")
	assert.Equal(t, "stuck: no plan: no available skill produces minecraft:diamond; no available skill produces minecraft:coal", byID["D"].Reason)
	assert.Equal(t, []string{"no producer: minecraft:diamond", "no producer: minecraft:coal"}, byID["D"].Blockers)
	assert.Equal(t, "prerequisite not completed: Diamonds, After B", byID["F"].Reason)
	assert.Equal(t, "prerequisite not completed: Tick Me", byID["G"].Reason, "all prerequisites, not one")
	assert.Equal(t, []string{"checkbox"}, byID["H"].Blockers, "a cause behind two prerequisites counts once")
	assert.Equal(t, []loop.Blocker{
		{Cause: "checkbox", Quests: 5},
		{Cause: "no producer: minecraft:coal", Quests: 2},
		{Cause: "no producer: minecraft:diamond", Quests: 2},
	}, out.Blockers)
	assert.Greater(t, out.Skills["chop_tree"].Successes, 0)

	var quests []string
	for _, line := range strings.Split(strings.TrimSpace(trace.String()), "\n") {
		var rec struct {
			Quest *loop.QuestResult `json:"quest"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &rec))
		if rec.Quest != nil {
			quests = append(quests, rec.Quest.ID+" "+rec.Quest.Status)
		}
	}
	assert.Equal(t, seen, quests, "the trace records each quest as it ends")
}

// TestRunQuestsInterrupted: a cancelled run stops before the next stage.
func TestRunQuestsInterrupted(t *testing.T) {
	reg := shipped(t, registry.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := loop.Goal{Quests: bookStages}
	out, err := loop.RunQuests(ctx, loop.Config{Registry: reg, Conn: ipc.InProcess(newToy()), Planner: loop.PlannerFunc(nil), Goal: g}, loop.QuestOptions{})
	require.NoError(t, err)
	assert.True(t, out.Interrupted)
	assert.Empty(t, out.Results)
}

// TestRunQuestsUnlocked: with Unlocked a quest runs whatever became of its
// prerequisites, and only its own causes block it.
func TestRunQuestsUnlocked(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2), world.Pos(-4, 64, 5))
	pl := loop.PlannerFunc(func(_ context.Context, g loop.Goal, _ loop.Observation, _ []*registry.Description) (loop.Decision, error) {
		return loop.Decision{Invocation: &loop.Invocation{Skill: "chop_tree"}}, nil
	})
	stages := []loop.QuestStage{
		{ID: "B", Name: "Tick Me", Skip: "a checkbox task", Blockers: []string{"checkbox"}},
		{ID: "C", Name: "Logs after B", Prereqs: []string{"B"}, Items: []loop.ItemGoal{{Item: "minecraft:log", Count: 1}}},
	}
	for _, unlocked := range []bool{false, true} {
		out, err := loop.RunQuests(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: pl, Goal: loop.Goal{Quests: stages}},
			loop.QuestOptions{Unlocked: unlocked})
		require.NoError(t, err)
		if unlocked {
			assert.Equal(t, loop.QuestCompleted, out.Results[1].Status)
			assert.Equal(t, []loop.Blocker{{Cause: "checkbox", Quests: 1}}, out.Blockers)
		} else {
			assert.Equal(t, loop.QuestSkipped, out.Results[1].Status)
			assert.Equal(t, []loop.Blocker{{Cause: "checkbox", Quests: 2}}, out.Blockers)
		}
	}
}

// TestRunQuestsKeepsLaterQuestsItems: each quest's goal carries what the
// quests after it ask for (the most of each item), so a planner throws
// none of it away; a quest the agent cannot do asks for nothing.
func TestRunQuestsKeepsLaterQuestsItems(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2), world.Pos(-4, 64, 5))
	keeps := map[string][]loop.ItemGoal{}
	pl := loop.PlannerFunc(func(_ context.Context, g loop.Goal, _ loop.Observation, _ []*registry.Description) (loop.Decision, error) {
		keeps[g.Text] = g.Keep
		return loop.Decision{}, fmt.Errorf("%w: nothing to do", loop.ErrStuck)
	})
	stages := []loop.QuestStage{
		{ID: "A", Name: "Logs", Items: []loop.ItemGoal{{Item: "minecraft:log", Count: 1}}},
		{ID: "B", Name: "Much stone", Items: []loop.ItemGoal{{Item: "minecraft:cobblestone", Count: 256}, {Item: "minecraft:dirt", Count: 8}}},
		{ID: "C", Name: "Stone", Items: []loop.ItemGoal{{Item: "minecraft:cobblestone", Count: 64}}},
		{ID: "D", Name: "Diamonds", Skip: "no producer", Items: []loop.ItemGoal{{Item: "minecraft:diamond", Count: 5}}},
	}
	_, err := loop.RunQuests(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: pl, Goal: loop.Goal{Quests: stages}},
		loop.QuestOptions{Unlocked: true})
	require.NoError(t, err)
	assert.Equal(t, []loop.ItemGoal{{Item: "minecraft:cobblestone", Count: 256}, {Item: "minecraft:dirt", Count: 8}}, keeps[`quest "Logs"`],
		"the most any later quest asks for")
	assert.Equal(t, []loop.ItemGoal{{Item: "minecraft:cobblestone", Count: 64}}, keeps[`quest "Much stone"`])
	assert.Empty(t, keeps[`quest "Stone"`])
}

// TestRunQuestsServerDone: a quest the server's quest book has completed
// is completed without running (a checkbox the player ticked on the
// server), and what needs it runs; a quest the server knows as not
// completed, or does not know, is judged as before.
func TestRunQuestsServerDone(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2))
	ran := 0
	pl := loop.PlannerFunc(func(_ context.Context, g loop.Goal, _ loop.Observation, _ []*registry.Description) (loop.Decision, error) {
		ran++
		return loop.Decision{Invocation: &loop.Invocation{Skill: "chop_tree"}}, nil
	})
	stages := []loop.QuestStage{
		{ID: "B", Name: "Tick Me", Skip: "a checkbox task", Blockers: []string{"checkbox"}},
		{ID: "C", Name: "Logs after B", Prereqs: []string{"B"}, Items: []loop.ItemGoal{{Item: "minecraft:log", Count: 1}}},
		{ID: "D", Name: "Another box", Skip: "a checkbox task", Blockers: []string{"checkbox"}},
	}
	server := map[string]bool{"B": true, "D": false}
	out, err := loop.RunQuests(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: pl, Goal: loop.Goal{Quests: stages}},
		loop.QuestOptions{ServerDone: func(id string) (bool, bool) { done, known := server[id]; return done, known }})
	require.NoError(t, err)
	require.Len(t, out.Results, 3)
	assert.Equal(t, loop.QuestCompleted, out.Results[0].Status)
	assert.Equal(t, loop.CompletedOnServer, out.Results[0].Reason)
	assert.Zero(t, out.Results[0].Steps, "not run")
	assert.Equal(t, loop.QuestCompleted, out.Results[1].Status, "its prerequisite is completed on the server")
	assert.Positive(t, ran)
	assert.Equal(t, loop.QuestSkipped, out.Results[2].Status, "known to the server as not completed: judged as before")
	assert.Equal(t, 2, out.Completed)
}

// TestRunQuestsClaim: a completed quest's rewards are handed to Claim and
// recorded; a failed or skipped quest and one the server's book completed
// claim nothing; a claim that does not all arrive is said.
func TestRunQuestsClaim(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2))
	pl := loop.PlannerFunc(func(_ context.Context, g loop.Goal, _ loop.Observation, _ []*registry.Description) (loop.Decision, error) {
		for _, ig := range g.Items {
			if ig.Item == "minecraft:log" {
				return loop.Decision{Invocation: &loop.Invocation{Skill: "chop_tree"}}, nil
			}
		}
		return loop.Decision{}, fmt.Errorf("%w: nothing to do", loop.ErrStuck)
	})
	head := []loop.RewardItem{{Item: "TConstruct:pickaxeHead:2", Count: 1}}
	stages := []loop.QuestStage{
		{ID: "A", Name: "Logs", Items: []loop.ItemGoal{{Item: "minecraft:log", Count: 1}}, Rewards: head},
		{ID: "B", Name: "Diamonds", Items: []loop.ItemGoal{{Item: "minecraft:diamond", Count: 1}}, Rewards: head},
		{ID: "C", Name: "Tick Me", Skip: "a checkbox task", Rewards: head},
		{ID: "D", Name: "On the server", Skip: "a checkbox task", Rewards: head},
		{ID: "E", Name: "Full", Rewards: []loop.RewardItem{{Item: "minecraft:apple", Count: 1}}},
	}
	var claimed []string
	out, err := loop.RunQuests(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: pl, Goal: loop.Goal{Quests: stages}},
		loop.QuestOptions{
			ServerDone: func(id string) (bool, bool) { return id == "D", id == "D" },
			Claim: func(_ context.Context, rs []loop.RewardItem) error {
				for _, r := range rs {
					claimed = append(claimed, r.String())
				}
				if rs[0].Item == "minecraft:apple" {
					return fmt.Errorf("no room for the apple")
				}
				return nil
			},
		})
	require.NoError(t, err)
	require.Len(t, out.Results, 5)
	assert.Equal(t, []string{"1 TConstruct:pickaxeHead:2", "1 minecraft:apple"}, claimed)
	assert.Equal(t, head, out.Results[0].Claimed)
	assert.Empty(t, out.Results[0].Unclaimed)
	for _, r := range out.Results[1:4] {
		assert.Empty(t, r.Claimed, r.Name)
	}
	assert.Equal(t, loop.QuestCompleted, out.Results[4].Status)
	assert.Equal(t, "no room for the apple", out.Results[4].Unclaimed)
}

// fakeBook is a server's quest book: it records the presses, and refuses
// the submit of the quests in refuse.
type fakeBook struct {
	presses []string
	refuse  map[string]bool
}

func (b *fakeBook) Tick(_ context.Context, quest string, tasks []int) error {
	b.presses = append(b.presses, fmt.Sprintf("tick %s %v", quest, tasks))
	return nil
}

func (b *fakeBook) Submit(_ context.Context, quest string) error {
	b.presses = append(b.presses, "submit "+quest)
	if b.refuse[quest] {
		return fmt.Errorf("the server did not report the quest completed within 200 ticks")
	}
	return nil
}

func (b *fakeBook) Claim(_ context.Context, quest string, choices []loop.RewardChoice) error {
	b.presses = append(b.presses, fmt.Sprintf("claim %s %v", quest, choices))
	return nil
}

// TestRunQuestsBook: with the server's quest book, a quest's checkboxes
// are ticked before it runs, a quest whose goal is met is submitted and
// counts only when the server completes it (what needs a refused one is
// skipped), a quest the server already completed is not submitted, and the
// rewards go through the book's claim with the choices picked (never
// through Claim).
func TestRunQuestsBook(t *testing.T) {
	reg := shipped(t, registry.Options{})
	body := newToy(world.Pos(3, 64, 2))
	pl := loop.PlannerFunc(func(_ context.Context, g loop.Goal, _ loop.Observation, _ []*registry.Description) (loop.Decision, error) {
		return loop.Decision{Invocation: &loop.Invocation{Skill: "chop_tree"}}, nil
	})
	head := []loop.RewardItem{{Item: "TConstruct:pickaxeHead:2", Count: 1}}
	pick := []loop.RewardChoice{{Reward: 1, Option: 0}}
	stages := []loop.QuestStage{
		{ID: "R", Name: "Read Me", Checkboxes: []int{0, 2}},
		{ID: "L", Name: "Logs", Prereqs: []string{"R"}, Items: []loop.ItemGoal{{Item: "minecraft:log", Count: 1}}, Rewards: head, Choices: pick},
		{ID: "S", Name: "Done on the server", Rewards: head},
		{ID: "X", Name: "Refused", Checkboxes: []int{1}},
		{ID: "Y", Name: "After the refused", Prereqs: []string{"X"}},
	}
	book := &fakeBook{refuse: map[string]bool{"X": true}}
	out, err := loop.RunQuests(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(body), Planner: pl, Goal: loop.Goal{Quests: stages}},
		loop.QuestOptions{
			Book:       book,
			ServerDone: func(id string) (bool, bool) { return id == "S", true },
			Claim:      func(context.Context, []loop.RewardItem) error { t.Error("Claim called beside the book"); return nil },
		})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"tick R [0 2]", "submit R",
		"submit L", "claim L [{1 0}]",
		"claim S []",
		"tick X [1]", "submit X",
	}, book.presses)
	require.Len(t, out.Results, 5)
	for _, r := range out.Results[:3] {
		assert.Equal(t, loop.QuestCompleted, r.Status, r.Name)
	}
	assert.Equal(t, head, out.Results[1].Claimed)
	assert.Equal(t, loop.QuestFailed, out.Results[3].Status)
	assert.Equal(t, "the server's quest book: the server did not report the quest completed within 200 ticks", out.Results[3].Reason)
	assert.Equal(t, loop.QuestSkipped, out.Results[4].Status)
	assert.Equal(t, 3, out.Completed)
}
