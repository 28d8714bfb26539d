package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

// versionCommand is agent version: it prints what the binary was built
// from: the module version (a release tag when installed with go install
// MODULE@VERSION, "(devel)" when built in a checkout) and the version
// control revision, its time and whether the work tree had changes.
type versionCommand struct{}

var _ subcommand = (*versionCommand)(nil)

func (c *versionCommand) parse(e *env, args []string) error {
	pos, err := parseFlags(newFlagSet(e, "version", "version"), args)
	if err != nil {
		return err
	}
	return noArgs("version", pos)
}

func (c *versionCommand) validate(*env) error { return nil }

func (c *versionCommand) run(e *env) error {
	bi, ok := debug.ReadBuildInfo()
	writeVersion(e.stdout, bi, ok)
	return nil
}

// writeVersion writes the version lines from build information (ok false:
// the binary carries none).
func writeVersion(w io.Writer, bi *debug.BuildInfo, ok bool) {
	if !ok || bi == nil {
		fmt.Fprintf(w, "gtnh-agent (no build information), %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
		return
	}
	version := bi.Main.Version
	if version == "" {
		version = "(unknown)"
	}
	path := bi.Main.Path
	if path == "" {
		path = "gtnh-agent"
	}
	fmt.Fprintf(w, "%s %s\n", path, version)
	var rev, when, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		fmt.Fprintln(w, "revision: unknown (built without version control information)")
	} else {
		var notes []string
		if when != "" {
			notes = append(notes, when)
		}
		if modified == "true" {
			notes = append(notes, "with uncommitted changes")
		}
		line := "revision: " + rev
		if len(notes) > 0 {
			line += " (" + strings.Join(notes, ", ") + ")"
		}
		fmt.Fprintln(w, line)
	}
	goVersion := bi.GoVersion
	if goVersion == "" {
		goVersion = runtime.Version()
	}
	fmt.Fprintf(w, "built with %s %s/%s\n", goVersion, runtime.GOOS, runtime.GOARCH)
}
