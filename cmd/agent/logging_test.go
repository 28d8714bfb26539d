package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
)

// duplicateKeys returns the keys that occur more than once at the top of
// the JSON object line (an error when the line is no JSON object).
func duplicateKeys(line string) ([]string, error) {
	dec := json.NewDecoder(strings.NewReader(line))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object: %q", line)
	}
	seen := map[string]bool{}
	var dups []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string)
		if seen[key] {
			dups = append(dups, key)
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return dups, nil
}

func TestDuplicateKeys(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, err := duplicateKeys(`{"level":"warn","component":"cli","component":"gtnh","message":"a","x":{"message":1},"message":"b"}`)
		require.NoError(t, err)
		assert.Equal(t, []string{"component", "message"}, d)
		d, err = duplicateKeys(`{"a":1,"b":{"a":2}}`)
		require.NoError(t, err)
		assert.Empty(t, d, "a nested key is another object's")
		_, err = duplicateKeys(`not json`)
		assert.Error(t, err)
	})
}

// assertLogLines checks that every line of a command's stderr that is a log
// line (JSON: stderr is no terminal) has each key once, and returns how
// many there were.
func assertLogLines(t *testing.T, stderr string) int {
	t.Helper()
	n := 0
	for _, line := range strings.Split(stderr, "\n") {
		if !strings.HasPrefix(line, "{") {
			continue
		}
		n++
		dups, err := duplicateKeys(line)
		if assert.NoError(t, err, line) {
			assert.Empty(t, dups, "duplicate keys in a log line: %s", line)
		}
	}
	return n
}

// TestLogLinesHaveNoDuplicateKeys: the log lines of a live run at debug
// level (the client's, the loop's, the command's), of a configuration that
// replaces shipped skills and of the knowledge library name each key once:
// a package's logger names its own component instead of adding a second.
func TestLogLinesHaveNoDuplicateKeys(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const tick = 5 * time.Millisecond
		srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: tick, Logf: t.Logf}))
		require.NoError(t, err)
		defer srv.Close()
		code, out, errOut := runAgent(t, "run", "-v", "--server", srv.Addr(), "--username", "Bot",
			"--goal", "collect 1 minecraft:log", "--config-file", agentYAML(t, tick), "--max-steps", "5")
		require.Equal(t, exitOK, code, "%s\n%s", out, errOut)
		lines := assertLogLines(t, errOut)
		assert.Greater(t, lines, 5, "a live run at debug level logs")
		assert.Contains(t, errOut, `"component":"gtnh"`)

		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"skills/mine_block.yaml":           mustShipped(t, "skills/mine_block.yaml"),
			"skills/greet.yaml":                greetSpec,
			"skills/sustainable-wood/SKILL.md": "---\nname: sustainable-wood\ndescription: Our own wood notes. Use when wood runs short.\n---\n# Wood\n\nPlant more trees.\n",
		})
		code, _, errOut = runAgent(t, "skills", "list", "--config", dir)
		require.Equal(t, exitOK, code, errOut)
		assert.Equal(t, 3, assertLogLines(t, errOut), "mine_block replaced, greet in no pack, sustainable-wood overridden:\n%s", errOut)
		assert.Contains(t, errOut, `"component":"knowledge"`)
	})
}

// TestPackageLoggersNameOneComponent: the loggers the command hands to
// packages carry no component of their own, and follow --log-level.
func TestPackageLoggersNameOneComponent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf bytes.Buffer
		base := newBaseLogger(&buf)
		e := &env{log: base.With().Str("component", "cli").Logger(), base: &base}
		fs := newFlagSet(e, "version", "version")
		_, err := parseFlags(fs, []string{"--log-level", "info"})
		require.NoError(t, err)
		l := e.pkgLog().With().Str("component", "gtnh").Logger()
		l.Info().Msg("joined")
		c := e.component("llm")
		c.Debug().Msg("not at info")
		c.Info().Msg("asked")
		e.log.Info().Msg("cli")
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		require.Len(t, lines, 3, buf.String())
		for i, want := range []string{`"component":"gtnh"`, `"component":"llm"`, `"component":"cli"`} {
			assert.Contains(t, lines[i], want)
			assert.Equal(t, 1, strings.Count(lines[i], `"component"`), lines[i])
		}
	})
}
