package skills

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDropKey: "drop:" takes a block id or a block_id parameter, only as
// an inventory_delta key; it resolves with the invocation's block.
func TestDropKey(t *testing.T) {
	for _, tc := range []struct {
		key, err string
	}{
		{`"drop:{target}"`, ""},
		{`"drop:minecraft:gravel"`, ""},
		{`"drop:{fuel}"`, `drop: needs a block_id parameter, not "fuel"`},
		{`"drop:{what}"`, `drop: needs a block_id parameter, not "what"`},
		{`"drop:tag:log"`, `drop: needs a block id or a block_id parameter, got "tag:log"`},
		{`"drop:gravel"`, `drop: needs a block id or a block_id parameter, got "gravel"`},
	} {
		t.Run(tc.key, func(t *testing.T) {
			src := effHdr + "effects:\n  inventory_delta:\n    " + tc.key + ": {min_increase: 1}\n"
			spec, err := ParseSpec("dig.yaml", []byte(src))
			if tc.err == "" {
				require.NoError(t, err)
				require.NotNil(t, spec)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
	assert.Equal(t, "drop:minecraft:clay", ResolveKey("drop:{target}", Params{"target": "minecraft:clay"}))
	assert.Equal(t, "drop:minecraft:sand", ResolveKey("drop:minecraft:sand", Params{}))
}
