package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
	"github.com/gtnh-agent/gtnh-agent/planner/llm"
	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge/rank"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge/selection"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// llmFlags are the run flags of the model planner; they override the
// config file's llm section.
type llmFlags struct {
	url, model, keyEnv, mode string
	context                  int
	system                   string
}

func (f *llmFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.url, "llm-url", "", "OpenAI-compatible API base URL for --planner llm, e.g. http://127.0.0.1:11434/v1 (Ollama)")
	fs.StringVar(&f.model, "llm-model", "", "model name on that server for --planner llm, e.g. qwen3")
	fs.StringVar(&f.keyEnv, "llm-key-env", "", "environment variable holding the API key (default: "+llm.DefaultKeyEnv+"; local servers need none)")
	fs.StringVar(&f.mode, "llm-mode", "", "auto (tool calls, JSON answers when the server has no tool calling), tools or json (default: auto)")
	fs.StringVar(&f.system, "llm-system", "", fmt.Sprintf("replace the built-in instructions of the system prompt with this file's text (at most %d KiB); the skill catalog still follows", llm.MaxSystemBytes>>10))
	fs.IntVar(&f.context, "llm-context", 0, fmt.Sprintf("the model's context length in tokens, as the server is set up (default %d); the prompt is fitted to it", llm.DefaultContext))
}

// llmFlagNames are the flags that only --planner llm reads.
var llmFlagNames = []string{"llm-url", "llm-model", "llm-key-env", "llm-mode", "llm-context", "llm-system"}

// config merges the config file's llm section and the flags, and checks
// the result: exit 2 naming what is missing or wrong.
func (f *llmFlags) config(acfg *agentConfig, set map[string]bool) (llm.Config, error) {
	cfg := acfg.LLM
	if set["llm-url"] {
		cfg.URL = f.url
	}
	if set["llm-model"] {
		cfg.Model = f.model
	}
	if set["llm-key-env"] {
		if err := (llm.Config{URL: "http://x", Model: "x", KeyEnv: f.keyEnv}).Validate(); err != nil || f.keyEnv == "" {
			// The value is not echoed: it may be the key itself.
			return cfg, usagef("run: --llm-key-env: want the name of an environment variable such as %s (the key itself goes in that variable)", llm.DefaultKeyEnv)
		}
		cfg.KeyEnv = f.keyEnv
	}
	if set["llm-mode"] {
		if !slices.Contains(llm.Modes, f.mode) {
			return cfg, usagef("run: --llm-mode: unknown mode %q%s (known: %s)", f.mode, suggest.DidYouMean(f.mode, llm.Modes), strings.Join(llm.Modes, ", "))
		}
		cfg.Mode = llm.Mode(f.mode)
	}
	if set["llm-context"] {
		if f.context < llm.MinContext || f.context > llm.MaxContext {
			return cfg, usagef("run: --llm-context: %d tokens is outside %d..%d (Ollama's default is 4096 or less; set num_ctx on the server and the same here)", f.context, llm.MinContext, llm.MaxContext)
		}
		cfg.Context = f.context
	}
	if set["llm-system"] {
		text, err := llm.ReadSystemFile(f.system)
		if err != nil {
			return cfg, usagef("run: --llm-system: %v", err)
		}
		cfg.System = text
	}
	from := func(flagName, key string) string {
		if acfg.File != "" {
			return fmt.Sprintf("--%s (or %s in %s)", flagName, key, acfg.File)
		}
		return fmt.Sprintf("--%s (or %s in %s)", flagName, key, defaultConfigFile)
	}
	if cfg.URL == "" {
		return cfg, usagef("run: --planner llm needs %s, e.g. --llm-url http://127.0.0.1:11434/v1 for Ollama", from("llm-url", "llm.url"))
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return cfg, usagef("run: --planner llm needs %s, e.g. --llm-model qwen3", from("llm-model", "llm.model"))
	}
	named := cfg.KeyEnv != ""
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return cfg, usagef("run: %v", err)
	}
	if named && os.Getenv(cfg.KeyEnv) == "" {
		// A variable the user named and forgot to set is a mistake; the
		// default one unset means a local server without a key.
		return cfg, usagef("run: the environment variable %s holding the model server's API key is not set", cfg.KeyEnv)
	}
	return cfg, nil
}

// newAdvisor makes the knowledge skills' Advisor (selection and the
// quality store) from the model client, the catalog and the knowledge
// configuration; nil, or a nil Advisor, runs without selection.
type newAdvisor func(e *env, client *llm.Client, cat *catalog.Catalog, kcfg *knowledge.Config) (llm.Advisor, error)

// knowledgeAdvisor is the Advisor of a run with the model planner: the
// knowledge selection, with the model choosing among the BM25 matches, the
// model server's embeddings re-ranking them when an embedding model is
// named (in the knowledge configuration's selection.embedding_model, else
// in llm.embedding_model), and the quality file of the knowledge
// configuration.
func knowledgeAdvisor(e *env, client *llm.Client, cat *catalog.Catalog, kcfg *knowledge.Config) (llm.Advisor, error) {
	cfg := *kcfg
	model := cfg.EmbeddingModel
	if llmModel := client.Config().EmbeddingModel; llmModel != "" {
		if model != "" && model != llmModel {
			return nil, usagef("run: two embedding models: %q in the knowledge configuration and %q in llm.embedding_model; name one", model, llmModel)
		}
		model = llmModel
	}
	var emb rank.Embedder
	if model != "" {
		cfg.EmbeddingModel, cfg.Embeddings = model, true
		emb = client.Embedder(model)
	}
	adv, err := selection.NewAdvisor(selection.AdvisorOptions{Catalog: cat, Config: cfg, Model: client, Embedder: emb,
		Logger: e.pkgLog()})
	if err != nil {
		return nil, fmt.Errorf("run: knowledge skills: %w", err)
	}
	return adv, nil
}

// llmPlanner builds the model planner: the client, and the catalog of the
// registry and the knowledge skills (shipped, the knowledge configuration's
// directories, --skills-dir) with the configured preload list, every name
// checked before the run.
func llmPlanner(e *env, cfg llm.Config, kf *knowledgeFlags, cf *configFlags, reg *registry.Registry, mkAdvisor newAdvisor) (*llm.Planner, error) {
	lib, kcfg, err := kf.library(e, cf, reg)
	if err != nil {
		return nil, err
	}
	cat := &catalog.Catalog{Registry: reg, Library: lib}
	if err := cat.RegisterSpecs(); err != nil {
		e.log.Warn().Err(err).Msg("executable specs in custom skill directories were not registered")
	}
	for _, p := range kcfg.Preload {
		if _, ok := cat.Lookup(p); !ok && !strings.ContainsAny(p, `/\`) {
			return nil, unknownName("skill to preload", p, catalog.Names(cat.Entries()))
		}
	}
	preload, err := cat.Preload(kcfg.Preload, kcfg.Workspace)
	if err != nil {
		return nil, usagef("run: %v", err)
	}
	log := e.component("llm")
	client, err := llm.NewClient(cfg, llm.Options{Log: log})
	if err != nil {
		return nil, usagef("run: %v", err)
	}
	var advisor llm.Advisor
	if mkAdvisor != nil {
		if advisor, err = mkAdvisor(e, client, cat, kcfg); err != nil {
			return nil, err
		}
	}
	pl, err := llm.NewPlanner(client, llm.PlannerOptions{Catalog: cat, Preload: preload, Advisor: advisor, Log: log})
	if err != nil {
		return nil, usagef("run: %v", err)
	}
	return pl, nil
}
