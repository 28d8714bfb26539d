package loop

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// stepper is the state of a loop driven by Step: what Run keeps between
// steps, plus the step count and the skills' counts.
type stepper struct {
	*runState
	anchored bool
	n        int
	stats    map[string]Stats
}

// errStepAfterRun: Run and Step keep separate state, so a loop is driven by
// one or the other.
var errStepAfterRun = errors.New("loop: Step and Observe drive a loop that Run does not")

func (l *Loop) stepState() *stepper {
	if l.steps == nil {
		l.steps = &stepper{runState: newRunState(), stats: map[string]Stats{}}
	}
	return l.steps
}

// observe takes a fresh snapshot, anchors the goal on the first one and
// lifts the blocks whose part of the world changed.
func (l *Loop) observe(ctx context.Context, st *stepper) (*world.Snapshot, error) {
	snap, err := l.cfg.Conn.Observe(ctx)
	if err != nil {
		return nil, fmt.Errorf("loop: observing the world: %w", err)
	}
	if !st.anchored {
		st.anchored = true
		l.goal = l.cfg.Goal.Anchor(snap) // collect N: N more than at the first observation
	}
	l.seeKills(snap)
	st.unblock(snap)
	return snap, nil
}

// Observe returns what a planner would see before the next Step: a fresh
// snapshot, the goal's progress in it, the last step and the blocked
// invocations. The first Observe or Step anchors the goal ("collect N" counts
// from there).
func (l *Loop) Observe(ctx context.Context) (Observation, error) {
	if l.ran {
		return Observation{}, errStepAfterRun
	}
	st := l.stepState()
	snap, err := l.observe(ctx, st)
	if err != nil {
		return Observation{}, err
	}
	return Observation{
		Step: st.n + 1, Snapshot: snap, Progress: l.goal.Check(snap, l.cfg.Registry.Tiers(), st.skillDone),
		Last: st.last, Blocked: blockedList(st.blocked),
	}, nil
}

// Step runs one invocation chosen outside the loop (a client of the agent
// rather than a Planner) exactly as Run runs a planner's: it observes the
// world, checks the skill against the catalog of the observed tier and the
// enabled packs, refuses a blocked invocation, validates the parameters,
// executes the actions, checks the declared effects, records the outcome in
// the registry, and writes the trace line and OnStep. Failures count
// towards blocking the invocation as in Run. Budgets (MaxSteps, MaxTicks,
// MaxWall) are Run's; Step leaves them to its caller.
//
// The verdict is in the record; the error is for the machinery (the body
// connection, the trace writer).
func (l *Loop) Step(ctx context.Context, inv Invocation) (StepRecord, error) {
	if l.ran {
		return StepRecord{}, errStepAfterRun
	}
	st := l.stepState()
	snap, err := l.observe(ctx, st)
	if err != nil {
		return StepRecord{}, err
	}
	catalog, err := l.cfg.Registry.DescribeForTechState(snap.TechState, l.packs)
	if err != nil {
		return StepRecord{}, fmt.Errorf("loop: skill catalog for %s: %w", snap.TechState, err)
	}
	st.n++
	rec := StepRecord{Step: st.n, Before: Summarize(snap), Invocation: &inv}
	fp, kinds := l.invoke(ctx, &rec, snap, catalog, st.blocked)
	if rec.Verdict != StepInterrupted {
		// An interrupted step says nothing about the skill (as in Run).
		l.settle(st.runState, st.stats, rec, fp, kinds)
		r := rec
		st.last = &r
	}
	return rec, l.emit(rec)
}

// SetPacks changes the enabled skill packs of a loop driven by Step (nil:
// every pack of the registry). The packs must exist and the body must
// support every action their skills emit; on an error the packs stay as
// they were.
func (l *Loop) SetPacks(packs []string) error {
	if packs == nil {
		packs = l.cfg.Registry.Packs().Names()
	}
	if err := CheckSupport(l.cfg.Registry, packs, l.info); err != nil {
		return err
	}
	l.packs = slices.Clone(packs)
	return nil
}

// Packs are the enabled skill packs.
func (l *Loop) Packs() []string { return slices.Clone(l.packs) }
