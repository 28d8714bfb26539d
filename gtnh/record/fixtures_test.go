package record

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Recordings of the test server, committed as fixtures: a session in each
// chunk format (join, walk to the tree east of the spawn, fell and collect
// two logs). GTNH_WRITE_FIXTURES=1 records them again (and writes the
// fuzz seed of the well-formed content).
func fixture(name string) string { return filepath.Join("testdata", "session-"+name+".rec") }

func TestWriteFixtures(t *testing.T) {
	if os.Getenv("GTNH_WRITE_FIXTURES") == "" {
		t.Skip("set GTNH_WRITE_FIXTURES=1 to record the fixtures again")
	}
	for _, f := range chunkFormats {
		data, _, _ := recordSession(t, f.mods, 2)
		require.NoError(t, os.WriteFile(fixture(f.name), data, 0o644))
	}
	for _, fz := range []string{"FuzzReader", "FuzzReplay"} {
		dir := filepath.Join("testdata", "fuzz", fz)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		seed := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", seedContent())
		require.NoError(t, os.WriteFile(filepath.Join(dir, "seed-wellformed"), []byte(seed), 0o644))
	}
	session, err := os.ReadFile(fixture("vanilla"))
	require.NoError(t, err)
	seed := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", contentOf(t, session))
	require.NoError(t, os.WriteFile(filepath.Join("testdata", "fuzz", "FuzzReplay", "seed-session"), []byte(seed), 0o644))
}

// TestFixturesReplayToAKnownState replays the committed recordings: the
// bot stands beside the tree with two logs more than it started with, the
// two lowest logs are gone and the rest of the trunk stands, in 3×3 loaded
// columns, in the recorded chunk format.
func TestFixturesReplayToAKnownState(t *testing.T) {
	for _, f := range chunkFormats {
		t.Run(f.name, func(t *testing.T) {
			data, err := os.ReadFile(fixture(f.name))
			require.NoError(t, err)
			assert.Less(t, len(data), 64<<10, "fixtures stay small")
			res, err := Replay(context.Background(), bytes.NewReader(data), ReplayOptions{})
			require.NoError(t, err)
			require.Nil(t, res.Stopped)
			w := res.World
			assert.Equal(t, 1, res.Connections)
			assert.Equal(t, f.neid, res.Formats.NEID)
			assert.Equal(t, "Bot", w.Player.Name)
			assert.Equal(t, world.Overworld, w.Player.Dimension)
			feet := w.Feet()
			assert.Equal(t, 64, feet.Y, "on the ground")
			assert.LessOrEqual(t, max(abs(feet.X-12), abs(feet.Z-8)), 2, "beside the tree at (12, 8): %v", feet)
			assert.Equal(t, 2, w.Inventory.CountID("minecraft:log"))
			assert.Equal(t, 1, w.Inventory.CountID("minecraft:iron_axe"))
			assert.True(t, w.BlockAt(world.Pos(12, 64, 8)).IsAir(), "felled")
			assert.True(t, w.BlockAt(world.Pos(12, 65, 8)).IsAir(), "felled")
			assert.Equal(t, "minecraft:log", w.BlockAt(world.Pos(12, 66, 8)).ID, "the rest of the trunk")
			assert.Equal(t, "minecraft:grass", w.BlockAt(world.Pos(12, 63, 8)).ID)
			var cols []chunk.ChunkPos
			for x := -1; x <= 1; x++ {
				for z := -1; z <= 1; z++ {
					cols = append(cols, chunk.ChunkPos{X: x, Z: z})
				}
			}
			assert.Equal(t, cols, Columns(w))
			assert.Empty(t, res.Stats.Malformed)
		})
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// BenchmarkReplayFixture replays the NotEnoughIds fixture (one short
// session) from memory.
func BenchmarkReplayFixture(b *testing.B) {
	data, err := os.ReadFile(fixture("neid"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Replay(context.Background(), bytes.NewReader(data), ReplayOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReplayFrames: ReplayOptions.Frame sees the world as the recording
// goes, at least Every apart: the bot walks from the spawn to the tree and
// its logs arrive, the last frame no further than the end.
func TestReplayFrames(t *testing.T) {
	data, err := os.ReadFile(fixture("vanilla"))
	require.NoError(t, err)
	const every = 20 * time.Millisecond
	type frame struct {
		at   time.Duration
		x    float64
		logs int
	}
	var frames []frame
	res, err := Replay(context.Background(), bytes.NewReader(data), ReplayOptions{Every: every, Frame: func(at time.Duration, w *world.Snapshot) {
		frames = append(frames, frame{at, w.Player.Pos.X, w.Inventory.CountID("minecraft:log")})
	}})
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(frames), 3, "frames: %+v", frames)
	for i := 1; i < len(frames); i++ {
		assert.Greater(t, frames[i].at, frames[i-1].at, "frame %d", i)
		assert.GreaterOrEqual(t, frames[i].logs, frames[i-1].logs, "frame %d", i)
	}
	assert.LessOrEqual(t, frames[len(frames)-1].at, res.Duration)
	first, last := frames[0], frames[len(frames)-1]
	assert.Less(t, first.logs, 2, "the logs come later")
	assert.Less(t, first.x, last.x, "the bot walks east to the tree")
}
