package remote_test

import (
	"bufio"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
)

// TestCancelledExecuteIsNotSent: an execute whose context is already
// cancelled is interrupted without reaching the server (which would
// otherwise start an action nobody waits for, racing the cancel notice).
// The peer here records what it receives, in order.
func TestCancelledExecuteIsNotSent(t *testing.T) {
	clientEnd, serverEnd := pipePair(t)
	got := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(serverEnd)
		for sc.Scan() {
			m, err := wire.Decode(sc.Bytes())
			if err != nil {
				continue
			}
			got <- m.Type
			if len(m.ID) == 0 {
				continue
			}
			var line []byte
			if m.Type == wire.TypeHello {
				line, _ = wire.Encode(m.ID, wire.TypeReply, wire.Welcome{Protocol: wire.Version, Role: wire.RoleBody, Name: "recorder",
					Actions: []string{string(action.KindWait)}})
			} else {
				line, _ = wire.Encode(m.ID, wire.TypeError, wire.Errorf(wire.CodeUnsupported, "recorder"))
			}
			serverEnd.Write(append(line, '\n'))
		}
		close(got)
	}()
	ctx, cancel := testdeadline.WithCancel(t, "the client's hello")
	defer cancel()
	c, err := remote.NewClient(ctx, clientEnd, remote.ClientOptions{})
	require.NoError(t, err)
	cancelled, stop := context.WithCancel(context.Background())
	stop()
	res, err := c.Execute(cancelled, action.Wait{Ticks: 20})
	require.NoError(t, err)
	assert.Equal(t, ipc.Interrupted, res.Code)
	// A later request marks the end of what the execute could have sent.
	require.Error(t, c.Call(ctx, wire.TypeObserve, wire.ObserveRequest{}, nil))
	require.NoError(t, c.Close())
	serverEnd.Close()
	var types []string
	for typ := range got {
		types = append(types, typ)
	}
	assert.Equal(t, []string{wire.TypeHello, wire.TypeObserve}, types)
}
