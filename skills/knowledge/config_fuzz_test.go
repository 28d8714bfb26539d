package knowledge

import (
	"testing"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// FuzzParseConfig: a knowledge configuration either parses into usable
// settings or fails with located errors naming the file; it never panics.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		"workspace: /srv/agent\ndirs: [skills, {path: /opt/gtnh-skills, recursive: true}]\npreload: [coke-oven-operation, ./notes/our-base]\nselection: {max_skills: 3, prefilter_threshold: 20, timeout: 30s, embeddings: false}\nquality_file: skill-quality.json\n",
		"", "~\n", "dirs: []\n", "dirs: [{path: \"\"}]\n", "selection: {timeout: -1s}\n", "selection: {max_skills: 0}\n",
		"preload: x\n", "dirs: [[a]]\n", "selectoin: {}\n",
		"selection: {min_score: 1.5, embedding_model: nomic-embed-text}\n", "selection: {min_score: -1}\n",
		"selection: {min_score: .inf}\n", "selection: {embeddings: false, embedding_model: m}\n",
	} {
		f.Add("skills-config.yaml", []byte(s))
	}
	f.Fuzz(func(t *testing.T, file string, data []byte) {
		c, err := ParseConfig(file, data)
		if err != nil {
			if c != nil {
				t.Fatal("returned a configuration and an error")
			}
			for _, e := range strictyaml.Flatten(file, err) {
				if e.File != file || e.Msg == "" {
					t.Fatalf("error does not name %q or has no message: %#v", file, e)
				}
			}
			return
		}
		if c.MaxSkills < 1 || c.PrefilterThreshold < 1 || c.SelectionTimeout <= 0 {
			t.Fatalf("accepted selection settings %d/%d/%v", c.MaxSkills, c.PrefilterThreshold, c.SelectionTimeout)
		}
		if c.MinScore < 0 || c.MinScore > MaxMinScore || c.MinScore != c.MinScore {
			t.Fatalf("accepted selection.min_score %v", c.MinScore)
		}
		if c.EmbeddingModel != "" && !c.Embeddings {
			t.Fatalf("an embedding model without embeddings")
		}
		for i, d := range c.Dirs {
			if d.Path == "" {
				t.Fatalf("dirs[%d] has no path", i)
			}
		}
	})
}
