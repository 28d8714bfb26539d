package proto17

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Handshake (handshaking 0x00) opens a connection. A Forge client appends
// FMLMarker to the host; Host here is without it and FML says whether it is
// present.
type Handshake struct {
	Protocol  int32
	Host      string
	Port      uint16
	NextState int32 // 1 status, 2 login
	FML       bool
}

// PacketID implements Packet.
func (*Handshake) PacketID() int32 { return IDServerboundHandshake }

// PacketName implements Packet.
func (*Handshake) PacketName() string { return "Handshake" }

// AppendPayload implements Packet.
func (p *Handshake) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	host := p.Host
	if p.FML {
		host += FMLMarker
	}
	b = AppendVarInt(b, p.Protocol)
	b, err := appendStr(b, p.PacketName(), "host", host, maxHostLen)
	if err != nil {
		return b, err
	}
	b = appendU16(b, p.Port)
	return AppendVarInt(b, p.NextState), nil
}

// DecodePayload implements Packet.
func (p *Handshake) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Protocol = r.varint("protocol")
	host := r.str("host", maxHostLen)
	p.Host, p.FML = strings.CutSuffix(host, FMLMarker)
	p.Port = r.u16("port")
	p.NextState = r.varint("next state")
	return r.finish()
}

// StatusRequest (status 0x00, serverbound) asks for the server status.
type StatusRequest struct{}

// PacketID implements Packet.
func (*StatusRequest) PacketID() int32 { return IDServerboundStatusRequest }

// PacketName implements Packet.
func (*StatusRequest) PacketName() string { return "StatusRequest" }

// AppendPayload implements Packet.
func (*StatusRequest) AppendPayload(b []byte, _ Formats) ([]byte, error) { return b, nil }

// DecodePayload implements Packet.
func (p *StatusRequest) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	return r.finish()
}

// StatusResponse (status 0x00, clientbound) carries the status JSON;
// ParseStatus reads it.
type StatusResponse struct{ JSON string }

// PacketID implements Packet.
func (*StatusResponse) PacketID() int32 { return IDClientboundStatusResponse }

// PacketName implements Packet.
func (*StatusResponse) PacketName() string { return "StatusResponse" }

// AppendPayload implements Packet.
func (p *StatusResponse) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendStr(b, p.PacketName(), "json", p.JSON, maxChatLen)
}

// DecodePayload implements Packet.
func (p *StatusResponse) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.JSON = r.str("json", maxChatLen)
	return r.finish()
}

// StatusPing (status 0x01, serverbound) carries a value the server echoes.
type StatusPing struct{ Payload int64 }

// PacketID implements Packet.
func (*StatusPing) PacketID() int32 { return IDServerboundStatusPing }

// PacketName implements Packet.
func (*StatusPing) PacketName() string { return "StatusPing" }

// AppendPayload implements Packet.
func (p *StatusPing) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendI64(b, p.Payload), nil
}

// DecodePayload implements Packet.
func (p *StatusPing) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Payload = r.i64("payload")
	return r.finish()
}

// StatusPong (status 0x01, clientbound) echoes a StatusPing.
type StatusPong struct{ Payload int64 }

// PacketID implements Packet.
func (*StatusPong) PacketID() int32 { return IDClientboundStatusPong }

// PacketName implements Packet.
func (*StatusPong) PacketName() string { return "StatusPong" }

// AppendPayload implements Packet.
func (p *StatusPong) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendI64(b, p.Payload), nil
}

// DecodePayload implements Packet.
func (p *StatusPong) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Payload = r.i64("payload")
	return r.finish()
}

// ServerStatus is the status JSON of a 1.7.10 server; Forge servers add
// ModInfo with their mod list.
type ServerStatus struct {
	Version struct {
		Name     string `json:"name"`
		Protocol int    `json:"protocol"`
	} `json:"version"`
	Players struct {
		Max    int `json:"max"`
		Online int `json:"online"`
		Sample []struct {
			Name string `json:"name"`
			ID   string `json:"id"`
		} `json:"sample,omitempty"`
	} `json:"players"`
	// Description is the MOTD: a chat component or a plain string.
	Description json.RawMessage `json:"description"`
	Favicon     string          `json:"favicon,omitempty"`
	ModInfo     *ModInfoList    `json:"modinfo,omitempty"`
}

// ModInfoList is the "modinfo" object of a Forge server's status.
type ModInfoList struct {
	Type    string    `json:"type"` // "FML"
	ModList []ModInfo `json:"modList"`
}

// ParseStatus parses a status JSON.
func ParseStatus(s string) (*ServerStatus, error) {
	var st ServerStatus
	if err := json.Unmarshal([]byte(s), &st); err != nil {
		return nil, fmt.Errorf("proto17: status JSON: %w", err)
	}
	return &st, nil
}

// MOTD is the description as plain text.
func (s *ServerStatus) MOTD() string { return PlainText(string(s.Description)) }

// Mods is the server's mod list (empty for a vanilla server).
func (s *ServerStatus) Mods() []ModInfo {
	if s.ModInfo == nil {
		return nil
	}
	return s.ModInfo.ModList
}

// Formats decides the wire formats from the status' mod list.
func (s *ServerStatus) Formats() (Formats, error) { return FormatsFromMods(s.Mods()) }

// LoginStart (login 0x00, serverbound) sends the player name.
type LoginStart struct{ Name string }

// PacketID implements Packet.
func (*LoginStart) PacketID() int32 { return IDServerboundLoginStart }

// PacketName implements Packet.
func (*LoginStart) PacketName() string { return "LoginStart" }

// AppendPayload implements Packet.
func (p *LoginStart) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendStr(b, p.PacketName(), "name", p.Name, maxNameLen)
}

// DecodePayload implements Packet.
func (p *LoginStart) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Name = r.str("name", maxNameLen)
	return r.finish()
}

// LoginDisconnect (login 0x00, clientbound) refuses the login; Reason is a
// JSON chat component.
type LoginDisconnect struct{ Reason string }

// PacketID implements Packet.
func (*LoginDisconnect) PacketID() int32 { return IDClientboundLoginDisconnect }

// PacketName implements Packet.
func (*LoginDisconnect) PacketName() string { return "LoginDisconnect" }

// AppendPayload implements Packet.
func (p *LoginDisconnect) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	return appendStr(b, p.PacketName(), "reason", p.Reason, maxChatLen)
}

// DecodePayload implements Packet.
func (p *LoginDisconnect) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.Reason = r.str("reason", maxChatLen)
	return r.finish()
}

// EncryptionRequest (login 0x01, clientbound) starts encryption on an
// online-mode server. The arrays are i16-prefixed in 1.7.
type EncryptionRequest struct {
	ServerID    string
	PublicKey   []byte // DER
	VerifyToken []byte
}

// PacketID implements Packet.
func (*EncryptionRequest) PacketID() int32 { return IDClientboundEncryptionRequest }

// PacketName implements Packet.
func (*EncryptionRequest) PacketName() string { return "EncryptionRequest" }

// AppendPayload implements Packet.
func (p *EncryptionRequest) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b, err := appendStr(b, p.PacketName(), "server id", p.ServerID, maxServerIDLen)
	if err != nil {
		return b, err
	}
	if b, err = appendShortArray(b, p.PacketName(), "public key", p.PublicKey); err != nil {
		return b, err
	}
	return appendShortArray(b, p.PacketName(), "verify token", p.VerifyToken)
}

// DecodePayload implements Packet.
func (p *EncryptionRequest) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.ServerID = r.str("server id", maxServerIDLen)
	p.PublicKey = r.shortArray("public key")
	p.VerifyToken = r.shortArray("verify token")
	return r.finish()
}

// EncryptionResponse (login 0x01, serverbound) sends the RSA-encrypted
// shared secret and verify token, i16-prefixed.
type EncryptionResponse struct {
	SharedSecret []byte
	VerifyToken  []byte
}

// PacketID implements Packet.
func (*EncryptionResponse) PacketID() int32 { return IDServerboundEncryptionResponse }

// PacketName implements Packet.
func (*EncryptionResponse) PacketName() string { return "EncryptionResponse" }

// AppendPayload implements Packet.
func (p *EncryptionResponse) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b, err := appendShortArray(b, p.PacketName(), "shared secret", p.SharedSecret)
	if err != nil {
		return b, err
	}
	return appendShortArray(b, p.PacketName(), "verify token", p.VerifyToken)
}

// DecodePayload implements Packet.
func (p *EncryptionResponse) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.SharedSecret = r.shortArray("shared secret")
	p.VerifyToken = r.shortArray("verify token")
	return r.finish()
}

// LoginSuccess (login 0x02, clientbound) ends the login; the state becomes
// play. UUID is the hyphenated string form.
type LoginSuccess struct {
	UUID string
	Name string
}

// PacketID implements Packet.
func (*LoginSuccess) PacketID() int32 { return IDClientboundLoginSuccess }

// PacketName implements Packet.
func (*LoginSuccess) PacketName() string { return "LoginSuccess" }

// AppendPayload implements Packet.
func (p *LoginSuccess) AppendPayload(b []byte, _ Formats) ([]byte, error) {
	b, err := appendStr(b, p.PacketName(), "uuid", p.UUID, maxUUIDLen)
	if err != nil {
		return b, err
	}
	return appendStr(b, p.PacketName(), "name", p.Name, maxNameLen)
}

// DecodePayload implements Packet.
func (p *LoginSuccess) DecodePayload(data []byte, _ Formats) error {
	r := newReader(p.PacketName(), data)
	p.UUID = r.str("uuid", maxUUIDLen)
	p.Name = r.str("name", maxNameLen)
	return r.finish()
}

// shortArray reads an i16-prefixed byte array (copied).
func (r *reader) shortArray(field string) []byte {
	start := r.off
	n := r.i16(field)
	if r.ok() && n < 0 {
		r.failAt(field, start, invalidf("negative length %d", n))
	}
	return cloneBytes(r.bytes(field, int(n)))
}

func appendShortArray(b []byte, packet, field string, v []byte) ([]byte, error) {
	if len(v) > math.MaxInt16 {
		return b, encodeErr(packet, field, tooLargef("%d bytes", len(v)))
	}
	return append(appendI16(b, int16(len(v))), v...), nil
}
