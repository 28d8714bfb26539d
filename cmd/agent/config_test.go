package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exampleConfig is the agent.yaml the README points newcomers to.
var exampleConfig = filepath.Join("..", "..", "examples", "agent.yaml")

// TestExampleAgentYAML: examples/agent.yaml works as pasted. It loads through
// the code agent run --config-file uses, turns into a valid client
// configuration with no secret variable set, and its run section drives a
// run; each commented alternative parses once uncommented.
func TestExampleAgentYAML(t *testing.T) {
	t.Setenv(defaultOperatorSecretEnv, "")
	t.Setenv("GTNH_ACCESS_TOKEN", "")
	e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, log: newLogger(&bytes.Buffer{})}
	fs := newFlagSet(e, "run", runUsage)
	var bf bodyFlags
	bf.register(fs, reconnectUse, "token")
	_, err := parseFlags(fs, []string{"--config-file", exampleConfig})
	require.NoError(t, err)
	acfg, err := bf.choose(e, fs)
	require.NoError(t, err, "%s", e.stderr)
	require.True(t, bf.live, "the example names a server")
	srv := acfg.Server
	srv.fillAccountName()
	cfg, err := srv.clientConfig()
	require.NoError(t, err, "no secret variable needs to be set")
	require.NoError(t, cfg.Validate())
	assert.Equal(t, "Bot", cfg.Username)
	assert.Nil(t, cfg.Auth, "offline mode as pasted")

	// The run section is the run's default (the simulated world here:
	// --seed asks for it).
	code, out, errOut := runAgent(t, "run", "--config-file", exampleConfig, "--seed", "20261121")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "goal: collect 16 minecraft:log")

	// Every commented alternative is valid once uncommented.
	data, err := os.ReadFile(exampleConfig)
	require.NoError(t, err)
	alternatives := 0
	for _, key := range []string{"operator_secret_env:", "auth:", "trace:", "llm:"} {
		lines := strings.Split(string(data), "\n")
		for i, l := range lines {
			trimmed := strings.TrimLeft(l, " ")
			if !strings.HasPrefix(trimmed, "# "+key) {
				continue
			}
			alt := append([]string{}, lines...)
			alt[i] = strings.Replace(l, "# ", "", 1)
			if key == "llm:" { // the whole section below it
				for j := i + 1; j < len(alt) && strings.HasPrefix(alt[j], "#   "); j++ {
					alt[j] = "  " + strings.TrimPrefix(alt[j], "#   ")
				}
			}
			_, err := parseAgentConfig("agent.yaml", []byte(strings.Join(alt, "\n")))
			assert.NoError(t, err, "line %d uncommented: %s", i+1, alt[i])
			alternatives++
		}
	}
	assert.Equal(t, 5, alternatives, "operator_secret_env, two auth lines, trace, llm")
}
