package gtnh

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// Stages of joining a server, named in LoginError.
const (
	StageDial      = "dial"
	StagePing      = "ping"
	StageLogin     = "login"
	StageEncrypt   = "encryption"
	StageHandshake = "fml handshake"
	StageJoin      = "join"
	StagePlay      = "play"
)

// LoginError is a failure to join a server: the stage it happened in and the
// cause. It unwraps to the cause.
type LoginError struct {
	Stage string
	Err   error
}

// Error implements error.
func (e *LoginError) Error() string { return fmt.Sprintf("gtnh: %s: %v", e.Stage, e.Err) }

// Unwrap returns the cause.
func (e *LoginError) Unwrap() error { return e.Err }

// KickError is a disconnect by the server (during login or play), with the
// reason as plain text.
type KickError struct {
	Reason string
	// Key is the translation key when the server sent the reason as a
	// translate component (later servers and proxies do; 1.7.10 sends
	// plain text).
	Key string
}

// Error implements error.
func (e *KickError) Error() string { return "kicked by the server: " + e.Reason }

// Permanent reports whether the kick says something a retry cannot change
// (a ban, the white-list, the mod list, the account, the version) and
// why; see permanentKickKeys and permanentKickTexts.
func (e *KickError) Permanent() (string, bool) { return permanentKick(e.Key, e.Reason) }

// HandshakeError is a server that broke the FML handshake: a message out of
// order or one that does not decode.
type HandshakeError struct {
	// State is the client's handshake state when it happened.
	State string
	// Got names what arrived.
	Got string
	Err error
}

// Error implements error.
func (e *HandshakeError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("FML handshake in state %s: %s: %v", e.State, e.Got, e.Err)
	}
	return fmt.Sprintf("FML handshake in state %s: unexpected %s", e.State, e.Got)
}

// Unwrap returns the cause.
func (e *HandshakeError) Unwrap() error { return e.Err }

var (
	// ErrNoAuthProvider: the server is in online mode (it asked for
	// encryption) and no AuthProvider is configured.
	ErrNoAuthProvider = errors.New("the server is in online mode (it sent an Encryption Request) and no authentication provider is configured; " +
		"use an offline-mode server or configure an AuthProvider")
	// ErrCredentialsRefused marks an AuthProvider error that no retry can
	// heal: the account's saved sign-in was refused or is missing or
	// unusable, and only the user can sign in again. An AuthProvider's Join
	// returns an error that matches it (errors.Is); the client then stops
	// reconnecting instead of asking again at every attempt.
	ErrCredentialsRefused = errors.New("the account's sign-in was refused; sign in again")
	// ErrClosed is returned by a closed client.
	ErrClosed = errors.New("gtnh: client closed")
	// ErrNotConnected: the client has no live connection now.
	ErrNotConnected = errors.New("gtnh: not connected")
)

// fatal reports errors after which reconnecting cannot help: no way to
// authenticate (no provider, or credentials the provider says only the user
// can renew), a broken FML handshake, or a kick that says so.
func fatal(err error) bool {
	var he *HandshakeError
	if errors.Is(err, ErrNoAuthProvider) || errors.Is(err, ErrCredentialsRefused) || errors.As(err, &he) {
		return true
	}
	var ke *KickError
	if errors.As(err, &ke) {
		_, permanent := ke.Permanent()
		return permanent
	}
	return false
}

// kickFrom reads a Disconnect's reason: its plain text and, when the
// component is a translation, its key.
func kickFrom(raw string) *KickError {
	k := &KickError{Reason: proto17.PlainText(raw)}
	var top struct {
		Translate string `json:"translate"`
	}
	if json.Unmarshal([]byte(raw), &top) == nil {
		k.Key = top.Translate
	}
	return k
}

// permanentKickKeys are the translation keys of kicks that a retry cannot
// change. A 1.7.10 server sends its kicks as plain text (see
// permanentKickTexts); these keys are what later vanilla servers
// (PlayerList.canPlayerLogin, ServerLoginPacketListenerImpl,
// ServerHandshakePacketListenerImpl) and proxies in front of old servers
// send.
var permanentKickKeys = map[string]string{
	"multiplayer.disconnect.banned":              "banned",
	"multiplayer.disconnect.banned.reason":       "banned",
	"multiplayer.disconnect.banned_ip.reason":    "IP banned",
	"multiplayer.disconnect.ip_banned":           "IP banned",
	"multiplayer.disconnect.not_whitelisted":     "not on the white-list",
	"multiplayer.disconnect.outdated_client":     "client version refused",
	"multiplayer.disconnect.outdated_server":     "client version refused",
	"multiplayer.disconnect.incompatible":        "client version refused",
	"multiplayer.disconnect.unverified_username": "the session service did not verify the account",
	"multiplayer.disconnect.duplicate_login":     "the account logged in from another client",
	"multiplayer.disconnect.kicked":              "an operator kicked the bot",
	"multiplayer.disconnect.name_taken":          "the name is taken",
}

// permanentKickTexts are the reasons (by prefix, case-insensitive) of
// 1.7.10 Forge kicks that a retry cannot change. Sources (Minecraft 1.7.10
// with Forge 10.13.4, MCP names):
//   - ServerConfigurationManager.allowUserToConnect: "You are banned from
//     this server!\nReason: …", "You are not white-listed on this
//     server!", "Your IP address is banned from this server!\nReason: …"
//     (and "The server is full!", which is worth a retry);
//   - CommandBanPlayer / CommandBanIp: "You are banned from this server.",
//     "You have been IP banned."; CommandServerKick: "Kicked by an
//     operator." (an operator wants the bot gone);
//   - NetHandlerHandshakeTCP: "Outdated server! I'm still on 1.7.10",
//     "Outdated client! Please use 1.7.10";
//   - NetHandlerLoginServer: "Failed to verify username!" (the session
//     join failed: an offline-mode account on an online-mode server, or a
//     bad token); "Authentication servers are down…" is worth a retry;
//   - FMLNetworkHandler.checkModList: "Mod rejections [mod, …]";
//   - ServerConfigurationManager.createPlayerForUser: "You logged in from
//     another location" (another client uses the account: reconnecting
//     would kick it in turn);
//   - NetHandlerPlayServer (hardcore death ban): "You have died. Game
//     over, man, it's game over!".
//
// CraftBukkit-based servers (Thermos, Crucible) spell the white-list kick
// "You are not whitelisted on this server!".
var permanentKickTexts = []struct{ prefix, why string }{
	{"You are banned from this server", "banned"},
	{"Your IP address is banned from this server", "IP banned"},
	{"You have been IP banned", "IP banned"},
	{"You are not white-listed on this server", "not on the white-list"},
	{"You are not whitelisted on this server", "not on the white-list"},
	{"Outdated server!", "client version refused"},
	{"Outdated client!", "client version refused"},
	{"Failed to verify username", "the session service did not verify the account"},
	{"Mod rejections", "the mod list does not match"},
	{"You logged in from another location", "the account logged in from another client"},
	{"Kicked by an operator", "an operator kicked the bot"},
	{"You have died. Game over", "banned (hardcore death)"},
}

// permanentKick classifies a kick by translation key, then by text.
func permanentKick(key, reason string) (string, bool) {
	if why, ok := permanentKickKeys[key]; ok {
		return why, true
	}
	r := strings.TrimSpace(reason)
	for _, k := range permanentKickTexts {
		if len(r) >= len(k.prefix) && strings.EqualFold(r[:len(k.prefix)], k.prefix) {
			return k.why, true
		}
	}
	return "", false
}
