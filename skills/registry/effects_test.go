package registry_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
)

// TestShippedSkillsThatChangeTheWorldDeclareEffects: every shipped skill
// that may break, place, use, transfer or craft declares effects the loop
// can check, so none of them is a success on the body's word alone.
func TestShippedSkillsThatChangeTheWorldDeclareEffects(t *testing.T) {
	reg := shipped(t)
	changing := action.NewKindSet(action.KindBreakBlock, action.KindPlaceBlock, action.KindUseItem,
		action.KindTransferItems, action.KindCraft, action.KindInteract)
	descs := reg.DescribeAll()
	require.NotEmpty(t, descs)
	for _, d := range descs {
		changes := false
		for _, k := range d.Emits {
			changes = changes || changing.Has(k)
		}
		if changes {
			assert.True(t, d.Effects.Checkable(), "%s emits %v but declares no checkable effect", d.Name, d.Emits)
		}
	}
}
