package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/gtnh/record"
	"github.com/gtnh-agent/gtnh-agent/view/web"
	"github.com/gtnh-agent/gtnh-agent/world"
)

const replayUsage = `replay FILE [--at MS] [--json] [--chat N]
       replay FILE --ui HOST:PORT [--ui-token-file FILE] [--ui-every D]`

// replayCommand is agent replay: it feeds a recording (agent run --record)
// to the client's world model offline and prints what the bot saw.
type replayCommand struct {
	file      string
	at        int64
	asJSON    bool
	chatLines int
	uf        uiFlags
	uiEvery   time.Duration

	// serving, when set (tests), is called once the web view serves the
	// recording, instead of waiting for Ctrl-C.
	serving func()
}

var _ subcommand = (*replayCommand)(nil)

func (c *replayCommand) parse(e *env, args []string) error {
	fs := newFlagSet(e, "replay", replayUsage)
	fs.Int64Var(&c.at, "at", 0, "stop after the packets of this time (milliseconds since the recording started; 0: the whole recording)")
	fs.BoolVar(&c.asJSON, "json", false, "print the world at the end (and the summary) as JSON")
	fs.IntVar(&c.chatLines, "chat", 10, "how many of the last chat lines of the recording to print")
	c.uf.register(fs, "file holding the token a browser of --ui must present (needed for an address other than loopback)")
	fs.DurationVar(&c.uiEvery, "ui-every", time.Second, "with --ui: keep the world every D of the recording for the time slider (thinned to at most "+strconv.Itoa(web.MaxFrames)+" moments)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("replay: expected one recording FILE, got %d arguments\nusage: agent %s", len(pos), replayUsage)
	}
	c.file = pos[0]
	return nil
}

func (c *replayCommand) validate(e *env) error {
	if c.at < 0 {
		return usagef("replay: --at must not be negative")
	}
	if c.chatLines < 0 {
		return usagef("replay: --chat must not be negative")
	}
	if c.uiEvery < time.Millisecond {
		return usagef("replay: --ui-every %v: want at least 1ms", c.uiEvery)
	}
	return c.uf.check(e, "replay", "", "")
}

func (c *replayCommand) run(e *env) error {
	f, err := os.Open(c.file)
	if err != nil {
		return usagef("replay: %v", err)
	}
	defer f.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts := record.ReplayOptions{Until: msDuration(c.at), Log: e.log.With().Logger()}
	var frames *web.Frames
	if c.uf.listen != "" {
		frames = &web.Frames{Every: c.uiEvery}
		opts.Frame, opts.Every = frames.Add, c.uiEvery
		opts.Note, opts.Look = frames.Note, frames.Look
	}
	res, err := record.Replay(ctx, f, opts)
	if res == nil {
		if err != nil && ctx.Err() != nil {
			return errInterrupted
		}
		return fmt.Errorf("replay %s: %w", c.file, err)
	}
	if c.asJSON {
		if werr := writeJSON(e.stdout, replayJSON(res, err)); werr != nil {
			return werr
		}
	} else {
		printReplay(e.stdout, c.file, res, c.chatLines)
	}
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		// What was whole was replayed and printed; the file is still bad.
		return fmt.Errorf("replay %s: %w", c.file, err)
	}
	if frames != nil {
		return c.serveView(ctx, e, frames, res)
	}
	return nil
}

// serveView serves the recording at --ui, a time slider over the frames
// kept, until Ctrl-C.
func (c *replayCommand) serveView(ctx context.Context, e *env, frames *web.Frames, res *record.Result) error {
	v := web.NewReplay(web.Options{Title: "recording " + filepath.Base(c.file) + " (" + res.Username + ")"}, frames, res.World, res.Duration)
	stop, err := c.uf.start(ctx, e, "replay", v)
	if err != nil {
		return err
	}
	defer stop()
	if c.serving != nil {
		c.serving()
		return nil
	}
	fmt.Fprintf(e.stderr, "%d moments of the recording; Ctrl-C ends\n", frames.Len()+1)
	<-ctx.Done()
	return nil
}

func msDuration(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }

// replayJSON is the --json output: the final world and the summary.
func replayJSON(res *record.Result, err error) any {
	out := map[string]any{
		"world":       res.World,
		"columns":     record.Columns(res.World),
		"connections": res.Connections,
		"duration_ms": res.Duration.Milliseconds(),
		"packets":     res.Packets,
		"positions":   res.Positions,
		"username":    res.Username,
		"mods":        res.Mods,
		"formats":     res.Formats,
		"stats":       res.Stats,
		"chat":        res.Chat,
		"chat_lines":  res.ChatLines,
		"steps":       res.Steps,
		"decisions":   res.Plans,
	}
	if res.Limited {
		out["limited"] = true
	}
	if res.Stopped != nil {
		out["stopped"] = res.Stopped.Error()
	}
	if err != nil {
		out["error"] = err.Error()
	}
	return out
}

// printReplay prints the summary of what the bot saw.
func printReplay(w io.Writer, file string, res *record.Result, chatLines int) {
	total := 0
	for _, n := range res.Packets {
		total += n
	}
	fmt.Fprintf(w, "recording %s: %d connection(s), %.1f s, player %s\n", file, res.Connections, res.Duration.Seconds(), res.Username)
	fmt.Fprintf(w, "server: %d mods, %s\n", len(res.Mods), res.Formats)
	if res.Limited {
		fmt.Fprintln(w, "the recording stopped at its size limit")
	}
	fmt.Fprintf(w, "packets: %d, and %d positions the bot reported\n", total, res.Positions)
	names := slices.SortedFunc(maps.Keys(res.Packets), func(a, b string) int {
		return cmp.Or(cmp.Compare(res.Packets[b], res.Packets[a]), strings.Compare(a, b))
	})
	for _, n := range names {
		fmt.Fprintf(w, "  %-36s %d\n", n, res.Packets[n])
	}
	s := res.World
	fmt.Fprintf(w, "chunks loaded: %d\n", len(record.Columns(s)))
	p := s.Player
	fmt.Fprintf(w, "position: %.2f %.2f %.2f in %s; health %.0f, food %.0f\n", p.Pos.X, p.Pos.Y, p.Pos.Z, cmp.Or(p.Dimension, "?"), p.Health, p.Food)
	var inv []string
	for i, st := range s.Inventory.Slots {
		if st.Count > 0 && st.ID != "" {
			inv = append(inv, fmt.Sprintf("[%d] %s ×%d", i, itemName(st), st.Count))
		}
	}
	fmt.Fprintf(w, "inventory: %s\n", cmp.Or(strings.Join(inv, ", "), "empty"))
	fmt.Fprintf(w, "machines: %d\n", len(s.Machines))
	for _, m := range s.Machines {
		fmt.Fprintf(w, "  %s at %v (%d slots filled)\n", m.Kind, m.Pos, len(m.Slots))
	}
	kinds := map[string]int{}
	var players []string
	for _, en := range s.Entities {
		kinds[en.Kind]++
		if en.Kind == world.EntityPlayer && en.Name != "" {
			players = append(players, en.Name)
		}
	}
	fmt.Fprintf(w, "entities: %d (%d players, %d items, %d mobs)", len(s.Entities), kinds[world.EntityPlayer], kinds[world.EntityItem], kinds[world.EntityMob])
	if len(players) > 0 {
		slices.Sort(players)
		fmt.Fprintf(w, ": %s", strings.Join(players, ", "))
	}
	fmt.Fprintln(w)
	if len(res.Stats.Malformed) > 0 {
		fmt.Fprintf(w, "malformed packets: %v\n", res.Stats.Malformed)
	}
	chat := res.ChatLines
	fmt.Fprintf(w, "chat lines: %d\n", len(chat))
	if len(chat) > chatLines {
		chat = chat[len(chat)-chatLines:]
	}
	for _, line := range chat {
		fmt.Fprintf(w, "  %s\n", line)
	}
	if res.Steps+res.Plans+res.NotesSkipped > 0 {
		fmt.Fprintf(w, "agent: %d steps, %d decisions", res.Steps, res.Plans)
		if res.NotesSkipped > 0 {
			fmt.Fprintf(w, " (and %d notes of a newer agent, skipped)", res.NotesSkipped)
		}
		fmt.Fprintln(w)
	}
	if res.Stopped != nil {
		fmt.Fprintf(w, "the client stopped before the end of the recording: %v\n", res.Stopped)
	}
}

func itemName(st world.ItemStack) string {
	if st.Meta != 0 {
		return fmt.Sprintf("%s:%d", st.ID, st.Meta)
	}
	return st.ID
}

// recording opens the --record file; its Close ends the recording (after
// the client's).
func recording(e *env, file string, limitMB int64) (*record.Recorder, error) {
	rec, err := record.Create(file, record.RecorderOptions{
		WriterOptions: record.WriterOptions{Limit: limitMB << 20},
		Log:           e.pkgLog(), // the recorder names its component
	})
	if err != nil {
		return nil, usagef("run: --record: %v", err)
	}
	return rec, nil
}

// recordInto sets a recorder as the client's tap, blanking the operator
// secret out of what it records.
func recordInto(rec *record.Recorder) func(*gtnh.Config) {
	return func(cfg *gtnh.Config) {
		rec.Scrub(cfg.Commands.Secret)
		if sa, ok := cfg.Auth.(*gtnh.SessionAuth); ok {
			rec.Scrub(sa.AccessToken)
		}
		cfg.Tap = rec
	}
}

var errNoRecording = errors.New("run: --record needs a server (--server or server.address in the config file)")
