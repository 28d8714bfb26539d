package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/internal/testdeadline"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMCPPicksUpANewSkillDirectory: a skill directory added to --skills-dir
// while agent mcp runs is announced (resources list-changed) and served.
func TestMCPPicksUpANewSkillDirectory(t *testing.T) {
	dir := t.TempDir()
	changed := make(chan struct{}, 16)
	cs, stderr := mcpChildWith(t, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { changed <- struct{}{} },
	}, "--skills-dir", dir)
	skill := filepath.Join(dir, "field-notes")
	require.NoError(t, os.MkdirAll(skill, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: field-notes\ndescription: Notes taken in the field about trees and ovens, for testing the refresh.\nmetadata:\n  version: 1.0.0\n---\n\n# Field notes\n\nOaks first.\n"), 0o644))
	// The server looks every 2 s; the bound is only against a hang.
	select {
	case <-changed:
	case <-testdeadline.After(t):
		t.Fatalf("no resources list-changed notification\nstderr:\n%s", stderr)
	}
	var uris []string
	for r, err := range cs.Resources(context.Background(), nil) {
		require.NoError(t, err)
		uris = append(uris, r.URI)
	}
	assert.Contains(t, uris, "skill://field-notes")
	assert.Contains(t, toolText(callTool(t, cs, "load_skill", map[string]any{"name": "field-notes"})), "Oaks first.")
}
