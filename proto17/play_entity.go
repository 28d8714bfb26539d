package proto17

// The clientbound entity packets that say what happens to a living entity
// (1.7.10's S0BPacketAnimation, S19PacketEntityHeadLook,
// S19PacketEntityStatus): a swing or a hurt flash, where its head turns,
// and its hurt and death events.

// Animations of EntityAnimation (S0BPacketAnimation's ids as
// NetHandlerPlayClient.handleAnimation reads them).
const (
	AnimSwingArm  uint8 = 0
	AnimDamage    uint8 = 1
	AnimLeaveBed  uint8 = 2
	AnimEatFood   uint8 = 3
	AnimCritical  uint8 = 4
	AnimMagicCrit uint8 = 5
)

// EntityAnimation (0x0B) plays an animation of an entity: an arm swing, a
// hurt flash. 1.7.10 sends the entity id as a VarInt (unlike the other
// entity packets of this version) and the animation as an unsigned byte.
type EntityAnimation struct {
	EntityID  int32
	Animation uint8
}

// PacketID implements Packet.
func (*EntityAnimation) PacketID() int32 { return IDClientboundAnimation }

// PacketName implements Packet.
func (*EntityAnimation) PacketName() string { return "EntityAnimation" }

// AppendPayload implements Packet.
func (p *EntityAnimation) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return append(AppendVarInt(b, p.EntityID), p.Animation), nil
}

// DecodePayload implements Packet.
func (p *EntityAnimation) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.EntityID = r.varint("entity id")
	p.Animation = r.u8("animation")
	return r.finish()
}

// EntityHeadLook (0x19) turns an entity's head: the yaw in 1/256ths of a
// turn.
type EntityHeadLook struct {
	EntityID int32
	HeadYaw  int8
}

// PacketID implements Packet.
func (*EntityHeadLook) PacketID() int32 { return IDClientboundEntityHeadLook }

// PacketName implements Packet.
func (*EntityHeadLook) PacketName() string { return "EntityHeadLook" }

// AppendPayload implements Packet.
func (p *EntityHeadLook) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return append(appendI32(b, p.EntityID), byte(p.HeadYaw)), nil
}

// DecodePayload implements Packet.
func (p *EntityHeadLook) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.EntityID = r.i32("entity id")
	p.HeadYaw = r.i8("head yaw")
	return r.finish()
}

// Statuses of EntityStatus that a living entity's trackers and the player
// itself receive (World.setEntityState, read by
// EntityLivingBase.handleHealthUpdate).
const (
	// StatusHurt: the entity was hurt (EntityLivingBase.attackEntityFrom).
	StatusHurt int8 = 2
	// StatusDead: the entity died (EntityLivingBase.onDeath); a mob's body
	// stays 20 ticks before the server destroys it.
	StatusDead int8 = 3
)

// EntityStatus (0x1A) is an event of an entity: hurt, dead, and others
// (a wolf shaking, a villager's hearts, …) by Status.
type EntityStatus struct {
	EntityID int32
	Status   int8
}

// PacketID implements Packet.
func (*EntityStatus) PacketID() int32 { return IDClientboundEntityStatus }

// PacketName implements Packet.
func (*EntityStatus) PacketName() string { return "EntityStatus" }

// AppendPayload implements Packet.
func (p *EntityStatus) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return append(appendI32(b, p.EntityID), byte(p.Status)), nil
}

// DecodePayload implements Packet.
func (p *EntityStatus) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.EntityID = r.i32("entity id")
	p.Status = r.i8("status")
	return r.finish()
}
