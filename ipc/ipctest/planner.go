package ipctest

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// PlannerCase is one question the planner suite asks: a goal and an
// observation (its Snapshot is required).
type PlannerCase struct {
	Name        string
	Goal        loop.Goal
	Observation loop.Observation
}

// PlannerOptions configure TestPlanner.
type PlannerOptions struct {
	// Registry holds the skills; each case's catalog is what it describes
	// for the snapshot's tier. Required.
	Registry *registry.Registry
	// Packs are the enabled packs (nil: all of the registry's).
	Packs []string
	// Prompt bounds one answer (0: 5 s).
	Prompt time.Duration
}

// TestPlanner checks a planner's answers the way the loop would before
// acting on them: each answer comes within the time limit, and is either an
// error wrapping loop.ErrStuck, done, or exactly one invocation of a skill
// in the catalog whose parameters survive the wire (JSON) and that the
// skill accepts (no invalid_params). A planner asked with a cancelled
// context answers promptly. open returns a fresh planner; it is called once
// per case and check.
func TestPlanner(t *testing.T, open func(t *testing.T) loop.Planner, cases []PlannerCase, opts PlannerOptions) {
	require.NotNil(t, opts.Registry, "PlannerOptions.Registry is required")
	prompt := opts.Prompt
	if prompt <= 0 {
		prompt = 5 * time.Second
	}
	packs := opts.Packs
	if packs == nil {
		packs = opts.Registry.Packs().Names()
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			require.NotNil(t, c.Observation.Snapshot, "the case has no snapshot")
			catalog, err := opts.Registry.DescribeForTechState(c.Observation.Snapshot.TechState, packs)
			require.NoError(t, err)
			dec, err := ask(t, open(t), context.Background(), c, catalog, prompt)
			checkDecision(t, opts.Registry, c, catalog, dec, err)

			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			dec, err = ask(t, open(t), ctx, c, catalog, prompt)
			if err == nil {
				// An answer despite the cancellation must still be valid.
				checkDecision(t, opts.Registry, c, catalog, dec, nil)
			}
		})
	}
}

func ask(t *testing.T, p loop.Planner, ctx context.Context, c PlannerCase, catalog []*registry.Description, prompt time.Duration) (loop.Decision, error) {
	t.Helper()
	require.NotNil(t, p, "open returned no planner")
	type answer struct {
		dec loop.Decision
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		dec, err := p.Plan(ctx, c.Goal, c.Observation, catalog)
		ch <- answer{dec, err}
	}()
	select {
	case a := <-ch:
		return a.dec, a.err
	case <-time.After(prompt):
		t.Fatalf("the planner did not answer within %v", prompt)
		return loop.Decision{}, nil
	}
}

func checkDecision(t *testing.T, reg *registry.Registry, c PlannerCase, catalog []*registry.Description, dec loop.Decision, err error) {
	t.Helper()
	if err != nil {
		assert.ErrorIs(t, err, loop.ErrStuck, "a planner's error other than stuck ends the step as a planner error")
		return
	}
	if dec.Done {
		assert.Nil(t, dec.Invocation, "a decision is done or one invocation, not both")
		return
	}
	require.NotNil(t, dec.Invocation, "a decision with neither an invocation nor done")
	inv := *dec.Invocation
	var desc *registry.Description
	for _, d := range catalog {
		if d.Name == inv.Skill {
			desc = d
		}
	}
	require.NotNil(t, desc, "skill %q is not in the catalog", inv.Skill)
	raw, err := json.Marshal(inv)
	require.NoError(t, err, "the invocation does not encode as JSON")
	var back loop.Invocation
	require.NoError(t, json.Unmarshal(raw, &back))
	sk, err := reg.GetSkillVersion(desc.Name, desc.Version)
	require.NoError(t, err)
	_, err = sk.Suggest(c.Observation.Snapshot, back.Params)
	var f *skills.Failure
	if errors.As(err, &f) {
		assert.NotEqual(t, skills.CodeInvalidParams, f.Code, "%s: the skill refuses the parameters: %s", inv, f.Msg)
	}
}
