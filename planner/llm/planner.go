package llm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/rs/zerolog"
	openai "github.com/sashabaranov/go-openai"

	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// Bounds on what one tool result puts in front of the model.
const (
	maxSkillText    = 24 << 10
	maxResourceText = 16 << 10
	maxEventText    = 300
	// maxCarried bounds the knowledge skills loaded earlier in the run
	// that later steps get in full.
	maxCarried = 4
	// maxToolCalls bounds the tool calls of one answer that are carried
	// out; the rest are ignored (and said so).
	maxToolCalls = 16
	// maxModelName bounds the model name a server reports, for the trace.
	maxModelName = 200
)

// PlannerOptions are what the model planner reads besides the model.
type PlannerOptions struct {
	// Catalog joins the registry (required) and the knowledge library
	// (optional): the catalog the model reads, load_skill and
	// read_skill_resource.
	Catalog *catalog.Catalog
	// Preload names knowledge skills given to the model in full at every
	// step (the knowledge configuration's preload list, resolved).
	Preload []string
	// Advisor selects knowledge skills for the goal and learns from how
	// they did (nil: no selection).
	Advisor Advisor
	// Packs are the enabled skill packs (nil: every pack), as the loop has
	// them.
	Packs []string
	// Log receives the planner's warnings (never the key).
	Log zerolog.Logger
}

// Planner is the model planner (--planner llm): each step it shows the
// model the goal, the observation, the last step's verdict and the skill
// catalog for the tier, lets it read skills through tools, and returns the
// invocation it chose once the registry accepts it. Build it with
// NewPlanner; one Planner serves one run.
type Planner struct {
	client *Client
	opts   PlannerOptions

	mu       sync.Mutex
	json     bool // answering with JSON objects (mode json, or auto after the server refused tools)
	started  bool
	goal     string
	selected []string
	carried  []string
	pending  *pending
	history  []string
	seen     int // the last step remembered in history
	// warnedCut: the warning that the server cut a prompt is logged once
	// a run (each occurrence is in the trace).
	warnedCut bool
	finished  *Finish // how the model ended the run
}

// pending is the last decision's knowledge, settled when its step ends.
type pending struct {
	step     int
	informed []string
}

var _ loop.Planner = (*Planner)(nil)

// NewPlanner builds the model planner.
func NewPlanner(c *Client, opts PlannerOptions) (*Planner, error) {
	if c == nil {
		return nil, errors.New("llm: the planner needs a client")
	}
	if opts.Catalog == nil || opts.Catalog.Registry == nil {
		return nil, errors.New("llm: the planner needs a catalog with a registry")
	}
	if opts.Packs == nil && opts.Catalog.Registry.Packs() != nil {
		opts.Packs = opts.Catalog.Registry.Packs().Names()
	}
	for _, n := range opts.Preload {
		if _, ok := opts.Catalog.Lookup(n); !ok {
			return nil, fmt.Errorf("llm: preload: %w %q%s", knowledge.ErrUnknownSkill, n, suggest.DidYouMean(n, catalog.Names(opts.Catalog.Entries())))
		}
	}
	return &Planner{client: c, opts: opts, json: c.cfg.Mode == ModeJSON}, nil
}

// JSONMode reports whether the planner asks for JSON answers (configured,
// or switched to after the server refused tool calls).
func (p *Planner) JSONMode() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.json
}

// StepDone tells the planner how a step ended, so that the knowledge that
// informed it is credited at once (wire it to loop.Config.OnStep). Steps
// not reported here are settled when the next observation carries them.
func (p *Planner) StepDone(rec loop.StepRecord) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.settle(rec)
}

func (p *Planner) settle(rec loop.StepRecord) {
	if p.pending == nil || p.pending.step != rec.Step {
		return
	}
	informed := p.pending.informed
	p.pending = nil
	if p.opts.Advisor == nil || len(informed) == 0 {
		return
	}
	switch rec.Verdict {
	case loop.Success:
		p.opts.Advisor.StepEnded(informed, true)
	case loop.Noop, loop.Looked, loop.StepInterrupted:
		// Nothing to do, only a look first, or cut short: neither helped
		// nor failed.
	default:
		p.opts.Advisor.StepEnded(informed, false)
	}
}

// remember keeps a line per finished step for the next prompts.
func (p *Planner) remember(rec loop.StepRecord) {
	if rec.Step <= p.seen {
		return
	}
	p.seen = rec.Step
	what := "(no invocation)"
	if rec.Invocation != nil {
		what = rec.Invocation.String()
	}
	line := fmt.Sprintf("step %d: %s -> %s", rec.Step, what, rec.Verdict)
	if rec.After != nil {
		if ch := inventoryChanges(rec.Before.Inventory, rec.After.Inventory); ch != "" {
			line += " (" + ch + ")"
		}
	}
	if rec.Error != "" {
		line += ": " + oneLine(rec.Error, 160)
	}
	p.history = append(p.history, line)
	if len(p.history) > maxHistory {
		p.history = p.history[len(p.history)-maxHistory:]
	}
}

// Plan implements loop.Planner.
func (p *Planner) Plan(ctx context.Context, goal loop.Goal, obs loop.Observation, catalog []*registry.Description) (loop.Decision, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	tr := &loop.PlannerTrace{Planner: "llm", Model: p.client.cfg.Model}
	if obs.Last != nil {
		p.settle(*obs.Last)
		p.remember(*obs.Last)
	}
	s := &stepRun{p: p, tr: tr, goal: goal, obs: obs, catalog: catalog, byName: map[string]*registry.Description{}}
	dec, err := s.run(ctx)
	for i, e := range tr.Events {
		tr.Events[i] = p.client.key.redact(e)
	}
	dec.Trace = tr
	if err != nil {
		return dec, &plannerError{msg: "llm planner: " + p.client.key.redact(err.Error()), err: err}
	}
	if dec.Invocation != nil {
		p.pending = &pending{step: obs.Step, informed: s.informed()}
	}
	return dec, nil
}

// plannerError is a step's error with the key removed from its text; it
// still unwraps to the cause (context.Canceled, ErrTimeout, *APIError).
type plannerError struct {
	msg string
	err error
}

func (e *plannerError) Error() string { return e.msg }
func (e *plannerError) Unwrap() error { return e.err }

// stepRun is one step's conversation.
type stepRun struct {
	p       *Planner
	tr      *loop.PlannerTrace
	goal    loop.Goal
	obs     loop.Observation
	catalog []*registry.Description
	byName  map[string]*registry.Description
	exec    []string // executable skills at this step, sorted
	room    int      // tokens left in the context for the results of the answer being handled
	full    []string // skills given in full
	loaded  []string // knowledge skills loaded this step
}

func (s *stepRun) event(format string, args ...any) {
	s.tr.Events = append(s.tr.Events, oneLine(fmt.Sprintf(format, args...), maxEventText))
}

// informed lists the knowledge skills behind this step's decision.
func (s *stepRun) informed() []string {
	var out []string
	for _, n := range append(slices.Clone(s.full), s.loaded...) {
		if e, ok := s.p.opts.Catalog.Lookup(n); ok && e.Kind.Knowledge() && !slices.Contains(out, e.Name) {
			out = append(out, e.Name)
		}
	}
	return out
}

func (s *stepRun) tier() string {
	if s.obs.Snapshot != nil {
		return s.obs.Snapshot.TechState
	}
	return ""
}

func (s *stepRun) run(ctx context.Context) (loop.Decision, error) {
	if err := ctx.Err(); err != nil {
		return loop.Decision{}, err
	}
	for _, d := range s.catalog {
		s.byName[d.Name] = d
		s.exec = append(s.exec, d.Name)
	}
	slices.Sort(s.exec)
	if err := s.selectKnowledge(ctx); err != nil {
		return loop.Decision{}, err
	}
	user := s.userPrompt()
	system, err := s.systemPrompt(user, s.requestBase())
	if err != nil {
		return loop.Decision{}, err
	}
	msgs := []openai.ChatCompletionMessage{systemMessage(system), userMessage(user)}
	cfg := s.p.client.cfg
	corrections, lastProblem := 0, ""
	for {
		if s.tr.Calls >= cfg.MaxCalls {
			if lastProblem != "" {
				return loop.Decision{}, fmt.Errorf("no decision after %d model calls (last problem: %s)", s.tr.Calls, oneLine(lastProblem, maxErrorText))
			}
			return loop.Decision{}, fmt.Errorf("no decision after %d model calls", s.tr.Calls)
		}
		params := s.requestBase()
		params.Messages = msgs
		jsonMode := s.p.json
		sent := requestTokens(params)
		res, err := s.p.client.chat(ctx, params)
		s.tr.Calls += res.Stats.Attempts
		s.tr.LatencyMS += res.Stats.Latency.Milliseconds()
		s.tr.Events = append(s.tr.Events, res.Stats.Events...)
		if err != nil {
			if ctx.Err() != nil {
				s.event("cancelled while waiting for the model")
				return loop.Decision{}, err
			}
			var ae *APIError
			if errors.As(err, &ae) && ae.RejectsTools() && !jsonMode {
				if cfg.Mode == ModeAuto {
					s.p.json = true
					s.event("the server does not take tool calls (HTTP %d: %s): JSON answers from now on", ae.Status, ae.Message)
					s.p.opts.Log.Warn().Int("status", ae.Status).Msg("the model server does not take tool calls; asking for JSON answers for the rest of the run")
					continue
				}
				s.event("the server does not take tool calls (HTTP %d)", ae.Status)
				return loop.Decision{}, fmt.Errorf("%w (the server does not take tool calls: try --llm-mode json)", err)
			}
			if errors.Is(err, ErrTimeout) {
				s.event("timeout: %v", err)
			} else {
				s.event("model call failed: %v", err)
			}
			return loop.Decision{}, err
		}
		c := res.Completion
		s.checkCut(c.Usage.PromptTokens, sent)
		s.tr.TokensIn += int64(c.Usage.PromptTokens)
		s.tr.TokensOut += int64(c.Usage.CompletionTokens)
		if c.Model != "" {
			// The server's word, untrusted: bounded, and without the key
			// should a proxy echo it there.
			s.tr.Model = oneLine(s.p.client.key.redact(c.Model), maxModelName)
		}
		if len(c.Choices) == 0 {
			corrections++
			lastProblem = "an answer with no choices"
			s.event("correction %d: the answer had no choices", corrections)
			msgs = append(msgs, userMessage(s.nudge(jsonMode)))
		} else {
			msg := c.Choices[0].Message
			var dec *loop.Decision
			var n int
			if jsonMode {
				msgs, dec, n, lastProblem = s.answerJSON(msgs, msg, lastProblem)
			} else {
				msgs, dec, n, lastProblem = s.answerTools(msgs, msg, lastProblem)
			}
			if dec != nil {
				return *dec, nil
			}
			corrections += n
		}
		if corrections > cfg.MaxCorrections {
			return loop.Decision{}, fmt.Errorf("the model's answers were sent back %d times, more than %d (last: %s)", corrections, cfg.MaxCorrections, oneLine(lastProblem, maxErrorText))
		}
	}
}

// nudge is what the model reads after an answer without a decision.
func (s *stepRun) nudge(jsonMode bool) string {
	if jsonMode {
		return `Answer with exactly one JSON object {"tool": ..., "arguments": {...}}: invoke_skill with an executable skill from the catalog, or finish.`
	}
	return "Answer with a tool call: invoke_skill with an executable skill from the catalog (load_skill first if you need its instructions), or finish."
}

// answerTools handles an answer in tools mode. It returns the messages for
// the next call, the decision when there is one, and the corrections made.
func (s *stepRun) answerTools(msgs []openai.ChatCompletionMessage, msg openai.ChatCompletionMessage, lastProblem string) ([]openai.ChatCompletionMessage, *loop.Decision, int, string) {
	if len(msg.ToolCalls) == 0 {
		if msg.Refusal != "" {
			s.event("refusal: %s", msg.Refusal)
			msgs = append(msgs, echoAnswer(msg), userMessage(s.nudge(false)))
			return msgs, nil, 1, "a refusal"
		}
		if strings.Contains(msg.Content, `"tool"`) {
			// Some servers leave a tool call in the text.
			if a, err := ParseAnswer(msg.Content); err == nil {
				s.event("the model wrote its %s call as text", a.Tool)
				s.measureRoom(append(msgs, echoAnswer(msg)), 1)
				out := s.handle(a.Tool, a.Args)
				if out.decision != nil {
					return msgs, out.decision, 0, lastProblem
				}
				msgs = append(msgs, echoAnswer(msg), userMessage("Result of "+a.Tool+": "+out.result))
				if out.problem != "" {
					return msgs, nil, 1, out.problem
				}
				return msgs, nil, 0, lastProblem
			}
		}
		s.event("no tool call in the answer: %q", oneLine(msg.Content, 120))
		msgs = append(msgs, echoAnswer(msg), userMessage(s.nudge(false)))
		return msgs, nil, 1, "an answer without a tool call"
	}
	calls := msg.ToolCalls
	if len(calls) > maxToolCalls {
		s.event("%d tool calls in one answer: the first %d are carried out", len(calls), maxToolCalls)
		calls = calls[:maxToolCalls]
		msg.ToolCalls = calls // every call in the history gets its result
	}
	msgs = append(msgs, echoAnswer(msg))
	s.measureRoom(msgs, len(calls))
	corrections := 0
	for i, tc := range calls {
		var out toolOutcome
		if tc.Type != "" && tc.Type != "function" {
			out = toolOutcome{result: "error: only the function tools " + strings.Join(ToolNames, ", ") + " exist", problem: "a " + oneLine(string(tc.Type), maxEchoID) + " tool call"}
		} else if args, err := ParseToolArgs(tc.Function.Name, tc.Function.Arguments); err != nil {
			s.event("malformed %s call: %v", tc.Function.Name, err)
			out = toolOutcome{result: feedback("error: " + err.Error()), problem: err.Error()}
		} else {
			out = s.handle(tc.Function.Name, args)
		}
		if out.decision != nil {
			if rest := len(calls) - i - 1; rest > 0 {
				s.event("%d tool calls after %s ignored", rest, tc.Function.Name)
			}
			return msgs, out.decision, corrections, lastProblem
		}
		if out.problem != "" {
			corrections++
			lastProblem = out.problem
		}
		msgs = append(msgs, toolMessage(out.result, tc.ID))
	}
	return msgs, nil, corrections, lastProblem
}

// answerJSON handles an answer in JSON mode.
func (s *stepRun) answerJSON(msgs []openai.ChatCompletionMessage, msg openai.ChatCompletionMessage, lastProblem string) ([]openai.ChatCompletionMessage, *loop.Decision, int, string) {
	if msg.Refusal != "" {
		s.event("refusal: %s", msg.Refusal)
		msgs = append(msgs, assistantText(msg.Refusal), userMessage(s.nudge(true)))
		return msgs, nil, 1, "a refusal"
	}
	a, err := ParseAnswer(msg.Content)
	if err != nil {
		s.event("malformed answer: %v", err)
		msgs = append(msgs, assistantText(msg.Content), userMessage(feedback("error: "+err.Error())))
		return msgs, nil, 1, err.Error()
	}
	s.measureRoom(append(msgs, assistantText(msg.Content)), 1)
	out := s.handle(a.Tool, a.Args)
	if out.decision != nil {
		return msgs, out.decision, 0, lastProblem
	}
	msgs = append(msgs, assistantText(msg.Content), userMessage("Result of "+a.Tool+": "+out.result))
	if out.problem != "" {
		return msgs, nil, 1, out.problem
	}
	return msgs, nil, 0, lastProblem
}

// toolOutcome is what one tool call did: a result for the model, or the
// decision that ends the step; problem is set when the call was refused
// and counts as a correction.
type toolOutcome struct {
	result   string
	decision *loop.Decision
	problem  string
}

func (s *stepRun) handle(tool string, a ToolArgs) toolOutcome {
	switch tool {
	case ToolLoadSkill:
		return s.loadSkill(a.Name)
	case ToolReadResource:
		return s.readResource(a.Name, a.Path)
	case ToolInvokeSkill:
		inv := loop.Invocation{Skill: a.Skill, Params: a.Params}
		if why := s.check(inv); why != "" {
			s.event("invoke_skill %s sent back: %s", inv, why)
			return toolOutcome{result: feedback("rejected: " + why + ". Choose again."), problem: why}
		}
		return toolOutcome{decision: &loop.Decision{Invocation: &inv}}
	case ToolFinish:
		return s.finish(a)
	}
	why := fmt.Sprintf("unknown tool %q%s", tool, suggest.DidYouMean(tool, ToolNames))
	return toolOutcome{result: feedback("error: " + why), problem: why}
}

func (s *stepRun) loadSkill(name string) toolOutcome {
	cat := s.p.opts.Catalog
	e, ok := cat.Lookup(name)
	if !ok {
		why := fmt.Sprintf("unknown skill %q%s", name, suggest.DidYouMean(name, catalog.Names(cat.Entries())))
		s.event("load_skill: %s", why)
		return toolOutcome{result: feedback("error: " + why)}
	}
	l, err := cat.LoadSkill(e.Name)
	if err != nil {
		s.event("load_skill %s: %v", name, err)
		return toolOutcome{result: feedback("error: " + err.Error())}
	}
	s.tr.Loaded = appendNew(s.tr.Loaded, l.Name)
	if e.Kind.Knowledge() {
		s.loaded = appendNew(s.loaded, e.Name)
		if s.p.opts.Advisor != nil {
			s.p.opts.Advisor.Applied(e.Name)
		}
		s.p.carried = appendNew(slices.DeleteFunc(s.p.carried, func(n string) bool { return n == e.Name }), e.Name)
		if len(s.p.carried) > maxCarried {
			s.p.carried = s.p.carried[len(s.p.carried)-maxCarried:]
		}
	}
	return toolOutcome{result: s.fit(l.Text(), maxSkillText, "the skill "+l.Name)}
}

func (s *stepRun) readResource(name, path string) toolOutcome {
	cat := s.p.opts.Catalog
	e, ok := cat.Lookup(name)
	switch {
	case !ok:
		why := fmt.Sprintf("unknown skill %q%s", name, suggest.DidYouMean(name, catalog.Names(catalog.Knowledge(cat.Entries()))))
		s.event("read_skill_resource: %s", why)
		return toolOutcome{result: feedback("error: " + why)}
	case !e.Kind.Knowledge() || cat.Library == nil:
		return toolOutcome{result: feedback(fmt.Sprintf("error: %s is an executable skill and has no files", name))}
	}
	data, err := cat.Library.ReadResource(e.Name, path)
	if err != nil {
		s.event("read_skill_resource %s %s: %v", e.Name, path, err)
		return toolOutcome{result: feedback("error: " + err.Error())}
	}
	s.tr.Resources = appendNew(s.tr.Resources, e.Name+"/"+path)
	if !utf8.Valid(data) {
		return toolOutcome{result: feedback(fmt.Sprintf("%s is a binary file of %d bytes", path, len(data)))}
	}
	return toolOutcome{result: s.fit(string(data), maxResourceText, e.Name+"/"+path)}
}

// check applies the registry's rules to an invocation before it reaches
// the loop: a skill offered at this tier with these packs, parameters its
// spec accepts, not blocked. It returns why not, or "".
func (s *stepRun) check(inv loop.Invocation) string {
	reg := s.p.opts.Catalog.Registry
	desc := s.byName[inv.Skill]
	if desc == nil {
		if e, ok := s.p.opts.Catalog.Lookup(inv.Skill); ok && inv.Skill != "" {
			if e.Executable != "" && s.byName[e.Executable] != nil {
				return fmt.Sprintf("%s is the knowledge skill of the executable skill %q: invoke %q", inv.Skill, e.Executable, e.Executable)
			}
			if e.Kind == knowledge.KindKnowledge {
				return fmt.Sprintf("%s is a knowledge skill (instructions to read with load_skill), not an executable skill", inv.Skill)
			}
			return fmt.Sprintf("skill %q is not available at tier %s with packs %s", inv.Skill, s.tier(), strings.Join(s.p.opts.Packs, ","))
		}
		if _, err := reg.GetSkill(inv.Skill); err == nil {
			return fmt.Sprintf("skill %q is not available at tier %s with packs %s", inv.Skill, s.tier(), strings.Join(s.p.opts.Packs, ","))
		}
		return fmt.Sprintf("unknown skill %q%s; the executable skills now are %s", inv.Skill, suggest.DidYouMean(inv.Skill, s.exec), strings.Join(s.exec, ", "))
	}
	key := inv.String()
	for _, b := range s.obs.Blocked {
		if b.String() == key {
			return fmt.Sprintf("%s is blocked: it failed the same way twice or had nothing to do, and is refused until the world changes; choose another skill or other parameters", key)
		}
	}
	sk, err := reg.GetSkillVersion(desc.Name, desc.Version)
	if err != nil {
		return err.Error()
	}
	if _, err := sk.Spec().ResolveParams(inv.Params); err != nil {
		msg := err.Error()
		msg = strings.TrimPrefix(msg, inv.Skill+": ")
		msg = strings.TrimPrefix(msg, "invalid_params: ")
		return fmt.Sprintf("bad parameters for %s: %s", inv.Skill, msg)
	}
	return ""
}

// selectKnowledge runs the Advisor at the first step and when the goal
// changes.
func (s *stepRun) selectKnowledge(ctx context.Context) error {
	p := s.p
	if !p.started || p.goal != s.goal.Text {
		p.started, p.goal, p.selected = true, s.goal.Text, nil
		if p.opts.Advisor != nil {
			adv, err := p.opts.Advisor.Select(ctx, s.goal.Text, s.tier(), p.opts.Packs)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				s.event("knowledge selection failed: %v", err)
				p.opts.Log.Warn().Err(err).Msg("knowledge selection failed; going on without")
			} else {
				for _, ev := range adv.Events {
					s.event("selection: %s", ev)
				}
				if adv.Fallback != "" {
					s.event("selection fallback: %s", adv.Fallback)
				}
				for _, n := range adv.Names {
					if e, ok := p.opts.Catalog.Lookup(n); ok && e.Kind.Knowledge() {
						p.selected = appendNew(p.selected, e.Name)
					} else {
						s.event("selection named %q, which is not a knowledge skill in the catalog", n)
					}
				}
			}
		}
	}
	s.tr.Selected = slices.Clone(p.selected)
	return nil
}

// entries is the catalog the model reads: the executable skills the loop
// offers at this tier (in its order), then the knowledge skills the tier
// admits.
func (s *stepRun) entries() []catalog.Entry {
	cat := s.p.opts.Catalog
	var out []catalog.Entry
	shown := map[string]bool{}
	if es, err := cat.ForTechState(s.tier(), s.p.opts.Packs); err == nil {
		for _, e := range es {
			switch {
			case e.Kind == knowledge.KindKnowledge:
			case e.Executable != "" && s.byName[e.Executable] != nil:
				shown[e.Executable] = true
			case e.Executable == "" && s.byName[e.Name] != nil:
				shown[e.Name] = true
			case e.Executable != "":
				e.Kind, e.Executable = knowledge.KindKnowledge, "" // its executable is not offered now
			default:
				continue // not offered by the loop
			}
			out = append(out, e)
		}
	} else {
		s.event("catalog for tier %s: %v", s.tier(), err)
	}
	for _, d := range s.catalog {
		if shown[d.Name] {
			continue
		}
		k := knowledge.KindGo
		if d.Implementation == skills.ImplTemplate {
			k = knowledge.KindTemplate
		}
		out = append(out, catalog.Entry{ID: d.Name, Name: d.Name, Kind: k, Description: d.Description, Tags: d.Tags, Tiers: d.Preconditions.TechStatesAnyOf})
	}
	return out
}

// instructions are the built-in head of the system prompt; a
// configuration's System replaces them.
const instructions = `You are the planner of an autonomous player in GregTech: New Horizons, the Minecraft 1.7.10 modpack. Each turn you choose the next executable skill to run, or end the run.

Tools:
- invoke_skill {skill, params}: run an executable skill listed below. This ends your turn; the next turn shows the result.
- finish {reason}: end the run when the goal is met or cannot be reached with these skills here.
- load_skill {name}: read a skill's full instructions. Knowledge skills explain how to play; they are read, never invoked.
- read_skill_resource {name, path}: read a file a knowledge skill names, by the path it gives (references/x.md).

Rules: an invocation listed as blocked is refused until the world changes: choose another. Ask a skill for what it can deliver now (a gathering skill for what is in reach) rather than the whole goal at once.`

const toolsNote = `

Answer with tool calls. Several load_skill or read_skill_resource calls may come before the invoke_skill or finish that ends the turn.`

const jsonNote = `

Answer with exactly one JSON object and nothing else: {"tool": "load_skill" | "read_skill_resource" | "invoke_skill" | "finish", "arguments": {...}}, for example {"tool": "invoke_skill", "arguments": {"skill": "chop_tree", "params": {"min_logs": 4}}}. The result of load_skill and read_skill_resource comes back in the next message.`

// head is the system prompt before the catalog: the instructions (or the
// configured replacement) and how to answer.
func (s *stepRun) head() string {
	var b strings.Builder
	if sys := s.p.client.cfg.System; sys != "" {
		b.WriteString(strings.TrimSpace(sys))
	} else {
		b.WriteString(instructions)
	}
	if s.goal.Words {
		b.WriteString(wordsNote)
	}
	if s.p.json {
		b.WriteString(jsonNote)
	} else {
		b.WriteString(toolsNote)
	}
	return b.String()
}

// systemPrompt builds the system message fitted to the context: the head,
// then the catalog shrunk until the first request (with the user message
// and the tools) is within PromptBudget.
func (s *stepRun) systemPrompt(user string, base openai.ChatCompletionRequest) (string, error) {
	cat := s.p.opts.Catalog
	var full []loadedSkill
	var names []string
	for _, n := range append(slices.Clone(s.p.opts.Preload), append(slices.Clone(s.p.selected), s.p.carried...)...) {
		e, ok := cat.Lookup(n)
		if !ok || slices.Contains(names, e.Name) {
			continue
		}
		l, err := cat.LoadSkill(e.Name)
		if err != nil {
			s.event("skill %s could not be loaded to give it in full: %v", e.Name, err)
			continue
		}
		names = append(names, e.Name)
		full = append(full, loadedSkill{name: l.Name, text: fullText(l)})
	}
	head := s.head() + "\n\n"
	req := base
	req.Messages = []openai.ChatCompletionMessage{systemMessage(head), userMessage(user)}
	fixed := requestTokens(req)
	cfg := s.p.client.cfg
	budget := PromptBudget(cfg.Context)
	words, entries := goalWords(s.goal.Text), s.entries()
	var plan promptPlan
	var system string
	var sent int
	// The fitter counts parts; the request as marshalled may differ by a
	// few bytes of framing: fit again with the difference taken off.
	for target := budget; ; {
		plan = fitCatalog(fixed, target, s.catalog, entries, full, words, s.tier())
		system = head + plan.catalog
		req.Messages[0] = systemMessage(system)
		sent = requestTokens(req)
		if sent <= budget || plan.overflow || target < budget-64 {
			break
		}
		target -= sent - budget
	}
	s.full = plan.full
	if sent > budget {
		s.event("the prompt is %d tokens (estimated), over its budget of %d (context %d): the catalog is as short as it gets", sent, budget, cfg.Context)
	}
	if left := len(full) - len(plan.full); left > 0 || len(plan.omitted) > 0 {
		s.event("prompt fitted to %d of %d tokens (context %d): %d of %d skills to give in full given, %d knowledge skills by name only", sent, budget, cfg.Context, len(plan.full), len(full), len(plan.omitted))
	}
	return system, nil
}

// ParamLine renders an executable skill's parameter schema on one line:
// "- `chop_tree`: min_logs (int, default 4, min 1): Logs to gather …;
// radius (…)".
func ParamLine(d *registry.Description) string {
	var parts []string
	for _, n := range d.ParamNames() {
		pd := d.Params[n]
		attrs := []string{string(pd.Type), pd.DefaultText()}
		if pd.Min != nil {
			attrs = append(attrs, "min "+strconv.FormatFloat(*pd.Min, 'g', -1, 64))
		}
		if pd.Max != nil {
			attrs = append(attrs, "max "+strconv.FormatFloat(*pd.Max, 'g', -1, 64))
		}
		if len(pd.Enum) > 0 {
			attrs = append(attrs, "one of "+strings.Join(pd.Enum, "|"))
		}
		part := fmt.Sprintf("%s (%s)", n, strings.Join(attrs, ", "))
		if desc := oneLine(pd.Description, 160); desc != "" {
			part += ": " + desc
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return fmt.Sprintf("- `%s`: no parameters", d.Name)
	}
	return fmt.Sprintf("- `%s`: %s", d.Name, strings.Join(parts, "; "))
}

func (s *stepRun) userPrompt() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Goal: %s\n\nObservation (JSON): %s\n", s.goal.Text, observationJSON(s.goal, s.obs))
	if len(s.p.history) > 0 {
		b.WriteString("\nRecent steps:\n")
		for _, h := range s.p.history {
			b.WriteString("- " + h + "\n")
		}
	}
	b.WriteString("\nChoose the next skill to run, or finish.")
	return b.String()
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// bound cuts a text at n bytes (on a rune boundary) and says so.
func bound(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head := cutAt(s, n)
	return head + fmt.Sprintf("\n\n[cut: %d more bytes]", len(s)-len(head))
}

// cutAt is the first n bytes of s (len(s) > n), moved back to a rune
// start so that no character is split.
func cutAt(s string, n int) string {
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
