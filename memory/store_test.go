package memory

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/gtnh-agent/gtnh-agent/game"
)

var (
	home  = Place{Server: "play.example:25565", Dimension: "overworld"}
	other = Place{Server: "play.example:25565", Dimension: "nether"}
	t0    = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
)

func open(t *testing.T, o Options) *Store {
	t.Helper()
	o.Now = func() time.Time { return t0 }
	s, err := Open(filepath.Join(t.TempDir(), "sub", "memory.db"), o)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func seen(id string, meta int, x, y, z int) Sighting {
	return Sighting{Block: id, Meta: meta, Pos: game.Pos(x, y, z)}
}

func positions(ss []Sighting) []game.BlockPos {
	var out []game.BlockPos
	for _, s := range ss {
		out = append(out, s.Pos)
	}
	return out
}

// txID is the id of the last committed transaction.
func txID(t *testing.T, s *Store) int {
	t.Helper()
	var id int
	require.NoError(t, s.db.View(func(tx *bolt.Tx) error { id = tx.ID(); return nil }))
	return id
}

func TestRecordAndRecall(t *testing.T) {
	s := open(t, Options{})
	ch, err := s.Record(home, Observation{Tick: 100, Seen: []Sighting{
		seen("minecraft:coal_ore", 0, 10, 40, 0), seen("minecraft:coal_ore", 0, -3, 40, 0),
		seen("minecraft:log", 1, 0, 64, 5), seen("minecraft:coal_ore", 0, 200, 40, 0),
	}})
	require.NoError(t, err)
	assert.Equal(t, Changes{Added: 4}, ch)

	got, err := s.Recall(home, Query{Block: "minecraft:coal_ore", Meta: -1, From: game.Pos(0, 40, 0)})
	require.NoError(t, err)
	assert.Equal(t, []game.BlockPos{game.Pos(-3, 40, 0), game.Pos(10, 40, 0), game.Pos(200, 40, 0)}, positions(got), "nearest first")
	assert.Equal(t, int64(100), got[0].Tick)
	assert.Equal(t, t0, got[0].Seen)

	got, err = s.Recall(home, Query{Block: "minecraft:coal_ore", Meta: -1, From: game.Pos(0, 40, 0), MaxDist: 50, K: 1})
	require.NoError(t, err)
	assert.Equal(t, []game.BlockPos{game.Pos(-3, 40, 0)}, positions(got), "K and MaxDist bound the answer")

	got, err = s.Recall(home, Query{Block: "minecraft:log", Meta: 0, From: game.Pos(0, 40, 0)})
	require.NoError(t, err)
	assert.Empty(t, got, "the metadata must match")
	got, err = s.Recall(home, Query{Block: "minecraft:log", Meta: 1, From: game.Pos(0, 40, 0)})
	require.NoError(t, err)
	assert.Len(t, got, 1)

	got, err = s.Recall(other, Query{Block: "minecraft:coal_ore", Meta: -1})
	require.NoError(t, err)
	assert.Empty(t, got, "each dimension is its own world")
}

func TestSameLookWritesNothing(t *testing.T) {
	s := open(t, Options{})
	o := Observation{Tick: 5, Seen: []Sighting{seen("minecraft:clay", 0, 1, 60, 1)}, Chunks: [][2]int{{0, 0}},
		Containers: []Container{{Kind: "chest", Pos: game.Pos(3, 64, 3), Items: []Item{{ID: "minecraft:flint", Count: 3}}}}}
	_, err := s.Record(home, o)
	require.NoError(t, err)
	before := txID(t, s)
	o.Tick = 9
	ch, err := s.Record(home, o)
	require.NoError(t, err)
	assert.Equal(t, Changes{}, ch)
	assert.Equal(t, before, txID(t, s), "nothing new: no write")

	o.Containers[0].Items[0].Count = 2
	_, err = s.Record(home, o)
	require.NoError(t, err)
	assert.Equal(t, before+1, txID(t, s), "a container that changed is written")
	c, err := s.Show(home, 0)
	require.NoError(t, err)
	require.Len(t, c.Containers, 1)
	assert.Equal(t, 2, c.Containers[0].Items[0].Count)
	assert.Equal(t, int64(9), c.Containers[0].Tick)
}

func TestGoneBlocksAreForgotten(t *testing.T) {
	s := open(t, Options{})
	_, err := s.Record(home, Observation{Seen: []Sighting{
		seen("minecraft:gravel", 0, 2, 60, 0), seen("minecraft:gravel", 0, 4, 60, 0), seen("minecraft:gravel", 0, 40, 60, 0),
		seen("minecraft:gravel", 0, 5, 60, 30),
	}})
	require.NoError(t, err)
	mined := game.Pos(2, 60, 0)
	// Outside the view the world reads as air (an unloaded chunk): only
	// what lies inside may be judged.
	view := &View{Center: game.Pos(0, 60, 0), Radius: 10, Holds: func(p game.BlockPos, id string, _ int) bool {
		return p != mined && p.DistSq(game.Pos(0, 60, 0)) <= 100 && id == "minecraft:gravel"
	}}
	ch, err := s.Record(home, Observation{View: view})
	require.NoError(t, err)
	assert.Equal(t, Changes{Forgotten: 1}, ch)
	got, err := s.Recall(home, Query{Block: "minecraft:gravel", Meta: -1})
	require.NoError(t, err)
	assert.Equal(t, []game.BlockPos{game.Pos(4, 60, 0), game.Pos(5, 60, 30), game.Pos(40, 60, 0)}, positions(got),
		"the mined one is gone; those outside the view are kept")
	sum, err := s.Places()
	require.NoError(t, err)
	assert.Equal(t, 3, sum[0].Sightings)
}

func TestSightingsForgetTheOldestPastTheBound(t *testing.T) {
	s := open(t, Options{MaxSightings: 3})
	for i := range 5 {
		_, err := s.Record(home, Observation{Tick: int64(i), Seen: []Sighting{seen("minecraft:iron_ore", 0, i, 30, 0)}})
		require.NoError(t, err)
	}
	got, err := s.Recall(home, Query{Block: "minecraft:iron_ore", Meta: -1})
	require.NoError(t, err)
	assert.Equal(t, []game.BlockPos{game.Pos(2, 30, 0), game.Pos(3, 30, 0), game.Pos(4, 30, 0)}, positions(got))
	sum, err := s.Places()
	require.NoError(t, err)
	assert.Equal(t, 3, sum[0].Sightings)

	ch, err := s.Record(home, Observation{Tick: 9, Seen: []Sighting{seen("minecraft:log", 0, 0, 64, 0), seen("minecraft:log", 0, 1, 64, 0)}})
	require.NoError(t, err)
	assert.Equal(t, Changes{Added: 2, Evicted: 2}, ch)
	got, err = s.Recall(home, Query{Block: "minecraft:iron_ore", Meta: -1})
	require.NoError(t, err)
	assert.Equal(t, []game.BlockPos{game.Pos(4, 30, 0)}, positions(got), "other blocks count against the same bound")
}

func TestOtherBounds(t *testing.T) {
	s := open(t, Options{MaxPlaces: 2, MaxWaypoints: 1, MaxDeaths: 2, MaxContainers: 1, MaxExplored: 3})
	require.NoError(t, s.SetWaypoint(home, Waypoint{Name: "base", Pos: game.Pos(0, 64, 0)}))
	require.NoError(t, s.SetWaypoint(home, Waypoint{Name: "base", Pos: game.Pos(1, 64, 0)}), "the same name replaces")
	err := s.SetWaypoint(home, Waypoint{Name: "mine", Pos: game.Pos(9, 20, 9)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "1 waypoints (the bound)")

	for i := range 3 {
		require.NoError(t, s.RecordDeath(home, Death{Pos: game.Pos(i, 0, 0), Cause: "lava", Tick: int64(i)}))
	}
	_, err = s.Record(home, Observation{Tick: 1, Containers: []Container{{Kind: "chest", Pos: game.Pos(1, 1, 1)}}})
	require.NoError(t, err)
	_, err = s.Record(home, Observation{Tick: 2, Containers: []Container{{Kind: "furnace", Pos: game.Pos(2, 2, 2)}},
		Chunks: [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {-1, 0}}})
	require.NoError(t, err)
	c, err := s.Show(home, 0)
	require.NoError(t, err)
	assert.Equal(t, []Waypoint{{Name: "base", Pos: game.Pos(1, 64, 0), Set: t0}}, c.Waypoints)
	require.Len(t, c.Deaths, 2)
	assert.Equal(t, game.Pos(1, 0, 0), c.Deaths[0].Pos, "the oldest death is forgotten")
	require.Len(t, c.Containers, 1)
	assert.Equal(t, "furnace", c.Containers[0].Kind, "the oldest container is forgotten")
	assert.Equal(t, 3, c.Summary.Explored, "explored chunks stop at the bound")

	_, err = s.Record(other, Observation{Seen: []Sighting{seen("minecraft:lava", 0, 0, 10, 0)}})
	require.NoError(t, err)
	_, err = s.Record(Place{Server: "sim/fresh_start/1", Dimension: "overworld"}, Observation{Seen: []Sighting{seen("minecraft:lava", 0, 0, 10, 0)}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "already holds 2 worlds")
	_, err = s.Record(Place{Server: "x"}, Observation{})
	require.Error(t, err, "a place needs a dimension")
}

func TestForget(t *testing.T) {
	s := open(t, Options{})
	_, err := s.Record(home, Observation{Seen: []Sighting{seen("minecraft:sand", 0, 1, 62, 1), seen("minecraft:clay", 0, 2, 58, 2)},
		Chunks: [][2]int{{0, 0}}})
	require.NoError(t, err)
	require.NoError(t, s.SetWaypoint(home, Waypoint{Name: "base"}))

	ok, err := s.Forget(home, ForgetSightings, "minecraft:sand")
	require.NoError(t, err)
	assert.True(t, ok)
	c, err := s.Show(home, 0)
	require.NoError(t, err)
	assert.Equal(t, []game.BlockPos{game.Pos(2, 58, 2)}, positions(c.Sightings))
	assert.Equal(t, 1, c.Summary.Sightings)

	_, err = s.Forget(home, ForgetExplored, "")
	require.NoError(t, err)
	_, err = s.Forget(home, ForgetWaypoints, "")
	require.NoError(t, err)
	c, err = s.Show(home, 0)
	require.NoError(t, err)
	assert.Zero(t, c.Summary.Explored)
	assert.Empty(t, c.Waypoints)
	assert.Len(t, c.Sightings, 1)

	_, err = s.Forget(home, "trees", "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `nothing called "trees"`)

	ok, err = s.Forget(home, ForgetAll, "")
	require.NoError(t, err)
	assert.True(t, ok)
	ok, err = s.Forget(home, ForgetAll, "")
	require.NoError(t, err)
	assert.False(t, ok, "nothing left of it")
	_, err = s.Show(home, 0)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "remembers nothing of play.example:25565 overworld")
}

func TestCorruptRecordsAreErrors(t *testing.T) {
	s := open(t, Options{})
	_, err := s.Record(home, Observation{Seen: []Sighting{seen("minecraft:coal_ore", 0, 1, 1, 1)},
		Containers: []Container{{Kind: "chest", Pos: game.Pos(0, 0, 0)}}})
	require.NoError(t, err)
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		pb := tx.Bucket(bPlaces).Bucket(home.key())
		if err := pb.Bucket(bSightings).Bucket([]byte("minecraft:coal_ore")).Put(posKey(game.Pos(1, 1, 1)), []byte{1, 2, 3}); err != nil {
			return err
		}
		return pb.Bucket(bContainers).Put(posKey(game.Pos(0, 0, 0)), []byte(`{"kind":`))
	}))
	_, err = s.Recall(home, Query{Block: "minecraft:coal_ore", Meta: -1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "memory: play.example:25565 overworld: a sighting of 3 bytes (28 expected)")
	_, err = s.Show(home, 0)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a sighting of 3 bytes")
	_, err = s.Forget(home, ForgetSightings, "")
	require.NoError(t, err, "forgetting drops what cannot be read")
	_, err = s.Show(home, 0)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a container record")
}

func TestOpenErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	s, err := Open(path, Options{})
	require.NoError(t, err)
	// bbolt's lock is per process on Linux (flock on a new descriptor
	// blocks too), so a second Open waits and gives up.
	_, err = Open(path, Options{LockWait: 10 * time.Millisecond})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is in use by another agent process")
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bFormat).Put(bFormat, u64(7)) }))
	require.NoError(t, s.Close())
	_, err = Open(path, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "this agent reads layout 1")
}

func TestKeysRoundTrip(t *testing.T) {
	for _, p := range []game.BlockPos{game.Pos(0, 0, 0), game.Pos(-1, 5, 30000000), game.Pos(-30000000, 255, -1)} {
		got, err := keyPos(posKey(p))
		require.NoError(t, err)
		assert.Equal(t, p, got)
	}
	assert.Less(t, string(posKey(game.Pos(-1, 0, 0))), string(posKey(game.Pos(0, 0, 0))), "negative x sorts first")
}
