package remote_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/ipcenvtest"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// small is a body over a small world.State: cheap to build and query.
type small struct{ st *world.State }

func newSmall() *small {
	st := world.NewState(world.StateOptions{Rules: rules.Default()})
	st.Update(func(tx *world.Tx) {
		for x := 0; x < 16; x++ {
			for z := 0; z < 16; z++ {
				tx.SetBlock(world.Pos(x, 3, z), "minecraft:grass", 0)
			}
		}
		tx.SetBlock(world.Pos(5, 4, 5), "minecraft:log", 0)
		tx.MovePlayer(world.Vec3{X: 1.5, Y: 4, Z: 1.5})
	})
	return &small{st: st}
}

func (s *small) Info() ipc.Info { return ipc.Info{Name: "small", Supports: action.Kinds()} }
func (s *small) Observe(context.Context) (*world.Snapshot, error) {
	return s.st.Snapshot(), nil
}
func (s *small) Execute(_ context.Context, a action.Action) ipc.Result {
	s.st.Update(func(tx *world.Tx) { tx.AdvanceTick(1) })
	return ipc.Result{Code: ipc.OK, Ticks: 1, Details: map[string]any{"kind": a.Kind()}}
}

// FuzzServerLine: whatever line a client sends, the server answers or
// ignores it and keeps answering the next request.
func FuzzServerLine(f *testing.F) {
	for _, s := range []string{
		`{"v":1,"id":2,"type":"execute","payload":{"type":"wait","ticks":3}}`,
		`{"v":1,"id":2,"type":"execute","payload":{"type":"move_to","pos":{"x":1,"y":2,"z":3}}}`,
		`{"v":1,"id":2,"type":"observe","payload":{"blocks":"delta","base":0}}`,
		`{"v":1,"id":2,"type":"block_at","payload":{"pos":{"x":5,"y":4,"z":5}}}`,
		`{"v":1,"id":2,"type":"blocks_in","payload":{"from":{"x":0,"y":0,"z":0},"to":{"x":15,"y":5,"z":15}}}`,
		`{"v":1,"id":2,"type":"nearest","payload":{"match":{"tags":["log"]},"radius":16,"k":4}}`,
		`{"v":1,"id":2,"type":"path","payload":{"to":{"x":8,"y":4,"z":8}}}`,
		`{"v":1,"id":2,"type":"catalog"}`,
		`{"v":1,"type":"cancel","payload":{"id":2}}`,
		`{"v":1,"id":2,"type":"hello","payload":{"protocol":1,"role":"agent"}}`,
		`not json`,
	} {
		f.Add([]byte(s))
	}
	// The connections of earlier inputs may still be closing: no limit.
	srv, err := remote.NewServer(remote.ServerOptions{Body: newSmall(), MaxMessage: 1 << 16, Poll: -1, MaxConns: 1 << 20})
	if err != nil {
		f.Fatal(err)
	}
	defer srv.Close()
	f.Fuzz(func(t *testing.T, line []byte) {
		m, l := ipcenvtest.Probe{
			Serve: srv.ServeConn,
			Lines: [][]byte{[]byte(`{"v":1,"id":1,"type":"hello","payload":{"protocol":1,"role":"agent","events":["time","block_change"]}}`),
				line, []byte(`{"v":1,"id":"probe","type":"block_at","payload":{"pos":{"x":5,"y":4,"z":5}}}`)},
		}.Answer(t)
		var rep wire.BlockReply
		if m.Type != wire.TypeReply || json.Unmarshal(m.Payload, &rep) != nil || rep.Block.ID != "minecraft:log" {
			t.Fatalf("probe answered %s", l)
		}
	})
}

// FuzzServerFirstLine: whatever a connection sends before its hello, the
// hello after it is answered and so is a query, or, for a line over the
// pre-hello limit, the connection ends with the reason.
func FuzzServerFirstLine(f *testing.F) {
	for _, s := range []string{
		`{"v":1,"id":1,"type":"hello","payload":{"protocol":1,"role":"agent"}}`,
		`{"v":1,"id":1,"type":"hello","payload":{"protocol":1,"role":"planner"}}`,
		`{"v":1,"id":7,"type":"observe"}`,
		`{"v":1,"id":1,"type":"hello","payload":{"x":"` + strings.Repeat("x", 70000),
		`{"v":1,"type":"cancel","payload":{"id":1}}`,
		"\r\n \t",
		`not json`,
	} {
		f.Add([]byte(s))
	}
	srv, err := remote.NewServer(remote.ServerOptions{Body: newSmall(), Poll: -1, MaxConns: 1 << 20})
	if err != nil {
		f.Fatal(err)
	}
	defer srv.Close()
	f.Fuzz(func(t *testing.T, line []byte) {
		a, b := net.Pipe()
		go srv.ServeConn(b)
		defer a.Close()
		a.SetDeadline(time.Now().Add(10 * time.Second))
		r := wire.NewReader(a, 1<<20)
		go func() {
			a.Write(append(append([]byte(nil), line...), '\n'))
			a.Write([]byte(`{"v":1,"id":"hi","type":"hello","payload":{"protocol":1,"role":"agent"}}` + "\n"))
			a.Write([]byte(`{"v":1,"id":"probe","type":"block_at","payload":{"pos":{"x":5,"y":4,"z":5}}}` + "\n"))
		}()
		long := false
		for _, part := range bytes.Split(line, []byte("\n")) {
			long = long || len(part) > 64<<10
		}
		for {
			l, err := r.Next()
			if err != nil {
				t.Fatalf("no answer to the probe after %.200q: %v", line, err)
			}
			m, err := wire.Decode(l)
			if err != nil {
				t.Fatalf("the server sent %q: %v", l, err)
			}
			if long {
				if m.Type == wire.EventDisconnect {
					return
				}
				if m.Type != wire.TypeError {
					t.Fatalf("a line of %d bytes before hello answered %s", len(line), l)
				}
				continue
			}
			if string(m.ID) != `"probe"` {
				continue
			}
			var rep wire.BlockReply
			if m.Type != wire.TypeReply || json.Unmarshal(m.Payload, &rep) != nil || rep.Block.ID != "minecraft:log" {
				t.Fatalf("probe answered %s", l)
			}
			return
		}
	})
}
