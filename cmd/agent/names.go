package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// runNames checks what a goal, a goal file or a script names against the
// run's configuration before the run starts: skills and their parameters
// against the registry, items and blocks against the world's name table.
//
// The rule for names the configuration does not list: in the simulated
// world everything that exists comes from the configuration, so any unknown
// name is an error. On a live server, vanilla ids (the configuration lists
// every 1.7.10 block and item), ore-dictionary names and tool classes (an
// item carries only the tags the configuration gives it) are still checked,
// but a mod id the configuration does not list ("gregtech:gt.metaitem.01")
// may well exist on the server: it is a warning, not an error.
type runNames struct {
	reg   *registry.Registry
	names *rules.Names
	live  bool
	log   zerolog.Logger

	mu     sync.Mutex
	warned map[string]bool
}

var _ loop.Names = (*runNames)(nil)

func newRunNames(reg *registry.Registry, names *rules.Names, live bool, log zerolog.Logger) *runNames {
	return &runNames{reg: reg, names: names, live: live, log: log, warned: map[string]bool{}}
}

// Item implements loop.Names.
func (n *runNames) Item(s string) error { return n.lenient(s, n.names.CheckItem(s)) }

func (n *runNames) block(s string) error { return n.lenient(s, n.names.CheckBlock(s)) }

// lenient lets an unknown mod id through on a live server, with one warning
// per name.
func (n *runNames) lenient(s string, err error) error {
	var ue *rules.UnknownNameError
	if !n.live || !errors.As(err, &ue) || !ue.Mod {
		return err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.warned[s] {
		n.warned[s] = true
		ev := n.log.Warn().Str(ue.Kind, s)
		if ue.Suggestion != "" {
			ev = ev.Str("nearest_known", ue.Suggestion)
		}
		ev.Msgf("the configuration does not know this %s; kept, since the server may have it", ue.Kind)
	}
	return nil
}

// Invocation implements loop.Names: the skill must be one planners can run
// (active, with its implementation), every parameter one it declares, with
// a value of the declared type, known item and block names, and every
// required parameter given.
func (n *runNames) Invocation(inv loop.Invocation) error {
	sk, err := n.reg.GetSkill(inv.Skill)
	if errors.Is(err, registry.ErrUnknownSkill) {
		return fmt.Errorf("unknown skill %q%s", inv.Skill, suggest.DidYouMean(inv.Skill, n.reg.ListSkills()))
	}
	if err != nil {
		return err
	}
	spec := sk.Spec()
	declared := spec.ParamNames()
	keys := make([]string, 0, len(inv.Params))
	for k := range inv.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var problems []string
	for _, k := range keys {
		ps, ok := spec.Params[k]
		if !ok {
			problems = append(problems, fmt.Sprintf("unknown parameter %q%s (%s takes %s)",
				k, suggest.DidYouMean(k, declared), inv.Skill, orNone(declared)))
			continue
		}
		v, err := ps.Check(inv.Params[k])
		if err == nil {
			switch ps.Type {
			case action.TypeItemID:
				err = n.Item(v.(string))
			case action.TypeBlockID:
				err = n.block(v.(string))
			}
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("parameter %q: %v", k, err))
		}
	}
	for _, k := range declared {
		if _, given := inv.Params[k]; !given && spec.Params[k].Required {
			problems = append(problems, fmt.Sprintf("missing required parameter %q (%s)", k, spec.Params[k].Type))
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}
