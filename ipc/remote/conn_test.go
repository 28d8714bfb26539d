package remote_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// The tests here run the server inside a synctest bubble over net.Pipe:
// a pipe holds nothing, so a client that does not read blocks the
// server's next write at once, and the write timeout passes on the
// bubble's clock when everything else waits.

// logLines is a log sink that hands each line to the test.
type logLines chan string

func (l logLines) Write(p []byte) (int, error) {
	select {
	case l <- string(p):
	default: // a test that reads none of them does not block the server
	}
	return len(p), nil
}

// await reads log lines until one contains want.
func (l logLines) await(t *testing.T, want string) string {
	t.Helper()
	for line := range l {
		if strings.Contains(line, want) {
			return line
		}
	}
	t.Fatalf("the log ended without %q", want)
	return ""
}

// pipeServer starts a server in the bubble; its log lines go to the
// returned sink.
func pipeServer(t *testing.T, opts remote.ServerOptions) (*remote.Server, logLines) {
	t.Helper()
	logs := make(logLines, 256)
	opts.Log = zerolog.New(logs)
	if opts.Poll == 0 {
		opts.Poll = -1 // no ticker: the bubble's clock moves only for the timeouts under test
	}
	srv, err := remote.NewServer(opts)
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	return srv, logs
}

// pipeClient is a line-level client on one end of a net.Pipe.
type pipeClient struct {
	t  *testing.T
	c  net.Conn
	sc *bufio.Scanner
}

func connect(t *testing.T, srv *remote.Server) *pipeClient {
	t.Helper()
	client, server := net.Pipe()
	go srv.ServeConn(server)
	return wrapPipe(t, client)
}

func wrapPipe(t *testing.T, c net.Conn) *pipeClient {
	sc := bufio.NewScanner(c)
	sc.Buffer(nil, 16<<20)
	t.Cleanup(func() { c.Close() })
	return &pipeClient{t: t, c: c, sc: sc}
}

func (p *pipeClient) send(line string) {
	p.t.Helper()
	_, err := p.c.Write([]byte(line + "\n"))
	require.NoError(p.t, err)
}

// next reads the next message, event or not.
func (p *pipeClient) next() wire.Message {
	p.t.Helper()
	require.True(p.t, p.sc.Scan(), "no message: %v", p.sc.Err())
	var m wire.Message
	require.NoError(p.t, json.Unmarshal(p.sc.Bytes(), &m), p.sc.Text())
	return m
}

func (p *pipeClient) hello() wire.Welcome {
	p.t.Helper()
	p.send(helloLine)
	m := p.next()
	require.Equal(p.t, wire.TypeReply, m.Type, string(m.Payload))
	var w wire.Welcome
	require.NoError(p.t, json.Unmarshal(m.Payload, &w))
	return w
}

// expectError reads an error and returns its message.
func (p *pipeClient) expectError(code wire.ErrorCode) string {
	p.t.Helper()
	m := p.next()
	require.Equal(p.t, wire.TypeError, m.Type, string(m.Payload))
	var e wire.Error
	require.NoError(p.t, json.Unmarshal(m.Payload, &e))
	assert.Equal(p.t, code, e.Code, e.Message)
	return e.Message
}

// expectDisconnect reads the disconnect event, then the end of the stream;
// it returns the reason.
func (p *pipeClient) expectDisconnect() string {
	p.t.Helper()
	m := p.next()
	require.Equal(p.t, wire.EventDisconnect, m.Type, string(m.Payload))
	var d wire.DisconnectEvent
	require.NoError(p.t, json.Unmarshal(m.Payload, &d))
	p.expectEnd()
	return d.Reason
}

func (p *pipeClient) expectEnd() {
	p.t.Helper()
	assert.False(p.t, p.sc.Scan(), "the connection closes, not %s", p.sc.Text())
}

// observe asks for a snapshot and checks the answer.
func (p *pipeClient) observe(id string) {
	p.t.Helper()
	p.send(`{"v":1,"id":` + id + `,"type":"observe"}`)
	m := p.next()
	require.Equal(p.t, wire.TypeReply, m.Type, string(m.Payload))
	assert.Equal(p.t, id, string(m.ID))
}

// TestPreHelloLines: before hello a line is at most 64 KiB; a longer one
// is refused as soon as the limit is passed (the rest is never read) and
// ends the connection with the reason. A shorter one is answered and the
// connection goes on; after hello, lines up to the message limit pass.
func TestPreHelloLines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, logs := pipeServer(t, remote.ServerOptions{Body: newSmall()})
		c := connect(t, srv)
		c.send(`{"v":1,"id":2,"type":"observe"` + strings.Repeat(" ", 60<<10) + `}`)
		assert.Equal(t, "send hello first", c.expectError(wire.CodeUnauthorized))

		var sent atomic.Int64
		go func() {
			n, _ := c.c.Write([]byte(`{"v":1,"id":1,"type":"hello","payload":{"x":"` + strings.Repeat("x", 4<<20)))
			sent.Store(int64(n))
		}()
		assert.Contains(t, c.expectError(wire.CodeTooLarge), "a message before hello is at most 65536 bytes")
		assert.Equal(t, "a message of over 65536 bytes before hello", c.expectDisconnect())
		logs.await(t, "dropping a client")
		synctest.Wait()
		assert.Less(t, sent.Load(), int64(100<<10), "the server stopped reading at the limit")
		assert.Equal(t, 0, srv.Conns())

		ok := connect(t, srv)
		ok.hello()
		ok.send(`{"v":1,"id":3,"type":"observe","payload":` + strings.Repeat(" ", 1<<20) + `{}}`)
		m := ok.next()
		assert.Equal(t, wire.TypeReply, m.Type, "a 1 MiB line after hello: %s", m.Payload)
	})
}

// bulky is a body whose snapshot is about 20 KiB on the wire; it counts
// the snapshots asked for.
type bulky struct {
	*small
	observed atomic.Int64
}

func (b *bulky) Observe(ctx context.Context) (*world.Snapshot, error) {
	b.observed.Add(1)
	snap, err := b.small.Observe(ctx)
	for i := range 100 {
		snap.Entities = append(snap.Entities, world.Entity{ID: i, Kind: world.EntityMob, Name: strings.Repeat("z", 150)})
	}
	return snap, err
}

// TestSlowClientIsDropped: a client that sends requests and never reads
// has at most its reply budget prepared for it (twice the message limit:
// the reply being written, and as many more as fit beside a query that
// takes the whole limit), is dropped once a write has waited the write
// timeout, with a disconnect event saying why as soon as it reads again,
// and other clients are served all along.
func TestSlowClientIsDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const limit = 64 << 10
		body := &bulky{small: newSmall()}
		srv, logs := pipeServer(t, remote.ServerOptions{Body: body, MaxMessage: limit})
		slow := connect(t, srv)
		slow.hello()
		go func() {
			for id := 100; id < 120; id++ {
				if _, err := fmt.Fprintf(slow.c, `{"v":1,"id":%d,"type":"observe"}`+"\n", id); err != nil {
					return
				}
			}
		}()
		synctest.Wait()
		snap, err := body.Observe(context.Background())
		require.NoError(t, err)
		line, err := wire.Encode(json.RawMessage("100"), wire.TypeReply, wire.Observation{Snapshot: snap})
		require.NoError(t, err)
		size := len(line)
		require.Greater(t, size, limit/4, "the reply size the test needs")
		// Each prepared reply keeps its own size; the next query needs the
		// whole limit beside them, within twice the limit.
		want := (2*limit-limit)/size + 1
		assert.Equal(t, int64(want), body.observed.Load()-1, "replies prepared for a client that does not read")
		assert.Equal(t, 20-want, srv.InFlight(), "the rest wait for the budget, unanswered")

		other := connect(t, srv)
		other.hello()
		other.observe("7")

		reason := logs.await(t, "dropping a slow client")
		assert.Contains(t, reason, fmt.Sprintf("the client did not read a message of %d bytes within 10s", size))
		assert.Contains(t, slow.expectDisconnect(), "did not read a message")
		synctest.Wait()
		assert.Equal(t, 1, srv.Conns(), "the slow client is gone")
		assert.Equal(t, 0, srv.InFlight(), "and its waiting requests with it")
		other.observe("8")
	})
}

// TestRepliesAfterActions: an action takes its share of the reply budget
// once it has run, so a long action never holds up the queries beside it,
// even with a budget of one message.
func TestRepliesAfterActions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBlocking()
		srv, _ := pipeServer(t, remote.ServerOptions{Body: b, ReplyBudget: 1})
		c := connect(t, srv)
		c.hello()
		c.send(`{"v":1,"id":1,"type":"execute","payload":{"type":"wait","ticks":5}}`)
		<-b.started
		c.observe("2")
		c.observe("3")
		b.release <- struct{}{}
		m := c.next()
		require.Equal(t, wire.TypeReply, m.Type, string(m.Payload))
		var res ipc.Result
		require.NoError(t, json.Unmarshal(m.Payload, &res))
		assert.Equal(t, ipc.OK, res.Code)
	})
}

// noDeadlines hides a connection's deadlines, as a child's stdin and stdout
// have none.
type noDeadlines struct{ c net.Conn }

func (n noDeadlines) Read(p []byte) (int, error)  { return n.c.Read(p) }
func (n noDeadlines) Write(p []byte) (int, error) { return n.c.Write(p) }
func (n noDeadlines) Close() error                { return n.c.Close() }

var _ io.ReadWriteCloser = noDeadlines{}

// TestStuckWriteWithoutDeadlines: on a connection without write deadlines
// a write that waits the write timeout ends by closing the connection.
func TestStuckWriteWithoutDeadlines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, logs := pipeServer(t, remote.ServerOptions{Body: newSmall()})
		client, server := net.Pipe()
		go srv.ServeConn(noDeadlines{server})
		c := wrapPipe(t, client)
		c.hello()
		c.send(`{"v":1,"id":2,"type":"observe"}`)
		logs.await(t, "dropping a slow client")
		synctest.Wait()
		assert.Equal(t, 0, srv.Conns())
		c.expectEnd()
	})
}

// TestHugeWaitIsRefused: a wait of 2^63-1 ticks is invalid_params at once,
// naming the bound, and the body is free for the next action.
func TestHugeWaitIsRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, _ := pipeServer(t, remote.ServerOptions{Body: newSmall()})
		c := connect(t, srv)
		c.hello()
		c.send(`{"v":1,"id":2,"type":"execute","payload":{"type":"wait","ticks":9223372036854775807}}`)
		m := c.next()
		require.Equal(t, wire.TypeReply, m.Type, string(m.Payload))
		var res ipc.Result
		require.NoError(t, json.Unmarshal(m.Payload, &res))
		assert.Equal(t, ipc.InvalidParams, res.Code)
		assert.Contains(t, res.Error, fmt.Sprintf("at most %d", action.MaxWaitTicks))
		c.send(`{"v":1,"id":3,"type":"execute","payload":{"type":"wait","ticks":72000}}`)
		m = c.next()
		require.NoError(t, json.Unmarshal(m.Payload, &res))
		assert.Equal(t, ipc.OK, res.Code, res.Error)
	})
}

// TestCloseNoticeWaitsForAWriteUnderWay: a server that closes while a
// reply is being written to a client still tells the client why, after the
// reply (the notice used to be skipped whenever another write held the
// line, so a client under load saw the connection end without it).
func TestCloseNoticeWaitsForAWriteUnderWay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, _ := pipeServer(t, remote.ServerOptions{Body: newSmall()})
		c := connect(t, srv)
		c.hello()
		c.send(`{"v":1,"id":"late","type":"observe"}`)
		synctest.Wait() // the reply's write waits for the client to read
		closed := make(chan struct{})
		go func() { srv.Close(); close(closed) }()
		synctest.Wait()
		m := c.next()
		require.Equal(t, wire.TypeReply, m.Type, string(m.Payload))
		assert.Contains(t, c.expectDisconnect(), "server shutting down")
		<-closed
	})
}
