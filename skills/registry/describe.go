package registry

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
)

// ParamDescription is a parameter as planners see it.
type ParamDescription struct {
	Type        action.ParamType `json:"type"`
	Default     any              `json:"default"`
	Description string           `json:"description"`
	Required    bool             `json:"required"`
	Min         *float64         `json:"min,omitempty"`
	Max         *float64         `json:"max,omitempty"`
	Enum        []string         `json:"enum,omitempty"`
}

// DefaultText is how listings show the parameter's default: "required", or
// "default " and the JSON value.
func (p ParamDescription) DefaultText() string {
	if p.Required {
		return "required"
	}
	b, _ := json.Marshal(p.Default)
	return "default " + string(b)
}

// ParamNames returns the names of the description's parameters, sorted.
func (d Description) ParamNames() []string { return slices.Sorted(maps.Keys(d.Params)) }

// Description is the planner-facing metadata of one skill version: every
// field of the seed's describe() (name, description, version, status, origin,
// params, preconditions, effects, tags, metrics) plus implementation and
// emits. It marshals to JSON deterministically (maps are key-sorted, lists
// are never null).
type Description struct {
	Name           string                      `json:"name"`
	Description    string                      `json:"description"`
	Version        int                         `json:"version"`
	Status         skills.Status               `json:"status"`
	Origin         skills.Origin               `json:"origin"`
	Params         map[string]ParamDescription `json:"params"`
	Preconditions  skills.Preconditions        `json:"preconditions"`
	Effects        skills.Effects              `json:"effects"`
	Tags           []string                    `json:"tags"`
	Metrics        skills.Metrics              `json:"metrics"`
	Implementation skills.ImplKind             `json:"implementation"`
	Emits          []action.Kind               `json:"emits"`
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func nonNilMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return map[K]V{}
	}
	return m
}

func describe(s *skills.Spec) Description {
	c := s.Clone()
	params := make(map[string]ParamDescription, len(c.Params))
	for name, p := range c.Params {
		params[name] = ParamDescription{
			Type: p.Type, Default: action.JSONValue(p.Default), Description: p.Description,
			Required: p.Required, Min: p.Min, Max: p.Max, Enum: p.Enum,
		}
	}
	pre := c.Preconditions
	pre.TechStatesAnyOf = nonNil(pre.TechStatesAnyOf)
	pre.RequiredTools = nonNil(pre.RequiredTools)
	pre.DimensionAllowlist = nonNil(pre.DimensionAllowlist)
	pre.SemanticTagsAnyOf = nonNil(pre.SemanticTagsAnyOf)
	pre.Extra = nonNilMap(pre.Extra)
	eff := c.Effects
	eff.InventoryDelta = nonNilMap(eff.InventoryDelta)
	eff.Tags = nonNil(eff.Tags)
	eff.Extra = nonNilMap(eff.Extra)
	return Description{
		Name: c.Name, Description: c.Description, Version: c.Version,
		Status: c.Status, Origin: c.Origin, Params: params,
		Preconditions: pre, Effects: eff, Tags: nonNil(c.Tags), Metrics: c.Metrics,
		Implementation: c.Implementation, Emits: nonNil(c.Emits),
	}
}

// descLocked returns the cached description of a spec. Callers hold r.mu
// for writing.
func (r *Registry) descLocked(s *skills.Spec) *Description {
	if d, ok := r.descs[s.Key()]; ok {
		return d
	}
	d := describe(s)
	r.descs[s.Key()] = &d
	return &d
}

// DescribeAll returns the descriptions of every skill planners can use under
// the current policy, sorted by name. Descriptions are shared with the
// registry's cache and never modified after creation: treat them as
// read-only.
func (r *Registry) DescribeAll() []*Description {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*Description, 0, len(r.names))
	for _, name := range r.names {
		if s := r.entries[name].selected(r.policy); s != nil {
			out = append(out, r.descLocked(s))
		}
	}
	return out
}

// Describe returns one skill's description under the current policy.
func (r *Registry) Describe(name string) (Description, error) {
	sk, err := r.GetSkill(name)
	if err != nil {
		return Description{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return *r.descLocked(sk.spec), nil
}

// DescribeForTechState returns the descriptions of the skills that are
// usable under the current policy and included in an active pack for
// techState with enabledPacks enabled (see packs.Set.Resolve), in pack order.
// Results are cached per (policy, tier, packs) until a spec or metric
// changes, so repeated calls cost a map lookup; a metric update replaces one
// entry. The returned slice and descriptions are shared with the cache and
// never modified after creation: treat them as read-only.
func (r *Registry) DescribeForTechState(techState string, enabledPacks []string) ([]*Description, error) {
	if r.packs == nil {
		return nil, ErrNoPacks
	}
	r.mu.RLock()
	key := catalogKey(r.policy, techState, enabledPacks)
	if c, ok := r.catalogs[key]; ok {
		descs := c.descs
		r.mu.RUnlock()
		return descs, nil
	}
	r.mu.RUnlock()

	names, err := r.packs.ActiveSkillNames(techState, enabledPacks)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	key = catalogKey(r.policy, techState, enabledPacks)
	if c, ok := r.catalogs[key]; ok {
		return c.descs, nil
	}
	c := &catalog{descs: make([]*Description, 0, len(names)), index: make(map[string]int, len(names))}
	for _, name := range names {
		e := r.entries[name]
		if e == nil {
			continue
		}
		if s := e.selected(r.policy); s != nil {
			c.index[name] = len(c.descs)
			c.descs = append(c.descs, r.descLocked(s))
		}
	}
	if len(r.catalogs) >= maxCatalogs {
		r.catalogs = map[string]*catalog{}
	}
	r.catalogs[key] = c
	return c.descs, nil
}

// maxCatalogs bounds the number of cached (policy, tier, packs) views.
const maxCatalogs = 64

// catalog is a cached tier-gated view. descs is handed to callers and never
// modified in place; index maps skill names to positions in descs.
type catalog struct {
	descs []*Description
	index map[string]int
}

// patchMetricsLocked brings cached descriptions of s up to date with its
// metrics without rebuilding catalogs: each catalog showing s gets a copy of
// its slice with that one entry replaced (copy-on-write, since callers may
// still hold the old slice). Callers hold r.mu for writing.
func (r *Registry) patchMetricsLocked(s *skills.Spec) {
	d, ok := r.descs[s.Key()]
	if !ok {
		return
	}
	fresh := *d
	fresh.Metrics = s.Metrics
	r.descs[s.Key()] = &fresh
	for _, c := range r.catalogs {
		i, ok := c.index[s.Name]
		if !ok || c.descs[i] != d {
			continue
		}
		descs := make([]*Description, len(c.descs))
		copy(descs, c.descs)
		descs[i] = &fresh
		c.descs = descs
	}
}

func catalogKey(p Policy, tier string, packs []string) string {
	return fmt.Sprintf("%d|%s|%s", p, tier, strings.Join(packs, ","))
}
