package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/planner/peer"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// stderrTailBytes is how much of a planner child's stderr is kept for the
// error that reports its crash.
const stderrTailBytes = 4 << 10

// childExitWait is how long a planner child has to exit after its stdin
// closes before it is killed.
const childExitWait = 2 * time.Second

// splitCommand splits a --planner-cmd line into words: spaces separate
// them, single or double quotes keep spaces in one word, a backslash
// outside single quotes takes the next character as it is. There is no
// shell: no variables, globs or pipes.
func splitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case r == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	switch {
	case escaped:
		return nil, errors.New("the command ends with a backslash")
	case quote != 0:
		return nil, fmt.Errorf("unclosed %c quote", quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("empty command")
	}
	return words, nil
}

// tailBuffer keeps the last n bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	n   int
	buf []byte
	cut bool // bytes before buf were dropped
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.n; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.cut = true
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimRight(string(t.buf), "\n")
	if t.cut {
		s = "…" + s
	}
	return s
}

// plannerChild is a planner started with --planner-cmd: its stdin and
// stdout are the connection, its stderr goes to ours and its tail is kept.
type plannerChild struct {
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	tail   *tailBuffer
	done   chan struct{}
	err    error // the exit status, once done is closed
}

// Read and Write make the child's pipes the connection.
func (p *plannerChild) Read(b []byte) (int, error)  { return p.stdout.Read(b) }
func (p *plannerChild) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// Close closes the child's stdin (a planner ends with its input), waits a
// moment for it to exit, kills it if it does not, and reaps it.
func (p *plannerChild) Close() error {
	p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(childExitWait):
		p.cmd.Process.Kill()
		<-p.done
	}
	p.stdout.Close()
	return nil
}

func startPlannerChild(line string, stderr io.Writer) (*plannerChild, error) {
	words, err := splitCommand(line)
	if err != nil {
		return nil, usagef("run: --planner-cmd: %v", err)
	}
	if _, err := exec.LookPath(words[0]); err != nil {
		return nil, usagef("run: --planner-cmd: %v", err)
	}
	cmd := exec.Command(words[0], words[1:]...)
	p := &plannerChild{cmd: cmd, tail: &tailBuffer{n: stderrTailBytes}, done: make(chan struct{})}
	cmd.Stderr = io.MultiWriter(p.tail, stderr)
	// Pipes of our own rather than cmd.StdoutPipe: Wait closes those as
	// soon as the child exits, and the last lines it wrote (an answer, then
	// an exit) would be lost.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("run: --planner-cmd: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("run: --planner-cmd: %w", err)
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	inR.Close() // the child's ends
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("run: starting the planner %q: %w", words[0], err)
	}
	p.stdin, p.stdout = inW, outR
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// describe adds the child's state to a planner error: its exit status when
// it has exited (it gets a moment to, when the connection is gone) and the
// tail of its stderr.
func (p *plannerChild) describe(err error) error {
	wait := time.Duration(0)
	if errors.Is(err, ipc.ErrClosed) {
		wait = time.Second
	}
	select {
	case <-p.done:
		status := "exited"
		if p.err != nil {
			status = p.err.Error()
		}
		err = fmt.Errorf("%w (planner process %s)", err, status)
	case <-time.After(wait):
	}
	if t := p.tail.String(); t != "" {
		err = fmt.Errorf("%w; its stderr ends: %s", err, t)
	}
	return err
}

// plannerConn is the connection to a remote planner and what to close.
type plannerConn struct {
	planner *peer.Planner
	client  *remote.Client
	child   *plannerChild
}

func (pc *plannerConn) Close() {
	if pc.client != nil {
		pc.client.Close()
	}
	if pc.child != nil {
		pc.child.Close()
	}
}

// plannerStartAllowance is the least time a --planner-cmd program has to
// start and say hello, whatever --planner-timeout says: starting a program
// (an interpreter, its imports, a model) is not answering a plan request,
// and a short plan timeout must not fail a program still starting on a
// loaded machine.
const plannerStartAllowance = 10 * time.Second

// helloTimeout is how long a planner program has to say hello: the plan
// timeout, and at least plannerStartAllowance.
func helloTimeout(plan time.Duration) time.Duration { return max(plan, plannerStartAllowance) }

// openPlanner starts (--planner-cmd) or dials (--planner ADDR) a planner
// and says hello; the planner's queries are answered from conn.
func openPlanner(ctx context.Context, e *env, cmdLine, addr, tokenFile string, timeout time.Duration,
	conn ipc.Conn, reg *registry.Registry) (*plannerConn, error) {
	opts := remote.ClientOptions{Name: "agent run", Log: e.component("planner"),
		Handle: remote.AgentHandler(conn.Observe, registryCatalog(reg))}
	pc := &plannerConn{}
	popts := peer.PlannerOptions{Timeout: timeout}
	var err error
	if cmdLine != "" {
		if pc.child, err = startPlannerChild(cmdLine, e.stderr); err != nil {
			return nil, err
		}
		popts.Describe = pc.child.describe
		hctx, cancel := context.WithTimeout(ctx, helloTimeout(timeout))
		pc.client, err = remote.NewClient(hctx, pc.child, opts)
		cancel()
		if err != nil {
			err = pc.child.describe(err)
			pc.child.Close()
			return nil, fmt.Errorf("run: the planner %q: %w", cmdLine, err)
		}
	} else {
		if tokenFile != "" {
			if opts.Token, err = readToken(tokenFile); err != nil {
				return nil, usagef("run: --token-file: %v", err)
			}
		}
		if pc.client, err = remote.Dial(ctx, addr, opts); err != nil {
			return nil, fmt.Errorf("run: connecting to the planner: %w", err)
		}
	}
	if pc.planner, err = peer.NewPlanner(pc.client, popts); err != nil {
		pc.Close()
		return nil, fmt.Errorf("run: %w", err)
	}
	return pc, nil
}
