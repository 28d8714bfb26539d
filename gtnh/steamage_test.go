package gtnh

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// steamAgeServer starts the fake server with its steam-age base, in
// NotEnoughIds or vanilla chunk format, and a client joined to it.
func steamAgeServer(t *testing.T, neid bool, mutate func(*fakeserver.Options)) (*fakeserver.Server, *Client) {
	t.Helper()
	o := fakeserver.Options{TickDuration: 5 * time.Millisecond,
		Inventory: []fakeserver.Item{{Slot: 36, Name: "minecraft:iron_axe", Count: 1}, {Slot: 37, Name: "minecraft:coal", Count: 32}}}
	if !neid {
		o.Mods = fakeserver.WithoutMod(fakeserver.DefaultMods(), "neid")
	}
	fakeserver.SteamAge(&o)
	if mutate != nil {
		mutate(&o)
	}
	srv, err := fakeserver.New(inMemory(o))
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	c, err := New(Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: 5 * time.Millisecond,
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	require.NoError(t, c.Open(context.Background()))
	return srv, c
}

var formatsCases = []struct {
	name string
	neid bool
}{{"neid", true}, {"vanilla", false}}

// machine waits for the machine of a kind at a position in the world model.
func machine(t *testing.T, c *Client, kind string, pos world.BlockPos) world.Machine {
	t.Helper()
	var got world.Machine
	eventually(t, kind+" at "+pos.String(), func() bool {
		for _, m := range c.State().Snapshot().Machines {
			if m.Kind == kind && m.Pos == pos {
				got = m
				return true
			}
		}
		return false
	})
	return got
}

// TestMachinesAndOresFromTheWorld: the coke oven (from its bricks' RC
// messages, one machine at its master), the boiler (from GregTech's tile
// message) and the ores (GregTech's ORES) are in the world model as soon as
// the chunks and mod messages arrive, before any window is opened.
func TestMachinesAndOresFromTheWorld(t *testing.T) {
	for _, tc := range formatsCases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, c := steamAgeServer(t, tc.neid, nil)
				oven := machine(t, c, world.MachineCokeOven, world.Pos(3, 64, 1))
				assert.True(t, oven.Formed)
				boiler := machine(t, c, world.MachineSteamBoiler, world.Pos(13, 64, 2))
				assert.True(t, boiler.Formed)
				var ovens int
				for _, m := range c.State().Snapshot().Machines {
					if m.Kind == world.MachineCokeOven {
						ovens++
					}
				}
				assert.Equal(t, 1, ovens, "one machine per oven, at its master, not one per brick")

				eventually(t, "the ores", func() bool {
					return len(c.State().Snapshot().NearestBlocks(64, 0, "ore:oreCopper")) == 3
				})
				snap := c.State().Snapshot()
				small := snap.NearestBlocks(64, 0, "ore:oreSmallCopper")
				require.Len(t, small, 1)
				assert.Equal(t, world.Pos(9, 54, 4), small[0].Pos)
				nether := snap.NearestBlocks(64, 0, "ore:oreNetherrackCopper")
				require.Len(t, nether, 1)
				assert.Equal(t, world.Pos(8, 55, 5), nether[0].Pos)
				assert.Equal(t, "gregtech:gt.blockores", nether[0].Block.ID)
				assert.Empty(t, c.Stats().Malformed)
			})
		})
	}
}

// TestModWindows: open_container, transfer_items and close_container on a
// coke oven (FML OpenGui at the master, clicked on another brick), a
// GregTech boiler (a ModularUI window with the player's inventory first),
// an Iron Chest (FML OpenGui) and a vanilla chest (Open Window); every
// transfer changes the server's containers.
func TestModWindows(t *testing.T) {
	for _, tc := range formatsCases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv, c := steamAgeServer(t, tc.neid, nil)
				ctx := context.Background()
				do := func(a action.Action) ipc.Result {
					t.Helper()
					r := c.Execute(ctx, a)
					require.Equal(t, ipc.OK, r.Code, "%T %+v: %s", a, a, r.Error)
					return r
				}
				master := world.Pos(3, 64, 1)
				do(action.MoveTo{Pos: world.Pos(3, 64, 4), Radius: 1})
				r := do(action.OpenContainer{Pos: world.Pos(3, 65, 2)})
				assert.Equal(t, "railcraft_coke_oven", r.Details["container"])
				do(action.TransferItems{Pos: world.Pos(3, 65, 2), Item: "minecraft:coal", Count: 10, Direction: action.Deposit, Slot: "input"})
				do(action.TransferItems{Pos: master, Item: "Railcraft:fuel.coke", Count: 12, Direction: action.Withdraw, Slot: "output"})
				do(action.CloseContainer{})
				items, ok := srv.ContainerItems(master)
				require.True(t, ok)
				assert.Equal(t, fakeserver.Item{Slot: 0, Name: "minecraft:coal", Count: 10}, items["input"], "the server's oven got the coal")
				assert.NotContains(t, items, "output", "the server's output slot was emptied")
				p := srv.Players()[0]
				assert.Equal(t, 12, p.Count("Railcraft:fuel.coke"))
				assert.Equal(t, 22, p.Count("minecraft:coal"))
				oven := c.State().Snapshot().Machines
				var seen world.Machine
				for _, m := range oven {
					if m.Pos == master {
						seen = m
					}
				}
				assert.Equal(t, 10, seen.Slot("input").Count, "the window's slots fill the oven's machine")
				assert.True(t, seen.Formed)

				boiler := world.Pos(13, 64, 2)
				do(action.MoveTo{Pos: world.Pos(13, 64, 4), Radius: 1})
				r = do(action.OpenContainer{Pos: boiler})
				assert.Equal(t, "gregtech_coal_boiler", r.Details["container"])
				do(action.TransferItems{Pos: boiler, Item: "minecraft:coal", Count: 6, Direction: action.Deposit, Slot: "fuel"})
				do(action.CloseContainer{})
				items, _ = srv.ContainerItems(boiler)
				assert.Equal(t, 6, items["fuel"].Count, "the coal reached the server's fuel slot (container slot 38)")
				bm := machine(t, c, world.MachineSteamBoiler, boiler)
				assert.Equal(t, 6, bm.Slot("fuel").Count, "the window's fuel slot")
				assert.InDelta(t, 5995, bm.Fluid("water").Amount, 5, "the window's water bar")
				assert.Equal(t, 101.0, bm.Temperature, "boiling: above 100 °C, though the window said 20")
				assert.Equal(t, 16, srv.Players()[0].Count("minecraft:coal"))

				iron := world.Pos(6, 64, 12)
				do(action.MoveTo{Pos: world.Pos(6, 64, 10), Radius: 1})
				r = do(action.OpenContainer{Pos: iron})
				assert.Equal(t, "iron_chest_iron", r.Details["container"])
				do(action.TransferItems{Pos: iron, Item: "minecraft:coal", Count: 20, Direction: action.Withdraw})
				do(action.CloseContainer{})
				items, _ = srv.ContainerItems(iron)
				assert.Empty(t, items, "the chest was emptied on the server")

				chest := world.Pos(10, 64, 12)
				do(action.MoveTo{Pos: world.Pos(10, 64, 10), Radius: 1})
				do(action.OpenContainer{Pos: chest})
				do(action.TransferItems{Pos: chest, Item: "minecraft:coal", Count: 5, Direction: action.Deposit})
				do(action.CloseContainer{})
				items, _ = srv.ContainerItems(chest)
				assert.Equal(t, fakeserver.Item{Slot: 0, Name: "minecraft:coal", Count: 5}, items["0"])
				assert.Equal(t, 31, srv.Players()[0].Count("minecraft:coal"))
				assert.Empty(t, srv.Kicks())
				assert.Empty(t, c.Stats().Malformed)
			})
		})
	}
}

// TestMalformedModMessagesAreDropped: a GregTech, Railcraft or FML payload
// that does not decode is counted in Stats.Malformed and dropped; the
// session and the machines already known stay.
func TestMalformedModMessagesAreDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := steamAgeServer(t, true, nil)
		machine(t, c, world.MachineSteamBoiler, world.Pos(13, 64, 2))
		tile := fakeserver.GregTechTile(modnetFormats(t), 13, 64, 2, 100, 2, 0)
		oven := fakeserver.RailcraftCokeOven(2, 64, 0, world.Pos(3, 64, 1), 0, false)
		gui := fakeserver.OpenGui(5, "Railcraft", 17, 3, 64, 1)
		for _, m := range []struct {
			channel string
			data    []byte
		}{
			{"GregTech", tile[:len(tile)-1]},              // truncated
			{"GregTech", append(tile, 0)},                 // trailing byte
			{"GregTech", nil},                             // no id
			{"RC", oven[:9]},                              // truncated header
			{"RC", append(oven[:len(oven):len(oven)], 7)}, // trailing byte
			{"FML", gui[:10]},                             // truncated OpenGui
		} {
			srv.Send(&proto17.PluginMessage{Channel: m.channel, Data: m.data})
		}
		eventually(t, "six malformed messages counted", func() bool {
			st := c.Stats()
			return st.Malformed["PluginMessage(GregTech)"] == 3 && st.Malformed["PluginMessage(RC)"] == 2 && st.Malformed["PluginMessage(FML)"] == 1
		})
		res := c.Execute(context.Background(), action.Chat{Message: "still here"})
		assert.Equal(t, ipc.OK, res.Code, res.Error)
		machine(t, c, world.MachineSteamBoiler, world.Pos(13, 64, 2))
		machine(t, c, world.MachineCokeOven, world.Pos(3, 64, 1))
		assert.Empty(t, srv.Kicks())
	})
}

func modnetFormats(t *testing.T) modnet.GTFormats {
	f, err := modnet.GregTechFormats("5.09.51.482")
	require.NoError(t, err)
	return f
}

// TestUnknownGregTechVersionIsSkipped: a gregtech version outside the known
// range is refused: its messages are counted as skipped, one warning is
// logged, no GregTech machine or ore is read; Railcraft's coke oven is.
func TestUnknownGregTechVersionIsSkipped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		logs := newSyncBuffer()
		o := fakeserver.Options{TickDuration: 5 * time.Millisecond,
			Mods: append(fakeserver.WithoutMod(fakeserver.DefaultMods(), "gregtech"), proto17.ModInfo{ModID: "gregtech", Version: "5.09.52.24"})}
		fakeserver.SteamAge(&o)
		srv, err := fakeserver.New(inMemory(o))
		require.NoError(t, err)
		defer srv.Close()
		c, err := New(Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: 5 * time.Millisecond, Log: zerolog.New(logs).Level(zerolog.WarnLevel)})
		require.NoError(t, err)
		defer c.Close()
		require.NoError(t, c.Open(context.Background()))
		machine(t, c, world.MachineCokeOven, world.Pos(3, 64, 1))
		eventually(t, "the boiler's tile and the five ores skipped", func() bool {
			return c.Stats().Skipped["PluginMessage(GregTech)"] == 6
		})
		snap := c.State().Snapshot()
		assert.Empty(t, snap.MachinesOfKind(world.MachineSteamBoiler, 64))
		assert.Empty(t, snap.NearestBlocks(64, 0, "ore:oreCopper"))
		assert.Empty(t, c.Stats().Malformed, "refused, not misparsed")
		assert.Equal(t, 1, strings.Count(logs.String(), "GregTech messages skipped"), logs.String())
		assert.Contains(t, logs.String(), "5.09.52.24")
	})
}

// TestBoilerWater: what the client says of a coal boiler's water and heat
// from what the server told it.
func TestBoilerWater(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		spec := coalBoilers[100]
		state := func(g gtMachine, now int64) world.Machine {
			var m world.Machine
			boilerState(&m, g, spec, now)
			return m
		}
		cold := state(gtMachine{meta: 100}, 0)
		assert.Equal(t, world.FluidTank{Fluid: "water", Capacity: 16000}, cold.Fluid("water"), "nothing known: no water")
		assert.Equal(t, 500.0, cold.Temperature, "unknown heat is the boiler's maximum")
		assert.True(t, cold.ContentsUnknown, "no window has shown its water")
		boiling := state(gtMachine{meta: 100, update: 1}, 0)
		assert.Equal(t, 1, boiling.Fluid("water").Amount, "boiling needs water")
		assert.Equal(t, 101.0, boiling.Temperature, "boiling is above 100 °C")
		// 3000 mB poured at tick 100; the boiler boils at most 120 mB of
		// steam a second, 0.75 mB of water: 20 s later at least 2985 mB.
		poured := gtMachine{meta: 100, waterFloor: 3000, floorTick: 100, waterKnown: true}
		assert.Equal(t, 3000, state(poured, 100).Fluid("water").Amount)
		assert.False(t, state(poured, 100).ContentsUnknown, "a window showed its water")
		assert.Equal(t, 2985, state(poured, 500).Fluid("water").Amount)
		assert.Equal(t, 2999, state(poured, 101).Fluid("water").Amount, "a part of a mB counts as used")
		assert.Equal(t, 0, state(poured, 100+4000*20*160/120+20).Fluid("water").Amount, "long after, nothing is known")
		poured.update = 1
		assert.Equal(t, 1, state(poured, 1_000_000).Fluid("water").Amount)
	})
}

// TestPouringWaterRaisesTheFloor: a water bucket the server empties on a
// boiler whose window has shown its water adds up to 1000 mB, never past
// the capacity; other uses teach nothing, and neither does a bucket
// emptied on a boiler whose water was never seen (the server empties it on
// a full boiler too).
func TestPouringWaterRaisesTheFloor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &Client{log: zerolog.Nop(), changed: make(chan struct{}), state: world.NewState(world.StateOptions{Rules: rules.Default()}), rules: rules.Default()}
		s := &session{mods: newModState()}
		pos := world.Pos(1, 2, 3)
		bucket, water := world.NewStack("minecraft:bucket", 0, 1), world.NewStack("minecraft:water_bucket", 0, 1)
		s.mods.gtm[pos] = gtMachine{meta: 100, update: 1}
		for range 3 {
			c.noteUse(s, pos, water, bucket)
		}
		assert.Equal(t, gtMachine{meta: 100, update: 1}, s.mods.gtm[pos], "a pour into unknown water is no reading")
		s.mods.gtm[pos] = gtMachine{meta: 100, waterKnown: true}
		c.noteUse(s, pos, water, water) // the server kept the bucket full
		c.noteUse(s, pos, bucket, water)
		c.noteUse(s, world.Pos(9, 9, 9), water, bucket) // not a boiler
		assert.Zero(t, s.mods.gtm[pos].waterFloor)
		for range 17 {
			c.noteUse(s, pos, water, bucket)
		}
		assert.Equal(t, 16000, s.mods.gtm[pos].waterFloor, "never past the capacity")
		var m world.Machine
		c.state.Update(func(tx *world.Tx) { m, _ = tx.Machine(pos) })
		assert.Equal(t, 16000, m.Fluid("water").Amount)
		assert.False(t, m.ContentsUnknown)
	})
}

// TestOpenWaitsForTheBoilersWater: open_container on a coal boiler
// returns only once the window's water bar is read, though the server
// sends it late (after a stall); a skill that closes the window at once
// still sees the water, and the boiler's contents are known.
func TestOpenWaitsForTheBoilersWater(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := steamAgeServer(t, true, func(o *fakeserver.Options) {
			o.Boilers[0].Water = 9000
			o.Faults = fakeserver.Faults{StallAt: fakeserver.StageBoilerGui, StallFor: 100 * time.Millisecond}
		})
		ctx := context.Background()
		boiler := world.Pos(13, 64, 2)
		machine(t, c, world.MachineSteamBoiler, boiler)
		for _, a := range []action.Action{action.MoveTo{Pos: world.Pos(13, 64, 4), Radius: 1}, action.OpenContainer{Pos: boiler}, action.CloseContainer{}} {
			r := c.Execute(ctx, a)
			require.Equal(t, ipc.OK, r.Code, r.Error)
		}
		m := machine(t, c, world.MachineSteamBoiler, boiler)
		assert.False(t, m.ContentsUnknown)
		assert.InDelta(t, 9000, m.Fluid("water").Amount, 5)
	})
}

// TestBoilerSlotsAloneLeaveItUnknown: a coal boiler window's slots (Window
// Items) arrive before its bars; until the water bar came, the boiler's
// contents stay unknown, so a window closed in between leaves no believed
// water behind as if read. Other containers are known with their slots.
func TestBoilerSlotsAloneLeaveItUnknown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, err := modnet.DefaultData()
		require.NoError(t, err)
		c := &Client{log: zerolog.Nop(), changed: make(chan struct{}), state: world.NewState(world.StateOptions{Rules: rules.Default()}), rules: rules.Default()}
		s := &session{mods: newModState()}
		pos := world.Pos(1, 2, 3)
		s.mods.gtm[pos] = gtMachine{meta: 100, update: 1}
		c.state.Update(func(tx *world.Tx) {
			m := world.Machine{Kind: world.MachineSteamBoiler, Pos: pos}
			boilerState(&m, s.mods.gtm[pos], coalBoilers[100], 0)
			tx.PutMachine(m)
		})
		s.inv.open = newModContainer(1, d.Containers["gregtech_coal_boiler"])
		s.inv.open.pos, s.inv.open.synced = &pos, true
		get := func() world.Machine {
			var m world.Machine
			c.state.Update(func(tx *world.Tx) { m, _ = tx.Machine(pos) })
			return m
		}
		c.syncInventory(s)
		assert.True(t, get().ContentsUnknown, "slots without the water bar")
		g := s.mods.gtm[pos]
		g.waterKnown = true
		s.mods.gtm[pos] = g
		c.syncInventory(s)
		assert.False(t, get().ContentsUnknown, "slots and water seen")

		oven := world.Pos(5, 6, 7)
		c.state.Update(func(tx *world.Tx) {
			tx.PutMachine(world.Machine{Kind: world.MachineCokeOven, Pos: oven, Formed: true, ContentsUnknown: true})
		})
		s.inv.open = newModContainer(2, d.Containers["railcraft_coke_oven"])
		s.inv.open.pos, s.inv.open.synced = &oven, true
		c.syncInventory(s)
		var m world.Machine
		c.state.Update(func(tx *world.Tx) { m, _ = tx.Machine(oven) })
		assert.False(t, m.ContentsUnknown, "a coke oven is known by its window's slots")
	})
}

// TestBoilerContentsUnknownUntilItsWindow: a coal boiler's contents are
// unknown from its tile message alone, and stay so when a water bucket is
// poured into it (here a full one, which takes nothing while the server
// empties the bucket); its window showing the water makes them known, and
// the water is then what the window said, not 1000 mB per bucket.
func TestBoilerContentsUnknownUntilItsWindow(t *testing.T) {
	for _, steel := range []bool{false, true} {
		t.Run(map[bool]string{false: "bronze", true: "steel"}[steel], func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				capacity := map[bool]int{false: 16000, true: 32000}[steel]
				srv, c := steamAgeServer(t, true, func(o *fakeserver.Options) {
					o.Boilers[0].Steel, o.Boilers[0].Water = steel, capacity
					o.Inventory = append(o.Inventory, fakeserver.Item{Slot: 38, Name: "minecraft:water_bucket", Count: 1})
				})
				ctx := context.Background()
				boiler := world.Pos(13, 64, 2)
				m := machine(t, c, world.MachineSteamBoiler, boiler)
				assert.True(t, m.ContentsUnknown, "from the tile message alone")
				require.Equal(t, ipc.OK, c.Execute(ctx, action.MoveTo{Pos: world.Pos(13, 64, 4), Radius: 1}).Code)
				r := c.Execute(ctx, action.UseItem{Item: "minecraft:water_bucket", Target: &boiler})
				require.Equal(t, ipc.OK, r.Code, r.Error)
				eventually(t, "the emptied bucket", func() bool {
					return c.State().Snapshot().Inventory.Count(world.MustItem("minecraft:bucket")) == 1
				})
				m = machine(t, c, world.MachineSteamBoiler, boiler)
				assert.True(t, m.ContentsUnknown, "a pour is no reading")
				assert.Equal(t, 1, m.Fluid("water").Amount, "boiling: at least 1 mB, no more believed")
				water, _ := srv.BoilerWater(boiler)
				assert.Equal(t, capacity, water, "the server's boiler took nothing")

				require.Equal(t, ipc.OK, c.Execute(ctx, action.OpenContainer{Pos: boiler}).Code)
				m = machine(t, c, world.MachineSteamBoiler, boiler)
				assert.False(t, m.ContentsUnknown, "open_container returned after the window showed the water")
				assert.InDelta(t, capacity, m.Fluid("water").Amount, 5, "the window's water")
				require.Equal(t, ipc.OK, c.Execute(ctx, action.CloseContainer{}).Code)
				m = machine(t, c, world.MachineSteamBoiler, boiler)
				assert.False(t, m.ContentsUnknown, "known for the session once seen")
			})
		})
	}
}

// FuzzModMessages: any payload on the mod channels is read or dropped,
// never a panic, and the client's mod state stays within its bounds.
func FuzzModMessages(f *testing.F) {
	gt := modnet.GTFormats{Tile: modnet.TileLayoutCompact, BlockEvent: modnet.BlockEventBatched, Ores: modnet.OreSourcePacket}
	f.Add(byte(0), fakeserver.GregTechTile(gt, 1, 2, 3, 100, 8, 1))
	f.Add(byte(0), fakeserver.GregTechOres(1, 2, 3, modnet.Ore{Material: 35}))
	f.Add(byte(1), fakeserver.RailcraftCokeOven(2, 64, 0, world.Pos(3, 64, 1), 5, true))
	f.Add(byte(2), fakeserver.OpenGui(5, "Railcraft", 17, 3, 64, 1))
	f.Add(byte(2), fakeserver.OpenGui(6, "modularui", 3, 1, 2, 3))
	f.Add(byte(3), modnet.EncodeWidgetUpdate(modnet.WidgetUpdate{Widget: 5, Data: modnet.ProgressBarData(0.5)}))
	f.Add(byte(4), fakeserver.RailcraftWaterTank(1, 2, 3, 2, 1, 2, 20000))
	f.Add(byte(4), fakeserver.RailcraftGuiInteger(1, 1, 3000))
	f.Fuzz(func(t *testing.T, ch byte, data []byte) {
		c := &Client{log: zerolog.Nop(), changed: make(chan struct{}), state: world.NewState(world.StateOptions{Rules: rules.Default()}), rules: rules.Default()}
		c.stats.Skipped, c.stats.Malformed = map[string]int64{}, map[string]int64{}
		s := &session{mods: newModState()}
		s.mods.gt = &gt
		switch ch % 5 {
		case 0:
			c.onGregTech(s, data)
		case 1:
			c.onRailcraft(s, data)
		case 2:
			c.onFMLRuntime(s, data)
		case 4:
			// RC messages at a known water tank whose window is open
			// (tank data is read as the tank's whatever the block).
			d, err := modnet.DefaultData()
			require.NoError(t, err)
			pos := world.Pos(1, 2, 3)
			c.state.Update(func(tx *world.Tx) { tx.PutMachine(world.Machine{Kind: world.MachineWaterTank, Pos: pos}) })
			s.mods.tanks[pos] = modnet.WaterTank{X: 1, Y: 2, Z: 3, Formed: true, PatternX: 2, PatternY: 1, PatternZ: 2}
			s.inv.open = newModContainer(1, d.Containers["railcraft_tank"])
			s.inv.open.pos = &pos
			c.onRailcraft(s, data)
			if tile, err := modnet.DecodeRCTile(data); err == nil {
				c.rcWaterTank(s, tile, world.Pos(int(tile.X), int(tile.Y), int(tile.Z)))
			}
			for _, m := range c.State().Snapshot().Machines {
				w := m.Fluid("water")
				assert.True(t, w.Amount >= 0 && w.Amount <= w.Capacity && w.Capacity <= 400000, "%+v", m)
			}
		default:
			// An open small coal boiler's window.
			pos := world.Pos(1, 2, 3)
			s.mods.gtm[pos] = gtMachine{meta: 100}
			s.inv.open = newModContainer(1, modnet.ContainerLayout{Kind: "gregtech_coal_boiler", Size: 40})
			s.inv.open.pos = &pos
			c.onModularUI(s, data)
			g := s.mods.gtm[pos]
			assert.True(t, g.waterFloor >= 0 && g.waterFloor <= 16000 && g.steam >= 0 && g.steam <= 16000 && g.temp >= 0 && g.temp <= 500, "%+v", g)
		}
		if s.inv.open != nil {
			assert.NotEmpty(t, s.inv.open.slots)
		}
	})
}

// TestCokeOvenBricksOnlyOnTheirBlock: RC tile data is the coke oven's only
// on a Railcraft:machine.alpha block (the id is an ordinal within the
// block); an oven whose master reports it is no longer formed is no
// machine any more.
func TestCokeOvenBricksOnlyOnTheirBlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := steamAgeServer(t, true, nil)
		master := world.Pos(3, 64, 1)
		machine(t, c, world.MachineCokeOven, master)
		// A formed master brick's message for a grass block.
		srv.Send(&proto17.PluginMessage{Channel: "RC", Data: fakeserver.RailcraftCokeOven(20, 63, 20, world.Pos(20, 63, 20), 0, false)})
		eventually(t, "the message skipped", func() bool { return c.Stats().Skipped["RC tile (not a coke oven)"] == 1 })
		assert.Len(t, c.State().Snapshot().MachinesOfKind(world.MachineCokeOven, 64), 1)

		// The master falls apart: hasMaster false, cook time 0, not cooking.
		srv.Send(&proto17.PluginMessage{Channel: "RC", Data: []byte{0, 0, 0, 0, 3, 0, 0, 0, 64, 0, 0, 0, 1, 0, 7, 0, 0, 0, 0, 0, 0}})
		eventually(t, "the oven gone", func() bool {
			return len(c.State().Snapshot().MachinesOfKind(world.MachineCokeOven, 64)) == 0
		})
		// A brick formed again reports it: the oven comes back when its master
		// does, not before.
		srv.Send(&proto17.PluginMessage{Channel: "RC", Data: fakeserver.RailcraftCokeOven(2, 64, 0, master, 0, false)})
		srv.Send(&proto17.PluginMessage{Channel: "RC", Data: fakeserver.RailcraftCokeOven(3, 64, 1, master, 40, true)})
		m := machine(t, c, world.MachineCokeOven, master)
		assert.True(t, m.Active, "the master's cooking flag")
	})
}

// TestGregTechEvents: a block event with a new common byte switches a
// machine's active flag, the machine's update byte its boiling; batched
// events of another dimension are not the player's.
func TestGregTechEvents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &Client{log: zerolog.Nop(), changed: make(chan struct{}), state: world.NewState(world.StateOptions{Rules: rules.Default()}), rules: rules.Default()}
		c.stats.Skipped, c.stats.Malformed = map[string]int64{}, map[string]int64{}
		f := modnetFormats(t)
		s := &session{mods: newModState()}
		s.mods.gt = &f
		pos := world.Pos(10, 70, -4)
		c.onGregTech(s, fakeserver.GregTechTile(f, 10, 70, -4, 100, 2, 0))
		at := func() world.Machine {
			var m world.Machine
			c.state.Update(func(tx *world.Tx) { m, _ = tx.Machine(pos) })
			return m
		}
		require.Equal(t, world.MachineSteamBoiler, at().Kind)
		assert.False(t, at().Active)
		event := func(dim int32, ev, value uint8) []byte {
			b := []byte{modnet.GTBlockEvent}
			b = binary.BigEndian.AppendUint32(b, uint32(dim))
			b = binary.BigEndian.AppendUint32(b, 1)
			b = binary.BigEndian.AppendUint64(b, uint64(modnet.PackPos(10, 70, -4)))
			return binary.BigEndian.AppendUint16(b, uint16(ev)<<8|uint16(value))
		}
		c.onGregTech(s, event(-1, modnet.EventCommonData, 2|8))
		assert.False(t, at().Active, "an event in the Nether is not this machine's")
		c.onGregTech(s, event(0, modnet.EventCommonData, 2|8))
		assert.True(t, at().Active)
		assert.Equal(t, 0, at().Fluid("water").Amount)
		c.onGregTech(s, event(0, modnet.EventCustomData, 1))
		assert.Equal(t, 1, at().Fluid("water").Amount, "boiling")
		assert.Equal(t, "north", at().Facing)
		c.onGregTech(s, event(0, modnet.EventCommonData, 5|8))
		assert.Equal(t, "east", at().Facing, "turned with a wrench: a new common byte")
		c.onGregTech(s, event(0, modnet.EventCommonData, 6))
		assert.Empty(t, at().Facing, "ForgeDirection.UNKNOWN names no side")
		c.onGregTech(s, event(0, modnet.EventCommonData, 7))
		assert.Empty(t, at().Facing, "7 is no ForgeDirection")
		assert.Empty(t, c.stats.Malformed)
	})
}

// TestModContainerSlots: a layout's own slots by name (the player's
// inventory is not the container's), and the player's slots where the
// layout puts them.
func TestModContainerSlots(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, err := modnet.DefaultData()
		require.NoError(t, err)
		boiler, _ := d.LayoutForGregTech(100)
		o := newModContainer(7, boiler)
		assert.Equal(t, []namedSlot{{36, "fluid_in"}, {37, "fluid_out"}, {38, "fuel"}, {39, "ash"}}, o.slotNames())
		assert.Equal(t, invMain, o.playerAt(0))
		assert.Equal(t, invMain+26, o.playerAt(26))
		assert.Equal(t, invHotbar, o.playerAt(27))
		assert.Equal(t, invHotbar+8, o.playerAt(35))
		assert.Equal(t, -1, o.playerAt(36))
		iron, _ := d.LayoutForOpenGui(modnet.OpenGui{ModID: "IronChest", GuiID: 0})
		o = newModContainer(8, iron)
		names := o.slotNames()
		require.Len(t, names, 54)
		assert.Equal(t, namedSlot{53, "53"}, names[53])
		assert.Equal(t, invHotbar+8, o.playerAt(89))
		assert.Equal(t, -1, o.playerAt(90))
	})
}

// TestFakeServerRefusesStaleClicks: the test server applies a click only
// when the client's view of the slot matches its own, and an output slot
// takes nothing.
func TestFakeServerRefusesStaleClicks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := steamAgeServer(t, true, nil)
		ctx := context.Background()
		iron := world.Pos(6, 64, 12)
		require.Equal(t, ipc.OK, c.Execute(ctx, action.MoveTo{Pos: world.Pos(6, 64, 10), Radius: 1}).Code)
		require.Equal(t, ipc.OK, c.Execute(ctx, action.OpenContainer{Pos: iron}).Code)
		c.mu.Lock()
		s, win := c.sess, c.sess.inv.open.id
		// Marks the resent window and cursor of the refusal will clear.
		s.inv.open.synced = false
		s.inv.cursor = proto17.Slot{ID: 1, Count: 1}
		c.mu.Unlock()
		// The chest's slot 3 holds 20 coal; a click claiming it empty is stale.
		require.NoError(t, c.send(s, &proto17.ClickWindow{WindowID: win, Slot: 3, Action: 900, Mode: 0}))
		eventually(t, "the window and cursor resent", func() bool {
			c.mu.Lock()
			defer c.mu.Unlock()
			return s.inv.open.synced && s.inv.cursor.Empty()
		})
		// The clicks that follow are answered in order: the stale one was
		// handled first, and left the chest as it was.
		r := c.Execute(ctx, action.TransferItems{Pos: iron, Item: "minecraft:coal", Count: 20, Direction: action.Withdraw, Slot: "3"})
		require.Equal(t, ipc.OK, r.Code, r.Error)
		items, _ := srv.ContainerItems(iron)
		assert.Empty(t, items)
		p, _ := srv.Player("Bot")
		assert.Equal(t, 52, p.Count("minecraft:coal"), "all 20 coal reached the player: the stale click took none")
		require.Equal(t, ipc.OK, c.Execute(ctx, action.CloseContainer{}).Code)

		// An output slot takes nothing.
		master := world.Pos(3, 64, 1)
		require.Equal(t, ipc.OK, c.Execute(ctx, action.MoveTo{Pos: world.Pos(3, 64, 4), Radius: 1}).Code)
		require.Equal(t, ipc.OK, c.Execute(ctx, action.OpenContainer{Pos: master}).Code)
		r = c.Execute(ctx, action.TransferItems{Pos: master, Item: fakeserver.CokeItem, Count: 12, Direction: action.Withdraw, Slot: "output"})
		require.Equal(t, ipc.OK, r.Code, r.Error)
		c.Execute(ctx, action.TransferItems{Pos: master, Item: "minecraft:coal", Count: 4, Direction: action.Deposit, Slot: "output"})
		c.Execute(ctx, action.CloseContainer{})
		items, _ = srv.ContainerItems(master)
		assert.NotContains(t, items, "output", "nothing went into the output slot")
		p, _ = srv.Player("Bot")
		assert.Equal(t, 52, p.Count("minecraft:coal"), "the coal stays with the player on the server")
		assert.Equal(t, 12, p.Count(fakeserver.CokeItem))
	})
}

// TestOlderGregTechTileLayout: a GTNH 2.7 server (GregTech 5.09.50) sends
// tile messages with the registry id and texture page; the client picks
// that layout from the mod list and finds the boiler.
func TestOlderGregTechTileLayout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := steamAgeServer(t, true, func(o *fakeserver.Options) {
			o.Mods = append(fakeserver.WithoutMod(fakeserver.DefaultMods(), "gregtech"), proto17.ModInfo{ModID: "gregtech", Version: "5.09.50.119"})
		})
		b := machine(t, c, world.MachineSteamBoiler, world.Pos(13, 64, 2))
		assert.Equal(t, 1, b.Fluid("water").Amount)
		eventually(t, "the ores", func() bool { return len(c.State().Snapshot().NearestBlocks(64, 0, "ore:oreCopper")) == 3 })
		assert.Empty(t, c.Stats().Malformed)
	})
}

// gt52 is a GTNH 2.9 beta's GregTech version: ores in block metadata.
const gt52 = "5.09.52.594"

// TestOresFromMetadata: with GregTech 5.09.52 the ores are
// gregtech:gt.blockores2 blocks whose metadata names the ore; the client
// tags them from the chunks (small ores and stones told apart) and from
// block changes, and skips GregTech's channel messages with one warning.
func TestOresFromMetadata(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		logs := newSyncBuffer()
		o := fakeserver.Options{TickDuration: 5 * time.Millisecond,
			Mods: append(fakeserver.WithoutMod(fakeserver.DefaultMods(), "gregtech"), proto17.ModInfo{ModID: "gregtech", Version: gt52})}
		fakeserver.SteamAge(&o)
		srv, err := fakeserver.New(inMemory(o))
		require.NoError(t, err)
		defer srv.Close()
		c, err := New(Config{Address: srv.Addr(), Dial: srv.Dial, Username: "Bot", Tick: 5 * time.Millisecond, Log: zerolog.New(logs).Level(zerolog.WarnLevel)})
		require.NoError(t, err)
		defer c.Close()
		require.NoError(t, c.Open(context.Background()))

		eventually(t, "the ores", func() bool { return len(c.State().Snapshot().NearestBlocks(64, 0, "ore:oreCopper")) == 3 })
		snap := c.State().Snapshot()
		small := snap.NearestBlocks(64, 0, "ore:oreSmallCopper")
		require.Len(t, small, 1)
		assert.Equal(t, world.Pos(9, 54, 4), small[0].Pos)
		nether := snap.NearestBlocks(64, 0, "ore:oreNetherrackCopper")
		require.Len(t, nether, 1)
		assert.Equal(t, world.Pos(8, 55, 5), nether[0].Pos)
		assert.Equal(t, fakeserver.OreBlock2, nether[0].Block.ID)
		assert.Equal(t, 9035, nether[0].Block.Meta, "natural netherrack copper: 35 + 1000 + 8000")

		// A block change places a tin ore in basalt and mines a copper ore.
		require.NoError(t, srv.SetBlocks(
			fakeserver.Block{X: 4, Y: 60, Z: 4, Name: fakeserver.OreBlock2, Meta: 6057},
			fakeserver.Block{X: 8, Y: 55, Z: 4, Name: "minecraft:air"}))
		eventually(t, "the tin ore", func() bool { return len(c.State().Snapshot().NearestBlocks(64, 0, "ore:oreBasaltTin")) == 1 })
		eventually(t, "the mined ore", func() bool { return len(c.State().Snapshot().NearestBlocks(64, 0, "ore:oreCopper")) == 2 })
		// A single Block Change: a small copper ore in netherrack, placed by world
		// generation (35 + 1000 + 16000 + 8000).
		require.NoError(t, srv.SetBlocks(fakeserver.Block{X: 4, Y: 60, Z: 6, Name: fakeserver.OreBlock2, Meta: 25035}))
		eventually(t, "the small ore", func() bool { return len(c.State().Snapshot().NearestBlocks(64, 0, "ore:oreSmallCopper")) == 2 })
		// A Moon copper ore (series 2, stone 7: 35 + 7000 + 8000) is
		// ore:oreCopper, as GregTech names it.
		require.NoError(t, srv.SetBlocks(fakeserver.Block{X: 4, Y: 60, Z: 8, Name: fakeserver.OreBlock2, Meta: 15035}))
		eventually(t, "the Moon ore", func() bool { return len(c.State().Snapshot().NearestBlocks(64, 0, "ore:oreCopper")) == 3 })

		machine(t, c, world.MachineCokeOven, world.Pos(3, 64, 1))
		eventually(t, "the boiler's tile skipped", func() bool { return c.Stats().Skipped["PluginMessage(GregTech)"] == 1 })
		assert.Empty(t, c.State().Snapshot().MachinesOfKind(world.MachineSteamBoiler, 64))
		assert.Empty(t, c.Stats().Malformed)
		assert.Equal(t, 1, strings.Count(logs.String(), "GregTech messages skipped"), logs.String())
		assert.Contains(t, logs.String(), gt52)
	})
}

// TestMetadataOresNeedTheMetadataFormat: under GregTech 5.09.51 a
// gt.blockores2 block is not read as an ore (its ores come in ORES
// messages).
func TestMetadataOresNeedTheMetadataFormat(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := steamAgeServer(t, true, nil)
		eventually(t, "the ores", func() bool { return len(c.State().Snapshot().NearestBlocks(64, 0, "ore:oreCopper")) == 3 })
		require.NoError(t, srv.SetBlocks(fakeserver.Block{X: 4, Y: 60, Z: 4, Name: fakeserver.OreBlock2, Meta: 8035}))
		eventually(t, "the block", func() bool { return c.State().Snapshot().BlockAt(world.Pos(4, 60, 4)).ID == fakeserver.OreBlock2 })
		assert.Len(t, c.State().Snapshot().NearestBlocks(64, 0, "ore:oreCopper"), 3)
	})
}

// TestBoilerWindowShowsWaterSteamHeat: the boiler's open ModularUI window
// sends its steam, water and temperature bars, and the client's boiler
// takes them instead of its estimate (1 mB and 101 °C while boiling).
func TestBoilerWindowShowsWaterSteamHeat(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := steamAgeServer(t, true, func(o *fakeserver.Options) {
			o.Boilers[0].Water, o.Boilers[0].Steam, o.Boilers[0].Temperature = 6000, 4000, 350
		})
		_ = srv
		ctx := context.Background()
		boiler := world.Pos(13, 64, 2)
		before := machine(t, c, world.MachineSteamBoiler, boiler)
		assert.Equal(t, 1, before.Fluid("water").Amount, "before the window: the estimate")
		assert.Equal(t, 101.0, before.Temperature)
		require.Equal(t, ipc.OK, c.Execute(ctx, action.MoveTo{Pos: world.Pos(13, 64, 4), Radius: 1}).Code)
		require.Equal(t, ipc.OK, c.Execute(ctx, action.OpenContainer{Pos: boiler}).Code)
		var m world.Machine
		eventually(t, "the boiler window's values", func() bool {
			m = machine(t, c, world.MachineSteamBoiler, boiler)
			// The temperature bar comes after the steam and water bars.
			return m.Fluid("steam").Amount == 4000 && m.Temperature > 101
		})
		// The water is a lower bound from the moment it was read, lowered by
		// at most 0.75 mB a second: a few ticks later still above 5990.
		assert.InDelta(t, 5995, m.Fluid("water").Amount, 5, "the window's water")
		assert.Equal(t, 16000, m.Fluid("water").Capacity)
		assert.Equal(t, 16000, m.Fluid("steam").Capacity)
		assert.InDelta(t, 352, m.Temperature, 2, "the window's temperature, rising at most 1 °C per 12 ticks since")
		assert.Empty(t, c.Stats().Malformed)
	})
}

// TestBoilerWidgetValues: ModularUI values reach only the open coal
// boiler's window, by widget id; other widgets, windows and positions are
// skipped.
func TestBoilerWidgetValues(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &Client{log: zerolog.Nop(), changed: make(chan struct{}), state: world.NewState(world.StateOptions{Rules: rules.Default()}), rules: rules.Default()}
		s := &session{mods: newModState()}
		pos, other := world.Pos(1, 2, 3), world.Pos(4, 5, 6)
		s.mods.gtm[pos] = gtMachine{meta: 100}
		s.mods.gtm[other] = gtMachine{meta: 102} // the lava boiler: no coal boiler window
		c.stats.Skipped, c.stats.Malformed = map[string]int64{}, map[string]int64{}
		l := modnet.ContainerLayout{Kind: "gregtech_coal_boiler", Size: 40}
		send := func(widget, window int32, v float32) {
			c.onModularUI(s, modnet.EncodeWidgetUpdate(modnet.WidgetUpdate{Widget: widget, Window: window, Data: modnet.ProgressBarData(v)}))
		}
		send(5, 0, 0.5) // no window open
		assert.Zero(t, s.mods.gtm[pos].waterFloor)
		s.inv.open = newModContainer(1, l)
		s.inv.open.pos = &other
		send(5, 0, 0.5) // not a coal boiler
		assert.Zero(t, s.mods.gtm[other].waterFloor)
		s.inv.open.pos = &pos
		send(5, 1, 0.5) // another window
		send(3, 0, 0.5) // the ash slot's id
		send(7, 0, 0.5) // the fuel bar
		assert.Equal(t, gtMachine{meta: 100}, s.mods.gtm[pos])
		s.mods.gtm[pos] = gtMachine{meta: 100, waterFloor: 3000, floorTick: 0} // a bucket's floor, long ago
		c.ticks.Store(100_000)
		send(4, 0, 0.25)
		send(6, 0, 0.7)
		assert.False(t, s.mods.gtm[pos].waterKnown, "steam and heat are not the water")
		assert.False(t, s.inv.open.waterSeen)
		send(5, 0, 0.5)
		assert.True(t, s.inv.open.waterSeen)
		g := s.mods.gtm[pos]
		assert.True(t, g.waterKnown)
		var now world.Machine
		boilerState(&now, g, coalBoilers[100], 100_000)
		assert.Equal(t, 8000, now.Fluid("water").Amount, "the window's water, exact when read")
		assert.False(t, now.ContentsUnknown, "read at tick 100 000: known, however late in the session")
		assert.Equal(t, int64(100_000), g.readTick)
		assert.Equal(t, 350.0, now.Temperature)
		g.floorTick, g.tempTick, g.readTick = 0, 0, 0
		assert.Equal(t, 4000, g.steam)
		assert.Equal(t, 8000, g.waterFloor)
		assert.Equal(t, 350, g.temp)
		assert.True(t, g.steamKnown && g.tempKnown)
		c.onModularUI(s, modnet.EncodeWidgetUpdate(modnet.WidgetUpdate{Widget: 5, Data: modnet.ProgressBarData(1.5)}))
		assert.Equal(t, 8000, s.mods.gtm[pos].waterFloor, "a bar past full is refused")
		assert.Equal(t, int64(1), c.Stats().Malformed["PluginMessage(modularui)"])

		m := world.Machine{}
		boilerState(&m, g, coalBoilers[100], 0)
		assert.Equal(t, 350.0, m.Temperature)
		boilerState(&m, g, coalBoilers[100], 13)
		assert.Equal(t, 352.0, m.Temperature, "13 ticks: at most 2 °C more")
		boilerState(&m, g, coalBoilers[100], 1_000_000)
		assert.Equal(t, 500.0, m.Temperature, "never past the maximum")
		assert.Equal(t, world.FluidTank{Fluid: "steam", Amount: 4000, Capacity: 16000}, m.Fluid("steam"))
		g.update = 1
		g.temp = 20
		boilerState(&m, g, coalBoilers[100], 0)
		assert.Equal(t, 101.0, m.Temperature, "boiling is above 100 °C whatever was read")
	})
}

// TestSteelBoilerWindow: the steel high pressure coal boiler (101) has
// tanks of 32 000 mB and a temperature bar scaled to 1000
// (MTEBoilerSteel.getCapacity, maxProgresstime); its window's bars are
// read with those scales, not the bronze boiler's.
func TestSteelBoilerWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := steamAgeServer(t, true, func(o *fakeserver.Options) {
			o.Boilers[0].Steel = true
			o.Boilers[0].Water, o.Boilers[0].Steam, o.Boilers[0].Temperature = 20000, 30000, 800
		})
		ctx := context.Background()
		boiler := world.Pos(13, 64, 2)
		before := machine(t, c, world.MachineSteamBoiler, boiler)
		assert.Equal(t, world.FluidTank{Fluid: "water", Amount: 1, Capacity: 32000}, before.Fluid("water"), "boiling: at least 1 mB of its 32 000")
		require.Equal(t, ipc.OK, c.Execute(ctx, action.MoveTo{Pos: world.Pos(13, 64, 4), Radius: 1}).Code)
		require.Equal(t, ipc.OK, c.Execute(ctx, action.OpenContainer{Pos: boiler}).Code)
		var m world.Machine
		// The temperature bar follows the steam bar: wait for both.
		eventually(t, "the steel boiler window's values", func() bool {
			m = machine(t, c, world.MachineSteamBoiler, boiler)
			return m.Fluid("steam").Amount == 30000 && m.Temperature >= 800
		})
		// 300 mB of steam a second is under 2 mB of water a second.
		assert.InDelta(t, 19995, m.Fluid("water").Amount, 5, "the window's water")
		assert.Equal(t, 32000, m.Fluid("water").Capacity)
		assert.Equal(t, 32000, m.Fluid("steam").Capacity)
		assert.InDelta(t, 802, m.Temperature, 2, "800 °C read on a scale of 1000")
		assert.Empty(t, c.Stats().Malformed)
	})
}

// TestSteelBoilerEstimate: without its window the steel boiler's water
// floor falls at its own rate (300 mB of steam a second, 160 mB of steam
// per mB of water) and a poured bucket counts up to its 32 000 mB; its
// unknown temperature is its maximum, 1000 °C.
func TestSteelBoilerEstimate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		spec := coalBoilers[101]
		var m world.Machine
		boilerState(&m, gtMachine{meta: 101}, spec, 0)
		assert.Equal(t, 1000.0, m.Temperature)
		// 20 s at 300 mB of steam a second: 6000 mB of steam, 37.5 mB of water.
		boilerState(&m, gtMachine{meta: 101, waterFloor: 3000, floorTick: 100}, spec, 500)
		assert.Equal(t, 2962, m.Fluid("water").Amount)

		c := &Client{log: zerolog.Nop(), changed: make(chan struct{}), state: world.NewState(world.StateOptions{Rules: rules.Default()}), rules: rules.Default()}
		s := &session{mods: newModState()}
		pos := world.Pos(1, 2, 3)
		s.mods.gtm[pos] = gtMachine{meta: 101, waterFloor: 31500, waterKnown: true}
		c.noteUse(s, pos, world.NewStack("minecraft:water_bucket", 0, 1), world.NewStack("minecraft:bucket", 0, 1))
		assert.Equal(t, 32000, s.mods.gtm[pos].waterFloor, "up to the steel boiler's capacity")
	})
}

// TestMachinesLeaveWithTheirColumns: the steam-age base's column unloads
// when the bot walks far away (the streaming server unloads columns left
// behind): the coke oven, the boiler and the ore tags there leave the world
// model and the session's mod state. Walking back, the column and its
// tiles' messages arrive again and so do the machines. (The walks also
// cross newly loaded columns while ore tags are set: the route planner
// must see those columns through the tagged view.)
func TestMachinesLeaveWithTheirColumns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := steamAgeServer(t, true, func(o *fakeserver.Options) { o.Stream, o.ViewRadius = true, 1 })
		ctx := context.Background()
		oven, boiler := world.Pos(3, 64, 1), world.Pos(13, 64, 2)
		got := machine(t, c, world.MachineSteamBoiler, boiler)
		assert.Equal(t, "north", got.Facing, "GregTech's common byte: facing 2 is north")
		machine(t, c, world.MachineCokeOven, oven)
		eventually(t, "the ores", func() bool {
			return len(c.State().Snapshot().NearestBlocks(64, 0, "ore:oreCopper")) == 3
		})

		// The base is in column (0, 0); with a view radius of 1 the server
		// unloads columns more than 3 columns away.
		far := world.Pos(8, 64, 8+16*4)
		res := c.Execute(ctx, action.MoveTo{Pos: far, Radius: 1})
		require.Equal(t, ipc.OK, res.Code, res.Error)
		eventually(t, "the base's column unloaded", func() bool {
			c.mu.Lock()
			defer c.mu.Unlock()
			return !c.sess.loaded[[2]int{0, 0}]
		})
		snap := c.State().Snapshot()
		assert.Empty(t, snap.Machines, "the machines of the unloaded column")
		assert.Empty(t, snap.NearestBlocks(128, 0, "ore:oreCopper"), "ore tags of unloaded columns")
		c.mu.Lock()
		assert.Empty(t, c.sess.mods.gtm, "GregTech machines of unloaded columns")
		assert.Empty(t, c.sess.mods.ores, "ores of unloaded columns")
		for p := range c.sess.mods.ovens {
			assert.NotEqual(t, [2]int{0, 0}, [2]int{p.X >> 4, p.Z >> 4}, "coke oven bricks of unloaded columns")
		}
		c.mu.Unlock()

		require.Equal(t, ipc.OK, c.Execute(ctx, action.MoveTo{Pos: world.Pos(8, 64, 8), Radius: 1}).Code)
		machine(t, c, world.MachineSteamBoiler, boiler)
		machine(t, c, world.MachineCokeOven, oven)
		eventually(t, "the ores again", func() bool {
			return len(c.State().Snapshot().NearestBlocks(64, 0, "ore:oreCopper")) == 3
		})
		assert.Empty(t, c.Stats().Malformed)
	})
}
