package gtnh_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/base"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestFlintPickaxeAtTheStationsLive: Tinkers' Construct's first pickaxe,
// made live at the three stations from its parts' materials, as
// basic_crafting asks: the bot holds the stencil table, the part builder and
// the tool station, three blank patterns, a flint and two sticks. It places
// the stencil table and cuts the pickaxe head's pattern (the blank laid in,
// the pattern chosen by a PatternTablePacket, the pattern taken) and the
// binding's; places the part builder and makes the flint pickaxe head and
// the wooden binding; places the tool station and builds the pickaxe from
// the head, a stick and the binding. The server makes every part from its
// own recipes, the client takes each with the stack the server showed (the
// pickaxe with the server's tag), no click is refused, and the server's
// inventory ends as the client's: the pickaxe, the two patterns and the
// unused blank.
func TestFlintPickaxeAtTheStationsLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t,
			fakeserver.Item{Slot: 36, Name: "TConstruct:ToolStationBlock", Count: 1, Damage: 10},
			fakeserver.Item{Slot: 37, Name: "TConstruct:ToolStationBlock", Count: 1, Damage: 1},
			fakeserver.Item{Slot: 38, Name: "TConstruct:ToolStationBlock", Count: 1, Damage: 0},
			fakeserver.Item{Slot: 39, Name: "TConstruct:blankPattern", Count: 3},
			fakeserver.Item{Slot: 40, Name: "minecraft:flint", Count: 1},
			fakeserver.Item{Slot: 41, Name: "minecraft:stick", Count: 2})
		craft := base.BasicCrafting{}
		for _, item := range []string{
			"TConstruct:woodPattern:2", "TConstruct:woodPattern:9",
			"TConstruct:pickaxeHead:3", "TConstruct:binding",
			"TConstruct:pickaxe",
		} {
			runSkill(t, c, craft, skills.Params{"item": item})
		}
		assert.Empty(t, srv.Refusals())
		// Windows opened: the stencil table twice a pattern (to clear it,
		// and to see it empty after; the chosen pattern came in a Set
		// Slot), the part builder four times a part (clear, read the part,
		// take the pattern back, see it empty), the tool station three
		// times (clear, read the tool, see it empty).
		assert.Equal(t, 2*2+2*4+3, srv.WindowsOpened())
		assert.Equal(t, 1, serverCount(t, srv, "TConstruct:pickaxe"))
		assert.Equal(t, 1, serverCount(t, srv, "TConstruct:blankPattern"))
		assert.Equal(t, 2, serverCount(t, srv, "TConstruct:woodPattern"), "the patterns stay: they are the part builder's tools")
		for _, gone := range []string{"minecraft:flint", "minecraft:stick", "TConstruct:pickaxeHead", "TConstruct:binding"} {
			assert.Zero(t, serverCount(t, srv, gone), gone)
		}
		inv := c.State().Snapshot().Inventory
		assert.Equal(t, 1, inv.CountID("TConstruct:pickaxe"))
		assert.Equal(t, 2, inv.CountID("TConstruct:woodPattern"))
		assert.Zero(t, inv.CountID("minecraft:flint"))
		var made []string
		for _, cr := range srv.Crafts() {
			made = append(made, cr.String())
		}
		assert.Equal(t, []string{"1 TConstruct:woodPattern:2", "1 TConstruct:woodPattern:9", "1 TConstruct:pickaxeHead:3", "1 TConstruct:binding", "1 TConstruct:pickaxe"}, made)
	})
}

// TestIronPickaxeAtTheToolStationLive: the iron pickaxe head "Upgrade 2.0"
// gives, a stick and a binding make the iron pickaxe at the tool station;
// the server's tag carries the head and its level (iron's 3, one lower
// until the boost), and the client's stack has them, so it mines at 2.
func TestIronPickaxeAtTheToolStationLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := stoneAgeClient(t,
			fakeserver.Item{Slot: 36, Name: "TConstruct:ToolStationBlock", Count: 1, Damage: 0},
			fakeserver.Item{Slot: 37, Name: "TConstruct:pickaxeHead", Count: 1, Damage: 2},
			fakeserver.Item{Slot: 38, Name: "TConstruct:binding", Count: 1},
			fakeserver.Item{Slot: 39, Name: "minecraft:stick", Count: 1})
		runSkill(t, c, base.BasicCrafting{}, skills.Params{"item": "TConstruct:pickaxe"})
		assert.Empty(t, srv.Refusals())
		assert.Equal(t, 1, serverCount(t, srv, "TConstruct:pickaxe"))
		inv := c.State().Snapshot().Inventory
		var tinker *world.TinkerTool
		for _, st := range inv.Slots {
			if st.ID == "TConstruct:pickaxe" {
				tinker = st.Tinker
			}
		}
		if assert.NotNil(t, tinker, "the pickaxe's tag read") {
			assert.Equal(t, world.TinkerTool{Head: 2, HarvestLevel: 2}, *tinker)
		}
	})
}
