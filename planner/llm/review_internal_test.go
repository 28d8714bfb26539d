package llm

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestObservationJSONIsBounded: whatever the world holds, the observation
// the model reads keeps the bounds (item kinds, machines, their slots and
// tanks, blocked invocations) and says how much it left out.
func TestObservationJSONIsBounded(t *testing.T) {
	snap := &world.Snapshot{TechState: "steam_age"}
	for i := range 200 {
		snap.Inventory.Slots = append(snap.Inventory.Slots, world.ItemStack{ID: fmt.Sprintf("mod:item_%03d", i), Count: i + 1})
	}
	for i := range 40 {
		m := world.Machine{Kind: "gt.steam_boiler", Pos: world.Pos(i, 64, 0), Slots: map[string]world.ItemStack{}, Fluids: map[string]world.FluidTank{}}
		for j := range 20 {
			m.Slots[fmt.Sprintf("in_%02d", j)] = world.ItemStack{ID: "minecraft:coal", Count: 1}
			m.Fluids[fmt.Sprintf("tank_%02d", j)] = world.FluidTank{Fluid: "water", Amount: 1, Capacity: 16000}
		}
		snap.Machines = append(snap.Machines, m)
	}
	obs := loop.Observation{Step: 3, Snapshot: snap}
	for i := range 30 {
		obs.Blocked = append(obs.Blocked, loop.Invocation{Skill: "chop_tree", Params: map[string]any{"min_logs": i}})
	}
	text := observationJSON(loop.Goal{Text: "collect 1 minecraft:log"}, obs)
	var v stateView
	require.NoError(t, json.Unmarshal([]byte(text), &v))
	assert.Len(t, v.Inventory, maxInventoryKinds)
	assert.Equal(t, 200-maxInventoryKinds, v.MoreItems)
	assert.Contains(t, v.Inventory, "mod:item_199", "the largest stacks are kept")
	require.Len(t, v.Machines, maxMachines)
	assert.Equal(t, 40-maxMachines, v.MoreMachines)
	assert.Equal(t, [3]int{0, 64, 0}, v.Machines[0].Pos, "nearest first")
	for _, m := range v.Machines {
		assert.Len(t, m.Slots, maxMachineSlots)
		assert.Len(t, m.Fluids, maxMachineSlots)
	}
	require.Len(t, v.Blocked, maxBlocked+1)
	assert.Equal(t, fmt.Sprintf("… %d more", 30-maxBlocked), v.Blocked[maxBlocked])
	assert.Less(t, len(text), 16<<10, "a few kilobytes")
	assert.NotContains(t, text, "contents_unknown")

	snap.Machines[0].ContentsUnknown = true
	require.NoError(t, json.Unmarshal([]byte(observationJSON(loop.Goal{}, obs)), &v))
	assert.True(t, v.Machines[0].ContentsUnknown, "a machine whose contents are unknown says so")
}

// TestSchemasNameTheChoices: the JSON-mode schema and invoke_skill's
// function tool tell the server which tools and skills exist, so that a
// server with constrained decoding cannot produce another.
func TestSchemasNameTheChoices(t *testing.T) {
	skills := []string{"basic_crafting", "chop_tree"}
	s := answerSchema(skills)
	props := s["properties"].(map[string]any)
	assert.Equal(t, ToolNames, props["tool"].(map[string]any)["enum"])
	args := props["arguments"].(map[string]any)
	assert.Equal(t, false, args["additionalProperties"])
	assert.Equal(t, skills, args["properties"].(map[string]any)["skill"].(map[string]any)["enum"])
	assert.Equal(t, []string{"tool", "arguments"}, s["required"])

	defs := toolDefs(skills, false)
	require.Len(t, defs, len(ToolNames))
	for i, d := range defs {
		b, err := json.Marshal(d)
		require.NoError(t, err)
		var tool struct {
			Function struct {
				Name       string         `json:"name"`
				Parameters map[string]any `json:"parameters"`
			} `json:"function"`
		}
		require.NoError(t, json.Unmarshal(b, &tool))
		assert.Equal(t, ToolNames[i], tool.Function.Name)
		assert.Equal(t, false, tool.Function.Parameters["additionalProperties"], tool.Function.Name)
		if tool.Function.Name == ToolInvokeSkill {
			skill := tool.Function.Parameters["properties"].(map[string]any)["skill"].(map[string]any)
			assert.Equal(t, []any{"basic_crafting", "chop_tree"}, skill["enum"])
		}
	}
}

// TestOversizedAnswersAreRefused: a tool call's arguments and a JSON
// answer beyond maxArgsBytes are refused before they are decoded.
func TestOversizedAnswersAreRefused(t *testing.T) {
	big := `{"name":"` + fmt.Sprintf("%0*d", maxArgsBytes, 0) + `"}`
	_, err := ParseToolArgs(ToolLoadSkill, big)
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf("more than %d", maxArgsBytes))
	_, err = ParseAnswer(`{"tool":"load_skill","arguments":` + big + `}`)
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf("the answer is %d bytes, more than %d", len(big)+len(`{"tool":"load_skill","arguments":}`), maxArgsBytes))
}

func TestSecretNeverPrinted(t *testing.T) {
	const key = "sk-internal-0123456789"
	v := struct {
		Key secret `json:"key"`
	}{secret(key)}
	b, err := json.Marshal(v)
	require.NoError(t, err)
	assert.Equal(t, `{"key":"[REDACTED]"}`, string(b))
	assert.Equal(t, "{[REDACTED]}", fmt.Sprint(v))
	assert.Equal(t, "[REDACTED]", fmt.Sprintf("%#v", v.Key))
	assert.Equal(t, "a [REDACTED] b", secret(key).redact("a "+key+" b"))
}
