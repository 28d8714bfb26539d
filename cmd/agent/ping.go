package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
)

const pingUsage = `ping HOST[:PORT] [--json] [--timeout D]`

// pingCommand is agent ping: it runs a Server List Ping and prints what a
// player's server list shows, plus the mods that change the wire format.
type pingCommand struct {
	addr    string
	asJSON  bool
	timeout time.Duration
}

var _ subcommand = (*pingCommand)(nil)

func (c *pingCommand) parse(e *env, args []string) error {
	fs := newFlagSet(e, "ping", pingUsage)
	fs.BoolVar(&c.asJSON, "json", false, "print the result as JSON")
	fs.DurationVar(&c.timeout, "timeout", 10*time.Second, "give up after this long")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("ping: expected one HOST[:PORT], got %d arguments\nusage: agent %s", len(pos), pingUsage)
	}
	c.addr = pos[0]
	return nil
}

func (c *pingCommand) validate(*env) error {
	if c.timeout <= 0 {
		return usagef("ping: --timeout must be positive")
	}
	return nil
}

func (c *pingCommand) run(e *env) error {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	info, err := gtnh.Ping(ctx, gtnh.Config{Address: c.addr, Dial: dialServer, DialTimeout: c.timeout, LoginTimeout: c.timeout, ReadTimeout: c.timeout})
	if err != nil {
		return err
	}
	if c.asJSON {
		return writeJSON(e.stdout, info)
	}
	printPing(e.stdout, info)
	return nil
}

// printPing prints the server list entry.
func printPing(w io.Writer, info *gtnh.ServerInfo) {
	fmt.Fprintf(w, "%s  (%d ms)\n", info.Address, info.Latency.Milliseconds())
	fmt.Fprintf(w, "motd:      %s\n", info.MOTD)
	fmt.Fprintf(w, "version:   %s (protocol %d)\n", info.Version, info.Protocol)
	players := fmt.Sprintf("%d/%d", info.Online, info.Max)
	if len(info.Players) > 0 {
		players += " (" + strings.Join(info.Players, ", ") + ")"
	}
	fmt.Fprintf(w, "players:   %s\n", players)
	kind := "vanilla"
	if info.Forge {
		kind = "Forge"
	}
	fmt.Fprintf(w, "mods:      %d (%s)\n", info.ModCount, kind)
	var pm []string
	for _, m := range info.ProtocolMods {
		pm = append(pm, m.ModID+" "+m.Version)
	}
	if len(pm) == 0 {
		pm = []string{"none"}
	}
	fmt.Fprintf(w, "protocol:  %s\n", strings.Join(pm, ", "))
	if info.FormatsErr != "" {
		fmt.Fprintf(w, "formats:   unsupported: %s\n", info.FormatsErr)
	} else {
		fmt.Fprintf(w, "formats:   %s\n", info.Formats)
	}
}
