package loop

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// boilerWorld is a snapshot with one coal boiler holding water mB of water
// and steam mB of steam at temp °C.
func boilerWorld(water, steam int, temp float64) *world.Snapshot {
	return &world.Snapshot{
		Player:    world.Player{Dimension: "overworld"},
		TechState: "steam_age",
		Inventory: world.Inventory{Slots: []world.ItemStack{{ID: "minecraft:water_bucket", Count: 2}}},
		Machines: []world.Machine{{Kind: world.MachineSteamBoiler, Pos: world.Pos(13, 64, 2), Formed: true, Temperature: temp,
			Fluids: map[string]world.FluidTank{
				"water": {Fluid: "water", Amount: water, Capacity: 32000},
				"steam": {Fluid: "steam", Amount: steam, Capacity: 32000},
			}}},
	}
}

var boilerKinds = []string{world.MachineSteamBoiler}

// TestFingerprintIgnoresDrift: what a boiler's tanks and temperature do on
// their own between two steps (a few mB boiled, a degree gained, or the live
// client's bounds on them moving with the clock) does not lift a block.
func TestFingerprintIgnoresDrift(t *testing.T) {
	base := fingerprint(boilerWorld(32000, 5000, 20), boilerKinds)
	for name, w := range map[string]*world.Snapshot{
		"water 1 mB lower":     boilerWorld(31999, 5000, 20),
		"water 499 mB lower":   boilerWorld(31501, 5000, 20),
		"steam 400 mB higher":  boilerWorld(32000, 5400, 20),
		"a degree warmer":      boilerWorld(32000, 5000, 21),
		"at 100 °C, not above": boilerWorld(32000, 5000, 100),
		"progress and active flag": func() *world.Snapshot {
			w := boilerWorld(32000, 5000, 20)
			w.Machines[0].Progress, w.Machines[0].Active = 0.5, true
			return w
		}(),
	} {
		assert.Equal(t, base, fingerprint(w, boilerKinds), name)
	}
}

// TestFingerprintSeesRealChanges: a bucket in or out, the first water in an
// empty tank, a boiler passing 100 °C or the next band, contents becoming
// unknown, a slot, or any machine field but the excluded ones changes it.
func TestFingerprintSeesRealChanges(t *testing.T) {
	base := fingerprint(boilerWorld(32000, 5000, 20), boilerKinds)
	changed := map[string]*world.Snapshot{
		"a bucket less":      boilerWorld(31000, 5000, 20),
		"half a bucket less": boilerWorld(31499, 5000, 20),
		"a bucket of steam":  boilerWorld(32000, 6000, 20),
		"above 100 °C":       boilerWorld(32000, 5000, 100.5),
		"at 0 °C":            boilerWorld(32000, 5000, 0),
		"a capacity": func() *world.Snapshot {
			w := boilerWorld(32000, 5000, 20)
			w.Machines[0].Fluids["water"] = world.FluidTank{Fluid: "water", Amount: 32000, Capacity: 16000}
			return w
		}(),
		"another fluid": func() *world.Snapshot {
			w := boilerWorld(32000, 5000, 20)
			w.Machines[0].Fluids["water"] = world.FluidTank{Fluid: "lava", Amount: 32000, Capacity: 32000}
			return w
		}(),
		"contents unknown": func() *world.Snapshot {
			w := boilerWorld(32000, 5000, 20)
			w.Machines[0].ContentsUnknown = true
			return w
		}(),
		"no longer formed": func() *world.Snapshot { w := boilerWorld(32000, 5000, 20); w.Machines[0].Formed = false; return w }(),
		"a tier":           func() *world.Snapshot { w := boilerWorld(32000, 5000, 20); w.Machines[0].Tier = "lv"; return w }(),
		"a facing":         func() *world.Snapshot { w := boilerWorld(32000, 5000, 20); w.Machines[0].Facing = "north"; return w }(),
		"moved": func() *world.Snapshot {
			w := boilerWorld(32000, 5000, 20)
			w.Machines[0].Pos = world.Pos(14, 64, 2)
			return w
		}(),
		"a fuel slot": func() *world.Snapshot {
			w := boilerWorld(32000, 5000, 20)
			w.Machines[0].Slots = map[string]world.ItemStack{"fuel": {ID: "minecraft:coal", Count: 1}}
			return w
		}(),
		"a bucket used": func() *world.Snapshot { w := boilerWorld(32000, 5000, 20); w.Inventory.Slots[0].Count = 1; return w }(),
		"another kind of tank": func() *world.Snapshot {
			w := boilerWorld(32000, 5000, 20)
			w.Machines[0].Kind = world.MachineWaterTank
			return w
		}(),
	}
	for name, w := range changed {
		assert.NotEqual(t, base, fingerprint(w, boilerKinds), name)
	}
	// Two tanks of 300 and 0 mB differ by whether they hold any.
	assert.NotEqual(t, fingerprint(boilerWorld(0, 5000, 20), boilerKinds), fingerprint(boilerWorld(300, 5000, 20), boilerKinds))
	// The next band up: 101–200 °C against 201–300 °C.
	assert.NotEqual(t, fingerprint(boilerWorld(32000, 5000, 200), boilerKinds), fingerprint(boilerWorld(32000, 5000, 201), boilerKinds))
	assert.Equal(t, fingerprint(boilerWorld(32000, 5000, 101), boilerKinds), fingerprint(boilerWorld(32000, 5000, 200), boilerKinds))
}

// TestFingerprintCoversEveryMachineField: a field added to world.Machine is
// either in a machine's part of the fingerprint or named here as left out
// on purpose; a new field must not be ignored by accident.
func TestFingerprintCoversEveryMachineField(t *testing.T) {
	printed := map[string]string{"Kind": "Kind", "Pos": "Pos", "Formed": "Formed", "Tier": "Tier", "Facing": "Facing",
		"ContentsUnknown": "Unknown", "Slots": "Slots", "Fluids": "Tanks", "Temperature": "Heat"}
	leftOut := map[string]bool{"Active": true, "Progress": true}
	mt, pt := reflect.TypeOf(world.Machine{}), reflect.TypeOf(machinePrint{})
	for i := range mt.NumField() {
		f := mt.Field(i).Name
		if leftOut[f] {
			continue
		}
		p, ok := printed[f]
		if assert.True(t, ok, "world.Machine.%s is neither fingerprinted nor left out on purpose", f) {
			_, ok := pt.FieldByName(p)
			assert.True(t, ok, "machinePrint has no %s for world.Machine.%s", p, f)
		}
	}
}

// TestFingerprintSeesThePlayersPlaceAndTier: the player's dimension and
// the tech tier are part of what a retry depends on (a portal taken, a
// tier reached), so either changing lifts a block.
func TestFingerprintSeesThePlayersPlaceAndTier(t *testing.T) {
	base := fingerprint(boilerWorld(32000, 5000, 20), boilerKinds)
	nether := boilerWorld(32000, 5000, 20)
	nether.Player.Dimension = "nether"
	assert.NotEqual(t, base, fingerprint(nether, boilerKinds), "another dimension")
	lv := boilerWorld(32000, 5000, 20)
	lv.TechState = "lv"
	assert.NotEqual(t, base, fingerprint(lv, boilerKinds), "another tier")
}

// TestFingerprintSeesAMachinesKind: a machine at the same place that is
// now of another kind the invocation looks at (the block replaced) changes
// the fingerprint, even when all else about it reads the same.
func TestFingerprintSeesAMachinesKind(t *testing.T) {
	kinds := []string{world.MachineSteamBoiler, world.MachineWaterTank} // sorted, as relevantKinds gives them
	boiler := boilerWorld(32000, 5000, 20)
	tank := boilerWorld(32000, 5000, 20)
	tank.Machines[0].Kind = world.MachineWaterTank
	assert.NotEqual(t, fingerprint(boiler, kinds), fingerprint(tank, kinds))
}

// TestFingerprintSeesTheFirstMillibucket: "whether it holds any" is any
// amount above zero, the least a tank can hold included.
func TestFingerprintSeesTheFirstMillibucket(t *testing.T) {
	assert.NotEqual(t, fingerprint(boilerWorld(0, 5000, 20), boilerKinds), fingerprint(boilerWorld(1, 5000, 20), boilerKinds))
}

// TestFingerprintKeysTanksByName: a machine's tanks count by their names,
// not their fluids: a bucket moved from one tank to another (an input to an
// output, the first now empty) changes the fingerprint.
func TestFingerprintKeysTanksByName(t *testing.T) {
	tanks := func(in, out world.FluidTank) *world.Snapshot {
		w := boilerWorld(0, 0, 20)
		w.Machines[0].Fluids = map[string]world.FluidTank{"input": in, "output": out}
		return w
	}
	water, empty := world.FluidTank{Fluid: "water", Amount: 1000, Capacity: 8000}, world.FluidTank{Capacity: 8000}
	assert.NotEqual(t, fingerprint(tanks(water, empty), boilerKinds), fingerprint(tanks(empty, water), boilerKinds),
		"the bucket moved from the input to the output")
}
