package proto17

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/rules"
)

// Plugin channels of the Forge handshake.
const (
	ChannelFMLHandshake = "FML|HS"   // FML handshake messages
	ChannelFML          = "FML"      // FML runtime messages
	ChannelFMLMultipart = "FML|MP"   // multipart carrier for large messages
	ChannelForge        = "FORGE"    // Forge's own channel
	ChannelRegister     = "REGISTER" // channel registration (NUL-separated names)
)

// ClientChannels are the channels a Forge 1.7.10 client registers after the
// ServerHello.
var ClientChannels = []string{ChannelFMLHandshake, ChannelFML, ChannelFMLMultipart, ChannelForge}

// FML|HS discriminators (the first byte of each message).
const (
	DiscServerHello    int8 = 0
	DiscClientHello    int8 = 1
	DiscModList        int8 = 2
	DiscModIDData      int8 = 3
	DiscHandshakeAck   int8 = -1
	DiscHandshakeReset int8 = -2
)

// FMLProtocol is the FML network protocol version of Forge 10.13.4.
const FMLProtocol = 2

// Handshake phases a HandshakeAck carries: the ordinal of the state the
// sender is in. Client states (FMLHandshakeClientState):
const (
	PhaseClientStart                 int8 = 0
	PhaseClientHello                 int8 = 1
	PhaseClientWaitingServerData     int8 = 2
	PhaseClientWaitingServerComplete int8 = 3
	PhaseClientPendingComplete       int8 = 4
	PhaseClientComplete              int8 = 5
)

// Server states (FMLHandshakeServerState):
const (
	PhaseServerStart       int8 = 0
	PhaseServerHello       int8 = 1
	PhaseServerWaitingCAck int8 = 2
	PhaseServerComplete    int8 = 3
	PhaseServerDone        int8 = 4
	PhaseServerError       int8 = 5
)

// MaxRegistryEntries bounds the entries of a ModIdData message (and each
// of its substitution lists). Forge 1.7.10 numbers blocks 0..4095 and items
// up to 31999 (GameData.MAX_BLOCK_ID, MAX_ITEM_ID); NotEnoughIds raises
// blocks to 32767. Four times the sum leaves room for any real registry.
const MaxRegistryEntries = 1 << 18

// initialCap is the most elements a decoder reserves before they arrive: a
// count is checked against the bytes left, but one element's bytes can
// decode into a larger value, so longer lists grow as elements decode.
const initialCap = 1024

// Registry name prefixes in ModIDData.
const (
	RegistryBlockPrefix = "\u0001"
	RegistryItemPrefix  = "\u0002"
)

// FMLMessage is a message on the FML|HS channel: ServerHello, ClientHello,
// ModList, ModIDData, HandshakeAck or HandshakeReset.
type FMLMessage interface {
	Discriminator() int8
	fmlName() string
	appendFML(b []byte) ([]byte, error)
	decodeFML(r *reader)
}

// DecodeFML decodes an FML|HS plugin-message payload.
func DecodeFML(data []byte) (FMLMessage, error) {
	r := newReader("FML|HS", data)
	d := r.i8("discriminator")
	if !r.ok() {
		return nil, r.err
	}
	var m FMLMessage
	switch d {
	case DiscServerHello:
		m = new(ServerHello)
	case DiscClientHello:
		m = new(ClientHello)
	case DiscModList:
		m = new(ModList)
	case DiscModIDData:
		m = new(ModIDData)
	case DiscHandshakeAck:
		m = new(HandshakeAck)
	case DiscHandshakeReset:
		m = new(HandshakeReset)
	default:
		r.failAt("discriminator", 0, invalidf("unknown discriminator %d", d))
		return nil, r.err
	}
	r.packet = m.fmlName()
	m.decodeFML(&r)
	if _, ok := m.(*ModIDData); ok && r.ok() {
		// Forge's ModIdData.fromBytes reads what it needs and ignores the
		// rest, and its toBytes writes the block-substitution count in
		// front of the item list too: with no block substitutions and some
		// item ones, the item names follow a count of 0. A Forge client
		// ignores them, and so does this one.
		return m, nil
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	return m, nil
}

// EncodeFML encodes an FML|HS message with its discriminator.
func EncodeFML(m FMLMessage) ([]byte, error) {
	return m.appendFML([]byte{byte(m.Discriminator())})
}

// ServerHello starts the FML handshake. Protocol 2 and later add the
// dimension the player will join in, as an int (Forge 10.13.4's
// FMLHandshakeMessage.ServerHello.fromBytes reads it with readInt when the
// protocol byte is above 1): Join Game's dimension is a byte, so this is the
// only place a dimension outside -128..127 arrives at login.
type ServerHello struct {
	Protocol  uint8
	Dimension int32
}

// Discriminator implements FMLMessage.
func (*ServerHello) Discriminator() int8 { return DiscServerHello }
func (*ServerHello) fmlName() string     { return "FML|HS ServerHello" }
func (m *ServerHello) appendFML(b []byte) ([]byte, error) {
	b = append(b, m.Protocol)
	if m.Protocol > 1 {
		b = appendI32(b, m.Dimension)
	}
	return b, nil
}
func (m *ServerHello) decodeFML(r *reader) {
	m.Protocol = r.u8("protocol")
	m.Dimension = 0
	if m.Protocol > 1 {
		m.Dimension = r.i32("dimension")
	}
}

// ClientHello answers ServerHello with the client's FML protocol.
type ClientHello struct{ Protocol uint8 }

// Discriminator implements FMLMessage.
func (*ClientHello) Discriminator() int8 { return DiscClientHello }
func (*ClientHello) fmlName() string     { return "FML|HS ClientHello" }
func (m *ClientHello) appendFML(b []byte) ([]byte, error) {
	return append(b, m.Protocol), nil
}
func (m *ClientHello) decodeFML(r *reader) { m.Protocol = r.u8("protocol") }

// ModList is a side's mod list. The server rejects a client whose list lacks
// a mod it requires or has another version of it, so a client echoes the
// server's list.
type ModList struct{ Mods []ModInfo }

// Discriminator implements FMLMessage.
func (*ModList) Discriminator() int8 { return DiscModList }
func (*ModList) fmlName() string     { return "FML|HS ModList" }
func (m *ModList) appendFML(b []byte) ([]byte, error) {
	if len(m.Mods) >= 1<<14 {
		return b, encodeErr(m.fmlName(), "count", tooLargef("%d mods", len(m.Mods)))
	}
	b = AppendVarInt(b, int32(len(m.Mods)))
	var err error
	for _, mod := range m.Mods {
		if b, err = appendFMLStr(b, m.fmlName(), "mod id", mod.ModID); err != nil {
			return b, err
		}
		if b, err = appendFMLStr(b, m.fmlName(), "version", mod.Version); err != nil {
			return b, err
		}
	}
	return b, nil
}
func (m *ModList) decodeFML(r *reader) {
	start := r.off
	n := int(r.varintN("count", 2))
	m.Mods = nil
	if !r.checkCount("count", start, int64(n), 2) {
		return
	}
	m.Mods = make([]ModInfo, 0, min(n, initialCap))
	for i := 0; i < n && r.ok(); i++ {
		r.push("mods", i)
		id := r.fmlStr("mod id")
		v := r.fmlStr("version")
		r.pop()
		m.Mods = append(m.Mods, ModInfo{ModID: id, Version: v})
	}
}

// RegistryEntry maps a registry name to its numeric id. Names start with
// RegistryBlockPrefix or RegistryItemPrefix.
type RegistryEntry struct {
	Name string
	ID   int32
}

// Kind splits the entry name into its kind ('b' block, 'i' item, 0 other)
// and the registry name.
func (e RegistryEntry) Kind() (kind byte, name string) {
	switch {
	case strings.HasPrefix(e.Name, RegistryBlockPrefix):
		return 'b', e.Name[len(RegistryBlockPrefix):]
	case strings.HasPrefix(e.Name, RegistryItemPrefix):
		return 'i', e.Name[len(RegistryItemPrefix):]
	}
	return 0, e.Name
}

// ModIDData is the server's id registry (one message in Forge 1.7.10, often
// hundreds of kilobytes, possibly reassembled from FML|MP parts): registry
// names with their ids, then — when the message goes on — the block and
// item substitution lists. Forge writes the block-substitution count in
// front of the item list too (FMLHandshakeMessage.ModIdData.toBytes of
// Forge 10.13.4, e.g. TheByKotik/ultramine_core's copy); decoding takes the
// count as written and, like Forge's fromBytes, ignores bytes after the
// lists.
type ModIDData struct {
	Entries            []RegistryEntry
	HasSubstitutions   bool
	BlockSubstitutions []string
	ItemSubstitutions  []string
}

// Discriminator implements FMLMessage.
func (*ModIDData) Discriminator() int8 { return DiscModIDData }
func (*ModIDData) fmlName() string     { return "FML|HS ModIdData" }
func (m *ModIDData) appendFML(b []byte) ([]byte, error) {
	name := m.fmlName()
	if len(m.Entries) >= 1<<21 {
		return b, encodeErr(name, "count", tooLargef("%d entries", len(m.Entries)))
	}
	b = AppendVarInt(b, int32(len(m.Entries)))
	var err error
	for _, e := range m.Entries {
		if e.ID < 0 || e.ID >= 1<<21 {
			return b, encodeErr(name, "entries", invalidf("%q: id %d outside 0..%d", e.Name, e.ID, 1<<21-1))
		}
		if b, err = appendFMLStr(b, name, "entries", e.Name); err != nil {
			return b, err
		}
		b = AppendVarInt(b, e.ID)
	}
	if !m.HasSubstitutions {
		return b, nil
	}
	for _, list := range [2][]string{m.BlockSubstitutions, m.ItemSubstitutions} {
		if len(list) >= 1<<21 {
			return b, encodeErr(name, "substitutions", tooLargef("%d names", len(list)))
		}
		b = AppendVarInt(b, int32(len(list)))
		for _, s := range list {
			if b, err = appendFMLStr(b, name, "substitutions", s); err != nil {
				return b, err
			}
		}
	}
	return b, nil
}
func (m *ModIDData) decodeFML(r *reader) {
	m.Entries, m.BlockSubstitutions, m.ItemSubstitutions, m.HasSubstitutions = nil, nil, nil, false
	start := r.off
	n := int(r.varintN("count", 3))
	// An entry takes at least two bytes (an empty name and a one-byte id).
	if !r.checkCount("count", start, int64(n), 2) {
		return
	}
	if n > MaxRegistryEntries {
		r.failAt("count", start, tooLargef("%d registry entries, at most %d", n, MaxRegistryEntries))
		return
	}
	m.Entries = make([]RegistryEntry, 0, min(n, initialCap))
	for i := 0; i < n && r.ok(); i++ {
		r.push("entries", i)
		e := RegistryEntry{Name: r.fmlStr("name")}
		e.ID = r.varintN("id", 3)
		r.pop()
		m.Entries = append(m.Entries, e)
	}
	if !r.ok() || r.remaining() == 0 {
		return
	}
	m.HasSubstitutions = true
	m.BlockSubstitutions = r.fmlStrList("block substitutions")
	m.ItemSubstitutions = r.fmlStrList("item substitutions")
}

func (r *reader) fmlStrList(field string) []string {
	start := r.off
	n := int(r.varintN(field, 3))
	if !r.checkCount(field, start, int64(n), 1) {
		return nil
	}
	if n > MaxRegistryEntries {
		r.failAt(field, start, tooLargef("%d names, at most %d", n, MaxRegistryEntries))
		return nil
	}
	out := make([]string, 0, min(n, initialCap))
	for i := 0; i < n && r.ok(); i++ {
		r.push(field, i)
		out = append(out, r.fmlStr("name"))
		r.pop()
	}
	return out
}

// maxReportedIDErrors bounds the entries FillIDMap lists in its error.
const maxReportedIDErrors = 20

// FillIDMap registers every block and item entry in ids (blocks with
// SetBlock, items with SetItem, names without their prefix). Entries the map
// rejects — malformed names, ids out of range, a name or id registered twice
// with different partners — are skipped and listed in the returned error;
// every other entry is registered. Entries of other kinds are ignored.
func (m *ModIDData) FillIDMap(ids *rules.IDMap) error {
	var errs []error
	skipped := 0
	for _, e := range m.Entries {
		kind, name := e.Kind()
		var err error
		switch kind {
		case 'b':
			err = ids.SetBlock(int(e.ID), name)
		case 'i':
			err = ids.SetItem(int(e.ID), name)
		default:
			continue
		}
		if err != nil {
			skipped++
			if len(errs) < maxReportedIDErrors {
				errs = append(errs, err)
			}
		}
	}
	if skipped == 0 {
		return nil
	}
	if skipped > len(errs) {
		errs = append(errs, fmt.Errorf("and %d more", skipped-len(errs)))
	}
	return fmt.Errorf("proto17: ModIdData: %d of %d entries skipped: %w", skipped, len(m.Entries), errors.Join(errs...))
}

// HandshakeAck acknowledges a handshake step with the sender's phase.
type HandshakeAck struct{ Phase int8 }

// Discriminator implements FMLMessage.
func (*HandshakeAck) Discriminator() int8 { return DiscHandshakeAck }
func (*HandshakeAck) fmlName() string     { return "FML|HS HandshakeAck" }
func (m *HandshakeAck) appendFML(b []byte) ([]byte, error) {
	return append(b, byte(m.Phase)), nil
}
func (m *HandshakeAck) decodeFML(r *reader) { m.Phase = r.i8("phase") }

// HandshakeReset restarts the handshake (sent when the player changes
// server behind a proxy).
type HandshakeReset struct{}

// Discriminator implements FMLMessage.
func (*HandshakeReset) Discriminator() int8                { return DiscHandshakeReset }
func (*HandshakeReset) fmlName() string                    { return "FML|HS HandshakeReset" }
func (*HandshakeReset) appendFML(b []byte) ([]byte, error) { return b, nil }
func (*HandshakeReset) decodeFML(*reader)                  {}

// RegisterPayload builds a REGISTER plugin-message payload: channel names
// separated by NUL bytes.
func RegisterPayload(channels ...string) []byte {
	return []byte(strings.Join(channels, "\x00"))
}

// ParseRegister splits a REGISTER payload into channel names, dropping empty
// ones.
func ParseRegister(data []byte) []string {
	var out []string
	for _, part := range bytes.Split(data, []byte{0}) {
		if len(part) > 0 {
			out = append(out, string(part))
		}
	}
	return out
}
