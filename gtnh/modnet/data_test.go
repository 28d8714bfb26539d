package modnet

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func defaultData(t *testing.T) *Data {
	t.Helper()
	d, err := DefaultData()
	require.NoError(t, err)
	return d
}

func TestDefaultDataMachines(t *testing.T) {
	d := defaultData(t)
	for _, tc := range []struct {
		id            int
		kind, variant string
	}{
		{100, world.MachineSteamBoiler, "small_coal_boiler"},
		{101, world.MachineSteamBoiler, "high_pressure_coal_boiler"},
		{102, world.MachineSteamBoiler, "high_pressure_lava_boiler"},
		{105, world.MachineSteamBoiler, "simple_solar_boiler"},
		{114, world.MachineSteamBoiler, "high_pressure_solar_boiler"},
		{1020, "large_boiler", "large_bronze_boiler"},
	} {
		m, ok := d.Machine(tc.id)
		require.True(t, ok, tc.id)
		assert.Equal(t, tc.kind, m.Kind, tc.id)
		assert.Equal(t, tc.variant, m.Variant, tc.id)
	}
	_, ok := d.Machine(108) // no machine has this id
	assert.False(t, ok)
}

func TestOreName(t *testing.T) {
	d := defaultData(t)
	for _, tc := range []struct {
		ore  Ore
		want string
	}{
		{Ore{Material: 35}, "ore:oreCopper"},
		{Ore{Material: 32}, "ore:oreIron"},
		{Ore{Material: 57}, "ore:oreTin"},
		{Ore{Material: 824}, "ore:oreCassiterite"},
		{Ore{Material: 35, Stone: StoneNetherrack}, "ore:oreNetherrackCopper"},
		{Ore{Material: 35, Stone: StoneEndstone}, "ore:oreEndstoneCopper"},
		{Ore{Material: 35, Stone: StoneBlackGranite}, "ore:oreBlackgraniteCopper"},
		{Ore{Material: 35, Stone: StoneRedGranite}, "ore:oreRedgraniteCopper"},
		{Ore{Material: 35, Stone: StoneMarble}, "ore:oreMarbleCopper"},
		{Ore{Material: 35, Stone: StoneBasalt}, "ore:oreBasaltCopper"},
		{Ore{Material: 35, Small: true}, "ore:oreSmallCopper"},
		{Ore{Material: 35, Stone: StoneNetherrack, Small: true}, "ore:oreSmallCopper"},
		{Ore{Material: 535}, "ore:oreCoal"},
		{Ore{Material: 810}, "ore:oreRedstone"},
	} {
		got, err := d.OreName(tc.ore)
		require.NoError(t, err, tc.ore)
		assert.Equal(t, tc.want, got, tc.ore)
	}
	_, err := d.OreName(Ore{Material: 998})
	assert.ErrorIs(t, err, ErrUnknownOre)
	_, err = d.OreName(Ore{Material: 35, Stone: 9})
	assert.ErrorIs(t, err, ErrUnknownOre)
	_, err = d.OreName(Ore{Material: 35, Stone: 9, Small: true})
	assert.ErrorIs(t, err, ErrUnknownOre, "a small ore on an unknown stone is unknown too")

	// The ore names come from ORES messages end to end.
	u, err := DecodeOres(encOres(OreUpdate{X: 1, Y: 2, Z: 3, Ore: Ore{Material: 35, Small: true}}))
	require.NoError(t, err)
	name, err := d.OreName(u.Ore)
	require.NoError(t, err)
	assert.Equal(t, "ore:oreSmallCopper", name)
}

func TestContainerLayouts(t *testing.T) {
	d := defaultData(t)

	oven, ok := d.LayoutForOpenGui(OpenGui{WindowID: 1, ModID: "Railcraft", GuiID: 17})
	require.True(t, ok)
	assert.Equal(t, world.MachineCokeOven, oven.Machine)
	assert.Equal(t, 40, oven.Size)
	for name, want := range map[string]int{"input": 0, "output": 1, "container_output": 2, "container_input": 3} {
		got, ok := oven.Slot(name)
		require.True(t, ok, name)
		assert.Equal(t, want, got, name)
	}
	assert.Equal(t, SlotRange{First: 4, Count: 27}, oven.Slots["player_main"])
	assert.Equal(t, SlotRange{First: 31, Count: 9}, oven.Slots["player_hotbar"])
	assert.Equal(t, 10, oven.Properties["cook_time"])
	assert.Equal(t, 11, oven.Properties["cook_time_total"])
	name, tank, ok := oven.TankForGuiInteger(1)
	require.True(t, ok, "the creosote amount is GUI_INTEGER 1 (TankManager, tank 0)")
	assert.Equal(t, "creosote", name)
	assert.Equal(t, TankSpec{GuiInteger: 1, Capacity: 64000}, tank)
	_, _, ok = oven.TankForGuiInteger(2)
	assert.False(t, ok, "data id 2 is the colour")

	tankGui, ok := d.LayoutForOpenGui(OpenGui{ModID: "Railcraft", GuiID: 20})
	require.True(t, ok)
	assert.Equal(t, world.MachineWaterTank, tankGui.Machine)
	assert.Equal(t, 38, tankGui.Size)
	for name, want := range map[string]int{"input": 0, "output": 1} {
		got, ok := tankGui.Slot(name)
		require.True(t, ok, name)
		assert.Equal(t, want, got, name)
	}
	assert.Equal(t, SlotRange{First: 2, Count: 27}, tankGui.Slots["player_main"])
	assert.Equal(t, SlotRange{First: 29, Count: 9}, tankGui.Slots["player_hotbar"])
	name, tank, ok = tankGui.TankForGuiInteger(1)
	require.True(t, ok)
	assert.Equal(t, "water", name)
	assert.Equal(t, WaterTankCapacity, tank.Capacity)

	_, ok = oven.Slot("player_main")
	assert.False(t, ok, "a range is not a single slot")
	_, ok = oven.Slot("nope")
	assert.False(t, ok)

	boiler, ok := d.LayoutForGregTech(100)
	require.True(t, ok)
	assert.Equal(t, world.MachineSteamBoiler, boiler.Machine)
	assert.Equal(t, "modularui", boiler.Open.Mod)
	// The slot names are the skills' (skills/base feed_steam_boiler,
	// refill_water_tanks; the simulator's boiler).
	for name, want := range map[string]int{"fluid_in": 36, "fluid_out": 37, "fuel": 38, "ash": 39} {
		got, ok := boiler.Slot(name)
		require.True(t, ok, name)
		assert.Equal(t, want, got, name)
	}
	assert.Equal(t, 40, boiler.Size)
	_, ok = d.LayoutForGregTech(105)
	assert.False(t, ok, "the solar boiler has no fuel slot and no layout yet")

	for gui, size := range map[int32]int{0: 54, 1: 81, 2: 108, 3: 45, 4: 72, 5: 108, 6: 108, 7: 1, 8: 135} {
		c, ok := d.LayoutForOpenGui(OpenGui{ModID: "IronChest", GuiID: gui})
		require.True(t, ok, gui)
		assert.Equal(t, world.MachineChest, c.Machine)
		assert.Equal(t, SlotRange{First: 0, Count: size}, c.Slots["chest"], gui)
		assert.Equal(t, size+36, c.Size, gui)
	}
	_, ok = d.LayoutForOpenGui(OpenGui{ModID: "IronChest", GuiID: 9})
	assert.False(t, ok)
	_, ok = d.LayoutForOpenGui(OpenGui{ModID: "Railcraft", GuiID: 0})
	assert.False(t, ok)

	chest, ok := d.LayoutForWindow(0, 27)
	require.True(t, ok)
	assert.Equal(t, "vanilla_chest", chest.Kind)
	large, ok := d.LayoutForWindow(0, 54)
	require.True(t, ok)
	assert.Equal(t, 90, large.Size)
	_, ok = d.LayoutForWindow(2, 27)
	assert.False(t, ok)
}

// dataFS builds a file system with the shipped files, one of them replaced.
func dataFS(t *testing.T, name, content string) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	for _, f := range []string{GregTechFile, ContainersFile} {
		b, err := config.FS.ReadFile(f)
		require.NoError(t, err)
		fsys[f] = &fstest.MapFile{Data: b}
	}
	if name != "" {
		fsys[name] = &fstest.MapFile{Data: []byte(content)}
	}
	return fsys
}

const okGregTech = `machines:
  100: {kind: steam_boiler, variant: small_coal_boiler, name: Small Coal Boiler}
ores:
  stones: {0: ore}
  small_prefix: oreSmall
  materials: {35: Copper}
`

func TestLoadDataProblems(t *testing.T) {
	tests := []struct {
		name, file, content string
		want                []string // substrings, each in some problem
	}{
		{"unknown field", GregTechFile, okGregTech + "extra: 1\n", []string{"gregtech.yaml:7:1: extra: unknown field"}},
		{"machine id", GregTechFile, strings.Replace(okGregTech, "100:", "0:", 1), []string{"machines.0: key must be an integer in 1..32767"}},
		{"machine id text", GregTechFile, strings.Replace(okGregTech, "100:", "boiler:", 1), []string{"machines.boiler: key must be an integer"}},
		{"machine fields", GregTechFile, strings.Replace(okGregTech, "{kind: steam_boiler, ", "{", 1), []string{"machines.100.kind: required field is missing"}},
		{"kind word", GregTechFile, strings.Replace(okGregTech, "kind: steam_boiler", "kind: Steam Boiler", 1), []string{"machines.100.kind: \"Steam Boiler\" is not a lower_snake_case name"}},
		{"stone index", GregTechFile, strings.Replace(okGregTech, "{0: ore}", "{16: ore}", 1), []string{"ores.stones.16: key must be an integer in 0..15", "ores.stones: no stones"}},
		{"stone prefix", GregTechFile, strings.Replace(okGregTech, "{0: ore}", "{0: stone}", 1), []string{"ores.stones.0: ore dictionary prefix \"stone\""}},
		{"small prefix", GregTechFile, strings.Replace(okGregTech, "small_prefix: oreSmall", "small_prefix: small", 1), []string{"ores.small_prefix: ore dictionary prefix"}},
		{"other stones prefix", GregTechFile, strings.Replace(okGregTech, "small_prefix: oreSmall", "small_prefix: oreSmall\n  other_stones_prefix: moon", 1), []string{"ores.other_stones_prefix: ore dictionary prefix \"moon\""}},
		{"material id", GregTechFile, strings.Replace(okGregTech, "{35: Copper}", "{1000: Copper}", 1), []string{"ores.materials.1000: key must be an integer in 1..999", "ores.materials: no materials"}},
		{"material name", GregTechFile, strings.Replace(okGregTech, "{35: Copper}", "{35: \"Copper Ore\"}", 1), []string{"must be one word"}},
		{"ores missing", GregTechFile, "machines: {}\n", []string{": ores: required field is missing"}},
		{"syntax", GregTechFile, "machines: [\n", []string{"gregtech.yaml"}},
		{"empty", ContainersFile, "", []string{"containers.yaml: empty file"}},
		{"slot gap", ContainersFile, `containers:
  c:
    machine: chest
    open: {mod: M, gui: 1}
    slots: {a: {first: 0}, b: {first: 2}}
`, []string{"containers.c.slots.b: slots 1..1 are not named"}},
		{"slot overlap", ContainersFile, `containers:
  c:
    machine: chest
    open: {mod: M, gui: 1}
    slots: {a: {first: 0, count: 3}, b: {first: 2}}
`, []string{"containers.c.slots.b: slot 2 is already named"}},
		{"slot range", ContainersFile, `containers:
  c:
    machine: chest
    open: {mod: M, gui: 1}
    slots: {a: {first: 0, count: 0}, b: {first: -1}, d: {count: 2}}
`, []string{"containers.c.slots.a: first 0 and count 0", "containers.c.slots.b: first -1", "containers.c.slots.d.first: required field is missing"}},
		{"duplicate gui", ContainersFile, `containers:
  a: {machine: chest, open: {mod: M, gui: 1}, slots: {x: {first: 0}}}
  b: {machine: chest, open: {mod: M, gui: 1}, slots: {x: {first: 0}}}
`, []string{"containers.b.open: mod M gui 1 already opens a"}},
		{"unknown machine", ContainersFile, `containers:
  a: {machine: steam_boiler, open: {mod: modularui, gregtech_machines: [999]}, slots: {x: {first: 0}}}
`, []string{"containers.a.open.gregtech_machines: machine 999 is not in gregtech.yaml"}},
		{"duplicate machine", ContainersFile, `containers:
  a: {machine: steam_boiler, open: {mod: modularui, gregtech_machines: [100]}, slots: {x: {first: 0}}}
  b: {machine: steam_boiler, open: {mod: modularui, gregtech_machines: [100]}, slots: {x: {first: 0}}}
`, []string{"machine 100 already opens a"}},
		{"open kinds mixed", ContainersFile, `containers:
  a: {machine: chest, open: {window_type: 0, size: 1, mod: M}, slots: {chest: {first: 0}}}
  b: {machine: chest, open: {mod: M, gui: 1, size: 3}, slots: {chest: {first: 0}}}
  c: {machine: chest, open: {mod: M}, slots: {chest: {first: 0}}}
  d: {machine: chest, open: {window_type: 0, size: 2}, slots: {chest: {first: 0}}}
  e: {machine: chest, open: {mod: modularui, gregtech_machines: [], size: 1}, slots: {chest: {first: 0}}}
`, []string{"containers.a.open: window_type excludes", "containers.b.open: gui excludes", "containers.c.open: needs mod and gui",
			"containers.d.open.size: size 2 must be the count of the chest slots", "containers.e.open: gregtech_machines excludes size",
			"containers.e.open.gregtech_machines: no machines"}},
		{"duplicate window", ContainersFile, `containers:
  a: {machine: chest, open: {window_type: 0, size: 1}, slots: {chest: {first: 0}}}
  b: {machine: chest, open: {window_type: 0, size: 1}, slots: {chest: {first: 0}}}
`, []string{"containers.b.open: window type 0 with size 1 already opens a"}},
		{"property", ContainersFile, `containers:
  a: {machine: chest, open: {mod: M, gui: 1}, slots: {x: {first: 0}}, properties: {p: -1, q: x}}
`, []string{"containers.a.properties.p: window property -1", "containers.a.properties.q: expected an integer"}},
		{"tanks", ContainersFile, `containers:
  a: {machine: chest, open: {mod: M, gui: 1}, slots: {x: {first: 0}}, tanks: {water: {gui_integer: 256, capacity: 0}, Oil: {gui_integer: 1}}}
  b: {machine: chest, open: {mod: M, gui: 2}, slots: {x: {first: 0}}, tanks: {a: {gui_integer: 1, capacity: 5}, b: {gui_integer: 1, capacity: 5}, c: {gui_integer: -1, capacity: 5, x: 1}}}
`, []string{"containers.a.tanks.water.gui_integer: data id 256 outside 0..255", "containers.a.tanks.water.capacity: capacity 0 mB",
			"containers.a.tanks.Oil.capacity: required field is missing", "containers.a.tanks.Oil: \"Oil\" is not a lower_snake_case name",
			"containers.b.tanks.b.gui_integer: data id 1 already carries a", "containers.b.tanks.c.gui_integer: data id -1", "containers.b.tanks.c.x: unknown field"}},
		{"machine required", ContainersFile, `containers:
  a: {open: {mod: M, gui: 1}, slots: {x: {first: 0}}}
  b: {machine: chest, open: {mod: M, gui: 2}, slots: {}}
`, []string{"containers.a.machine: required field is missing", "containers.b.slots: no slots"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadData(dataFS(t, tc.file, tc.content))
			require.Error(t, err)
			var es strictyaml.Errors
			require.True(t, errors.As(err, &es), "%T %v", err, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}

	// Problems in both files are reported together.
	fsys := dataFS(t, GregTechFile, okGregTech+"extra: 1\n")
	fsys[ContainersFile] = &fstest.MapFile{Data: []byte("containers: {a: {machine: chest, open: {mod: M, gui: 1}, slots: {x: {first: 1}}}}\n")}
	_, err := LoadData(fsys)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "gregtech.yaml")
	assert.Contains(t, err.Error(), "containers.yaml")

	_, err = LoadData(fstest.MapFS{})
	assert.ErrorContains(t, err, "modnet data")
}
