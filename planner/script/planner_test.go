package script

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/loop"
)

func TestScripted(t *testing.T) {
	s := New(loop.Invocation{Skill: "a"}, loop.Invocation{Skill: "b"})
	for _, want := range []string{"a", "b"} {
		dec, err := s.Plan(context.Background(), loop.Goal{}, loop.Observation{}, nil)
		require.NoError(t, err)
		require.NotNil(t, dec.Invocation)
		assert.Equal(t, want, dec.Invocation.Skill)
	}
	dec, err := s.Plan(context.Background(), loop.Goal{}, loop.Observation{}, nil)
	require.NoError(t, err)
	assert.True(t, dec.Done)
}
