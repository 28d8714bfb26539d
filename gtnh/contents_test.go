package gtnh

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestCokeOvenContentsUnknownUntilOpened: a coke oven known from
// Railcraft's tile messages is marked ContentsUnknown (Railcraft sends its
// slots and tank only to a player with its window open); opening its window
// fills its slots and clears the mark, keeping what the tile messages said.
func TestCokeOvenContentsUnknownUntilOpened(t *testing.T) {
	for _, tc := range formatsCases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, c := steamAgeServer(t, tc.neid, nil)
				master := world.Pos(3, 64, 1)
				oven := machine(t, c, world.MachineCokeOven, master)
				assert.True(t, oven.ContentsUnknown, "known from the world, its contents are not")
				assert.True(t, oven.Slot("output").Empty())

				ctx := context.Background()
				for _, a := range []action.Action{
					action.MoveTo{Pos: world.Pos(3, 64, 4), Radius: 1},
					action.OpenContainer{Pos: master},
					action.CloseContainer{},
				} {
					r := c.Execute(ctx, a)
					require.Equal(t, ipc.OK, r.Code, "%T: %s", a, r.Error)
				}
				oven = machine(t, c, world.MachineCokeOven, master)
				assert.False(t, oven.ContentsUnknown, "the window showed its contents")
				assert.Equal(t, 12, oven.Slot("output").Count, "the output the window showed")
				assert.True(t, oven.Formed, "what the tile messages said stays")
			})
		})
	}
}
