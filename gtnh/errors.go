package gtnh

import (
	"errors"
	"fmt"
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
}

// Error implements error.
func (e *KickError) Error() string { return "kicked by the server: " + e.Reason }

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
	// ErrClosed is returned by a closed client.
	ErrClosed = errors.New("gtnh: client closed")
	// ErrNotConnected: the client has no live connection now.
	ErrNotConnected = errors.New("gtnh: not connected")
)

// fatal reports errors after which reconnecting cannot help.
func fatal(err error) bool {
	var he *HandshakeError
	return errors.Is(err, ErrNoAuthProvider) || errors.As(err, &he)
}
