package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/gtnh-agent/gtnh-agent/gtnh/record"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

const mapUsage = `map --recording FILE [--at MS] --out FILE.png [--center X,Z] [--radius N] [--scale N] [--max-y Y] [--json]
       map --trace FILE [--scenario NAME|FILE] [--seed N] [--step N] --out FILE.png ...`

// mapCommand is agent map: it draws the world model seen from above as a
// PNG, from a recording (replayed as agent replay does) or from a trace
// of a simulated run (its actions played again in the scenario).
type mapCommand struct {
	recording, trace, out string
	at                    int64
	scenario              string
	seed                  int64
	lastStep              int
	mf                    mapFlags
	set                   map[string]bool
}

var _ subcommand = (*mapCommand)(nil)

func (c *mapCommand) parse(e *env, args []string) error {
	fs := newFlagSet(e, "map", mapUsage)
	fs.StringVar(&c.recording, "recording", "", "draw the world at the end of this recording (agent run --record)")
	fs.Int64Var(&c.at, "at", 0, "with --recording: the world after the first MS milliseconds of the recording (0: the whole recording)")
	fs.StringVar(&c.trace, "trace", "", "draw the world at the end of this trace of a simulated run (agent run --trace), played again in its scenario")
	fs.StringVar(&c.scenario, "scenario", "", "with --trace: the scenario of the run, an embedded one by name or a YAML file (default: forest_base)")
	fs.Int64Var(&c.seed, "seed", 0, "with --trace: the --seed of the run")
	fs.IntVar(&c.lastStep, "step", 0, "with --trace: the world after this step (0: after the last)")
	fs.StringVar(&c.out, "out", "", "write the map to `FILE` (a PNG; JSON with --json)")
	c.mf.register(fs, "")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	c.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { c.set[f.Name] = true })
	return noArgs("map", pos)
}

func (c *mapCommand) validate(*env) error {
	switch {
	case c.recording == "" && c.trace == "":
		return usagef("map: give --recording FILE or --trace FILE\nusage: agent %s", mapUsage)
	case c.recording != "" && c.trace != "":
		return usagef("map: give --recording or --trace, not both")
	case c.out == "":
		return usagef("map: --out FILE is needed (the PNG to write)")
	}
	if c.recording != "" {
		for _, n := range []string{"scenario", "seed", "step"} {
			if c.set[n] {
				return usagef("map: --%s is for --trace", n)
			}
		}
	} else if c.set["at"] {
		return usagef("map: --at is for --recording")
	}
	if c.at < 0 {
		return usagef("map: --at must not be negative")
	}
	if c.lastStep < 0 {
		return usagef("map: --step must not be negative")
	}
	return c.mf.check("map", "")
}

func (c *mapCommand) run(e *env) error {
	ctx, stop := interruptContext()
	defer stop()
	var (
		snap    *world.Snapshot
		tracker *mapTracker
		err     error
	)
	if c.recording != "" {
		snap, tracker, err = c.replayed(ctx, e)
	} else {
		snap, tracker, err = c.resimulated(ctx, e)
	}
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	d, err := c.mf.writeMap(c.out, snap, tracker)
	if err != nil {
		return fmt.Errorf("map: %w", err)
	}
	d.report(e.stdout, c.out, c.mf.scale)
	return nil
}

// replayed is the world at the end of the recording (or at --at), and the
// way the bot last looked in it (its position and look records).
func (c *mapCommand) replayed(ctx context.Context, e *env) (*world.Snapshot, *mapTracker, error) {
	f, err := os.Open(c.recording)
	if err != nil {
		return nil, nil, usagef("map: %v", err)
	}
	defer f.Close()
	t := &mapTracker{}
	res, err := record.Replay(ctx, f, record.ReplayOptions{Until: msDuration(c.at), Log: e.log.With().Logger(),
		Look: func(_ time.Duration, l record.Look) {
			yaw := math.Mod(math.Mod(float64(l.Yaw), 360)+360, 360)
			t.yaw = &yaw
		}})
	if res == nil {
		return nil, nil, fmt.Errorf("map: replay %s: %w", c.recording, err)
	}
	if err != nil {
		// What was whole is drawn; the file is still reported bad.
		e.log.Warn().Str("recording", c.recording).Err(err).Msg("the recording is damaged: the map shows the world up to there")
	}
	return res.World, t, nil
}

// resimulated plays the trace's actions again in its scenario and returns
// the world after them, with what the map marks. The trace must have been
// written in that scenario with that seed: every step must start where the
// bot stands and every action end as it did.
func (c *mapCommand) resimulated(ctx context.Context, e *env) (*world.Snapshot, *mapTracker, error) {
	sc, err := loadScenario(c.scenario)
	if err != nil {
		return nil, nil, usagef("map: %v", err)
	}
	f, err := os.Open(c.trace)
	if err != nil {
		return nil, nil, usagef("map: %v", err)
	}
	defer f.Close()
	w, err := sim.NewContext(ctx, sc, sim.Options{Seed: c.seed})
	if err != nil {
		return nil, nil, fmt.Errorf("map: scenario %s: %w", sc.Name, err)
	}
	t := &mapTracker{}
	steps, err := replayTrace(ctx, newTraceReader(c.trace, f), w, t, c.lastStep)
	if err != nil {
		return nil, nil, fmt.Errorf("map: %w (was the run in scenario %s with seed %d?)", err, sc.Name, c.seed)
	}
	if c.lastStep > 0 && steps < c.lastStep {
		return nil, nil, usagef("map: --step %d: the trace has %d steps", c.lastStep, steps)
	}
	snap, err := w.Observe(ctx)
	return snap, t, err
}

// replayTrace executes the actions of the trace's steps on b in order, up
// to step last (0: all), checking that each step starts where the trace
// says the bot stood and each action ends with the code the trace has. It
// returns the number of steps played.
func replayTrace(ctx context.Context, tr *traceReader, b ipc.Body, t *mapTracker, last int) (int, error) {
	n := 0
	for {
		rec, err := tr.next()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		snap, err := b.Observe(ctx)
		if err != nil {
			return n, err
		}
		if feet := snap.Feet(); feet != rec.Before.Pos {
			return n, fmt.Errorf("%s:%d: step %d starts at %v in the trace, at %v here", tr.file, tr.line, rec.Step, rec.Before.Pos, feet)
		}
		played := rec
		played.Results = make([]ipc.Result, 0, len(rec.Results))
		for i, want := range rec.Results {
			a := rec.Actions[i].Action
			got := b.Execute(ctx, a)
			if ctx.Err() != nil {
				return n, ctx.Err()
			}
			if got.Code != want.Code {
				return n, fmt.Errorf("%s:%d: step %d, action %d (%s): %s in the trace, %s here", tr.file, tr.line, rec.Step, i+1, a.Kind(), want.Code, got.Code)
			}
			played.Results = append(played.Results, got)
		}
		t.step(played)
		n++
		if last > 0 && n == last {
			return n, nil
		}
	}
}
