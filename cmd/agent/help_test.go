package main

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// everyCommand lists each runnable command of the table as the words that
// name it ("run", "skills list").
func everyCommand() [][]string {
	var out [][]string
	for _, c := range commands() {
		if c.subs == nil {
			out = append(out, []string{c.name})
			continue
		}
		for _, s := range c.subs {
			out = append(out, []string{c.name, s.name})
		}
	}
	return out
}

// TestHelpForEveryCommand: agent help CMD, CMD --help and CMD -h print that
// command's own help on stdout with exit 0, flags spelled --flag.
func TestHelpForEveryCommand(t *testing.T) {
	cmds := everyCommand()
	require.Greater(t, len(cmds), 15, "run, serve, mcp, replay, ping, login, logout, 7 skills, packs list, version, help")
	for _, words := range cmds {
		name := strings.Join(words, " ")
		t.Run(name, func(t *testing.T) {
			var outs []string
			for _, args := range [][]string{
				append([]string{"help"}, words...),
				append(append([]string{}, words...), "--help"),
				append(append([]string{}, words...), "-h"),
			} {
				code, out, errOut := runAgent(t, args...)
				require.Equal(t, exitOK, code, "%v: %s", args, errOut)
				assert.Empty(t, errOut, "%v", args)
				outs = append(outs, out)
			}
			assert.Equal(t, outs[0], outs[1], "agent help %s and %s --help print the same", name, name)
			assert.Equal(t, outs[1], outs[2])
			out := outs[0]
			if name == "help" {
				assert.Equal(t, topUsage+"\n", out)
				return
			}
			assert.True(t, strings.HasPrefix(out, "usage: agent "+name), "%q", out)
			assert.NotContains(t, out, usageOfTop(), "not the global help")
			assert.Contains(t, out, "\n  --log-level LEVEL\n")
			assert.Contains(t, out, "\n  -v\n")
			assert.Contains(t, out, "\n  -h, --help\n")
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "  -") && !strings.HasPrefix(line, "  -v") && !strings.HasPrefix(line, "  -h") {
					assert.True(t, strings.HasPrefix(line, "  --"), "a long flag with two dashes: %q", line)
				}
			}
		})
	}
}

// usageOfTop is a line only the global help has.
func usageOfTop() string { return "usage: agent <command> [arguments]" }

// TestHelpOfGroups: skills and packs have help of their own, listing their
// subcommands; agent help prints the global help.
func TestHelpOfGroups(t *testing.T) {
	for _, group := range []string{"skills", "packs"} {
		for _, args := range [][]string{{group, "--help"}, {group, "-h"}, {group, "help"}, {"help", group}} {
			code, out, errOut := runAgent(t, args...)
			require.Equal(t, exitOK, code, "%v: %s", args, errOut)
			assert.True(t, strings.HasPrefix(out, "usage: agent "+group+" <subcommand>"), "%v: %q", args, out)
			c, _ := findCommand(commands(), group)
			for _, s := range c.subs {
				assert.Contains(t, out, "\n  "+s.name+" ", "%v", args)
			}
		}
	}
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}, {"help", "help"}} {
		code, out, _ := runAgent(t, args...)
		require.Equal(t, exitOK, code, "%v", args)
		assert.Equal(t, topUsage+"\n", out, "%v", args)
	}
	assert.Contains(t, topUsage, "\n  version ")
	assert.Contains(t, topUsage, "\n  help ")
}

// TestDidYouMeanCommands: a mistyped command, subcommand or help topic is
// one line naming the nearest one, and a hint.
func TestDidYouMeanCommands(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"rnu"}, `agent: unknown command "rnu" (did you mean "run"?)` + "\nrun `agent help` for the commands\n"},
		{[]string{"sklls", "list"}, `agent: unknown command "sklls" (did you mean "skills"?)` + "\nrun `agent help` for the commands\n"},
		{[]string{"skills", "lsit"}, `agent: skills: unknown subcommand "lsit" (did you mean "list"?)` + "\nrun `agent help skills` for its usage\n"},
		{[]string{"packs", "lst"}, `agent: packs: unknown subcommand "lst" (did you mean "list"?)` + "\nrun `agent help packs` for its usage\n"},
		{[]string{"help", "srve"}, `agent: unknown command "srve" (did you mean "serve"?)` + "\nrun `agent help` for the commands\n"},
		{[]string{"help", "skills", "validat"}, `agent: skills: unknown subcommand "validat" (did you mean "validate"?)` + "\nrun `agent help skills` for its usage\n"},
		{[]string{"frobnicate"}, `agent: unknown command "frobnicate"` + "\nrun `agent help` for the commands\n"},
		{[]string{"skills"}, "agent: skills: missing subcommand (list, describe, validate, load, select, lint, inject)\nrun `agent help skills` for its usage\n"},
		{[]string{"help", "run", "extra"}, "agent: help: run has no subcommands\nrun `agent help run` for its usage\n"},
	} {
		code, out, errOut := runAgent(t, c.args...)
		assert.Equal(t, exitUsage, code, "%v", c.args)
		assert.Empty(t, out)
		assert.Equal(t, c.want, errOut, "%v", c.args)
	}
}

// TestUnknownFlag: a mistyped flag is one line with the nearest flag in the
// docs' spelling and a hint, not the whole usage; other flag errors use the
// same spelling.
func TestUnknownFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--gaol", "collect 1 minecraft:log"}, `agent: run: unknown flag --gaol (did you mean "--goal"?)` + "\nrun `agent help run` for its usage\n"},
		{[]string{"run", "-gaol", "x"}, `agent: run: unknown flag --gaol (did you mean "--goal"?)` + "\nrun `agent help run` for its usage\n"},
		{[]string{"--gaol", "x"}, `agent: run: unknown flag --gaol (did you mean "--goal"?)` + "\nrun `agent help run` for its usage\n"},
		{[]string{"skills", "list", "--jsno"}, `agent: skills list: unknown flag --jsno (did you mean "--json"?)` + "\nrun `agent help skills list` for its usage\n"},
		{[]string{"ping", "--zzzzzzzz"}, "agent: ping: unknown flag --zzzzzzzz\nrun `agent help ping` for its usage\n"},
		{[]string{"run", "--max-steps", "x"}, "agent: run: invalid value \"x\" for flag --max-steps: parse error\nrun `agent help run` for its usage\n"},
		{[]string{"run", "--goal"}, "agent: run: flag needs an argument: --goal\nrun `agent help run` for its usage\n"},
		{[]string{"version", "--log-level", "dbug"}, "agent: version: invalid value \"dbug\" for flag --log-level: unknown level \"dbug\" (did you mean \"debug\"?) (debug, info, warn or error)\nrun `agent help version` for its usage\n"},
	} {
		code, out, errOut := runAgent(t, c.args...)
		assert.Equal(t, exitUsage, code, "%v", c.args)
		assert.Empty(t, out)
		assert.Equal(t, c.want, errOut, "%v", c.args)
	}
}

// TestVersion: agent version and agent --version print the module and the
// revision the binary was built from.
func TestVersion(t *testing.T) {
	code, out, errOut := runAgent(t, "version")
	require.Equal(t, exitOK, code, errOut)
	code, out2, _ := runAgent(t, "--version")
	require.Equal(t, exitOK, code)
	assert.Equal(t, out, out2)
	var want bytes.Buffer
	bi, ok := debug.ReadBuildInfo()
	writeVersion(&want, bi, ok)
	assert.Equal(t, want.String(), out)
	code, _, _ = runAgent(t, "version", "extra")
	assert.Equal(t, exitUsage, code)
}

func TestWriteVersion(t *testing.T) {
	for _, c := range []struct {
		name string
		bi   *debug.BuildInfo
		want []string
	}{
		{"a release with its revision", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/gtnh-agent/gtnh-agent", Version: "v1.2.3"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "false"}}},
			[]string{"github.com/gtnh-agent/gtnh-agent v1.2.3\n", "revision: 0123abcd (2026-01-02T03:04:05Z)\n", "built with go1.26.0 "}},
		{"a checkout with changes", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/gtnh-agent/gtnh-agent", Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.modified", Value: "true"}}},
			[]string{"github.com/gtnh-agent/gtnh-agent (devel)\n", "revision: 0123abcd (with uncommitted changes)\n"}},
		{"built without version control", &debug.BuildInfo{Main: debug.Module{Path: "github.com/gtnh-agent/gtnh-agent", Version: "(devel)"}},
			[]string{"revision: unknown (built without version control information)\n"}},
	} {
		var b bytes.Buffer
		writeVersion(&b, c.bi, true)
		for _, w := range c.want {
			assert.Contains(t, b.String(), w, c.name)
		}
		if c.name != "a checkout with changes" {
			assert.NotContains(t, b.String(), "uncommitted", "only vcs.modified=true says so")
		}
	}
	var b bytes.Buffer
	writeVersion(&b, nil, false)
	assert.Contains(t, b.String(), "no build information")
}

// TestLogLevelFlags: --log-level and -v set the level of what the command
// logs; the default is warn.
func TestLogLevelFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "warn"},
		{[]string{"--log-level", "info"}, "info"},
		{[]string{"--log-level", "error"}, "error"},
		{[]string{"-v"}, "debug"},
		{[]string{"--log-level", "error", "-v"}, "debug"},
	} {
		e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, log: newLogger(&bytes.Buffer{})}
		fs := newFlagSet(e, "version", "version")
		_, err := parseFlags(fs, c.args)
		require.NoError(t, err)
		assert.Equal(t, c.want, e.log.GetLevel().String(), "%v", c.args)
	}
}
