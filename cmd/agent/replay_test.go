package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh/record"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/view/web"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// TestRecordAndReplay: `agent run --record` against the test server, then
// `agent replay` of the file shows the world the run ended with (the
// trace's last state), in both chunk formats.
func TestRecordAndReplay(t *testing.T) {
	const tick = 5 * time.Millisecond
	const secret = "s3cret-of-the-operators"
	t.Setenv("GTNH_AGENT_OPERATOR_SECRET", secret)
	for _, tc := range []struct {
		name string
		mods []proto17.ModInfo
		neid string
	}{
		{"neid", fakeserver.DefaultMods(), "neid=true"},
		{"vanilla", fakeserver.WithoutMod(fakeserver.DefaultMods(), "neid"), "neid=false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := fakeserver.New(inMemory(fakeserver.Options{Mods: tc.mods, TickDuration: tick, ViewRadius: 1, RegistryFiller: -1}))
			require.NoError(t, err)
			defer srv.Close()
			dir := t.TempDir()
			file, trace := filepath.Join(dir, "session.rec"), filepath.Join(dir, "trace.jsonl")
			// An operator's command, with the secret, broadcast while the bot plays.
			said := make(chan struct{})
			go func() {
				defer close(said)
				ctx, cancel := testdeadline.WithCancel(t, "the bot's join")
				defer cancel()
				if srv.WaitFor(ctx, func() bool { return len(srv.Players()) > 0 }) == nil {
					srv.Say("<Op> !bot " + secret + " ping")
				}
			}()
			code, out, errOut := runAgent(t, "run", "--server", srv.Addr(), "--username", "Bot", "--record", file,
				"--goal", "collect 2 minecraft:log", "--config-file", agentYAML(t, tick), "--trace", trace, "--max-steps", "5")
			require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
			<-said
			rec, err := os.ReadFile(file)
			require.NoError(t, err)
			zr, err := gzip.NewReader(bytes.NewReader(rec[10:]))
			require.NoError(t, err)
			content, err := io.ReadAll(zr)
			require.NoError(t, err)
			assert.False(t, bytes.Contains(content, []byte(secret)), "the operator secret is blanked out")
			assert.True(t, bytes.Contains(content, []byte("!bot "+strings.Repeat("*", len(secret))+" ping")), "the chat line is kept, blanked")
			data, err := os.ReadFile(trace)
			require.NoError(t, err)
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			var last loop.StepRecord
			require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &last))
			require.NotNil(t, last.After)

			code, out, errOut = runAgent(t, "replay", file)
			require.Equal(t, exitOK, code, errOut)
			assert.Contains(t, out, "chat lines: 1\n  <Op> !bot "+strings.Repeat("*", len(secret))+" ping\n", "every chat line, blanked")
			assert.Contains(t, out, "1 connection(s)")
			assert.Contains(t, out, tc.neid)
			assert.Contains(t, out, "chunks loaded: 9")
			assert.Contains(t, out, "minecraft:log ×")
			assert.Contains(t, out, "play/MapChunkBulk")

			code, out, errOut = runAgent(t, "replay", file, "--json")
			require.Equal(t, exitOK, code, errOut)
			var got struct {
				World   world.Snapshot   `json:"world"`
				Columns []chunk.ChunkPos `json:"columns"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &got))
			replayed := loop.Summarize(&got.World)
			assert.Equal(t, last.After.Inventory, replayed.Inventory)
			assert.Equal(t, last.After.Pos, replayed.Pos)
			assert.Equal(t, last.After.Health, replayed.Health)
			assert.Len(t, got.Columns, 9)

			// --at 0 ms... stops before anything but the first connection's
			// start: nothing loaded.
			code, out, errOut = runAgent(t, "replay", file, "--at", "1")
			require.Equal(t, exitOK, code, errOut)
			assert.Contains(t, out, "chunks loaded: 0")

			if tc.name == "neid" {
				replayShowsTheRun(t, file, lines)
			}
		})
	}
}

// replayShowsTheRun: agent replay FILE --ui of a run's recording shows
// the run's steps as the trace has them, the planner's last decision, and
// the bot facing the way it last looked; an earlier moment shows fewer
// steps.
func replayShowsTheRun(t *testing.T, file string, trace []string) {
	var steps []loop.StepRecord
	for _, l := range trace {
		var r loop.StepRecord
		require.NoError(t, json.Unmarshal([]byte(l), &r))
		steps = append(steps, r)
	}
	// The way the bot faced at the end: its last look in the recording.
	look := lastLook(t, file)
	require.NotNil(t, look, "the bot looked")

	var stdout, stderr bytes.Buffer
	e := &env{stdout: &stdout, stderr: &stderr, log: newLogger(&stderr)}
	c := &replayCommand{}
	var end, first web.State
	c.serving = func() {
		var code int
		code, end = viewState(t, c.uf.url, "", "")
		require.Equal(t, http.StatusOK, code)
		code, first = viewState(t, c.uf.url, "?frame=0", "")
		require.Equal(t, http.StatusOK, code)
	}
	require.NoError(t, execute(e, c, []string{file, "--ui", "127.0.0.1:0", "--ui-every", "5ms"}), stderr.String())
	assert.Contains(t, stdout.String(), fmt.Sprintf("agent: %d steps, ", len(steps)))
	require.Len(t, end.Steps, len(steps), "every step of the run")
	for i, s := range steps {
		assert.Equal(t, s.Step, end.Steps[i].Step.Step)
		assert.Equal(t, s.Invocation.Skill, end.Steps[i].Skill, "step %d", i)
		assert.Equal(t, string(s.Verdict), end.Steps[i].Verdict, "step %d", i)
		assert.Equal(t, loop.InventoryChange(s.Before.Inventory, s.After.Inventory), end.Steps[i].Change, "step %d", i)
	}
	require.NotNil(t, end.Decision, "the planner's last decision")
	assert.Equal(t, steps[len(steps)-1].Step, end.Decision.Step)
	assert.Equal(t, steps[len(steps)-1].Invocation.Skill, end.Decision.Skill)
	assert.True(t, end.Replay.Notes)
	assert.Equal(t, look.Heading(), end.Heading, "the way the bot last looked")
	assert.Less(t, len(first.Steps), len(end.Steps), "the first moment comes before the steps")
}

// lastLook is the bot's last look in a recording: its last look record or
// the look of its last position record, whichever came later.
func lastLook(t *testing.T, file string) *record.Look {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	rd, err := record.NewReader(f)
	require.NoError(t, err)
	var look *record.Look
	for {
		r, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return look
		}
		require.NoError(t, err)
		switch r.Kind {
		case record.KindLook:
			l, err := r.Look()
			require.NoError(t, err)
			look = &l
		case record.KindPosition:
			p, err := r.Position()
			require.NoError(t, err)
			look = &record.Look{Yaw: p.Yaw, Pitch: p.Pitch}
		}
	}
}

// TestReplayRefusesBadInput: usage errors exit 2, a broken file exits 1
// after printing what was whole.
func TestReplayRefusesBadInput(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		code, _, errOut := runAgent(t, "replay")
		assert.Equal(t, exitUsage, code)
		assert.Contains(t, errOut, "expected one recording FILE")
		code, _, errOut = runAgent(t, "replay", filepath.Join(t.TempDir(), "missing.rec"))
		assert.Equal(t, exitUsage, code)
		assert.Contains(t, errOut, "no such file")
		code, _, errOut = runAgent(t, "replay", "x.rec", "--at", "-5")
		assert.Equal(t, exitUsage, code)
		assert.Contains(t, errOut, "--at must not be negative")
		notRec := filepath.Join(t.TempDir(), "trace.jsonl")
		require.NoError(t, os.WriteFile(notRec, []byte(`{"step":1}`+"\n"), 0o644))
		code, _, errOut = runAgent(t, "replay", notRec)
		assert.Equal(t, exitFail, code)
		assert.Contains(t, errOut, "at byte 0: expected the header GTNH-REC")

		fixture, err := os.ReadFile(filepath.Join("..", "..", "gtnh", "record", "testdata", "session-neid.rec"))
		require.NoError(t, err)
		cut := filepath.Join(t.TempDir(), "cut.rec")
		require.NoError(t, os.WriteFile(cut, fixture[:len(fixture)-20], 0o644))
		code, out, errOut := runAgent(t, "replay", cut)
		assert.Equal(t, exitFail, code)
		assert.Contains(t, out, "chunks loaded: 9", "what was whole is shown")
		assert.Contains(t, errOut, "expected")
		assert.Contains(t, errOut, "unexpected EOF")

		code, _, errOut = runAgent(t, "run", "--record", filepath.Join(t.TempDir(), "x.rec"), "--max-steps", "1")
		assert.Equal(t, exitUsage, code)
		assert.Contains(t, errOut, "--record needs a server")
	})
}
