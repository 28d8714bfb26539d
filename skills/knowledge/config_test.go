package knowledge

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig("k.yaml", []byte(`
workspace: /srv/agent
dirs:
  - skills
  - {path: /opt/more, recursive: true}
preload: [coke-oven-operation, ./mine]
selection:
  max_skills: 2
  prefilter_threshold: 30
  timeout: 5s
  embeddings: true
  min_score: 0.5
quality_file: q.json
`))
	require.NoError(t, err)
	assert.Equal(t, &Config{
		Workspace: "/srv/agent",
		Dirs:      []DirConfig{{Path: "skills"}, {Path: "/opt/more", Recursive: true}},
		Preload:   []string{"coke-oven-operation", "./mine"}, MaxSkills: 2, PrefilterThreshold: 30,
		SelectionTimeout: 5 * time.Second, Embeddings: true, MinScore: 0.5, QualityFile: "q.json",
	}, c)
	assert.Equal(t, ModePreloaded, c.Mode())
	require.NoError(t, c.Resolve(""))
	assert.Equal(t, "/srv/agent/skills", c.Dirs[0].Path)
	assert.Equal(t, "/opt/more", c.Dirs[1].Path)
	assert.Equal(t, "/srv/agent/q.json", c.QualityFile)

	empty, err := ParseConfig("k.yaml", nil)
	require.NoError(t, err)
	assert.Equal(t, DefaultConfig(), *empty)
	assert.Equal(t, ModeDynamic, empty.Mode())
	assert.Equal(t, DefaultMinScore, empty.MinScore, "the floor is on by default")

	served, err := ParseConfig("k.yaml", []byte("selection: {embedding_model: nomic-embed-text, min_score: 0}\n"))
	require.NoError(t, err)
	assert.True(t, served.Embeddings, "naming an embedding model turns embeddings on")
	assert.Equal(t, "nomic-embed-text", served.EmbeddingModel)
	assert.Zero(t, served.MinScore, "0 turns the floor off")
	both, err := ParseConfig("k.yaml", []byte("selection: {embeddings: true, embedding_model: m, min_score: 10}\n"))
	require.NoError(t, err)
	assert.Equal(t, "m", both.EmbeddingModel)
	assert.Equal(t, 10.0, both.MinScore)
}

func TestParseConfigErrors(t *testing.T) {
	cases := map[string]string{
		"dirs: [{recursive: true}]":                          "k.yaml:1:8: dirs[0].path: required field is missing",
		"selection: {max_skills: 0}":                         "k.yaml:1:25: selection.max_skills: must be at least 1",
		"selection: {timeout: soon}":                         `selection.timeout: "soon" is not a duration`,
		"selection: {timeout: -1s}":                          "selection.timeout: must be positive",
		"selection: {max_skill: 2}":                          `did you mean "max_skills"?`,
		"preload: coke":                                      "preload: expected a list of strings",
		"mode: dynamic":                                      `k.yaml:1:1: mode: unknown field "mode"`,
		"selection: {prefilter_threshold: -3}":               "selection.prefilter_threshold: must be at least 1",
		"selection: {min_score: -0.5}":                       "k.yaml:1:24: selection.min_score: must be between 0 (no floor) and 10, got -0.5",
		"selection: {min_score: 10.5}":                       "selection.min_score: must be between 0 (no floor) and 10, got 10.5",
		"selection: {min_score: high}":                       "selection.min_score: expected a number",
		"selection: {min_score: .nan}":                       "selection.min_score: expected a finite number",
		"selection: {min_score: [1]}":                        "selection.min_score: expected a number",
		"selection: {embedding_model: ''}":                   "selection.embedding_model: must not be empty",
		"selection: {embedding_model: 3}":                    "selection.embedding_model: expected a string",
		"selection: {embeddings: false, embedding_model: m}": "selection.embedding_model: set, but selection.embeddings is false",
		"selection: {min_scor: 1}":                           `did you mean "min_score"?`,
	}
	for src, want := range cases {
		_, err := ParseConfig("k.yaml", []byte(src))
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), want)
	}
}

func TestConfigWorkspace(t *testing.T) {
	ws := t.TempDir()
	c := DefaultConfig()
	require.NoError(t, c.Resolve(ws))
	assert.Equal(t, filepath.Join(ws, "skills"), c.Dirs[0].Path, "custom skills are workspace-relative by default")

	t.Setenv(WorkspaceEnv, ws)
	c = DefaultConfig()
	require.NoError(t, c.Resolve(""))
	assert.Equal(t, filepath.Join(ws, "skills"), c.Dirs[0].Path, "the environment names the workspace")

	file := filepath.Join(ws, "k.yaml")
	require.NoError(t, os.WriteFile(file, []byte("dirs: [mine]\n"), 0o644))
	lc, err := LoadConfig(file)
	require.NoError(t, err)
	require.NoError(t, lc.Resolve("/elsewhere"))
	assert.Equal(t, "/elsewhere/mine", lc.Dirs[0].Path, "an explicit workspace beats the environment")
	_, err = LoadConfig(filepath.Join(ws, "none.yaml"))
	require.Error(t, err)
}
