package world

import (
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewStateDefaults(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	snap := s.Snapshot()
	assert.Equal(t, int64(0), snap.Tick)
	assert.Equal(t, Overworld, snap.Player.Dimension)
	assert.Equal(t, 20.0, snap.Player.Health)
	assert.Len(t, snap.Inventory.Slots, 36)
	assert.Equal(t, "stone_age", snap.TechState, "a fresh player with an empty inventory is at stone_age")
	assert.Empty(t, snap.Entities)
	assert.Empty(t, snap.Machines)
	assert.True(t, snap.BlockAt(Pos(0, 64, 0)).IsAir())
	assert.Same(t, rules.Default().IDs, s.Resolver().IDs())
	assert.Equal(t, uint64(0), s.Version())
}

func TestStateUpdateAndSnapshot(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	s.Update(func(tx *Tx) {
		tx.SetTick(100)
		tx.AdvanceTick(5)
		assert.Equal(t, int64(105), tx.Tick())
		require.NoError(t, tx.SetBlock(Pos(3, 64, 3), "minecraft:log", 0))
		assert.Error(t, tx.SetBlock(Pos(3, 65, 3), "mod:unknown", 0))
		tx.SetState(Pos(3, 63, 3), chunk.MakeState(2, 0))
		assert.Equal(t, "minecraft:log", tx.BlockAt(Pos(3, 64, 3)).ID)
		assert.Equal(t, chunk.MakeState(2, 0), tx.StateAt(Pos(3, 63, 3)))
		tx.MovePlayer(Vec3{X: 3.5, Y: 65, Z: 5.5})
		tx.SetHealth(15, 18)
		require.NoError(t, tx.SetSlot(0, NewTool("minecraft:stone_axe", 0, 100, 131)))
		require.NoError(t, tx.SetSlot(1, NewStack("gregtech:gt.metaitem.01", 11300, 3)))
		assert.Error(t, tx.SetSlot(36, NewStack("minecraft:dirt", 0, 1)))
		require.NoError(t, tx.SetHeld(0))
		assert.Error(t, tx.SetHeld(9))
		tx.PutEntity(Entity{ID: 7, Kind: EntityItem, Pos: Vec3{X: 4, Y: 64, Z: 4}, Item: &ItemStack{ID: "minecraft:sapling", Count: 1}})
		tx.PutEntity(Entity{ID: 2, Kind: EntityMob, Name: "zombie"})
		tx.PutMachine(Machine{Kind: MachineCokeOven, Pos: Pos(10, 64, 10), Formed: true, Slots: map[string]ItemStack{"input": NewStack("minecraft:coal", 0, 8)}})
		tx.PutMachine(Machine{Kind: MachineChest, Pos: Pos(-2, 64, 10)})
		assert.Equal(t, 1, tx.Columns())
		assert.Equal(t, 2, tx.Entities())
	})
	snap := s.Snapshot()
	assert.Equal(t, int64(105), snap.Tick)
	assert.Equal(t, Pos(3, 65, 5), snap.Feet())
	assert.Equal(t, 15.0, snap.Player.Health)
	assert.Equal(t, 18.0, snap.Player.Food)
	assert.Equal(t, "minecraft:stone_axe", snap.Inventory.HeldStack().ID)
	assert.Equal(t, "steam_age", snap.TechState, "bronze ingots are steam-age evidence")
	assert.Equal(t, []int{2, 7}, []int{snap.Entities[0].ID, snap.Entities[1].ID}, "entities sorted by id")
	require.Len(t, snap.Machines, 2)
	assert.Equal(t, Pos(-2, 64, 10), snap.Machines[0].Pos, "machines sorted by position (Y, Z, X)")
	assert.Equal(t, 8, snap.Machines[1].Slot("input").Count)
	hits := snap.NearestBlocks(8, 1, "log")
	require.Len(t, hits, 1)
	assert.Equal(t, Pos(3, 64, 3), hits[0].Pos)
	assert.True(t, hits[0].Block.HasTag("tree"))
	_, err := json.Marshal(snap)
	assert.NoError(t, err)

	v := s.Version()
	assert.Positive(t, v)
	s.Update(func(tx *Tx) {
		tx.SetState(Pos(3, 64, 3), chunk.MakeState(17, 0)) // unchanged
		tx.SetTick(105)                                    // unchanged
		assert.False(t, tx.RemoveEntity(99))
		assert.False(t, tx.RemoveMachine(Pos(0, 0, 0)))
		assert.False(t, tx.UnloadColumn(40, 40))
		tx.SetDimension(Overworld) // same dimension
	})
	assert.Equal(t, v, s.Version(), "no-op changes do not count")
}

func TestStateSnapshotsAreIsolated(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	slots := map[string]ItemStack{"fuel": NewStack("minecraft:coal", 0, 4)}
	s.Update(func(tx *Tx) {
		tx.SetState(Pos(0, 64, 0), chunk.MakeState(17, 0))
		tx.PutMachine(Machine{Kind: MachineSteamBoiler, Pos: Pos(1, 64, 0), Slots: slots})
		require.NoError(t, tx.SetSlot(0, NewStack("minecraft:log", 0, 1)))
		tx.PutEntity(Entity{ID: 1, Kind: EntityItem, Item: &ItemStack{ID: "minecraft:log", Count: 1}})
	})
	slots["fuel"] = ItemStack{} // the caller's map is not the state's
	before := s.Snapshot()

	s.Update(func(tx *Tx) {
		tx.SetState(Pos(0, 64, 0), chunk.AirState)
		m, ok := tx.Machine(Pos(1, 64, 0))
		require.True(t, ok)
		assert.Equal(t, 4, m.Slot("fuel").Count)
		m.Slots["fuel"] = NewStack("minecraft:coal", 0, 1)
		tx.PutMachine(m)
		require.NoError(t, tx.SetSlot(0, NewStack("minecraft:log", 0, 5)))
		e, ok := tx.Entity(1)
		require.True(t, ok)
		e.Item.Count = 9
		tx.PutEntity(e)
	})
	after := s.Snapshot()

	assert.Equal(t, "minecraft:log", before.BlockAt(Pos(0, 64, 0)).ID, "an old snapshot keeps its blocks")
	assert.True(t, after.BlockAt(Pos(0, 64, 0)).IsAir())
	assert.Equal(t, 4, before.Machines[0].Slot("fuel").Count)
	assert.Equal(t, 1, after.Machines[0].Slot("fuel").Count)
	assert.Equal(t, 1, before.Inventory.Slots[0].Count)
	assert.Equal(t, 5, after.Inventory.Slots[0].Count)
	assert.Equal(t, 1, before.Entities[0].Item.Count)
	assert.Equal(t, 9, after.Entities[0].Item.Count)

	// A reader scribbling on its snapshot does not reach the state.
	after.Inventory.Slots[0] = ItemStack{}
	after.Entities[0].ID = 1000
	again := s.Snapshot()
	assert.Equal(t, 5, again.Inventory.Slots[0].Count)
	assert.Equal(t, 1, again.Entities[0].ID)
}

func TestStateDimensionChangeDropsTheOldWorld(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	s.Update(func(tx *Tx) {
		tx.SetState(Pos(0, 64, 0), chunk.MakeState(1, 0))
		tx.PutEntity(Entity{ID: 1, Kind: EntityMob})
		tx.PutMachine(Machine{Kind: MachineChest, Pos: Pos(0, 65, 0)})
	})
	old := s.Snapshot()
	s.Update(func(tx *Tx) { tx.SetDimension(Nether) })
	snap := s.Snapshot()
	assert.Equal(t, Nether, snap.Player.Dimension)
	assert.True(t, snap.BlockAt(Pos(0, 64, 0)).IsAir())
	assert.Empty(t, snap.Entities)
	assert.Empty(t, snap.Machines)
	assert.Equal(t, "minecraft:stone", old.BlockAt(Pos(0, 64, 0)).ID)

	s.Update(func(tx *Tx) {
		tx.SetState(Pos(0, 64, 0), chunk.MakeState(87, 0))
		tx.SetPlayer(Player{Dimension: Overworld, Health: 20, Food: 20})
	})
	assert.True(t, s.Snapshot().BlockAt(Pos(0, 64, 0)).IsAir(), "SetPlayer into another dimension drops it too")
}

func TestStateTechFollowsEvidence(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	assert.Equal(t, "stone_age", s.Snapshot().TechState)
	s.Update(func(tx *Tx) { tx.PutMachine(Machine{Kind: MachineCokeOven, Pos: Pos(1, 1, 1), Formed: true}) })
	assert.Equal(t, "steam_age", s.Snapshot().TechState)
	s.Update(func(tx *Tx) { require.NoError(t, tx.SetSlot(3, NewStack("IC2:itemPartCircuit", 0, 1))) })
	assert.Equal(t, "lv", s.Snapshot().TechState)
	s.Update(func(tx *Tx) {
		tx.SetInventory(NewInventory())
		assert.True(t, tx.RemoveMachine(Pos(1, 1, 1)))
	})
	assert.Equal(t, "stone_age", s.Snapshot().TechState)
}

func TestStateIDMapChange(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	s.Update(func(tx *Tx) { tx.SetState(Pos(0, 0, 0), chunk.MakeState(1050, 1)) })
	assert.Equal(t, "unknown:1050", s.Snapshot().BlockAt(Pos(0, 0, 0)).ID)
	ids := rules.NewIDMap()
	require.NoError(t, ids.SetBlock(1050, "gregtech:gt.blockmachines"))
	s.Update(func(tx *Tx) {
		tx.SetIDMap(ids)
		assert.Same(t, ids, tx.Resolver().IDs())
	})
	b := s.Snapshot().BlockAt(Pos(0, 0, 0))
	assert.Equal(t, "gregtech:gt.blockmachines", b.ID)
	assert.True(t, b.HasTag("gregtech_machine"))
	assert.False(t, b.HasTag("steam_boiler"), "the metadata is a tool type, not the machine")
	assert.True(t, ids.Frozen())
}

func TestStateTxAfterUpdatePanics(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	var kept *Tx
	s.Update(func(tx *Tx) { kept = tx })
	assert.Panics(t, func() { kept.SetTick(3) })
	assert.Panics(t, func() { s.Update(func(*Tx) { panic("boom") }) })
	assert.NotPanics(t, func() { s.Update(func(tx *Tx) { tx.SetTick(1) }) }, "a panicking Update releases the lock")
}

func TestStateLoadColumnsAndSections(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	w := sharedWorld()
	s.Update(func(tx *Tx) {
		for bx := 0; bx < 2; bx++ {
			tx.LoadColumn(benchColumn(w, bx, 0, bx, 0))
		}
		tx.SetSection(5, 1, 5, chunk.NewUniformSection(chunk.MakeState(1, 0)))
		assert.Equal(t, 3, tx.Columns())
		assert.True(t, tx.UnloadColumn(5, 5))
	})
	snap := s.Snapshot()
	chunks := snap.Blocks.(*chunk.Chunks)
	assert.Equal(t, 2, chunks.Columns())
	assert.Equal(t, "minecraft:bedrock", snap.BlockAt(Pos(17, 0, 3)).ID)
}

// TestStateConcurrentWritersAndReaders runs one writer and several readers
// (meant for go test -race). The writer keeps an invariant inside every
// transaction: at tick t exactly one block of a 32-block row is a log, at
// x = t % 32, and inventory slot 0 holds t % 64 + 1 logs. Every snapshot must
// show the invariant for its own tick, and must still show it when read
// again after the writer has moved on.
func TestStateConcurrentWritersAndReaders(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	const row = 32
	s.Update(func(tx *Tx) {
		tx.SetState(Pos(0, 70, 0), chunk.MakeState(17, 0))
		require.NoError(t, tx.SetSlot(0, NewStack("minecraft:log", 0, 1)))
		for x := 0; x < 64; x++ {
			tx.SetState(Pos(x, 60, -x), chunk.MakeState(1, 0)) // ground spanning several columns
		}
	})
	check := func(snap *Snapshot) error {
		want := int(snap.Tick % row)
		logs := 0
		for x := 0; x < row; x++ {
			if snap.BlockAt(Pos(x, 70, 0)).ID == "minecraft:log" {
				logs++
				if x != want {
					return fmt.Errorf("tick %d: log at x=%d, want %d", snap.Tick, x, want)
				}
			}
		}
		if logs != 1 {
			return fmt.Errorf("tick %d: %d logs in the row", snap.Tick, logs)
		}
		if got := snap.Inventory.Slots[0].Count; got != int(snap.Tick%64)+1 {
			return fmt.Errorf("tick %d: slot 0 holds %d", snap.Tick, got)
		}
		hits := snap.Blocks.Nearest(Pos(0, 70, 0), row, 1, func(b Block) bool { return b.HasTag("log") })
		if len(hits) != 1 || hits[0].Pos != Pos(want, 70, 0) {
			return fmt.Errorf("tick %d: nearest log %v", snap.Tick, hits)
		}
		return nil
	}

	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer done.Store(true)
		for i := 0; i < 3000; i++ {
			s.Update(func(tx *Tx) {
				t0 := tx.Tick()
				tx.SetState(Pos(int(t0%row), 70, 0), chunk.AirState)
				tx.AdvanceTick(1)
				t1 := tx.Tick()
				tx.SetState(Pos(int(t1%row), 70, 0), chunk.MakeState(17, 0))
				_ = tx.SetSlot(0, NewStack("minecraft:log", 0, int(t1%64)+1))
				tx.PutEntity(Entity{ID: int(t1 % 5), Kind: EntityMob, Pos: Vec3{X: float64(t1), Y: 64, Z: 0}})
				if t1%7 == 0 {
					tx.PutMachine(Machine{Kind: MachineChest, Pos: Pos(int(t1%9), 64, 3)})
				}
			})
		}
	}()
	errs := make(chan error, 16)
	for r := 0; r < 3; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var kept []*Snapshot
			for n := 0; !done.Load() || n < 50; n++ {
				snap := s.Snapshot()
				if err := check(snap); err != nil {
					errs <- err
					return
				}
				if n%20 == 0 {
					kept = append(kept, snap)
				}
			}
			for _, snap := range kept {
				if err := check(snap); err != nil {
					errs <- fmt.Errorf("re-reading an old snapshot: %w", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assert.Equal(t, int64(3000), s.Snapshot().Tick)
}

// TestUnloadColumnDropsItsMachinesAndTags: unloading a column drops the
// machines and position tags inside it, and only those; a snapshot taken
// before keeps them.
func TestUnloadColumnDropsItsMachinesAndTags(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	w := sharedWorld()
	in, out := Pos(5, 1, 5), Pos(21, 1, 5) // columns (0, 0) and (1, 0)
	s.Update(func(tx *Tx) {
		tx.LoadColumn(benchColumn(w, 0, 0, 0, 0))
		tx.LoadColumn(benchColumn(w, 1, 0, 1, 0))
		for _, p := range []BlockPos{in, out} {
			tx.PutMachine(Machine{Kind: MachineSteamBoiler, Pos: p, Formed: true})
			tx.SetBlockTags(p, []string{"ore:oreCopper"})
		}
	})
	before := s.Snapshot()
	s.Update(func(tx *Tx) {
		assert.True(t, tx.UnloadColumn(0, 0))
		_, ok := tx.Machine(in)
		assert.False(t, ok, "the unloaded column's machine")
		_, ok = tx.Machine(out)
		assert.True(t, ok, "another column's machine")
		assert.False(t, tx.UnloadColumn(0, 0), "already unloaded")
	})
	after := s.Snapshot()
	require.Len(t, after.Machines, 1)
	assert.Equal(t, out, after.Machines[0].Pos)
	// The tag at in is gone: loading the same column again does not bring
	// it back.
	s.Update(func(tx *Tx) { tx.LoadColumn(benchColumn(w, 0, 0, 0, 0)) })
	again := s.Snapshot()
	assert.NotContains(t, again.BlockAt(in).Tags, "ore:oreCopper")
	assert.Contains(t, again.BlockAt(out).Tags, "ore:oreCopper")
	assert.Len(t, before.Machines, 2, "the earlier snapshot is unchanged")
	assert.Contains(t, before.BlockAt(in).Tags, "ore:oreCopper")
}

// TestUnloadColumnTagsOnlyThere: the column's tags go when they are the
// only ones; a machine or tag kept at a position whose column was never
// loaded goes too, and the change is counted (Version) even though no
// column was unloaded.
func TestUnloadColumnTagsOnlyThere(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	w := sharedWorld()
	in := Pos(5, 1, 5) // column (0, 0)
	s.Update(func(tx *Tx) {
		tx.LoadColumn(benchColumn(w, 0, 0, 0, 0))
		tx.SetBlockTags(in, []string{"ore:oreCopper"})
	})
	s.Update(func(tx *Tx) { assert.True(t, tx.UnloadColumn(0, 0)) })
	s.Update(func(tx *Tx) { tx.LoadColumn(benchColumn(w, 0, 0, 0, 0)) })
	assert.NotContains(t, s.Snapshot().BlockAt(in).Tags, "ore:oreCopper", "the only tag, in the unloaded column")

	never := Pos(40, 1, 5) // column (2, 0), never loaded
	s.Update(func(tx *Tx) {
		tx.PutMachine(Machine{Kind: MachineSteamBoiler, Pos: never, Formed: true})
		tx.SetBlockTags(never, []string{"ore:oreTin"})
	})
	require.Len(t, s.Snapshot().Machines, 1)
	v := s.Version()
	s.Update(func(tx *Tx) { assert.False(t, tx.UnloadColumn(2, 0)) })
	assert.Greater(t, s.Version(), v, "the dropped machine and tag are a change")
	assert.Empty(t, s.Snapshot().Machines)

	s.Update(func(tx *Tx) { tx.SetBlockTags(never, []string{"ore:oreTin"}) })
	v = s.Version()
	s.Update(func(tx *Tx) { assert.False(t, tx.UnloadColumn(2, 0)) })
	assert.Greater(t, s.Version(), v, "a dropped tag alone is a change")
}

// TestTimeOfDayAndMobHealth: a snapshot carries the time of day and each
// mob's health, and setting the same time again is no change.
func TestTimeOfDayAndMobHealth(t *testing.T) {
	s := NewState(StateOptions{Rules: rules.Default()})
	s.Update(func(tx *Tx) {
		tx.SetTimeOfDay(18000)
		tx.PutEntity(Entity{ID: 7, Kind: EntityMob, Name: "zombie", Pos: Vec3{X: 1, Y: 64, Z: 2}, Health: 17})
	})
	snap := s.Snapshot()
	assert.Equal(t, int64(18000), snap.TimeOfDay)
	require.Len(t, snap.Entities, 1)
	assert.Equal(t, 17.0, snap.Entities[0].Health)
	v := s.Version()
	s.Update(func(tx *Tx) { tx.SetTimeOfDay(18000) })
	assert.Equal(t, v, s.Version(), "the same time again changes nothing")
	s.Update(func(tx *Tx) { tx.SetTimeOfDay(18001) })
	assert.NotEqual(t, v, s.Version())
}
