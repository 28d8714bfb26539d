package script

import (
	"context"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// Planner returns its invocations one per step, in order, whatever happens,
// and is done when they run out.
type Planner struct {
	mu    sync.Mutex
	steps []loop.Invocation
	next  int
}

var _ loop.Planner = (*Planner)(nil)

// New builds a scripted planner.
func New(steps ...loop.Invocation) *Planner {
	return &Planner{steps: append([]loop.Invocation(nil), steps...)}
}

// Plan implements loop.Planner.
func (s *Planner) Plan(_ context.Context, _ loop.Goal, _ loop.Observation, _ []*registry.Description) (loop.Decision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= len(s.steps) {
		return loop.Decision{Done: true, Reason: "script finished"}, nil
	}
	inv := s.steps[s.next]
	s.next++
	return loop.Decision{Invocation: &inv}, nil
}
