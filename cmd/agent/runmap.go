package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// checkMap checks the --map-* flags: the picture's size, and a --map-out
// whose directory exists, so that a run does not end with nowhere to
// write its map.
func (c *runCommand) checkMap() error {
	for _, n := range []string{"map-center", "map-radius", "map-scale", "map-max-y"} {
		if c.bf.set[n] && c.mapOut == "" {
			return usagef("run: --%s is for --map-out", n)
		}
	}
	if c.mapOut == "" {
		return nil
	}
	if st, err := os.Stat(filepath.Dir(c.mapOut)); err != nil || !st.IsDir() {
		return usagef("run: --map-out %s: the directory %s does not exist", c.mapOut, filepath.Dir(c.mapOut))
	}
	return c.mapF.check("run", "map-")
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
	if err == nil {
		var d *drawnMap
		if d, err = c.mapF.writeMap(c.mapOut, snap, s.mapped); err == nil {
			if !c.asJSON {
				var b strings.Builder
				d.report(&b, c.mapOut, c.mapF.scale)
				first, _, _ := strings.Cut(b.String(), "\n")
				fmt.Fprintln(e.stdout, first)
			}
			return
		}
	}
	e.log.Warn().Err(err).Str("file", c.mapOut).Msg("run: the map was not written")
}
