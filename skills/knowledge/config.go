package knowledge

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// WorkspaceEnv names the environment variable holding the default workspace.
const WorkspaceEnv = "GTNH_AGENT_WORKSPACE"

// Selection defaults.
const (
	DefaultMaxSkills          = 3
	DefaultPrefilterThreshold = 20
	DefaultSelectionTimeout   = 30 * time.Second
	// DefaultMinScore is the score floor of the offline selection; package
	// selection explains the measure and the measurements behind the value.
	DefaultMinScore = 1.1
	// MaxMinScore bounds selection.min_score: a task matching a skill's
	// name and description word for word scores about 3 to 4, so a floor
	// above 10 would select nothing, ever, and is a typo.
	MaxMinScore = 10.0
)

// DirConfig is one custom skill directory.
type DirConfig struct {
	Path      string `json:"path"`
	Recursive bool   `json:"recursive,omitempty"`
}

// Config is the knowledge-skill part of the agent's configuration:
//
//	workspace: /srv/agent        # default: $GTNH_AGENT_WORKSPACE, else the current directory
//	dirs:                        # custom skill directories, relative to the workspace
//	  - skills
//	  - {path: /opt/gtnh-skills, recursive: true}
//	preload: [coke-oven-operation, ./my-skill]   # empty: dynamic mode
//	selection:
//	  max_skills: 3
//	  prefilter_threshold: 20    # BM25 pre-filter above this many candidates
//	  timeout: 30s               # model answer deadline
//	  embeddings: true           # re-rank with the hashing embedder (the offline fallback)
//	  embedding_model: nomic-embed-text   # or: re-rank with the model server's /v1/embeddings
//	  min_score: 1.0             # offline score floor; 0 turns it off
//	quality_file: skill-quality.json
type Config struct {
	Workspace          string        `json:"workspace"`
	Dirs               []DirConfig   `json:"dirs"`
	Preload            []string      `json:"preload"`
	MaxSkills          int           `json:"max_skills"`
	PrefilterThreshold int           `json:"prefilter_threshold"`
	SelectionTimeout   time.Duration `json:"selection_timeout"`
	// Embeddings re-ranks the BM25 hits by embedding similarity: with the
	// model server's embeddings when EmbeddingModel is set, else with the
	// hashing embedder (the offline fallback).
	Embeddings bool `json:"embeddings"`
	// EmbeddingModel names the model the model server's /v1/embeddings
	// endpoint uses ("" = the hashing embedder). Setting it turns
	// Embeddings on.
	EmbeddingModel string `json:"embedding_model,omitempty"`
	// MinScore is the least score (see package selection) a skill needs to
	// be chosen by the BM25 ranking when no model chooses; 0 turns the
	// floor off.
	MinScore    float64 `json:"min_score"`
	QualityFile string  `json:"quality_file,omitempty"`
}

// DefaultConfig is the configuration used without a file: one custom
// directory, "skills" in the workspace, dynamic mode.
func DefaultConfig() Config {
	return Config{
		Dirs:               []DirConfig{{Path: "skills"}},
		MaxSkills:          DefaultMaxSkills,
		PrefilterThreshold: DefaultPrefilterThreshold,
		SelectionTimeout:   DefaultSelectionTimeout,
		MinScore:           DefaultMinScore,
	}
}

// Mode is preloaded when the configuration lists skills to preload.
func (c Config) Mode() Mode {
	if len(c.Preload) > 0 {
		return ModePreloaded
	}
	return ModeDynamic
}

var (
	configKeys    = []string{"workspace", "dirs", "preload", "selection", "quality_file"}
	selectionKeys = []string{"max_skills", "prefilter_threshold", "timeout", "embeddings", "embedding_model", "min_score"}
	dirKeys       = []string{"path", "recursive"}
)

// ParseConfig parses a knowledge configuration document over the defaults.
// Errors name file:line:column and the field.
func ParseConfig(file string, data []byte) (*Config, error) {
	c := DefaultConfig()
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return &c, nil
	}
	d := strictyaml.NewDecoder(file)
	f := d.Mapping(root, "", configKeys)
	if n, ok := f["workspace"]; ok {
		c.Workspace, _ = d.String(n.Value, "workspace")
	}
	if n, ok := f["dirs"]; ok {
		c.Dirs = nil
		for i, item := range d.Sequence(n.Value, "dirs") {
			p := strictyaml.Index("dirs", i)
			if item.Tag == "!!str" {
				s, _ := d.String(item, p)
				c.Dirs = append(c.Dirs, DirConfig{Path: s})
				continue
			}
			df := d.Mapping(item, p, dirKeys)
			d.Require(item, p, df, "path")
			var dc DirConfig
			if x, ok := df["path"]; ok {
				dc.Path, _ = d.String(x.Value, p+".path")
			}
			if x, ok := df["recursive"]; ok {
				dc.Recursive, _ = d.Bool(x.Value, p+".recursive")
			}
			c.Dirs = append(c.Dirs, dc)
		}
		for i, dc := range c.Dirs {
			if dc.Path == "" {
				d.Errorf(n.Value, strictyaml.Index("dirs", i), "path must not be empty")
			}
		}
	}
	if n, ok := f["preload"]; ok {
		c.Preload = d.StringList(n.Value, "preload")
	}
	if n, ok := f["quality_file"]; ok {
		c.QualityFile, _ = d.String(n.Value, "quality_file")
	}
	if n, ok := f["selection"]; ok {
		sf := d.Mapping(n.Value, "selection", selectionKeys)
		if x, ok := sf["max_skills"]; ok {
			if v, ok := d.Int(x.Value, "selection.max_skills"); ok {
				if v < 1 {
					d.Errorf(x.Value, "selection.max_skills", "must be at least 1")
				}
				c.MaxSkills = v
			}
		}
		if x, ok := sf["prefilter_threshold"]; ok {
			if v, ok := d.Int(x.Value, "selection.prefilter_threshold"); ok {
				if v < 1 {
					d.Errorf(x.Value, "selection.prefilter_threshold", "must be at least 1")
				}
				c.PrefilterThreshold = v
			}
		}
		if x, ok := sf["timeout"]; ok {
			if v, ok := d.String(x.Value, "selection.timeout"); ok {
				dur, err := time.ParseDuration(v)
				switch {
				case err != nil:
					d.Errorf(x.Value, "selection.timeout", "%q is not a duration such as 30s", v)
				case dur <= 0:
					d.Errorf(x.Value, "selection.timeout", "must be positive")
				default:
					c.SelectionTimeout = dur
				}
			}
		}
		embeddings, setEmbeddings := sf["embeddings"]
		if setEmbeddings {
			c.Embeddings, _ = d.Bool(embeddings.Value, "selection.embeddings")
		}
		if x, ok := sf["embedding_model"]; ok {
			if v, ok := d.String(x.Value, "selection.embedding_model"); ok {
				switch {
				case strings.TrimSpace(v) == "":
					d.Errorf(x.Value, "selection.embedding_model", "must not be empty (leave it out to use the hashing embedder)")
				case setEmbeddings && !c.Embeddings:
					d.Errorf(x.Value, "selection.embedding_model", "set, but selection.embeddings is false")
				default:
					c.EmbeddingModel, c.Embeddings = v, true
				}
			}
		}
		if x, ok := sf["min_score"]; ok {
			if v, ok := d.Float(x.Value, "selection.min_score"); ok {
				if v < 0 || v > MaxMinScore {
					d.Errorf(x.Value, "selection.min_score", "must be between 0 (no floor) and %g, got %g", MaxMinScore, v)
				}
				c.MinScore = v
			}
		}
	}
	if err := d.Err(); err != nil {
		d.Errs.Sort()
		return nil, d.Errs
	}
	return &c, nil
}

// LoadConfig reads a configuration file.
func LoadConfig(file string) (*Config, error) {
	data, err := filelimit.ReadFile(file, filelimit.MaxConfig)
	if err != nil {
		return nil, err
	}
	return ParseConfig(file, data)
}

// Resolve fills in the workspace (the Workspace field, else workspace, else
// $GTNH_AGENT_WORKSPACE, else the current directory) and makes every
// relative path in the configuration absolute against it.
func (c *Config) Resolve(workspace string) error {
	ws := c.Workspace
	if ws == "" {
		ws = workspace
	}
	if ws == "" {
		ws = os.Getenv(WorkspaceEnv)
	}
	if ws == "" {
		ws = "."
	}
	abs, err := filepath.Abs(ws)
	if err != nil {
		return fmt.Errorf("workspace: %w", err)
	}
	c.Workspace = abs
	for i := range c.Dirs {
		c.Dirs[i].Path = c.Abs(c.Dirs[i].Path)
	}
	if c.QualityFile != "" {
		c.QualityFile = c.Abs(c.QualityFile)
	}
	return nil
}

// Abs resolves p against the workspace.
func (c *Config) Abs(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.Workspace, p)
}
