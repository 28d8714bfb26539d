package path_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// TestRouteLog: none before the first route; each route set gets the next
// number and is handed back as it was given.
func TestRouteLog(t *testing.T) {
	var l path.RouteLog
	seq, steps := l.Last()
	assert.Zero(t, seq)
	assert.Nil(t, steps)
	a := []path.Step{{Pos: world.Pos(1, 64, 1)}}
	b := []path.Step{{Pos: world.Pos(2, 64, 1)}, {Pos: world.Pos(3, 64, 1)}}
	l.Set(a)
	l.Set(b)
	seq, steps = l.Last()
	assert.Equal(t, uint64(2), seq)
	assert.Equal(t, b, steps)
}
