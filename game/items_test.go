package game

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplitID(t *testing.T) {
	tests := []struct {
		in   string
		id   string
		meta int
		err  string
	}{
		{"minecraft:log", "minecraft:log", -1, ""},
		{"minecraft:coal:1", "minecraft:coal", 1, ""},
		{"minecraft:coal:0", "minecraft:coal", 0, ""},
		{"minecraft:coal:007", "minecraft:coal", 7, ""},
		{"Railcraft:machine.alpha:7", "Railcraft:machine.alpha", 7, ""},
		{"BuildCraft|Factory:tankBlock", "BuildCraft|Factory:tankBlock", -1, ""},
		{"gregtech:gt.metatool.01:32767", "gregtech:gt.metatool.01", 32767, ""},
		{"mod:a/b", "mod:a/b", -1, ""},
		{"gregtech:gt.metatool.01:32768", "", 0, "metadata out of range"},
		{"minecraft:log:99999999999999999999", "", 0, "metadata out of range"},
		{"log", "", 0, "is not an id"},
		{"", "", 0, "is not an id"},
		{"minecraft:", "", 0, "is not an id"},
		{":log", "", 0, "is not an id"},
		{"minecraft:log:x", "", 0, "is not an id"},
		{"minecraft:log:-1", "", 0, "is not an id"},
		{"minecraft:log:1:2", "", 0, "is not an id"},
		{"mine craft:log", "", 0, "is not an id"},
		{"ore:logWood", "ore:logWood", -1, ""}, // shaped like an id; callers decide
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			id, meta, err := SplitID(tc.in)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.id, id)
			assert.Equal(t, tc.meta, meta)
		})
	}
}
