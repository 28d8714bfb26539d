package remote_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/ipc/remote"
	"github.com/gtnh-agent/gtnh-agent/ipc/wire"
	"github.com/gtnh-agent/gtnh-agent/memory"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestRecallQuery: a body that remembers answers recall from its memory
// file, nearest first, within the bounds asked, and its welcome lists the
// query; a body that does not answers unsupported and does not list it;
// out-of-range arguments are bad requests.
func TestRecallQuery(t *testing.T) {
	ctx := context.Background()
	st, err := memory.Open(filepath.Join(t.TempDir(), "memory.db"), memory.Options{})
	require.NoError(t, err)
	defer st.Close()
	w := newSim(t, 0)
	body := memory.WrapBody(w, st, "sim/test", zerolog.Nop())
	q := remote.Queries{Observe: body.Observe}
	ask := func(q remote.Queries, req wire.RecallRequest) (any, error) {
		raw, err := json.Marshal(req)
		require.NoError(t, err)
		return q.Answer(ctx, wire.TypeRecall, raw)
	}

	got, err := ask(q, wire.RecallRequest{Block: "minecraft:log", MaxDistance: 64, K: 3})
	require.NoError(t, err)
	pos := got.(wire.RecallReply).Positions
	require.Len(t, pos, 3)
	snap, err := w.Observe(ctx)
	require.NoError(t, err)
	assert.Equal(t, snap.NearestBlocks(24, 1, "log")[0].Pos, pos[0])
	assert.True(t, slices.IsSortedFunc(pos, func(a, b world.BlockPos) int { return a.DistSq(snap.Feet()) - b.DistSq(snap.Feet()) }))

	got, err = ask(q, wire.RecallRequest{Block: "minecraft:diamond_ore", MaxDistance: 64, K: 3})
	require.NoError(t, err)
	assert.Equal(t, []world.BlockPos{}, got.(wire.RecallReply).Positions)

	for _, req := range []wire.RecallRequest{
		{Block: "log", MaxDistance: 64, K: 1},
		{Block: "minecraft:log", MaxDistance: 0, K: 1},
		{Block: "minecraft:log", MaxDistance: 4097, K: 1},
		{Block: "minecraft:log", MaxDistance: 64, K: 65},
	} {
		_, err := ask(q, req)
		var we *wire.Error
		require.True(t, errors.As(err, &we), "%+v: %v", req, err)
		assert.Equal(t, wire.CodeBadRequest, we.Code, "%+v", req)
	}

	_, err = ask(remote.Queries{Observe: w.Observe}, wire.RecallRequest{Block: "minecraft:log", MaxDistance: 64, K: 1})
	var we *wire.Error
	require.True(t, errors.As(err, &we), "%v", err)
	assert.Equal(t, wire.CodeUnsupported, we.Code)
	assert.Contains(t, we.Message, "--memory FILE")

	// The welcome lists recall only for a body that remembers.
	for _, tc := range []struct {
		opts remote.ServerOptions
		want bool
	}{{remote.ServerOptions{Body: body, Poll: -1}, true}, {remote.ServerOptions{Body: w, Poll: -1}, false}} {
		addr, _ := serve(t, tc.opts, "unix")
		c := dial(t, addr, remote.ClientOptions{})
		assert.Equal(t, tc.want, slices.Contains(c.Welcome().Requests, wire.TypeRecall))
	}
}
