package path

import (
	"fmt"
	"math"
	"time"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// Move is how one step of a path is made.
type Move uint8

// Moves. Horizontal moves go to one of the 8 neighbouring columns.
const (
	// MoveStart marks the first step: the start position.
	MoveStart Move = iota
	// MoveWalk walks to a neighbouring column at the same height,
	// breaking the blocks listed in Step.Break first when digging.
	MoveWalk
	// MoveSwim is a horizontal move with the feet in water at either end.
	MoveSwim
	// MoveJump jumps onto a neighbouring column one block higher,
	// breaking Step.Break first when digging.
	MoveJump
	// MoveDrop walks off an edge into a neighbouring column and falls.
	MoveDrop
	// MoveSwimUp swims one block straight up.
	MoveSwimUp
	// MoveSwimDown swims one block straight down.
	MoveSwimDown
	// MoveBridge places a block under a neighbouring column (Step.Place)
	// and walks onto it.
	MoveBridge
	// MovePillar jumps in place and places a block under the feet.
	MovePillar
	// MoveDigDown breaks the block under the feet and falls one block.
	MoveDigDown
)

var moveNames = [...]string{"start", "walk", "swim", "jump", "drop", "swim_up", "swim_down", "bridge", "pillar", "dig_down"}

// String returns the snake_case name of the move.
func (m Move) String() string {
	if int(m) < len(moveNames) {
		return moveNames[m]
	}
	return fmt.Sprintf("move(%d)", uint8(m))
}

// Target is where a path must end: feet at Pos exactly (Radius 0) or within
// Radius blocks (Euclidean, between block positions) of Pos — what move_to
// with a radius asks for.
type Target struct {
	Pos    world.BlockPos `json:"pos"`
	Radius float64        `json:"radius,omitempty"`
}

// At is the target of standing with the feet exactly at p.
func At(p world.BlockPos) Target { return Target{Pos: p} }

// Near is the target of standing with the feet within radius blocks of p.
func Near(p world.BlockPos, radius float64) Target { return Target{Pos: p, Radius: radius} }

// Reached reports whether feet at p satisfy the target.
func (g Target) Reached(p world.BlockPos) bool {
	if g.Radius <= 0 {
		return p == g.Pos
	}
	return float64(p.DistSq(g.Pos)) <= g.Radius*g.Radius
}

// Defaults for zero Options fields.
const (
	// DefaultMaxNodes is the node budget when Options.MaxNodes is zero.
	DefaultMaxNodes = 1_000_000
	// DefaultMaxDrop is the highest drop when Options.MaxDrop is zero:
	// three blocks is the most a player falls without damage.
	DefaultMaxDrop = 3
)

// Options tune a search. The zero value walks, jumps, drops and swims
// within the default node budget, with no time limit.
type Options struct {
	// MaxNodes bounds the expanded nodes (0: DefaultMaxNodes).
	MaxNodes int
	// MaxTime bounds the search's wall time (0: no limit).
	MaxTime time.Duration
	// MaxDrop is the highest drop in blocks (0: DefaultMaxDrop; at most 16).
	MaxDrop int
	// Dig allows breaking solid blocks in the way: walking or jumping
	// through them (cardinal moves only) and digging straight down.
	Dig bool
	// DigTicks, when set, estimates the ticks to break the block at
	// (x, y, z) (see BreakTicks); a negative, infinite or NaN answer marks
	// it unbreakable. Nil charges Costs.Dig for every solid block.
	DigTicks func(x, y, z int) float64
	// Place allows placing blocks: bridging over a gap to a cardinal
	// neighbour and pillaring straight up. The search does not count
	// blocks; count the Place entries of the result against the inventory.
	Place bool
	// Costs is the cost model; zero fields take DefaultCosts.
	Costs Costs
	// Weight inflates the heuristic (weighted A*: a node's priority is
	// g + Weight·h; 0 means 1, plain A*). A weight w > 1 finds a path
	// costing at most w times the cheapest in far fewer nodes when the
	// heuristic is much below the true cost, as it is for a route that
	// digs: the heuristic prices every block as walked, the route pays
	// for breaking it. Baritone's searches weight theirs the same way
	// (AbstractNodeCostSearch's COEFFICIENTS, 1.5 to 10).
	Weight float64
}

// maxWeight caps Options.Weight: beyond it the search is greedy in all but
// name, and the weighted priority of a far node could overflow.
const maxWeight = 100

// Reason says why a search stopped.
type Reason string

// Reasons a search stops.
const (
	// Reached: the path ends at the goal.
	Reached Reason = "reached"
	// NodeBudget: MaxNodes nodes were expanded first.
	NodeBudget Reason = "node_budget"
	// TimeBudget: MaxTime passed first.
	TimeBudget Reason = "time_budget"
	// Unreachable: every position reachable from the start was expanded
	// and none satisfies the goal.
	Unreachable Reason = "unreachable"
)

// Step is one position of a path and the move that reached it.
type Step struct {
	Pos  world.BlockPos `json:"pos"`
	Move Move           `json:"move"`
	// Cost is the cost in ticks from the start to Pos.
	Cost float64 `json:"cost"`
	// Break lists the blocks to break before the move (digging).
	Break []world.BlockPos `json:"break,omitempty"`
	// Place lists the blocks to place during the move (bridge, pillar).
	Place []world.BlockPos `json:"place,omitempty"`
}

// Result is the outcome of a search.
type Result struct {
	// Steps runs from the start (Move MoveStart) to the goal, or to the
	// best position found when Complete is false.
	Steps []Step `json:"steps"`
	// Cost is the path's cost in ticks.
	Cost float64 `json:"cost"`
	// Expanded counts the nodes taken off the open set and expanded.
	Expanded int `json:"expanded"`
	// Generated counts the distinct positions the search reached.
	Generated int `json:"generated"`
	// Complete reports whether the path reaches the goal.
	Complete bool `json:"complete"`
	// Reason says why the search stopped.
	Reason Reason `json:"reason"`
	// Elapsed is the search's wall time.
	Elapsed time.Duration `json:"elapsed"`
}

// Path returns the feet positions of the steps.
func (r Result) Path() []world.BlockPos {
	out := make([]world.BlockPos, len(r.Steps))
	for i, s := range r.Steps {
		out[i] = s.Pos
	}
	return out
}

// Packed coordinates: x and z in 26 bits, y in 12.
const (
	xzLimit = 1<<25 - 1
	yMin    = -2048
	yMax    = 2047
)

func inRange(x, y, z int) bool {
	return x >= -xzLimit && x <= xzLimit && z >= -xzLimit && z <= xzLimit && y >= yMin && y <= yMax
}

// pack maps an in-range position to a nonzero key.
func pack(x, y, z int) uint64 {
	return uint64(x+xzLimit+1)<<38 | uint64(z+xzLimit+1)<<12 | uint64(y-yMin)
}

// normalize validates options and fills defaults.
func (o Options) normalize() (Options, error) {
	if o.MaxNodes < 0 {
		return o, fmt.Errorf("path: Options.MaxNodes = %d: want ≥ 0", o.MaxNodes)
	}
	if o.MaxTime < 0 {
		return o, fmt.Errorf("path: Options.MaxTime = %v: want ≥ 0", o.MaxTime)
	}
	if o.MaxDrop < 0 || o.MaxDrop > maxDropLimit {
		return o, fmt.Errorf("path: Options.MaxDrop = %d: want 0..%d", o.MaxDrop, maxDropLimit)
	}
	if math.IsNaN(o.Weight) || math.IsInf(o.Weight, 0) || (o.Weight != 0 && o.Weight < 1) || o.Weight > maxWeight {
		return o, fmt.Errorf("path: Options.Weight = %v: want 0 (plain A*) or 1..%d", o.Weight, maxWeight)
	}
	if o.Weight == 0 {
		o.Weight = 1
	}
	if o.MaxNodes == 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	if o.MaxDrop == 0 {
		o.MaxDrop = DefaultMaxDrop
	}
	c, err := o.Costs.withDefaults()
	if err != nil {
		return o, err
	}
	o.Costs = c
	return o, nil
}

func checkPos(what string, p world.BlockPos) error {
	if !inRange(p.X, p.Y, p.Z) {
		return fmt.Errorf("path: %s %v outside the searchable range (|x|, |z| ≤ %d, y %d..%d)", what, p, xzLimit, yMin, yMax)
	}
	return nil
}

func checkGoal(g Target) error {
	if err := checkPos("goal", g.Pos); err != nil {
		return err
	}
	if math.IsNaN(g.Radius) || math.IsInf(g.Radius, 0) || g.Radius < 0 {
		return fmt.Errorf("path: goal radius %v: want a finite number ≥ 0", g.Radius)
	}
	return nil
}
