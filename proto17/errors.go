package proto17

import (
	"errors"
	"fmt"
)

// Causes carried by Error. Test with errors.Is.
var (
	// ErrTruncated means the data ended before the field was complete.
	ErrTruncated = errors.New("truncated")
	// ErrTrailing means bytes were left after the last field. The 1.7.10
	// client rejects such packets too, and it is the usual symptom of a
	// format switch (NEID, ModularUI) that does not match the server.
	ErrTrailing = errors.New("trailing bytes")
	// ErrInvalid means a field holds a value the format does not allow.
	ErrInvalid = errors.New("invalid value")
	// ErrTooLarge means a length or count exceeds a limit.
	ErrTooLarge = errors.New("too large")
)

// Error is a failure to decode or encode one packet (or one FML message). It
// names the packet and the field, and the byte offset in the payload (after
// the packet id) where the problem was found, so a connection can log it,
// count it and skip the packet instead of dropping the connection.
type Error struct {
	Packet string // packet name, e.g. "ChunkData" or "FML|HS ModIdData"
	Field  string // field path, e.g. "records[3].meta"
	Offset int    // byte offset in the payload; -1 when not known
	Err    error  // the cause: ErrTruncated, ErrTrailing, ErrInvalid, ErrTooLarge or an inflate error
}

// Error formats the packet, field, offset and cause.
func (e *Error) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("proto17: %s: %s at offset %d: %v", e.Packet, e.Field, e.Offset, e.Err)
	}
	return fmt.Sprintf("proto17: %s: %s: %v", e.Packet, e.Field, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// invalidf builds an ErrInvalid cause with detail.
func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// tooLargef builds an ErrTooLarge cause with detail.
func tooLargef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrTooLarge, fmt.Sprintf(format, args...))
}

// encodeErr reports a value an encoder cannot represent.
func encodeErr(packet, field string, cause error) error {
	return &Error{Packet: packet, Field: field, Offset: -1, Err: cause}
}
