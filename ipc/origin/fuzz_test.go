package origin

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// FuzzDecodeLine: any line decodes to a request or a typed error, never a
// panic; a request maps to an action or an error, and a decoded action's
// positions are inside the world.
func FuzzDecodeLine(f *testing.F) {
	for _, s := range []string{
		`{"type":"move_step","payload":{"x":10.5,"y":64,"z":-3,"radius":1}}`,
		`{"type":"block_dig","id":"d1","payload":{"status":"start","x":1,"y":2,"z":3,"face":5}}`,
		`{"type":"block_dig","payload":{"status":"abort"}}`,
		`{"type":"block_place","payload":{"x":1,"y":63,"z":3,"face":"up","item":"minecraft:dirt"}}`,
		`{"type":"use_item","payload":{"target":{"x":1,"y":2,"z":3}}}`,
		`{"type":"interact","payload":{"kind":"entity","entity_id":7}}`,
		`{"type":"interact","payload":{"kind":"block","x":1,"y":2,"z":3}}`,
		`{"type":"block_dig","payload":{"status":"start","x":1,"y":2,"z":3,"face":"auto","hand":"main","sequence":0}}`,
		`{"type":"block_place","payload":{"x":1,"y":255,"z":3,"face":"auto"}}`,
		`{"type":"use_item","payload":{"target":"entity","entity_id":7,"item":"minecraft:shears"}}`,
		`{"type":"use_item","payload":{"target":"self","x":1,"y":2,"z":3}}`,
		`{"type":`, `[]`, `null`, "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := DecodeLine(line)
		if err != nil {
			if err.Code == "" || err.Message == "" {
				t.Fatalf("error without code or message: %+v", err)
			}
			return
		}
		if r.ID != nil && !json.Valid(r.ID) {
			t.Fatalf("id %q is not JSON", r.ID)
		}
		set := 0
		for _, p := range []bool{r.Move != nil, r.Dig != nil, r.Place != nil, r.Use != nil, r.Interact != nil} {
			if p {
				set++
			}
		}
		if set != 1 {
			t.Fatalf("%d payloads set for %q", set, line)
		}
		// The eyes of a player standing on the top of the world.
		st := stance{inv: world.NewInventory(world.NewStack("minecraft:dirt", 0, 1)), eye: world.Vec3{X: 0.5, Y: 255 + proto17.EyeHeight, Z: 0.5}}
		acts, aerr := r.toActions(st)
		if aerr != nil {
			// Only an auto face can point out of the world, which the
			// decoder cannot know without the eyes.
			if r.Place == nil || r.Place.Face != FaceAuto || !strings.Contains(aerr.Error(), "outside the world") {
				t.Fatalf("a decoded request does not map to an action: %v", aerr)
			}
			return
		}
		if len(acts) == 0 {
			t.Fatalf("%s: no action", line)
		}
		for _, a := range acts {
			if verr := a.Validate(); verr != nil {
				t.Fatalf("%s: decoded action does not validate: %v", line, verr)
			}
		}
		if r.Place != nil {
			if _, tg := r.Place.Target(st.eye); tg.Y < 0 || tg.Y > 255 {
				t.Fatalf("place target y %d outside the world", tg.Y)
			}
		}
		if _, err := json.Marshal(encode(Out{Type: TypeError, ID: r.ID, Payload: errorPayload{}})); err != nil {
			t.Fatalf("echoing the id: %v", err)
		}
	})
}

// FuzzLineReader: a stream splits into lines of at most the limit, each
// oversized line is reported once, and the bytes read back are exactly the
// stream's lines that fit.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("a\nbb\r\nccc"), 2)
	f.Add([]byte("\n\n\n"), 1)
	f.Add(bytes.Repeat([]byte("x"), 100), 16)
	f.Add([]byte("0123456789abcdef\n0123456789abcdefg\n"), 16)
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		if limit < 1 || limit > 1<<12 {
			return
		}
		lr := newLineReader(bytes.NewReader(data), limit)
		var want [][]byte
		lines := bytes.Split(data, []byte("\n"))
		if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		for _, l := range lines {
			want = append(want, bytes.TrimSuffix(l, []byte("\r")))
		}
		for i := 0; ; i++ {
			line, err := lr.next()
			if errors.Is(err, io.EOF) {
				if i != len(want) {
					t.Fatalf("%d lines, want %d", i, len(want))
				}
				return
			}
			if i >= len(want) {
				t.Fatalf("more lines than the stream has")
			}
			if errors.Is(err, errLineTooLarge) {
				if len(want[i]) <= limit {
					t.Fatalf("line %d of %d bytes reported too large (limit %d)", i, len(want[i]), limit)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(line) > limit || !bytes.Equal(line, want[i]) {
				t.Fatalf("line %d = %q, want %q (limit %d)", i, line, want[i], limit)
			}
		}
	})
}

// noWalk is the simulator without its pathfinder: a move is done at once
// (a fuzzed walk to an unreachable spot searches for long, which tests
// the simulator, not the adapter).
type noWalk struct{ *sim.Sim }

func (b noWalk) Execute(ctx context.Context, a action.Action) ipc.Result {
	if _, ok := a.(action.MoveTo); ok {
		return ipc.Result{Code: ipc.OK, Ticks: 1}
	}
	return b.Sim.Execute(ctx, a)
}

// FuzzSession feeds arbitrary lines to a whole session over a connection,
// with the simulator behind it (see noWalk): the adapter never panics, answers the
// end marker after them, and every line it sends is a JSON object of a
// known type.
func FuzzSession(f *testing.F) {
	for _, s := range []string{
		"{\"type\":\"move_step\",\"payload\":{\"x\":10,\"y\":64,\"z\":8}}\n" +
			"{\"type\":\"block_dig\",\"payload\":{\"status\":\"start\",\"x\":11,\"y\":64,\"z\":8}}\n" +
			"{\"type\":\"block_dig\",\"payload\":{\"status\":\"stop\",\"x\":11,\"y\":64,\"z\":8}}\n",
		"{\"type\":\"block_dig\",\"payload\":{\"status\":\"start\",\"x\":11,\"y\":64,\"z\":8}}\n" +
			"{\"type\":\"block_dig\",\"payload\":{\"status\":\"abort\"}}\n" +
			"{\"type\":\"block_dig\",\"payload\":{\"status\":\"stop\",\"x\":1,\"y\":2,\"z\":3}}\n",
		"{\"type\":\"block_place\",\"payload\":{\"x\":8,\"y\":63,\"z\":9,\"face\":1}}\n{\"type\":\"use_item\"}\n",
		"{\"type\":\"interact\",\"payload\":{\"kind\":\"entity\",\"entity_id\":1}}\n[\n\n{",
		"{\"type\":\"move_step\",\"payload\":{\"x\":1,\"y\":64,\"z\":1,\"pad\":\"" + string(bytes.Repeat([]byte("p"), 600)) + "\"}}\n",
	} {
		f.Add([]byte(s))
	}
	// The test world cut to one column, so an input costs little.
	sc, err := sim.ParseScenario("origin_fuzz.yaml", []byte(strings.Replace(testScenario, "size: {x: 32, z: 32}", "size: {x: 16, z: 16}", 1)))
	if err != nil {
		f.Fatal(err)
	}
	// One world for every input (building one per input would dominate
	// the run): what earlier inputs changed in it stays, which is fine for
	// testing the adapter.
	w, err := sim.New(sc, sim.Options{})
	if err != nil {
		f.Fatal(err)
	}
	body := noWalk{w}
	known := map[string]bool{}
	for _, typ := range []string{TypeTimeUpdate, TypePositionUpdate, TypeChunkData, TypeSpawnEntity, TypeDestroyEntities,
		TypeSetSlot, TypeWindowItems, TypeDimensionChange, TypeActionResult, TypeError, TypeLagged} {
		known[typ] = true
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		if len(input) > 1<<14 {
			return
		}
		server, client := net.Pipe()
		done := make(chan error, 1)
		go func() {
			done <- ServeConn(context.Background(), server, body, Options{Poll: -1, MaxLine: 512, DigTimeout: 20 * time.Millisecond})
		}()
		go func() {
			client.Write(input)
			client.Write([]byte("\n{\"type\":\"end\",\"id\":\"end-marker\"}\n"))
		}()
		client.SetReadDeadline(time.Now().Add(10 * time.Second))
		sc := bufio.NewScanner(client)
		sc.Buffer(make([]byte, 1<<20), 4<<20)
		for sc.Scan() {
			var m struct {
				Type string          `json:"type"`
				ID   json.RawMessage `json:"id"`
			}
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatalf("the adapter sent %q: %v", sc.Text(), err)
			}
			if !known[m.Type] {
				t.Fatalf("the adapter sent an unknown type %q", m.Type)
			}
			if m.Type == TypeError && string(m.ID) == `"end-marker"` {
				break
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("reading the adapter: %v", err)
		}
		client.Close()
		if err := <-done; err != nil {
			t.Fatalf("ServeConn: %v", err)
		}
	})
}
