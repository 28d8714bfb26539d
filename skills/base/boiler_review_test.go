package base

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// TestFeedSteamBoilerNoFuelCountsBoth: with no fuel, the failure counts the
// boilers known to want fuel and those not looked into yet together.
func TestFeedSteamBoilerNoFuelCountsBoth(t *testing.T) {
	none := world.ItemStack{}
	w := snap(at(0, 64, 0), nil, world.NewInventory(stack("minecraft:log", 0, 40)),
		unknownBoiler(3, 64, 0, true), boiler(5, 64, 0, 16000, 20, none))
	acts, err := run(t, FeedSteamBoiler{}, w, nil)
	f := requireFailure(t, err, skills.CodeMissingItems)
	assert.Contains(t, f.Error(), "2 boiler(s) may want fuel (1 not looked into yet)")
	assert.Empty(t, acts)
}
