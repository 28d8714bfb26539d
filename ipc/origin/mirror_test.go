package origin

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// mirrorWorld is a small state: two columns of ground at y 0..3, the
// player standing on it in column (0, 0).
func mirrorWorld(t *testing.T) *world.State {
	st := world.NewState(world.StateOptions{Rules: rules.Default()})
	st.Update(func(tx *world.Tx) {
		for x := 0; x < 32; x++ {
			for z := 0; z < 16; z++ {
				for y := 0; y < 4; y++ {
					require.NoError(t, tx.SetBlock(world.Pos(x, y, z), "minecraft:stone", 0))
				}
			}
		}
		tx.SetPlayer(world.Player{Pos: world.Vec3{X: 4.5, Y: 4, Z: 4.5}, Dimension: world.Overworld, Health: 20, Food: 20})
		tx.SetInventory(world.NewInventory(world.NewStack("minecraft:dirt", 0, 3)))
	})
	return st
}

func outTypes(out []Out) []string {
	s := make([]string, len(out))
	for i, o := range out {
		s[i] = o.Type
	}
	return s
}

func TestMirrorFullThenNothing(t *testing.T) {
	st := mirrorWorld(t)
	m := newMirror(1)
	out := m.update(st.Snapshot())
	assert.Equal(t, []string{TypeDimensionChange, TypeTimeUpdate, TypePositionUpdate, TypeWindowItems, TypeChunkData, TypeChunkData}, outTypes(out))
	assert.Equal(t, PositionUpdate{X: 4.5, Y: 4, Z: 4.5, OnGround: true}, out[2].Payload)
	assert.Empty(t, m.update(st.Snapshot()), "nothing changed, nothing sent")

	m.reset()
	assert.Len(t, m.update(st.Snapshot()), 6, "after a reset everything again")
}

func TestMirrorChunks(t *testing.T) {
	st := mirrorWorld(t)
	m := newMirror(1)
	m.update(st.Snapshot())
	st.Update(func(tx *world.Tx) { require.NoError(t, tx.SetBlock(world.Pos(20, 2, 3), "minecraft:log", 1)) })
	out := m.update(st.Snapshot())
	require.Equal(t, []string{TypeChunkData}, outTypes(out), "only the changed column")
	cd := out[0].Payload.(ChunkData)
	assert.Equal(t, 1, cd.ChunkX)
	assert.Equal(t, PaletteEntry{ID: "minecraft:log", Meta: 1}, blockIn(t, cd, world.Pos(20, 2, 3)))
	assert.Equal(t, PaletteEntry{ID: "minecraft:stone"}, blockIn(t, cd, world.Pos(21, 2, 3)))
	assert.Equal(t, PaletteEntry{ID: "minecraft:air"}, cd.Blocks.Palette[0])
	assert.Nil(t, cd.Blocks.Sections[1], "an all-air section is null")
	assert.Nil(t, cd.Biomes)

	// Walking out of range forgets a column; coming back sends it again.
	m.radius = 0
	st.Update(func(tx *world.Tx) { tx.MovePlayer(world.Vec3{X: 20.5, Y: 4, Z: 4.5}) })
	out = m.update(st.Snapshot())
	assert.Equal(t, []string{TypePositionUpdate}, outTypes(out), "column (1, 0) was sent already")
	st.Update(func(tx *world.Tx) { tx.MovePlayer(world.Vec3{X: 4.5, Y: 4, Z: 4.5}) })
	out = m.update(st.Snapshot())
	require.Equal(t, []string{TypePositionUpdate, TypeChunkData}, outTypes(out))
	assert.Equal(t, 0, out[1].Payload.(ChunkData).ChunkX)
}

func TestMirrorInventory(t *testing.T) {
	st := mirrorWorld(t)
	m := newMirror(0)
	m.update(st.Snapshot())
	st.Update(func(tx *world.Tx) {
		require.NoError(t, tx.SetSlot(0, world.NewStack("minecraft:dirt", 0, 2)))
		require.NoError(t, tx.SetSlot(9, world.NewTool("minecraft:iron_axe", 0, 200, 250)))
	})
	out := m.update(st.Snapshot())
	assert.Equal(t, []Out{
		{Type: TypeSetSlot, Payload: SetSlot{Slot: 0, Item: &Item{ID: "minecraft:dirt", Count: 2}}},
		{Type: TypeSetSlot, Payload: SetSlot{Slot: 9, Item: &Item{ID: "minecraft:iron_axe", Count: 1, Damage: 50, MaxDamage: 250}}},
	}, out)
	st.Update(func(tx *world.Tx) { require.NoError(t, tx.SetSlot(0, world.ItemStack{})) })
	assert.Equal(t, []Out{{Type: TypeSetSlot, Payload: SetSlot{Slot: 0}}}, m.update(st.Snapshot()), "an emptied slot is null")

	// Many slots, or the held slot, change: one window_items.
	st.Update(func(tx *world.Tx) {
		for i := 20; i < 20+setSlotLimit; i++ {
			require.NoError(t, tx.SetSlot(i, world.NewStack("minecraft:cobblestone", 0, 64)))
		}
	})
	out = m.update(st.Snapshot())
	require.Equal(t, []string{TypeWindowItems}, outTypes(out))
	w := out[0].Payload.(WindowItems)
	assert.Len(t, w.Items, 36)
	assert.Equal(t, &Item{ID: "minecraft:cobblestone", Count: 64}, w.Items[20])
	st.Update(func(tx *world.Tx) { require.NoError(t, tx.SetHeld(3)) })
	out = m.update(st.Snapshot())
	require.Equal(t, []string{TypeWindowItems}, outTypes(out))
	assert.Equal(t, 3, out[0].Payload.(WindowItems).Held)
}

func TestMirrorEntities(t *testing.T) {
	st := mirrorWorld(t)
	m := newMirror(0)
	st.Update(func(tx *world.Tx) {
		tx.PutEntity(world.Entity{ID: 5, Kind: world.EntityMob, Name: "Zombie", Pos: world.Vec3{X: 1, Y: 4, Z: 1}})
		tx.PutEntity(world.Entity{ID: 9, Kind: world.EntityItem, Pos: world.Vec3{X: 2, Y: 4, Z: 2}, Item: &world.ItemStack{ID: "minecraft:log", Count: 3}})
	})
	out := m.update(st.Snapshot())
	require.Equal(t, []string{TypeDimensionChange, TypeTimeUpdate, TypePositionUpdate, TypeWindowItems, TypeChunkData, TypeSpawnEntity, TypeSpawnEntity}, outTypes(out))
	assert.Equal(t, SpawnEntity{EntityID: 9, Kind: "item", X: 2, Y: 4, Z: 2, Item: &Item{ID: "minecraft:log", Count: 3}}, out[6].Payload)

	st.Update(func(tx *world.Tx) {
		tx.PutEntity(world.Entity{ID: 5, Kind: world.EntityMob, Name: "Zombie", Pos: world.Vec3{X: 1.5, Y: 4, Z: 1}})
		tx.RemoveEntity(9)
		tx.PutEntity(world.Entity{ID: 11, Kind: world.EntityPlayer, Name: "Steve", Pos: world.Vec3{X: 3, Y: 4, Z: 3}})
	})
	out = m.update(st.Snapshot())
	assert.Equal(t, []Out{
		{Type: TypeDestroyEntities, Payload: DestroyEntities{EntityIDs: []int{9}}},
		{Type: TypeSpawnEntity, Payload: SpawnEntity{EntityID: 5, Kind: "mob", Name: "Zombie", X: 1.5, Y: 4, Z: 1}},
		{Type: TypeSpawnEntity, Payload: SpawnEntity{EntityID: 11, Kind: "player", Name: "Steve", X: 3, Y: 4, Z: 3}},
	}, out, "a moved entity is announced again")
}

func TestMirrorDimensionChange(t *testing.T) {
	st := mirrorWorld(t)
	m := newMirror(0)
	st.Update(func(tx *world.Tx) {
		tx.PutEntity(world.Entity{ID: 5, Kind: world.EntityMob, Pos: world.Vec3{X: 1, Y: 4, Z: 1}})
	})
	m.update(st.Snapshot())
	st.Update(func(tx *world.Tx) {
		tx.SetDimension(world.Nether)
		require.NoError(t, tx.SetBlock(world.Pos(4, 3, 4), "minecraft:netherrack", 0))
		tx.PutEntity(world.Entity{ID: 5, Kind: world.EntityMob, Pos: world.Vec3{X: 1, Y: 4, Z: 1}})
	})
	out := m.update(st.Snapshot())
	require.Equal(t, []string{TypeDimensionChange, TypeChunkData, TypeSpawnEntity}, outTypes(out),
		"the new dimension's chunks and entities are sent even where ids and positions repeat")
	assert.Equal(t, DimensionChange{Dimension: world.Nether}, out[0].Payload)
}

func TestMirrorLook(t *testing.T) {
	m := newMirror(0)
	feet := world.Vec3{X: 0.5, Y: 64, Z: 0.5}
	m.lookAt(feet, world.Vec3{X: 0.5, Y: 64 + 1.62, Z: 5.5})
	assert.InDelta(t, 0, m.yaw, 1e-9, "+z is yaw 0")
	assert.InDelta(t, 0, m.pitch, 1e-9)
	m.lookAt(feet, world.Vec3{X: -4.5, Y: 64 + 1.62, Z: 0.5})
	assert.InDelta(t, 90, m.yaw, 1e-9, "-x is yaw 90")
	m.lookAt(feet, world.Vec3{X: 0.5, Y: 60, Z: 0.5})
	assert.InDelta(t, 90, m.pitch, 1e-9, "straight down is pitch 90")
	m.faceMove(feet, world.Vec3{X: 0.5, Y: 64, Z: -3})
	assert.InDelta(t, 180, m.yaw, 1e-9, "-z")
	assert.InDelta(t, 0, m.pitch, 1e-9)
}

func TestOutQueueCoalescesAndOverflows(t *testing.T) {
	ctx, cancel := testdeadline.WithCancel(t, "the queue's replies")
	defer cancel()
	q := newOutQueue(200, 2)
	for i := range 100 {
		require.True(t, q.event(Out{Type: TypeTimeUpdate, Payload: TimeUpdate{Tick: int64(i)}}))
		require.True(t, q.event(Out{Type: TypePositionUpdate, Payload: PositionUpdate{X: float64(i)}}))
	}
	require.NoError(t, q.reply(ctx, Out{Type: TypeActionResult, ID: []byte(`1`), Payload: ActionResult{Request: TypeMoveStep, Code: "ok"}}))
	line := func() string {
		b, err := q.next(ctx)
		require.NoError(t, err)
		return string(b)
	}
	assert.Equal(t, `{"type":"time_update","payload":{"tick":99}}`+"\n", line(), "only the newest time")
	assert.Contains(t, line(), `"x":99`)
	assert.Contains(t, line(), `"action_result"`, "the result follows the updates it led to")

	// Events past the budget are dropped, replies kept, a lagged notice
	// first.
	big := Out{Type: TypeDestroyEntities, Payload: DestroyEntities{EntityIDs: make([]int, 40)}}
	require.True(t, q.event(big))
	require.NoError(t, q.reply(ctx, Out{Type: TypeError, Payload: errorPayload{Code: BadRequest, Message: "m"}}))
	assert.False(t, q.event(big), "over the budget")
	need, ready := q.needResync()
	assert.True(t, need)
	assert.True(t, ready)
	assert.Equal(t, `{"type":"lagged","payload":{"dropped":2}}`+"\n", line())
	assert.Contains(t, line(), `"error"`)
	q.resynced()
	need, _ = q.needResync()
	assert.False(t, need)

	// Replies wait for room; an event never waits.
	require.NoError(t, q.reply(ctx, Out{Type: TypeError, Payload: errorPayload{}}))
	require.NoError(t, q.reply(ctx, Out{Type: TypeError, Payload: errorPayload{}}))
	short, cancelShort := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancelShort()
	assert.ErrorIs(t, q.reply(short, Out{Type: TypeError, Payload: errorPayload{}}), context.DeadlineExceeded)
	done := make(chan error, 1)
	go func() { done <- q.reply(ctx, Out{Type: TypeError, Payload: errorPayload{Message: "third"}}) }()
	// Nothing reads until the event is queued: an event that waited for
	// room would wait for ever, and the test's deadline would end it.
	queued := make(chan struct{})
	go func() {
		defer close(queued)
		q.event(Out{Type: TypeSpawnEntity, Payload: SpawnEntity{}})
	}()
	testdeadline.Recv(t, queued, "the event to be queued without waiting for room")
	line()
	require.NoError(t, <-done)
}

func TestOnGround(t *testing.T) {
	st := mirrorWorld(t)
	st.Update(func(tx *world.Tx) {
		require.NoError(t, tx.SetBlock(world.Pos(8, 3, 8), "minecraft:water", 0))
		require.NoError(t, tx.SetBlock(world.Pos(9, 4, 8), "minecraft:stone_slab", 0))
	})
	for _, c := range []struct {
		feet world.Vec3
		want bool
	}{
		{world.Vec3{X: 4.5, Y: 4, Z: 4.5}, true},    // on stone
		{world.Vec3{X: 4.5, Y: 5.2, Z: 4.5}, false}, // jumping
		{world.Vec3{X: 8.5, Y: 4, Z: 8.5}, false},   // on water
		{world.Vec3{X: 9.5, Y: 4.5, Z: 8.5}, true},  // on a bottom slab
	} {
		st.Update(func(tx *world.Tx) { tx.MovePlayer(c.feet) })
		assert.Equal(t, c.want, onGround(st.Snapshot()), "%+v", c.feet)
	}
}

// TestEncodeColumnEveryBlockDistinct: a column (from a hostile server)
// whose 65,536 blocks are all different states still encodes exactly.
func TestEncodeColumnEveryBlockDistinct(t *testing.T) {
	var secs [chunk.ColumnSections]*chunk.Section
	for cy := range secs {
		var states [chunk.SectionVolume]chunk.StateID
		for i := range states {
			states[i] = chunk.MakeState(1+cy, i) // stone with 4096 metas per section
		}
		secs[cy] = chunk.NewSection(&states)
	}
	cd := encodeColumn(0, 0, &secs, chunk.NewResolver(rules.Default().IDs, rules.Default().Tags))
	require.Len(t, cd.Blocks.Palette, 1+chunk.ColumnSections*chunk.SectionVolume)
	p := world.Pos(15, 255, 15)
	assert.Equal(t, PaletteEntry{ID: chunk.NewResolver(rules.Default().IDs, rules.Default().Tags).Block(chunk.MakeState(16, chunk.SectionIndex(15, 255, 15))).ID, Meta: chunk.SectionIndex(15, 255, 15)}, blockIn(t, cd, p))
}
