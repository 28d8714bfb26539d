package gtnh

import (
	"testing"
	"testing/synctest"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// modsAt puts a GregTech machine, a coke oven brick and an ore into the
// session's mod state at a position of column (cx, cz) and returns it.
func modsAt(s *session, cx, cz int) world.BlockPos {
	p := world.Pos(cx<<4|3, 40, cz<<4|5)
	s.mods.gtm[p] = gtMachine{meta: 100}
	s.mods.ovens[p] = modnet.CokeOven{}
	s.mods.ores[p] = "ore:oreCopper"
	return p
}

func assertMods(t *testing.T, s *session, p world.BlockPos, want bool, msg string) {
	t.Helper()
	_, gt := s.mods.gtm[p]
	_, oven := s.mods.ovens[p]
	_, ore := s.mods.ores[p]
	assert.Equal(t, []bool{want, want, want}, []bool{gt, oven, ore}, "%s: machine, oven, ore at %v", msg, p)
}

// TestModStateLeavesWithItsColumn: the session's mod state of a column goes
// when the column does, whether the server unloads it, a malformed chunk
// packet makes it unknown (forgetColumn) or the bound on loaded columns
// evicts it; the state of other columns, even ones sharing the column's x
// or z, stays.
func TestModStateLeavesWithItsColumn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &session{mods: newModState(), loaded: map[[2]int]bool{}}
		a, b, d := modsAt(s, 1, 2), modsAt(s, 2, 1), modsAt(s, 1, 1)
		s.mods.dropColumns(map[[2]int]bool{{1, 2}: true})
		assertMods(t, s, a, false, "dropped column")
		assertMods(t, s, b, true, "column (2, 1)")
		assertMods(t, s, d, true, "column (1, 1)")

		c := &Client{log: zerolog.Nop(), changed: make(chan struct{}), state: world.NewState(world.StateOptions{Rules: rules.Default()}), rules: rules.Default(),
			unknown: map[string]bool{}, stats: Stats{Skipped: map[string]int64{}}}
		s.loaded[[2]int{1, 1}] = true
		c.forgetColumn(s, 1, 1)
		assertMods(t, s, d, false, "forgotten column")
		assertMods(t, s, b, true, "column (2, 1)")

		// The player stands in column (0, 0) with maxColumns loaded; a new
		// column evicts the farthest, (0, 64).
		clear(s.loaded)
		for cx := range 65 {
			for cz := range 65 {
				s.loaded[[2]int{cx, cz}] = true
			}
		}
		far := modsAt(s, 0, 64)
		near := modsAt(s, 3, 3)
		c.applyColumns(s, []proto17.ChunkColumn{{X: 1, Z: -1, GroundUp: true, Column: chunk.NewColumn(1, -1)}})
		assert.False(t, s.loaded[[2]int{0, 64}], "evicted")
		assertMods(t, s, far, false, "evicted column")
		assertMods(t, s, near, true, "column (3, 3)")
	})
}
