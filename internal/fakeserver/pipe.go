package fakeserver

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/internal/memnet"
)

// PipeAddr is the Options.Addr of a server that listens in memory (so is
// any address "pipe:N", for tests that tell several servers apart by
// address): its connections are internal/memnet pipes made by Server.Dial,
// not TCP. Such
// a server and its clients can run inside a testing/synctest bubble, where
// every wait (ticks, keep-alives, timeouts) passes in the bubble's own time
// as soon as all of them wait, so a test of waits neither sleeps nor
// depends on the machine's load.
const PipeAddr = "pipe"

// InMemory reports whether a server with that address listens in memory.
func InMemory(addr string) bool { return addr == PipeAddr || strings.HasPrefix(addr, PipeAddr+":") }

// listen opens the server's listener: in memory for PipeAddr, else TCP.
func listen(addr string) (net.Listener, error) {
	if InMemory(addr) {
		return memnet.Listen(addr), nil
	}
	return net.Listen("tcp", addr)
}

// Dial connects to the server: in memory when it listens on PipeAddr (the
// address is ignored), else over TCP to its address. It has the shape of
// the live client's Config.Dial. While the server is down (closed, or
// between the halves of a Restart) the connection is refused.
func (s *Server) Dial(ctx context.Context, _ string) (net.Conn, error) {
	s.mu.Lock()
	ln := s.ln
	s.mu.Unlock()
	if ml, ok := ln.(*memnet.Listener); ok {
		return ml.Dial(ctx)
	}
	if ln == nil && InMemory(s.addr) {
		return nil, memnet.ErrRefused
	}
	var d net.Dialer
	return d.DialContext(ctx, "tcp", s.addr)
}

// memServers are the in-memory servers by address, for clients that dial
// an address (DialMemory) rather than a server: a server registers itself
// when it starts and leaves when it closes; a later server at the same
// address takes its place.
var memServers = struct {
	sync.Mutex
	next int
	by   map[string]*Server
}{by: map[string]*Server{}}

// MemoryAddr is a fresh in-memory address ("pipe:N") that no server has
// used.
func MemoryAddr() string {
	memServers.Lock()
	defer memServers.Unlock()
	memServers.next++
	return fmt.Sprintf("%s:%d", PipeAddr, memServers.next)
}

func (s *Server) registerMemory() {
	if !InMemory(s.addr) {
		return
	}
	memServers.Lock()
	memServers.by[s.addr] = s
	memServers.Unlock()
}

func (s *Server) unregisterMemory() {
	memServers.Lock()
	if memServers.by[s.addr] == s {
		delete(memServers.by, s.addr)
	}
	memServers.Unlock()
}

// DialMemory connects to the in-memory server at an address (a Dialer of
// the live client's shape): refused when none listens there.
func DialMemory(ctx context.Context, addr string) (net.Conn, error) {
	memServers.Lock()
	s := memServers.by[addr]
	memServers.Unlock()
	if s == nil {
		return nil, fmt.Errorf("dial %s: %w", addr, memnet.ErrRefused)
	}
	return s.Dial(ctx, addr)
}
