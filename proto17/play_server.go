package proto17

import "math"

// ServerboundKeepAlive (0x00) echoes the id of a KeepAlive.
type ServerboundKeepAlive struct{ ID int32 }

// PacketID implements Packet.
func (*ServerboundKeepAlive) PacketID() int32 { return IDServerboundKeepAlive }

// PacketName implements Packet.
func (*ServerboundKeepAlive) PacketName() string { return "ServerboundKeepAlive" }

// AppendPayload implements Packet.
func (p *ServerboundKeepAlive) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendI32(b, p.ID), nil
}

// DecodePayload implements Packet.
func (p *ServerboundKeepAlive) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.ID = r.i32("id")
	return r.finish()
}

// ServerboundChat (0x01) sends a chat line or command (at most 100
// characters, plain text).
type ServerboundChat struct{ Message string }

// PacketID implements Packet.
func (*ServerboundChat) PacketID() int32 { return IDServerboundChat }

// PacketName implements Packet.
func (*ServerboundChat) PacketName() string { return "ServerboundChat" }

// AppendPayload implements Packet.
func (p *ServerboundChat) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendStr(b, p.PacketName(), "message", p.Message, maxServerChat)
}

// DecodePayload implements Packet.
func (p *ServerboundChat) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Message = r.str("message", maxServerChat)
	return r.finish()
}

// Player (0x03) reports only the on-ground flag; a client sends some
// movement packet every tick while idle.
type Player struct{ OnGround bool }

// PacketID implements Packet.
func (*Player) PacketID() int32 { return IDServerboundPlayer }

// PacketName implements Packet.
func (*Player) PacketName() string { return "Player" }

// AppendPayload implements Packet.
func (p *Player) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendBool(b, p.OnGround), nil
}

// DecodePayload implements Packet.
func (p *Player) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.OnGround = r.bool("on ground")
	return r.finish()
}

// PlayerPosition (0x04) reports the position: x, FEET y, HEAD y (the
// "stance"), z. The server kicks for "Illegal stance" unless 0.1 ≤ HeadY −
// FeetY ≤ 1.65; NewPlayerPosition fills HeadY from the feet.
type PlayerPosition struct {
	X, FeetY, HeadY, Z float64
	OnGround           bool
}

// NewPlayerPosition returns a position with the head EyeHeight above the feet.
func NewPlayerPosition(x, feetY, z float64, onGround bool) *PlayerPosition {
	return &PlayerPosition{X: x, FeetY: feetY, HeadY: feetY + EyeHeight, Z: z, OnGround: onGround}
}

// PacketID implements Packet.
func (*PlayerPosition) PacketID() int32 { return IDServerboundPlayerPosition }

// PacketName implements Packet.
func (*PlayerPosition) PacketName() string { return "PlayerPosition" }

// AppendPayload implements Packet.
func (p *PlayerPosition) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b = appendF64(appendF64(appendF64(appendF64(b, p.X), p.FeetY), p.HeadY), p.Z)
	return appendBool(b, p.OnGround), nil
}

// DecodePayload implements Packet.
func (p *PlayerPosition) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.X = r.f64("x")
	p.FeetY = r.f64("feet y")
	p.HeadY = r.f64("head y")
	p.Z = r.f64("z")
	p.OnGround = r.bool("on ground")
	return r.finish()
}

// PlayerLook (0x05) reports the view direction in degrees.
type PlayerLook struct {
	Yaw, Pitch float32
	OnGround   bool
}

// PacketID implements Packet.
func (*PlayerLook) PacketID() int32 { return IDServerboundPlayerLook }

// PacketName implements Packet.
func (*PlayerLook) PacketName() string { return "PlayerLook" }

// AppendPayload implements Packet.
func (p *PlayerLook) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendBool(appendF32(appendF32(b, p.Yaw), p.Pitch), p.OnGround), nil
}

// DecodePayload implements Packet.
func (p *PlayerLook) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Yaw = r.f32("yaw")
	p.Pitch = r.f32("pitch")
	p.OnGround = r.bool("on ground")
	return r.finish()
}

// ServerboundPlayerPositionAndLook (0x06) reports position and look; the
// position has PlayerPosition's field order (x, feet y, head y, z).
type ServerboundPlayerPositionAndLook struct {
	X, FeetY, HeadY, Z float64
	Yaw, Pitch         float32
	OnGround           bool
}

// PacketID implements Packet.
func (*ServerboundPlayerPositionAndLook) PacketID() int32 {
	return IDServerboundPlayerPositionAndLook
}

// PacketName implements Packet.
func (*ServerboundPlayerPositionAndLook) PacketName() string {
	return "ServerboundPlayerPositionAndLook"
}

// AppendPayload implements Packet.
func (p *ServerboundPlayerPositionAndLook) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b = appendF64(appendF64(appendF64(appendF64(b, p.X), p.FeetY), p.HeadY), p.Z)
	b = appendF32(appendF32(b, p.Yaw), p.Pitch)
	return appendBool(b, p.OnGround), nil
}

// DecodePayload implements Packet.
func (p *ServerboundPlayerPositionAndLook) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.X = r.f64("x")
	p.FeetY = r.f64("feet y")
	p.HeadY = r.f64("head y")
	p.Z = r.f64("z")
	p.Yaw = r.f32("yaw")
	p.Pitch = r.f32("pitch")
	p.OnGround = r.bool("on ground")
	return r.finish()
}

// Digging statuses of PlayerDigging.
const (
	DigStart       int8 = 0 // start breaking
	DigCancel      int8 = 1 // abort
	DigFinish      int8 = 2 // finish breaking
	DigDropStack   int8 = 3 // drop the held stack
	DigDropItem    int8 = 4 // drop one held item
	DigReleaseItem int8 = 5 // shoot arrow / finish eating
)

// Block faces (PlayerDigging, PlayerBlockPlacement): the side of the block
// the player targets.
const (
	FaceBottom int8 = 0 // -y
	FaceTop    int8 = 1 // +y
	FaceNorth  int8 = 2 // -z
	FaceSouth  int8 = 3 // +z
	FaceWest   int8 = 4 // -x
	FaceEast   int8 = 5 // +x
)

// PlayerDigging (0x07) starts, cancels or finishes breaking a block (or drops
// items).
type PlayerDigging struct {
	Status int8
	X      int32
	Y      uint8
	Z      int32
	Face   int8
}

// PacketID implements Packet.
func (*PlayerDigging) PacketID() int32 { return IDServerboundPlayerDigging }

// PacketName implements Packet.
func (*PlayerDigging) PacketName() string { return "PlayerDigging" }

// AppendPayload implements Packet.
func (p *PlayerDigging) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b = appendI32(append(b, byte(p.Status)), p.X)
	b = appendI32(append(b, p.Y), p.Z)
	return append(b, byte(p.Face)), nil
}

// DecodePayload implements Packet.
func (p *PlayerDigging) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Status = r.i8("status")
	p.X = r.i32("x")
	p.Y = r.u8("y")
	p.Z = r.i32("z")
	p.Face = r.i8("face")
	return r.finish()
}

// PlayerBlockPlacement (0x08) places the held block against a face, or uses
// the held item (position -1, 255, -1 and face -1). Held is the stack the
// client believes it holds; the cursor is the hit point on the face in
// 1/16 block.
type PlayerBlockPlacement struct {
	X                         int32
	Y                         uint8
	Z                         int32
	Face                      int8
	Held                      Slot
	CursorX, CursorY, CursorZ uint8
}

// PacketID implements Packet.
func (*PlayerBlockPlacement) PacketID() int32 { return IDServerboundPlayerBlockPlacement }

// PacketName implements Packet.
func (*PlayerBlockPlacement) PacketName() string { return "PlayerBlockPlacement" }

// AppendPayload implements Packet.
func (p *PlayerBlockPlacement) AppendPayload(b []byte, f Formats) ([]byte, error) {
	b = appendI32(b, p.X)
	b = appendI32(append(b, p.Y), p.Z)
	b = append(b, byte(p.Face))
	b, err := appendSlot(b, p.Held, f, p.PacketName(), "held")
	if err != nil {
		return b, err
	}
	return append(b, p.CursorX, p.CursorY, p.CursorZ), nil
}

// DecodePayload implements Packet.
func (p *PlayerBlockPlacement) DecodePayload(data []byte, f Formats) error {
	r := newReader(p.PacketName(), data)
	p.X = r.i32("x")
	p.Y = r.u8("y")
	p.Z = r.i32("z")
	p.Face = r.i8("face")
	p.Held = r.slot("held", f)
	p.CursorX = r.u8("cursor x")
	p.CursorY = r.u8("cursor y")
	p.CursorZ = r.u8("cursor z")
	return r.finish()
}

// ServerboundHeldItemChange (0x09) selects a hotbar slot (0..8); note the
// short, where the clientbound packet has a byte.
type ServerboundHeldItemChange struct{ Slot int16 }

// PacketID implements Packet.
func (*ServerboundHeldItemChange) PacketID() int32 { return IDServerboundHeldItemChange }

// PacketName implements Packet.
func (*ServerboundHeldItemChange) PacketName() string { return "ServerboundHeldItemChange" }

// AppendPayload implements Packet.
func (p *ServerboundHeldItemChange) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendI16(b, p.Slot), nil
}

// DecodePayload implements Packet.
func (p *ServerboundHeldItemChange) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Slot = r.i16("slot")
	return r.finish()
}

// AnimationSwingArm is the Animation id of an arm swing.
const AnimationSwingArm int8 = 1

// Animation (0x0A) plays an animation of the player (the arm swing while
// digging).
type Animation struct {
	EntityID  int32
	Animation int8
}

// PacketID implements Packet.
func (*Animation) PacketID() int32 { return IDServerboundAnimation }

// PacketName implements Packet.
func (*Animation) PacketName() string { return "Animation" }

// AppendPayload implements Packet.
func (p *Animation) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return append(appendI32(b, p.EntityID), byte(p.Animation)), nil
}

// DecodePayload implements Packet.
func (p *Animation) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.EntityID = r.i32("entity id")
	p.Animation = r.i8("animation")
	return r.finish()
}

// ServerboundCloseWindow (0x0D) closes a window (0 is the inventory; closing
// it drops the crafting grid).
type ServerboundCloseWindow struct{ WindowID uint8 }

// PacketID implements Packet.
func (*ServerboundCloseWindow) PacketID() int32 { return IDServerboundCloseWindow }

// PacketName implements Packet.
func (*ServerboundCloseWindow) PacketName() string { return "ServerboundCloseWindow" }

// AppendPayload implements Packet.
func (p *ServerboundCloseWindow) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return append(b, p.WindowID), nil
}

// DecodePayload implements Packet.
func (p *ServerboundCloseWindow) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.WindowID = r.u8("window id")
	return r.finish()
}

// ClickWindow (0x0E) clicks a window slot. Clicked is the stack the client
// expects in the slot before the click (empty for mode-0 clicks on empty
// slots); the server answers with ConfirmTransaction for Action.
type ClickWindow struct {
	WindowID uint8
	Slot     int16
	Button   int8
	Action   int16
	Mode     int8
	Clicked  Slot
}

// PacketID implements Packet.
func (*ClickWindow) PacketID() int32 { return IDServerboundClickWindow }

// PacketName implements Packet.
func (*ClickWindow) PacketName() string { return "ClickWindow" }

// AppendPayload implements Packet.
func (p *ClickWindow) AppendPayload(b []byte, f Formats) ([]byte, error) {
	b = appendI16(append(b, p.WindowID), p.Slot)
	b = appendI16(append(b, byte(p.Button)), p.Action)
	b = append(b, byte(p.Mode))
	return appendSlot(b, p.Clicked, f, p.PacketName(), "clicked")
}

// DecodePayload implements Packet.
func (p *ClickWindow) DecodePayload(data []byte, f Formats) error {
	r := newReader(p.PacketName(), data)
	p.WindowID = r.u8("window id")
	p.Slot = r.i16("slot")
	p.Button = r.i8("button")
	p.Action = r.i16("action")
	p.Mode = r.i8("mode")
	p.Clicked = r.slot("clicked", f)
	return r.finish()
}

// ServerboundConfirmTransaction (0x0F) acknowledges a rejected click.
type ServerboundConfirmTransaction struct {
	WindowID uint8
	Action   int16
	Accepted bool
}

// PacketID implements Packet.
func (*ServerboundConfirmTransaction) PacketID() int32 { return IDServerboundConfirmTransaction }

// PacketName implements Packet.
func (*ServerboundConfirmTransaction) PacketName() string { return "ServerboundConfirmTransaction" }

// AppendPayload implements Packet.
func (p *ServerboundConfirmTransaction) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendBool(appendI16(append(b, p.WindowID), p.Action), p.Accepted), nil
}

// DecodePayload implements Packet.
func (p *ServerboundConfirmTransaction) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.WindowID = r.u8("window id")
	p.Action = r.i16("action")
	p.Accepted = r.bool("accepted")
	return r.finish()
}

// ClientSettings (0x15): locale, view distance (chunks), chat flags (0 full
// chat), chat colours, difficulty and cape.
type ClientSettings struct {
	Locale       string
	ViewDistance int8
	ChatFlags    int8
	ChatColors   bool
	Difficulty   uint8
	ShowCape     bool
}

// PacketID implements Packet.
func (*ClientSettings) PacketID() int32 { return IDServerboundClientSettings }

// PacketName implements Packet.
func (*ClientSettings) PacketName() string { return "ClientSettings" }

// AppendPayload implements Packet.
func (p *ClientSettings) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b, err := appendStr(b, p.PacketName(), "locale", p.Locale, maxLocaleLen)
	if err != nil {
		return b, err
	}
	b = append(b, byte(p.ViewDistance), byte(p.ChatFlags))
	b = appendBool(b, p.ChatColors)
	b = append(b, p.Difficulty)
	return appendBool(b, p.ShowCape), nil
}

// DecodePayload implements Packet.
func (p *ClientSettings) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Locale = r.str("locale", maxLocaleLen)
	p.ViewDistance = r.i8("view distance")
	p.ChatFlags = r.i8("chat flags")
	p.ChatColors = r.bool("chat colors")
	p.Difficulty = r.u8("difficulty")
	p.ShowCape = r.bool("show cape")
	return r.finish()
}

// Client status actions.
const (
	StatusRespawn      int8 = 0
	StatusRequestStats int8 = 1
	StatusOpenInvAch   int8 = 2 // "taking inventory" achievement
)

// ClientStatus (0x16) asks to respawn (StatusRespawn) or for statistics.
type ClientStatus struct{ Action int8 }

// PacketID implements Packet.
func (*ClientStatus) PacketID() int32 { return IDServerboundClientStatus }

// PacketName implements Packet.
func (*ClientStatus) PacketName() string { return "ClientStatus" }

// AppendPayload implements Packet.
func (p *ClientStatus) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return append(b, byte(p.Action)), nil
}

// DecodePayload implements Packet.
func (p *ClientStatus) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Action = r.i8("action")
	return r.finish()
}

// ServerboundPluginMessage (0x17) is a serverbound plugin message; its
// length is a plain i16, so Data holds at most 32767 bytes. Data aliases
// the payload.
type ServerboundPluginMessage struct {
	Channel string
	Data    []byte
}

// PacketID implements Packet.
func (*ServerboundPluginMessage) PacketID() int32 { return IDServerboundPluginMessage }

// PacketName implements Packet.
func (*ServerboundPluginMessage) PacketName() string { return "ServerboundPluginMessage" }

// AppendPayload implements Packet.
func (p *ServerboundPluginMessage) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b, err := appendStr(b, p.PacketName(), "channel", p.Channel, maxChannelLen)
	if err != nil {
		return b, err
	}
	if len(p.Data) > math.MaxInt16 {
		return b, encodeErr(p.PacketName(), "data", tooLargef("%d bytes, at most %d", len(p.Data), math.MaxInt16))
	}
	b = appendI16(b, int16(len(p.Data)))
	return append(b, p.Data...), nil
}

// DecodePayload implements Packet.
func (p *ServerboundPluginMessage) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Channel = r.str("channel", maxChannelLen)
	start := r.off
	n := r.i16("length")
	if n < 0 {
		r.failAt("length", start, invalidf("negative length %d", n))
	}
	p.Data = r.bytes("data", int(n))
	return r.finish()
}

// UseEntity actions.
const (
	UseEntityInteract int8 = 0 // right click
	UseEntityAttack   int8 = 1 // left click
)

// UseEntity (0x02) interacts with or attacks an entity. (1.7 has no target
// position; that came with 1.8.)
type UseEntity struct {
	Target int32
	Action int8
}

// PacketID implements Packet.
func (*UseEntity) PacketID() int32 { return IDServerboundUseEntity }

// PacketName implements Packet.
func (*UseEntity) PacketName() string { return "UseEntity" }

// AppendPayload implements Packet.
func (p *UseEntity) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return append(appendI32(b, p.Target), byte(p.Action)), nil
}

// DecodePayload implements Packet.
func (p *UseEntity) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Target = r.i32("target")
	p.Action = r.i8("action")
	return r.finish()
}

// Entity actions of EntityAction.
const (
	ActionCrouch      int8 = 1
	ActionUncrouch    int8 = 2
	ActionLeaveBed    int8 = 3
	ActionStartSprint int8 = 4
	ActionStopSprint  int8 = 5
	ActionHorseJump   int8 = 6
)

// EntityAction (0x0B) reports crouching, sprinting and the like.
type EntityAction struct {
	EntityID  int32
	Action    int8
	JumpBoost int32 // horse jump strength
}

// PacketID implements Packet.
func (*EntityAction) PacketID() int32 { return IDServerboundEntityAction }

// PacketName implements Packet.
func (*EntityAction) PacketName() string { return "EntityAction" }

// AppendPayload implements Packet.
func (p *EntityAction) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendI32(append(appendI32(b, p.EntityID), byte(p.Action)), p.JumpBoost), nil
}

// DecodePayload implements Packet.
func (p *EntityAction) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.EntityID = r.i32("entity id")
	p.Action = r.i8("action")
	p.JumpBoost = r.i32("jump boost")
	return r.finish()
}
