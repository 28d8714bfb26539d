package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/gtnh/record"
	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/memory"
	"github.com/gtnh-agent/gtnh-agent/metrics"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/planner/llm"
	"github.com/gtnh-agent/gtnh-agent/planner/peer"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
	"github.com/gtnh-agent/gtnh-agent/recipebook"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/view/web"
)

// defaultGoal shows the goal planner chaining skills: sticks need planks,
// planks need logs, logs need trees.
const defaultGoal = "have 8 minecraft:stick and collect 8 minecraft:log"

const runUsage = `run [--scenario NAME|FILE] [--survival] [--goal "..."] [--goal-file FILE] [--seed N] [--trace FILE]
          [--max-steps N] [--max-ticks N] [--planner goal|script|llm|ADDR] [--script FILE] [--json]
          [--planner-cmd "COMMAND ARGS"] [--planner-timeout D] [--config DIR] [--state FILE]
       run --planner llm --llm-url URL --llm-model NAME [--llm-key-env VAR] [--llm-mode auto|tools|json] [--llm-context N] [--llm-system FILE]
          [--skills-config FILE] [--skills-dir DIR] [--workspace DIR] ...
       run --server HOST:PORT --username NAME [--goal "..."] [--reconnect] [--config-file FILE]
          [--record FILE] [--record-max-mb N] ...
       run --body ADDR [--token-file FILE] [--goal "..."] ...
       run --quests PATH --goal 'line "NAME"' [--quests-checkbox] [--quests-unlocked] ...
       run --metrics HOST:PORT [--metrics-token-file FILE] ...
       run --map-out FILE.png [--map-center X,Z] [--map-radius N] [--map-scale N] [--map-max-y Y] ...
       run --ui HOST:PORT [--ui-token-file FILE] ...`

// goalMissed marks a run that ended without meeting its goal (exit 1).
type goalMissed struct{ reason loop.StopReason }

func (g *goalMissed) Error() string { return "goal not met: " + string(g.reason) }

// runCommand is agent run: it plays in the simulated world, on a server or
// in a served body until the goal holds. Its phases: parse the flags;
// validate them with the agent config file; load the registry, the world's
// names, the planner and the goal; open the body and what the run writes
// to; run the loop; report.
type runCommand struct {
	fs *flag.FlagSet
	cf configFlags
	lf llmFlags
	kf knowledgeFlags
	bf bodyFlags
	qf questFlags
	mf metricsFlags
	uf uiFlags

	goalText, goalFile, traceFile string
	maxSteps                      int
	maxTicks                      int64
	plannerName, plannerCmd       string
	plannerTimeout                time.Duration
	scriptFile                    string
	asJSON                        bool
	recordFile                    string
	recordMaxMB                   int64
	recipesFile                   string
	memoryFile                    string
	mapOut                        string
	mapF                          mapFlags

	// Set by validate.
	acfg          *agentConfig
	remotePlanner bool // --planner names an address
	useLLM        bool // the model planner, in this process
	llmCfg        llm.Config

	// played, when set (tests), is called once the loop has ended, while
	// the metrics are still served.
	played func()
}

var _ subcommand = (*runCommand)(nil)

func (c *runCommand) parse(e *env, args []string) error {
	fs := newFlagSet(e, "run", runUsage)
	c.fs = fs
	c.cf.register(fs)
	c.lf.register(fs)
	c.kf.register(fs)
	c.bf.register(fs, reconnectUse+"; kicks a retry cannot change (ban, white-list, mod list) still end the run (default: one-shot)", "token to present to --body and to --planner ADDR")
	fs.StringVar(&c.goalText, "goal", "", `goal, e.g. "collect 16 minecraft:log" (default: "`+defaultGoal+`")`)
	fs.StringVar(&c.goalFile, "goal-file", "", "goal as YAML (items, tier, skill)")
	c.qf.register(fs, false)
	c.mf.register(fs, "file holding the token a scraper of --metrics must present (needed for an address other than loopback)")
	c.uf.register(fs, "file holding the token a browser of --ui must present (needed for an address other than loopback)")
	fs.StringVar(&c.traceFile, "trace", "", "write the JSONL trace to FILE")
	fs.IntVar(&c.maxSteps, "max-steps", 1000, "stop after N steps (the Stone Age from an empty inventory takes about 330)")
	fs.Int64Var(&c.maxTicks, "max-ticks", 0, "stop after N game ticks (0 = no limit)")
	fs.StringVar(&c.plannerName, "planner", "goal", "goal (chains skills), script (replays --script), llm (a language model: --llm-url, --llm-model), or the ADDR of a planner to connect to (unix:///path or tcp://HOST:PORT)")
	fs.StringVar(&c.plannerCmd, "planner-cmd", "", `start this planner program and talk to it on its stdin and stdout, e.g. "python3 my_planner.py"`)
	fs.DurationVar(&c.plannerTimeout, "planner-timeout", peer.DefaultPlanTimeout, "how long a planner program or ADDR has to answer one plan request")
	fs.StringVar(&c.scriptFile, "script", "", "YAML list of invocations for --planner script")
	fs.BoolVar(&c.asJSON, "json", false, "print the outcome as JSON instead of step lines")
	fs.StringVar(&c.recordFile, "record", "", "record what the server sends to FILE (see docs/recording.md; agent replay FILE)")
	fs.StringVar(&c.memoryFile, "memory", "", memoryUse)
	fs.Int64Var(&c.recordMaxMB, "record-max-mb", 4096, "stop recording when the recording reaches this many MB before compression (0: no limit)")
	fs.StringVar(&c.mapOut, "map-out", "", "at the end of the run, write the map of the world around the bot to `FILE` (a PNG; see agent map)")
	c.mapF.register(fs, "map-")
	fs.StringVar(&c.recipesFile, "recipes", "", "play by the crafting and furnace recipes of this compact recipe `FILE` (agent recipes import; default: the shipped early-game set)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	return noArgs("run", pos)
}

// validate loads the agent config file, which chooses the body and gives
// defaults to the flags the command line did not set, then checks the
// flags of the body, the goal and the planner.
func (c *runCommand) validate(e *env) error {
	acfg, err := c.bf.choose(e, c.fs)
	if err != nil {
		return err
	}
	c.acfg = acfg
	applyRunDefaults(acfg, c.bf.set, &c.goalText, &c.traceFile, &c.maxSteps, &c.maxTicks)
	c.qf.apply(acfg, c.bf.set)
	c.remotePlanner = strings.Contains(c.plannerName, "://")
	if err := c.checkBody(); err != nil {
		return err
	}
	if c.goalText != "" && c.goalFile != "" {
		return usagef("run: give --goal or --goal-file, not both")
	}
	if c.maxSteps < 1 {
		return usagef("run: --max-steps must be at least 1")
	}
	if err := c.checkPlanner(); err != nil {
		return err
	}
	if err := c.mf.check(e, "run", "", ""); err != nil {
		return err
	}
	if err := c.checkMap(); err != nil {
		return err
	}
	if err := c.uf.check(e, "run", "", ""); err != nil {
		return err
	}
	if c.useLLM {
		c.llmCfg, err = c.lf.config(acfg, c.bf.set)
	}
	return err
}

// checkBody checks the flags of the body and of what the run records.
func (c *runCommand) checkBody() error {
	set := c.bf.set
	if err := c.bf.checkRemote("run"); err != nil {
		return err
	}
	if *c.bf.tokenFile != "" && !c.bf.remote && !c.remotePlanner {
		return usagef("run: --token-file needs --body or --planner ADDR")
	}
	if (c.recordFile != "" || set["record-max-mb"]) && !c.bf.live {
		return usagef("%v", errNoRecording)
	}
	if c.recordMaxMB < 0 {
		return usagef("run: --record-max-mb must not be negative")
	}
	return c.bf.checkLive("run")
}

// checkPlanner checks the flags of the planner: one way to name it, the
// flags each kind takes and no other kind's.
func (c *runCommand) checkPlanner() error {
	set := c.bf.set
	if c.plannerCmd != "" && set["planner"] {
		return usagef("run: give --planner or --planner-cmd, not both")
	}
	if set["planner-timeout"] && c.plannerCmd == "" && !c.remotePlanner {
		return usagef("run: --planner-timeout is for --planner-cmd and --planner ADDR")
	}
	if c.plannerTimeout <= 0 {
		return usagef("run: --planner-timeout must be positive, e.g. 30s")
	}
	switch {
	case c.plannerCmd != "" || c.remotePlanner:
		if c.scriptFile != "" {
			return usagef("run: --script needs --planner script")
		}
		if c.remotePlanner {
			if _, err := wire.ParseAddr(c.plannerName); err != nil {
				return usagef("run: --planner: %v", err)
			}
		}
	case c.plannerName == "goal", c.plannerName == "llm":
		if c.scriptFile != "" {
			return usagef("run: --script needs --planner script")
		}
	case c.plannerName == "script":
		if c.scriptFile == "" {
			return usagef("run: --planner script needs --script FILE")
		}
	default:
		return usagef("run: unknown planner %q%s (goal, script, llm, or a planner's address: unix:///path or tcp://HOST:PORT)", c.plannerName, suggest.DidYouMean(c.plannerName, []string{"goal", "script", "llm"}))
	}
	c.useLLM = c.plannerName == "llm" && c.plannerCmd == ""
	if !c.useLLM {
		for _, n := range append(slices.Clone(llmFlagNames), "skills-config", "skills-dir", "workspace") {
			if set[n] {
				return usagef("run: --%s is for --planner llm", n)
			}
		}
	}
	return nil
}

func (c *runCommand) run(e *env) error {
	p, err := c.prepare(e)
	if err != nil {
		return err
	}
	sigCtx, stop := interruptContext()
	defer stop()
	s := &runSession{}
	defer s.close()
	if err := c.open(sigCtx, e, p, s); err != nil {
		return err
	}
	if len(p.goal.Quests) > 0 {
		err := c.playQuests(e, p, s)
		c.drawMap(e, s)
		return err
	}
	out, err := c.play(e, p, s)
	c.drawMap(e, s)
	if s.view != nil {
		s.view.Ended(out)
	}
	if c.played != nil {
		c.played()
	}
	if err != nil {
		return err
	}
	return c.report(e, p, s, out)
}

// runPlan is what a run is checked against before it starts.
type runPlan struct {
	reg   *registry.Registry
	sc    *sim.Scenario // nil on a server or a served body
	pl    loop.Planner  // replaced by a remote planner once the body is open
	llmPl *llm.Planner  // the model planner, if it plans
	goal  loop.Goal
}

// prepare checks everything the run names before it starts: the
// configuration, the scenario, then the goal and the script against both
// (a typo is exit 2 with a hint, not steps that fail).
func (c *runCommand) prepare(e *env) (*runPlan, error) {
	p := &runPlan{pl: chain.Planner{}}
	set := rules.Default()
	if c.recipesFile != "" {
		loaded, err := recipebook.LoadRules(c.recipesFile, set)
		if err != nil {
			return nil, configError(e, fmt.Errorf("run: --recipes: %w", err))
		}
		set = loaded
		c.cf.rules, c.bf.rules = set, set
		p.pl = chain.Planner{Recipes: set.Recipes, Smelt: set.Smelt}
		e.log.Info().Str("recipes", c.recipesFile).Int("crafting", len(set.Recipes.All())).Int("smelting", len(set.Smelt.All())).Msg("recipes loaded")
	}
	var err error
	if p.reg, err = c.cf.load(e, registry.ActiveOnly); err != nil {
		return nil, err
	}
	if c.useLLM {
		// The knowledge skills' Advisor: selection for the goal and the
		// quality store.
		if p.llmPl, err = llmPlanner(e, c.llmCfg, &c.kf, &c.cf, p.reg, knowledgeAdvisor); err != nil {
			return nil, err
		}
	}
	names := set.Names
	if !c.bf.live && !c.bf.remote {
		if p.sc, err = c.bf.loadScenario(); err != nil {
			return nil, configError(e, err)
		}
		if c.recipesFile == "" {
			names = sim.Names()
		}
	}
	// A remote body's names are not known here: they are checked as on a
	// live server.
	checker := newRunNames(p.reg, names, c.bf.live || c.bf.remote, e.log)
	if c.plannerName == "script" {
		if p.pl, err = c.scripted(e, checker); err != nil {
			return nil, err
		}
	}
	if p.llmPl != nil {
		p.pl = p.llmPl
	}
	parser := loop.GoalParser{Tiers: p.reg.Tiers(), Names: checker}
	if c.qf.path != "" {
		book, err := c.qf.load(e, "run")
		if err != nil {
			return nil, err
		}
		parser.Quests = c.qf.judge(book, checker.Item)
	}
	if p.goal, err = c.loadGoal(e, parser); err != nil {
		return nil, err
	}
	return p, nil
}

// scripted is the planner that replays --script.
func (c *runCommand) scripted(e *env, checker *runNames) (loop.Planner, error) {
	steps, err := script.Parser{Names: checker}.Load(c.scriptFile)
	if err != nil {
		if pe := (*os.PathError)(nil); errors.As(err, &pe) {
			return nil, usagef("run: --script: %v", err) // cannot open or read the file
		}
		return nil, configError(e, err)
	}
	return script.New(steps...), nil
}

// loadGoal reads --goal-file, or parses --goal (or the config file's or
// the default goal); for the model planner a goal the grammar refuses is a
// goal in words.
func (c *runCommand) loadGoal(e *env, parser loop.GoalParser) (loop.Goal, error) {
	if c.goalFile != "" {
		goal, err := parser.LoadFile(c.goalFile)
		if err != nil {
			if pe := (*os.PathError)(nil); errors.As(err, &pe) {
				return goal, usagef("run: %v", err) // cannot open or read the file
			}
			return goal, configError(e, err)
		}
		return goal, nil
	}
	text := c.goalText
	if text == "" {
		text = defaultGoal
	}
	goal, err := parser.Parse(text)
	if err == nil {
		return goal, nil
	}
	from := "--goal"
	if !c.bf.set["goal"] && c.acfg.Run.Goal != "" {
		from = c.acfg.File + ": run.goal" // the config file's default goal
	}
	if !c.useLLM {
		return goal, usagef("run: %s: %v (a goal in words is for --planner llm)", from, err)
	}
	// The model reads the goal in words; the grammar's error says why it
	// is one.
	goal, werr := loop.WordsGoal(text)
	if werr != nil {
		return goal, usagef("run: %s: %v", from, werr)
	}
	e.log.Info().Str("goal", goal.Text).Str("grammar", err.Error()).Msg("the goal is in words: the model says when it is met")
	return goal, nil
}

// interruptContext is cancelled by the first Ctrl-C: the run finishes its
// step and the trace; with the handler gone, a second Ctrl-C ends the
// process at once.
func interruptContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// runSession is what a run opened: the body, the trace, a remote planner,
// the progress lines; close releases them in the reverse order.
type runSession struct {
	ctx     context.Context // cancelled by Ctrl-C or the operator's "stop"
	opened  *openedBody
	conn    ipc.Conn // the body's connection, with the progress lines
	trace   io.Writer
	header  string
	onStep  []func(loop.StepRecord)
	mapped  *mapTracker // what --map-out marks
	stopPro func()      // stops the progress lines
	view    *web.View
	mem     *memory.Conn     // the memory the run records into (nil: none)
	rec     *record.Recorder // --record (nil: none)
	closers []func()
}

func (s *runSession) defer_(f func()) { s.closers = append(s.closers, f) }

func (s *runSession) close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
}

// open starts the recording, opens the body, the trace and a remote
// planner, and the progress lines.
func (c *runCommand) open(ctx context.Context, e *env, p *runPlan, s *runSession) error {
	var tap []func(*gtnh.Config)
	if c.recordFile != "" {
		rec, err := recording(e, c.recordFile, c.recordMaxMB)
		if err != nil {
			return err
		}
		s.defer_(func() { rec.Close() }) // after the client's Close
		tap = append(tap, recordInto(rec))
		s.rec = rec
	}
	opened, err := c.bf.open(ctx, e, c.acfg, p.sc, tap...)
	if err != nil {
		return err
	}
	s.defer_(opened.close)
	s.opened, s.ctx, s.conn = opened, opened.ctx, opened.conn()
	s.header = c.header(opened, p)
	if c.traceFile != "" {
		f, err := createTrace(c.traceFile)
		if err != nil {
			return usagef("run: %v", err)
		}
		s.defer_(func() { f.Close() })
		s.trace = f
	}
	if c.plannerCmd != "" || c.remotePlanner {
		pc, err := openPlanner(s.ctx, e, c.plannerCmd, c.plannerName, *c.bf.tokenFile, c.plannerTimeout, s.conn, p.reg)
		if err != nil {
			if s.ctx.Err() != nil {
				return errInterrupted
			}
			return err
		}
		s.defer_(pc.Close)
		p.pl = pc.planner
	}
	if s.rec != nil {
		// The steps and decisions go into the recording beside what the
		// server sent, for agent replay --ui.
		p.pl = web.PlanNotes(p.pl, s.rec.Plan)
		s.onStep = append(s.onStep, func(r loop.StepRecord) { s.rec.Step(web.StepNote(r)) })
	}
	if err := c.remember(e, p, s); err != nil {
		return err
	}
	if err := c.serveMetrics(e, p, s); err != nil {
		return err
	}
	if c.mapOut != "" {
		s.mapped = &mapTracker{}
		s.onStep = append(s.onStep, s.mapped.step)
	}
	if err := c.serveView(e, p, s); err != nil {
		return err
	}
	var stepProgressed func(loop.StepRecord)
	s.conn, stepProgressed, s.stopPro = e.runProgress(s.conn)
	s.defer_(s.stopPro)
	if stepProgressed != nil {
		s.onStep = append(s.onStep, stepProgressed)
	}
	return nil
}

// serveMetrics counts the run's steps, actions and planner calls, and
// serves them with the connection's and the world model's figures at
// --metrics.
func (c *runCommand) serveMetrics(e *env, p *runPlan, s *runSession) error {
	if c.mf.listen == "" {
		return nil
	}
	opts := metrics.Options{Skills: p.reg.Names()}
	switch o := s.opened; {
	case o.client != nil:
		opts.Conn, opts.World = liveConnection(o.client), o.client
	case o.world != nil:
		opts.World = o.world
	}
	rec := metrics.New(opts)
	stop, err := c.mf.start(s.ctx, e, "run", rec)
	if err != nil {
		return err
	}
	s.defer_(stop)
	p.pl = rec.Planner(p.pl)
	s.onStep = append(s.onStep, rec.OnStep)
	return nil
}

// serveView shows the run at --ui: the world, each step and decision, and
// each action as the body executes it.
func (c *runCommand) serveView(e *env, p *runPlan, s *runSession) error {
	if c.uf.listen == "" {
		return nil
	}
	opts := web.Options{Title: s.header, Goal: p.goal.Text}
	switch o := s.opened; {
	case o.client != nil:
		opts.World = o.client
	case o.world != nil:
		opts.World = o.world
	}
	v := web.New(opts)
	stop, err := c.uf.start(s.ctx, e, "run", v)
	if err != nil {
		return err
	}
	s.defer_(stop)
	s.view = v
	p.pl = v.Planner(p.pl)
	s.conn = v.Conn(s.conn)
	s.onStep = append(s.onStep, v.OnStep)
	return nil
}

// remember records what the bot observes into the memory file: --memory
// FILE, the default file on a server, none in the simulator or with
// --memory off.
func (c *runCommand) remember(e *env, p *runPlan, s *runSession) error {
	conn, closeMem, err := rememberOn(e, "run", c.memoryFile, &c.bf, p.sc, s.opened, s.conn)
	if err != nil {
		return err
	}
	s.defer_(closeMem)
	s.conn = conn
	s.mem, _ = conn.(*memory.Conn)
	return nil
}

// header is the line before the steps: the body and the goal.
func (c *runCommand) header(o *openedBody, p *runPlan) string {
	var h string
	switch {
	case c.bf.remote:
		h = fmt.Sprintf("body %s (%s), goal: %s", *c.bf.addr, o.remote.Welcome().Name, p.goal.Text)
	case c.bf.live:
		h = fmt.Sprintf("server %s as %s, goal: %s", o.server.Address, o.server.Username, p.goal.Text)
	default:
		h = fmt.Sprintf("scenario %s, goal: %s", p.sc.Name, p.goal.Text)
	}
	if p.llmPl != nil {
		h += fmt.Sprintf(", planner llm (%s at %s)", c.llmCfg.Model, c.llmCfg.URL)
	}
	return h
}

// play runs the loop, printing the header and a line per step unless the
// outcome is asked for as JSON. An error ends the run: the server ended it,
// or the loop failed.
func (c *runCommand) play(e *env, p *runPlan, s *runSession) (loop.Outcome, error) {
	cfg := loop.Config{Registry: p.reg, Conn: s.conn, Planner: p.pl, Goal: p.goal, Trace: s.trace,
		MaxSteps: c.maxSteps, MaxTicks: c.maxTicks, Log: e.log, Reflexes: rememberDeath(e, c.acfg.Survival.reflexes(), s.mem), Guard: c.acfg.Survival.guard()}
	onStep := s.onStep
	if p.llmPl != nil {
		onStep = append(onStep, p.llmPl.StepDone) // credits the knowledge that informed the step
	}
	if !c.asJSON {
		fmt.Fprintln(e.stdout, s.header)
		onStep = append(onStep, func(r loop.StepRecord) { fmt.Fprintln(e.stdout, stepLine(r)) })
	}
	if len(onStep) > 0 {
		cfg.OnStep = func(r loop.StepRecord) {
			for _, f := range onStep {
				f(r)
			}
		}
	}
	l, err := loop.New(s.ctx, cfg)
	if err != nil {
		return loop.Outcome{}, &usageError{err.Error()}
	}
	out, err := l.Run(s.ctx)
	wordsGoalMet(p.goal, &out, p.llmPl)
	s.stopPro() // no progress line after the summary
	if client := s.opened.client; client != nil && client.Err() != nil {
		// The connection ended for good (a kick that a retry cannot
		// change, or no reconnecting); the loop stopped on the failed
		// observation, and the server's reason is the outcome.
		return out, fmt.Errorf("the server ended the run: %w", client.Err())
	}
	return out, err
}

// report prints the outcome and makes it the exit status: 0 when the goal
// holds, 130 when interrupted, 1 otherwise.
func (c *runCommand) report(e *env, p *runPlan, s *runSession, out loop.Outcome) error {
	if c.asJSON {
		if err := writeJSON(e.stdout, out); err != nil {
			return err
		}
	} else {
		printOutcome(e.stdout, out, p.reg)
		if client := s.opened.client; client != nil {
			fmt.Fprintln(e.stdout, connectionLine(client.Stats()))
		}
	}
	if out.Reason == loop.Interrupted {
		return errInterrupted
	}
	if !out.GoalMet {
		return &reportedError{(&goalMissed{out.Reason}).Error()}
	}
	return nil
}

// wordsGoalMet settles a run whose goal is in words: the model planner
// ended it (finish) saying the goal is met, and the claims it made held.
func wordsGoalMet(goal loop.Goal, out *loop.Outcome, pl *llm.Planner) {
	if !goal.Words || pl == nil || out.Reason != loop.PlannerDone {
		return
	}
	if f, ok := pl.Finished(); ok && f.Met {
		out.GoalMet = true
		out.Progress = loop.Progress{Met: true}
	}
}

// errInterrupted ends a run the user interrupted (Ctrl-C): exit 130, as a
// shell reports a command ended by SIGINT.
var errInterrupted = &reportedError{"interrupted"}

// connectionLine sums up a live run's connection: packets, what was dropped
// as malformed (by packet), reconnects.
func connectionLine(st gtnh.Stats) string {
	line := fmt.Sprintf("connection: %d packets in, %d out, %d reconnects, %d corrections", st.PacketsIn, st.PacketsOut, st.Reconnects, st.Corrections)
	if len(st.Malformed) == 0 {
		return line + ", no malformed packets"
	}
	var parts []string
	for _, n := range slices.Sorted(maps.Keys(st.Malformed)) {
		parts = append(parts, fmt.Sprintf("%s=%d", n, st.Malformed[n]))
	}
	return line + ", malformed dropped: " + strings.Join(parts, " ")
}

// applyRunDefaults takes the run section of the config file for every flag
// the command line did not set.
func applyRunDefaults(acfg *agentConfig, set map[string]bool, goal, trace *string, maxSteps *int, maxTicks *int64) {
	r := acfg.Run
	if r.Goal != "" && !set["goal"] && !set["goal-file"] {
		*goal = r.Goal
	}
	if r.Trace != "" && !set["trace"] {
		*trace = r.Trace
	}
	if r.MaxSteps > 0 && !set["max-steps"] {
		*maxSteps = r.MaxSteps
	}
	if r.MaxTicks > 0 && !set["max-ticks"] {
		*maxTicks = r.MaxTicks
	}
}

// openClient joins the server; operator chat command "stop" ends the run.
func openClient(ctx context.Context, e *env, srv serverConfig, stopRun context.CancelFunc, opts ...func(*gtnh.Config)) (*gtnh.Client, error) {
	if srv.Username == "" && (srv.Auth == nil || !srv.Auth.Microsoft) {
		return nil, usagef("run: --server needs --username (or server.username in the config file)")
	}
	cfg, err := srv.clientConfig()
	if err != nil {
		return nil, usagef("run: %v", err)
	}
	cfg.Log = e.pkgLog() // the client names its component
	cfg.OnCommand = chatCommands(e.log, stopRun)
	for _, o := range opts {
		o(&cfg)
	}
	if err := cfg.Validate(); err != nil {
		return nil, usagef("run: %v", err)
	}
	client, err := gtnh.New(cfg)
	if err != nil {
		return nil, usagef("run: %v", err)
	}
	if err := client.Open(ctx); err != nil {
		return nil, err
	}
	return client, nil
}

// chatCommands handles the operator commands the client does not answer
// itself: "stop" ends the run.
func chatCommands(log zerolog.Logger, stopRun context.CancelFunc) func(gtnh.Command) {
	return func(cmd gtnh.Command) {
		if cmd.Name == "stop" {
			log.Warn().Str("from", cmd.From).Msg("stop requested in chat")
			stopRun()
		}
	}
}

// configError prints located configuration errors and makes them exit 2.
func configError(e *env, err error) error {
	printErrors(e.stderr, "", err)
	return &usageError{"invalid input (see above)"}
}

func loadScenario(arg string) (*sim.Scenario, error) {
	if arg == "" {
		return sim.DefaultScenario()
	}
	return sim.Resolve(arg)
}

// stepLine is the one human-readable line per step.
func stepLine(r loop.StepRecord) string {
	what := "(no invocation)"
	if r.Invocation != nil {
		what = r.Invocation.String()
	}
	line := fmt.Sprintf("step %3d  %-48s %-14s", r.Step, what, r.Verdict)
	if r.After != nil {
		if d := loop.InventoryChange(r.Before.Inventory, r.After.Inventory); d != "" {
			line += " " + d
		}
	}
	if r.Ticks > 0 {
		line += fmt.Sprintf(" (%d ticks)", r.Ticks)
	}
	if p := r.Planner; p != nil && p.Calls > 0 {
		line += fmt.Sprintf(" [%s: %d calls, %d+%d tokens, %.1f s]", p.Planner, p.Calls, p.TokensIn, p.TokensOut, float64(p.LatencyMS)/1000)
	}
	if r.Error != "" {
		msg := r.Error
		if len(msg) > 120 {
			msg = msg[:117] + "..."
		}
		line += "  " + firstLine(msg)
	}
	return line
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func printOutcome(w io.Writer, out loop.Outcome, reg *registry.Registry) {
	status := "goal met"
	if !out.GoalMet {
		status = "goal NOT met (" + string(out.Reason) + "): " + strings.Join(out.Progress.Unmet, ", ")
	}
	fmt.Fprintf(w, "\n%s after %d steps, %d ticks (%.1f s of game time)\n", status, out.Steps, out.Ticks, float64(out.Ticks)/20)
	if out.Why != "" {
		fmt.Fprintf(w, "  %s\n", out.Why)
	}
	names := make([]string, 0, len(out.Skills))
	for n := range out.Skills {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		st := out.Skills[n]
		line := fmt.Sprintf("  %-20s %d/%d steps succeeded", n, st.Successes, st.Attempts)
		if st.Looks > 0 {
			line += fmt.Sprintf(" (and %d looked into machines first)", st.Looks)
		}
		if d, err := reg.Describe(n); err == nil && d.Metrics.SuccessRate != nil {
			line += fmt.Sprintf(", success rate %.0f%% over %d runs", *d.Metrics.SuccessRate*100, d.Metrics.Samples)
		}
		fmt.Fprintln(w, line)
	}
}

// dialBody connects to a body served by agent serve.
func dialBody(ctx context.Context, addr, tokenFile string) (*remote.Client, error) {
	if _, err := wire.ParseAddr(addr); err != nil {
		return nil, usagef("run: --body: %v", err)
	}
	token := ""
	if tokenFile != "" {
		var err error
		if token, err = readToken(tokenFile); err != nil {
			return nil, usagef("run: --token-file: %v", err)
		}
	}
	c, err := remote.Dial(ctx, addr, remote.ClientOptions{Name: "agent run", Token: token})
	if err != nil {
		return nil, fmt.Errorf("run: connecting to the body: %w", err)
	}
	return c, nil
}
