package gtnh

import (
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
)

// The client tests run inside testing/synctest bubbles: the test server
// listens in memory (fakeserver.PipeAddr, internal/memnet connections), so
// every wait of the client and the server (ticks, answers, keep-alives,
// timeouts) passes in the bubble's time as soon as all of them wait. A test
// neither sleeps nor depends on the machine's load. The exceptions say why
// where they are.

// inMemory makes the test server listen in memory at an address of its own
// (unless the test chose one: freeAddr's are in memory too).
func inMemory(o fakeserver.Options) fakeserver.Options {
	if o.Addr == "" {
		o.Addr = fakeserver.MemoryAddr()
	}
	return o
}

// freeAddr is an in-memory address nothing listens on (until a test starts
// a server there).
func freeAddr(any) string { return fakeserver.MemoryAddr() }

// memDial is a Dialer to the in-memory test server at an address.
var memDial = fakeserver.DialMemory
