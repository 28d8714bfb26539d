// Command serveabuse is the hostile client of scripts/abuse-serve.sh: it
// plays the abuses of `agent serve` the reliability suite measures, on a
// loopback address, and prints what the server answered.
//
//	serveabuse port                        print a free loopback port
//	serveabuse hello -addr A [-conns 400]  connections each sending a 4 MiB hello without its newline
//	serveabuse deaf -addr A [-conns 6]     clients sending blocks_in without reading
//	serveabuse wait -addr A                a wait of 2^63-1 ticks, and a long wait cancelled and dropped
//
// Every mode runs a well-behaved client too and exits 1 when it was not
// served. Every loop is bounded; only loopback addresses are accepted.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: serveabuse port | hello|deaf|wait -addr 127.0.0.1:PORT")
		os.Exit(2)
	}
	if os.Args[1] == "port" {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fail("%v", err)
		}
		fmt.Println(l.Addr().(*net.TCPAddr).Port)
		l.Close()
		return
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	addr := fs.String("addr", "", "the server, 127.0.0.1:PORT")
	conns := fs.Int("conns", 0, "hostile connections (hello: 400, deaf: 6)")
	hold := fs.Duration("hold", 3*time.Second, "how long the hostile connections are held")
	fs.Parse(os.Args[2:])
	host, _, err := net.SplitHostPort(*addr)
	if err != nil || !net.ParseIP(host).IsLoopback() {
		fail("-addr must be a loopback 127.0.0.1:PORT, got %q", *addr)
	}
	switch os.Args[1] {
	case "hello":
		helloFlood(*addr, orDefault(*conns, 400), *hold)
	case "deaf":
		deaf(*addr, orDefault(*conns, 6), *hold)
	case "wait":
		hugeWait(*addr)
	default:
		fail("unknown mode %q", os.Args[1])
	}
}

func orDefault(n, d int) int {
	if n > 0 {
		return n
	}
	return d
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "serveabuse: "+format+"\n", args...)
	os.Exit(1)
}

// client is a line-level connection.
type client struct {
	c  net.Conn
	sc *bufio.Scanner
}

func dial(addr string) (*client, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(c)
	sc.Buffer(nil, 8<<20)
	return &client{c: c, sc: sc}, nil
}

func (c *client) send(line string) error {
	c.c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_, err := c.c.Write([]byte(line + "\n"))
	return err
}

type message struct {
	ID      json.RawMessage `json:"id"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

// next reads the next message within d.
func (c *client) next(d time.Duration) (message, error) {
	c.c.SetReadDeadline(time.Now().Add(d))
	if !c.sc.Scan() {
		if c.sc.Err() == nil {
			return message{}, io.EOF
		}
		return message{}, c.sc.Err()
	}
	var m message
	if err := json.Unmarshal(c.sc.Bytes(), &m); err != nil {
		return message{Type: "cut"}, nil // the rest of a line the server gave up writing
	}
	return m, nil
}

// reply reads until the answer to id (events skipped).
func (c *client) reply(id string, d time.Duration) (message, error) {
	for {
		m, err := c.next(d)
		if err != nil {
			return m, err
		}
		if string(m.ID) == id && (m.Type == "reply" || m.Type == "error") {
			return m, nil
		}
	}
}

const hello = `{"v":1,"id":1,"type":"hello","payload":{"protocol":1,"role":"agent","name":"abuse"}}`

// wellBehaved says hello and observes; it returns the time the observe took.
func wellBehaved(addr string) (time.Duration, error) {
	c, err := dial(addr)
	if err != nil {
		return 0, err
	}
	defer c.c.Close()
	if err := c.send(hello); err != nil {
		return 0, err
	}
	m, err := c.reply("1", 10*time.Second)
	if err != nil || m.Type != "reply" {
		return 0, fmt.Errorf("hello: %s %s %v", m.Type, m.Payload, err)
	}
	start := time.Now()
	if err := c.send(`{"v":1,"id":2,"type":"observe"}`); err != nil {
		return 0, err
	}
	m, err = c.reply("2", 10*time.Second)
	if err != nil || m.Type != "reply" {
		return 0, fmt.Errorf("observe: %s %.200s %v", m.Type, m.Payload, err)
	}
	return time.Since(start), nil
}

// reasons counts what the server said last on each hostile connection.
type reasons struct {
	mu sync.Mutex
	n  map[string]int
}

func (r *reasons) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == nil {
		r.n = map[string]int{}
	}
	r.n[s]++
}

func (r *reasons) print(what string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	keys := make([]string, 0, len(r.n))
	for k := range r.n {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("  %s: %4d × %s\n", what, r.n[k], k)
	}
}

// lastWords reads what the server sends until it closes (or d passes) and
// returns the last error or disconnect reason.
func lastWords(c *client, d time.Duration) string {
	said := "nothing"
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		m, err := c.next(time.Until(deadline))
		if err != nil {
			var ne net.Error
			switch {
			case errors.Is(err, io.EOF):
				return said + ", then closed"
			case errors.As(err, &ne) && ne.Timeout():
				return said + ", still open"
			}
			return said + ", then " + strings.TrimPrefix(err.Error(), "read ")
		}
		switch m.Type {
		case "cut":
			said = "a line cut short"
		case "error", "disconnect":
			var p struct{ Message, Reason string }
			json.Unmarshal(m.Payload, &p)
			said = m.Type + " \"" + p.Message + p.Reason + "\""
		}
	}
	return said + ", still open"
}

// helloFlood opens conns connections at once, each sending the start of a
// hello and 4 MiB of its payload without a newline, holds them, and serves
// a well-behaved client meanwhile.
func helloFlood(addr string, conns int, hold time.Duration) {
	var wg sync.WaitGroup
	var r reasons
	var mu sync.Mutex
	sentMax := 0
	start := time.Now()
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := dial(addr)
			if err != nil {
				r.add("dial failed: " + err.Error())
				return
			}
			defer c.c.Close()
			chunk := bytes.Repeat([]byte("x"), 64<<10)
			c.c.SetWriteDeadline(time.Now().Add(hold))
			sent := 0
			if n, err := c.c.Write([]byte(`{"v":1,"id":1,"type":"hello","payload":{"x":"`)); err == nil {
				sent += n
				for sent < 4<<20 {
					n, err := c.c.Write(chunk)
					sent += n
					if err != nil {
						break
					}
				}
			}
			mu.Lock()
			sentMax = max(sentMax, sent)
			mu.Unlock()
			r.add(lastWords(c, time.Until(start.Add(hold))))
		}()
	}
	time.Sleep(hold / 3)
	took, err := wellBehaved(addr)
	wg.Wait()
	fmt.Printf("hello flood: %d connections, each sending a hello of 4 MiB without its newline, held %s\n", conns, hold)
	r.print("hostile")
	fmt.Printf("  most bytes of its hello one hostile connection handed to the kernel: %d\n", sentMax)
	if err != nil {
		fail("the well-behaved client was not served: %v", err)
	}
	fmt.Printf("  well-behaved client: hello and observe answered (observe %s)\n", took.Round(time.Millisecond))
}

// deaf connects conns clients that say hello, then send blocks_in
// requests for the largest box (underground in the default scenario: every
// block solid, a reply of about 2.6 MB) and never read; a well-behaved client is
// served meanwhile; after hold, what each deaf client was told is read.
func deaf(addr string, conns int, hold time.Duration) {
	var wg sync.WaitGroup
	var r reasons
	req := `{"v":1,"id":%d,"type":"blocks_in","payload":{"from":{"x":8,"y":20,"z":16},"to":{"x":39,"y":51,"z":47}}}`
	var sentMu sync.Mutex
	sent := 0
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := dial(addr)
			if err != nil {
				r.add("dial failed: " + err.Error())
				return
			}
			defer c.c.Close()
			if err := c.send(hello); err != nil {
				r.add("hello failed: " + err.Error())
				return
			}
			if m, err := c.reply("1", 10*time.Second); err != nil || m.Type != "reply" {
				r.add(fmt.Sprintf("hello refused: %s %s %v", m.Type, m.Payload, err))
				return
			}
			end := time.Now().Add(hold)
			n := 0
			c.c.SetWriteDeadline(end)
			for i := 2; i < 602; i++ {
				if _, err := fmt.Fprintf(c.c, req+"\n", i); err != nil {
					break
				}
				n++
			}
			sentMu.Lock()
			sent += n
			sentMu.Unlock()
			time.Sleep(time.Until(end))
			r.add(lastWords(c, 5*time.Second))
		}()
	}
	time.Sleep(hold / 3)
	took, err := wellBehaved(addr)
	wg.Wait()
	fmt.Printf("deaf clients: %d, each sending up to 600 blocks_in of 32×32×32 without reading (%d sent), held %s\n", conns, sent, hold)
	r.print("deaf")
	if err != nil {
		fail("the well-behaved client was not served: %v", err)
	}
	fmt.Printf("  well-behaved client during the stall: hello and observe answered (observe %s)\n", took.Round(time.Millisecond))
	if took, err = wellBehaved(addr); err != nil {
		fail("the well-behaved client was not served after: %v", err)
	}
	fmt.Printf("  well-behaved client after: observe %s\n", took.Round(time.Millisecond))
}

// hugeWait asks for a wait of 2^63-1 ticks, then the longest wait allowed
// cancelled at once and dropped at once, and checks the body answers
// another connection after each.
func hugeWait(addr string) {
	c, err := dial(addr)
	if err != nil {
		fail("%v", err)
	}
	defer c.c.Close()
	c.send(hello)
	if _, err := c.reply("1", 10*time.Second); err != nil {
		fail("hello: %v", err)
	}
	start := time.Now()
	c.send(`{"v":1,"id":2,"type":"execute","payload":{"type":"wait","ticks":9223372036854775807}}`)
	m, err := c.reply("2", 10*time.Second)
	if err != nil {
		fail("wait 2^63-1: %v", err)
	}
	fmt.Printf("wait of 2^63-1 ticks: answered in %s: %s\n", time.Since(start).Round(time.Microsecond), m.Payload)

	start = time.Now()
	c.send(`{"v":1,"id":3,"type":"execute","payload":{"type":"wait","ticks":72000}}`)
	c.send(`{"v":1,"type":"cancel","payload":{"id":3}}`)
	m, err = c.reply("3", 10*time.Second)
	if err != nil {
		fail("cancelled wait: %v", err)
	}
	fmt.Printf("wait of 72000 ticks cancelled at once: answered in %s: %s\n", time.Since(start).Round(time.Microsecond), m.Payload)

	d, err := dial(addr)
	if err != nil {
		fail("%v", err)
	}
	d.send(hello)
	d.reply("1", 10*time.Second)
	start = time.Now()
	d.send(`{"v":1,"id":2,"type":"execute","payload":{"type":"wait","ticks":72000}}`)
	d.c.Close()
	// The body is free once the dropped connection's wait has ended: the
	// next action on another connection is not busy.
	deadline := time.Now().Add(5 * time.Second)
	for id := 10; ; id++ {
		c.send(fmt.Sprintf(`{"v":1,"id":%d,"type":"execute","payload":{"type":"wait","ticks":1}}`, id))
		m, err := c.reply(fmt.Sprint(id), 10*time.Second)
		if err != nil {
			fail("after a drop: %v", err)
		}
		if m.Type == "reply" {
			fmt.Printf("wait of 72000 ticks, client gone at once: the body took the next action after %s\n", time.Since(start).Round(time.Microsecond))
			break
		}
		if time.Now().After(deadline) {
			fail("the body was still busy 5 s after the client left: %s", m.Payload)
		}
		time.Sleep(time.Millisecond)
	}
	took, err := wellBehaved(addr)
	if err != nil {
		fail("the well-behaved client was not served: %v", err)
	}
	fmt.Printf("  well-behaved client: observe %s\n", took.Round(time.Millisecond))
}
