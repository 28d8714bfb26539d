package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge/rank"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge/selection"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// skillsSelectCommand is agent skills select: it shows how a task would be
// matched to skills: the quality filter, the BM25 ranking, the pre-filter
// and the selection. The CLI has no model client, so the selection is the
// BM25 fallback, as the output says.
type skillsSelectCommand struct {
	fs          *flag.FlagSet
	cf          configFlags
	kf          knowledgeFlags
	task        string
	maxN        int
	asJSON      bool
	threshold   int
	minScore    float64
	embeddings  bool
	qualityFile string
	tech        string
	packList    string
	top         int

	// Set by validate.
	minScoreSet bool
}

var _ subcommand = (*skillsSelectCommand)(nil)

func (c *skillsSelectCommand) parse(e *env, args []string) error {
	fs := newFlagSet(e, "skills select", `skills select --task "..." [--max N] [--json] [--threshold N] [--min-score F] [--embeddings] [--quality FILE] [--tech-state T] [--packs a,b] [--top N]`)
	c.fs = fs
	c.cf.register(fs)
	c.kf.register(fs)
	fs.StringVar(&c.task, "task", "", "the task to select skills for (required)")
	fs.IntVar(&c.maxN, "max", 0, "select at most N skills (default: the configuration's max_skills, 3)")
	fs.BoolVar(&c.asJSON, "json", false, "print the whole selection trace as JSON")
	fs.IntVar(&c.threshold, "threshold", 0, "BM25 pre-filter above this many candidates (default: the configuration's, 20)")
	fs.Float64Var(&c.minScore, "min-score", 0, "score floor of the BM25 selection, 0 = none (default: the configuration's min_score, 1.1)")
	fs.BoolVar(&c.embeddings, "embeddings", false, "re-rank BM25 hits with the hashing embedder (the offline fallback)")
	fs.StringVar(&c.qualityFile, "quality", "", "skill quality file (default: the configuration's quality_file)")
	fs.StringVar(&c.tech, "tech-state", "", "offer only the skills usable at this tier")
	fs.StringVar(&c.packList, "packs", "", "comma-separated packs to enable with --tech-state")
	fs.IntVar(&c.top, "top", 10, "ranking lines to print")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	return noArgs("skills select", pos)
}

func (c *skillsSelectCommand) validate(*env) error {
	if strings.TrimSpace(c.task) == "" {
		return usagef("skills select: --task is required")
	}
	if c.maxN < 0 || c.threshold < 0 {
		return usagef("skills select: --max and --threshold must not be negative")
	}
	c.fs.Visit(func(f *flag.Flag) { c.minScoreSet = c.minScoreSet || f.Name == "min-score" })
	if c.minScoreSet && (!(c.minScore >= 0) || c.minScore > knowledge.MaxMinScore) {
		return usagef("skills select: --min-score must be between 0 (no floor) and %g", knowledge.MaxMinScore)
	}
	return nil
}

func (c *skillsSelectCommand) run(e *env) error {
	cat, cfg, err := c.kf.catalog(e, &c.cf, registry.ActiveOnly)
	if err != nil {
		return err
	}
	entries, err := catalogEntries(cat, c.tech, c.packList)
	if err != nil {
		return err
	}
	cands, errs := selection.FromCatalog(cat, entries)
	for _, err := range errs {
		e.log.Warn().Err(err).Msg("skill left out of selection")
	}
	opts, notes, err := c.options(cfg)
	if err != nil {
		return err
	}
	res, err := selection.Select(context.Background(), c.task, cands, opts)
	if err != nil {
		return err
	}
	res.Notes = append(notes, res.Notes...)
	if c.asJSON {
		return writeJSON(e.stdout, res)
	}
	printSelection(e, res, cands, c.top)
	return nil
}

// options are the selection's options: the configuration's under the
// flags, and notes on what stands in for a model client.
func (c *skillsSelectCommand) options(cfg *knowledge.Config) (selection.Options, []string, error) {
	opts := selection.Options{
		MaxSkills: cfg.MaxSkills, PrefilterThreshold: cfg.PrefilterThreshold, Timeout: cfg.SelectionTimeout,
		MinScore: cfg.MinScore,
	}
	if c.minScoreSet {
		opts.MinScore = c.minScore
	}
	if c.maxN > 0 {
		opts.MaxSkills = c.maxN
	}
	if c.threshold > 0 {
		opts.PrefilterThreshold = c.threshold
	}
	var notes []string
	if c.embeddings || cfg.Embeddings {
		// The command has no model client: an embedding model named in
		// the configuration is stood in for by the hashing embedder.
		opts.Embedder = rank.HashEmbedder{}
		if cfg.EmbeddingModel != "" {
			notes = append(notes, fmt.Sprintf("selection.embedding_model %q is used by runs with a model server; here the hashing embedder (the offline fallback) re-ranks", cfg.EmbeddingModel))
		}
	}
	qf := cfg.QualityFile
	if c.qualityFile != "" {
		qf = c.qualityFile
	}
	if qf != "" {
		store, err := selection.OpenQualityStore(qf)
		if err != nil {
			return opts, nil, err
		}
		opts.Quality = store.All()
	}
	return opts, notes, nil
}
