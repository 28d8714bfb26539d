package peer_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/peer"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// TestPlannerServerHello: a planner answers plan only after a hello from
// an agent with the right token and protocol.
func TestPlannerServerHello(t *testing.T) {
	srv, err := peer.NewPlannerServer(peer.PlannerServerOptions{Token: "tok", Planner: loop.PlannerFunc(
		func(ctx context.Context, g loop.Goal, obs loop.Observation, cat []*registry.Description) (loop.Decision, error) {
			return loop.Decision{Done: true}, nil
		})})
	require.NoError(t, err)
	a, b := net.Pipe()
	go srv.ServeConn(b)
	defer a.Close()
	r := wire.NewReader(a, 0)
	ask := func(line string) (string, string) {
		t.Helper()
		a.SetDeadline(time.Now().Add(5 * time.Second))
		_, err := io.WriteString(a, line+"\n")
		require.NoError(t, err)
		got, err := r.Next()
		require.NoError(t, err)
		m, err := wire.Decode(got)
		require.NoError(t, err)
		if m.Type == wire.TypeError {
			var e wire.Error
			require.NoError(t, json.Unmarshal(m.Payload, &e))
			return m.Type, string(e.Code)
		}
		return m.Type, string(m.Payload)
	}
	plan := `{"v":1,"id":9,"type":"plan","payload":{"goal":{"text":"x"},"observation":{"step":1,"snapshot":{"tick":0,"player":{"pos":{"x":0,"y":0,"z":0},"dimension":"overworld","health":20,"food":20},"inventory":{"slots":[],"held":0},"tech_state":"stone_age"},"progress":{"met":false}},"catalog":[]}}`
	typ, code := ask(plan)
	assert.Equal(t, "error/unauthorized", typ+"/"+code, "plan before hello")
	typ, code = ask(`{"v":1,"id":1,"type":"hello","payload":{"protocol":1,"role":"agent","token":"nope"}}`)
	assert.Equal(t, "error/unauthorized", typ+"/"+code)
	typ, code = ask(`{"v":1,"id":2,"type":"hello","payload":{"protocol":1,"role":"observer","token":"tok"}}`)
	assert.Equal(t, "error/unsupported", typ+"/"+code)
	typ, code = ask(`{"v":1,"id":3,"type":"hello","payload":{"protocol":2,"role":"agent","token":"tok"}}`)
	assert.Equal(t, "error/version", typ+"/"+code)
	typ, _ = ask(`{"v":1,"id":4,"type":"hello","payload":{"protocol":1,"role":"agent","token":"tok"}}`)
	assert.Equal(t, wire.TypeReply, typ)
	typ, code = ask(`{"v":1,"id":5,"type":"hello","payload":{"protocol":1,"role":"agent","token":"tok"}}`)
	assert.Equal(t, "error/bad_request", typ+"/"+code, "a second hello")
	typ, code = ask(`{"v":1,"id":6,"type":"execute","payload":{"type":"wait","ticks":1}}`)
	assert.Equal(t, "error/unknown_type", typ+"/"+code)
	typ, code = ask(`{"v":1,"id":7,"type":"plan","payload":{"goal":{"text":"x"}}}`)
	assert.Equal(t, "error/bad_request", typ+"/"+code, "no observation")
	typ, code = ask(strings.Replace(plan, `"catalog":[]`, `"catalog":[],"catalogue":[]`, 1))
	assert.Equal(t, "error/bad_request", typ+"/"+code, "a misspelt field is an error, not ignored")
	typ, out := ask(plan)
	assert.Equal(t, wire.TypeReply, typ)
	assert.JSONEq(t, `{"done":true}`, out)
	typ, code = ask(`{not json`)
	assert.Equal(t, "error/bad_request", typ+"/"+code, "the connection goes on after malformed JSON")
	typ, _ = ask(plan)
	assert.Equal(t, wire.TypeReply, typ)
}
