package record

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// NoteVersion is the version of a KindNote body this agent writes and
// reads: the body's first byte. A note of another version is skipped by
// Replay (ErrNoteVersion), as a record kind it does not know is.
const NoteVersion = 1

// Bounds of a note's plan tree, the same as the web view keeps of a
// decision: a recorder cuts a larger tree to them, a reader refuses one
// past them.
const (
	// MaxPlanNodes is the most nodes of a plan tree.
	MaxPlanNodes = 256
	// MaxPlanDepth is the deepest a plan tree may go (the root is depth 1).
	MaxPlanDepth = 64
)

// ErrNoteVersion marks a note of a version this agent does not read.
var ErrNoteVersion = errors.New("a note version this agent does not know")

// Note is the body of a KindNote record: what the agent's loop did, beside
// what the server sent. Exactly one field is set.
type Note struct {
	// Step is a step the loop carried out, with its verdict.
	Step *Step `json:"step,omitempty"`
	// Plan is a decision of the planner, with its plan tree.
	Plan *Plan `json:"plan,omitempty"`
}

// Step is one step of the agent's loop as the web view's step log shows
// it.
type Step struct {
	Step    int    `json:"step"`
	Skill   string `json:"skill"`
	Params  string `json:"params,omitempty"`
	Verdict string `json:"verdict"`
	Code    string `json:"code,omitempty"`
	Error   string `json:"error,omitempty"`
	// Failed lists the declared effects that did not hold and the
	// actions that failed, in words.
	Failed []string `json:"failed,omitempty"`
	// Change is what the step did to the inventory.
	Change string `json:"change,omitempty"`
	Ticks  int64  `json:"ticks"`
	// Reflex names the reflex that ran the step instead of the planner,
	// and why.
	Reflex string `json:"reflex,omitempty"`
}

// Plan is one decision of the planner: the step it chose and why, what the
// goal still lacked, and the plan tree when the planner gives one.
type Plan struct {
	Step   int      `json:"step"`
	Skill  string   `json:"skill,omitempty"`
	Params string   `json:"params,omitempty"`
	Reason string   `json:"reason,omitempty"`
	Done   bool     `json:"done,omitempty"`
	Error  string   `json:"error,omitempty"`
	Unmet  []string `json:"unmet,omitempty"`
	// Tree is at most MaxPlanNodes nodes, MaxPlanDepth deep.
	Tree *PlanNode `json:"tree,omitempty"`
}

// PlanNode is a node of a plan tree (the shape of loop.PlanNode).
type PlanNode struct {
	Label    string      `json:"label"`
	State    string      `json:"state,omitempty"`
	Note     string      `json:"note,omitempty"`
	Children []*PlanNode `json:"children,omitempty"`
}

// check walks the tree: at most MaxPlanNodes nodes, MaxPlanDepth deep, no
// null node. It stops at the first node past a bound.
func (n *PlanNode) check() error {
	count := 0
	var walk func(n *PlanNode, depth int) error
	walk = func(n *PlanNode, depth int) error {
		if n == nil {
			return errors.New("a null node")
		}
		if count++; count > MaxPlanNodes {
			return fmt.Errorf("more than %d nodes", MaxPlanNodes)
		}
		if depth > MaxPlanDepth {
			return fmt.Errorf("deeper than %d", MaxPlanDepth)
		}
		for _, c := range n.Children {
			if err := walk(c, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(n, 1)
}

// appendNote encodes a note's body: the version byte, then the JSON.
func appendNote(b []byte, n Note) ([]byte, error) {
	j, err := json.Marshal(n)
	if err != nil {
		return nil, err
	}
	return append(append(b, NoteVersion), j...), nil
}

// Note reads a KindNote body. A note of another version is a *FormatError
// wrapping ErrNoteVersion; one that holds neither a step nor a plan, or
// both, or a plan tree past MaxPlanNodes or MaxPlanDepth, is a
// *FormatError too.
func (r Record) Note() (Note, error) {
	if len(r.Body) < 1 {
		return Note{}, r.bad("a version byte", errors.New("the body is empty"))
	}
	if v := r.Body[0]; v != NoteVersion {
		return Note{}, r.bad(fmt.Sprintf("note version %d", NoteVersion), fmt.Errorf("version %d: %w", v, ErrNoteVersion))
	}
	var n Note
	if err := json.Unmarshal(r.Body[1:], &n); err != nil {
		return Note{}, r.bad("a JSON note after the version byte", err)
	}
	if (n.Step == nil) == (n.Plan == nil) {
		return Note{}, r.bad("a note of a step or a plan", errors.New(`want exactly one of "step" and "plan"`))
	}
	if n.Plan != nil && n.Plan.Tree != nil {
		if err := n.Plan.Tree.check(); err != nil {
			return Note{}, r.bad(fmt.Sprintf("a plan tree of at most %d nodes, %d deep", MaxPlanNodes, MaxPlanDepth), err)
		}
	}
	return n, nil
}

// Look is the body of a KindLook record: where the bot looked, in
// degrees (Minecraft's: yaw 0 faces south, +z, and grows clockwise seen
// from above; pitch 90 looks down).
type Look struct {
	Yaw, Pitch float32
}

const lookSize = 8

func (l Look) append(b []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, math.Float32bits(l.Yaw))
	return binary.BigEndian.AppendUint32(b, math.Float32bits(l.Pitch))
}

// Look reads a KindLook body.
func (r Record) Look() (Look, error) {
	if len(r.Body) != lookSize {
		return Look{}, r.bad("a look of 8 bytes", fmt.Errorf("the body has %d bytes", len(r.Body)))
	}
	l := Look{Yaw: math.Float32frombits(binary.BigEndian.Uint32(r.Body)), Pitch: math.Float32frombits(binary.BigEndian.Uint32(r.Body[4:]))}
	if !finite32(l.Yaw) || !finite32(l.Pitch) {
		return Look{}, r.bad("a finite yaw and pitch", fmt.Errorf("%v, %v", l.Yaw, l.Pitch))
	}
	return l, nil
}

func finite32(f float32) bool {
	return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0)
}

// Heading is the direction the bot faces in degrees clockwise from north
// (−z), 0 to 359: the web view's and the map's heading.
func (l Look) Heading() float64 {
	h := math.Mod(float64(l.Yaw)+180, 360)
	if h < 0 {
		h += 360
	}
	if h = math.Round(h); h == 360 {
		h = 0 // 359.6 rounds to north
	}
	return h
}

// Step writes a step of the agent's loop into the recording, after the
// first connection (a recording starts with one); before it, the step is
// dropped.
func (r *Recorder) Step(s Step) { r.note(Note{Step: &s}) }

// Plan writes a decision of the planner into the recording, its tree cut
// to MaxPlanNodes nodes and MaxPlanDepth deep (the way to the step kept
// first); before the first connection it is dropped.
func (r *Recorder) Plan(p Plan) {
	p.Tree = BoundTree(p.Tree)
	r.note(Note{Plan: &p})
}

func (r *Recorder) note(n Note) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.connected {
		return
	}
	b, err := appendNote(r.buf[:0], n)
	if err != nil {
		r.log.Warn().Err(err).Msg("note not recorded")
		return
	}
	b = append(b[:1], r.scrubbed(b[1:])...)
	if len(b) > MaxBody {
		r.log.Warn().Int("bytes", len(b)).Msg("note too large to record; skipped")
		return
	}
	r.buf = b
	r.write(KindNote, b)
}

// BoundTree copies a plan tree within MaxPlanNodes nodes and MaxPlanDepth
// levels, depth first, keeping the way to the step (the node of state
// "step") before the siblings of each node on it.
func BoundTree(root *PlanNode) *PlanNode {
	if root == nil {
		return nil
	}
	onWay := map[*PlanNode]bool{}
	var find func(n *PlanNode, depth int) bool
	find = func(n *PlanNode, depth int) bool {
		if depth > MaxPlanDepth {
			return false
		}
		if n.State == "step" {
			onWay[n] = true
			return true
		}
		for _, c := range n.Children {
			if c != nil && find(c, depth+1) {
				onWay[n] = true
				return true
			}
		}
		return false
	}
	find(root, 1)
	budget := MaxPlanNodes
	var cp func(n *PlanNode, depth int) *PlanNode
	cp = func(n *PlanNode, depth int) *PlanNode {
		budget--
		out := &PlanNode{Label: n.Label, State: n.State, Note: n.Note}
		if depth == MaxPlanDepth {
			return out
		}
		kept := make([]*PlanNode, len(n.Children))
		for pass := 0; pass < 2; pass++ {
			for i, c := range n.Children {
				if budget <= 0 || c == nil || onWay[c] != (pass == 0) {
					continue
				}
				kept[i] = cp(c, depth+1)
			}
		}
		for _, c := range kept {
			if c != nil {
				out.Children = append(out.Children, c)
			}
		}
		return out
	}
	return cp(root, 1)
}
