package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"testing"

	mcnet "github.com/Tnze/go-mc/net"
	pk "github.com/Tnze/go-mc/net/packet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// statusServer answers one Server List Ping on a local port.
func statusServer(t *testing.T, status string) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	go func() {
		sock, err := l.Accept()
		if err != nil {
			return
		}
		defer sock.Close()
		c := mcnet.WrapConn(sock)
		var buf pk.Packet
		for _, s := range []proto17.State{proto17.Handshaking, proto17.Status} {
			if c.ReadPacket(&buf) != nil {
				return
			}
			_ = s
		}
		data, _ := (&proto17.StatusResponse{JSON: status}).AppendPayload(nil, proto17.Formats{})
		_ = c.WritePacket(pk.Packet{ID: proto17.IDClientboundStatusResponse, Data: data})
		if c.ReadPacket(&buf) != nil {
			return
		}
		_ = c.WritePacket(pk.Packet{ID: proto17.IDClientboundStatusPong, Data: buf.Data})
	}()
	return l.Addr().String()
}

const gtnhStatus = `{"version":{"name":"1.7.10","protocol":5},"players":{"max":20,"online":2,"sample":[{"name":"Alice","id":"x"}]},` +
	`"description":"§bGT: New Horizons 2.8.4","modinfo":{"type":"FML","modList":[{"modid":"mcp","version":"9.05"},` +
	`{"modid":"neid","version":"2.1.10"},{"modid":"modularui","version":"1.2.20"},{"modid":"gregtech","version":"MC1710-5.09.51"}]}}`

func TestPingPrintsTheServer(t *testing.T) {
	addr := statusServer(t, gtnhStatus)
	code, out, errOut := runAgent(t, "ping", addr)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "motd:      GT: New Horizons 2.8.4")
	assert.Contains(t, out, "version:   1.7.10 (protocol 5)")
	assert.Contains(t, out, "players:   2/20 (Alice)")
	assert.Contains(t, out, "mods:      4 (Forge)")
	assert.Contains(t, out, "protocol:  neid 2.1.10, modularui 1.2.20")
	assert.Contains(t, out, "formats{neid=true, modularui=true")
}

func TestPingJSON(t *testing.T) {
	addr := statusServer(t, gtnhStatus)
	code, out, errOut := runAgent(t, "ping", "--json", addr)
	require.Equal(t, exitOK, code, errOut)
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Equal(t, "GT: New Horizons 2.8.4", v["motd"])
	assert.Equal(t, float64(4), v["mod_count"])
	assert.Len(t, v["protocol_mods"], 2)
}

func TestPingErrors(t *testing.T) {
	code, _, _ := runAgent(t, "ping")
	assert.Equal(t, exitUsage, code)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	l.Close()
	code, _, errOut := runAgent(t, "ping", "--timeout", "2s", addr)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, errOut, "gtnh: dial")
}

func TestRunServerUsageAndConnectionErrors(t *testing.T) {
	code, _, errOut := runAgent(t, "run", "--server", "127.0.0.1:1")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "--username")
	code, _, _ = runAgent(t, "run", "--server", "127.0.0.1:1", "--username", "Bot", "--scenario", "x.yaml")
	assert.Equal(t, exitUsage, code)
	code, _, errOut = runAgent(t, "run", "--server", "127.0.0.1:1", "--username", "bad name")
	assert.Equal(t, exitUsage, code, errOut)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	l.Close()
	code, _, errOut = runAgent(t, "run", "--server", addr, "--username", "Bot", "--goal", "collect 1 minecraft:log")
	assert.Equal(t, exitFail, code)
	assert.Contains(t, errOut, "gtnh:")
}

func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "agent.yaml")
	require.NoError(t, os.WriteFile(good, []byte(`server:
  address: 127.0.0.1:25565
  username: Bot
  operators: [Alice, Bob]
  command_prefix: "!b "
  tick: 50ms
  break_factor: 1.5
  collect_drops: false
  timeouts: {dial: 5s, action: 1m}
  reconnect: {initial: 2s, max: 30s, max_attempts: 5}
run:
  goal: collect 4 minecraft:log
  max_steps: 20
`), 0o644))
	cfg, err := loadAgentConfig(good)
	require.NoError(t, err)
	assert.Equal(t, []string{"Alice", "Bob"}, cfg.Server.Operators)
	cc, err := cfg.Server.clientConfig()
	require.NoError(t, err)
	assert.True(t, cc.NoCollectDrops)
	assert.True(t, cc.Reconnect.Enabled)
	assert.Equal(t, 5, cc.Reconnect.MaxAttempts)
	assert.Equal(t, 1.5, cc.BreakFactor)
	assert.Equal(t, "collect 4 minecraft:log", cfg.Run.Goal)
	assert.NoError(t, cc.Validate())

	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("server:\n  adress: x\n  tick: soon\n  auth: {player: Steve}\n"), 0o644))
	_, err = loadAgentConfig(bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), bad+":2:3")
	assert.Contains(t, err.Error(), `did you mean "address"`)
	assert.Contains(t, err.Error(), bad+":3:9: server.tick")
	assert.Contains(t, err.Error(), "access_token_env")

	code, _, errOut := runAgent(t, "run", "--config-file", bad)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "bad.yaml:2:3")

	missing, err := loadAgentConfig("")
	require.NoError(t, err, "no agent.yaml in the working directory is fine")
	assert.Empty(t, missing.Server.Address)
	_, err = loadAgentConfig(filepath.Join(dir, "none.yaml"))
	assert.Error(t, err, "a named file must exist")

	t.Setenv("GTNH_TEST_TOKEN", "")
	_, err = serverConfig{Auth: &authConfig{TokenEnv: "GTNH_TEST_TOKEN"}}.clientConfig()
	assert.ErrorContains(t, err, "GTNH_TEST_TOKEN")
}
