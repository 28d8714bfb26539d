package base

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

const ovenItem = "Railcraft:machine.alpha:7"

func ovenBlocks(n int) world.Inventory {
	return world.NewInventory(stack("Railcraft:machine.alpha", 7, n))
}

// checkBuild replays the actions against the snapshot's blocks: every
// placement is within reach of where the player stands, rests on the face
// it names, lies inside the pattern and not where the player stands; every
// standing spot is outside the structure with room to stand; the layers go
// bottom up; and the finished blocks are the pattern at origin.
func checkBuild(t *testing.T, w *world.Snapshot, acts []action.Action, origin world.BlockPos) {
	t.Helper()
	bp, _ := rules.Default().Builds.Get("coke_oven")
	blocks := map[world.BlockPos]bool{}
	solid := func(p world.BlockPos) bool { return blocks[p] || solidGround(w.BlockAt(p)) }
	stand := w.Feet()
	lastY := origin.Y
	for i, a := range acts {
		switch a := a.(type) {
		case action.MoveTo:
			require.Zero(t, a.Radius)
			stand = a.Pos
			require.False(t, inBox(bp, origin, stand) || inBox(bp, origin, stand.Up()), "action %d: stands inside the structure at %v", i, stand)
			require.True(t, solidGround(w.BlockAt(stand.Down())), "action %d: nothing to stand on at %v", i, stand)
			require.False(t, blocks[stand] || blocks[stand.Up()], "action %d: the spot %v is walled", i, stand)
		case action.PlaceBlock:
			require.Equal(t, ovenItem, a.Item)
			require.True(t, canReach(stand, a.Pos), "action %d: %v out of reach from %v", i, a.Pos, stand)
			require.True(t, inBox(bp, origin, a.Pos), "action %d: %v outside the pattern", i, a.Pos)
			require.NotEqual(t, stand, a.Pos)
			require.NotEqual(t, stand.Up(), a.Pos)
			require.GreaterOrEqual(t, a.Pos.Y, lastY, "action %d: bottom layer first", i)
			lastY = a.Pos.Y
			var support world.BlockPos
			for _, f := range faces {
				if f.face == a.Face {
					support = a.Pos.Add(f.dx, f.dy, f.dz)
				}
			}
			require.True(t, solid(support), "action %d: the %s face of %v is not there", i, a.Face, support)
			require.False(t, blocks[a.Pos], "action %d: %v placed twice", i, a.Pos)
			blocks[a.Pos] = true
		default:
			t.Fatalf("action %d: %s", i, a.Kind())
		}
	}
	assert.Equal(t, "", bp.Check(func(o rules.Offset) (string, int) {
		if blocks[origin.Add(o.X, o.Y, o.Z)] {
			return "Railcraft:machine.alpha", 7
		}
		return "", 0
	}), "the pattern stands")
	assert.Len(t, blocks, 26)
}

func TestBuildStructurePlacesTheCokeOven(t *testing.T) {
	floor := func() *world.SparseBlocks { return ground(world.NewSparseBlocks(), 63, -10, -10, 10, 10) }
	t.Run("the nearest free site", func(t *testing.T) {
		w := snap(at(0, 64, 0), floor(), ovenBlocks(30))
		acts := checkActions(t, BuildStructure{}, w, map[string]any{"name": "coke_oven"})
		origin, found := findSite(w, mustBlueprint(t), 8)
		require.True(t, found)
		// The nearest site that leaves the player outside, first in scan
		// order: north of the player, who stands on its ring already.
		assert.Equal(t, world.Pos(-1, 64, -3), origin)
		checkBuild(t, w, acts, origin)
		assert.Equal(t, []action.Kind{action.KindPlaceBlock}, uniqueKinds(acts), "no walk needed")
	})
	t.Run("at pos, off the ring: one walk to it", func(t *testing.T) {
		w := snap(at(0, 64, 0), floor(), ovenBlocks(26))
		acts := checkActions(t, BuildStructure{}, w, map[string]any{"name": "coke_oven", "pos": "3,64,3"})
		m, ok := acts[0].(action.MoveTo)
		require.True(t, ok, "%v", acts[0])
		assert.Equal(t, world.Pos(3, 64, 2), m.Pos, "the ring spot beside the first cell (the north side first)")
		assert.Zero(t, m.Radius)
		assert.Contains(t, m.Keep, world.Pos(2, 63, 2), "the ground under the ring is kept")
		checkBuild(t, w, acts, world.Pos(3, 64, 3))
		assert.Len(t, acts, 27, "every cell is in reach from one side of a 3×3×3")
	})
	t.Run("at pos, already on the ring", func(t *testing.T) {
		w := snap(at(0, 64, 0), floor(), ovenBlocks(26))
		acts := checkActions(t, BuildStructure{}, w, map[string]any{"name": "coke_oven", "pos": "1,64,-1"})
		assert.Equal(t, action.KindPlaceBlock, acts[0].Kind(), "the player already stands beside it")
		assert.Equal(t, action.PlaceBlock{Pos: world.Pos(1, 64, -1), Item: ovenItem, Face: "up"}, acts[0])
		checkBuild(t, w, acts, world.Pos(1, 64, -1))
		// The top centre rests on a side face: below it is the air centre.
		found := false
		for _, a := range acts {
			if pb, ok := a.(action.PlaceBlock); ok && pb.Pos == world.Pos(2, 66, 0) {
				found = true
				assert.NotEqual(t, "up", pb.Face)
			}
		}
		assert.True(t, found)
	})
	t.Run("an oven block near keeps its distance", func(t *testing.T) {
		b := floor().SetID(world.Pos(-4, 66, 0), "Railcraft:machine.alpha", 7)
		w := snap(at(0, 64, 0), b, ovenBlocks(26))
		origin, ok := findSite(w, mustBlueprint(t), 8)
		require.True(t, ok)
		assert.Equal(t, "", siteProblem(w, mustBlueprint(t), origin))
		assert.NotEqual(t, world.Pos(-3, 64, -1), origin, "that one touches the oven block")
		_, err := run(t, BuildStructure{}, w, map[string]any{"name": "coke_oven", "pos": "-3,64,-1"})
		f := requireFailure(t, err, skills.CodeNoTarget)
		assert.Contains(t, f.Msg, "must not touch it")
	})
}

// TestBuildStructureLooksSixteenBlocks: the shipped spec's default radius
// is the skill's own (a player who quarried and sheltered around the
// furnace finds the nearest flat ground more than 8 blocks away), and a
// site 14 blocks off is found without asking.
func TestBuildStructureLooksSixteenBlocks(t *testing.T) {
	assert.Equal(t, buildSearchRadius, spec(t, "build_structure").Params["radius"].Default)
	w := snap(at(0, 64, 0), ground(world.NewSparseBlocks(), 63, 12, -3, 18, 3), ovenBlocks(26))
	acts := checkActions(t, BuildStructure{}, w, map[string]any{"name": "coke_oven"})
	origin, found := findSite(w, mustBlueprint(t), buildSearchRadius)
	require.True(t, found)
	assert.Equal(t, 14, origin.X+mustBlueprint(t).Master.X, "the centre of the nearest site on the far ground")
	checkBuild(t, w, acts, origin)
}

// TestBuildStructureFromTheBottomOfAPit: a player six blocks down (a
// shelter dug into a quarry's floor) builds on the ground above, and every
// walk to the ring leaves the site's ground (and its ring's) standing: a
// digging route up out of the pit may not come out through it.
func TestBuildStructureFromTheBottomOfAPit(t *testing.T) {
	w := snap(at(0, 58, 0), ground(world.NewSparseBlocks(), 63, -16, -16, 16, 16), ovenBlocks(26))
	acts := checkActions(t, BuildStructure{}, w, map[string]any{"name": "coke_oven"})
	bp := mustBlueprint(t)
	origin, found := findSite(w, bp, buildSearchRadius)
	require.True(t, found)
	assert.Equal(t, 64, origin.Y, "on the ground, six above the feet")
	checkBuild(t, w, acts, origin)
	moves := 0
	for _, a := range acts {
		m, ok := a.(action.MoveTo)
		if !ok {
			continue
		}
		moves++
		require.Len(t, m.Keep, (bp.SizeX+2)*(bp.SizeZ+2), "the site's ground and its ring's")
		for z := -1; z <= bp.SizeZ; z++ {
			for x := -1; x <= bp.SizeX; x++ {
				assert.Contains(t, m.Keep, origin.Add(x, -1, z))
			}
		}
	}
	assert.Positive(t, moves)
}

func mustBlueprint(t *testing.T) *rules.Blueprint {
	t.Helper()
	bp, ok := rules.Default().Builds.Get("coke_oven")
	require.True(t, ok)
	return bp
}

func TestBuildStructureFailures(t *testing.T) {
	floor := ground(world.NewSparseBlocks(), 63, -10, -10, 10, 10)
	bumpy := ground(world.NewSparseBlocks(), 63, -10, -10, 10, 10).SetID(world.Pos(2, 64, 2), "minecraft:dirt", 0)
	for _, c := range []struct {
		name string
		w    *world.Snapshot
		raw  map[string]any
		code skills.Code
		want string
	}{
		{"too few blocks", snap(at(0, 64, 0), floor, ovenBlocks(20)), map[string]any{"name": "coke_oven"},
			skills.CodeMissingItems, "building coke_oven needs 6 more Railcraft:machine.alpha:7 (needs 26, have 20)"},
		{"one short", snap(at(0, 64, 0), floor, ovenBlocks(25)), map[string]any{"name": "coke_oven"},
			skills.CodeMissingItems, "needs 1 more Railcraft:machine.alpha:7 (needs 26, have 25)"},
		{"no blocks", snap(at(0, 64, 0), floor, world.NewInventory()), map[string]any{"name": "coke_oven"},
			skills.CodeMissingItems, "26 more"},
		{"an unknown blueprint", snap(at(0, 64, 0), floor, ovenBlocks(26)), map[string]any{"name": "coke_oven2"},
			skills.CodeInvalidParams, `no blueprint "coke_oven2" (did you mean "coke_oven"?)`},
		{"no ground", snap(at(0, 64, 0), nil, ovenBlocks(26)), map[string]any{"name": "coke_oven"},
			skills.CodeNoTarget, "no flat, free 3×3 site"},
		{"the player in the way", snap(at(0, 64, 0), floor, ovenBlocks(26)), map[string]any{"name": "coke_oven", "pos": "-1,64,-1"},
			skills.CodeNoTarget, "the player stands in it"},
		{"not flat", snap(at(0, 64, 0), bumpy, ovenBlocks(26)), map[string]any{"name": "coke_oven", "pos": "1,64,1"},
			skills.CodeNoTarget, "(2, 64, 2) is not free"},
		{"far away", snap(at(0, 64, 0), ground(world.NewSparseBlocks(), 63, 0, 0, 30, 30), ovenBlocks(26)), map[string]any{"name": "coke_oven", "pos": "20,64,20"},
			skills.CodeInvalidParams, "more than 16 blocks"},
		{"no site within the radius", snap(at(0, 64, 0), ground(world.NewSparseBlocks(), 63, 12, -3, 18, 3), ovenBlocks(26)), map[string]any{"name": "coke_oven", "radius": 8},
			skills.CodeNoTarget, "within 8 blocks"},
		{"a bad pos", snap(at(0, 64, 0), floor, ovenBlocks(26)), map[string]any{"name": "coke_oven", "pos": "1,64"},
			skills.CodeInvalidParams, `"1,64" is not x,y,z`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := run(t, BuildStructure{}, c.w, c.raw)
			f := requireFailure(t, err, c.code)
			assert.Contains(t, f.Msg, c.want)
		})
	}
}

func uniqueKinds(acts []action.Action) []action.Kind {
	var out []action.Kind
	for _, a := range acts {
		if len(out) == 0 || out[len(out)-1] != a.Kind() {
			out = append(out, a.Kind())
		}
	}
	return out
}

// TestBuildStructureWalksAlongALongWall: a pattern longer than the reach
// is placed from several ring spots, each cell within reach of the spot
// the player stands on, and the player walks only when it must.
func TestBuildStructureWalksAlongALongWall(t *testing.T) {
	bt, err := rules.ParseBlueprints("b.yaml", []byte("blueprints:\n  - {name: wall, machine: marker, legend: {S: minecraft:stone}, layers: [[SSSSSSSSSSSS]], master: [0,0,0]}\n"))
	require.NoError(t, err)
	bp, _ := bt.Get("wall")
	w := snap(at(0, 64, 0), ground(world.NewSparseBlocks(), 63, -2, -2, 16, 2), world.NewInventory())
	origin := world.Pos(1, 64, 1)
	require.Equal(t, "", siteProblem(w, bp, origin))
	acts, err := placements(w, bp, origin)
	require.NoError(t, err)
	stand, moves, placed := w.Feet(), 0, 0
	for i, a := range acts {
		switch a := a.(type) {
		case action.MoveTo:
			moves++
			stand = a.Pos
			assert.False(t, inBox(bp, origin, stand), "action %d", i)
		case action.PlaceBlock:
			placed++
			assert.True(t, canReach(stand, a.Pos), "action %d: %v from %v", i, a.Pos, stand)
			assert.Equal(t, "minecraft:stone:0", a.Item)
		}
	}
	assert.Equal(t, 12, placed)
	assert.Equal(t, 1, moves, "a 12-block wall from two spots: the player starts on the ring, then walks once, to the spot that reaches the rest")
}

// TestBuildStructurePlacesAgainstFacesThatAreThere: a block over air waits
// until a neighbour stands and names the face it is placed against; a
// block with nothing to rest on ever is refused before anything is placed.
func TestBuildStructurePlacesAgainstFacesThatAreThere(t *testing.T) {
	bt, err := rules.ParseBlueprints("b.yaml", []byte("blueprints:\n"+
		"  - {name: ledge, machine: marker, legend: {S: minecraft:stone, A: air}, layers: [[AAS], [SSS]], master: [2,0,0]}\n"+
		"  - {name: floater, machine: marker, legend: {S: minecraft:stone, A: air}, layers: [[S], [A], [S]], master: [0,0,0]}\n"))
	require.NoError(t, err)
	w := snap(at(0, 64, 0), ground(world.NewSparseBlocks(), 63, -2, -2, 6, 3), world.NewInventory())
	ledge, _ := bt.Get("ledge")
	acts, err := placements(w, ledge, world.Pos(1, 64, 1))
	require.NoError(t, err)
	var got []action.PlaceBlock
	for _, a := range acts {
		if pb, ok := a.(action.PlaceBlock); ok {
			got = append(got, pb)
		}
	}
	assert.Equal(t, []action.PlaceBlock{
		{Pos: world.Pos(3, 64, 1), Item: "minecraft:stone:0", Face: "up"},
		{Pos: world.Pos(3, 65, 1), Item: "minecraft:stone:0", Face: "up"},
		{Pos: world.Pos(2, 65, 1), Item: "minecraft:stone:0", Face: "west"}, // against the east neighbour's west face
		{Pos: world.Pos(1, 65, 1), Item: "minecraft:stone:0", Face: "west"},
	}, got)

	floater, _ := bt.Get("floater")
	_, err = placements(w, floater, world.Pos(1, 64, 1))
	f := requireFailure(t, err, skills.CodeNoTarget)
	assert.Contains(t, f.Msg, "layer 2 of floater has cells with no face to place against")
}
