package wire_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
)

// TestDecodePayload: a request payload is read strictly — a misspelt
// field is a bad_request naming it, and an absent payload is an empty
// object.
func TestDecodePayload(t *testing.T) {
	var h wire.Hello
	require.NoError(t, wire.DecodePayload(json.RawMessage(`{"protocol":1,"role":"agent"}`), &h))
	assert.Equal(t, 1, h.Protocol)
	assert.Equal(t, "agent", h.Role)

	h = wire.Hello{}
	require.NoError(t, wire.DecodePayload(nil, &h), "no payload is {}")
	assert.Equal(t, wire.Hello{}, h)

	err := wire.DecodePayload(json.RawMessage(`{"protocol":1,"rol":"agent"}`), &h)
	require.Error(t, err)
	assert.Equal(t, wire.CodeBadRequest, wire.CodeOf(err))
	assert.Contains(t, err.Error(), `unknown field "rol"`)

	err = wire.DecodePayload(json.RawMessage(`[1]`), &h)
	assert.Equal(t, wire.CodeBadRequest, wire.CodeOf(err))
}
