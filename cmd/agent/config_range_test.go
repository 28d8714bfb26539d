package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfigIntRanges: ranged integers in agent.yaml are accepted at both
// ends of their range and refused one past either, with the key and the
// range in the error.
func TestConfigIntRanges(t *testing.T) {
	for _, tc := range []struct {
		yaml, key string
		lo, hi    string
		ok        bool
	}{
		{"llm: {max_calls: 1}\n", "llm.max_calls", "1", "100", true},
		{"llm: {max_calls: 100}\n", "llm.max_calls", "1", "100", true},
		{"llm: {max_calls: 101}\n", "llm.max_calls", "1", "100", false},
		{"llm: {max_calls: 0}\n", "llm.max_calls", "1", "100", false},
		{"llm: {max_corrections: 20}\n", "llm.max_corrections", "1", "20", true},
		{"llm: {max_corrections: 21}\n", "llm.max_corrections", "1", "20", false},
		{"server: {view_distance: 2}\n", "server.view_distance", "2", "32", true},
		{"server: {view_distance: 32}\n", "server.view_distance", "2", "32", true},
		{"server: {view_distance: 33}\n", "server.view_distance", "2", "32", false},
		{"server: {view_distance: 1}\n", "server.view_distance", "2", "32", false},
	} {
		_, err := parseAgentConfig("agent.yaml", []byte(tc.yaml))
		if tc.ok {
			assert.NoError(t, err, tc.yaml)
			continue
		}
		require.Error(t, err, tc.yaml)
		assert.Contains(t, err.Error(), tc.key, tc.yaml)
		assert.Contains(t, err.Error(), "within "+tc.lo+".."+tc.hi, tc.yaml)
	}
}
