package gtnh

import (
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

// fmlState is the client's FML handshake state (FMLHandshakeClientState of
// Forge 10.13.4: the ack a client sends carries the ordinal of the state it
// is in when it sends it).
type fmlState int8

const (
	fmlStart                 fmlState = fmlState(proto17.PhaseClientStart)
	fmlHello                 fmlState = fmlState(proto17.PhaseClientHello)
	fmlWaitingServerData     fmlState = fmlState(proto17.PhaseClientWaitingServerData)
	fmlWaitingServerComplete fmlState = fmlState(proto17.PhaseClientWaitingServerComplete)
	fmlPendingComplete       fmlState = fmlState(proto17.PhaseClientPendingComplete)
	fmlComplete              fmlState = fmlState(proto17.PhaseClientComplete)
	fmlDone                  fmlState = 6
)

func (s fmlState) String() string {
	switch s {
	case fmlStart:
		return "START"
	case fmlHello:
		return "HELLO"
	case fmlWaitingServerData:
		return "WAITINGSERVERDATA"
	case fmlWaitingServerComplete:
		return "WAITINGSERVERCOMPLETE"
	case fmlPendingComplete:
		return "PENDINGCOMPLETE"
	case fmlComplete:
		return "COMPLETE"
	case fmlDone:
		return "DONE"
	}
	return fmt.Sprintf("state(%d)", int8(s))
}

// pluginOut is a plugin message to send.
type pluginOut struct {
	Channel string
	Data    []byte
}

// fmlHandshake is the client side of FML|HS. The server (Forge 10.13.4)
// sends REGISTER and ServerHello; the client answers REGISTER, ClientHello
// and its mod list (the server's own, echoed); the server's ModList is
// acked with phase 2, its ModIdData with 3, its first HandshakeAck with 4
// and its second with 5, after which the server sends Join Game.
type fmlHandshake struct {
	state fmlState
	// mods is the list the client claims.
	mods []proto17.ModInfo
	// serverMods is the list the server sent; ids its registry.
	serverMods []proto17.ModInfo
	ids        *rules.IDMap
	idErr      error
	// dimension is the ServerHello's override dimension (0 when the
	// server's FML protocol is 1, which sends none).
	dimension int32
	// registryEntries counts ModIdData entries.
	registryEntries int
}

func newFMLHandshake(mods []proto17.ModInfo) *fmlHandshake {
	return &fmlHandshake{state: fmlHello, mods: mods}
}

// started reports whether the server began the handshake.
func (h *fmlHandshake) started() bool { return h.state != fmlHello }

// done reports whether the handshake completed.
func (h *fmlHandshake) done() bool { return h.state == fmlDone }

func (h *fmlHandshake) orderErr(got string) error {
	return &HandshakeError{State: h.state.String(), Got: got}
}

func ack(phase fmlState) (pluginOut, error) {
	data, err := proto17.EncodeFML(&proto17.HandshakeAck{Phase: int8(phase)})
	return pluginOut{proto17.ChannelFMLHandshake, data}, err
}

// handle takes one FML|HS payload and returns the replies, in order.
func (h *fmlHandshake) handle(data []byte) ([]pluginOut, error) {
	m, err := proto17.DecodeFML(data)
	if err != nil {
		return nil, &HandshakeError{State: h.state.String(), Got: "an undecodable message", Err: err}
	}
	if _, ok := m.(*proto17.HandshakeReset); ok {
		// A proxy switched servers: start over.
		*h = fmlHandshake{state: fmlHello, mods: h.mods}
		return nil, nil
	}
	name := fmt.Sprintf("%T", m)[len("*proto17."):]
	switch h.state {
	case fmlHello:
		hello, ok := m.(*proto17.ServerHello)
		if !ok {
			return nil, h.orderErr(name)
		}
		h.dimension = hello.Dimension
		var out []pluginOut
		out = append(out, pluginOut{proto17.ChannelRegister, proto17.RegisterPayload(proto17.ClientChannels...)})
		ch, err := proto17.EncodeFML(&proto17.ClientHello{Protocol: proto17.FMLProtocol})
		if err != nil {
			return nil, err
		}
		out = append(out, pluginOut{proto17.ChannelFMLHandshake, ch})
		ml, err := proto17.EncodeFML(&proto17.ModList{Mods: h.mods})
		if err != nil {
			return nil, err
		}
		out = append(out, pluginOut{proto17.ChannelFMLHandshake, ml})
		h.state = fmlWaitingServerData
		return out, nil
	case fmlWaitingServerData:
		ml, ok := m.(*proto17.ModList)
		if !ok {
			return nil, h.orderErr(name)
		}
		h.serverMods = ml.Mods
		a, err := ack(fmlWaitingServerData)
		h.state = fmlWaitingServerComplete
		return []pluginOut{a}, err
	case fmlWaitingServerComplete:
		reg, ok := m.(*proto17.ModIDData)
		if !ok {
			return nil, h.orderErr(name)
		}
		ids := rules.NewIDMap()
		h.idErr = reg.FillIDMap(ids)
		if _, ok := ids.BlockID("minecraft:air"); !ok {
			_ = ids.SetBlock(0, "minecraft:air")
		}
		h.ids = ids
		h.registryEntries = len(reg.Entries)
		a, err := ack(fmlWaitingServerComplete)
		h.state = fmlPendingComplete
		return []pluginOut{a}, err
	case fmlPendingComplete:
		if _, ok := m.(*proto17.HandshakeAck); !ok {
			return nil, h.orderErr(name)
		}
		a, err := ack(fmlPendingComplete)
		h.state = fmlComplete
		return []pluginOut{a}, err
	case fmlComplete:
		if _, ok := m.(*proto17.HandshakeAck); !ok {
			return nil, h.orderErr(name)
		}
		a, err := ack(fmlComplete)
		h.state = fmlDone
		return []pluginOut{a}, err
	}
	// After the handshake further messages change nothing.
	return nil, nil
}
