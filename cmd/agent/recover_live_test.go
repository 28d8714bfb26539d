package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// recoverScript walks the bot to the bottom of the pool, holds it there
// with one wait longer than its breath (600 ticks; it drowns at 500, and
// no reflex can cut a step short), then waits a second at a time.
const recoverScript = `- {skill: recover_drops, params: {x: 13, y: 61, z: 8}}
- {skill: wait_for, params: {duration: 600}}
` + `- {skill: wait_for, params: {duration: 20}}
- {skill: wait_for, params: {duration: 20}}
- {skill: wait_for, params: {duration: 20}}
- {skill: wait_for, params: {duration: 20}}
- {skill: wait_for, params: {duration: 20}}
- {skill: wait_for, params: {duration: 20}}
- {skill: wait_for, params: {duration: 20}}
- {skill: wait_for, params: {duration: 20}}
`

// drownServer is the test server with a pool three deep five blocks east
// of the spawn and the bot holding an iron axe and 16 cobblestone.
func drownServer(t *testing.T) *fakeserver.Server {
	t.Helper()
	var blocks []fakeserver.Block
	for x := 12; x <= 14; x++ {
		for z := 7; z <= 9; z++ {
			for y := 61; y <= 63; y++ {
				blocks = append(blocks, fakeserver.Block{X: x, Y: y, Z: z, Name: "minecraft:water"})
			}
		}
	}
	srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: steamTick, Trees: []fakeserver.Tree{}, Blocks: blocks,
		Inventory: []fakeserver.Item{{Slot: 36, Name: "minecraft:iron_axe", Count: 1}, {Slot: 37, Name: "minecraft:cobblestone", Count: 16}}}))
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	return srv
}

// runScript runs the agent on srv with a script, the survival section
// given, and more arguments; it returns the trace's steps.
func runScript(t *testing.T, srv *fakeserver.Server, script, survival string, maxSteps int, args ...string) []loop.StepRecord {
	t.Helper()
	dir := t.TempDir()
	cfg := agentYAML(t, steamTick)
	data, err := os.ReadFile(cfg)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cfg, append(data, survival...), 0o644))
	file := filepath.Join(dir, "script.yaml")
	require.NoError(t, os.WriteFile(file, []byte(script), 0o644))
	trace := filepath.Join(dir, "trace.jsonl")
	_, out, errOut := runAgent(t, append([]string{"run", "--server", srv.Addr(), "--username", "Bot", "--goal", "collect 64 minecraft:log",
		"--planner", "script", "--script", file, "--config-file", cfg, "--max-steps", fmt.Sprint(maxSteps), "--trace", trace}, args...)...)
	lines, err := os.ReadFile(trace)
	require.NoError(t, err, out+errOut)
	var recs []loop.StepRecord
	for _, line := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		var rec loop.StepRecord
		require.NoError(t, json.Unmarshal([]byte(line), &rec))
		recs = append(recs, rec)
	}
	return recs
}

const quietNights = "survival:\n  shelter: {enabled: false}\n  unstuck: {enabled: false}\n"

// drownAndRecover runs the agent on drownServer, the recover reflex on or
// off.
func drownAndRecover(t *testing.T, recover bool) (*fakeserver.Server, []loop.StepRecord) {
	t.Helper()
	srv := drownServer(t)
	survival := quietNights
	if !recover {
		survival += "  recover: {enabled: false}\n"
	}
	return srv, runScript(t, srv, recoverScript, survival, 10)
}

// TestRecoverAfterDeathLive: on the test server the bot drowns in a long
// wait at the bottom of a pool and respawns at the spawn with nothing; its
// axe and cobblestone lie where it died. The recover reflex walks back and
// picks them up (the server's Collect Item) while they last, and the
// escape reflex takes it out of the water again before it drowns twice.
func TestRecoverAfterDeathLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, recs := drownAndRecover(t, true)
		require.Len(t, srv.Deaths(), 1, "drowned once: %+v", recs)
		assert.Equal(t, "drowning", srv.Deaths()[0].Cause)
		var recovered bool
		for _, r := range recs {
			if r.Reflex != nil && r.Reflex.Name == "recover" {
				recovered = true
				assert.Equal(t, "recover_drops", r.Invocation.Skill)
				assert.Contains(t, r.Reflex.Reason, "holding 17 items")
				assert.Equal(t, loop.Success, r.Verdict, r.Error)
			}
		}
		require.True(t, recovered, "a recover step")
		p := player(t, srv)
		assert.Equal(t, 16, p.Count("minecraft:cobblestone"), "the cobblestone back, on the server")
		assert.Equal(t, 1, p.Count("minecraft:iron_axe"), "and the axe")
	})
}

// TestNoRecoverAfterDeathLive: the same death without the recover reflex
// leaves the items in the pool.
func TestNoRecoverAfterDeathLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, recs := drownAndRecover(t, false)
		require.NotEmpty(t, srv.Deaths(), "%+v", recs)
		p := player(t, srv)
		assert.Zero(t, p.Count("minecraft:cobblestone"))
		assert.Zero(t, p.Count("minecraft:iron_axe"))
	})
}

// TestRecoverAfterARestartLive: the bot drowns and the run ends there (its
// last step); the memory file keeps the death, with the items it held, the
// server's world age and its cause as the server's death message told it,
// and agent memory show lists it. A new run with
// the same file goes back for the items at once: the recover reflex
// learns of the death from memory. A new run without the file leaves them.
func TestRecoverAfterARestartLive(t *testing.T) {
	const twoSteps = `- {skill: recover_drops, params: {x: 13, y: 61, z: 8}}
- {skill: wait_for, params: {duration: 600}}
`
	const waits = "- {skill: wait_for, params: {duration: 20}}\n- {skill: wait_for, params: {duration: 20}}\n"
	for _, remember := range []bool{true, false} {
		t.Run(fmt.Sprintf("memory %v", remember), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := drownServer(t)
				file := filepath.Join(t.TempDir(), "memory.db")
				runScript(t, srv, twoSteps, quietNights, 2, "--memory", file)
				require.Len(t, srv.Deaths(), 1)
				code, out, errOut := runAgent(t, "memory", "show", "--memory", file, "--server", srv.Addr())
				require.Equal(t, exitOK, code, errOut)
				assert.Contains(t, out, "1 deaths")
				assert.Contains(t, out, "death at (13, 61, 8)")
				assert.Contains(t, out, "holding 17 items: Bot drowned", "the cause as the server's death message said it")

				second := file
				if !remember {
					second = "off"
				}
				recs := runScript(t, srv, waits, quietNights, 2, "--memory", second)
				p := player(t, srv)
				if !remember {
					assert.Nil(t, recs[0].Reflex, "nothing to go back for")
					assert.Zero(t, p.Count("minecraft:cobblestone"), "the items stay in the pool")
					return
				}
				require.NotNil(t, recs[0].Reflex, "the first step goes back")
				assert.Equal(t, "recover", recs[0].Reflex.Name)
				assert.Equal(t, loop.Success, recs[0].Verdict, recs[0].Error)
				assert.Equal(t, 16, p.Count("minecraft:cobblestone"), "the cobblestone back, on the server")
				assert.Equal(t, 1, p.Count("minecraft:iron_axe"))
			})
		})
	}
}

// TestNoRecoverFromLavaLive: the bot walks five blocks east of the spawn
// (recover_drops there) and, as it waits, lava flows in where it stands;
// with the escape reflex off it burns there, and what it held falls into
// the lava and burns (the test server's EntityItem in lava: gone in its
// second tick). Respawned on dry ground, the bot does not walk back into
// the lava: the recover reflex sees lava where the items fell and lets
// them go.
func TestNoRecoverFromLavaLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, err := fakeserver.New(inMemory(fakeserver.Options{TickDuration: steamTick, Trees: []fakeserver.Tree{},
			Inventory: []fakeserver.Item{{Slot: 36, Name: "minecraft:iron_axe", Count: 1}, {Slot: 37, Name: "minecraft:cobblestone", Count: 16}}}))
		require.NoError(t, err)
		t.Cleanup(srv.Close)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		flooded := make(chan error, 1)
		go func() {
			err := srv.WaitFor(ctx, func() bool {
				p, ok := srv.Player("Bot")
				return ok && p.Pos.Block() == world.Pos(13, 64, 8)
			})
			if err == nil {
				err = srv.SetBlocks(fakeserver.Block{X: 13, Y: 64, Z: 8, Name: "minecraft:lava"}, fakeserver.Block{X: 13, Y: 65, Z: 8, Name: "minecraft:lava"})
			}
			flooded <- err
		}()
		script := strings.Replace(recoverScript, "{x: 13, y: 61, z: 8}", "{x: 13, y: 64, z: 8}", 1)
		recs := runScript(t, srv, script, quietNights+"  escape: {enabled: false}\n", 10)
		cancel()
		require.NoError(t, <-flooded, "the lava flowed in: %+v", recs)
		require.Len(t, srv.Deaths(), 1, "burned once: %+v", recs)
		assert.Equal(t, "lava", srv.Deaths()[0].Cause)
		assert.Len(t, srv.BurnedItems(), 2, "the axe and the cobblestone burned")
		assert.Empty(t, srv.DroppedItems())
		for _, r := range recs {
			if r.Reflex != nil {
				assert.NotEqual(t, "recover", r.Reflex.Name, "no walk back into the lava: %+v", r)
			}
		}
		assert.Less(t, player(t, srv).Pos.X, 12.0, "still on dry ground, west of the lava")
	})
}
