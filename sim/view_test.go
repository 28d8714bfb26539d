package sim

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestViewRadius: with a view radius the bot sees blocks and machines only
// that close: farther blocks read as air, are not known and are never
// found, around the feet or any other center.
func TestViewRadius(t *testing.T) {
	sc, err := DefaultScenario()
	require.NoError(t, err)
	full, err := New(sc, Options{})
	require.NoError(t, err)
	seen, err := New(sc, Options{ViewRadius: 12})
	require.NoError(t, err)
	all, err := full.Observe(context.Background())
	require.NoError(t, err)
	part, err := seen.Observe(context.Background())
	require.NoError(t, err)
	feet := part.Feet()

	logs := all.NearestBlocks(40, 0, "log")
	require.NotEmpty(t, logs)
	var in, out []world.BlockHit
	for _, h := range logs {
		if h.Pos.DistSq(feet) <= 144 {
			in = append(in, h)
		} else {
			out = append(out, h)
		}
	}
	require.NotEmpty(t, in)
	require.NotEmpty(t, out)
	assert.Equal(t, in, part.NearestBlocks(40, 0, "log"), "around the feet: exactly what is in view")
	assert.Equal(t, out[0].Block, all.BlockAt(out[0].Pos))
	assert.True(t, part.BlockAt(out[0].Pos).IsAir(), "beyond the view a block reads as air")
	assert.False(t, part.Known(out[0].Pos))
	assert.True(t, part.Known(in[0].Pos))
	assert.True(t, all.Known(out[0].Pos), "without a view radius the whole world is known")

	// Around another center, what is out of view is not found.
	far := out[len(out)-1].Pos
	for _, h := range part.Blocks.Nearest(far, 40, 0, func(b world.Block) bool { return b.HasTag("log") }) {
		assert.LessOrEqual(t, h.Pos.DistSq(feet), 144, "%v is out of view", h.Pos)
	}
	for _, m := range part.Machines {
		assert.LessOrEqual(t, m.Pos.DistSq(feet), 144, "machine %s at %v", m.Kind, m.Pos)
	}
	assert.Greater(t, len(all.Machines), len(part.Machines), "the base's machines stand out of view")
}
