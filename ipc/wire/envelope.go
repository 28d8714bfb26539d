package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Version is the protocol version this package speaks. Every message carries
// it in "v"; a peer speaking another version gets a version error.
const Version = 1

// Message types that are not requests: the two kinds of reply, and the
// notifications either side may send.
const (
	// TypeReply answers the request with the same id; its payload's form
	// depends on the request's type.
	TypeReply = "reply"
	// TypeError answers a request that failed (same id), or reports a
	// message whose id could not be read (no id).
	TypeError = "error"
	// TypeCancel (a notification, no id) asks the peer to cancel the
	// request named in its payload.
	TypeCancel = "cancel"
)

// Message is one line of the protocol: {"v":1,"id":…,"type":…,"payload":…}.
// A request has an id and a type other than reply or error; its answer is a
// reply or an error with the same id. An event has no id.
type Message struct {
	V       int             `json:"v"`
	ID      json.RawMessage `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// IsRequest reports whether m expects an answer.
func (m *Message) IsRequest() bool {
	return len(m.ID) > 0 && m.Type != TypeReply && m.Type != TypeError
}

// IsEvent reports whether m is a notification (no id).
func (m *Message) IsEvent() bool { return len(m.ID) == 0 && m.Type != TypeError }

// maxIDBytes bounds an id: a number or a short string.
const maxIDBytes = 64

// Decode parses one line into a message and checks the envelope: the
// version, a type, an id that is a number or a string. The error is an
// *Error with code bad_request or version; when the id could be read, the
// returned message carries it so the error reply can name it.
func Decode(line []byte) (*Message, error) {
	var m Message
	if err := json.Unmarshal(line, &m); err != nil {
		return nil, Errorf(CodeBadRequest, "malformed JSON: %v", err)
	}
	if len(m.ID) > 0 {
		if bytes.Equal(m.ID, []byte("null")) {
			m.ID = nil
		} else if err := checkID(m.ID); err != nil {
			m.ID = nil
			return &m, err
		}
	}
	if m.V != Version {
		return &m, Errorf(CodeVersion, "protocol version %d is not supported (this peer speaks %d)", m.V, Version)
	}
	if m.Type == "" {
		return &m, Errorf(CodeBadRequest, "the message has no type")
	}
	if len(m.Payload) > 0 && bytes.Equal(m.Payload, []byte("null")) {
		m.Payload = nil
	}
	return &m, nil
}

func checkID(id json.RawMessage) error {
	if len(id) > maxIDBytes {
		return Errorf(CodeBadRequest, "the id is longer than %d bytes", maxIDBytes)
	}
	switch id[0] {
	case '"':
		return nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return nil
	}
	return Errorf(CodeBadRequest, "the id must be a number or a string")
}

// Encode marshals a payload into a message line (without the newline). The
// payload is encoded once, straight into the line: a reply of megabytes is
// not copied again into an envelope. A json.RawMessage payload (a reply
// built as JSON as it was gathered) is checked and copied into a line
// sized for it.
func Encode(id json.RawMessage, typ string, payload any) ([]byte, error) {
	var buf bytes.Buffer
	raw, isRaw := payload.(json.RawMessage)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	buf.WriteString(`{"v":`)
	buf.WriteString(strconv.Itoa(Version))
	if len(id) > 0 {
		buf.WriteString(`,"id":`)
		if err := json.Compact(&buf, id); err != nil {
			return nil, fmt.Errorf("wire: encoding the id of a %s: %w", typ, err)
		}
	}
	buf.WriteString(`,"type":`)
	if err := enc.Encode(typ); err != nil {
		return nil, err
	}
	buf.Truncate(buf.Len() - 1) // the encoder's newline
	switch {
	case isRaw && len(raw) == 0:
		buf.WriteString(`,"payload":null`)
	case isRaw:
		buf.WriteString(`,"payload":`)
		if err := json.Compact(&buf, raw); err != nil {
			return nil, fmt.Errorf("wire: encoding the %s payload: %w", typ, err)
		}
	case payload != nil:
		buf.WriteString(`,"payload":`)
		if err := enc.Encode(payload); err != nil {
			return nil, fmt.Errorf("wire: encoding the %s payload: %w", typ, err)
		}
		buf.Truncate(buf.Len() - 1)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// ErrorCode classifies a protocol error.
type ErrorCode string

// Error codes.
const (
	// CodeBadRequest: malformed JSON, a missing or ill-typed field, a
	// parameter out of range.
	CodeBadRequest ErrorCode = "bad_request"
	// CodeUnknownType: the message type is not part of the protocol.
	CodeUnknownType ErrorCode = "unknown_type"
	// CodeTooLarge: the message, or the answer it asks for, exceeds a limit.
	CodeTooLarge ErrorCode = "too_large"
	// CodeUnsupported: a known type this peer does not serve (a query its
	// body cannot answer, a request to the wrong role).
	CodeUnsupported ErrorCode = "unsupported"
	// CodeBusy: the peer cannot take the request now (an action is already
	// running, too many requests in flight).
	CodeBusy ErrorCode = "busy"
	// CodeUnauthorized: no hello yet, or a missing or wrong token.
	CodeUnauthorized ErrorCode = "unauthorized"
	// CodeVersion: the peer speaks another protocol version.
	CodeVersion ErrorCode = "version"
	// CodeCancelled: the request was cancelled (a cancel notification, the
	// server shutting down).
	CodeCancelled ErrorCode = "cancelled"
	// CodeInternal: the peer failed in a way that is its own bug.
	CodeInternal ErrorCode = "internal"
)

// ErrorCodes lists every code, for documentation and validation.
var ErrorCodes = []ErrorCode{CodeBadRequest, CodeUnknownType, CodeTooLarge, CodeUnsupported, CodeBusy,
	CodeUnauthorized, CodeVersion, CodeCancelled, CodeInternal}

// Error is the payload of an error message, and the Go error a client
// returns for one.
type Error struct {
	Code    ErrorCode `json:"code"`
	Message string    `json:"message"`
}

func (e *Error) Error() string { return "ipc: " + string(e.Code) + ": " + e.Message }

// Errorf builds an *Error.
func Errorf(code ErrorCode, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of an *Error in err's chain, or "".
func CodeOf(err error) ErrorCode {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// DecodePayload parses a request payload strictly into v: unknown fields
// are errors, so a misspelt field is reported rather than ignored, and an
// empty payload is an empty object. The error is a bad_request *Error.
func DecodePayload(payload json.RawMessage, v any) error {
	if len(payload) == 0 {
		payload = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Errorf(CodeBadRequest, "payload: %v", err)
	}
	return nil
}
