package gtnh

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// TestDispatchTable: every handler sits under its own packet's id (on
// takes the id from the packet kind), and a second handler for a kind is
// refused when the table is built.
func TestDispatchTable(t *testing.T) {
	for id := range playHandlers {
		p := proto17.New(proto17.Play, proto17.Clientbound, id)
		if assert.NotNil(t, p, "a handler for unknown packet id %#x", id) {
			assert.Equal(t, id, p.PacketID())
		}
	}
	e := on(func(*Client, *session, *proto17.KeepAlive) error { return nil })
	assert.Equal(t, proto17.IDClientboundKeepAlive, e.id)
	assert.PanicsWithValue(t, "gtnh: two handlers for play packet KeepAlive", func() { table(e, e) })
	assert.Len(t, table(e), 1)
}
