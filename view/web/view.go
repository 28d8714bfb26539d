package web

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh/record"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// WorldSource owns a world model (sim.Sim and gtnh.Client implement it):
// the view reads it when it publishes, not on the agent's path.
type WorldSource interface {
	State() *world.State
}

// Defaults of Options.
const (
	// DefaultMaxSteps is how many steps the view keeps (the page shows
	// them all; older ones are in the trace).
	DefaultMaxSteps = 500
	// DefaultMaxEvents is how many digs, placements and moves it keeps.
	DefaultMaxEvents = 500
)

// Options configure a View.
type Options struct {
	// Title is the page's header: the body and what it plays.
	Title string
	// Goal is the run's goal in words.
	Goal string
	// World, when set, is read for the world model as it is at each
	// update; otherwise the view shows the last snapshot the body's
	// Observe returned (Conn, Body).
	World WorldSource
	// MaxSteps and MaxEvents bound what the view keeps (defaults
	// DefaultMaxSteps, DefaultMaxEvents).
	MaxSteps, MaxEvents int
}

// StepView is one step of the log as the page shows it: the step as a
// recording keeps it (record.Step, its fields inline in the JSON) and its
// number in the view.
type StepView struct {
	// Seq numbers the steps the view was given: 1, 2, 3, … (Step restarts
	// with each loop a run plays).
	Seq int `json:"seq"`
	record.Step
}

// stepViewOf is a step as a recording keeps it, numbered seq.
func stepViewOf(seq int, s record.Step) StepView {
	return StepView{Seq: seq, Step: s}
}

// Event kinds.
const (
	EventDig   = "dig"
	EventPlace = "place"
	EventMove  = "move"
)

// Event is an action on the map: a dig, a placement, a move.
type Event struct {
	Seq  int            `json:"seq"`
	Kind string         `json:"kind"`
	Pos  world.BlockPos `json:"pos"`
	Item string         `json:"item,omitempty"`
	// Code is the body's result code ("" while the action runs).
	Code string `json:"code,omitempty"`
}

// DecisionView is the planner's latest decision and why.
type DecisionView struct {
	Step   int    `json:"step"`
	Skill  string `json:"skill,omitempty"`
	Params string `json:"params,omitempty"`
	Reason string `json:"reason,omitempty"`
	Done   bool   `json:"done,omitempty"`
	Error  string `json:"error,omitempty"`
	// Unmet is what the goal still lacks.
	Unmet []string `json:"unmet,omitempty"`
	// Tree is the plan the step belongs to, when the planner gives one
	// (the goal planner does), cut to MaxPlanNodes nodes.
	Tree *loop.PlanNode `json:"tree,omitempty"`
}

// rawDecision is the planner's latest answer as the hook got it: made into
// a DecisionView only when a page shows it, so that while nobody watches
// the agent pays for no formatting and no copy of the tree.
type rawDecision struct {
	step   int
	inv    *loop.Invocation
	reason string
	done   bool
	err    error
	unmet  []string
	tree   *loop.PlanNode
}

func (d rawDecision) view() *DecisionView {
	dv := &DecisionView{Step: d.step, Reason: d.reason, Done: d.done, Unmet: d.unmet, Tree: boundTree(d.tree)}
	if d.inv != nil {
		dv.Skill, dv.Params = d.inv.Skill, paramsText(d.inv.Params)
	}
	if d.err != nil {
		dv.Error = d.err.Error()
	}
	return dv
}

// decisionView is the latest decision, made from the raw one once
// (v.mu held).
func (v *View) decisionView() *DecisionView {
	if v.rawDec != nil {
		v.decision, v.rawDec = v.rawDec.view(), nil
	}
	return v.decision
}

// Bounds of the plan tree a view keeps of a decision: the page draws it
// at every update, and a planner may give any tree.
const (
	// MaxPlanNodes is the most nodes kept; the rest of a larger tree is
	// left out, the step chosen kept.
	MaxPlanNodes = record.MaxPlanNodes
	// MaxPlanText is the longest label or note kept, in bytes.
	MaxPlanText = 512
)

// boundTree copies a plan tree within MaxPlanNodes nodes and MaxPlanText
// bytes a text, depth first, keeping the way to the step: a node on it is
// kept before its siblings are.
func boundTree(root *loop.PlanNode) *loop.PlanNode {
	if root == nil {
		return nil
	}
	// The way from the root to the step, found once.
	onWay := map[*loop.PlanNode]bool{}
	var find func(n *loop.PlanNode) bool
	find = func(n *loop.PlanNode) bool {
		if n.State == loop.PlanStep {
			onWay[n] = true
			return true
		}
		for _, c := range n.Children {
			if c != nil && find(c) {
				onWay[n] = true
				return true
			}
		}
		return false
	}
	find(root)
	budget := MaxPlanNodes
	var cp func(n *loop.PlanNode) *loop.PlanNode
	cp = func(n *loop.PlanNode) *loop.PlanNode {
		budget--
		out := &loop.PlanNode{Label: cut(n.Label), State: n.State, Note: cut(n.Note)}
		// The way to the step first, then the others in order, as the
		// budget allows.
		kept := make([]*loop.PlanNode, len(n.Children))
		for pass := 0; pass < 2; pass++ {
			for i, c := range n.Children {
				if budget <= 0 || c == nil || onWay[c] != (pass == 0) {
					continue
				}
				kept[i] = cp(c)
			}
		}
		for _, c := range kept {
			if c != nil {
				out.Children = append(out.Children, c)
			}
		}
		return out
	}
	return cp(root)
}

// cut keeps at most MaxPlanText bytes of s, whole characters.
func cut(s string) string {
	if len(s) <= MaxPlanText {
		return s
	}
	s = s[:MaxPlanText]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// MoveView is the current (or last) move_to: where from and to, and the
// route the path planner finds over the world model.
type MoveView struct {
	From   world.BlockPos   `json:"from"`
	To     world.BlockPos   `json:"to"`
	Radius float64          `json:"radius"`
	Path   []world.BlockPos `json:"path,omitempty"`
	// Complete is false when the route stops short (unknown terrain, the
	// search budget, a segment of a route into terrain still loading).
	Complete bool   `json:"complete"`
	Code     string `json:"code,omitempty"`
	// PlannedBy is who planned the route: "body" (the route the body
	// plans and walks) or "view" (a body that does not say: the view's
	// own search over the world model).
	PlannedBy string `json:"planned_by,omitempty"`
	seq       int
	// routeBase is the body's route number when the move started: a
	// route numbered above it is this move's.
	routeBase uint64
}

// View holds what the page shows of a run. Build it with New; feed it
// with the hooks; serve it with Serve or Handler.
type View struct {
	opts Options

	mu       sync.Mutex
	seq      uint64 // counts changes
	stepSeq  int
	steps    []loggedStep
	events   []Event
	eventSeq int
	// decision is the latest decision as shown; rawDec a newer one not
	// yet shown (decisionView).
	decision *DecisionView
	rawDec   *rawDecision
	move     MoveView
	hasMove  bool
	moveSeq  int
	observed *world.Snapshot
	obsRev   uint64
	outcome  string
	// routes is the body's planned routes, when it tells them.
	routes RouteSource
	// looks is the way the body faces, when it tells it.
	looks LookSource

	// changed wakes the publisher (capacity 1, never waited on by a hook).
	changed chan struct{}
	pub     publisher
	replay  *replayFrames // nil in a live view
}

// New returns an empty View.
func New(opts Options) *View {
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.MaxEvents <= 0 {
		opts.MaxEvents = DefaultMaxEvents
	}
	v := &View{opts: opts, changed: make(chan struct{}, 1)}
	v.routes, _ = opts.World.(RouteSource)
	v.looks, _ = opts.World.(LookSource)
	v.pub.init()
	return v
}

// touch records a change (v.mu held) and wakes the publisher, when a
// browser watches: while nobody does, a change costs the agent a counter
// (a browser that joins gets the whole state).
func (v *View) touch() {
	v.seq++
	if v.pub.watching.Load() == 0 {
		return
	}
	select {
	case v.changed <- struct{}{}:
	default:
	}
}

// loggedStep is a step of the log: the record as the loop gave it (what
// StepNote reads of it), and its view once a page was sent it.
type loggedStep struct {
	seq  int
	rec  loop.StepRecord
	view *StepView
}

// OnStep adds a step to the log (for loop.Config.OnStep). The step is
// kept as given and put in words only when a page asks for it.
func (v *View) OnStep(rec loop.StepRecord) {
	// Only what StepNote reads is kept: a planner's trace (a model's
	// prompt and answer) is not.
	rec = loop.StepRecord{Step: rec.Step, Before: loop.Summary{Inventory: rec.Before.Inventory}, Invocation: rec.Invocation,
		Actions: rec.Actions, Results: rec.Results, After: rec.After, Effects: rec.Effects, Verdict: rec.Verdict,
		Code: rec.Code, Error: rec.Error, Ticks: rec.Ticks, Reflex: rec.Reflex}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.stepSeq++
	v.steps = appendBounded(v.steps, loggedStep{seq: v.stepSeq, rec: rec}, v.opts.MaxSteps)
	v.touch()
}

// stepViews is the log's steps after seq after, in words: those not put
// in words yet are, outside the lock, so the agent's hooks never wait for
// it.
func (v *View) stepViews(after int) []StepView {
	v.mu.Lock()
	var todo []loggedStep
	for _, s := range v.steps {
		if s.seq > after {
			todo = append(todo, s)
		}
	}
	v.mu.Unlock()
	out := make([]StepView, len(todo))
	made := false
	for i, s := range todo {
		if s.view != nil {
			out[i] = *s.view
			continue
		}
		out[i], made = stepViewOf(s.seq, StepNote(s.rec)), true
	}
	if made {
		v.mu.Lock()
		for i, j := 0, 0; i < len(v.steps) && j < len(out); i++ {
			for j < len(out) && out[j].Seq < v.steps[i].seq {
				j++
			}
			if j < len(out) && out[j].Seq == v.steps[i].seq && v.steps[i].view == nil {
				sv := out[j]
				v.steps[i].view = &sv
			}
		}
		v.mu.Unlock()
	}
	return out
}

// Ended records how the run ended.
func (v *View) Ended(out loop.Outcome) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.outcome = string(out.Reason)
	if out.GoalMet {
		v.outcome += " (goal met)"
	}
	v.touch()
}

func appendBounded[T any](s []T, x T, max int) []T {
	if len(s) >= max {
		// Drop the oldest quarter at once, so the copy is paid rarely.
		drop := max / 4
		if drop < 1 {
			drop = 1
		}
		s = append(s[:0], s[drop:]...)
	}
	return append(s, x)
}

// StepNote is a step of the loop as the page shows it and a recording
// keeps it: the skill and its parameters, the verdict, the declared
// effects that did not hold and the actions that failed, in words, and
// what the step did to the inventory.
func StepNote(rec loop.StepRecord) record.Step {
	sv := record.Step{Step: rec.Step, Verdict: string(rec.Verdict), Code: rec.Code, Error: rec.Error, Ticks: rec.Ticks}
	if rec.Invocation != nil {
		sv.Skill = rec.Invocation.Skill
		sv.Params = paramsText(rec.Invocation.Params)
	}
	if rec.Reflex != nil {
		sv.Reflex = rec.Reflex.Name + ": " + rec.Reflex.Reason
	}
	for _, e := range rec.Effects {
		if !e.OK {
			sv.Failed = append(sv.Failed, fmt.Sprintf("effect %s: %d before, %d after", e.Effect, e.Before, e.After))
		}
	}
	for i, r := range rec.Results {
		if !r.OK() && i < len(rec.Actions) {
			sv.Failed = append(sv.Failed, fmt.Sprintf("%s: %s %s", rec.Actions[i].Action.Kind(), r.Code, r.Error))
		}
	}
	if rec.After != nil {
		sv.Change = loop.InventoryChange(rec.Before.Inventory, rec.After.Inventory)
	}
	return sv
}

func paramsText(p map[string]any) string {
	if len(p) == 0 {
		return ""
	}
	return loop.Invocation{Skill: "", Params: p}.String()[1:]
}

// Planner wraps p so that the view shows each decision and its reason.
// The decision is kept as given and put in words when a page shows it.
func (v *View) Planner(p loop.Planner) loop.Planner {
	return loop.PlannerFunc(func(ctx context.Context, g loop.Goal, obs loop.Observation, skills []*registry.Description) (loop.Decision, error) {
		d, err := p.Plan(ctx, g, obs, skills)
		raw := &rawDecision{step: obs.Step, inv: d.Invocation, reason: d.Reason, done: d.Done, err: err, unmet: obs.Progress.Unmet, tree: d.Tree}
		v.mu.Lock()
		v.rawDec = raw
		v.touch()
		v.mu.Unlock()
		return d, err
	})
}

// PlanNotes wraps p so that each decision is handed to note as a
// recording keeps it (record.Recorder.Plan): the step chosen, the reason,
// what the goal still lacks and the plan tree.
func PlanNotes(p loop.Planner, note func(record.Plan)) loop.Planner {
	return loop.PlannerFunc(func(ctx context.Context, g loop.Goal, obs loop.Observation, skills []*registry.Description) (loop.Decision, error) {
		d, err := p.Plan(ctx, g, obs, skills)
		dv := rawDecision{step: obs.Step, inv: d.Invocation, reason: d.Reason, done: d.Done, err: err, unmet: obs.Progress.Unmet, tree: d.Tree}.view()
		note(record.Plan{Step: dv.Step, Skill: dv.Skill, Params: dv.Params, Reason: dv.Reason, Done: dv.Done, Error: dv.Error,
			Unmet: dv.Unmet, Tree: noteTree(dv.Tree)})
		return d, err
	})
}

// noteTree is a plan tree as a recording keeps it.
func noteTree(n *loop.PlanNode) *record.PlanNode {
	if n == nil {
		return nil
	}
	out := &record.PlanNode{Label: n.Label, State: string(n.State), Note: n.Note}
	for _, c := range n.Children {
		if c != nil {
			out.Children = append(out.Children, noteTree(c))
		}
	}
	return out
}

// planTree is a recorded plan tree as the page shows it.
func planTree(n *record.PlanNode) *loop.PlanNode {
	if n == nil {
		return nil
	}
	out := &loop.PlanNode{Label: cut(n.Label), State: loop.PlanState(n.State), Note: cut(n.Note)}
	for _, c := range n.Children {
		if c != nil {
			out.Children = append(out.Children, planTree(c))
		}
	}
	return out
}

// observe keeps the body's latest snapshot.
func (v *View) observe(s *world.Snapshot) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.observed = s
	v.obsRev++
	v.touch()
}

// acting records an action as it starts.
func (v *View) acting(a action.Action) (seq int) {
	var ev Event
	switch a := a.(type) {
	case action.BreakBlock:
		ev = Event{Kind: EventDig, Pos: a.Pos}
	case action.PlaceBlock:
		ev = Event{Kind: EventPlace, Pos: a.Pos, Item: a.Item}
	case action.MoveTo:
		ev = Event{Kind: EventMove, Pos: a.Pos}
	default:
		return 0
	}
	var from world.BlockPos
	var known bool
	if ev.Kind == EventMove && v.pub.watching.Load() > 0 {
		// Where the move starts, for its route: read from the world while
		// a browser watches, else the last observation's.
		from, known = v.worldFeet()
	}
	var routeBase uint64
	if ev.Kind == EventMove && v.routes != nil {
		routeBase, _ = v.routes.PlannedRoute()
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if ev.Kind == EventMove {
		if !known && v.observed != nil {
			from, known = v.observed.Feet(), true
		}
		v.moveSeq++
		v.move = MoveView{From: from, To: ev.Pos, Radius: a.(action.MoveTo).Radius, seq: v.moveSeq, routeBase: routeBase}
		if !known {
			v.move.From = ev.Pos
		}
		v.hasMove = true
	}
	v.eventSeq++
	ev.Seq = v.eventSeq
	v.events = appendBounded(v.events, ev, v.opts.MaxEvents)
	v.touch()
	return ev.Seq
}

// acted records an action's result.
func (v *View) acted(seq int, res ipc.Result) {
	if seq == 0 {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for i := len(v.events) - 1; i >= 0; i-- {
		if v.events[i].Seq == seq {
			v.events[i].Code = string(res.Code)
			if v.events[i].Kind == EventMove && v.hasMove {
				v.move.Code = string(res.Code)
			}
			break
		}
		if v.events[i].Seq < seq {
			break
		}
	}
	v.touch()
}

// Conn wraps the body's connection of a run: each observation and each
// action is shown as it happens. The wrapper adds a short lock per call
// and never waits for a browser.
func (v *View) Conn(c ipc.Conn) ipc.Conn { return viewConn{Conn: c, v: v} }

type viewConn struct {
	ipc.Conn
	v *View
}

func (c viewConn) Observe(ctx context.Context) (*world.Snapshot, error) {
	s, err := c.Conn.Observe(ctx)
	if err == nil && s != nil {
		c.v.observe(s)
	}
	return s, err
}

func (c viewConn) Execute(ctx context.Context, a action.Action) (ipc.Result, error) {
	seq := c.v.acting(a)
	res, err := c.Conn.Execute(ctx, a)
	if err != nil {
		res = ipc.Result{Code: ipc.IOError, Error: err.Error()}
	}
	c.v.acted(seq, res)
	return res, err
}

// Body wraps a served body (agent serve): each observation and action of
// any client is shown as it happens.
func (v *View) Body(b ipc.Body) ipc.Body {
	vb := viewBody{Body: b, v: v}
	if cs, ok := b.(ipc.ChatSource); ok {
		return viewChatBody{viewBody: vb, ChatSource: cs}
	}
	return vb
}

type viewBody struct {
	ipc.Body
	v *View
}

func (b viewBody) Observe(ctx context.Context) (*world.Snapshot, error) {
	s, err := b.Body.Observe(ctx)
	if err == nil && s != nil {
		b.v.observe(s)
	}
	return s, err
}

func (b viewBody) Execute(ctx context.Context, a action.Action) ipc.Result {
	seq := b.v.acting(a)
	res := b.Body.Execute(ctx, a)
	b.v.acted(seq, res)
	return res
}

type viewChatBody struct {
	viewBody
	ipc.ChatSource
}

var (
	_ ipc.Conn       = viewConn{}
	_ ipc.Body       = viewBody{}
	_ ipc.ChatSource = viewChatBody{}
)

// worldFeet is where the player stands in the world source, if any.
func (v *View) worldFeet() (world.BlockPos, bool) {
	if v.opts.World == nil {
		return world.BlockPos{}, false
	}
	var p world.Player
	v.opts.World.State().Update(func(tx *world.Tx) { p = tx.Player() })
	return p.Pos.Block(), true
}

// snapshot is the world to show now and its revision (a new revision
// means the map may have changed).
func (v *View) snapshot() (*world.Snapshot, uint64) {
	if v.opts.World != nil {
		st := v.opts.World.State()
		return st.Snapshot(), st.Version()
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.observed, v.obsRev
}

// Item is an inventory entry.
type Item struct {
	ID    string `json:"id"`
	Count int    `json:"count"`
}

// MachineView is a machine on the map.
type MachineView struct {
	Kind   string         `json:"kind"`
	Pos    world.BlockPos `json:"pos"`
	Formed bool           `json:"formed"`
	Active bool           `json:"active,omitempty"`
}

// Status is the state of the bot and the run at one moment: the part of
// an update every browser shares.
type Status struct {
	Mode      string         `json:"mode"`
	Title     string         `json:"title,omitempty"`
	Goal      string         `json:"goal,omitempty"`
	Seq       uint64         `json:"seq"`
	Tick      int64          `json:"tick"`
	TimeOfDay string         `json:"time_of_day"`
	Pos       world.Vec3     `json:"pos"`
	Heading   float64        `json:"heading"`
	Dimension string         `json:"dimension,omitempty"`
	Health    float64        `json:"health"`
	Food      float64        `json:"food"`
	Tier      string         `json:"tier,omitempty"`
	Inventory []Item         `json:"inventory"`
	Machines  []MachineView  `json:"machines,omitempty"`
	Decision  *DecisionView  `json:"decision,omitempty"`
	Move      *MoveView      `json:"move,omitempty"`
	MapRev    uint64         `json:"map_rev"`
	Known     bool           `json:"known"`
	Outcome   string         `json:"outcome,omitempty"`
	Replay    *ReplayInfo    `json:"replay,omitempty"`
	Feet      world.BlockPos `json:"feet"`
}

// TimeOfDay is the Minecraft clock of a world time in ticks: tick 0 is
// 06:00, a day is 24,000 ticks.
func TimeOfDay(tick int64) string {
	t := ((tick % 24000) + 24000) % 24000
	minutes := (t*60/1000 + 6*60) % (24 * 60)
	return fmt.Sprintf("%02d:%02d", minutes/60, minutes%60)
}

// status fills the snapshot's part of a Status.
func snapshotStatus(st *Status, s *world.Snapshot) {
	if s == nil {
		st.Inventory = []Item{}
		return
	}
	st.Known = true
	st.Tick, st.TimeOfDay = s.Tick, TimeOfDay(s.Tick)
	st.Pos, st.Feet, st.Dimension = s.Player.Pos, s.Feet(), s.Player.Dimension
	st.Health, st.Food, st.Tier = s.Player.Health, s.Player.Food, s.TechState
	inv := map[string]int{}
	for _, sl := range s.Inventory.Slots {
		if sl.Empty() {
			continue
		}
		id := sl.ID
		if sl.Meta != 0 {
			id = fmt.Sprintf("%s:%d", sl.ID, sl.Meta)
		}
		inv[id] += sl.Count
	}
	st.Inventory = make([]Item, 0, len(inv))
	for id, n := range inv {
		st.Inventory = append(st.Inventory, Item{ID: id, Count: n})
	}
	sort.Slice(st.Inventory, func(i, j int) bool { return st.Inventory[i].ID < st.Inventory[j].ID })
	for _, m := range s.Machines {
		st.Machines = append(st.Machines, MachineView{Kind: m.Kind, Pos: m.Pos, Formed: m.Formed, Active: m.Active})
	}
}

// heading is the direction from one position to the next, in degrees
// clockwise from north (−Z), or old when the bot did not move.
func heading(from, to world.Vec3, old float64) float64 {
	dx, dz := to.X-from.X, to.Z-from.Z
	if dx*dx+dz*dz < 1e-6 {
		return old
	}
	deg := math.Atan2(dx, -dz) * 180 / math.Pi
	if deg < 0 {
		deg += 360
	}
	return math.Round(deg)
}
