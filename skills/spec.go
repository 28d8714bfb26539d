package skills

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Status is a spec's lifecycle state.
type Status string

// Statuses.
const (
	StatusActive     Status = "active"
	StatusCandidate  Status = "candidate"
	StatusDeprecated Status = "deprecated"
)

// Origin says who wrote a spec.
type Origin string

// Origins.
const (
	OriginManual      Origin = "manual"
	OriginSynthesized Origin = "synthesized"
)

// ImplKind says where a skill's behaviour comes from.
type ImplKind string

// Implementation kinds.
const (
	ImplGo       ImplKind = "go"       // a registered Go Implementation
	ImplTemplate ImplKind = "template" // the spec's action_sequence
)

// ParamSpec describes one parameter of a skill. A parameter without a default
// is required.
type ParamSpec struct {
	Name        string           `json:"-"`
	Type        action.ParamType `json:"type"`
	Default     any              `json:"default"`
	Description string           `json:"description"`
	Required    bool             `json:"required,omitempty"`
	Min         *float64         `json:"min,omitempty"`
	Max         *float64         `json:"max,omitempty"`
	Enum        []string         `json:"enum,omitempty"`
}

// ToolRequirement is a tool the skill needs in the inventory. ItemID is an
// item matcher: an id, an ore-dictionary name or a tool class ("tool:axe").
type ToolRequirement struct {
	ItemID        string `json:"item_id"`
	MinDurability int    `json:"min_durability"`
}

// Preconditions are what must hold before a skill runs.
type Preconditions struct {
	// TechStatesAnyOf lists tiers or tier ranges (">= steam_age"); empty = any.
	TechStatesAnyOf    []string          `json:"tech_states_any_of"`
	RequiredTools      []ToolRequirement `json:"required_tools"`
	DimensionAllowlist []string          `json:"dimension_allowlist"`
	// SemanticTagsAnyOf: at least one block with one of these tags must be
	// known near the player.
	SemanticTagsAnyOf []string       `json:"semantic_tags_any_of"`
	Extra             map[string]any `json:"extra"`
}

// Amount is an integer written either literally or as a reference to an int
// parameter ("{min_logs}"), resolved per invocation.
type Amount struct {
	Value int
	Param string
}

// Resolve returns the amount for an invocation.
func (a Amount) Resolve(p Params) int {
	if a.Param != "" {
		return p.Int(a.Param)
	}
	return a.Value
}

// IsZero reports whether the amount is unset.
func (a Amount) IsZero() bool { return a.Param == "" && a.Value == 0 }

// MarshalJSON writes the literal or "{param}".
func (a Amount) MarshalJSON() ([]byte, error) {
	if a.Param != "" {
		return []byte(fmt.Sprintf("%q", "{"+a.Param+"}")), nil
	}
	return []byte(fmt.Sprint(a.Value)), nil
}

// UnmarshalJSON reads what MarshalJSON writes (a catalog that crossed the
// wire to a planner in another process): an integer or "{param}".
func (a *Amount) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		if len(s) > 2 && s[0] == '{' && s[len(s)-1] == '}' {
			*a = Amount{Param: s[1 : len(s)-1]}
			return nil
		}
		return fmt.Errorf("amount %q: want an integer or \"{param}\"", s)
	}
	var v int
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("amount %s: want an integer or \"{param}\"", b)
	}
	*a = Amount{Value: v}
	return nil
}

// InventoryChange is the expected change of one item's count after a skill.
type InventoryChange struct {
	MinIncrease *Amount `json:"min_increase,omitempty"`
	MinDecrease *Amount `json:"min_decrease,omitempty"`
	MaxDecrease *Amount `json:"max_decrease,omitempty"`
}

// TechDelta is the expected change in tech state.
type TechDelta struct {
	// ReachesTier: after the skill the inferred tier is at least this one.
	ReachesTier string `json:"reaches_tier,omitempty"`
	// Unlocks names capabilities the skill establishes (e.g. "coal_coke").
	Unlocks []string `json:"unlocks,omitempty"`
}

// AnyItem is the inventory_delta key that counts items of every kind: its
// min_increase is the number of items gained (of any kinds, losses of other
// items not subtracted), its min_decrease and max_decrease the number lost.
const AnyItem = "*"

// DropPrefix starts an inventory_delta key that counts what a block gives
// when harvested ("drop:{target}", "drop:minecraft:gravel"): the item of
// the block's drop in the rules' drop table (config/drops.yaml; a block not
// listed drops itself). A mine whose target dropped nothing fails it even
// when the way there dug other blocks into the inventory. A block whose
// drops are rolled (leaves, tall grass) counts any item, as AnyItem does.
const DropPrefix = "drop:"

// BlockChange is the expected change of the blocks matching one key within
// Radius blocks of where the player stood when the skill started. Removed
// counts positions that held a matching block before and do not after;
// placed counts positions that hold one after and did not before.
type BlockChange struct {
	MinRemoved *Amount `json:"min_removed,omitempty"`
	MinPlaced  *Amount `json:"min_placed,omitempty"`
	// MinNear: at least this many such blocks lie within Radius of where
	// the player ends the step (a skill that travels to them).
	MinNear *Amount `json:"min_near,omitempty"`
	Radius  Amount  `json:"radius"`
}

// MachineChange is the expected change of one slot's item count or one
// tank's fluid amount (mB) in at least one machine of Kind: the machine is
// found by position in the snapshots before and after the skill, within
// Radius blocks of where the player started (nil: any distance).
type MachineChange struct {
	Kind  string `json:"kind"`
	Slot  string `json:"slot,omitempty"`
	Fluid string `json:"fluid,omitempty"`
	// Item, with Slot, counts only matching items (a matcher or "{param}").
	Item        string  `json:"item,omitempty"`
	MinIncrease *Amount `json:"min_increase,omitempty"`
	MinDecrease *Amount `json:"min_decrease,omitempty"`
	Radius      *Amount `json:"radius,omitempty"`
}

// EffectSet is one alternative of Effects.AnyOf: every entry must hold.
type EffectSet struct {
	InventoryDelta map[string]InventoryChange `json:"inventory_delta,omitempty"`
	Blocks         map[string]BlockChange     `json:"blocks,omitempty"`
	Machines       []MachineChange            `json:"machines,omitempty"`
}

// Empty reports whether the set declares nothing.
func (e EffectSet) Empty() bool {
	return len(e.InventoryDelta) == 0 && len(e.Blocks) == 0 && len(e.Machines) == 0
}

// Effects are what a skill claims to achieve; the loop checks them. Every
// inventory_delta, blocks and machines entry must hold, and, when AnyOf is
// given, every entry of at least one of its alternatives.
type Effects struct {
	// InventoryDelta is keyed by item matcher ("minecraft:log", "ore:logWood"),
	// by an item_id parameter reference ("{item}"), by AnyItem or by a
	// block's drop (DropPrefix).
	InventoryDelta map[string]InventoryChange `json:"inventory_delta"`
	// Blocks is keyed by block id ("minecraft:log", "minecraft:log:1"),
	// semantic block tag ("tag:log") or block_id parameter reference
	// ("{target}").
	Blocks   map[string]BlockChange `json:"blocks,omitempty"`
	Machines []MachineChange        `json:"machines,omitempty"`
	// AnyOf lists alternative outcomes; one of them must hold entirely.
	AnyOf []EffectSet `json:"any_of,omitempty"`
	// Player is a change of the player's own bars (the food level).
	Player    *PlayerChange  `json:"player,omitempty"`
	TechDelta TechDelta      `json:"tech_delta"`
	Tags      []string       `json:"tags"`
	Extra     map[string]any `json:"extra"`
}

// PlayerChange is a change of the player's state that a skill claims: the
// food level (0..20) rose by at least Food.MinIncrease; Sheltered, the
// player ends walled in (path.Enclosed: solid blocks beside the feet and
// the head, above and below).
type PlayerChange struct {
	Food      *StatChange `json:"food,omitempty"`
	Sheltered bool        `json:"sheltered,omitempty"`
}

// StatChange is the least rise of one of the player's bars.
type StatChange struct {
	MinIncrease *Amount `json:"min_increase"`
}

// Checkable reports whether the effects declare anything the loop can check
// in the world (inventory, blocks, machines, the player's bars or a tier).
func (e Effects) Checkable() bool {
	return !EffectSet{e.InventoryDelta, e.Blocks, e.Machines}.Empty() || len(e.AnyOf) > 0 || e.TechDelta.ReachesTier != "" ||
		(e.Player != nil && (e.Player.Food != nil || e.Player.Sheltered))
}

// Metrics are learned per-skill statistics (see registry for the update rule).
type Metrics struct {
	SuccessRate *float64 `json:"success_rate"`
	AvgCost     *float64 `json:"avg_cost"`
	Samples     int      `json:"samples"`
}

// ActionTemplate is one step of a template skill: an action kind with
// parameter values that may contain placeholders ("{target_location}").
type ActionTemplate struct {
	Kind   action.Kind    `json:"type"`
	Params map[string]any `json:"params"`
	Line   int            `json:"-"`
}

// Spec is the metadata of one version of a skill.
type Spec struct {
	Name           string               `json:"name"`
	Version        int                  `json:"version"`
	Status         Status               `json:"status"`
	Origin         Origin               `json:"origin"`
	Description    string               `json:"description"`
	Params         map[string]ParamSpec `json:"params"`
	Preconditions  Preconditions        `json:"preconditions"`
	Effects        Effects              `json:"effects"`
	Tags           []string             `json:"tags"`
	Metrics        Metrics              `json:"metrics"`
	Implementation ImplKind             `json:"implementation"`
	ActionSequence []ActionTemplate     `json:"action_sequence,omitempty"`
	Emits          []action.Kind        `json:"emits"`

	// File is where the spec was loaded from ("" for specs built in code).
	File string `json:"-"`
}

// Key identifies one version of a skill: "chop_tree@1".
func (s *Spec) Key() string { return fmt.Sprintf("%s@%d", s.Name, s.Version) }

// ParamNames returns the parameter names sorted.
func (s *Spec) ParamNames() []string {
	out := make([]string, 0, len(s.Params))
	for n := range s.Params {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// EmitSet returns the declared action kinds as a set.
func (s *Spec) EmitSet() action.KindSet { return action.NewKindSet(s.Emits...) }

// Clone returns a deep copy of the spec, so registries can hand specs out and
// update them without sharing maps. The copy is equal to the original: nil
// and empty slices and maps stay what they were (a spec that wrote "tags: []"
// keeps an empty, non-nil list).
func (s *Spec) Clone() *Spec {
	c := *s
	c.Params = cloneMap(s.Params, func(v ParamSpec) ParamSpec {
		v.Default = cloneAny(v.Default)
		v.Enum = cloneSlice(v.Enum)
		v.Min, v.Max = clonePtr(v.Min), clonePtr(v.Max)
		return v
	})
	c.Preconditions.TechStatesAnyOf = cloneSlice(s.Preconditions.TechStatesAnyOf)
	c.Preconditions.RequiredTools = cloneSlice(s.Preconditions.RequiredTools)
	c.Preconditions.DimensionAllowlist = cloneSlice(s.Preconditions.DimensionAllowlist)
	c.Preconditions.SemanticTagsAnyOf = cloneSlice(s.Preconditions.SemanticTagsAnyOf)
	c.Preconditions.Extra = cloneAnyMap(s.Preconditions.Extra)
	c.Effects.InventoryDelta = cloneInventoryDelta(s.Effects.InventoryDelta)
	c.Effects.Blocks = cloneBlocks(s.Effects.Blocks)
	c.Effects.Machines = cloneMachines(s.Effects.Machines)
	if s.Effects.AnyOf != nil {
		c.Effects.AnyOf = make([]EffectSet, len(s.Effects.AnyOf))
		for i, alt := range s.Effects.AnyOf {
			c.Effects.AnyOf[i] = EffectSet{
				InventoryDelta: cloneInventoryDelta(alt.InventoryDelta),
				Blocks:         cloneBlocks(alt.Blocks),
				Machines:       cloneMachines(alt.Machines),
			}
		}
	}
	c.Effects.TechDelta.Unlocks = cloneSlice(s.Effects.TechDelta.Unlocks)
	c.Effects.Tags = cloneSlice(s.Effects.Tags)
	c.Effects.Extra = cloneAnyMap(s.Effects.Extra)
	c.Tags = cloneSlice(s.Tags)
	c.Metrics.SuccessRate, c.Metrics.AvgCost = clonePtr(s.Metrics.SuccessRate), clonePtr(s.Metrics.AvgCost)
	c.ActionSequence = cloneSlice(s.ActionSequence)
	for i := range c.ActionSequence {
		c.ActionSequence[i].Params = cloneAnyMap(c.ActionSequence[i].Params)
	}
	c.Emits = cloneSlice(s.Emits)
	return &c
}

func cloneInventoryDelta(m map[string]InventoryChange) map[string]InventoryChange {
	return cloneMap(m, func(v InventoryChange) InventoryChange {
		v.MinIncrease, v.MinDecrease, v.MaxDecrease = clonePtr(v.MinIncrease), clonePtr(v.MinDecrease), clonePtr(v.MaxDecrease)
		return v
	})
}

func cloneBlocks(m map[string]BlockChange) map[string]BlockChange {
	return cloneMap(m, func(v BlockChange) BlockChange {
		v.MinRemoved, v.MinPlaced, v.MinNear = clonePtr(v.MinRemoved), clonePtr(v.MinPlaced), clonePtr(v.MinNear)
		return v
	})
}

func cloneMachines(ms []MachineChange) []MachineChange {
	out := cloneSlice(ms)
	for i := range out {
		out[i].MinIncrease, out[i].MinDecrease, out[i].Radius = clonePtr(out[i].MinIncrease), clonePtr(out[i].MinDecrease), clonePtr(out[i].Radius)
	}
	return out
}

// cloneSlice copies a slice of values; nil stays nil and empty stays empty.
func cloneSlice[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// cloneMap copies a map, copying each value with cp; nil stays nil.
func cloneMap[V any](m map[string]V, cp func(V) V) map[string]V {
	if m == nil {
		return nil
	}
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = cp(v)
	}
	return out
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneAnyMap(m map[string]any) map[string]any {
	return cloneMap(m, cloneAny)
}

// cloneAny deep-copies the maps and lists YAML decoding produces; nil and
// empty containers keep their form.
func cloneAny(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return cloneAnyMap(x)
	case []any:
		if x == nil {
			return []any(nil)
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneAny(e)
		}
		return out
	}
	return v
}

// Implementation is the Go behaviour of a skill: it turns an invocation into
// actions from a world snapshot. It must not mutate the snapshot. Returning
// no actions and a nil error means there is nothing to do; failures are
// returned as *Failure so the loop can tell "no tree in range" from a bug.
type Implementation interface {
	// Name is the skill name; it must match a spec.
	Name() string
	SuggestActions(w *world.Snapshot, p Params) ([]action.Action, error)
}

// RuleUser is an optional interface of an Implementation that reads the
// game's rule tables (the recipe book, the furnace's table): a registry
// built with a rule set other than the shipped one (a modpack's recipes)
// registers the implementation WithRules returns, bound to that set.
type RuleUser interface {
	Implementation
	WithRules(set *rules.Set) Implementation
}
