package llm

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Bounds on the observation the model reads each step: whatever the world
// holds, the message stays a few kilobytes.
const (
	maxInventoryKinds = 48
	maxMachines       = 12
	maxMachineSlots   = 8
	maxBlocked        = 16
	maxErrorText      = 300
	maxHistory        = 6
)

// stateView is the compact observation: what loop.Observation holds,
// without block data.
type stateView struct {
	Step      int            `json:"step"`
	Tick      int64          `json:"tick"`
	Position  [3]int         `json:"position"`
	Dimension string         `json:"dimension"`
	Tier      string         `json:"tier"`
	Health    float64        `json:"health"`
	Food      float64        `json:"food"`
	Held      string         `json:"held,omitempty"`
	Inventory map[string]int `json:"inventory"`
	// MoreItems counts the item kinds left out of Inventory.
	MoreItems int           `json:"more_item_kinds,omitempty"`
	Machines  []machineView `json:"nearby_machines,omitempty"`
	// MoreMachines counts the machines left out.
	MoreMachines int       `json:"more_machines,omitempty"`
	Goal         goalView  `json:"goal"`
	Last         *lastView `json:"last_step,omitempty"`
	Blocked      []string  `json:"blocked,omitempty"`
}

type machineView struct {
	Kind     string `json:"kind"`
	Pos      [3]int `json:"pos"`
	Distance int    `json:"distance"`
	Formed   bool   `json:"formed"`
	// ContentsUnknown: empty slots and tanks say nothing (a coke oven on
	// a server until its window is opened).
	ContentsUnknown bool              `json:"contents_unknown,omitempty"`
	Active          bool              `json:"active,omitempty"`
	Tier            string            `json:"tier,omitempty"`
	Slots           map[string]string `json:"slots,omitempty"`
	Fluids          map[string]string `json:"fluids,omitempty"`
	Temperature     float64           `json:"temperature_c,omitempty"`
	Progress        float64           `json:"progress,omitempty"`
}

type goalView struct {
	Text  string   `json:"text"`
	Met   bool     `json:"met"`
	Unmet []string `json:"unmet,omitempty"`
}

type lastView struct {
	Invocation string `json:"invocation,omitempty"`
	Verdict    string `json:"verdict"`
	Code       string `json:"code,omitempty"`
	Error      string `json:"error,omitempty"`
	Changes    string `json:"inventory_changes,omitempty"`
	Ticks      int64  `json:"ticks,omitempty"`
}

// observationJSON renders the observation the model reads.
func observationJSON(goal loop.Goal, obs loop.Observation) string {
	v := stateView{Step: obs.Step, Goal: goalView{Text: goal.Text, Met: obs.Progress.Met, Unmet: obs.Progress.Unmet}}
	if w := obs.Snapshot; w != nil {
		s := loop.Summarize(w)
		v.Tick, v.Dimension, v.Tier, v.Health, v.Food = s.Tick, s.Dimension, s.TechState, s.Health, s.Food
		v.Position = [3]int{s.Pos.X, s.Pos.Y, s.Pos.Z}
		if h := w.Inventory.Held; h >= 0 && h < len(w.Inventory.Slots) && !w.Inventory.Slots[h].Empty() {
			v.Held = w.Inventory.Slots[h].ID
		}
		v.Inventory, v.MoreItems = boundedCounts(s.Inventory, maxInventoryKinds)
		v.Machines, v.MoreMachines = nearbyMachines(w, maxMachines)
	}
	if l := obs.Last; l != nil {
		v.Last = lastStep(l)
	}
	for i, b := range obs.Blocked {
		if i == maxBlocked {
			v.Blocked = append(v.Blocked, fmt.Sprintf("… %d more", len(obs.Blocked)-maxBlocked))
			break
		}
		v.Blocked = append(v.Blocked, b.String())
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func lastStep(l *loop.StepRecord) *lastView {
	lv := &lastView{Verdict: string(l.Verdict), Code: l.Code, Error: oneLine(l.Error, maxErrorText), Ticks: l.Ticks}
	if l.Invocation != nil {
		lv.Invocation = l.Invocation.String()
	}
	if l.After != nil {
		lv.Changes = inventoryChanges(l.Before.Inventory, l.After.Inventory)
	}
	return lv
}

// boundedCounts keeps the n largest counts (ties by name).
func boundedCounts(m map[string]int, n int) (map[string]int, int) {
	if len(m) <= n {
		return m, 0
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	out := make(map[string]int, n)
	for _, k := range keys[:n] {
		out[k] = m[k]
	}
	return out, len(m) - n
}

func nearbyMachines(w *world.Snapshot, n int) ([]machineView, int) {
	feet := w.Feet()
	ms := make([]machineView, 0, len(w.Machines))
	for _, m := range w.Machines {
		dx, dy, dz := float64(m.Pos.X-feet.X), float64(m.Pos.Y-feet.Y), float64(m.Pos.Z-feet.Z)
		mv := machineView{Kind: m.Kind, Pos: [3]int{m.Pos.X, m.Pos.Y, m.Pos.Z},
			Distance: int(math.Round(math.Sqrt(dx*dx + dy*dy + dz*dz))), Formed: m.Formed, ContentsUnknown: m.ContentsUnknown, Active: m.Active, Tier: m.Tier,
			Temperature: math.Round(m.Temperature), Progress: math.Round(m.Progress*100) / 100}
		slots := make([]string, 0, len(m.Slots))
		for k, st := range m.Slots {
			if !st.Empty() {
				slots = append(slots, k)
			}
		}
		sort.Strings(slots)
		for i, k := range slots {
			if i == maxMachineSlots {
				break
			}
			if mv.Slots == nil {
				mv.Slots = map[string]string{}
			}
			st := m.Slots[k]
			mv.Slots[k] = fmt.Sprintf("%s x%d", st.ID, st.Count)
		}
		fluids := make([]string, 0, len(m.Fluids))
		for k := range m.Fluids {
			fluids = append(fluids, k)
		}
		sort.Strings(fluids)
		for i, k := range fluids {
			if i == maxMachineSlots {
				break
			}
			if mv.Fluids == nil {
				mv.Fluids = map[string]string{}
			}
			f := m.Fluids[k]
			mv.Fluids[k] = fmt.Sprintf("%d/%d mB", f.Amount, f.Capacity)
		}
		ms = append(ms, mv)
	}
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].Distance != ms[j].Distance {
			return ms[i].Distance < ms[j].Distance
		}
		return ms[i].Kind < ms[j].Kind
	})
	if len(ms) > n {
		return ms[:n], len(ms) - n
	}
	return ms, 0
}

// inventoryChanges renders what a step changed, "+5 minecraft:log, -4 …",
// bounded.
func inventoryChanges(before, after map[string]int) string {
	return oneLine(loop.InventoryChange(before, after), maxErrorText)
}
