package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/quests"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

const (
	questsLinesUsage = "quests lines [--quests PATH] [--config-file FILE]"
	questsListUsage  = "quests list --line NAME [--quests PATH] [--quests-checkbox] [--config-file FILE]"
	questsShowUsage  = "quests show NAME|ID [--quests PATH] [--quests-checkbox] [--config-file FILE]"
)

// questFlags are the flags that name the quest book: --quests PATH and
// --quests-checkbox, with the config file's quests section as defaults.
type questFlags struct {
	path       string
	checkbox   bool
	unlocked   bool
	configFile string
	set        map[string]bool
}

func (q *questFlags) register(fs *flag.FlagSet, withConfig bool) {
	fs.StringVar(&q.path, "quests", "", "the quest book: a DefaultQuests directory, a DefaultQuests.json, or the config/betterquesting directory holding one (default: quests.path of the config file)")
	fs.BoolVar(&q.checkbox, "quests-checkbox", false, "let the agent click in the quest book: tick checkbox tasks (they need a person otherwise, and their quests are skipped) and claim rewards; on a server with BetterQuesting it also submits quests there, and a quest counts once the server completes it")
	if !withConfig { // run's flag: the other commands do not run quests
		fs.BoolVar(&q.unlocked, "quests-unlocked", false, "run a quest even when a prerequisite was not completed (what the agent can do quest by quest; the quest book would keep it locked)")
	}
	if withConfig {
		fs.StringVar(&q.configFile, "config-file", "", "agent config `FILE` (default: agent.yaml in the working directory when present)")
	}
}

// apply takes the config file's quests section for the flags not set.
func (q *questFlags) apply(acfg *agentConfig, set map[string]bool) {
	q.set = set
	if !set["quests"] && acfg.Quests.Path != "" {
		q.path = acfg.Quests.Path
	}
	if !set["quests-checkbox"] && acfg.Quests.Checkbox {
		q.checkbox = true
	}
}

// load reads the quest book, logging what was skipped in it.
func (q *questFlags) load(e *env, cmd string) (*quests.Book, error) {
	if q.path == "" {
		return nil, usagef("%s: no quest book: give --quests PATH (your modpack's config/betterquesting), or quests.path in the config file", cmd)
	}
	b, err := quests.Load(q.path)
	if err != nil {
		return nil, usagef("%s: %v", cmd, err)
	}
	for _, p := range b.Problems {
		e.log.Warn().Str("quests", q.path).Msg(p.Error())
	}
	return b, nil
}

// questJudge judges quests against the simulated world's names: an item
// the agent has never heard of cannot be planned for.
func (q *questFlags) judge(b *quests.Book, item func(string) error) quests.Judge {
	return quests.Judge{Book: b, Item: item, Checkbox: q.checkbox, Mobs: rules.Default().Mobs, Needs: rewardNeeded(rules.Default())}
}

// rewardNeeded says whether a reward item is one the agent claims a quest
// for: a recipe of the rules takes it (as an ingredient or a tool) and no
// recipe or smelting makes it ("Upgrade 2.0"'s iron pickaxe head).
func rewardNeeded(set *rules.Set) func(item string) bool {
	return func(item string) bool {
		id, meta, err := world.SplitID(item)
		if err != nil || len(set.Recipes.For(item)) > 0 || len(set.Smelt.For(item)) > 0 {
			return false
		}
		st := set.Stack(id, max(meta, 0), 1)
		for _, r := range set.Recipes.All() {
			for _, in := range r.Ingredients {
				if in.Item.Matches(st) {
					return true
				}
			}
			for _, t := range r.Tools {
				if t.Matches(st) {
					return true
				}
			}
		}
		return false
	}
}

func simItem(s string) error { return sim.Names().CheckItem(s) }

// questsCommand is the shared shape of quests lines|list|show.
type questsCommand struct {
	qf   questFlags
	line string
	name string
	fs   *flag.FlagSet
}

func (c *questsCommand) parseWith(e *env, args []string, name, usage string, line bool, positional int) error {
	fs := newFlagSet(e, name, usage)
	c.fs = fs
	c.qf.register(fs, true)
	if line {
		fs.StringVar(&c.line, "line", "", "the quest line to list (its name or id; required)")
	}
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != positional {
		if positional == 0 {
			return noArgs(name, pos)
		}
		return usagef("%s: want one quest NAME or ID, got %d arguments (quote a name with spaces)\n%s", name, len(pos), helpHint(name))
	}
	if positional == 1 {
		c.name = pos[0]
	}
	return nil
}

func (c *questsCommand) config(e *env) error {
	acfg, err := loadAgentConfig(c.qf.configFile)
	if err != nil {
		return configError(e, err)
	}
	set := map[string]bool{}
	c.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	c.qf.apply(acfg, set)
	return nil
}

// questsLinesCommand is `agent quests lines`: the book's lines in order.
type questsLinesCommand struct{ questsCommand }

var _ subcommand = (*questsLinesCommand)(nil)

func (c *questsLinesCommand) parse(e *env, args []string) error {
	return c.parseWith(e, args, "quests lines", questsLinesUsage, false, 0)
}

func (c *questsLinesCommand) validate(e *env) error { return c.config(e) }

func (c *questsLinesCommand) run(e *env) error {
	b, err := c.qf.load(e, "quests lines")
	if err != nil {
		return err
	}
	j := c.qf.judge(b, simItem)
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "LINE\tQUESTS\tAGENT CAN DO\tID\n")
	for _, l := range b.Lines {
		can := 0
		for _, id := range l.Quests {
			if q, ok := b.Quest(id); ok && j.Stage(q).Skip == "" {
				can++
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", l.Name, len(l.Quests), can, l.ID)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%d lines, %d quests; %s\n", len(b.Lines), len(b.Quests()), problemsLine(b))
	return nil
}

func problemsLine(b *quests.Book) string {
	if len(b.Problems) == 0 {
		return "no problems"
	}
	return fmt.Sprintf("%d problems (logged as warnings; --log-level warn shows them)", len(b.Problems))
}

// questsListCommand is `agent quests list --line NAME`: the line's quests
// in prerequisite order, what each needs and whether the agent can do it.
type questsListCommand struct{ questsCommand }

var _ subcommand = (*questsListCommand)(nil)

func (c *questsListCommand) parse(e *env, args []string) error {
	return c.parseWith(e, args, "quests list", questsListUsage, true, 0)
}

func (c *questsListCommand) validate(e *env) error {
	if c.line == "" {
		return usagef("quests list: --line NAME is required (agent quests lines lists them)")
	}
	return c.config(e)
}

func (c *questsListCommand) run(e *env) error {
	b, err := c.qf.load(e, "quests list")
	if err != nil {
		return err
	}
	l, err := b.FindLine(c.line)
	if err != nil {
		return usagef("quests list: %v", err)
	}
	order, _ := b.Order(l.Quests)
	j := c.qf.judge(b, simItem)
	fmt.Fprintf(e.stdout, "%s: %d quests (prerequisites from other lines marked *)\n", l.Name, len(l.Quests))
	can := 0
	for _, q := range order {
		st := j.Stage(q)
		mark := " "
		if !inLine(l, q.ID) {
			mark = "*"
		} else if st.Skip == "" {
			can++
		}
		verdict := "can do"
		if st.Skip != "" {
			verdict = "cannot: " + st.Skip
		}
		fmt.Fprintf(e.stdout, "%s %-40s %s\n", mark, q.Name, verdict)
		if needs := needsLine(q); needs != "" {
			fmt.Fprintf(e.stdout, "    needs %s\n", needs)
		}
	}
	fmt.Fprintf(e.stdout, "the agent can do %d of %d quests of the line (judged from its item table and task types; a run finds out what its skills can produce)\n", can, len(l.Quests))
	return nil
}

func inLine(l *quests.Line, id quests.ID) bool {
	for _, x := range l.Quests {
		if x == id {
			return true
		}
	}
	return false
}

// needsLine sums up a quest's required tasks.
func needsLine(q *quests.Quest) string {
	var parts []string
	for _, t := range q.Tasks {
		if t.Optional() {
			continue
		}
		parts = append(parts, taskText(t))
	}
	sep := "; "
	if q.AnyTask {
		sep = "; or "
	}
	return strings.Join(parts, sep)
}

func taskText(t quests.Task) string {
	kind := strings.TrimPrefix(t.Type, "bq_standard:")
	switch {
	case len(t.Items) > 0:
		items := make([]string, len(t.Items))
		for i, it := range t.Items {
			items[i] = fmt.Sprintf("%d %s", it.Count, it.Matcher())
		}
		s := kind + " " + strings.Join(items, ", ")
		if t.Consume {
			s += " (consumed)"
		}
		return s
	case t.Target != "" && t.Count > 0:
		return fmt.Sprintf("%s %d %s", kind, t.Count, t.Target)
	case t.Target != "":
		return kind + " " + t.Target
	}
	return kind
}

// rewardText sums up one reward: its items, or the options of a choice.
func rewardText(r quests.Reward) string {
	kind := strings.TrimPrefix(r.Type, "bq_standard:")
	if len(r.Items) == 0 {
		return kind + " (nothing the agent models)"
	}
	items := make([]string, len(r.Items))
	for i, it := range r.Items {
		items[i] = fmt.Sprintf("%d %s", it.Count, it.StackMatcher())
	}
	if r.Choice() {
		return "choice of one: " + strings.Join(items, ", ")
	}
	return kind + " " + strings.Join(items, ", ")
}

// questsShowCommand is `agent quests show NAME|ID`: one quest's
// prerequisites, tasks and verdict.
type questsShowCommand struct{ questsCommand }

var _ subcommand = (*questsShowCommand)(nil)

func (c *questsShowCommand) parse(e *env, args []string) error {
	return c.parseWith(e, args, "quests show", questsShowUsage, false, 1)
}

func (c *questsShowCommand) validate(e *env) error { return c.config(e) }

func (c *questsShowCommand) run(e *env) error {
	b, err := c.qf.load(e, "quests show")
	if err != nil {
		return err
	}
	q, err := b.FindQuest(c.name)
	if err != nil {
		return usagef("quests show: %v", err)
	}
	w := e.stdout
	fmt.Fprintf(w, "%s (%s)\n", q.Name, q.ID)
	if len(q.Lines) > 0 {
		fmt.Fprintf(w, "  lines: %s\n", strings.Join(q.Lines, ", "))
	}
	if len(q.Prereqs) > 0 {
		logic := "all of"
		if q.AnyPrereq {
			logic = "one of"
		}
		var ps []string
		for _, p := range q.Prereqs {
			if pq, ok := b.Quest(p); ok {
				ps = append(ps, pq.Name)
			} else {
				ps = append(ps, p.String()+" (not in the book)")
			}
		}
		fmt.Fprintf(w, "  needs %s: %s\n", logic, strings.Join(ps, ", "))
	}
	if q.AnyTask {
		fmt.Fprintln(w, "  tasks (any one):")
	} else {
		fmt.Fprintln(w, "  tasks:")
	}
	j := c.qf.judge(b, simItem)
	for _, t := range q.Tasks {
		v := j.Task(t)
		verdict := "can do"
		switch {
		case t.Optional():
			verdict = "optional: does not count"
		case v.Skip != "":
			verdict = "cannot: " + v.Skip
		}
		fmt.Fprintf(w, "    %s -- %s\n", taskText(t), verdict)
	}
	st := j.Stage(q)
	if len(q.Rewards) > 0 {
		fmt.Fprintln(w, "  rewards:")
		for _, r := range q.Rewards {
			fmt.Fprintf(w, "    %s\n", rewardText(r))
		}
		if len(st.Rewards) > 0 {
			claimed := make([]string, len(st.Rewards))
			for i, r := range st.Rewards {
				claimed[i] = r.String()
			}
			fmt.Fprintf(w, "  the agent claims: %s\n", strings.Join(claimed, ", "))
		} else {
			fmt.Fprintln(w, "  the agent leaves it unclaimed: it needs none of its items, or does not know them all")
		}
	}
	order, _ := b.Order([]quests.ID{q.ID})
	fmt.Fprintf(w, "  as a goal: %d quests, this one last\n", len(order))
	printStage(w, st)
	fmt.Fprintf(w, "  source: %s\n", q.File)
	return nil
}

func printStage(w io.Writer, st loop.QuestStage) {
	if st.Skip != "" {
		fmt.Fprintf(w, "  the agent cannot do it: %s\n", st.Skip)
		return
	}
	if len(st.Items) == 0 && len(st.Kills) == 0 {
		fmt.Fprintln(w, "  the agent can do it: nothing to gather")
		return
	}
	goals := make([]string, 0, len(st.Items)+len(st.Kills))
	for _, ig := range st.Items {
		verb := "have"
		if ig.Gain {
			verb = "collect"
		}
		goals = append(goals, fmt.Sprintf("%s %d %s", verb, ig.Count, ig.Item))
	}
	for _, kg := range st.Kills {
		goals = append(goals, fmt.Sprintf("kill %d %s", kg.Count, kg.Mob))
	}
	fmt.Fprintf(w, "  the agent can do it: %s\n", strings.Join(goals, " and "))
}

// playQuests works through a quest or line goal: a line per step and per
// quest, then the figure, the quests not completed with the reason, and
// the blockers, the most quests blocked first. Exit 0 when every quest was
// completed, 130 when interrupted, 1 otherwise.
func (c *runCommand) playQuests(e *env, p *runPlan, s *runSession) error {
	cfg := loop.Config{Registry: p.reg, Conn: s.conn, Planner: p.pl, Goal: p.goal, Trace: s.trace,
		MaxSteps: c.maxSteps, MaxTicks: c.maxTicks, Log: e.log, Reflexes: c.acfg.Survival.reflexes(), Guard: c.acfg.Survival.guard()}
	onStep := s.onStep
	if p.llmPl != nil {
		onStep = append(onStep, p.llmPl.StepDone)
	}
	var onQuest func(loop.QuestResult)
	if !c.asJSON {
		fmt.Fprintln(e.stdout, s.header)
		switch {
		case s.opened.client != nil:
			fmt.Fprintln(e.stdout, "a quest the server's quest book (BetterQuesting) reports completed counts as completed; other quests' tasks are judged from the world model (the inventory the body reports)")
		case c.bf.live || c.bf.remote:
			fmt.Fprintln(e.stdout, "quest tasks are judged from the world model (the inventory the body reports), not from the server's quest book")
		}
		onStep = append(onStep, func(r loop.StepRecord) { fmt.Fprintln(e.stdout, "  "+stepLine(r)) })
		onQuest = func(r loop.QuestResult) { fmt.Fprintln(e.stdout, questLine(r)) }
	}
	if len(onStep) > 0 {
		cfg.OnStep = func(r loop.StepRecord) {
			for _, f := range onStep {
				f(r)
			}
		}
	}
	opts := loop.QuestOptions{Unlocked: c.qf.unlocked, OnQuest: onQuest}
	if client := s.opened.client; client != nil {
		opts.ServerDone = serverQuestDone(client.QuestProgress)
		if c.qf.checkbox && client.HasQuestBook() {
			// The user allows the agent the book's clicks: it ticks,
			// submits and claims on the server's book, whose answer counts.
			opts.Book = liveBook{client}
		}
	}
	if w := s.opened.world; w != nil && c.qf.checkbox {
		// Claiming is a click in the quest book, like a checkbox: the
		// simulator hands a completed quest's rewards over only when the
		// user allows the agent the book's clicks.
		opts.Claim = simClaim(w)
	}
	out, err := loop.RunQuests(s.ctx, cfg, opts)
	s.stopPro()
	if client := s.opened.client; client != nil && client.Err() != nil {
		return fmt.Errorf("the server ended the run: %w", client.Err())
	}
	if err != nil {
		return err
	}
	if c.asJSON {
		if err := writeJSON(e.stdout, out); err != nil {
			return err
		}
	} else {
		printQuestOutcome(e.stdout, out)
	}
	switch {
	case out.Interrupted:
		return errInterrupted
	case out.Completed < out.Total:
		return &reportedError{fmt.Sprintf("goal not met: %d of %d quests", out.Completed, out.Total)}
	}
	return nil
}

func questLine(r loop.QuestResult) string {
	switch r.Status {
	case loop.QuestCompleted:
		s := fmt.Sprintf("quest completed: %s (%d steps, %d ticks)", r.Name, r.Steps, r.Ticks)
		if len(r.Claimed) > 0 {
			got := make([]string, len(r.Claimed))
			for i, c := range r.Claimed {
				got[i] = c.String()
			}
			s += "; rewards claimed: " + strings.Join(got, ", ")
			if r.Unclaimed != "" {
				s += " (" + r.Unclaimed + ")"
			}
		}
		return s
	case loop.QuestSkipped:
		return fmt.Sprintf("quest skipped: %s: %s", r.Name, r.Reason)
	}
	return fmt.Sprintf("quest not completed: %s: %s", r.Name, r.Reason)
}

// printQuestOutcome prints the figure, what was not completed and why,
// and the blockers.
func printQuestOutcome(w io.Writer, out loop.QuestOutcome) {
	fmt.Fprintf(w, "\n%d of %d quests (%d steps, %d ticks)\n", out.Completed, out.Total, out.Steps, out.Ticks)
	for _, l := range out.Lines {
		fmt.Fprintf(w, "  %s: %d of %d quests\n", l.Line, l.Completed, l.Total)
	}
	if out.Completed < out.Total {
		fmt.Fprintln(w, "not completed:")
		for _, r := range out.Results {
			if r.Status != loop.QuestCompleted {
				fmt.Fprintf(w, "  %s [%s]: %s\n", r.Name, r.Status, r.Reason)
			}
		}
	}
	if len(out.Blockers) > 0 {
		fmt.Fprintln(w, "blockers (quests each keeps from completion):")
		for _, b := range out.Blockers {
			fmt.Fprintf(w, "  %4d  %s\n", b.Quests, b.Cause)
		}
	}
}

// serverQuestDone answers loop.QuestOptions.ServerDone from the progress
// the server's BetterQuesting sent the live client: nothing is known
// before a sync arrived, or of a stage whose id is not a quest id.
func serverQuestDone(progress func() gtnh.QuestProgress) func(id string) (done, known bool) {
	return func(id string) (bool, bool) {
		qp := progress()
		qid, ok := quests.ParseID(id)
		if !qp.Synced || !ok {
			return false, false
		}
		return qp.Completed[[2]int64{qid.High, qid.Low}], true
	}
}

// liveBook presses the buttons of the server's quest book through the
// live client.
type liveBook struct{ c *gtnh.Client }

func bookID(quest string) ([2]int64, error) {
	id, ok := quests.ParseID(quest)
	if !ok {
		return [2]int64{}, fmt.Errorf("%q is not a quest id", quest)
	}
	return [2]int64{id.High, id.Low}, nil
}

func (b liveBook) Tick(ctx context.Context, quest string, tasks []int) error {
	id, err := bookID(quest)
	if err != nil {
		return err
	}
	return b.c.TickQuestCheckboxes(ctx, id, tasks)
}

func (b liveBook) Submit(ctx context.Context, quest string) error {
	id, err := bookID(quest)
	if err != nil {
		return err
	}
	return b.c.SubmitQuest(ctx, id)
}

func (b liveBook) Claim(ctx context.Context, quest string, choices []loop.RewardChoice) error {
	id, err := bookID(quest)
	if err != nil {
		return err
	}
	picks := make([][2]int, len(choices))
	for i, ch := range choices {
		picks[i] = [2]int{ch.Reward, ch.Option}
	}
	return b.c.ClaimQuest(ctx, id, picks)
}

// simClaim gives a quest's rewards into the simulated player's inventory.
func simClaim(w *sim.Sim) func(context.Context, []loop.RewardItem) error {
	return func(_ context.Context, rewards []loop.RewardItem) error {
		var lost []string
		for _, r := range rewards {
			if err := w.Give(r.Item, r.Count); err != nil {
				lost = append(lost, err.Error())
			}
		}
		if len(lost) > 0 {
			return errors.New(strings.Join(lost, "; "))
		}
		return nil
	}
}
