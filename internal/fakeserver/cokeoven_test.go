package fakeserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// ovenServer is a server with one formed coke oven holding the input and
// output, and its master's box.
func ovenServer(t *testing.T, in, out Item, creosote int) (*Server, *box) {
	t.Helper()
	ov := CokeOven{X: 2, Y: 64, Z: 0, Input: in, Output: out, Creosote: creosote}
	s, err := New(Options{Addr: MemoryAddr(), Trees: []Tree{}, CokeOvens: []CokeOven{ov}})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	b := s.mods.boxes[ov.Master()]
	require.NotNil(t, b)
	return s, b
}

// runOven runs the oven's updateEntity over ticks from+1 … to, with a
// player to send the master's tile packets to, and returns the cooking
// flags those packets announced (each also checked against the oven's).
func runOven(t *testing.T, s *Server, b *box, from, to int64) []bool {
	t.Helper()
	var flags []bool
	s.mu.Lock()
	defer s.mu.Unlock()
	p := &conn{s: s, id: 99, playing: true}
	s.conns[p.id] = p
	defer delete(s.conns, p.id)
	for tick := from + 1; tick <= to; tick++ {
		var out outbox
		s.cokeOvenTickLocked(&out, b, tick)
		for _, o := range out {
			if pm, ok := o.p.(*proto17.PluginMessage); ok && pm.Channel == modnet.RailcraftChannel {
				tile, err := modnet.DecodeRCTile(pm.Data)
				require.NoError(t, err)
				co, err := modnet.DecodeCokeOven(tile)
				require.NoError(t, err)
				assert.True(t, co.IsMaster(), "the master's tile")
				assert.Equal(t, b.cooking, co.Cooking)
				flags = append(flags, co.Cooking)
			}
		}
	}
	return flags
}

// TestCokeOvenCooksLogsIntoCharcoal: Railcraft's oven by config/
// coke_oven.yaml: a log is 1,800 ticks of work done in steps of 50, then
// one charcoal and 250 mB of creosote; two logs take 3,600 ticks. The
// oven's cooking flag goes on with the first step and off once its input
// is used up (a step and 5 ticks after the last item), each change a tile
// packet of the master.
func TestCokeOvenCooksLogsIntoCharcoal(t *testing.T) {
	s, b := ovenServer(t, Item{Name: "minecraft:log", Count: 2}, Item{}, 0)
	flags := runOven(t, s, b, 0, 1799)
	assert.True(t, b.slots[cokeOutput].Empty(), "not yet: 1,800 ticks a log")
	assert.Equal(t, []bool{true}, flags, "cooking from the first step on")
	runOven(t, s, b, 1799, 1800)
	require.False(t, b.slots[cokeOutput].Empty())
	assert.Equal(t, "minecraft:coal", s.itemOf(0, b.slots[cokeOutput]).Name)
	assert.Equal(t, int16(1), b.slots[cokeOutput].Damage, "charcoal is coal:1")
	assert.Equal(t, 250, b.creosote)
	assert.Equal(t, int32(1), b.slots[cokeInput].Count)
	flags = runOven(t, s, b, 1800, 3600)
	assert.Empty(t, flags, "still cooking")
	assert.Equal(t, int32(2), b.slots[cokeOutput].Count)
	assert.Equal(t, 500, b.creosote)
	assert.True(t, b.slots[cokeInput].Empty())
	assert.Equal(t, []bool{false}, runOven(t, s, b, 3600, 3700), "done: it stops cooking")
	assert.Len(t, s.Coked(), 2)
}

// TestCokeOvenStopsWhenFull: an output slot with no room (64 charcoal) or a
// tank without room for the recipe's creosote stops the oven and loses the
// item's progress; an input with no recipe does not cook.
func TestCokeOvenStopsWhenFull(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in, out  Item
		creosote int
	}{
		{"output full", Item{Name: "minecraft:log", Count: 1}, Item{Name: "minecraft:coal", Damage: 1, Count: 64}, 0},
		{"output of another item", Item{Name: "minecraft:log", Count: 1}, Item{Name: "minecraft:coal", Count: 1}, 0},
		{"tank full", Item{Name: "minecraft:log", Count: 1}, Item{}, 64000 - 249},
		{"no recipe", Item{Name: "minecraft:dirt", Count: 1}, Item{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, b := ovenServer(t, tc.in, tc.out, tc.creosote)
			flags := runOven(t, s, b, 0, 4000)
			assert.Empty(t, flags, "never cooking")
			assert.Zero(t, b.cookTime)
			assert.Equal(t, int32(1), b.slots[cokeInput].Count, "the input is untouched")
			assert.Empty(t, s.Coked())
		})
	}
	t.Run("tank with just room", func(t *testing.T) {
		s, b := ovenServer(t, Item{Name: "minecraft:log", Count: 1}, Item{}, 64000-250)
		runOven(t, s, b, 0, 1800)
		assert.Len(t, s.Coked(), 1)
		assert.Equal(t, 64000, b.creosote)
	})
}
