package gtnh

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// TestRouteCacheFollowsSnapshots: the route cache rebuilds the regions of
// columns that were edited, loaded or unloaded between two snapshots, and
// only those.
func TestRouteCacheFollowsSnapshots(t *testing.T) {
	store := world.NewChunkStore(nil)
	stone, ok := store.Resolver().State("minecraft:stone", 0)
	require.True(t, ok)
	loaded := map[[2]int]bool{}
	for cx := 0; cx < 6; cx++ {
		for cz := 0; cz < 3; cz++ {
			loaded[[2]int{cx, cz}] = true
			for x := 0; x < 16; x++ {
				for z := 0; z < 16; z++ {
					store.SetState(cx*16+x, 63, cz*16+z, stone)
				}
			}
		}
	}
	rc, err := newRouteCache()
	require.NoError(t, err)
	from, to := world.Pos(2, 64, 20), world.Pos(90, 64, 20)
	plan := func() path.Route {
		rc.sync(&world.Snapshot{Blocks: store.View()}, loaded)
		rt, err := rc.router.Find(from, path.At(to))
		require.NoError(t, err)
		require.True(t, rt.Complete, "%s", rt.Reason)
		return rt
	}
	plan()
	built := rc.router.Stats().Regions
	plan()
	assert.Equal(t, built, rc.router.Stats().Regions, "nothing changed: nothing is rebuilt")

	// A wall across the middle of column (2, 1): that region (and only a
	// few around it) is rebuilt, and the route goes around the wall.
	for z := 16; z < 32; z++ {
		store.SetState(40, 64, z, stone)
		store.SetState(40, 65, z, stone)
	}
	from = world.Pos(34, 64, 24) // beside the wall, in the edited column
	rt := plan()
	assert.Greater(t, rc.router.Stats().Regions, built, "the edited column's region is rebuilt")
	for _, s := range rt.Steps {
		assert.False(t, s.Pos.X == 40 && s.Pos.Z >= 16 && s.Pos.Z < 32, "the route walks through the new wall at %v", s.Pos)
	}

	built = rc.router.Stats().Regions
	plan()
	assert.Equal(t, built, rc.router.Stats().Regions, "the edit is accounted for once")

	// Unloading a column on the route makes the planner go around it.
	delete(loaded, [2]int{3, 1})
	rt = plan()
	for _, s := range rt.Steps {
		assert.False(t, s.Pos.X>>4 == 3 && s.Pos.Z>>4 == 1, "the route enters the unloaded column at %v", s.Pos)
	}
}
