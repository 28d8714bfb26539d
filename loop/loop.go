package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// Verdict is how a step ended.
type Verdict string

// Verdicts.
const (
	// Success: every action succeeded and every declared effect holds.
	Success Verdict = "success"
	// ActionFailed: an action failed (the result says why); later actions
	// of the step were not executed.
	ActionFailed Verdict = "action_failed"
	// EffectsUnmet: the actions succeeded but a declared effect does not hold.
	EffectsUnmet Verdict = "effects_unmet"
	// SkillFailed: the skill could not produce actions (a precondition, no
	// target, missing items) or failed internally (a panic).
	SkillFailed Verdict = "skill_failed"
	// Rejected: the invocation was invalid (unknown or gated skill, bad
	// parameters, blocked); nothing ran.
	Rejected Verdict = "rejected"
	// Noop: the skill had nothing to do.
	Noop Verdict = "noop"
	// PlannerError: the planner returned an error.
	PlannerError Verdict = "planner_error"
	// Looked: the step only looked into machines whose contents the body
	// did not know (move_to, open_container, close_container: a live
	// server shows a GregTech boiler's water or a Railcraft oven's slots
	// only to a player with its window open), and their contents are known
	// now. Its declared effects are not met (a look deposits nothing), but
	// it is no failure of the skill: the learned metrics are not touched,
	// the run counts it apart (Stats.Looks), and the next invocation
	// acts on what the window showed.
	Looked Verdict = "looked"
	// StepInterrupted: the run was cancelled (Ctrl-C) while the step ran.
	// It is neither a success nor a failure of the skill: the metrics are
	// not touched, and the run ends with StopReason Interrupted.
	StepInterrupted Verdict = "interrupted"
	// Threatened: the body ended the step early because a hostile mob
	// came near (Config.Guard; the result names it: "interrupted: a
	// zombie (entity 12) 5.0 blocks away"). Like a player who stops
	// digging to face a zombie, the loop deals with the mob (the
	// reflexes run next) and the plan resumes; the step is neither a
	// success nor a failure of the skill: the learned metrics, the
	// failures in a row and the blocks are not touched.
	Threatened Verdict = "threatened"
)

// failed reports whether a verdict counts as a failure for the retry policy.
func (v Verdict) failed() bool {
	return v != Success && v != Noop && v != Looked && v != Threatened
}

// CodeContentsUnread is the code of a step that opened a machine whose
// contents were unknown, every action succeeding, and whose window still
// did not show them (a server whose windows sync another way): the
// skill cannot act on them safely. The verdict is ActionFailed.
const CodeContentsUnread = "contents_unread"

// StopReason says why a run ended.
type StopReason string

// Stop reasons.
const (
	GoalMet     StopReason = "goal_met"
	PlannerDone StopReason = "planner_done"
	MaxSteps    StopReason = "max_steps"
	MaxTicks    StopReason = "max_ticks"
	WallTime    StopReason = "wall_time"
	Interrupted StopReason = "interrupted"
	Stuck       StopReason = "stuck"
)

// Summary is a compact view of the world for traces: no block data.
type Summary struct {
	Tick int64 `json:"tick"`
	// TimeOfDay is the world's time of day (0 sunrise, 12000 sunset): a
	// step that took ticks and left it where it was says the day does not
	// turn in this world.
	TimeOfDay int64          `json:"time_of_day,omitempty"`
	Pos       world.BlockPos `json:"pos"`
	Dimension string         `json:"dimension"`
	TechState string         `json:"tech_state"`
	Health    float64        `json:"health"`
	Food      float64        `json:"food"`
	Inventory map[string]int `json:"inventory"`
}

// Summarize builds a Summary; inventory counts are keyed "id" or "id:meta".
func Summarize(w *world.Snapshot) Summary {
	inv := map[string]int{}
	for _, s := range w.Inventory.Slots {
		if s.Empty() {
			continue
		}
		key := s.ID
		if s.Meta != 0 {
			key = fmt.Sprintf("%s:%d", s.ID, s.Meta)
		}
		inv[key] += s.Count
	}
	return Summary{Tick: w.Tick, TimeOfDay: w.TimeOfDay, Pos: w.Feet(), Dimension: w.Player.Dimension, TechState: w.TechState,
		Health: w.Player.Health, Food: w.Player.Food, Inventory: inv}
}

// InventoryChange renders what changed between two inventory summaries,
// by item: "+5 minecraft:log, -4 minecraft:planks" ("" when nothing did).
func InventoryChange(before, after map[string]int) string {
	names := make([]string, 0, len(before)+len(after))
	for k := range before {
		names = append(names, k)
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	var parts []string
	for _, k := range names {
		if d := after[k] - before[k]; d != 0 {
			parts = append(parts, fmt.Sprintf("%+d %s", d, k))
		}
	}
	return strings.Join(parts, ", ")
}

// StepRecord is one step of a run; it is also the trace line.
type StepRecord struct {
	Step       int               `json:"step"`
	Before     Summary           `json:"before"`
	Invocation *Invocation       `json:"invocation,omitempty"`
	Version    int               `json:"version,omitempty"`
	Params     map[string]any    `json:"params,omitempty"`
	Actions    []action.Envelope `json:"actions,omitempty"`
	Results    []ipc.Result      `json:"results,omitempty"`
	After      *Summary          `json:"after,omitempty"`
	Effects    []EffectCheck     `json:"effects,omitempty"`
	Verdict    Verdict           `json:"verdict"`
	// Progressed marks a failed step that still moved the world the way the
	// skill intends (a declared gain or use started) or towards the goal:
	// it does not count towards blocking the invocation.
	Progressed bool   `json:"progressed,omitempty"`
	Code       string `json:"code,omitempty"`
	Error      string `json:"error,omitempty"`
	Ticks      int64  `json:"ticks"`
	// Planner is how the planner reached this step's decision, when it
	// says (Decision.Trace).
	Planner *PlannerTrace `json:"planner,omitempty"`
	// Reflex names the reflex that ran this step instead of the planner,
	// and why (nil for a planned step).
	Reflex *ReflexTrace `json:"reflex,omitempty"`
	// Kills are the mobs seen killed by the bot during the step, by kind:
	// hit by its attacks, then gone from the world near it.
	Kills map[string]int `json:"kills,omitempty"`
}

// Stats counts one skill's steps in a run.
type Stats struct {
	Attempts  int `json:"attempts"`
	Successes int `json:"successes"`
	// Looks are its Looked steps, which are not attempts.
	Looks int `json:"looks,omitempty"`
	// Threatened are its steps a mob cut short, which are not attempts.
	Threatened int `json:"threatened,omitempty"`
}

// Outcome is the end of a run.
type Outcome struct {
	Reason StopReason `json:"reason"`
	// Why says more about a Stuck run (the planner's account of what keeps
	// it from the goal; empty when the run failed too often in a row) and
	// a PlannerDone one (the reason the planner gave, if any).
	Why      string           `json:"why,omitempty"`
	GoalMet  bool             `json:"goal_met"`
	Progress Progress         `json:"progress"`
	Steps    int              `json:"steps"`
	Ticks    int64            `json:"ticks"`
	Skills   map[string]Stats `json:"skills"`
}

// Config configures a Loop.
type Config struct {
	Registry *registry.Registry
	Conn     ipc.Conn
	// Planner decides every step of Run; Step takes its invocations from
	// the caller and needs none.
	Planner Planner
	Goal    Goal
	// Packs are the enabled skill packs (nil = every pack of the registry).
	Packs []string
	// Trace receives one JSON line per step (nil = no trace).
	Trace io.Writer
	// OnStep is called after each step (for progress output).
	OnStep func(StepRecord)
	// Budgets; zero means the default (MaxSteps 200) or no limit.
	MaxSteps int
	MaxTicks int64
	MaxWall  time.Duration
	// MaxConsecutiveFailures stops a run that keeps failing (default 8).
	MaxConsecutiveFailures int
	// Reflexes preempt the plan, in order (see Reflex); nil = none. Run
	// asks them before every planned step; Step does not.
	Reflexes []Reflex
	// Guard, with a Range, has the body end a step's action early when a
	// hostile mob comes within Range blocks (ipc.Guard; the step's
	// verdict is Threatened), so the reflexes deal with it rather than
	// the bot digging on while a zombie hits it. Run guards its planned
	// steps and the reflex steps of reflexes that are not
	// GuardExempt, except when the bot is walled in (nothing reaches
	// it); Step guards nothing. A body in another process does not see
	// the guard.
	Guard ipc.Guard
	Log   zerolog.Logger
	// Now is the wall clock for MaxWall (default time.Now); the trace never
	// contains wall-clock time, so simulated runs stay byte-identical.
	Now func() time.Time
}

// Loop runs the plan-act cycle. Build it with New, then call Run once, or
// drive it one invocation at a time with Step (and Observe between steps).
// A Loop is not safe for concurrent use.
type Loop struct {
	cfg   Config
	info  ipc.Info
	packs []string
	enc   *json.Encoder
	goal  Goal // cfg.Goal anchored on the run's first observation
	// steps is the state of a loop driven by Step (nil until the first
	// Step or Observe).
	steps *stepper
	ran   bool // Run was called
	// outcome is the step's outcome for its skill's metrics, held until
	// emit has written the step's trace line (see record).
	outcome func()
	// kills are the mobs the bot hit and the kills seen, for the goal's
	// kill clauses.
	kills *killWatch
}

// New checks the configuration and the body: every action kind the enabled
// skills can emit must be supported by the body, otherwise the error names
// the skill and the action.
func New(ctx context.Context, cfg Config) (*Loop, error) {
	if cfg.Registry == nil || cfg.Conn == nil {
		return nil, errors.New("loop: Registry and Conn are required")
	}
	if cfg.Registry.Packs() == nil {
		return nil, errors.New("loop: the registry has no skill packs")
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = 200
	}
	if cfg.MaxConsecutiveFailures <= 0 {
		cfg.MaxConsecutiveFailures = 8
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	packs := cfg.Packs
	if packs == nil {
		packs = cfg.Registry.Packs().Names()
	}
	info, err := cfg.Conn.Hello(ctx)
	if err != nil {
		return nil, fmt.Errorf("loop: connecting to the body: %w", err)
	}
	if err := CheckSupport(cfg.Registry, packs, info); err != nil {
		return nil, err
	}
	l := &Loop{cfg: cfg, info: info, packs: packs, kills: newKillWatch()}
	if cfg.Trace != nil {
		l.enc = json.NewEncoder(cfg.Trace)
		l.enc.SetEscapeHTML(false)
	}
	return l, nil
}

// CheckSupport verifies that the body supports every action kind that the
// skills of the enabled packs declare in emits.
func CheckSupport(reg *registry.Registry, packs []string, info ipc.Info) error {
	supported := action.NewKindSet(info.Supports...)
	seen := map[string]bool{}
	var problems []string
	for _, name := range packs {
		p, ok := reg.Packs().Get(name)
		if !ok {
			return fmt.Errorf("loop: unknown skill pack %q (known: %s)", name, strings.Join(reg.Packs().Names(), ", "))
		}
		for _, skill := range p.Skills {
			if seen[skill] {
				continue
			}
			seen[skill] = true
			sk, err := reg.GetSkill(skill)
			if err != nil {
				continue // not usable under the policy; never offered to planners
			}
			for _, k := range sk.Spec().Emits {
				if !supported.Has(k) {
					problems = append(problems, fmt.Sprintf("skill %s (pack %s) emits %s", skill, name, k))
				}
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("loop: the %s body does not support actions the enabled skills need: %s", info.Name, strings.Join(problems, "; "))
	}
	return nil
}

// failure remembers how an invocation failed last.
type failure struct {
	code  string
	count int
}

// Run executes the loop until the goal holds, the planner is done, a budget
// runs out, the run is stuck or ctx is cancelled (Reason Interrupted; the
// trace is complete up to the last finished step). The error is for
// failures of the machinery (the body connection, the trace writer).
func (l *Loop) Run(ctx context.Context) (Outcome, error) {
	cfg := l.cfg
	if cfg.Planner == nil {
		return Outcome{}, errors.New("loop: Run needs a Planner")
	}
	if l.steps != nil {
		return Outcome{}, errors.New("loop: Run cannot follow Step or Observe")
	}
	l.ran = true
	tiers := cfg.Registry.Tiers()
	out := Outcome{Skills: map[string]Stats{}}
	start := cfg.Now()
	st := newRunState()
	var startTick int64 = -1

	for {
		if ctx.Err() != nil {
			out.Reason = Interrupted
			return out, nil
		}
		snap, err := cfg.Conn.Observe(ctx)
		if err != nil {
			if ctx.Err() != nil {
				out.Reason = Interrupted
				return out, nil
			}
			return out, fmt.Errorf("loop: observing the world: %w", err)
		}
		if startTick < 0 {
			startTick = snap.Tick
			l.goal = cfg.Goal.Anchor(snap) // collect N: N more than now
		}
		// A body may take a killed mob away a while after the step that
		// killed it (a server lets the body lie 20 ticks).
		l.seeKills(snap)
		out.Ticks = snap.Tick - startTick
		out.Progress = l.goal.Check(snap, tiers, st.skillDone)
		switch {
		case out.Progress.Met:
			out.Reason, out.GoalMet = GoalMet, true
			return out, nil
		case out.Steps >= cfg.MaxSteps:
			out.Reason = MaxSteps
			return out, nil
		case cfg.MaxTicks > 0 && out.Ticks >= cfg.MaxTicks:
			out.Reason = MaxTicks
			return out, nil
		case cfg.MaxWall > 0 && cfg.Now().Sub(start) >= cfg.MaxWall:
			out.Reason = WallTime
			return out, nil
		case st.consecutive >= cfg.MaxConsecutiveFailures:
			out.Reason = Stuck
			return out, nil
		}
		st.unblock(snap)

		out.Steps++
		var fp uint64      // the blocked invocation's part of the world after the step
		var kinds []string // the machine kinds that part includes
		rec := StepRecord{Step: out.Steps, Before: Summarize(snap)}
		catalog, err := cfg.Registry.DescribeForTechState(snap.TechState, l.packs)
		if err != nil {
			return out, fmt.Errorf("loop: skill catalog for %s: %w", snap.TechState, err)
		}
		if inv, r, rt, ok := l.reflex(snap, catalog, st); ok {
			rec.Invocation, rec.Reflex = &inv, rt
			on, facing := true, []int(nil)
			if ex, ok := r.(GuardExempt); ok {
				facing, on = ex.GuardFacing(inv)
			}
			fp, kinds = l.invoke(l.guarded(ctx, snap, on, facing), &rec, snap, catalog, st.blocked)
			if rec.Verdict == StepInterrupted {
				out.Reason = Interrupted
				return out, l.emit(rec)
			}
			if rec.Verdict.failed() {
				st.reflexFailed[rt.Name] = true
			}
			l.settle(st, out.Skills, rec, fp, kinds)
			l.watch(rec)
			if err := l.emit(rec); err != nil {
				return out, err
			}
			r := rec
			st.last = &r
			continue
		}
		obs := Observation{Step: out.Steps, Snapshot: snap, Progress: out.Progress, Last: st.last, Blocked: blockedList(st.blocked)}
		dec, err := l.plan(ctx, obs, catalog)
		rec.Planner = dec.Trace
		if err == nil {
			l.planned(snap, dec)
		}
		switch {
		case err != nil && ctx.Err() != nil:
			out.Steps--
			out.Reason = Interrupted
			return out, nil
		case errors.Is(err, ErrStuck):
			out.Steps--
			out.Reason, out.Why = Stuck, err.Error()
			return out, nil
		case err != nil:
			rec.Verdict, rec.Error = PlannerError, err.Error()
		case dec.Done:
			out.Steps--
			out.Reason, out.Why = PlannerDone, dec.Reason
			return out, nil
		case dec.Invocation == nil:
			rec.Verdict, rec.Error = PlannerError, "planner returned neither an invocation nor done"
		default:
			inv := *dec.Invocation
			rec.Invocation = &inv
			fp, kinds = l.invoke(l.guarded(ctx, snap, true, nil), &rec, snap, catalog, st.blocked)
		}
		if rec.Verdict == StepInterrupted {
			out.Reason = Interrupted
			return out, l.emit(rec)
		}
		clear(st.reflexFailed) // a planned step ran: failed reflexes may fire again
		l.settle(st, out.Skills, rec, fp, kinds)
		l.watch(rec)
		if err := l.emit(rec); err != nil {
			return out, err
		}
		r := rec
		st.last = &r
	}
}

// reflex asks the configured reflexes, in order, whether one preempts the
// plan now: the first that fires with a skill offered in the catalog, an
// invocation not blocked, and no failed step since the last planned one.
func (l *Loop) reflex(snap *world.Snapshot, catalog []*registry.Description, st *runState) (Invocation, Reflex, *ReflexTrace, bool) {
	for _, r := range l.cfg.Reflexes {
		if st.reflexFailed[r.Name()] {
			continue
		}
		inv, why, ok := r.Fire(snap)
		if !ok {
			continue
		}
		if _, blocked := st.blocked[inv.String()]; blocked {
			continue
		}
		if !slices.ContainsFunc(catalog, func(d *registry.Description) bool { return d.Name == inv.Skill }) {
			continue
		}
		return inv, r, &ReflexTrace{Name: r.Name(), Reason: why}, true
	}
	return Invocation{}, nil, nil, false
}

// guarded is the context a step of Run executes under: with the guard
// (Config.Guard) when on is set and the guard has a range, unless the bot
// is walled in as the step begins (path.Enclosed): a mob passing outside
// the walls must not cut a night's wait short, and the defend reflex,
// which leaves a bot walled in alone, could do nothing about one that
// hits through a wall but let it cut the climb out short again and
// again. The step after the climb out is guarded. facing are the mobs
// the step deals with (ipc.Guard.Facing), left out of the watch.
func (l *Loop) guarded(ctx context.Context, snap *world.Snapshot, on bool, facing []int) context.Context {
	if !on || l.cfg.Guard.Range <= 0 || path.Enclosed(snap, snap.Feet()) {
		return ctx
	}
	g := l.cfg.Guard
	if len(facing) > 0 {
		g.Facing = append(slices.Clip(g.Facing), facing...)
	}
	return ipc.WithGuard(ctx, g)
}

// watch tells the reflexes that learn from steps (StepWatcher) how a step
// ended.
func (l *Loop) watch(rec StepRecord) {
	for _, r := range l.cfg.Reflexes {
		if w, ok := r.(StepWatcher); ok {
			w.Stepped(rec)
		}
	}
}

// planned tells the reflexes that follow the plan (PlanWatcher) what the
// planner decided.
func (l *Loop) planned(snap *world.Snapshot, dec Decision) {
	for _, r := range l.cfg.Reflexes {
		if w, ok := r.(PlanWatcher); ok {
			w.Planned(snap, dec)
		}
	}
}

// runState is what a run remembers between steps: how invocations failed,
// which are blocked, the failures in a row, whether the goal's skill ran.
type runState struct {
	failures    map[string]failure    // by invocation key
	blocked     map[string]blockedInv // by invocation key
	consecutive int
	skillDone   bool
	last        *StepRecord
	// reflexFailed: reflexes whose step failed since the last planned step.
	reflexFailed map[string]bool
}

func newRunState() *runState {
	return &runState{failures: map[string]failure{}, blocked: map[string]blockedInv{}, reflexFailed: map[string]bool{}}
}

// unblock lifts the blocks whose part of the world changed: try again.
func (st *runState) unblock(snap *world.Snapshot) {
	for key, b := range st.blocked {
		if b.world != fingerprint(snap, b.kinds) {
			delete(st.blocked, key)
			delete(st.failures, key)
		}
	}
}

// invoke runs the step's invocation and returns the fingerprint of the
// invocation's part of the world after it, with the machine kinds that part
// includes (for blocking it).
func (l *Loop) invoke(ctx context.Context, rec *StepRecord, snap *world.Snapshot, catalog []*registry.Description, blocked map[string]blockedInv) (uint64, []string) {
	seen := snap
	if after := l.step(ctx, rec, snap, catalog, blocked); after != nil {
		seen = after
	}
	kinds := relevantKinds(*rec.Invocation, catalog)
	return fingerprint(seen, kinds), kinds
}

// settle books a finished step: the skill's counts in stats, the goal's
// skill clause, the failures in a row, and the invocation's failure count
// and block.
func (l *Loop) settle(st *runState, stats map[string]Stats, rec StepRecord, fp uint64, kinds []string) {
	key := ""
	if rec.Invocation != nil {
		key = rec.Invocation.String()
		s := stats[rec.Invocation.Skill]
		switch rec.Verdict {
		case Rejected:
		case Looked:
			s.Looks++
		case Threatened:
			s.Threatened++
		default:
			s.Attempts++
		}
		if rec.Verdict == Success {
			s.Successes++
		}
		stats[rec.Invocation.Skill] = s
		if l.goal.skillRunMet(rec, l.checkable(rec)) {
			st.skillDone = true
		}
	}
	switch {
	case rec.Verdict == Threatened:
		// Cut short by a mob: it says nothing about the skill or the
		// invocation (the reflexes deal with the mob, then the plan may
		// ask for the same step again).
	case rec.Verdict.failed() && rec.Progressed:
		// Short of its promise, but the world moved the way the skill
		// intends (or towards the goal): doing it again is worth it, and
		// the run is not failing in a row.
		st.consecutive = 0
		delete(st.failures, key)
	case rec.Verdict.failed():
		st.consecutive++
		// A lost connection (io_error) says nothing about the invocation:
		// it does not count towards blocking it.
		if key != "" && rec.Verdict != Rejected && rec.Code != string(ipc.IOError) {
			code := string(rec.Verdict) + "/" + rec.Code
			f := st.failures[key]
			if f.code == code {
				f.count++
			} else {
				f = failure{code: code, count: 1}
			}
			st.failures[key] = f
			if f.count >= 2 {
				st.blocked[key] = blockedInv{inv: *rec.Invocation, world: fp, kinds: kinds}
			}
		}
	default:
		st.consecutive = 0
		if key != "" {
			delete(st.failures, key)
		}
		if rec.Verdict == Noop && key != "" {
			// A noop is an answer: nothing to do here now. Asking again
			// before the world changes would get the same answer.
			st.blocked[key] = blockedInv{inv: *rec.Invocation, world: fp, kinds: kinds, noop: true}
		}
	}
}

// emit writes a finished step to the trace, then its outcome to the
// registry's metrics (see record), then calls OnStep. A step whose trace
// line could not be written leaves the metrics alone.
func (l *Loop) emit(rec StepRecord) error {
	outcome := l.outcome
	l.outcome = nil
	if l.enc != nil {
		if err := l.enc.Encode(rec); err != nil {
			return fmt.Errorf("loop: writing the trace: %w", err)
		}
	}
	if outcome != nil {
		outcome()
	}
	if l.cfg.OnStep != nil {
		l.cfg.OnStep(rec)
	}
	return nil
}

// plan asks the planner, turning a planner panic into an error.
func (l *Loop) plan(ctx context.Context, obs Observation, catalog []*registry.Description) (dec Decision, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("planner panicked: %v", v)
		}
	}()
	return l.cfg.Planner.Plan(ctx, l.goal, obs, catalog)
}

// blockedInv is an invocation blocked until its part of the world changes:
// the fingerprint over the machine kinds it could act on.
type blockedInv struct {
	inv   Invocation
	world uint64
	kinds []string
	noop  bool // it had nothing to do, rather than failing twice
}

// step validates and runs one invocation, filling rec. It returns the world
// observed after the actions, or nil when nothing ran.
func (l *Loop) step(ctx context.Context, rec *StepRecord, snap *world.Snapshot, catalog []*registry.Description, blocked map[string]blockedInv) *world.Snapshot {
	cfg := l.cfg
	inv := rec.Invocation
	reject := func(format string, args ...any) {
		rec.Verdict, rec.Error = Rejected, fmt.Sprintf(format, args...)
	}
	var desc *registry.Description
	for _, d := range catalog {
		if d.Name == inv.Skill {
			desc = d
			break
		}
	}
	if desc == nil {
		reject("skill %q is not available at tier %s with packs %s", inv.Skill, snap.TechState, strings.Join(l.packs, ","))
		return nil
	}
	if b, ok := blocked[inv.String()]; ok {
		if b.noop {
			reject("%s had nothing to do and is blocked until the world changes", inv)
		} else {
			reject("%s failed the same way twice and is blocked until the world changes", inv)
		}
		return nil
	}
	sk, err := cfg.Registry.GetSkillVersion(desc.Name, desc.Version)
	if err != nil {
		reject("%v", err)
		return nil
	}
	rec.Version = sk.Version()
	sug, err := sk.Suggest(snap, inv.Params)
	if sug.Params != nil {
		rec.Params = sug.Params.JSON()
	}
	if err != nil {
		var f *skills.Failure
		if errors.As(err, &f) {
			rec.Code, rec.Error = string(f.Code), f.Msg
			if f.Code == skills.CodeInvalidParams {
				rec.Verdict = Rejected
				return nil
			}
			rec.Verdict = SkillFailed
			switch f.Code {
			case skills.CodePanic, skills.CodeUndeclared, skills.CodeInternal:
				// The skill itself is at fault: it counts against its metrics.
				l.record(sk, false, 0)
			}
			return nil
		}
		rec.Verdict, rec.Error = SkillFailed, err.Error()
		return nil
	}
	if len(sug.Actions) == 0 {
		rec.Verdict = Noop
		return nil
	}
	ok := true
	var threat *ipc.Threat
	for _, a := range sug.Actions {
		rec.Actions = append(rec.Actions, action.Envelope{Action: a})
		res, err := cfg.Conn.Execute(ctx, a)
		if err != nil {
			res = ipc.Failf(ipc.IOError, 0, "%v", err)
		}
		rec.Results = append(rec.Results, res)
		rec.Ticks += res.Ticks
		if ctx.Err() != nil {
			// Cancelled: whatever the body answered, the step was cut
			// short by the user, not by the skill or the world.
			rec.Verdict, rec.Code = StepInterrupted, string(ipc.Interrupted)
			rec.Error = fmt.Sprintf("%s: interrupted (%v)", a.Kind(), ctx.Err())
			return nil
		}
		if th, seen := ipc.ThreatOf(res); seen && res.Code != ipc.Internal && res.Code != ipc.IOError {
			// A mob came near: the step ends here, whether the body
			// stopped the action half-way or finished it first.
			threat = &th
			rec.Code, rec.Error = string(res.Code), fmt.Sprintf("%s: interrupted: %s", a.Kind(), th)
			break
		}
		if !res.OK() {
			ok = false
			rec.Code, rec.Error = string(res.Code), fmt.Sprintf("%s: %s", a.Kind(), res.Error)
			break
		}
	}
	after, err := cfg.Conn.Observe(ctx)
	if err != nil {
		rec.Verdict = ActionFailed
		if rec.Error == "" {
			rec.Code, rec.Error = string(ipc.IOError), fmt.Sprintf("observing after the step: %v", err)
		}
		l.record(sk, false, float64(rec.Ticks))
		return nil
	}
	s := Summarize(after)
	rec.After = &s
	l.kills.hits(rec.Actions, rec.Results, snap)
	rec.Kills = l.seeKills(after)
	if threat != nil {
		// Neither a success nor a failure of the skill: its metrics are
		// not touched.
		rec.Verdict = Threatened
		return after
	}
	if !ok {
		rec.Verdict = ActionFailed
		rec.Progressed = l.progressed(sk.Spec(), sug.Params, snap, after)
		l.record(sk, false, float64(rec.Ticks))
		return after
	}
	checks, met := VerifyEffects(sk.Spec(), sug.Params, snap, after, cfg.Registry.Tiers(), cfg.Registry.Rules().Drops)
	rec.Effects = checks
	read, unread := lookedInto(rec.Actions, rec.Results, snap, after)
	switch {
	case met:
		rec.Verdict = Success
	case len(unread) > 0:
		// The window came but not what it was opened for: the skill cannot
		// act on the machine, now or on the next try.
		rec.Verdict, rec.Code = ActionFailed, CodeContentsUnread
		rec.Error = strings.Join(unread, "; ")
		l.record(sk, false, float64(rec.Ticks))
		return after
	case len(read) > 0 && onlyLooks(sug.Actions):
		rec.Verdict = Looked
		return after
	default:
		rec.Verdict = EffectsUnmet
		var unmet []string
		for _, c := range checks {
			if !c.OK {
				unmet = append(unmet, fmt.Sprintf("%s (before %d, after %d)", c.Effect, c.Before, c.After))
			}
		}
		rec.Error = "declared effects not observed: " + strings.Join(unmet, "; ")
		rec.Progressed = l.progressed(sk.Spec(), sug.Params, snap, after)
	}
	l.record(sk, met, float64(rec.Ticks))
	return after
}

// progressed reports whether a step that fell short still moved the world
// the way its skill intends or towards the run's goal: an item the skill
// declares a min_increase on went up (for any item, "*": some kind went
// up), one it declares a min_decrease on went down, an unmet item goal came
// closer, or the tier rose. chop_tree asked for 256 logs that felled the 30
// in range has not succeeded, but doing it again elsewhere is what a player
// would do; mine_block on gravel that falls into the hole it mined picked
// up a block each time.
func (l *Loop) progressed(spec *skills.Spec, p skills.Params, before, after *world.Snapshot) bool {
	count := func(item string, w *world.Snapshot) (int, bool) {
		m, err := world.ParseItemMatcher(item)
		if err != nil {
			return 0, false
		}
		return w.Inventory.Count(m), true
	}
	for key, ch := range spec.Effects.InventoryDelta {
		item := skills.ResolveKey(key, p)
		if block, ok := strings.CutPrefix(item, skills.DropPrefix); ok {
			item = dropItem(block, l.cfg.Registry.Rules().Drops)
		}
		if item == skills.AnyItem {
			// Any item: a kind that went up is a gain, one that went down a use.
			gained, lost := itemChanges(before.Inventory, after.Inventory)
			if (ch.MinIncrease != nil && gained > 0) || (ch.MinDecrease != nil && lost > 0) {
				return true
			}
			continue
		}
		b, ok := count(item, before)
		a, _ := count(item, after)
		if ok && ((ch.MinIncrease != nil && a > b) || (ch.MinDecrease != nil && a < b)) {
			return true
		}
	}
	for _, ig := range l.goal.Items {
		b, ok := count(ig.Item, before)
		a, _ := count(ig.Item, after)
		if ok && b < ig.Target() && a > b {
			return true
		}
	}
	tiers := l.cfg.Registry.Tiers()
	ib, _ := tiers.Index(before.TechState)
	ia, _ := tiers.Index(after.TechState)
	return ia > ib
}

// record notes the step's outcome for the skill's metrics; emit persists it
// once the step's trace line is written, so the metrics state, which
// RecordOutcome writes to disk at once, is never a step ahead of the trace
// when the process is killed between the two.
func (l *Loop) record(sk *registry.Executable, success bool, cost float64) {
	l.outcome = func() {
		if _, err := l.cfg.Registry.RecordOutcome(sk.Name(), sk.Version(), success, cost); err != nil {
			l.cfg.Log.Warn().Err(err).Str("skill", sk.Name()).Msg("recording the outcome failed")
		}
	}
}

// checkable reports whether the skill version that ran in rec declares
// effects the verifier can check.
func (l *Loop) checkable(rec StepRecord) bool {
	sk, err := l.cfg.Registry.GetSkillVersion(rec.Invocation.Skill, rec.Version)
	return err == nil && sk.Spec().Effects.Checkable()
}

func sameInvocation(goal, got Invocation) bool {
	if goal.Skill != got.Skill {
		return false
	}
	for k, v := range goal.Params {
		if fmt.Sprint(got.Params[k]) != fmt.Sprint(v) {
			return false
		}
	}
	return true
}

func blockedList(blocked map[string]blockedInv) []Invocation {
	keys := make([]string, 0, len(blocked))
	for k := range blocked {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]Invocation, 0, len(keys))
	for _, k := range keys {
		out = append(out, blocked[k].inv)
	}
	return out
}

// relevantKinds lists the machine kinds an invocation could act on: the
// kinds named in its skill's semantic_tags_any_of (maintain_coke_ovens:
// coke_oven) and string parameters naming a kind (a template's target).
// A machine of another kind cannot change what the invocation does.
func relevantKinds(inv Invocation, catalog []*registry.Description) []string {
	var kinds []string
	for _, d := range catalog {
		if d.Name == inv.Skill {
			kinds = append(kinds, d.Preconditions.SemanticTagsAnyOf...)
			break
		}
	}
	for _, v := range inv.Params {
		if s, ok := v.(string); ok {
			kinds = append(kinds, s)
		}
	}
	sort.Strings(kinds)
	return slices.Compact(kinds)
}

// fingerprint hashes what a retry of a blocked invocation could depend on:
// the player's position and dimension, the inventory, the tier, and the
// contents of the machines of the given kinds (slots, tanks, temperature,
// formed, whether the contents are known). Block changes are not included,
// nor are the game clock, health, food, or a machine's progress through its
// current item: those change on their own every tick, and a retry would get
// the same answer until an item or a tank actually moves.
//
// Tanks and temperatures also move on their own: a boiling boiler's water
// and steam, a heating boiler's temperature, and on a live server the
// client's bounds on what it last read (a coal boiler's water can only
// have fallen by what it can boil at its full rate, its temperature only
// have risen a degree every 12 ticks). So a tank counts by the bucket
// (1000 mB, rounded to the nearest, and whether it holds any at all: every
// transfer of the steam age moves a bucket or more), and a temperature by
// its 100 °C band, the upper end in the band (1–100 °C, 101–200 °C, …:
// GregTech boilers make steam above 100 °C). A drift of a few mB or degrees
// does not lift a block; a bucket poured or taken, or a boiler passing
// 100 °C, does.
func fingerprint(w *world.Snapshot, kinds []string) uint64 {
	s := Summarize(w)
	view := struct {
		Pos       world.BlockPos
		Dimension string
		TechState string
		Inventory map[string]int
		Held      int
		Machines  []machinePrint
	}{Pos: s.Pos, Dimension: s.Dimension, TechState: s.TechState, Inventory: s.Inventory, Held: w.Inventory.Held}
	for _, m := range w.Machines {
		if _, ok := slices.BinarySearch(kinds, m.Kind); ok {
			view.Machines = append(view.Machines, printMachine(m))
		}
	}
	b, _ := json.Marshal(view)
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

// machinePrint is a machine's part of a fingerprint.
type machinePrint struct {
	Kind    string
	Pos     world.BlockPos
	Formed  bool
	Tier    string
	Facing  string
	Unknown bool
	Slots   map[string]world.ItemStack
	Tanks   map[string]tankPrint
	Heat    int
}

// tankPrint is a tank's part of a fingerprint: its fluid and capacity, its
// amount to the nearest bucket, and whether it holds any.
type tankPrint struct {
	Fluid    string
	Capacity int
	Buckets  int
	Any      bool
}

// bucketMB is the unit a tank's amount counts in for a fingerprint.
const bucketMB = 1000

// heatBandC is the width of the temperature bands of a fingerprint.
const heatBandC = 100

func printMachine(m world.Machine) machinePrint {
	p := machinePrint{Kind: m.Kind, Pos: m.Pos, Formed: m.Formed, Tier: m.Tier, Facing: m.Facing,
		Unknown: m.ContentsUnknown, Slots: m.Slots, Heat: int(math.Ceil(m.Temperature / heatBandC))}
	if len(m.Fluids) > 0 {
		p.Tanks = make(map[string]tankPrint, len(m.Fluids))
		for name, t := range m.Fluids {
			p.Tanks[name] = tankPrint{Fluid: t.Fluid, Capacity: t.Capacity,
				Buckets: (t.Amount + bucketMB/2) / bucketMB, Any: t.Amount > 0}
		}
	}
	return p
}
