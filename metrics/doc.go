// Package metrics exports what a run does in the Prometheus text format:
// steps by skill and verdict, actions by kind and result code, the
// planner's latency and a model's tokens, the live connection's packets,
// malformed packets and reconnects, the memory the world model holds, and
// the Go runtime's own metrics (goroutines, heap, GC).
//
// A Recorder owns one prometheus.Registry (never the global one), so two
// runs in one process, or two tests, count apart. It is fed from the loop's
// step records (Recorder.OnStep, for loop.Config.OnStep) and from a served
// body's actions (Recorder.Body); the connection and the world model are
// read when a scrape asks, not on the agent's path.
//
// Serve answers /metrics on a listener: loopback by default, a bearer
// token for any other address (internal/authguard's rules), a cap on
// connections and read and write timeouts. A slow or stuck scraper holds
// no lock of the agent: counters are atomic, and what a scrape reads
// (client statistics, a world snapshot) is copied under the owner's lock
// and written out after it is released.
package metrics
