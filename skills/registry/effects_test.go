package registry_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/skills"
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

// TestShippedSkillsLookAsFarAsTheyReach: a skill that needs a tagged block
// near (semantic_tags_any_of) and searches for it as far as its radius
// parameter says checks the precondition at least that far, so a block its
// actions would find is not refused before they run (the clay bucket filled
// at a pond 40 blocks away).
func TestShippedSkillsLookAsFarAsTheyReach(t *testing.T) {
	reg := shipped(t)
	checked := 0
	for _, d := range reg.DescribeAll() {
		rp, ok := d.Params["radius"]
		if len(d.Preconditions.SemanticTagsAnyOf) == 0 || !ok {
			continue
		}
		def, ok := rp.Default.(int)
		if !ok {
			continue
		}
		look := skills.DefaultTagRadius
		if r, ok := d.Preconditions.Extra["tag_radius"].(int); ok && r > 0 {
			look = r
		}
		assert.GreaterOrEqual(t, look, def, "%s searches %d blocks for %v but its precondition looks %d", d.Name, def, d.Preconditions.SemanticTagsAnyOf, look)
		checked++
	}
	assert.GreaterOrEqual(t, checked, 3, "the skills that search for a tagged block")
}
