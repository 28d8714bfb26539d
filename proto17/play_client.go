package proto17

import (
	"bytes"
	"math"
)

// EyeHeight is the player's eye height above the feet. 1.7.10 sends the
// player's eye-level y in Player Position And Look (clientbound).
const EyeHeight = 1.62

// Fixed converts a fixed-point entity coordinate (1/32 block) to blocks.
func Fixed(v int32) float64 { return float64(v) / 32 }

// ToFixed converts blocks to a fixed-point entity coordinate as the server
// does (floor of v*32).
func ToFixed(v float64) int32 { return int32(math.Floor(v * 32)) }

// Angle converts a protocol angle (1/256 of a turn) to degrees.
func Angle(a int8) float32 { return float32(a) * 360 / 256 }

// KeepAlive (0x00) carries an id the client echoes in ServerboundKeepAlive.
type KeepAlive struct{ ID int32 }

// PacketID implements Packet.
func (*KeepAlive) PacketID() int32 { return IDClientboundKeepAlive }

// PacketName implements Packet.
func (*KeepAlive) PacketName() string { return "KeepAlive" }

// AppendPayload implements Packet.
func (p *KeepAlive) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendI32(b, p.ID), nil
}

// DecodePayload implements Packet.
func (p *KeepAlive) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.ID = r.i32("id")
	return r.finish()
}

// JoinGame (0x01) starts the play state. GameMode bit 3 is the hardcore
// flag.
type JoinGame struct {
	EntityID   int32
	GameMode   uint8
	Dimension  int8
	Difficulty uint8
	MaxPlayers uint8
	LevelType  string
}

// Hardcore reports the hardcore flag of the game mode.
func (p *JoinGame) Hardcore() bool { return p.GameMode&0x8 != 0 }

// PacketID implements Packet.
func (*JoinGame) PacketID() int32 { return IDClientboundJoinGame }

// PacketName implements Packet.
func (*JoinGame) PacketName() string { return "JoinGame" }

// AppendPayload implements Packet.
func (p *JoinGame) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b = appendI32(b, p.EntityID)
	b = append(b, p.GameMode, byte(p.Dimension), p.Difficulty, p.MaxPlayers)
	return appendStr(b, p.PacketName(), "level type", p.LevelType, maxLevelTypeLen)
}

// DecodePayload implements Packet.
func (p *JoinGame) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.EntityID = r.i32("entity id")
	p.GameMode = r.u8("game mode")
	p.Dimension = r.i8("dimension")
	p.Difficulty = r.u8("difficulty")
	p.MaxPlayers = r.u8("max players")
	p.LevelType = r.str("level type", maxLevelTypeLen)
	return r.finish()
}

// Chat (0x02) is a chat message as a raw JSON chat component; PlainText
// flattens it.
type Chat struct{ JSON string }

// PacketID implements Packet.
func (*Chat) PacketID() int32 { return IDClientboundChat }

// PacketName implements Packet.
func (*Chat) PacketName() string { return "Chat" }

// AppendPayload implements Packet.
func (p *Chat) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendStr(b, p.PacketName(), "json", p.JSON, maxChatLen)
}

// DecodePayload implements Packet.
func (p *Chat) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.JSON = r.str("json", maxChatLen)
	return r.finish()
}

// TimeUpdate (0x03): world age and time of day in ticks (a negative time of
// day means the daylight cycle is stopped).
type TimeUpdate struct {
	WorldAge  int64
	TimeOfDay int64
}

// PacketID implements Packet.
func (*TimeUpdate) PacketID() int32 { return IDClientboundTimeUpdate }

// PacketName implements Packet.
func (*TimeUpdate) PacketName() string { return "TimeUpdate" }

// AppendPayload implements Packet.
func (p *TimeUpdate) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendI64(appendI64(b, p.WorldAge), p.TimeOfDay), nil
}

// DecodePayload implements Packet.
func (p *TimeUpdate) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.WorldAge = r.i64("world age")
	p.TimeOfDay = r.i64("time of day")
	return r.finish()
}

// SpawnPosition (0x05): the world spawn point.
type SpawnPosition struct{ X, Y, Z int32 }

// PacketID implements Packet.
func (*SpawnPosition) PacketID() int32 { return IDClientboundSpawnPosition }

// PacketName implements Packet.
func (*SpawnPosition) PacketName() string { return "SpawnPosition" }

// AppendPayload implements Packet.
func (p *SpawnPosition) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendI32(appendI32(appendI32(b, p.X), p.Y), p.Z), nil
}

// DecodePayload implements Packet.
func (p *SpawnPosition) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.X = r.i32("x")
	p.Y = r.i32("y")
	p.Z = r.i32("z")
	return r.finish()
}

// UpdateHealth (0x06): health (0 or less is dead), food and saturation.
type UpdateHealth struct {
	Health     float32
	Food       int16
	Saturation float32
}

// PacketID implements Packet.
func (*UpdateHealth) PacketID() int32 { return IDClientboundUpdateHealth }

// PacketName implements Packet.
func (*UpdateHealth) PacketName() string { return "UpdateHealth" }

// AppendPayload implements Packet.
func (p *UpdateHealth) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendF32(appendI16(appendF32(b, p.Health), p.Food), p.Saturation), nil
}

// DecodePayload implements Packet.
func (p *UpdateHealth) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Health = r.f32("health")
	p.Food = r.i16("food")
	p.Saturation = r.f32("saturation")
	return r.finish()
}

// Respawn (0x07): the player respawned or changed dimension; the client
// drops its world.
type Respawn struct {
	Dimension  int32
	Difficulty uint8
	GameMode   uint8
	LevelType  string
}

// PacketID implements Packet.
func (*Respawn) PacketID() int32 { return IDClientboundRespawn }

// PacketName implements Packet.
func (*Respawn) PacketName() string { return "Respawn" }

// AppendPayload implements Packet.
func (p *Respawn) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b = appendI32(b, p.Dimension)
	b = append(b, p.Difficulty, p.GameMode)
	return appendStr(b, p.PacketName(), "level type", p.LevelType, maxLevelTypeLen)
}

// DecodePayload implements Packet.
func (p *Respawn) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Dimension = r.i32("dimension")
	p.Difficulty = r.u8("difficulty")
	p.GameMode = r.u8("game mode")
	p.LevelType = r.str("level type", maxLevelTypeLen)
	return r.finish()
}

// PlayerPositionAndLook (0x08) sets the player's position. Y is the EYE
// level (feet + EyeHeight); the client must answer with its position.
type PlayerPositionAndLook struct {
	X, Y, Z    float64
	Yaw, Pitch float32
	OnGround   bool
}

// FeetY is the feet height of the position.
func (p *PlayerPositionAndLook) FeetY() float64 { return p.Y - EyeHeight }

// PacketID implements Packet.
func (*PlayerPositionAndLook) PacketID() int32 { return IDClientboundPlayerPositionAndLook }

// PacketName implements Packet.
func (*PlayerPositionAndLook) PacketName() string { return "PlayerPositionAndLook" }

// AppendPayload implements Packet.
func (p *PlayerPositionAndLook) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b = appendF64(appendF64(appendF64(b, p.X), p.Y), p.Z)
	b = appendF32(appendF32(b, p.Yaw), p.Pitch)
	return appendBool(b, p.OnGround), nil
}

// DecodePayload implements Packet.
func (p *PlayerPositionAndLook) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.X = r.f64("x")
	p.Y = r.f64("y")
	p.Z = r.f64("z")
	p.Yaw = r.f32("yaw")
	p.Pitch = r.f32("pitch")
	p.OnGround = r.bool("on ground")
	return r.finish()
}

// HeldItemChange (0x09) selects the hotbar slot (0..8).
type HeldItemChange struct{ Slot int8 }

// PacketID implements Packet.
func (*HeldItemChange) PacketID() int32 { return IDClientboundHeldItemChange }

// PacketName implements Packet.
func (*HeldItemChange) PacketName() string { return "HeldItemChange" }

// AppendPayload implements Packet.
func (p *HeldItemChange) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return append(b, byte(p.Slot)), nil
}

// DecodePayload implements Packet.
func (p *HeldItemChange) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Slot = r.i8("slot")
	return r.finish()
}

// PlayerProperty is a profile property of a spawned player (its skin).
type PlayerProperty struct {
	Name, Value, Signature string
}

// SpawnPlayer (0x0C) spawns another player. Coordinates are fixed-point
// (Fixed), angles in 1/256 turns (Angle).
type SpawnPlayer struct {
	EntityID    int32
	UUID        string // hyphenated
	Name        string
	Properties  []PlayerProperty
	X, Y, Z     int32
	Yaw, Pitch  int8
	CurrentItem int16
	Metadata    Metadata
}

// PacketID implements Packet.
func (*SpawnPlayer) PacketID() int32 { return IDClientboundSpawnPlayer }

// PacketName implements Packet.
func (*SpawnPlayer) PacketName() string { return "SpawnPlayer" }

// AppendPayload implements Packet.
func (p *SpawnPlayer) AppendPayload(b []byte, f Formats) ([]byte, error) {
	name := p.PacketName()
	var err error
	b = AppendVarInt(b, p.EntityID)
	if b, err = appendStr(b, name, "uuid", p.UUID, maxUUIDLen); err != nil {
		return b, err
	}
	if b, err = appendStr(b, name, "name", p.Name, maxNameLen); err != nil {
		return b, err
	}
	b = AppendVarInt(b, int32(len(p.Properties)))
	for _, pr := range p.Properties {
		for _, s := range [3]string{pr.Name, pr.Value, pr.Signature} {
			if b, err = appendStr(b, name, "properties", s, maxChatLen); err != nil {
				return b, err
			}
		}
	}
	b = appendI32(appendI32(appendI32(b, p.X), p.Y), p.Z)
	b = append(b, byte(p.Yaw), byte(p.Pitch))
	b = appendI16(b, p.CurrentItem)
	return appendMetadata(b, p.Metadata, f, name)
}

// DecodePayload implements Packet.
func (p *SpawnPlayer) DecodePayload(data []byte, f Formats) error {
	r := newReader(p.PacketName(), data)
	p.EntityID = r.varint("entity id")
	p.UUID = r.str("uuid", maxUUIDLen)
	p.Name = r.str("name", maxNameLen)
	start := r.off
	n := r.varint("properties")
	p.Properties = nil
	if !r.checkCount("properties", start, int64(n), 3) {
		n = 0
	}
	for i := 0; i < int(n) && r.ok(); i++ {
		r.push("properties", i)
		p.Properties = append(p.Properties, PlayerProperty{
			Name:      r.str("name", maxChatLen),
			Value:     r.str("value", maxChatLen),
			Signature: r.str("signature", maxChatLen),
		})
		r.pop()
	}
	p.X = r.i32("x")
	p.Y = r.i32("y")
	p.Z = r.i32("z")
	p.Yaw = r.i8("yaw")
	p.Pitch = r.i8("pitch")
	p.CurrentItem = r.i16("current item")
	p.Metadata = r.metadata(f)
	return r.finish()
}

// CollectItem (0x0D): an entity picked up an item (or arrow, or orb); the
// collected entity disappears.
type CollectItem struct {
	CollectedID, CollectorID int32
}

// PacketID implements Packet.
func (*CollectItem) PacketID() int32 { return IDClientboundCollectItem }

// PacketName implements Packet.
func (*CollectItem) PacketName() string { return "CollectItem" }

// AppendPayload implements Packet.
func (p *CollectItem) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendI32(appendI32(b, p.CollectedID), p.CollectorID), nil
}

// DecodePayload implements Packet.
func (p *CollectItem) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.CollectedID = r.i32("collected id")
	p.CollectorID = r.i32("collector id")
	return r.finish()
}

// Object types of Spawn Object that a bot cares about.
const (
	ObjectItem         = 2  // dropped item; its stack comes in metadata key MetaKeyItem
	ObjectArrow        = 60 // arrow
	ObjectFallingBlock = 70 // falling block; Data is id | meta<<16
)

// SpawnObject (0x0E) spawns a non-living entity. The velocity (1/8000 block
// per tick) is on the wire only when Data > 0, as in the vanilla codec.
type SpawnObject struct {
	EntityID         int32
	Type             int8
	X, Y, Z          int32
	Pitch, Yaw       int8
	Data             int32
	VelX, VelY, VelZ int16
}

// PacketID implements Packet.
func (*SpawnObject) PacketID() int32 { return IDClientboundSpawnObject }

// PacketName implements Packet.
func (*SpawnObject) PacketName() string { return "SpawnObject" }

// AppendPayload implements Packet.
func (p *SpawnObject) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b = AppendVarInt(b, p.EntityID)
	b = append(b, byte(p.Type))
	b = appendI32(appendI32(appendI32(b, p.X), p.Y), p.Z)
	b = append(b, byte(p.Pitch), byte(p.Yaw))
	b = appendI32(b, p.Data)
	if p.Data > 0 {
		b = appendI16(appendI16(appendI16(b, p.VelX), p.VelY), p.VelZ)
	}
	return b, nil
}

// DecodePayload implements Packet.
func (p *SpawnObject) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.EntityID = r.varint("entity id")
	p.Type = r.i8("type")
	p.X = r.i32("x")
	p.Y = r.i32("y")
	p.Z = r.i32("z")
	p.Pitch = r.i8("pitch")
	p.Yaw = r.i8("yaw")
	p.Data = r.i32("data")
	p.VelX, p.VelY, p.VelZ = 0, 0, 0
	if p.Data > 0 {
		p.VelX = r.i16("velocity x")
		p.VelY = r.i16("velocity y")
		p.VelZ = r.i16("velocity z")
	}
	return r.finish()
}

// SpawnMob (0x0F) spawns a living entity with its metadata.
type SpawnMob struct {
	EntityID            int32
	Type                uint8
	X, Y, Z             int32
	Yaw, Pitch, HeadYaw int8
	VelX, VelY, VelZ    int16
	Metadata            Metadata
}

// PacketID implements Packet.
func (*SpawnMob) PacketID() int32 { return IDClientboundSpawnMob }

// PacketName implements Packet.
func (*SpawnMob) PacketName() string { return "SpawnMob" }

// AppendPayload implements Packet.
func (p *SpawnMob) AppendPayload(b []byte, f Formats) ([]byte, error) {
	b = AppendVarInt(b, p.EntityID)
	b = append(b, p.Type)
	b = appendI32(appendI32(appendI32(b, p.X), p.Y), p.Z)
	b = append(b, byte(p.Yaw), byte(p.Pitch), byte(p.HeadYaw))
	b = appendI16(appendI16(appendI16(b, p.VelX), p.VelY), p.VelZ)
	return appendMetadata(b, p.Metadata, f, p.PacketName())
}

// DecodePayload implements Packet.
func (p *SpawnMob) DecodePayload(data []byte, f Formats) error {
	r := newReader(p.PacketName(), data)
	p.EntityID = r.varint("entity id")
	p.Type = r.u8("type")
	p.X = r.i32("x")
	p.Y = r.i32("y")
	p.Z = r.i32("z")
	p.Yaw = r.i8("yaw")
	p.Pitch = r.i8("pitch")
	p.HeadYaw = r.i8("head yaw")
	p.VelX = r.i16("velocity x")
	p.VelY = r.i16("velocity y")
	p.VelZ = r.i16("velocity z")
	p.Metadata = r.metadata(f)
	return r.finish()
}

// DestroyEntities (0x13) removes entities; at most 127 per packet (the count
// is a signed byte).
type DestroyEntities struct{ IDs []int32 }

// PacketID implements Packet.
func (*DestroyEntities) PacketID() int32 { return IDClientboundDestroyEntities }

// PacketName implements Packet.
func (*DestroyEntities) PacketName() string { return "DestroyEntities" }

// AppendPayload implements Packet.
func (p *DestroyEntities) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	if len(p.IDs) > math.MaxInt8 {
		return b, encodeErr(p.PacketName(), "count", tooLargef("%d entities, at most %d", len(p.IDs), math.MaxInt8))
	}
	b = append(b, byte(len(p.IDs)))
	for _, id := range p.IDs {
		b = appendI32(b, id)
	}
	return b, nil
}

// DecodePayload implements Packet.
func (p *DestroyEntities) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	n := r.i8("count")
	if n < 0 {
		r.failAt("count", 0, invalidf("negative count %d", n))
	}
	p.IDs = nil
	if r.ok() && n > 0 {
		p.IDs = make([]int32, 0, min(int(n), r.remaining()/4))
	}
	for i := 0; i < int(n) && r.ok(); i++ {
		r.push("ids", i)
		p.IDs = append(p.IDs, r.i32("id"))
		r.pop()
	}
	return r.finish()
}

// EntityRelativeMove (0x15) moves an entity by fixed-point deltas (1/32
// block each, so at most 4 blocks).
type EntityRelativeMove struct {
	EntityID   int32
	DX, DY, DZ int8
}

// Delta is the move in blocks.
func (p *EntityRelativeMove) Delta() (dx, dy, dz float64) {
	return float64(p.DX) / 32, float64(p.DY) / 32, float64(p.DZ) / 32
}

// PacketID implements Packet.
func (*EntityRelativeMove) PacketID() int32 { return IDClientboundEntityRelativeMove }

// PacketName implements Packet.
func (*EntityRelativeMove) PacketName() string { return "EntityRelativeMove" }

// AppendPayload implements Packet.
func (p *EntityRelativeMove) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return append(appendI32(b, p.EntityID), byte(p.DX), byte(p.DY), byte(p.DZ)), nil
}

// DecodePayload implements Packet.
func (p *EntityRelativeMove) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.EntityID = r.i32("entity id")
	p.DX = r.i8("dx")
	p.DY = r.i8("dy")
	p.DZ = r.i8("dz")
	return r.finish()
}

// EntityLookAndRelativeMove (0x17) moves and turns an entity.
type EntityLookAndRelativeMove struct {
	EntityID   int32
	DX, DY, DZ int8
	Yaw, Pitch int8
}

// Delta is the move in blocks.
func (p *EntityLookAndRelativeMove) Delta() (dx, dy, dz float64) {
	return float64(p.DX) / 32, float64(p.DY) / 32, float64(p.DZ) / 32
}

// PacketID implements Packet.
func (*EntityLookAndRelativeMove) PacketID() int32 { return IDClientboundEntityLookAndRelMove }

// PacketName implements Packet.
func (*EntityLookAndRelativeMove) PacketName() string { return "EntityLookAndRelativeMove" }

// AppendPayload implements Packet.
func (p *EntityLookAndRelativeMove) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b = appendI32(b, p.EntityID)
	return append(b, byte(p.DX), byte(p.DY), byte(p.DZ), byte(p.Yaw), byte(p.Pitch)), nil
}

// DecodePayload implements Packet.
func (p *EntityLookAndRelativeMove) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.EntityID = r.i32("entity id")
	p.DX = r.i8("dx")
	p.DY = r.i8("dy")
	p.DZ = r.i8("dz")
	p.Yaw = r.i8("yaw")
	p.Pitch = r.i8("pitch")
	return r.finish()
}

// EntityTeleport (0x18) places an entity at fixed-point coordinates.
type EntityTeleport struct {
	EntityID   int32
	X, Y, Z    int32
	Yaw, Pitch int8
}

// PacketID implements Packet.
func (*EntityTeleport) PacketID() int32 { return IDClientboundEntityTeleport }

// PacketName implements Packet.
func (*EntityTeleport) PacketName() string { return "EntityTeleport" }

// AppendPayload implements Packet.
func (p *EntityTeleport) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b = appendI32(b, p.EntityID)
	b = appendI32(appendI32(appendI32(b, p.X), p.Y), p.Z)
	return append(b, byte(p.Yaw), byte(p.Pitch)), nil
}

// DecodePayload implements Packet.
func (p *EntityTeleport) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.EntityID = r.i32("entity id")
	p.X = r.i32("x")
	p.Y = r.i32("y")
	p.Z = r.i32("z")
	p.Yaw = r.i8("yaw")
	p.Pitch = r.i8("pitch")
	return r.finish()
}

// EntityMetadata (0x1C) updates an entity's metadata; for a dropped item it
// carries the stack (Metadata.Item).
type EntityMetadata struct {
	EntityID int32
	Metadata Metadata
}

// PacketID implements Packet.
func (*EntityMetadata) PacketID() int32 { return IDClientboundEntityMetadata }

// PacketName implements Packet.
func (*EntityMetadata) PacketName() string { return "EntityMetadata" }

// AppendPayload implements Packet.
func (p *EntityMetadata) AppendPayload(b []byte, f Formats) ([]byte, error) {
	return appendMetadata(appendI32(b, p.EntityID), p.Metadata, f, p.PacketName())
}

// DecodePayload implements Packet.
func (p *EntityMetadata) DecodePayload(data []byte, f Formats) error {
	r := newReader(p.PacketName(), data)
	p.EntityID = r.i32("entity id")
	p.Metadata = r.metadata(f)
	return r.finish()
}

// Window type ids of Open Window that need extra handling.
const WindowTypeHorse = 11 // the only type followed by an entity id

// OpenWindow (0x2D) opens a container window. EntityID is on the wire only
// for horse windows (Type WindowTypeHorse).
type OpenWindow struct {
	WindowID uint8
	Type     uint8
	Title    string
	Slots    uint8
	UseTitle bool
	EntityID int32
}

// PacketID implements Packet.
func (*OpenWindow) PacketID() int32 { return IDClientboundOpenWindow }

// PacketName implements Packet.
func (*OpenWindow) PacketName() string { return "OpenWindow" }

// AppendPayload implements Packet.
func (p *OpenWindow) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b = append(b, p.WindowID, p.Type)
	b, err := appendStr(b, p.PacketName(), "title", p.Title, maxTitleLen)
	if err != nil {
		return b, err
	}
	b = append(b, p.Slots)
	b = appendBool(b, p.UseTitle)
	if p.Type == WindowTypeHorse {
		b = appendI32(b, p.EntityID)
	}
	return b, nil
}

// DecodePayload implements Packet.
func (p *OpenWindow) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.WindowID = r.u8("window id")
	p.Type = r.u8("type")
	p.Title = r.str("title", maxTitleLen)
	p.Slots = r.u8("slots")
	p.UseTitle = r.bool("use title")
	p.EntityID = 0
	if p.Type == WindowTypeHorse {
		p.EntityID = r.i32("entity id")
	}
	return r.finish()
}

// CloseWindow (0x2E): the server closed a window.
type CloseWindow struct{ WindowID uint8 }

// PacketID implements Packet.
func (*CloseWindow) PacketID() int32 { return IDClientboundCloseWindow }

// PacketName implements Packet.
func (*CloseWindow) PacketName() string { return "CloseWindow" }

// AppendPayload implements Packet.
func (p *CloseWindow) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return append(b, p.WindowID), nil
}

// DecodePayload implements Packet.
func (p *CloseWindow) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.WindowID = r.u8("window id")
	return r.finish()
}

// SetSlot (0x2F) sets one slot of a window. Window -1 with slot -1 is the
// stack on the cursor.
type SetSlot struct {
	WindowID int8
	Slot     int16
	Item     Slot
}

// PacketID implements Packet.
func (*SetSlot) PacketID() int32 { return IDClientboundSetSlot }

// PacketName implements Packet.
func (*SetSlot) PacketName() string { return "SetSlot" }

// AppendPayload implements Packet.
func (p *SetSlot) AppendPayload(b []byte, f Formats) ([]byte, error) {
	b = appendI16(append(b, byte(p.WindowID)), p.Slot)
	return appendSlot(b, p.Item, f, p.PacketName(), "item")
}

// DecodePayload implements Packet.
func (p *SetSlot) DecodePayload(data []byte, f Formats) error {
	r := newReader(p.PacketName(), data)
	p.WindowID = r.i8("window id")
	p.Slot = r.i16("slot")
	p.Item = r.slot("item", f)
	return r.finish()
}

// WindowItems (0x30) replaces every slot of a window.
type WindowItems struct {
	WindowID uint8
	Items    []Slot
}

// PacketID implements Packet.
func (*WindowItems) PacketID() int32 { return IDClientboundWindowItems }

// PacketName implements Packet.
func (*WindowItems) PacketName() string { return "WindowItems" }

// AppendPayload implements Packet.
func (p *WindowItems) AppendPayload(b []byte, f Formats) ([]byte, error) {
	if len(p.Items) > math.MaxInt16 {
		return b, encodeErr(p.PacketName(), "count", tooLargef("%d slots", len(p.Items)))
	}
	b = appendI16(append(b, p.WindowID), int16(len(p.Items)))
	var err error
	for _, s := range p.Items {
		if b, err = appendSlot(b, s, f, p.PacketName(), "items"); err != nil {
			return b, err
		}
	}
	return b, nil
}

// DecodePayload implements Packet.
func (p *WindowItems) DecodePayload(data []byte, f Formats) error {
	r := newReader(p.PacketName(), data)
	p.WindowID = r.u8("window id")
	n := r.i16("count")
	if n < 0 {
		r.failAt("count", 1, invalidf("negative count %d", n))
	}
	p.Items = nil
	if r.ok() && n > 0 {
		// Each slot takes at least two bytes.
		p.Items = make([]Slot, 0, min(int(n), r.remaining()/2))
	}
	for i := 0; i < int(n) && r.ok(); i++ {
		r.push("items", i)
		p.Items = append(p.Items, r.slot("slot", f))
		r.pop()
	}
	return r.finish()
}

// WindowProperty (0x31) sets one numeric property of an open window
// (S31PacketWindowProperty: u8 window id, i16 property, i16 value; the
// client's Container.updateProgressBar applies it). Vanilla uses it for a
// furnace's progress and a brewing stand's; Railcraft for a tank's fluid id
// (TankManager.initGuiData, property 3i for tank i).
type WindowProperty struct {
	WindowID uint8
	Property int16
	Value    int16
}

// PacketID implements Packet.
func (*WindowProperty) PacketID() int32 { return IDClientboundWindowProperty }

// PacketName implements Packet.
func (*WindowProperty) PacketName() string { return "WindowProperty" }

// AppendPayload implements Packet.
func (p *WindowProperty) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendI16(appendI16(append(b, p.WindowID), p.Property), p.Value), nil
}

// DecodePayload implements Packet.
func (p *WindowProperty) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.WindowID = r.u8("window id")
	p.Property = r.i16("property")
	p.Value = r.i16("value")
	return r.finish()
}

// ConfirmTransaction (0x32) accepts or rejects a window click; a rejected
// click must be acknowledged with ServerboundConfirmTransaction.
type ConfirmTransaction struct {
	WindowID uint8
	Action   int16
	Accepted bool
}

// PacketID implements Packet.
func (*ConfirmTransaction) PacketID() int32 { return IDClientboundConfirmTransaction }

// PacketName implements Packet.
func (*ConfirmTransaction) PacketName() string { return "ConfirmTransaction" }

// AppendPayload implements Packet.
func (p *ConfirmTransaction) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendBool(appendI16(append(b, p.WindowID), p.Action), p.Accepted), nil
}

// DecodePayload implements Packet.
func (p *ConfirmTransaction) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.WindowID = r.u8("window id")
	p.Action = r.i16("action")
	p.Accepted = r.bool("accepted")
	return r.finish()
}

// PluginMessage (0x3F) is a clientbound plugin message. Forge writes its
// length as a varshort (up to MaxVarShort bytes); below 32768 bytes that is
// the vanilla u16. Data aliases the payload.
type PluginMessage struct {
	Channel string
	Data    []byte
}

// PacketID implements Packet.
func (*PluginMessage) PacketID() int32 { return IDClientboundPluginMessage }

// PacketName implements Packet.
func (*PluginMessage) PacketName() string { return "PluginMessage" }

// AppendPayload implements Packet.
func (p *PluginMessage) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b, err := appendStr(b, p.PacketName(), "channel", p.Channel, maxChannelLen)
	if err != nil {
		return b, err
	}
	if len(p.Data) > MaxVarShort {
		return b, encodeErr(p.PacketName(), "data", tooLargef("%d bytes, at most %d", len(p.Data), MaxVarShort))
	}
	b, _ = AppendVarShort(b, len(p.Data))
	return append(b, p.Data...), nil
}

// DecodePayload implements Packet.
func (p *PluginMessage) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Channel = r.str("channel", maxChannelLen)
	n := r.varshort("length")
	p.Data = r.bytes("data", n)
	return r.finish()
}

// Disconnect (0x40) ends the connection; Reason is a JSON chat component
// (PlainText flattens it).
type Disconnect struct{ Reason string }

// PacketID implements Packet.
func (*Disconnect) PacketID() int32 { return IDClientboundDisconnect }

// PacketName implements Packet.
func (*Disconnect) PacketName() string { return "Disconnect" }

// AppendPayload implements Packet.
func (p *Disconnect) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendStr(b, p.PacketName(), "reason", p.Reason, maxChatLen)
}

// DecodePayload implements Packet.
func (p *Disconnect) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Reason = r.str("reason", maxChatLen)
	return r.finish()
}

// cloneBytes copies b, keeping nil as nil.
func cloneBytes(b []byte) []byte { return bytes.Clone(b) }
