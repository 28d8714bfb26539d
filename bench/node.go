package bench

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Worker is the running JavaScript side: node bench/js/worker.js, one JSON
// request per line on its stdin, one answer per line on its stdout.
type Worker struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
	Node string // node's version, as the worker reports it
}

// StartWorker starts the worker in dir (bench/js, with node_modules
// installed). Its stderr goes to ours.
func StartWorker(dir string) (*Worker, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("the JavaScript side needs node: %w", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "mineflayer-pathfinder")); err != nil {
		return nil, fmt.Errorf("%s has no node_modules: run npm ci there first", dir)
	}
	cmd := exec.Command(node, "--expose-gc", "worker.js")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting node worker.js: %w", err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	w := &Worker{cmd: cmd, in: in, out: sc}
	var hello struct {
		Node string `json:"node"`
	}
	if err := w.read(&hello); err != nil {
		w.Close()
		return nil, fmt.Errorf("node worker.js did not start: %w", err)
	}
	w.Node = hello.Node
	return w, nil
}

func (w *Worker) read(v any) error {
	if !w.out.Scan() {
		if err := w.out.Err(); err != nil {
			return err
		}
		return errors.New("the worker exited")
	}
	var head struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	line := w.out.Bytes()
	if err := json.Unmarshal(line, &head); err != nil {
		return fmt.Errorf("worker answer %q: %w", truncate(string(line)), err)
	}
	if !head.OK {
		return fmt.Errorf("worker: %s", head.Error)
	}
	return json.Unmarshal(line, v)
}

// Call sends a request and decodes the answer into reply.
func (w *Worker) Call(req map[string]any, reply any) error {
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	if _, err := w.in.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("worker %s: %w", req["op"], err)
	}
	if err := w.read(reply); err != nil {
		return fmt.Errorf("worker %s: %w", req["op"], err)
	}
	return nil
}

// Close ends the worker.
func (w *Worker) Close() error {
	w.in.Close()
	return w.cmd.Wait()
}

func truncate(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return strings.TrimSpace(s)
}
