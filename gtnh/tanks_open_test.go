package gtnh

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestIronTankWindowNamesTheFluid: an iron tank whose fluid the server's
// map does not name is a fluid_tank of unknown contents, and opening its
// window does not make it "known, no fluids": its slots say nothing of the
// fluid, and a window fluid id outside the map keeps it unknown. A window
// fluid id the map names (window property 0) names the tank's fluid with
// the window's amount, whichever of the two comes first, over what the
// master's data said; an empty window (-1, 0 mB) is an empty water_tank.
func TestIronTankWindowNamesTheFluid(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, err := modnet.DefaultData()
		require.NoError(t, err)
		c, s := tankClient()
		c.onForge(s, fakeserver.ForgeFluidIDMap()) // water 1, lava 2, creosote 42
		master := world.Pos(20, 64, 4)
		c.rcMetalTank(s, metalTile(t, master, modnet.IronTankWallID, true, 0, 2, 0, 2, 99, 7000), master)
		m, ok := machineAt(c, master)
		require.True(t, ok)
		require.True(t, m.ContentsUnknown, "fluid 99 is not in the map")
		require.Equal(t, world.MachineFluidTank, m.Kind)

		open := func(id uint8) {
			s.inv.open = newModContainer(id, d.Containers["railcraft_tank"])
			s.inv.open.pos = &master
			s.inv.open.synced = true
			c.syncInventory(s)
		}
		prop := func(id uint8, v int16) {
			require.NoError(t, c.handle(s, &proto17.WindowProperty{WindowID: id, Property: 0, Value: v}))
		}
		amount := func(id uint8, v int32) { c.onRailcraft(s, fakeserver.RailcraftGuiInteger(id, 1, v)) }

		open(3)
		m, _ = machineAt(c, master)
		assert.True(t, m.ContentsUnknown, "the window's slots do not name the fluid")
		assert.Equal(t, world.MachineFluidTank, m.Kind)
		prop(3, 99)
		amount(3, 7000)
		c.syncInventory(s)
		m, _ = machineAt(c, master)
		assert.True(t, m.ContentsUnknown, "the window's fluid id is not in the map either")
		assert.Empty(t, m.Fluids)

		// Another window on the tank, now of lava: the property first.
		open(4)
		prop(4, 2)
		amount(4, 3000)
		m, _ = machineAt(c, master)
		assert.False(t, m.ContentsUnknown)
		assert.Equal(t, world.MachineFluidTank, m.Kind)
		assert.Equal(t, map[string]world.FluidTank{"lava": {Fluid: "lava", Amount: 3000, Capacity: 576000}}, m.Fluids)

		// The amount first, then the property: creosote, though the master's
		// data said lava.
		c.rcMetalTank(s, metalTile(t, master, modnet.IronTankWallID, true, 0, 2, 0, 2, 2, 1000), master)
		open(5)
		amount(5, 4000)
		prop(5, 42)
		m, _ = machineAt(c, master)
		assert.Equal(t, map[string]world.FluidTank{"creosote": {Fluid: "creosote", Amount: 4000, Capacity: 576000}}, m.Fluids)
		assert.False(t, m.ContentsUnknown)

		// Emptied: the window says -1 and 0 mB.
		open(6)
		prop(6, -1)
		amount(6, 0)
		m, _ = machineAt(c, master)
		assert.Equal(t, world.MachineWaterTank, m.Kind)
		assert.Equal(t, world.FluidTank{Fluid: "water", Capacity: 576000}, m.Fluid("water"))
		assert.False(t, m.ContentsUnknown)

		// Properties of another window, or that are no tank's fluid id, are
		// skipped and change nothing.
		skipped := c.Stats().Skipped["WindowProperty"]
		require.NoError(t, c.handle(s, &proto17.WindowProperty{WindowID: 9, Property: 0, Value: 2}))
		require.NoError(t, c.handle(s, &proto17.WindowProperty{WindowID: 6, Property: 3, Value: 2}))
		require.NoError(t, c.handle(s, &proto17.WindowProperty{WindowID: 6, Property: -3, Value: 2}))
		assert.Equal(t, skipped+3, c.Stats().Skipped["WindowProperty"])
		m, _ = machineAt(c, master)
		assert.Equal(t, world.MachineWaterTank, m.Kind)

		// A known tank whose window names a fluid the map does not: unknown
		// again, not the empty water tank it was.
		open(7)
		prop(7, 99)
		amount(7, 2000)
		m, _ = machineAt(c, master)
		assert.True(t, m.ContentsUnknown)
		assert.Equal(t, world.MachineFluidTank, m.Kind)
		assert.Empty(t, m.Fluids)
	})
}

// TestTankWindowSlotsAloneKnowNothing: a tank window's slots make a tank
// machine at its position when none is known there, of unknown contents
// (not an empty tank); the Railcraft water tank's amount makes them known.
func TestTankWindowSlotsAloneKnowNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, err := modnet.DefaultData()
		require.NoError(t, err)
		c, s := tankClient()
		pos := world.Pos(8, 64, 8)
		s.inv.open = newModContainer(3, d.Containers["railcraft_tank"])
		s.inv.open.pos = &pos
		s.inv.open.synced = true
		c.syncInventory(s)
		m, ok := machineAt(c, pos)
		require.True(t, ok)
		assert.Equal(t, world.MachineWaterTank, m.Kind)
		assert.True(t, m.ContentsUnknown)

		// A water tank's master data that has not come yet: its blocks say it
		// is formed, mastered here.
		tile, err := modnet.DecodeRCTile(fakeserver.RailcraftWaterTank(pos.X-1, pos.Y, pos.Z-1, 1, 1, 1, -1))
		require.NoError(t, err)
		c.rcWaterTank(s, tile, world.Pos(pos.X-1, pos.Y, pos.Z-1))
		m, _ = machineAt(c, pos)
		require.True(t, m.ContentsUnknown)
		c.onRailcraft(s, fakeserver.RailcraftGuiInteger(3, 1, 12000))
		c.syncInventory(s)
		m, _ = machineAt(c, pos)
		assert.False(t, m.ContentsUnknown, "the window's amount")
		assert.Equal(t, 12000, m.Fluid("water").Amount)
	})
}

// TestOpenSaysWhetherContentsWereRead: open_container on a window with
// contents to wait for (a Railcraft window's tank amounts, a coal boiler's
// water bar) says whether they came ("contents_read"); a server that never
// sends them (here: sends them broken) still leaves the window open (ok),
// with contents_read false and the machine's contents as unknown as before.
// A window with nothing to wait for has no contents_read.
func TestOpenSaysWhetherContentsWereRead(t *testing.T) {
	oven, boiler, chest := world.Pos(3, 64, 1), world.Pos(13, 64, 2), world.Pos(10, 64, 12)
	for _, tc := range []struct {
		name     string
		pos      world.BlockPos
		from     world.BlockPos
		withhold fakeserver.Stage
		want     any // contents_read, nil for none
	}{
		{"coke oven", oven, world.Pos(3, 64, 4), fakeserver.StageNone, true},
		{"coke oven withheld", oven, world.Pos(3, 64, 4), fakeserver.StageTankGui, false},
		{"boiler", boiler, world.Pos(13, 64, 4), fakeserver.StageNone, true},
		{"boiler withheld", boiler, world.Pos(13, 64, 4), fakeserver.StageBoilerGui, false},
		{"chest", chest, world.Pos(10, 64, 10), fakeserver.StageNone, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name != "coke oven" && tc.name != "boiler withheld" {
				// A read and a withheld window play every goroutine the
				// others do.
				race.SkipCovered(t, "this window", "the coke oven's and the withheld boiler's cases")
			}
			synctest.Test(t, func(t *testing.T) {
				_, c := steamAgeServer(t, true, func(o *fakeserver.Options) {
					o.CokeOvens[0].Creosote = 12000
					o.Faults = fakeserver.Faults{TruncateAt: tc.withhold}
				})
				ctx := context.Background()
				r := c.Execute(ctx, action.MoveTo{Pos: tc.from, Radius: 1})
				require.Equal(t, ipc.OK, r.Code, r.Error)
				t0 := time.Now()
				r = c.Execute(ctx, action.OpenContainer{Pos: tc.pos})
				took := time.Since(t0)
				require.Equal(t, ipc.OK, r.Code, r.Error)
				got, has := r.Details["contents_read"]
				if tc.want == false {
					assert.GreaterOrEqual(t, took, int64(answerTicks), "a withheld answer is waited for its ticks")
				}
				if tc.want == nil {
					assert.False(t, has, "nothing to wait for: %v", r.Details)
					return
				}
				assert.Equal(t, tc.want, got)
				unread, hasWhy := r.Details["unread"].(string)
				assert.Equal(t, tc.want == false, hasWhy, "an unread window says what did not come: %v", r.Details)
				if tc.pos == boiler && tc.want == false {
					assert.Contains(t, unread, "the boiler's window sent no water level")
				} else if tc.want == false {
					assert.Contains(t, unread, "tank amounts")
				}
				var m world.Machine
				for _, mc := range c.State().Snapshot().Machines {
					if mc.Pos == tc.pos {
						m = mc
					}
				}
				switch {
				case tc.pos == boiler:
					assert.Equal(t, tc.want == false, m.ContentsUnknown, "the boiler's water was read: %v", tc.want)
				case tc.want == true:
					assert.Equal(t, 12000, m.Fluid("creosote").Amount)
				default:
					assert.Zero(t, m.Fluid("creosote").Amount, "no amount came")
				}
			})
		})
	}
}

// gtLavaCell is GregTech's lava cell (gt.metaitem.01 damage 30700), a fluid
// container the fake server knows and the shipped item tags do not.
var gtLavaCell = fakeserver.Item{Name: fakeserver.MetaItem, Damage: 30700, Count: 1}

// TestOpenTankHoldingAFluidContainer: open_container on an empty iron tank
// (which takes any fluid) with a fluid container in hand opens the window
// and pours nothing in. With an empty hotbar slot the bot holds it,
// whatever it held (a lava bucket, a GregTech cell the client does not
// know as a container, an axe). With a full hotbar the held stack goes
// into the first empty main slot, on the server too, and the hand is
// empty; with the main inventory full as well the bot holds the first
// item that is not a known fluid container.
func TestOpenTankHoldingAFluidContainer(t *testing.T) {
	item := func(slot int, it fakeserver.Item) fakeserver.Item { it.Slot = 36 + slot; return it }
	lava := fakeserver.Item{Name: "minecraft:lava_bucket", Count: 1}
	axe := fakeserver.Item{Name: "minecraft:iron_axe", Count: 1}
	coal := fakeserver.Item{Name: "minecraft:coal", Count: 16}
	cobble := fakeserver.Item{Name: "minecraft:cobblestone", Count: 64}
	full := func(first fakeserver.Item, mainFrom int) []fakeserver.Item {
		inv := []fakeserver.Item{item(0, first), item(1, axe)}
		for i := 2; i < 9; i++ {
			inv = append(inv, item(i, coal))
		}
		for i := mainFrom; i < 36; i++ {
			st := cobble
			st.Slot = i
			inv = append(inv, st)
		}
		return inv
	}
	for _, tc := range []struct {
		name string
		inv  []fakeserver.Item
		held int // the hotbar slot held when the window opened
		// stowed is the window-0 slot the first hotbar stack moved to
		// (0: it stayed).
		stowed int
	}{
		{"lava bucket, an empty slot", []fakeserver.Item{item(0, lava), item(1, axe), item(2, coal)}, 3, 0},
		{"gregtech cell, an empty slot", []fakeserver.Item{item(0, gtLavaCell), item(1, axe), item(2, coal)}, 3, 0},
		{"axe, an empty slot", []fakeserver.Item{item(0, axe), item(1, lava)}, 2, 0},
		{"gregtech cell, full hotbar", full(gtLavaCell, 36), 0, 9},
		{"gregtech cell, full hotbar, one main slot free", full(gtLavaCell, 9)[:9+26], 0, 35},
		{"lava bucket, full hotbar", full(lava, 12), 0, 9},
		{"axe, full hotbar", full(axe, 36), 0, 9},
		{"coal, full hotbar", full(coal, 36), 0, 9},
		{"lava bucket, full hotbar and main", full(lava, 9), 1, 0},
		{"axe, full hotbar and main", full(axe, 9), 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name != "gregtech cell, full hotbar" {
				// The cases differ in the inventory the client chooses
				// from, on its one goroutine; stowing a stack plays the
				// clicks and the server's answers.
				race.SkipCovered(t, "this inventory", "the case \"gregtech cell, full hotbar\"")
			}
			synctest.Test(t, func(t *testing.T) {
				tank := fakeserver.IronTank{X: ironTank.X, Y: ironTank.Y, Z: ironTank.Z}
				srv, c := steamAgeServer(t, true, func(o *fakeserver.Options) {
					o.IronTanks = []fakeserver.IronTank{tank}
					o.Inventory = tc.inv
				})
				master := tank.Master()
				machine(t, c, world.MachineWaterTank, master)
				ctx := context.Background()
				r := c.Execute(ctx, action.MoveTo{Pos: world.Pos(21, 64, 10), Radius: 1})
				require.Equal(t, ipc.OK, r.Code, r.Error)
				r = c.Execute(ctx, action.OpenContainer{Pos: master})
				require.Equal(t, ipc.OK, r.Code, r.Error)
				assert.Equal(t, "railcraft_tank", r.Details["container"])
				assert.Equal(t, tc.held, c.State().Snapshot().Inventory.Held)
				fluid, amount, ok := srv.TankContents(master)
				require.True(t, ok)
				assert.Equal(t, "", fluid, "nothing poured")
				assert.Zero(t, amount)
				assert.Empty(t, srv.Kicks())

				// The server's inventory: the first hotbar stack where it
				// moved (or stayed), nothing else changed.
				p, ok := srv.Player("Bot")
				require.True(t, ok)
				want := map[int]fakeserver.Item{}
				for _, it := range tc.inv {
					want[it.Slot] = it
				}
				if tc.stowed > 0 {
					it := want[36]
					delete(want, 36)
					it.Slot = tc.stowed
					want[tc.stowed] = it
				}
				got := map[int]fakeserver.Item{}
				for _, it := range p.Inventory {
					got[it.Slot] = it
				}
				assert.Equal(t, want, got)
				assert.Equal(t, tc.held, p.HeldSlot)
				clicks := 0
				if tc.stowed > 0 {
					clicks = 2 // picked up whole, put down whole
				}
				assert.Len(t, srv.ReceivedNamed("ClickWindow"), clicks)
				inv := c.State().Snapshot().Inventory
				assert.True(t, inv.Slots[tc.held].Empty() == (tc.stowed > 0 || len(tc.inv) < 9), "the hand is empty: %v", inv.Slots[tc.held])
			})
		})
	}
}

// liveAct is an action context on the client's live session, for tests
// that click windows directly.
func liveAct(t *testing.T, c *Client) *act {
	t.Helper()
	ctx := context.Background()
	s, err := c.live(ctx)
	require.NoError(t, err)
	return &act{c: c, s: s, ctx: ctx, parent: ctx}
}

// serverSlots is the server's view of the player's inventory by window-0
// slot, as "name×count".
func serverSlots(t *testing.T, srv *fakeserver.Server) map[int]string {
	t.Helper()
	p, ok := srv.Player("Bot")
	require.True(t, ok)
	out := map[int]string{}
	for _, it := range p.Inventory {
		out[it.Slot] = fmt.Sprintf("%s×%d", it.Name, it.Count)
	}
	return out
}

// TestOpenTankWithAStackOnTheCursor: a stack on the cursor (picked up in
// the player's window) would be swapped into the hand by the click that
// picks up the held stack, so with one there the held stack is not moved:
// the bot holds the first item that is not a known fluid container, and
// the tank stays empty.
func TestOpenTankWithAStackOnTheCursor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inv := []fakeserver.Item{{Slot: 36, Name: "minecraft:lava_bucket", Count: 1}, {Slot: 37, Name: "minecraft:iron_axe", Count: 1}}
		for i := 2; i < 9; i++ {
			inv = append(inv, fakeserver.Item{Slot: 36 + i, Name: "minecraft:coal", Count: 16})
		}
		inv = append(inv, fakeserver.Item{Slot: 20, Name: "minecraft:cobblestone", Count: 64})
		tank := fakeserver.IronTank{X: ironTank.X, Y: ironTank.Y, Z: ironTank.Z}
		srv, c := steamAgeServer(t, true, func(o *fakeserver.Options) {
			o.IronTanks = []fakeserver.IronTank{tank}
			o.Inventory = inv
		})
		master := tank.Master()
		machine(t, c, world.MachineWaterTank, master)
		ctx := context.Background()
		r := c.Execute(ctx, action.MoveTo{Pos: world.Pos(21, 64, 10), Radius: 1})
		require.Equal(t, ipc.OK, r.Code, r.Error)
		require.NoError(t, liveAct(t, c).click(0, 20, 0, 0), "the cobblestone onto the cursor")
		require.NotContains(t, serverSlots(t, srv), 20)

		r = c.Execute(ctx, action.OpenContainer{Pos: master})
		require.Equal(t, ipc.OK, r.Code, r.Error)
		assert.Equal(t, 1, c.State().Snapshot().Inventory.Held, "the axe")
		fluid, amount, ok := srv.TankContents(master)
		require.True(t, ok)
		assert.Equal(t, "", fluid, "nothing poured")
		assert.Zero(t, amount)
		assert.Equal(t, "minecraft:lava_bucket×1", serverSlots(t, srv)[36], "the bucket stayed")
		assert.Empty(t, srv.Kicks())
	})
}

// TestEmptyHotbarSlotIntoAFilledSlot: when the slot the held stack is put
// down on holds a stack on the server (the client's view was out of date),
// the two stacks swap; the one on the cursor goes back into the inventory,
// here the only free slot, the hotbar slot just emptied, and the move
// fails: the hand is not empty. Client and server agree on every slot and
// nothing is lost.
func TestEmptyHotbarSlotIntoAFilledSlot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inv := []fakeserver.Item{{Slot: 36, Name: "minecraft:lava_bucket", Count: 1}}
		for i := 1; i < 9; i++ {
			inv = append(inv, fakeserver.Item{Slot: 36 + i, Name: "minecraft:coal", Count: 16})
		}
		for i := 9; i < 36; i++ {
			inv = append(inv, fakeserver.Item{Slot: i, Name: "minecraft:cobblestone", Count: 64})
		}
		srv, c := steamAgeServer(t, true, func(o *fakeserver.Options) { o.Inventory = inv })
		x := liveAct(t, c)
		err := x.emptyHotbarSlot(0, 9)
		require.ErrorIs(t, err, errRejected)
		assert.ErrorContains(t, err, "not empty")
		want := map[int]string{}
		for _, it := range inv {
			want[it.Slot] = fmt.Sprintf("%s×%d", it.Name, it.Count)
		}
		want[9], want[36] = "minecraft:lava_bucket×1", "minecraft:cobblestone×64"
		assert.Equal(t, want, serverSlots(t, srv))
		snap := c.State().Snapshot().Inventory
		assert.Equal(t, "minecraft:cobblestone", snap.Slots[0].ID)
		assert.Equal(t, "minecraft:lava_bucket", snap.Slots[9].ID)
		x.c.mu.Lock()
		assert.True(t, x.s.inv.cursor.Empty())
		x.c.mu.Unlock()
	})
}

// TestIronTankOfLavaThroughItsWindow: the fake server's iron tank of lava
// is a fluid_tank of lava from its master's data, and stays one, with the
// window's amount, once its window (fluid id property, then the amount)
// has been opened and read.
func TestIronTankOfLavaThroughItsWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tank := fakeserver.IronTank{X: ironTank.X, Y: ironTank.Y, Z: ironTank.Z, Water: 5000, Fluid: "lava"}
		_, c := steamAgeServer(t, true, func(o *fakeserver.Options) { o.IronTanks = []fakeserver.IronTank{tank} })
		master := tank.Master()
		lava := world.FluidTank{Fluid: "lava", Amount: 5000, Capacity: 576000}
		m := machine(t, c, world.MachineFluidTank, master)
		assert.Equal(t, lava, m.Fluid("lava"))
		ctx := context.Background()
		for _, a := range []action.Action{action.MoveTo{Pos: world.Pos(21, 64, 10), Radius: 1}, action.OpenContainer{Pos: master}} {
			r := c.Execute(ctx, a)
			require.Equal(t, ipc.OK, r.Code, r.Error)
			if _, ok := a.(action.OpenContainer); ok {
				assert.Equal(t, true, r.Details["contents_read"])
			}
		}
		m = machine(t, c, world.MachineFluidTank, master)
		assert.False(t, m.ContentsUnknown)
		assert.Equal(t, map[string]world.FluidTank{"lava": lava}, m.Fluids)
	})
}

// TestAnswerWaitsItsTicks: a wait for the server's answer lasts answerTicks
// of the client's clock (3 s at the game's tick) before it gives up; an
// answer that is there ends it at once. A wait that ends when its ticks
// pass asks its condition at most once after they did.
func TestAnswerWaitsItsTicks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := joinedClient(t, fakeserver.Options{TickDuration: DefaultTick})
		x := liveAct(t, c)
		t0, ticks := time.Now(), c.ticks.Load()
		got, err := x.answer(func() bool { return false })
		require.NoError(t, err)
		assert.False(t, got)
		assert.GreaterOrEqual(t, c.ticks.Load()-ticks, int64(answerTicks))
		assert.InDelta(t, float64(answerTicks*DefaultTick), float64(time.Since(t0)), float64(DefaultTick), "3 s of the bubble's clock")

		t0 = time.Now()
		got, err = x.answer(func() bool { return true })
		require.NoError(t, err)
		assert.True(t, got)
		assert.Zero(t, time.Since(t0), "an answer already there ends the wait at once")

		// The condition is asked with the client's lock held, so the ticks
		// stand still while it and the wait's own test of them run: a wait
		// that ends when its ticks pass is asked at most once after they did.
		ticks = c.ticks.Load()
		first, after := int64(-1), 0
		got, err = x.within(answerTicks, func() bool {
			now := c.ticks.Load()
			if first < 0 {
				first = now
			}
			if now >= first+answerTicks {
				after++
			}
			return false
		})
		require.NoError(t, err)
		assert.False(t, got)
		assert.GreaterOrEqual(t, c.ticks.Load()-ticks, int64(answerTicks), "within lasts its ticks")
		assert.LessOrEqual(t, after, 1, "within went on after its ticks passed")
	})
}

// TestUseItemWaitsItsTicks: a use of an item the server answers with
// nothing (coal right-clicked in the air) waits useAnswerTicks of the
// client's clock before it reports the held stack unchanged.
func TestUseItemWaitsItsTicks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := steamAgeServer(t, true, nil)
		ticks := c.ticks.Load()
		r := c.Execute(context.Background(), action.UseItem{Item: "minecraft:coal"})
		require.Equal(t, ipc.OK, r.Code, "%+v", r)
		assert.Equal(t, false, r.Details["held_changed"])
		assert.GreaterOrEqual(t, c.ticks.Load()-ticks, int64(useAnswerTicks))
	})
}
