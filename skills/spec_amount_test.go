package skills

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAmountJSONRoundTrip: an amount reads back what it writes (a catalog
// sent to a planner in another process).
func TestAmountJSONRoundTrip(t *testing.T) {
	for _, a := range []Amount{{Value: 4}, {Value: 0}, {Value: -2}, {Param: "min_logs"}} {
		b, err := json.Marshal(a)
		require.NoError(t, err)
		var got Amount
		require.NoError(t, json.Unmarshal(b, &got), string(b))
		assert.Equal(t, a, got, string(b))
	}
	for _, bad := range []string{`"{}"`, `"min_logs"`, `"{x"`, `1.5`, `true`, `null x`} {
		var got Amount
		assert.Error(t, json.Unmarshal([]byte(bad), &got), bad)
	}
}
