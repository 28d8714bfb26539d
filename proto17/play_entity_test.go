package proto17

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEntityPacketBytes: the layouts of 1.7.10's S0BPacketAnimation (a
// VarInt id, then an unsigned byte), S19PacketEntityHeadLook and
// S19PacketEntityStatus (an int id, then a byte), and what a short packet
// says.
func TestEntityPacketBytes(t *testing.T) {
	for _, c := range []struct {
		p    Packet
		want []byte
	}{
		{&EntityAnimation{EntityID: 300, Animation: AnimDamage}, []byte{0xAC, 0x02, 0x01}},
		{&EntityAnimation{EntityID: 5, Animation: 200}, []byte{0x05, 0xC8}},
		{&EntityHeadLook{EntityID: 300, HeadYaw: -64}, []byte{0, 0, 0x01, 0x2C, 0xC0}},
		{&EntityStatus{EntityID: 300, Status: StatusDead}, []byte{0, 0, 0x01, 0x2C, 0x03}},
	} {
		got, err := Payload(c.p, Formats{})
		require.NoError(t, err)
		assert.Equal(t, c.want, got, c.p.PacketName())
		back, err := Decode(Play, Clientbound, c.p.PacketID(), c.want, Formats{})
		require.NoError(t, err)
		assert.Equal(t, c.p, back)
	}
	for _, c := range []struct {
		id    int32
		data  []byte
		field string
	}{
		{IDClientboundAnimation, []byte{0xAC}, "entity id"},
		{IDClientboundAnimation, []byte{0x05}, "animation"},
		{IDClientboundEntityHeadLook, []byte{0, 0, 1, 0x2C}, "head yaw"},
		{IDClientboundEntityStatus, []byte{0, 0}, "entity id"},
		{IDClientboundEntityStatus, []byte{0, 0, 1, 0x2C, 3, 9}, ""},
	} {
		_, err := Decode(Play, Clientbound, c.id, c.data, Formats{})
		require.Error(t, err, "% x", c.data)
		assert.Contains(t, err.Error(), c.field)
	}
}
