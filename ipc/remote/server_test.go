package remote_test

import (
	"net"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/internal/authguard"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
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

// fromHost is a pipe end that says it comes from a TCP address.
type fromHost struct {
	net.Conn
	ip string
}

func (f fromHost) RemoteAddr() net.Addr { return &net.TCPAddr{IP: net.ParseIP(f.ip), Port: 40000} }

// TestWrongTokensAreSlowed: each wrong or missing token closes its
// connection; after authguard.Burst of them from one address, a hello
// from there is refused unchecked (the right token too) until
// authguard.Every has passed, then one guess per Every is checked. Other
// addresses are served meanwhile.
func TestWrongTokensAreSlowed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const token = "0123456789abcdef0123456789abcdef"
		srv, logs := pipeServer(t, remote.ServerOptions{Body: newSmall(), Token: token})
		from := func(ip string) *pipeClient {
			client, server := net.Pipe()
			go srv.ServeConn(fromHost{Conn: server, ip: ip})
			return wrapPipe(t, client)
		}
		hello := func(c *pipeClient, tok string) {
			c.send(`{"v":1,"id":1,"type":"hello","payload":{"protocol":1,"role":"agent","token":"` + tok + `"}}`)
		}
		for i := range authguard.Burst {
			c := from("192.0.2.1")
			if i == 0 {
				c.send(`{"v":1,"id":1,"type":"hello","payload":{"protocol":1,"role":"agent"}}`)
				assert.Equal(t, "this server needs a token in hello", c.expectError(wire.CodeUnauthorized))
			} else {
				hello(c, "guess")
				assert.Equal(t, "wrong token", c.expectError(wire.CodeUnauthorized))
			}
			c.expectEnd()
		}
		logs.await(t, "hello refused: missing or wrong token")

		c := from("192.0.2.1")
		hello(c, token)
		assert.Equal(t, "too many wrong tokens from this address; try again in 2s", c.expectError(wire.CodeUnauthorized))
		c.expectEnd()
		logs.await(t, "hello refused unchecked")

		other := from("192.0.2.2")
		hello(other, token)
		m := other.next()
		assert.Equal(t, wire.TypeReply, m.Type, "another address is served: %s", m.Payload)

		// Sleep reason: the guard lets one guess through per Every of its
		// clock, and waiting it out is what a client does; in this bubble it
		// is exactly Every of virtual time.
		time.Sleep(authguard.Every)
		c = from("192.0.2.1")
		hello(c, "guess")
		assert.Equal(t, "wrong token", c.expectError(wire.CodeUnauthorized), "one guess per Every is checked")
		c = from("192.0.2.1")
		hello(c, token)
		assert.Contains(t, c.expectError(wire.CodeUnauthorized), "too many wrong tokens")

		time.Sleep(authguard.Every) // as above: the guard's clock, virtual here
		c = from("192.0.2.1")
		hello(c, token)
		m = c.next()
		assert.Equal(t, wire.TypeReply, m.Type, "the right token is served once the wait is over: %s", m.Payload)
	})
}
