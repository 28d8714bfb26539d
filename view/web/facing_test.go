package web_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/view/web"
)

// The game client tells the way it faces; the simulator keeps no look.
var _ web.LookSource = (*gtnh.Client)(nil)

// lookingWorld is a world whose body tells the way it faces.
type lookingWorld struct {
	*sim.Sim
	yaw float32
	ok  bool
}

func (l *lookingWorld) Facing() (float32, float32, bool) { return l.yaw, 10, l.ok }

// TestTheHeadingIsTheBodysLook: a body that tells its look gives the bot's
// heading (Minecraft's yaw turned to degrees clockwise from north), not
// the direction it last moved; before it has a look, and for a body that
// tells none, the heading is the way it moved.
func TestTheHeadingIsTheBodysLook(t *testing.T) {
	ctx := context.Background()
	// The view takes the heading from where the bot was when it was last
	// asked: it is asked before the walk and after.
	walkEast := func(t *testing.T, w *sim.Sim, v *web.View) {
		stateOf(t, v)
		conn := v.Conn(ipc.InProcess(w))
		snap, err := conn.Observe(ctx)
		require.NoError(t, err)
		res, err := conn.Execute(ctx, action.MoveTo{Pos: snap.Feet().Add(4, 0, 0), Radius: 0})
		require.NoError(t, err)
		require.True(t, res.OK(), res.Error)
	}

	w := newSim(t)
	_, implements := any(w).(web.LookSource)
	require.False(t, implements, "the simulator keeps no look: the heading is its movement")
	v := web.New(web.Options{World: w})
	walkEast(t, w, v)
	assert.Equal(t, float64(90), stateOf(t, v).Heading, "moved east")

	lw := &lookingWorld{Sim: newSim(t)}
	v = web.New(web.Options{World: lw})
	walkEast(t, lw.Sim, v)
	assert.Equal(t, float64(90), stateOf(t, v).Heading, "no look yet: the way it moved")
	for _, c := range []struct {
		yaw  float32
		want float64
	}{{0, 180}, {90, 270}, {180, 0}, {-90, 90}, {45.4, 225}, {359.6, 180}} {
		lw.yaw, lw.ok = c.yaw, true
		assert.Equal(t, c.want, stateOf(t, v).Heading, "yaw %v", c.yaw)
	}
}
