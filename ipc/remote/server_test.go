package remote_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
)

// TestConnectionLimit: at MaxConns, a new connection takes the place of
// the oldest that has not said hello (told why); when every connection has
// said hello, the new one is told the server is full and closed. Those
// past hello are never displaced.
func TestConnectionLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, logs := pipeServer(t, remote.ServerOptions{Body: newSmall(), MaxConns: 3})
		agent := connect(t, srv)
		agent.hello()
		older := connect(t, srv)
		synctest.Wait() // older arrives first
		newer := connect(t, srv)
		synctest.Wait()
		assert.Equal(t, 3, srv.Conns())

		late := connect(t, srv)
		assert.Equal(t, "the server is at its limit of 3 connections and this one had not said hello", older.expectDisconnect())
		logs.await(t, "had not said hello")
		newer.hello()
		late.hello()
		synctest.Wait()
		assert.Equal(t, 3, srv.Conns())

		refused := connect(t, srv)
		assert.Equal(t, "the server is full: 3 connections, all past hello (the limit is 3)", refused.expectDisconnect())
		logs.await(t, "refusing a connection: the server is full")
		synctest.Wait()
		assert.Equal(t, 3, srv.Conns())
		for i, c := range []*pipeClient{agent, newer, late} {
			c.observe(string(rune('1' + i)))
		}
	})
}

// TestDefaultConnectionLimit: without MaxConns, 16 connections.
func TestDefaultConnectionLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, _ := pipeServer(t, remote.ServerOptions{Body: newSmall()})
		for range remote.DefaultMaxConns {
			connect(t, srv).hello()
		}
		assert.Contains(t, connect(t, srv).expectDisconnect(), "the limit is 16")
	})
}
