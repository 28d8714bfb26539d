package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strings"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/llm"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// defaultGoal shows the goal planner chaining skills: sticks need planks,
// planks need logs, logs need trees.
const defaultGoal = "have 8 minecraft:stick and collect 8 minecraft:log"

const runUsage = `run [--scenario FILE] [--goal "..."] [--goal-file FILE] [--seed N] [--trace FILE]
          [--max-steps N] [--max-ticks N] [--planner goal|script|llm|ADDR] [--script FILE] [--json]
          [--planner-cmd "COMMAND ARGS"] [--planner-timeout D] [--config DIR] [--state FILE]
       run --planner llm --llm-url URL --llm-model NAME [--llm-key-env VAR] [--llm-mode auto|tools|json] [--llm-context N] [--llm-system FILE]
          [--skills-config FILE] [--skills-dir DIR] [--workspace DIR] ...
       run --server HOST:PORT --username NAME [--goal "..."] [--reconnect] [--config-file FILE]
          [--record FILE] [--record-max-mb N] ...
       run --body ADDR [--token-file FILE] [--goal "..."] ...`

// goalMissed marks a run that ended without meeting its goal (exit 1).
type goalMissed struct{ reason loop.StopReason }

func (g *goalMissed) Error() string { return "goal not met: " + string(g.reason) }

func runCmd(e *env, args []string) error {
	fs := newFlagSet(e, "run", runUsage)
	var cf configFlags
	cf.register(fs)
	var lf llmFlags
	lf.register(fs)
	var kf knowledgeFlags
	kf.register(fs)
	var bf bodyFlags
	bf.register(fs, reconnectUse+"; kicks a retry cannot change (ban, white-list, mod list) still end the run (default: one-shot)", "token to present to --body and to --planner ADDR")
	goalText := fs.String("goal", "", `goal, e.g. "collect 16 minecraft:log" (default: "`+defaultGoal+`")`)
	goalFile := fs.String("goal-file", "", "goal as YAML (items, tier, skill)")
	traceFile := fs.String("trace", "", "write the JSONL trace to FILE")
	maxSteps := fs.Int("max-steps", 100, "stop after N steps")
	maxTicks := fs.Int64("max-ticks", 0, "stop after N game ticks (0 = no limit)")
	plannerName := fs.String("planner", "goal", "goal (chains skills), script (replays --script), llm (a language model: --llm-url, --llm-model), or the ADDR of a planner to connect to (unix:///path or tcp://HOST:PORT)")
	plannerCmd := fs.String("planner-cmd", "", `start this planner program and talk to it on its stdin and stdout, e.g. "python3 my_planner.py"`)
	plannerTimeout := fs.Duration("planner-timeout", remote.DefaultPlanTimeout, "how long a planner program or ADDR has to answer one plan request")
	scriptFile := fs.String("script", "", "YAML list of invocations for --planner script")
	asJSON := fs.Bool("json", false, "print the outcome as JSON instead of step lines")
	recordFile := fs.String("record", "", "record what the server sends to FILE (see docs/recording.md; agent replay FILE)")
	recordMaxMB := fs.Int64("record-max-mb", 4096, "stop recording when the recording reaches this many MB before compression (0: no limit)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("run: unexpected argument %q", pos[0])
	}
	acfg, err := bf.choose(e, fs)
	if err != nil {
		return err
	}
	set, remoteBody, live, tokenFile := bf.set, bf.remote, bf.live, bf.tokenFile
	applyRunDefaults(acfg, set, goalText, traceFile, maxSteps, maxTicks)
	if err := bf.checkRemote("run"); err != nil {
		return err
	}
	remotePlanner := strings.Contains(*plannerName, "://")
	if *tokenFile != "" && !remoteBody && !remotePlanner {
		return usagef("run: --token-file needs --body or --planner ADDR")
	}
	if (*recordFile != "" || set["record-max-mb"]) && !live {
		return usagef("%v", errNoRecording)
	}
	if *recordMaxMB < 0 {
		return usagef("run: --record-max-mb must not be negative")
	}
	if err := bf.checkLive("run"); err != nil {
		return err
	}
	if *goalText != "" && *goalFile != "" {
		return usagef("run: give --goal or --goal-file, not both")
	}
	if *maxSteps < 1 {
		return usagef("run: --max-steps must be at least 1")
	}
	if *plannerCmd != "" && set["planner"] {
		return usagef("run: give --planner or --planner-cmd, not both")
	}
	if set["planner-timeout"] && *plannerCmd == "" && !remotePlanner {
		return usagef("run: --planner-timeout is for --planner-cmd and --planner ADDR")
	}
	if *plannerTimeout <= 0 {
		return usagef("run: --planner-timeout must be positive, e.g. 30s")
	}
	switch {
	case *plannerCmd != "" || remotePlanner:
		if *scriptFile != "" {
			return usagef("run: --script needs --planner script")
		}
		if remotePlanner {
			if _, err := wire.ParseAddr(*plannerName); err != nil {
				return usagef("run: --planner: %v", err)
			}
		}
	case *plannerName == "goal":
		if *scriptFile != "" {
			return usagef("run: --script needs --planner script")
		}
	case *plannerName == "script":
		if *scriptFile == "" {
			return usagef("run: --planner script needs --script FILE")
		}
	case *plannerName == "llm":
		if *scriptFile != "" {
			return usagef("run: --script needs --planner script")
		}
	default:
		return usagef("run: unknown planner %q%s (goal, script, llm, or a planner's address: unix:///path or tcp://HOST:PORT)", *plannerName, suggest.DidYouMean(*plannerName, []string{"goal", "script", "llm"}))
	}
	useLLM := *plannerName == "llm" && *plannerCmd == ""
	if !useLLM {
		for _, n := range append(slices.Clone(llmFlagNames), "skills-config", "skills-dir", "workspace") {
			if set[n] {
				return usagef("run: --%s is for --planner llm", n)
			}
		}
	}
	var llmCfg llm.Config
	if useLLM {
		if llmCfg, err = lf.config(acfg, set); err != nil {
			return err
		}
	}

	// Everything the run names is checked before it starts: the
	// configuration, the scenario, then the goal and the script against
	// both (a typo is exit 2 with a hint, not steps that fail).
	reg, err := cf.load(e, registry.ActiveOnly)
	if err != nil {
		return err
	}
	var llmPl *llm.Planner
	if useLLM {
		// The knowledge skills' Advisor: selection for the goal and the
		// quality store.
		if llmPl, err = llmPlanner(e, llmCfg, &kf, &cf, reg, knowledgeAdvisor); err != nil {
			return err
		}
	}
	var sc *sim.Scenario
	names := rules.DefaultNames()
	if !live && !remoteBody {
		if sc, err = loadScenario(*bf.scenario); err != nil {
			return configError(e, err)
		}
		names = sim.Names()
	}
	// A remote body's names are not known here: they are checked as on a
	// live server.
	checker := newRunNames(reg, names, live || remoteBody, e.log)
	var pl loop.Planner = planner.Goal{}
	if *plannerName == "script" {
		steps, err := planner.ScriptParser{Names: checker}.Load(*scriptFile)
		if err != nil {
			if pe := (*os.PathError)(nil); errors.As(err, &pe) {
				return usagef("run: --script: %v", err) // cannot open or read the file
			}
			return configError(e, err)
		}
		pl = planner.NewScripted(steps...)
	}
	if llmPl != nil {
		pl = llmPl
	}
	parser := loop.GoalParser{Tiers: reg.Tiers(), Names: checker}
	var goal loop.Goal
	switch {
	case *goalFile != "":
		if goal, err = parser.LoadFile(*goalFile); err != nil {
			if pe := (*os.PathError)(nil); errors.As(err, &pe) {
				return usagef("run: %v", err) // cannot open or read the file
			}
			return configError(e, err)
		}
	default:
		text := *goalText
		if text == "" {
			text = defaultGoal
		}
		if goal, err = parser.Parse(text); err != nil {
			from := "--goal"
			if !set["goal"] && acfg.Run.Goal != "" {
				from = acfg.File + ": run.goal" // the config file's default goal
			}
			if !useLLM {
				return usagef("run: %s: %v (a goal in words is for --planner llm)", from, err)
			}
			// The model reads the goal in words; the grammar's error says
			// why it is one.
			var werr error
			if goal, werr = loop.WordsGoal(text); werr != nil {
				return usagef("run: %s: %v", from, werr)
			}
			e.log.Info().Str("goal", goal.Text).Str("grammar", err.Error()).Msg("the goal is in words: the model says when it is met")
		}
	}
	var header string
	sigCtx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		// After the first Ctrl-C the run finishes its step and the trace;
		// with the handler gone, a second Ctrl-C ends the process at once.
		<-sigCtx.Done()
		stop()
	}()
	var tap []func(*gtnh.Config)
	if *recordFile != "" {
		rec, err := recording(e, *recordFile, *recordMaxMB)
		if err != nil {
			return err
		}
		defer rec.Close() // after the client's Close, deferred below
		tap = append(tap, recordInto(rec))
	}
	opened, err := bf.open(sigCtx, e, acfg, sc, tap...)
	if err != nil {
		return err
	}
	defer opened.close()
	ctx, conn, client := opened.ctx, opened.conn(), opened.client
	switch {
	case remoteBody:
		header = fmt.Sprintf("body %s (%s), goal: %s", *bf.addr, opened.remote.Welcome().Name, goal.Text)
	case live:
		header = fmt.Sprintf("server %s as %s, goal: %s", opened.server.Address, opened.server.Username, goal.Text)
	default:
		header = fmt.Sprintf("scenario %s, goal: %s", sc.Name, goal.Text)
	}

	var trace io.Writer
	if *traceFile != "" {
		f, err := createTrace(*traceFile)
		if err != nil {
			return usagef("run: %v", err)
		}
		defer f.Close()
		trace = f
	}
	if *plannerCmd != "" || remotePlanner {
		pc, err := openPlanner(ctx, e, *plannerCmd, *plannerName, *tokenFile, *plannerTimeout, conn, reg)
		if err != nil {
			if ctx.Err() != nil {
				return errInterrupted
			}
			return err
		}
		defer pc.Close()
		pl = pc.planner
	}
	conn, stepProgressed, stopProgress := e.runProgress(conn)
	defer stopProgress()
	cfg := loop.Config{Registry: reg, Conn: conn, Planner: pl, Goal: goal, Trace: trace,
		MaxSteps: *maxSteps, MaxTicks: *maxTicks, Log: e.log}
	if llmPl != nil {
		header += fmt.Sprintf(", planner llm (%s at %s)", llmCfg.Model, llmCfg.URL)
	}
	var onStep []func(loop.StepRecord)
	if stepProgressed != nil {
		onStep = append(onStep, stepProgressed)
	}
	if llmPl != nil {
		onStep = append(onStep, llmPl.StepDone) // credits the knowledge that informed the step
	}
	if !*asJSON {
		fmt.Fprintln(e.stdout, header)
		onStep = append(onStep, func(r loop.StepRecord) { fmt.Fprintln(e.stdout, stepLine(r)) })
	}
	if len(onStep) > 0 {
		cfg.OnStep = func(r loop.StepRecord) {
			for _, f := range onStep {
				f(r)
			}
		}
	}
	l, err := loop.New(ctx, cfg)
	if err != nil {
		return &usageError{err.Error()}
	}
	out, err := l.Run(ctx)
	wordsGoalMet(goal, &out, llmPl)
	stopProgress() // no progress line after the summary
	if client != nil && client.Err() != nil {
		// The connection ended for good (a kick that a retry cannot
		// change, or no reconnecting); the loop stopped on the failed
		// observation, and the server's reason is the outcome.
		return fmt.Errorf("the server ended the run: %w", client.Err())
	}
	if err != nil {
		return err
	}
	if *asJSON {
		if err := writeJSON(e.stdout, out); err != nil {
			return err
		}
	} else {
		printOutcome(e.stdout, out, reg)
		if client != nil {
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

func loadScenario(file string) (*sim.Scenario, error) {
	if file == "" {
		return sim.DefaultScenario()
	}
	return sim.LoadScenario(file)
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
