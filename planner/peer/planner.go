package peer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// DefaultPlanTimeout is how long a remote planner has to answer one plan
// request when PlannerOptions.Timeout is zero.
const DefaultPlanTimeout = 30 * time.Second

// PlannerOptions configure a Planner.
type PlannerOptions struct {
	// Timeout bounds each plan request (0: DefaultPlanTimeout). A planner
	// that does not answer in time gets a cancel for the request, and the
	// step ends as a planner error.
	Timeout time.Duration
	// Describe adds to a planner error what the caller knows about the
	// peer (a child process's exit status and stderr tail); nil adds
	// nothing.
	Describe func(err error) error
}

// Planner is a loop.Planner in another process: each Plan is a plan
// request on a connection whose peer said hello as a planner. Build the
// connection with remote.NewClient or remote.Dial and
// remote.ClientOptions.Handle set to remote.AgentHandler, so the planner
// can ask about the world while it thinks.
type Planner struct {
	c    *remote.Client
	opts PlannerOptions
}

var _ loop.Planner = (*Planner)(nil)

// NewPlanner checks that the peer is a planner and returns the loop's side
// of it.
func NewPlanner(c *remote.Client, opts PlannerOptions) (*Planner, error) {
	if w := c.Welcome(); w.Role != wire.RolePlanner {
		return nil, fmt.Errorf("the peer said hello as %q, not as a planner", w.Role)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultPlanTimeout
	}
	return &Planner{c: c, opts: opts}, nil
}

// Plan implements loop.Planner: it sends the goal, the observation and the
// catalog, and decodes the answer strictly (wire.DecodePlanAnswer). An
// unknown skill or bad parameters are not errors here: the loop rejects
// the step and the next observation tells the planner why.
func (p *Planner) Plan(ctx context.Context, goal loop.Goal, obs loop.Observation, catalog []*registry.Description) (loop.Decision, error) {
	req, err := NewPlanRequest(goal, obs, catalog)
	if err != nil {
		return loop.Decision{}, err
	}
	cctx, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	defer cancel()
	var raw json.RawMessage
	err = p.c.Call(cctx, wire.TypePlan, req, &raw)
	switch {
	case err != nil && ctx.Err() != nil:
		return loop.Decision{}, ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return loop.Decision{}, p.describe(fmt.Errorf("the planner did not answer within %s", p.opts.Timeout))
	case errors.Is(err, remote.ErrClosed):
		return loop.Decision{}, p.describe(fmt.Errorf("the planner is gone: %w", err))
	case err != nil:
		return loop.Decision{}, p.describe(fmt.Errorf("the planner answered with an error: %w", err))
	}
	a, err := wire.DecodePlanAnswer(raw)
	if err != nil {
		return loop.Decision{}, err
	}
	dec := loop.Decision{Done: a.Done, Reason: a.Reason}
	if a.Invocation != nil {
		dec.Invocation = &loop.Invocation{Skill: a.Invocation.Skill, Params: a.Invocation.Params}
	}
	return dec, nil
}

func (p *Planner) describe(err error) error {
	if p.opts.Describe == nil {
		return err
	}
	return p.opts.Describe(err)
}

// NewPlanRequest builds the payload of a plan request.
func NewPlanRequest(goal loop.Goal, obs loop.Observation, catalog []*registry.Description) (wire.PlanRequest, error) {
	var req wire.PlanRequest
	var err error
	if req.Goal, err = marshalJSON(goal); err != nil {
		return req, fmt.Errorf("encoding the goal: %w", err)
	}
	if req.Observation, err = marshalJSON(obs); err != nil {
		return req, fmt.Errorf("encoding the observation: %w", err)
	}
	if catalog == nil {
		catalog = []*registry.Description{}
	}
	if req.Catalog, err = marshalJSON(catalog); err != nil {
		return req, fmt.Errorf("encoding the catalog: %w", err)
	}
	return req, nil
}

func marshalJSON(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	return json.RawMessage(b), err
}
