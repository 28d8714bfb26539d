package skills

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCloneCopiesParamDefaults: a parameter default holding a list or a map
// (a spec built in code may set one) is copied, so changing the clone's
// leaves the original's.
func TestCloneCopiesParamDefaults(t *testing.T) {
	spec := &Spec{Name: "s", Version: 1, Params: map[string]ParamSpec{
		"list": {Default: []any{1, 2}},
		"map":  {Default: map[string]any{"a": 1}},
	}}
	c := spec.Clone()
	require.Equal(t, spec, c)
	c.Params["list"].Default.([]any)[0] = 99
	c.Params["map"].Default.(map[string]any)["a"] = 99
	assert.Equal(t, []any{1, 2}, spec.Params["list"].Default)
	assert.Equal(t, map[string]any{"a": 1}, spec.Params["map"].Default)
}
