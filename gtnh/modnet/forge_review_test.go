package modnet

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecodeFluidIDMapBounds: a map of exactly MaxFluids entries decodes,
// one entry more is refused on its count alone; an id of -1 (Forge numbers
// its fluids from 1) is refused like any negative id.
func TestDecodeFluidIDMapBounds(t *testing.T) {
	entries := make([]fluidEntry, MaxFluids)
	for i := range entries {
		entries[i] = fluidEntry{fmt.Sprintf("f%d", i), int32(i + 1)}
	}
	m, err := DecodeFluidIDMap(encFluidIDMap(entries, nil))
	require.NoError(t, err)
	assert.Len(t, m.Names, MaxFluids)
	name, ok := m.Name(MaxFluids)
	assert.True(t, ok)
	assert.Equal(t, fmt.Sprintf("f%d", MaxFluids-1), name)

	over := encFluidIDMap(append(entries, fluidEntry{"one_more", MaxFluids + 1}), nil)
	_, err = DecodeFluidIDMap(over)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "0..32767 allowed")

	_, err = DecodeFluidIDMap(encFluidIDMap([]fluidEntry{{"water", 1}, {"lava", -1}}, nil))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "fluid id -1")
}
