package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"

	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/memory"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

const (
	memoryShowUsage   = "memory show [--memory FILE] [--server NAME [--dimension D]] [--limit N] [--json]"
	memoryForgetUsage = "memory forget --server NAME [--dimension D] [--what all|sightings|containers|waypoints|deaths|shelters|explored] [--block ID] [--memory FILE]"
)

// defaultMemoryFile is where a live run remembers its worlds unless
// --memory says otherwise: beside the saved login, in the user's
// configuration directory.
func defaultMemoryFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no configuration directory for the memory file (%v); give --memory FILE", err)
	}
	return filepath.Join(dir, "gtnh-agent", "memory.db"), nil
}

// memoryUse is the help of run's and mcp's --memory flag.
const memoryUse = "remember what the bot sees in `FILE` across runs, or off (default: gtnh-agent/memory.db in the user's configuration directory on a server, off in the simulator; docs/memory.md)"

// openMemory opens the memory file a command records into: --memory FILE;
// the default file when the body is a server; none (nil) in the simulator,
// for a served body or with --memory off. The default file that cannot be
// opened (another agent holds it) is a warning and no memory; a named one
// is an error.
func openMemory(e *env, cmd, file string, live bool) (*memory.Store, error) {
	if file == "off" || (file == "" && !live) {
		return nil, nil
	}
	explicit := file != ""
	if !explicit {
		var err error
		if file, err = defaultMemoryFile(); err != nil {
			e.log.Warn().Err(err).Msg("memory: nothing is remembered")
			return nil, nil
		}
	}
	st, err := memory.Open(file, memory.Options{})
	if err != nil {
		if explicit {
			return nil, usagef("%s: --memory: %v", cmd, err)
		}
		e.log.Warn().Err(err).Msg("memory: nothing is remembered (--memory FILE names another file)")
		return nil, nil
	}
	e.log.Debug().Str("file", file).Msg("memory: recording what the bot sees")
	return st, nil
}

// rememberOn wraps a body's connection so that it records what the bot
// observes into the memory file (openMemory) and gives each snapshot the
// world's recall.
func rememberOn(e *env, cmd, file string, bf *bodyFlags, sc *sim.Scenario, opened *openedBody, conn ipc.Conn) (ipc.Conn, func(), error) {
	st, err := openMemory(e, cmd, file, bf.live)
	if err != nil || st == nil {
		return conn, func() {}, err
	}
	var server string
	switch {
	case bf.remote:
		server = *bf.addr
	case bf.live:
		server = opened.server.Address
	default:
		seed := sc.Seed
		if bf.set["seed"] {
			seed = *bf.seed
		}
		server = fmt.Sprintf("sim/%s/%d", sc.Name, seed)
	}
	return memory.Wrap(conn, st, server, e.log), func() { st.Close() }, nil
}

// rememberDeath tells the recover reflex of the last death the memory
// holds of the world, so that a bot restarted soon after it died still
// goes back for its items (on a server, whose world age says how long
// they have been lying there).
func rememberDeath(e *env, reflexes []loop.Reflex, mem *memory.Conn) []loop.Reflex {
	if mem == nil {
		return reflexes
	}
	for _, r := range reflexes {
		rec, ok := r.(*loop.RecoverReflex)
		if !ok {
			continue
		}
		d, ok, err := mem.LastDeath()
		if err != nil {
			e.log.Warn().Err(err).Msg("memory: the last death could not be read")
		}
		if ok {
			rec.Remembered = &loop.RememberedDeath{At: world.Vec3{X: float64(d.Pos.X) + 0.5, Y: float64(d.Pos.Y), Z: float64(d.Pos.Z) + 0.5}, Items: d.Items, WorldAge: d.WorldAge}
		}
	}
	return reflexes
}

// memoryFlags are the flags both memory commands take.
type memoryFlags struct {
	file, server, dimension string
}

func (m *memoryFlags) register(e *env, name, usage string) *flag.FlagSet {
	fs := newFlagSet(e, name, usage)
	fs.StringVar(&m.file, "memory", "", "the memory `FILE` (default: gtnh-agent/memory.db in the user's configuration directory, where live runs keep it)")
	fs.StringVar(&m.server, "server", "", "the world's server `NAME`: host:port as given to run --server, or sim/SCENARIO/SEED for a simulated run")
	fs.StringVar(&m.dimension, "dimension", "overworld", "the world's `DIMENSION`")
	return fs
}

// open opens the memory file; a file that does not exist is not created.
func (m *memoryFlags) open(cmd string) (*memory.Store, error) {
	if m.file == "" {
		f, err := defaultMemoryFile()
		if err != nil {
			return nil, usagef("%s: %v", cmd, err)
		}
		m.file = f
	}
	if _, err := os.Stat(m.file); err != nil {
		return nil, usagef("%s: %v (a run with --memory FILE, or any live run, writes it)", cmd, err)
	}
	s, err := memory.Open(m.file, memory.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return s, nil
}

// place checks the world named against those the file remembers.
func (m *memoryFlags) place(cmd string, s *memory.Store) (memory.Place, error) {
	p := memory.Place{Server: m.server, Dimension: m.dimension}
	sums, err := s.Places()
	if err != nil {
		return p, err
	}
	var names []string
	for _, sm := range sums {
		if sm.Place == p {
			return p, nil
		}
		names = append(names, sm.Place.Server)
	}
	for _, sm := range sums {
		if sm.Place.Server == p.Server {
			return p, usagef("%s: %s remembers no dimension %q of %s", cmd, s.Path(), p.Dimension, p.Server)
		}
	}
	return p, usagef("%s: %s remembers nothing of %q%s", cmd, s.Path(), p.Server, suggest.DidYouMean(p.Server, slices.Compact(names)))
}

// memoryShowCommand is `agent memory show`: the worlds a memory file
// remembers, or what it holds of one.
type memoryShowCommand struct {
	m      memoryFlags
	limit  int
	asJSON bool
}

var _ subcommand = (*memoryShowCommand)(nil)

func (c *memoryShowCommand) parse(e *env, args []string) error {
	fs := c.m.register(e, "memory show", memoryShowUsage)
	fs.IntVar(&c.limit, "limit", 50, "show at most `N` sightings of the world (0: all)")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	return noArgs("memory show", pos)
}

func (c *memoryShowCommand) validate(*env) error {
	if c.limit < 0 {
		return usagef("memory show: --limit must be 0 or more, got %d", c.limit)
	}
	return nil
}

func (c *memoryShowCommand) run(e *env) error {
	s, err := c.m.open("memory show")
	if err != nil {
		return err
	}
	defer s.Close()
	if c.m.server == "" {
		sums, err := s.Places()
		if err != nil {
			return fmt.Errorf("memory show: %w", err)
		}
		if c.asJSON {
			return writeJSON(e.stdout, sums)
		}
		fmt.Fprintf(e.stdout, "%s remembers %d worlds\n", s.Path(), len(sums))
		tw := tabwriter.NewWriter(e.stdout, 2, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SERVER\tDIMENSION\tSIGHTINGS\tCONTAINERS\tWAYPOINTS\tDEATHS\tSHELTERS\tEXPLORED CHUNKS")
		for _, sm := range sums {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\n", sm.Place.Server, sm.Place.Dimension, sm.Sightings, sm.Containers, sm.Waypoints, sm.Deaths, sm.Shelters, sm.Explored)
		}
		return tw.Flush()
	}
	p, err := c.m.place("memory show", s)
	if err != nil {
		return err
	}
	got, err := s.Show(p, c.limit)
	if err != nil {
		return fmt.Errorf("memory show: %w", err)
	}
	if c.asJSON {
		return writeJSON(e.stdout, got)
	}
	sm := got.Summary
	fmt.Fprintf(e.stdout, "%s: %d sightings, %d containers, %d waypoints, %d deaths, %d shelters, %d explored chunks\n",
		p, sm.Sightings, sm.Containers, sm.Waypoints, sm.Deaths, sm.Shelters, sm.Explored)
	for _, w := range got.Waypoints {
		fmt.Fprintf(e.stdout, "waypoint %s at %v %s\n", w.Name, w.Pos, w.Note)
	}
	for _, d := range got.Deaths {
		fmt.Fprintf(e.stdout, "death at %v, tick %d, holding %d items: %s\n", d.Pos, d.Tick, d.Items, d.Cause)
	}
	for _, sh := range got.Shelters {
		fmt.Fprintf(e.stdout, "shelter at %v, tick %d\n", sh.Pos, sh.Tick)
	}
	for _, ct := range got.Containers {
		fmt.Fprintf(e.stdout, "%s at %v (tick %d): %d stacks\n", ct.Kind, ct.Pos, ct.Tick, len(ct.Items))
	}
	for _, sg := range got.Sightings {
		fmt.Fprintf(e.stdout, "%s:%d at %v (tick %d)\n", sg.Block, sg.Meta, sg.Pos, sg.Tick)
	}
	if c.limit > 0 && sm.Sightings > len(got.Sightings) {
		fmt.Fprintf(e.stdout, "(%d more sightings: --limit 0 shows all)\n", sm.Sightings-len(got.Sightings))
	}
	return nil
}

// memoryForgetCommand is `agent memory forget`.
type memoryForgetCommand struct {
	m     memoryFlags
	what  string
	block string
}

var _ subcommand = (*memoryForgetCommand)(nil)

func (c *memoryForgetCommand) parse(e *env, args []string) error {
	fs := c.m.register(e, "memory forget", memoryForgetUsage)
	fs.StringVar(&c.what, "what", "all", "what to forget: all, sightings, containers, waypoints, deaths, shelters or explored")
	fs.StringVar(&c.block, "block", "", "with --what sightings: forget the sightings of this block `ID` only")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	return noArgs("memory forget", pos)
}

func (c *memoryForgetCommand) validate(*env) error {
	if c.m.server == "" {
		return usagef("memory forget: --server NAME is required (agent memory show lists the worlds)")
	}
	if !slices.Contains(memory.Kinds(), c.what) {
		return usagef("memory forget: --what %q%s (one of %v)", c.what, suggest.DidYouMean(c.what, memory.Kinds()), memory.Kinds())
	}
	if c.block != "" && c.what != string(memory.ForgetSightings) {
		return usagef("memory forget: --block is for --what sightings")
	}
	return nil
}

func (c *memoryForgetCommand) run(e *env) error {
	s, err := c.m.open("memory forget")
	if err != nil {
		return err
	}
	defer s.Close()
	p, err := c.m.place("memory forget", s)
	if err != nil {
		return err
	}
	if _, err := s.Forget(p, memory.What(c.what), c.block); err != nil {
		return fmt.Errorf("memory forget: %w", err)
	}
	what := c.what
	if c.block != "" {
		what = "sightings of " + c.block
	}
	fmt.Fprintf(e.stdout, "forgot %s of %s\n", what, p)
	return nil
}
