package gtnh

import (
	"encoding/binary"
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// useEntity is serverbound Use Entity (0x02): the target's entity id and
// the action (0 interact, 1 attack). proto17 has no codec for it yet, so
// the client carries this one.
type useEntity struct {
	Target int32
	Mouse  int8
}

var _ proto17.Packet = (*useEntity)(nil)

// PacketID implements proto17.Packet.
func (*useEntity) PacketID() int32 { return proto17.IDServerboundUseEntity }

// PacketName implements proto17.Packet.
func (*useEntity) PacketName() string { return "UseEntity" }

// AppendPayload implements proto17.Packet.
func (p *useEntity) AppendPayload(b []byte, _ proto17.Formats) ([]byte, error) {
	return append(binary.BigEndian.AppendUint32(b, uint32(p.Target)), byte(p.Mouse)), nil
}

// DecodePayload implements proto17.Packet.
func (p *useEntity) DecodePayload(data []byte, _ proto17.Formats) error {
	if len(data) != 5 {
		return &proto17.Error{Packet: "UseEntity", Field: "payload", Offset: 0, Err: fmt.Errorf("%w: %d bytes, want 5", proto17.ErrInvalid, len(data))}
	}
	p.Target = int32(binary.BigEndian.Uint32(data))
	p.Mouse = int8(data[4])
	return nil
}
