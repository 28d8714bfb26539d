package main

import (
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parseBodyFlags parses args as a command with only the body flags, under a
// config file with server address cfgServer when it is not empty.
func parseBodyFlags(t *testing.T, cfgServer string, args ...string) *bodyFlags {
	t.Helper()
	if cfgServer != "" {
		cfg := filepath.Join(t.TempDir(), "agent.yaml")
		require.NoError(t, os.WriteFile(cfg, []byte("server:\n  address: "+cfgServer+"\n"), 0o600))
		args = append([]string{"--config-file", cfg}, args...)
	}
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var bf bodyFlags
	bf.register(fs, reconnectUse, "token")
	require.NoError(t, fs.Parse(args))
	acfg, err := bf.choose(&env{stdout: io.Discard, stderr: io.Discard}, fs)
	require.NoError(t, err)
	assert.Equal(t, cfgServer, acfg.Server.Address)
	return &bf
}

// TestBodyFlagsChoose: --body wins, then --server or the config file's
// server unless --scenario, --seed or --survival ask for the simulated
// world; the checks name the command.
func TestBodyFlagsChoose(t *testing.T) {
	for _, c := range []struct {
		cfg          string
		args         []string
		remote, live bool
		remoteErr    string
		liveErr      string
	}{
		{args: nil},
		{args: []string{"--scenario", "s.yaml", "--seed", "3"}},
		{args: []string{"--server", "h:1"}, live: true},
		{cfg: "h:1", live: true},
		{cfg: "h:1", args: []string{"--scenario", "s.yaml"}},
		{cfg: "h:1", args: []string{"--seed", "3"}},
		{cfg: "h:1", args: []string{"--body", "unix:///b"}, remote: true},
		{args: []string{"--body", "unix:///b", "--scenario", "s"}, remote: true, remoteErr: "cmd: --scenario, --seed, --survival, --server and --reconnect belong to the body"},
		{args: []string{"--body", "unix:///b", "--survival"}, remote: true, remoteErr: "belong to the body"},
		{args: []string{"--body", "unix:///b", "--seed", "1"}, remote: true, remoteErr: "belong to the body"},
		{args: []string{"--body", "unix:///b", "--server", "h:1"}, remote: true, remoteErr: "belong to the body"},
		{args: []string{"--body", "unix:///b", "--reconnect"}, remote: true, remoteErr: "belong to the body"},
		{args: []string{"--server", "h:1", "--scenario", "s"}, live: true, liveErr: "cmd: --scenario, --seed and --survival are for the simulated world, not with --server"},
		{args: []string{"--server", "h:1", "--survival"}, live: true, liveErr: "are for the simulated world"},
		{cfg: "h:1", args: []string{"--survival"}},
		{args: []string{"--server", "h:1", "--seed", "2"}, live: true, liveErr: "are for the simulated world"},
	} {
		bf := parseBodyFlags(t, c.cfg, c.args...)
		assert.Equal(t, c.remote, bf.remote, "%q %v", c.cfg, c.args)
		assert.Equal(t, c.live, bf.live, "%q %v", c.cfg, c.args)
		for _, chk := range []struct {
			err  error
			want string
		}{{bf.checkRemote("cmd"), c.remoteErr}, {bf.checkLive("cmd"), c.liveErr}} {
			if chk.want == "" {
				assert.NoError(t, chk.err, "%q %v", c.cfg, c.args)
				continue
			}
			var ue *usageError
			require.ErrorAs(t, chk.err, &ue, "%q %v", c.cfg, c.args)
			assert.Contains(t, chk.err.Error(), chk.want)
		}
	}
}

// TestBodyFlagsBadConfigFile: a config file that cannot be read is exit 2.
func TestBodyFlagsBadConfigFile(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	var bf bodyFlags
	bf.register(fs, reconnectUse, "token")
	require.NoError(t, fs.Parse([]string{"--config-file", filepath.Join(t.TempDir(), "missing.yaml")}))
	_, err := bf.choose(&env{stdout: io.Discard, stderr: io.Discard}, fs)
	var ue *usageError
	require.ErrorAs(t, err, &ue)
}

// TestBodyFlagsOpen: the simulated world opens with the seed; Ctrl-C while
// it is built is errInterrupted, a bad body address a usage error.
func TestBodyFlagsOpen(t *testing.T) {
	e := &env{stdout: io.Discard, stderr: io.Discard}
	sc, err := loadScenario("")
	require.NoError(t, err)

	bf := parseBodyFlags(t, "", "--seed", "7")
	o, err := bf.open(context.Background(), e, &agentConfig{}, sc)
	require.NoError(t, err)
	defer o.close()
	require.NotNil(t, o.world)
	assert.Nil(t, o.remote)
	assert.Nil(t, o.client)
	assert.NotNil(t, o.conn())

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = bf.open(ctx, e, &agentConfig{}, sc)
	assert.Same(t, errInterrupted, err)

	bf = parseBodyFlags(t, "", "--body", "ftp://nowhere")
	_, err = bf.open(context.Background(), e, &agentConfig{}, nil)
	var ue *usageError
	require.ErrorAs(t, err, &ue)
	assert.Contains(t, err.Error(), "--body")
}

// TestSurvivalFlag: --survival turns on the scenario's night, mobs,
// hunger and liquids, on a copy: the embedded scenario stays as it ships.
func TestSurvivalFlag(t *testing.T) {
	plain := parseBodyFlags(t, "", "--scenario", "fresh_start")
	sc, err := plain.loadScenario()
	require.NoError(t, err)
	assert.False(t, sc.Night || sc.Mobs || sc.Hunger || sc.Liquids, "fresh_start as it ships: no night, mobs, hunger or liquids")
	wild := parseBodyFlags(t, "", "--scenario", "fresh_start", "--survival")
	sc, err = wild.loadScenario()
	require.NoError(t, err)
	assert.True(t, sc.Night && sc.Mobs && sc.Hunger && sc.Liquids, "--survival: the day turns, mobs spawn, the food bar drains, water drowns")
	assert.Equal(t, "fresh_start", sc.Name)
	again, err := plain.loadScenario()
	require.NoError(t, err)
	assert.False(t, again.Night || again.Mobs || again.Hunger || again.Liquids, "the embedded scenario is not changed")
	_, err = parseBodyFlags(t, "", "--scenario", "no_such_world", "--survival").loadScenario()
	assert.Error(t, err)
}
