package gtnh

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	pk "github.com/Tnze/go-mc/net/packet"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// ServerInfo is what a Server List Ping tells about a server.
type ServerInfo struct {
	Address  string        `json:"address"`
	Latency  time.Duration `json:"latency_ns"`
	MOTD     string        `json:"motd"`
	Version  string        `json:"version"`
	Protocol int           `json:"protocol"`
	Online   int           `json:"players_online"`
	Max      int           `json:"players_max"`
	// Players are the sample names the server lists.
	Players []string `json:"players,omitempty"`
	// Forge reports a "modinfo" of type FML.
	Forge bool `json:"forge"`
	// Mods is the server's mod list; ModCount its length.
	Mods     []proto17.ModInfo `json:"mods,omitempty"`
	ModCount int               `json:"mod_count"`
	// ProtocolMods are the mods that change the wire format (neid,
	// modularui), with their versions.
	ProtocolMods []proto17.ModInfo `json:"protocol_mods"`
	// Formats are the wire formats the mod list implies; FormatsErr says
	// why they could not be decided (an unsupported NotEnoughIds version).
	Formats    proto17.Formats `json:"formats"`
	FormatsErr string          `json:"formats_error,omitempty"`
	// Status is the parsed status JSON.
	Status *proto17.ServerStatus `json:"-"`
}

// protocolMods lists the mod ids whose presence changes the wire format.
var protocolMods = []string{proto17.ModNEID, proto17.ModModularUI, proto17.ModModularUI2}

// newServerInfo summarises a status.
func newServerInfo(addr string, st *proto17.ServerStatus, latency time.Duration) *ServerInfo {
	info := &ServerInfo{
		Address: addr, Latency: latency, MOTD: st.MOTD(),
		Version: st.Version.Name, Protocol: st.Version.Protocol,
		Online: st.Players.Online, Max: st.Players.Max,
		Forge: st.ModInfo != nil && st.ModInfo.Type == "FML",
		Mods:  st.Mods(), Status: st,
	}
	for _, p := range st.Players.Sample {
		info.Players = append(info.Players, p.Name)
	}
	info.ModCount = len(info.Mods)
	info.ProtocolMods = []proto17.ModInfo{}
	for _, id := range protocolMods {
		for _, m := range info.Mods {
			if m.ModID == id {
				info.ProtocolMods = append(info.ProtocolMods, m)
			}
		}
	}
	f, err := proto17.FormatsFromMods(info.Mods)
	info.Formats = f
	if err != nil {
		info.FormatsErr = err.Error()
	}
	return info
}

// Ping runs a Server List Ping against cfg.Address (only the address, the
// dialer and the timeouts of cfg are used): handshake to the status state
// (with the FML marker a Forge client sends), status request, then a ping
// whose echo gives the latency.
func Ping(ctx context.Context, cfg Config) (*ServerInfo, error) {
	cfg = cfg.withDefaults()
	host, port, err := splitHostPort(cfg.Address)
	if err != nil {
		return nil, &LoginError{Stage: StagePing, Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.DialTimeout+cfg.LoginTimeout)
	defer cancel()
	c, err := dial(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer c.close()
	stop := context.AfterFunc(ctx, c.close)
	defer stop()
	info, err := ping(c, cfg, host, port)
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("%w (%v)", ctx.Err(), err)
		}
		return nil, &LoginError{Stage: StagePing, Err: err}
	}
	return info, nil
}

func ping(c *conn, cfg Config, host string, port uint16) (*ServerInfo, error) {
	if err := c.write(&proto17.Handshake{Protocol: proto17.ProtocolVersion, Host: host, Port: port, NextState: 1, FML: true}); err != nil {
		return nil, err
	}
	start := time.Now()
	if err := c.write(&proto17.StatusRequest{}); err != nil {
		return nil, err
	}
	var buf pk.Packet
	p, err := c.readPacket(&buf, proto17.Status, cfg.ReadTimeout)
	if err != nil {
		return nil, fmt.Errorf("reading the status: %w", err)
	}
	resp, ok := p.(*proto17.StatusResponse)
	if !ok {
		return nil, fmt.Errorf("expected a status response, got packet 0x%02X", buf.ID)
	}
	st, err := proto17.ParseStatus(resp.JSON)
	if err != nil {
		return nil, err
	}
	latency := time.Since(start)
	token := rand.Int64()
	if err := c.write(&proto17.StatusPing{Payload: token}); err == nil {
		pingAt := time.Now()
		if p, err := c.readPacket(&buf, proto17.Status, cfg.ReadTimeout); err == nil {
			if pong, ok := p.(*proto17.StatusPong); ok && pong.Payload == token {
				latency = time.Since(pingAt)
			}
		} else {
			// Some servers close after the status; the status stands.
			c.log.Debug().Err(err).Msg("no pong")
		}
	}
	return newServerInfo(cfg.Address, st, latency), nil
}
