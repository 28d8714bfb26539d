package gtnh

import (
	"os"
	"testing"
	"testing/synctest"
	"time"

	pk "github.com/Tnze/go-mc/net/packet"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/memnet"
)

// TestReadTimeoutNamesTheSilence: a server that sends nothing within the
// read timeout ends the read with an error that says so.
func TestReadTimeoutNamesTheSilence(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		client, server := memnet.Pipe()
		defer server.Close()
		c := newConn(client, time.Second, zerolog.Nop())
		defer c.close()
		var buf pk.Packet
		start := time.Now()
		err := c.read(&buf, 50*time.Millisecond)
		require.Error(t, err)
		assert.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond)
		assert.Contains(t, err.Error(), "no packet from the server for 50ms (read timeout)")
		assert.ErrorIs(t, err, os.ErrDeadlineExceeded)

		// Other errors pass unchanged.
		server.Close()
		err = c.read(&buf, time.Second)
		require.Error(t, err)
		assert.NotContains(t, err.Error(), "read timeout")
	})
}
