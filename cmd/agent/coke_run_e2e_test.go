package main

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// cokeRun runs `agent run --goal "run maintain_coke_ovens"` against the
// steam-age test server, whose formed coke oven holds what output says,
// and returns the server, the exit code, the output and the trace's steps.
// The bot knows the oven only from Railcraft's tile messages, which carry
// no contents: it has to open the oven to see what it holds.
func cokeRun(t *testing.T, format string, output fakeserver.Item) (*fakeserver.Server, int, string, []loop.StepRecord) {
	t.Helper()
	o := steamAgeOptions(format, fakeserver.Item{Slot: 36, Name: "minecraft:iron_axe", Count: 1}, fakeserver.Item{Slot: 37, Name: "minecraft:coal", Count: 32})
	require.Len(t, o.CokeOvens, 1)
	o.CokeOvens[0].Output = output
	return steamAgeRun(t, o, "run maintain_coke_ovens", 6)
}

// TestRunMaintainCokeOvensOnAFakeServer: `run maintain_coke_ovens` alone,
// on a fresh connection, reaches its declared effects: the bot looks into
// the oven whose contents it does not know (a step that collects nothing,
// so not a success), then collects the coke it saw. The server's oven lost
// its coke and the server's player gained it, in both chunk formats.
func TestRunMaintainCokeOvensOnAFakeServer(t *testing.T) {
	for _, format := range []string{"neid", "vanilla"} {
		t.Run(format, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv, code, out, steps := cokeRun(t, format, fakeserver.Item{Name: fakeserver.CokeItem, Count: 12})
				require.Equal(t, exitOK, code, out)
				assert.Contains(t, out, "goal met")
				require.Len(t, steps, 2, out)
				assert.Equal(t, loop.Looked, steps[0].Verdict, "looking into the oven collects nothing")
				assert.Equal(t, loop.Success, steps[1].Verdict, "%+v", steps[1])
				items, _ := srv.ContainerItems(master)
				assert.NotContains(t, items, "output", "the server's output slot was emptied")
				assert.Equal(t, 12, player(t, srv).Count(fakeserver.CokeItem), "the coke is in the player's inventory on the server")
			})
		})
	}
}

// TestRunMaintainCokeOvensEmptyOven: an oven that turns out empty when
// looked into is no success: the goal is not met.
func TestRunMaintainCokeOvensEmptyOven(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, code, out, steps := cokeRun(t, "neid", fakeserver.Item{})
		assert.NotEqual(t, exitOK, code, out)
		assert.NotContains(t, out, "goal met")
		require.Len(t, steps, 2, out)
		assert.Equal(t, loop.Looked, steps[0].Verdict, "looking into the oven collects nothing")
		assert.Equal(t, loop.Noop, steps[1].Verdict, "the oven is known to be empty: nothing to do")
		for _, s := range steps {
			assert.NotEqual(t, loop.Success, s.Verdict, "%+v", s)
		}
		assert.Zero(t, player(t, srv).Count(fakeserver.CokeItem))
	})
}
