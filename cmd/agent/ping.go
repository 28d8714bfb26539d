package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
)

const pingUsage = `ping HOST[:PORT] [--json] [--timeout D]`

// pingCmd runs a Server List Ping and prints what a player's server list
// shows, plus the mods that change the wire format.
func pingCmd(e *env, args []string) error {
	fs := newFlagSet(e, "ping", pingUsage)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	timeout := fs.Duration("timeout", 10*time.Second, "give up after this long")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("ping: expected one HOST[:PORT], got %d arguments\nusage: agent %s", len(pos), pingUsage)
	}
	if *timeout <= 0 {
		return usagef("ping: --timeout must be positive")
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	info, err := gtnh.Ping(ctx, gtnh.Config{Address: pos[0], Dial: dialServer, DialTimeout: *timeout, LoginTimeout: *timeout, ReadTimeout: *timeout})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, info)
	}
	w := e.stdout
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
	return nil
}
