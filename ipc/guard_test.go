package ipc_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc"
)

func TestGuardTravelsInTheContext(t *testing.T) {
	_, ok := ipc.GuardOf(context.Background())
	assert.False(t, ok)
	g, ok := ipc.GuardOf(ipc.WithGuard(context.Background(), ipc.Guard{Range: 8}))
	assert.True(t, ok)
	assert.Equal(t, 8.0, g.Range)
	_, ok = ipc.GuardOf(ipc.WithGuard(context.Background(), ipc.Guard{}))
	assert.False(t, ok, "no range guards nothing")
}

// TestThreatReadsAlikeAfterJSON: a threat in a result's details reads the
// same in process and after a trip through the wire's JSON.
func TestThreatReadsAlikeAfterJSON(t *testing.T) {
	th := ipc.Threat{Entity: 12, Mob: "zombie", Dist: 5.04, Hurt: true}
	r := ipc.Result{Code: ipc.Interrupted, Details: map[string]any{ipc.DetailThreat: th.Detail()}}
	got, ok := ipc.ThreatOf(r)
	require.True(t, ok)
	assert.Equal(t, ipc.Threat{Entity: 12, Mob: "zombie", Dist: 5, Hurt: true}, got)
	assert.Equal(t, "a zombie (entity 12) 5.0 blocks away, hurting the player", got.String())
	b, err := json.Marshal(r)
	require.NoError(t, err)
	var back ipc.Result
	require.NoError(t, json.Unmarshal(b, &back))
	got2, ok := ipc.ThreatOf(back)
	require.True(t, ok)
	assert.Equal(t, got, got2)

	for _, d := range []map[string]any{nil, {ipc.DetailThreat: "zombie"}, {ipc.DetailThreat: map[string]any{"entity": 3}}} {
		_, ok := ipc.ThreatOf(ipc.Result{Details: d})
		assert.False(t, ok, "%v", d)
	}
}
