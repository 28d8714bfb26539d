package peer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/internal/ipcenvtest"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/peer"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// FuzzPlannerServerLine: whatever line an agent sends a planner (a plan
// request whose goal, observation or catalog is anything at all among
// them), the planner server answers or ignores it, never fails, and keeps
// answering the next plan request.
func FuzzPlannerServerLine(f *testing.F) {
	for _, s := range []string{
		`{"v":1,"id":2,"type":"plan","payload":{"goal":{"text":"x","items":[{"item":"minecraft:log","count":8,"gain":true}]},"observation":{"step":1,"snapshot":{"tick":3,"player":{"pos":{"x":0,"y":0,"z":0},"dimension":"overworld","health":20,"food":20},"inventory":{"slots":[{"id":"minecraft:log","count":2}],"held":0},"tech_state":"stone_age"},"progress":{"met":false,"unmet":["a"]},"last":{"step":1,"before":{},"verdict":"rejected","error":"no","ticks":0},"blocked":[{"skill":"chop_tree"}]},"catalog":[{"name":"chop_tree","version":1,"params":{"min_logs":{"type":"int"}},"effects":{"inventory_delta":{"ore:logWood":{"min_increase":"{min_logs}"}}}}]}}`,
		`{"v":1,"id":2,"type":"plan","payload":{"goal":null,"observation":{"snapshot":null},"catalog":[null]}}`,
		`{"v":1,"id":2,"type":"plan","payload":{"goal":{},"observation":{},"catalog":[{"effects":{"inventory_delta":{"x":{"min_increase":"{}"}}}}]}}`,
		`{"v":1,"id":2,"type":"plan"}`,
		`{"v":1,"id":2,"type":"reply","payload":{}}`,
		`{"v":1,"type":"cancel","payload":{"id":2}}`,
		`{"v":1,"id":2,"type":"hello","payload":{"protocol":1,"role":"agent"}}`,
		`not json`,
	} {
		f.Add([]byte(s))
	}
	srv, err := peer.NewPlannerServer(peer.PlannerServerOptions{MaxMessage: 1 << 16, Planner: loop.PlannerFunc(
		func(ctx context.Context, g loop.Goal, obs loop.Observation, cat []*registry.Description) (loop.Decision, error) {
			// Touch what a planner reads; a nil snapshot is its own panic,
			// which the server turns into an internal error.
			_ = obs.Snapshot.Tick + int64(len(g.Items)+len(cat))
			return loop.Decision{Done: true}, nil
		})})
	if err != nil {
		f.Fatal(err)
	}
	probe := `{"v":1,"id":"probe","type":"plan","payload":{"goal":{"text":"x"},"observation":{"step":1,"snapshot":{"tick":0,"player":{"pos":{"x":0,"y":0,"z":0},"dimension":"overworld","health":20,"food":20},"inventory":{"slots":[],"held":0},"tech_state":"stone_age"},"progress":{"met":false}},"catalog":[]}}`
	f.Fuzz(func(t *testing.T, line []byte) {
		m, l := ipcenvtest.Probe{
			Serve: srv.ServeConn,
			Lines: [][]byte{[]byte(`{"v":1,"id":1,"type":"hello","payload":{"protocol":1,"role":"agent"}}`), line, []byte(probe)},
			// The line was a plan with the probe's id.
			Skip: func(m *wire.Message) bool {
				return m.Type == wire.TypeError && strings.Contains(string(m.Payload), "already in flight")
			},
		}.Answer(t)
		if m.Type != wire.TypeReply || string(m.Payload) != `{"done":true}` {
			t.Fatalf("probe answered %s", l)
		}
	})
}
