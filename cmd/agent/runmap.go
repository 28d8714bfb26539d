package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// checkMap checks the --map-* flags: the picture's size, and a --map-out
// whose directory exists, so that a run does not end with nowhere to
// write its map.
func (c *runCommand) checkMap() error {
	return checkMapOut("run", c.mapOut, c.bf.set, &c.mapF)
}

// checkMapOut checks --map-out and the --map-* flags of a command (set:
// the flags its command line gave).
func checkMapOut(cmd, out string, set map[string]bool, f *mapFlags) error {
	for _, n := range []string{"map-center", "map-radius", "map-scale", "map-max-y"} {
		if set[n] && out == "" {
			return usagef("%s: --%s is for --map-out", cmd, n)
		}
	}
	if out == "" {
		return nil
	}
	if st, err := os.Stat(filepath.Dir(out)); err != nil || !st.IsDir() {
		return usagef("%s: --map-out %s: the directory %s does not exist", cmd, out, filepath.Dir(out))
	}
	return f.check(cmd, "map-")
}

// writeMapOut writes --map-out of snap with the tracker's marks and prints
// its first line (what was written) unless quiet; a map that cannot be
// written is a warning.
func writeMapOut(e *env, cmd, file string, f *mapFlags, snap *world.Snapshot, err error, t *mapTracker, quiet bool) {
	if err == nil {
		var d *drawnMap
		if d, err = f.writeMap(file, snap, t); err == nil {
			if !quiet {
				var b strings.Builder
				d.report(&b, file, f.scale)
				first, _, _ := strings.Cut(b.String(), "\n")
				fmt.Fprintln(e.stdout, first)
			}
			return
		}
	}
	e.log.Warn().Err(err).Str("file", file).Msg(cmd + ": the map was not written")
}

// drawMap writes --map-out at the end of the run: the world model around
// the bot, with the digs, placements and last move of the run. A map that
// cannot be drawn is a warning: the run's outcome stands.
func (c *runCommand) drawMap(e *env, s *runSession) {
	if c.mapOut == "" || s.conn == nil {
		return
	}
	// The run may have ended with Ctrl-C: the last look at the world is
	// still taken.
	snap, err := s.conn.Observe(context.WithoutCancel(s.ctx))
	writeMapOut(e, "run", c.mapOut, &c.mapF, snap, err, s.mapped, c.asJSON)
}
