package gtnh

import (
	"math"
	"sync/atomic"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// lastLook holds the look the client last told the server (yaw and
// pitch, in a Player Look or a Player Position And Look), for Facing.
type lastLook struct {
	bits atomic.Uint64 // yaw's float32 bits high, pitch's low
	set  atomic.Bool
}

// sent notes a packet the client sent when it tells the server a look.
func (l *lastLook) sent(p proto17.Packet) {
	var yaw, pitch float32
	switch p := p.(type) {
	case *proto17.PlayerLook:
		yaw, pitch = p.Yaw, p.Pitch
	case *proto17.ServerboundPlayerPositionAndLook:
		yaw, pitch = p.Yaw, p.Pitch
	default:
		return
	}
	l.bits.Store(uint64(math.Float32bits(yaw))<<32 | uint64(math.Float32bits(pitch)))
	l.set.Store(true)
}

// Facing is the way the player looks as the server was last told:
// Minecraft's yaw (degrees, 0 facing south, +z, growing clockwise seen
// from above) and pitch (degrees, positive looking down); ok is false
// before the client has told the server any look. The web view draws the
// bot's heading from it. Safe to call from any goroutine.
func (c *Client) Facing() (yaw, pitch float32, ok bool) {
	if !c.look.set.Load() {
		return 0, 0, false
	}
	b := c.look.bits.Load()
	return math.Float32frombits(uint32(b >> 32)), math.Float32frombits(uint32(b)), true
}
