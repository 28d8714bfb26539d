package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// QuestStage is one quest of a quest or line goal: the item goals of its
// tasks, or why the agent cannot do it.
type QuestStage struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Lines are the quest lines that place the quest.
	Lines []string `json:"lines,omitempty"`
	// Items are the inventory goals of its tasks (a retrieval task: have;
	// crafting and block breaking: collect, counted from the quest's start).
	Items []ItemGoal `json:"items,omitempty"`
	// Kills are the kill goals of its hunt tasks (counted from the
	// quest's start).
	Kills []KillGoal `json:"kills,omitempty"`
	// Prereqs are the ids of the stages that must be completed first.
	Prereqs []string `json:"prereqs,omitempty"`
	// AnyPrereq: one completed prerequisite is enough.
	AnyPrereq bool `json:"any_prereq,omitempty"`
	// Skip says why the agent cannot do the quest ("" when it can).
	Skip string `json:"skip,omitempty"`
	// Blockers name what stops it, one key each (a task type, an item),
	// for the list of blockers.
	Blockers []string `json:"blockers,omitempty"`
	// Checkboxes are the ids (in the quest) of its checkbox tasks, which
	// the user allowed the agent to tick.
	Checkboxes []int `json:"checkboxes,omitempty"`
	// Rewards are the items the agent claims when the quest is completed
	// (none: it leaves the quest unclaimed).
	Rewards []RewardItem `json:"rewards,omitempty"`
	// Choices are the options picked of the quest's choice rewards, as
	// the book's buttons name them; Rewards holds the items.
	Choices []RewardChoice `json:"choices,omitempty"`
}

// RewardChoice is the option picked of a choice reward: the reward's id
// in its quest and the option's place among its items.
type RewardChoice struct {
	Reward int `json:"reward"`
	Option int `json:"option"`
}

// RewardItem is an item a quest gives when claimed: an exact item
// ("modid:name" or "modid:name:meta") and how many.
type RewardItem struct {
	Item  string `json:"item"`
	Count int    `json:"count"`
}

func (r RewardItem) String() string { return fmt.Sprintf("%d %s", r.Count, r.Item) }

// QuestSource turns the names of quest and line clauses into stages: a
// quest after its prerequisites, a line's quests in prerequisite order.
type QuestSource interface {
	QuestStages(name string) ([]QuestStage, error)
	// LineStages also returns the line's name as the book spells it.
	LineStages(name string) (string, []QuestStage, error)
}

// splitClauses splits a goal at " and " outside double quotes.
func splitClauses(text string) ([]string, error) {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(text); i++ {
		switch {
		case text[i] == '"':
			quoted = !quoted
		case !quoted && strings.HasPrefix(text[i:], " and "):
			out = append(out, text[start:i])
			start = i + len(" and ")
			i += len(" and ") - 1
		}
	}
	if quoted {
		return nil, errors.New("a double quote is not closed")
	}
	return append(out, text[start:]), nil
}

// quests resolves a quest or line clause and appends its stages (a stage
// already in the goal is not repeated).
func (p GoalParser) quests(g *Goal, verb, clause string) error {
	name := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(clause), verb))
	if strings.HasPrefix(name, `"`) {
		if len(name) < 2 || !strings.HasSuffix(name, `"`) {
			return fmt.Errorf("%q: write %s \"NAME\"", clause, verb)
		}
		name = name[1 : len(name)-1]
	}
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("%q: write %s \"NAME\"", clause, verb)
	}
	if p.Quests == nil {
		return fmt.Errorf("%q: no quest book is loaded (give --quests PATH, or quests: in the agent config file)", clause)
	}
	var stages []QuestStage
	var err error
	if verb == "quest" {
		stages, err = p.Quests.QuestStages(name)
	} else {
		var line string
		line, stages, err = p.Quests.LineStages(name)
		if err == nil && !slices.Contains(g.QuestLines, line) {
			g.QuestLines = append(g.QuestLines, line)
		}
	}
	if err != nil {
		return fmt.Errorf("%q: %v", clause, err)
	}
	for _, s := range stages {
		if !slices.ContainsFunc(g.Quests, func(o QuestStage) bool { return o.ID == s.ID }) {
			g.Quests = append(g.Quests, s)
		}
	}
	return nil
}

// LineFigure is how many quests of a line the goal named were completed.
type LineFigure struct {
	Line      string `json:"line"`
	Completed int    `json:"completed"`
	Total     int    `json:"total"`
}

// Quest statuses in a QuestResult.
const (
	QuestCompleted = "completed"
	QuestSkipped   = "skipped" // the agent cannot do one of its tasks, or a prerequisite is not completed
	QuestFailed    = "failed"  // the run towards it stopped short
)

// QuestResult is what became of one stage.
type QuestResult struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"`
	// Reason says why it was skipped or failed.
	Reason string `json:"reason,omitempty"`
	// Blockers are the root causes: its own (a task type, an item, what
	// the run was stuck on) or, for a quest skipped because a prerequisite
	// was not completed, the prerequisites' blockers.
	Blockers []string `json:"blockers,omitempty"`
	Steps    int      `json:"steps,omitempty"`
	Ticks    int64    `json:"ticks,omitempty"`
	// Claimed are the rewards the body was given for the quest.
	Claimed []RewardItem `json:"claimed,omitempty"`
	// Unclaimed says why rewards the agent claimed did not all arrive.
	Unclaimed string `json:"unclaimed,omitempty"`
}

// Blocker is one cause and the quests it keeps from completion.
type Blocker struct {
	Cause  string `json:"cause"`
	Quests int    `json:"quests"`
}

// QuestOutcome is the end of a quest or line goal.
type QuestOutcome struct {
	Completed int `json:"completed"`
	Total     int `json:"total"`
	// Lines: the figure of each line the goal named, in the goal's order.
	Lines   []LineFigure  `json:"lines,omitempty"`
	Results []QuestResult `json:"results"`
	// Blockers, the most quests blocked first.
	Blockers []Blocker `json:"blockers,omitempty"`
	// Interrupted: the run was stopped before every stage was tried.
	Interrupted bool             `json:"interrupted,omitempty"`
	Steps       int              `json:"steps"`
	Ticks       int64            `json:"ticks"`
	Skills      map[string]Stats `json:"skills"`
}

// questTrace is the trace line written when a stage ends.
type questTrace struct {
	Quest QuestResult `json:"quest"`
}

// QuestOptions change how RunQuests works through the stages.
type QuestOptions struct {
	// Unlocked runs a quest whose prerequisites were not completed too (a
	// measure of what the agent can do quest by quest; BetterQuesting
	// itself keeps such a quest locked).
	Unlocked bool
	// OnQuest is called as each stage ends.
	OnQuest func(QuestResult)
	// ServerDone, when set, says whether the server's quest book has a
	// quest (by its stage id) completed for the player: such a stage is
	// completed without running it, whatever its tasks, and the result
	// says so. known is false when the server said nothing of the quest.
	ServerDone func(id string) (done, known bool)
	// Claim, when set, hands a completed quest's rewards (QuestStage
	// .Rewards) to the body, as the quest book does when the player claims
	// the quest; an error says what did not arrive. It is not called for a
	// quest the server's book reports completed: there the server gives
	// the rewards and the world model sees the inventory change.
	Claim func(ctx context.Context, rewards []RewardItem) error
	// Book, when set, is the server's quest book, whose buttons the agent
	// presses as the player would (the user allowed it the book's clicks):
	// it ticks a stage's checkbox tasks before the stage runs, submits a
	// stage whose goal the world model shows met, which counts as
	// completed only once the server's book reports it so, and claims the
	// rewards the agent needs there (Claim is then not called).
	Book QuestBook
}

// QuestBook is a server's quest book: each call presses a button and
// returns once the server has answered, or says why it did not.
type QuestBook interface {
	// Tick ticks the quest's checkbox tasks, by their ids in the quest.
	Tick(ctx context.Context, quest string, tasks []int) error
	// Submit presses the quest's submit button (the server checks its
	// tasks, taking the items of those that consume them) and waits
	// until the server reports the quest completed.
	Submit(ctx context.Context, quest string) error
	// Claim picks the options of the quest's choice rewards, presses its
	// claim button and waits until the server reports it claimed.
	Claim(ctx context.Context, quest string, choices []RewardChoice) error
}

// CompletedOnServer is the reason of a stage completed because the
// server's quest book has it completed.
const CompletedOnServer = "completed in the server's quest book"

// RunQuests works through cfg.Goal.Quests in order on one body: a stage
// whose prerequisites are completed runs as a goal of its item goals (a
// Loop of its own, with cfg's budgets), one the agent cannot do or whose
// prerequisites are not all completed is skipped. The trace gets a line
// {"quest": …} as each stage ends.
func RunQuests(ctx context.Context, cfg Config, opts QuestOptions) (QuestOutcome, error) {
	onQuest := opts.OnQuest
	stages := cfg.Goal.Quests
	out := QuestOutcome{Total: len(stages), Skills: map[string]Stats{}}
	results := map[string]*QuestResult{}
	var enc *json.Encoder
	if cfg.Trace != nil {
		enc = json.NewEncoder(cfg.Trace)
		enc.SetEscapeHTML(false)
	}
	for i, st := range stages {
		if ctx.Err() != nil {
			out.Interrupted = true
			break
		}
		res := QuestResult{ID: st.ID, Name: st.Name}
		blocked, causes := prereqsBlock(st, results)
		if opts.Unlocked {
			blocked, causes = "", nil
		}
		serverDone := false
		if opts.ServerDone != nil {
			done, known := opts.ServerDone(st.ID)
			serverDone = done && known
		}
		switch {
		case serverDone:
			res.Status, res.Reason = QuestCompleted, CompletedOnServer
		case st.Skip != "":
			res.Status, res.Reason, res.Blockers = QuestSkipped, st.Skip, st.Blockers
		case blocked != "":
			res.Status, res.Reason, res.Blockers = QuestSkipped, blocked, causes
		default:
			if opts.Book != nil && len(st.Checkboxes) > 0 {
				if err := opts.Book.Tick(ctx, st.ID, st.Checkboxes); err != nil {
					if ctx.Err() != nil {
						out.Interrupted = true
						res.Status, res.Reason = QuestFailed, "interrupted"
						break
					}
					res.Status, res.Reason, res.Blockers = QuestFailed, "the server's quest book: "+err.Error(), []string{"the server's quest book"}
					break
				}
			}
			sub := cfg
			sub.Goal = Goal{Text: "quest " + strconvQuote(st.Name), Items: st.Items, Kills: st.Kills, Keep: laterItems(stages[i+1:])}
			l, err := New(ctx, sub)
			if err != nil {
				return out, err
			}
			o, err := l.Run(ctx)
			out.Steps += o.Steps
			out.Ticks += o.Ticks
			for k, v := range o.Skills {
				s := out.Skills[k]
				s.Attempts += v.Attempts
				s.Successes += v.Successes
				s.Looks += v.Looks
				out.Skills[k] = s
			}
			res.Steps, res.Ticks = o.Steps, o.Ticks
			if err != nil {
				return out, err
			}
			switch {
			case o.GoalMet && opts.Book != nil:
				res.Status = QuestCompleted
				if err := opts.Book.Submit(ctx, st.ID); err != nil {
					res.Status, res.Reason, res.Blockers = QuestFailed, "the server's quest book: "+err.Error(), []string{"the server's quest book"}
					if ctx.Err() != nil {
						out.Interrupted = true
						res.Reason = "interrupted"
					}
				}
			case o.GoalMet:
				res.Status = QuestCompleted
			case o.Reason == Interrupted:
				out.Interrupted = true
				res.Status, res.Reason = QuestFailed, "interrupted"
			default:
				res.Status = QuestFailed
				res.Reason = string(o.Reason)
				switch {
				case strings.HasPrefix(o.Why, res.Reason+":"):
					res.Reason = o.Why
				case o.Why != "":
					res.Reason += ": " + o.Why
				case len(o.Progress.Unmet) > 0:
					res.Reason += ": " + strings.Join(o.Progress.Unmet, ", ")
				}
				res.Blockers = stuckCauses(o)
			}
		}
		if res.Status == QuestCompleted {
			out.Completed++
			switch {
			case len(st.Rewards) == 0:
			case opts.Book != nil:
				res.Claimed = st.Rewards
				if err := opts.Book.Claim(ctx, st.ID, st.Choices); err != nil {
					res.Unclaimed = err.Error()
				}
			case opts.Claim != nil && !serverDone:
				res.Claimed = st.Rewards
				if err := opts.Claim(ctx, st.Rewards); err != nil {
					res.Unclaimed = err.Error()
				}
			}
		}
		r := res
		results[st.ID] = &r
		out.Results = append(out.Results, res)
		if enc != nil {
			if err := enc.Encode(questTrace{res}); err != nil {
				return out, fmt.Errorf("loop: writing the trace: %w", err)
			}
		}
		if onQuest != nil {
			onQuest(res)
		}
		if out.Interrupted {
			break
		}
	}
	out.Blockers = countBlockers(out.Results)
	for _, name := range cfg.Goal.QuestLines {
		f := LineFigure{Line: name}
		for i, st := range stages {
			if !slices.Contains(st.Lines, name) {
				continue
			}
			f.Total++
			if i < len(out.Results) && out.Results[i].Status == QuestCompleted {
				f.Completed++
			}
		}
		out.Lines = append(out.Lines, f)
	}
	return out, nil
}

// laterItems are the items the stages ask for, as counts to keep held
// (the most any stage asks of an item): what a quest run must not throw
// away before the quest that takes it.
func laterItems(stages []QuestStage) []ItemGoal {
	most := map[string]int{}
	var order []string
	for _, st := range stages {
		if st.Skip != "" {
			continue
		}
		for _, ig := range st.Items {
			if _, ok := most[ig.Item]; !ok {
				order = append(order, ig.Item)
			}
			most[ig.Item] = max(most[ig.Item], ig.Count)
		}
	}
	out := make([]ItemGoal, 0, len(order))
	for _, it := range order {
		out = append(out, ItemGoal{Item: it, Count: most[it]})
	}
	return out
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// prereqsBlock says whether the stage's prerequisites keep it from
// running (a reason, and the causes behind the prerequisites).
func prereqsBlock(st QuestStage, results map[string]*QuestResult) (string, []string) {
	if len(st.Prereqs) == 0 {
		return "", nil
	}
	var missing []string
	var causes []string
	done := 0
	for _, id := range st.Prereqs {
		r, ok := results[id]
		switch {
		case ok && r.Status == QuestCompleted:
			done++
		case ok:
			missing = append(missing, r.Name)
			for _, c := range r.Blockers {
				if !slices.Contains(causes, c) {
					causes = append(causes, c)
				}
			}
		default:
			missing = append(missing, id)
			causes = append(causes, "prerequisite outside the goal: "+id)
		}
	}
	if done == len(st.Prereqs) || (st.AnyPrereq && done > 0) {
		return "", nil
	}
	return "prerequisite not completed: " + strings.Join(missing, ", "), causes
}

// noProducer is how the goal planner says an item cannot be had.
const noProducer = "no available skill produces "

// stuckCauses are the blockers of a run that stopped short: each item the
// planner found no producer for when it says so, else the stop reason and
// what was unmet.
func stuckCauses(o Outcome) []string {
	var out []string
	for rest := o.Why; ; {
		i := strings.Index(rest, noProducer)
		if i < 0 {
			break
		}
		rest = rest[i+len(noProducer):]
		if f := strings.Fields(rest); len(f) > 0 {
			c := "no producer: " + strings.TrimRight(f[0], ",;:.")
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	if len(o.Progress.Unmet) > 0 {
		return []string{string(o.Reason) + ": " + strings.Join(o.Progress.Unmet, ", ")}
	}
	return []string{string(o.Reason)}
}

// countBlockers counts, for each cause, the quests it blocks (a completed
// quest has none), the most first (ties by name).
func countBlockers(results []QuestResult) []Blocker {
	n := map[string]int{}
	for _, r := range results {
		for _, c := range r.Blockers {
			n[c]++
		}
	}
	out := make([]Blocker, 0, len(n))
	for c, k := range n {
		out = append(out, Blocker{Cause: c, Quests: k})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Quests != out[j].Quests {
			return out[i].Quests > out[j].Quests
		}
		return out[i].Cause < out[j].Cause
	})
	return out
}
