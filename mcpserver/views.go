package mcpserver

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// maxMachines bounds the machines an observation lists (nearest first).
const maxMachines = 32

// Observation is what the observe tool returns: the world in a few lines.
type Observation struct {
	Tick      int64          `json:"tick" jsonschema:"game time in ticks (20 per second)"`
	Position  world.BlockPos `json:"position" jsonschema:"the block the player's feet are in"`
	Dimension string         `json:"dimension"`
	Tier      string         `json:"tier" jsonschema:"the GTNH tech tier the inventory and known machines show"`
	Health    float64        `json:"health" jsonschema:"0 to 20"`
	Food      float64        `json:"food" jsonschema:"0 to 20"`
	Held      string         `json:"held,omitempty" jsonschema:"the item in hand"`
	Inventory map[string]int `json:"inventory" jsonschema:"item counts, keyed id or id:meta"`
	// Machines are the known machines, nearest first.
	Machines []Machine `json:"machines,omitempty" jsonschema:"known machines, nearest first"`
	// Goal is the progress of the goal the server was started with.
	Goal *GoalStatus `json:"goal,omitempty"`
	// Blocked are the invocations that will be refused until their part of
	// the world changes.
	Blocked []string `json:"blocked,omitempty" jsonschema:"invocations refused until their part of the world changes"`
	// Last is the previous invoke_skill's invocation and verdict.
	Last string `json:"last_step,omitempty" jsonschema:"the previous invocation and its verdict"`
}

// Machine is one known machine, compact.
type Machine struct {
	Kind     string         `json:"kind"`
	Position world.BlockPos `json:"position"`
	Distance float64        `json:"distance" jsonschema:"blocks from the player's feet"`
	Formed   bool           `json:"formed"`
	// ContentsUnknown: the body knows the machine but not its slots and
	// tanks (a Railcraft coke oven on a server until its window is opened).
	ContentsUnknown bool              `json:"contents_unknown,omitempty" jsonschema:"its slots and tanks are not known (empty ones say nothing) until its window is opened"`
	Active          bool              `json:"active,omitempty"`
	Tier            string            `json:"tier,omitempty"`
	Slots           map[string]string `json:"slots,omitempty" jsonschema:"slot name to \"COUNT ITEM\""`
	Fluids          map[string]string `json:"fluids,omitempty" jsonschema:"tank name to \"AMOUNT/CAPACITY mB\""`
	Temperature     float64           `json:"temperature,omitempty"`
	Progress        float64           `json:"progress,omitempty"`
}

// GoalStatus is the progress of the server's goal.
type GoalStatus struct {
	Goal  string   `json:"goal"`
	Met   bool     `json:"met"`
	Unmet []string `json:"unmet,omitempty" jsonschema:"the parts of the goal that do not hold yet"`
}

// observation builds the observe tool's view of what the loop observed.
func observation(obs loop.Observation, goal *GoalStatus) Observation {
	snap := obs.Snapshot
	sum := loop.Summarize(snap)
	o := Observation{
		Tick: snap.Tick, Position: sum.Pos, Dimension: sum.Dimension, Tier: snap.TechState,
		Health: snap.Player.Health, Food: snap.Player.Food, Inventory: sum.Inventory, Goal: goal,
	}
	if h := snap.Inventory.HeldStack(); !h.Empty() {
		o.Held = stackKey(h)
	}
	feet := snap.Feet()
	for _, m := range snap.Machines {
		v := Machine{Kind: m.Kind, Position: m.Pos, Distance: round1(distance(feet, m.Pos)), Formed: m.Formed,
			ContentsUnknown: m.ContentsUnknown, Active: m.Active, Tier: m.Tier, Temperature: m.Temperature, Progress: round1(m.Progress)}
		for name, st := range m.Slots {
			if st.Empty() {
				continue
			}
			if v.Slots == nil {
				v.Slots = map[string]string{}
			}
			v.Slots[name] = fmt.Sprintf("%d %s", st.Count, stackKey(st))
		}
		for name, t := range m.Fluids {
			if v.Fluids == nil {
				v.Fluids = map[string]string{}
			}
			v.Fluids[name] = fmt.Sprintf("%d/%d mB", t.Amount, t.Capacity)
		}
		o.Machines = append(o.Machines, v)
	}
	sort.SliceStable(o.Machines, func(i, j int) bool { return o.Machines[i].Distance < o.Machines[j].Distance })
	if len(o.Machines) > maxMachines {
		o.Machines = o.Machines[:maxMachines]
	}
	for _, b := range obs.Blocked {
		o.Blocked = append(o.Blocked, b.String())
	}
	if obs.Last != nil && obs.Last.Invocation != nil {
		o.Last = fmt.Sprintf("%s: %s", obs.Last.Invocation, obs.Last.Verdict)
	}
	return o
}

func stackKey(s world.ItemStack) string {
	if s.Meta != 0 {
		return fmt.Sprintf("%s:%d", s.ID, s.Meta)
	}
	return s.ID
}

func distance(a, b world.BlockPos) float64 {
	dx, dy, dz := float64(a.X-b.X), float64(a.Y-b.Y), float64(a.Z-b.Z)
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

// StepResult is what invoke_skill and the skill tools return: how the step
// ended, what the skill did and what changed.
type StepResult struct {
	Step    int            `json:"step" jsonschema:"the step's number in this session"`
	Skill   string         `json:"skill"`
	Version int            `json:"version,omitempty"`
	Params  map[string]any `json:"params,omitempty" jsonschema:"the parameters the skill ran with, defaults filled in"`
	// Verdict is success, action_failed, effects_unmet, skill_failed,
	// rejected, noop or interrupted.
	Verdict string `json:"verdict" jsonschema:"success, action_failed, effects_unmet, skill_failed, rejected, noop or interrupted"`
	Code    string `json:"code,omitempty"`
	Error   string `json:"error,omitempty"`
	// Progressed marks a failed step that still moved the world the way the
	// skill intends or towards the goal.
	Progressed bool `json:"progressed,omitempty"`
	// Effects are the declared effects checked in the world after the
	// actions.
	Effects []loop.EffectCheck `json:"effects,omitempty" jsonschema:"the declared effects, checked in the world after the actions"`
	Actions []ActionResult     `json:"actions,omitempty" jsonschema:"the actions sent to the body, in order, with their results"`
	Ticks   int64              `json:"ticks" jsonschema:"game time the step took"`
	// InventoryDelta is the change in item counts over the step.
	InventoryDelta map[string]int `json:"inventory_delta,omitempty"`
	TierBefore     string         `json:"tier_before"`
	Tier           string         `json:"tier" jsonschema:"the tier after the step"`
	Goal           *GoalStatus    `json:"goal,omitempty"`
}

// ActionResult is one action of a step and how the body answered.
type ActionResult struct {
	Action  map[string]any `json:"action"`
	Code    string         `json:"code,omitempty" jsonschema:"absent for actions never sent (the step stopped before them)"`
	Error   string         `json:"error,omitempty"`
	Ticks   int64          `json:"ticks,omitempty"`
	Details map[string]any `json:"details,omitempty"`
}

// stepResult builds the view of a step record.
func stepResult(rec loop.StepRecord) StepResult {
	r := StepResult{
		Step: rec.Step, Version: rec.Version, Params: rec.Params, Verdict: string(rec.Verdict),
		Code: rec.Code, Error: rec.Error, Progressed: rec.Progressed, Effects: rec.Effects,
		Ticks: rec.Ticks, TierBefore: rec.Before.TechState, Tier: rec.Before.TechState,
	}
	if rec.Invocation != nil {
		r.Skill = rec.Invocation.Skill
	}
	for i, env := range rec.Actions {
		a := ActionResult{}
		if b, err := json.Marshal(env); err == nil {
			_ = json.Unmarshal(b, &a.Action)
		}
		if i < len(rec.Results) {
			res := rec.Results[i]
			a.Code, a.Error, a.Ticks = string(res.Code), res.Error, res.Ticks
			if len(res.Details) > 0 {
				if b, err := json.Marshal(res.Details); err == nil {
					_ = json.Unmarshal(b, &a.Details)
				}
			}
		}
		r.Actions = append(r.Actions, a)
	}
	if rec.After != nil {
		r.Tier = rec.After.TechState
		r.InventoryDelta = delta(rec.Before.Inventory, rec.After.Inventory)
	}
	return r
}

// delta is after minus before, keeping only the counts that changed.
func delta(before, after map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range after {
		if d := v - before[k]; d != 0 {
			out[k] = d
		}
	}
	for k, v := range before {
		if _, ok := after[k]; !ok && v != 0 {
			out[k] = -v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
