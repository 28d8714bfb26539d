package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/sim"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base" // the Go skills
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/view/web"
)

func loadRegistry(t testing.TB) *registry.Registry {
	t.Helper()
	reg, err := registry.LoadConfig(config.FS, registry.Options{})
	require.NoError(t, err)
	require.NoError(t, reg.RegisterProvided())
	require.NoError(t, reg.Finalize())
	return reg
}

func newSim(t testing.TB) *sim.Sim {
	t.Helper()
	sc, err := sim.DefaultScenario()
	require.NoError(t, err)
	w, err := sim.New(sc, sim.Options{})
	require.NoError(t, err)
	return w
}

// serveLoopback serves v on a loopback listener until the test ends and
// returns its base address.
func serveLoopback(t testing.TB, v *web.View, opts web.ServeOptions) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- v.Serve(ctx, ln, opts) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	return "http://" + ln.Addr().String()
}

// update is one event of the stream, decoded.
type update struct {
	Status web.Status     `json:"status"`
	Steps  []web.StepView `json:"steps"`
	Events []web.Event    `json:"events"`
}

// readUpdates decodes the updates of an event stream as they come.
func readUpdates(r io.Reader) <-chan update {
	ch := make(chan update, 1024)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var u update
			if json.Unmarshal([]byte(data), &u) != nil {
				return
			}
			ch <- u
		}
	}()
	return ch
}

// streamWriter is a ResponseWriter that keeps what a browser received;
// when stuck, Write blocks until the request's context ends, as a
// browser that never reads holds a server's write.
type streamWriter struct {
	ctx   context.Context
	stuck bool

	mu     sync.Mutex
	header http.Header
	buf    strings.Builder
	writes int
}

func (w *streamWriter) Header() http.Header {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.header == nil {
		w.header = http.Header{}
	}
	return w.header
}

func (w *streamWriter) WriteHeader(int) {}

func (w *streamWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writes++
	w.mu.Unlock()
	if w.stuck {
		<-w.ctx.Done()
		return 0, w.ctx.Err()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *streamWriter) Flush() {}

func (w *streamWriter) updates() []update {
	w.mu.Lock()
	s := w.buf.String()
	w.mu.Unlock()
	var out []update
	for u := range readUpdates(strings.NewReader(s)) {
		out = append(out, u)
	}
	return out
}

func (w *streamWriter) writeCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writes
}
