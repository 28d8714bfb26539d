package fakeserver

import (
	"context"
	"net"
	"strings"

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
