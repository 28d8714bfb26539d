package gtnh

import (
	"context"
	"fmt"
	"net"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/gtnh/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/internal/memnet"
)

// The client tests run inside testing/synctest bubbles: the test server
// listens in memory (fakeserver.PipeAddr, internal/memnet connections), so
// every wait of the client and the server (ticks, answers, keep-alives,
// timeouts) passes in the bubble's time as soon as all of them wait. A test
// neither sleeps nor depends on the machine's load.

// memServers are the in-memory test servers by address, for clients that
// dial an address (memDial) rather than a server.
var memServers = struct {
	sync.Mutex
	next int
	by   map[string]*fakeserver.Server
}{by: map[string]*fakeserver.Server{}}

// inMemory makes the test server listen in memory at an address of its own
// (unless the test chose one: freeAddr's are in memory too).
func inMemory(o fakeserver.Options) fakeserver.Options {
	if o.Addr == "" {
		o.Addr = freeAddr(nil)
	}
	return o
}

// freeAddr is an in-memory address nothing listens on (until a test starts
// a server there).
func freeAddr(_ any) string {
	memServers.Lock()
	defer memServers.Unlock()
	memServers.next++
	return fmt.Sprintf("%s:%d", fakeserver.PipeAddr, memServers.next)
}

// registerMem makes an in-memory server reachable by memDial at its
// address until it is unregistered (a later server at the address
// replaces it).
func registerMem(srv *fakeserver.Server) func() {
	memServers.Lock()
	defer memServers.Unlock()
	memServers.by[srv.Addr()] = srv
	return func() {
		memServers.Lock()
		defer memServers.Unlock()
		if memServers.by[srv.Addr()] == srv {
			delete(memServers.by, srv.Addr())
		}
	}
}

// memDial is a Dialer to the in-memory server at an address: refused when
// none is registered there (or it is down).
func memDial(ctx context.Context, addr string) (net.Conn, error) {
	memServers.Lock()
	srv := memServers.by[addr]
	memServers.Unlock()
	if srv == nil {
		return nil, fmt.Errorf("dial %s: %w", addr, memnet.ErrRefused)
	}
	return srv.Dial(ctx, addr)
}
