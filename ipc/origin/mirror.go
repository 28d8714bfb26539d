package origin

import (
	"math"
	"slices"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

// Out is one outgoing message: a type and its payload.
type Out struct {
	Type    string
	Payload any
	// ID echoes a request's id (replies only).
	ID []byte
}

// Payloads of the outgoing messages.
type (
	// TimeUpdate carries the game tick.
	TimeUpdate struct {
		Tick int64 `json:"tick"`
	}
	// PositionUpdate carries the player's feet and look.
	PositionUpdate struct {
		X        float64 `json:"x"`
		Y        float64 `json:"y"`
		Z        float64 `json:"z"`
		Yaw      float64 `json:"yaw"`
		Pitch    float64 `json:"pitch"`
		OnGround bool    `json:"on_ground"`
	}
	// ChunkData carries one 16×256×16 column.
	ChunkData struct {
		ChunkX int          `json:"chunk_x"`
		ChunkZ int          `json:"chunk_z"`
		Blocks ChunkBlocks  `json:"blocks"`
		Biomes *[256]uint16 `json:"biomes"`
	}
	// ChunkBlocks is a column's blocks: Sections[cy] is nil for an all-air
	// section, else 4096 palette indices in the order y<<8 | z<<4 | x
	// (coordinates within the section).
	ChunkBlocks struct {
		Palette  []PaletteEntry                 `json:"palette"`
		Sections [chunk.ColumnSections][]uint32 `json:"sections"`
	}
	// PaletteEntry is a block state: its registry name and metadata.
	PaletteEntry struct {
		ID   string `json:"id"`
		Meta int    `json:"meta"`
	}
	// SpawnEntity announces an entity (or its new position).
	SpawnEntity struct {
		EntityID int     `json:"entity_id"`
		Kind     string  `json:"kind"`
		Name     string  `json:"name,omitempty"`
		X        float64 `json:"x"`
		Y        float64 `json:"y"`
		Z        float64 `json:"z"`
		Item     *Item   `json:"item,omitempty"`
	}
	// DestroyEntities lists entities gone from view.
	DestroyEntities struct {
		EntityIDs []int `json:"entity_ids"`
	}
	// SetSlot carries one changed inventory slot.
	SetSlot struct {
		Slot int   `json:"slot"`
		Item *Item `json:"item"`
	}
	// WindowItems carries the whole inventory and the held hotbar slot.
	WindowItems struct {
		Items []*Item `json:"items"`
		Held  int     `json:"held"`
	}
	// DimensionChange names the player's dimension.
	DimensionChange struct {
		Dimension string `json:"dimension"`
	}
	// Item is a stack in a slot; a nil *Item is an empty slot (JSON null).
	Item struct {
		ID        string `json:"id"`
		Meta      int    `json:"meta"`
		Count     int    `json:"count"`
		Damage    int    `json:"damage,omitempty"`
		MaxDamage int    `json:"max_damage,omitempty"`
	}
)

func itemOf(st world.ItemStack) *Item {
	if st.Empty() {
		return nil
	}
	return &Item{ID: st.ID, Meta: st.Meta, Count: st.Count, Damage: st.Damage, MaxDamage: st.MaxDamage}
}

// setSlotLimit is the number of changed slots from which one window_items
// replaces the set_slot messages.
const setSlotLimit = 8

// mirror remembers what the client has been told and turns a new snapshot
// into the messages that bring it up to date. It is used by one goroutine.
type mirror struct {
	synced   bool
	dim      string
	tick     int64
	pos      PositionUpdate
	slots    []world.ItemStack
	held     int
	chunks   map[chunk.ChunkPos][chunk.ColumnSections]*chunk.Section
	entities map[int]world.Entity
	// yaw and pitch are where the player looks: bodies do not report it,
	// so the adapter derives it from the last action (see look).
	yaw, pitch float64
	radius     int
}

func newMirror(radius int) *mirror {
	m := &mirror{radius: radius}
	m.reset()
	return m
}

// reset forgets what the client was told: the next update is a full one.
func (m *mirror) reset() {
	m.synced = false
	m.chunks = map[chunk.ChunkPos][chunk.ColumnSections]*chunk.Section{}
	m.entities = map[int]world.Entity{}
	m.slots = nil
}

// lookAt turns the derived look towards p from the eyes at feet, with the
// vanilla convention (yaw 0 faces +z, 90 faces -x; pitch positive looks
// down), as gtnh's motion.lookAt sends it.
func (m *mirror) lookAt(feet world.Vec3, p world.Vec3) {
	dx, dy, dz := p.X-feet.X, p.Y-(feet.Y+proto17.EyeHeight), p.Z-feet.Z
	if dx == 0 && dz == 0 && dy == 0 {
		return
	}
	m.yaw = yawOf(dx, dz)
	m.pitch = -math.Atan2(dy, math.Hypot(dx, dz)) * 180 / math.Pi
}

// yawOf is the yaw facing (dx, dz), in (-180, 180].
func yawOf(dx, dz float64) float64 {
	y := math.Atan2(-dx, dz) * 180 / math.Pi
	if y <= -180 {
		y += 360
	}
	return y
}

// faceMove turns the look along a horizontal move from a to b, level.
func (m *mirror) faceMove(a, b world.Vec3) {
	dx, dz := b.X-a.X, b.Z-a.Z
	if dx == 0 && dz == 0 {
		return
	}
	m.yaw = yawOf(dx, dz)
	m.pitch = 0
}

// onGround reports whether the feet rest on a block: the block just below
// them is neither air nor a liquid.
func onGround(s *world.Snapshot) bool {
	p := s.Player.Pos
	b := s.BlockAt(world.Pos(int(math.Floor(p.X)), int(math.Floor(p.Y-0.001)), int(math.Floor(p.Z))))
	return !b.IsAir() && !b.HasTag("liquid")
}

// update returns the messages that tell the client what changed since the
// last update, in this order: dimension_change, time_update,
// position_update, window_items or set_slot, chunk_data, destroy_entities,
// spawn_entity. The first update (and the first after reset) tells
// everything.
func (m *mirror) update(s *world.Snapshot) []Out {
	var out []Out
	full := !m.synced
	if full || s.Player.Dimension != m.dim {
		if !full {
			// A new dimension: the client drops the old world, as vanilla's
			// does on Respawn, and gets the new one in full.
			m.chunks = map[chunk.ChunkPos][chunk.ColumnSections]*chunk.Section{}
			m.entities = map[int]world.Entity{}
		}
		m.dim = s.Player.Dimension
		out = append(out, Out{Type: TypeDimensionChange, Payload: DimensionChange{Dimension: m.dim}})
	}
	if full || s.Tick != m.tick {
		m.tick = s.Tick
		out = append(out, Out{Type: TypeTimeUpdate, Payload: TimeUpdate{Tick: m.tick}})
	}
	pos := PositionUpdate{X: s.Player.Pos.X, Y: s.Player.Pos.Y, Z: s.Player.Pos.Z, Yaw: m.yaw, Pitch: m.pitch, OnGround: onGround(s)}
	if full || pos != m.pos {
		m.pos = pos
		out = append(out, Out{Type: TypePositionUpdate, Payload: pos})
	}
	out = m.inventory(out, s.Inventory, full)
	out = m.columns(out, s)
	out = m.entityDiff(out, s.Entities)
	m.synced = true
	return out
}

func (m *mirror) inventory(out []Out, inv world.Inventory, full bool) []Out {
	var changed []int
	if !full && len(inv.Slots) == len(m.slots) && inv.Held == m.held {
		for i, st := range inv.Slots {
			if !sameStack(st, m.slots[i]) {
				changed = append(changed, i)
			}
		}
		if len(changed) == 0 {
			return out
		}
	}
	m.slots = slices.Clone(inv.Slots)
	m.held = inv.Held
	if changed != nil && len(changed) < setSlotLimit {
		for _, i := range changed {
			out = append(out, Out{Type: TypeSetSlot, Payload: SetSlot{Slot: i, Item: itemOf(inv.Slots[i])}})
		}
		return out
	}
	items := make([]*Item, len(inv.Slots))
	for i, st := range inv.Slots {
		items[i] = itemOf(st)
	}
	return append(out, Out{Type: TypeWindowItems, Payload: WindowItems{Items: items, Held: inv.Held}})
}

func sameStack(a, b world.ItemStack) bool {
	if a.Empty() || b.Empty() {
		return a.Empty() == b.Empty()
	}
	return a.ID == b.ID && a.Meta == b.Meta && a.Count == b.Count && a.Damage == b.Damage && a.MaxDamage == b.MaxDamage
}

// columns sends the loaded columns within radius chunks of the player that
// the client has not seen, or whose sections changed since (the world
// copies a section before writing it, so a changed section is a different
// pointer). Columns out of range are forgotten and sent again when they
// come back into range.
func (m *mirror) columns(out []Out, s *world.Snapshot) []Out {
	chunks, ok := world.ChunksOf(s.Blocks)
	if !ok {
		return out
	}
	at := chunk.ChunkOf(s.Feet())
	for pos := range m.chunks {
		if abs(pos.X-at.X) > m.radius || abs(pos.Z-at.Z) > m.radius {
			delete(m.chunks, pos)
		}
	}
	for cz := at.Z - m.radius; cz <= at.Z+m.radius; cz++ {
		for cx := at.X - m.radius; cx <= at.X+m.radius; cx++ {
			pos := chunk.ChunkPos{X: cx, Z: cz}
			col := chunks.Column(cx, cz)
			if col == nil {
				delete(m.chunks, pos)
				continue
			}
			var secs [chunk.ColumnSections]*chunk.Section
			for cy := range secs {
				secs[cy] = col.Section(cy)
			}
			if sent, ok := m.chunks[pos]; ok && sent == secs {
				continue
			}
			m.chunks[pos] = secs
			out = append(out, Out{Type: TypeChunkData, Payload: encodeColumn(cx, cz, &secs, chunks.Resolver())})
		}
	}
	return out
}

// encodeColumn builds a column's chunk_data: one palette for the column,
// air first.
func encodeColumn(cx, cz int, secs *[chunk.ColumnSections]*chunk.Section, res *chunk.Resolver) ChunkData {
	d := ChunkData{ChunkX: cx, ChunkZ: cz}
	// A column has 65,536 blocks, so with air its palette may reach 65,537
	// entries: the indices are 32-bit.
	index := map[chunk.StateID]uint32{chunk.AirState: 0}
	d.Blocks.Palette = []PaletteEntry{{ID: "minecraft:air"}}
	var states [chunk.SectionVolume]chunk.StateID
	for cy, sec := range secs {
		if sec == nil || sec.IsEmpty() {
			continue
		}
		sec.States(&states)
		idx := make([]uint32, chunk.SectionVolume)
		for i, st := range states {
			j, ok := index[st]
			if !ok {
				b := res.Block(st)
				j = uint32(len(d.Blocks.Palette))
				index[st] = j
				d.Blocks.Palette = append(d.Blocks.Palette, PaletteEntry{ID: b.ID, Meta: b.Meta})
			}
			idx[i] = j
		}
		d.Blocks.Sections[cy] = idx
	}
	return d
}

func (m *mirror) entityDiff(out []Out, ents []world.Entity) []Out {
	seen := make(map[int]bool, len(ents))
	var spawns []Out
	for _, e := range ents {
		seen[e.ID] = true
		if old, ok := m.entities[e.ID]; ok && sameEntity(old, e) {
			continue
		}
		m.entities[e.ID] = e
		spawns = append(spawns, Out{Type: TypeSpawnEntity, Payload: SpawnEntity{EntityID: e.ID, Kind: e.Kind, Name: e.Name,
			X: e.Pos.X, Y: e.Pos.Y, Z: e.Pos.Z, Item: itemPtr(e.Item)}})
	}
	var gone []int
	for id := range m.entities {
		if !seen[id] {
			gone = append(gone, id)
			delete(m.entities, id)
		}
	}
	if len(gone) > 0 {
		slices.Sort(gone)
		out = append(out, Out{Type: TypeDestroyEntities, Payload: DestroyEntities{EntityIDs: gone}})
	}
	return append(out, spawns...)
}

func itemPtr(st *world.ItemStack) *Item {
	if st == nil {
		return nil
	}
	return itemOf(*st)
}

func sameEntity(a, b world.Entity) bool {
	if a.Kind != b.Kind || a.Name != b.Name || a.Pos != b.Pos || (a.Item == nil) != (b.Item == nil) {
		return false
	}
	return a.Item == nil || sameStack(*a.Item, *b.Item)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
