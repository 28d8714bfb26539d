package selection

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge/rank"
)

// Advice is the knowledge skills chosen for a task. The model planner's
// llm.Advice is this type.
type Advice struct {
	// Names are the knowledge skills to give the model in full, best first.
	Names []string
	// Fallback says why the offline ranking chose them instead of the model
	// ("" when the model chose).
	Fallback string
	// Events are what happened on the way (pre-filter, quality filter,
	// re-rank), for the trace.
	Events []string
}

// AdvisorOptions configure an Advisor.
type AdvisorOptions struct {
	// Catalog holds the knowledge skills (required).
	Catalog *catalog.Catalog
	// Config gives max_skills, prefilter_threshold, timeout, min_score and
	// the embeddings settings.
	Config knowledge.Config
	// Model chooses among the ranked skills; nil selects offline, by the
	// BM25 ranking and its score floor.
	Model Model
	// Embedder re-ranks the BM25 hits when Config.Embeddings is on: the
	// model server's embeddings when Config.EmbeddingModel names a model.
	// Nil with embeddings on means the hashing embedder, the offline
	// fallback.
	Embedder rank.Embedder
	// Quality is where the advisor records and reads what it learns. Nil
	// opens Config.QualityFile, or keeps an in-memory store when there is
	// none.
	Quality *QualityStore
	// Logger receives quality records that could not be written.
	Logger zerolog.Logger
}

// maxEpisodes bounds the selections an Advisor remembers: a run whose goal
// keeps changing does not grow without end.
const maxEpisodes = 64

// Advisor chooses the knowledge skills a run starts with and learns from how
// they did; it implements the model planner's llm.Advisor. Select runs the
// selection pipeline (quality filter, BM25, optional embedding re-rank,
// pre-filter, the model's choice, the BM25 fallback with its score floor)
// over the knowledge skills usable at the tier, and records each chosen
// skill as selected. Applied and StepEnded record applications, completions
// and fallbacks. Every record goes to the quality store, whose filter the
// next Select — in this run or a later one sharing the quality file — uses.
//
// Each distinct task (with its tier and packs) is one episode: asking again
// for the same task returns the same advice without counting a new
// selection, and within an episode a skill counts at most one application,
// one completion and one fallback, so that completions and fallbacks never
// outnumber applications. A skill that informed a step counts as applied
// even if the model never loaded it (it was given in full). An Advisor is
// safe for concurrent use.
type Advisor struct {
	cat      *catalog.Catalog
	opts     Options
	quality  *QualityStore
	log      zerolog.Logger
	embedErr string

	selectMu sync.Mutex // one selection at a time

	mu       sync.Mutex
	episodes map[string]*episode
	order    []string // episode keys, oldest first
	current  *episode
}

// episode is what an Advisor knows about one task.
type episode struct {
	advice    Advice
	ids       map[string]string // knowledge skill name → id
	applied   map[string]bool
	completed map[string]bool
	fellBack  map[string]bool
}

func newEpisode() *episode {
	return &episode{ids: map[string]string{}, applied: map[string]bool{}, completed: map[string]bool{}, fellBack: map[string]bool{}}
}

// NewAdvisor returns an Advisor over the catalog's knowledge skills. A
// quality file that cannot be read is an error (ErrCorruptQuality): it is
// never reset.
func NewAdvisor(o AdvisorOptions) (*Advisor, error) {
	if o.Catalog == nil {
		return nil, errors.New("selection: advisor needs a catalog")
	}
	a := &Advisor{
		cat:      o.Catalog,
		quality:  o.Quality,
		log:      o.Logger.With().Str("component", "knowledge").Logger(),
		episodes: map[string]*episode{},
		opts: Options{
			MaxSkills:          o.Config.MaxSkills,
			PrefilterThreshold: o.Config.PrefilterThreshold,
			Timeout:            o.Config.SelectionTimeout,
			MinScore:           o.Config.MinScore,
			Model:              o.Model,
		},
	}
	if a.quality == nil && o.Config.QualityFile != "" {
		q, err := OpenQualityStore(o.Config.QualityFile)
		if err != nil {
			return nil, err
		}
		a.quality = q
	}
	if a.quality == nil {
		a.quality = NewQualityStore()
	}
	if o.Config.Embeddings {
		a.opts.Embedder = o.Embedder
		if a.opts.Embedder == nil {
			a.opts.Embedder = rank.HashEmbedder{}
			if o.Config.EmbeddingModel != "" {
				a.embedErr = fmt.Sprintf("no model server for embedding model %q; the hashing embedder (the offline fallback) re-ranks", o.Config.EmbeddingModel)
			}
		}
	}
	a.current = newEpisode()
	return a, nil
}

// Select picks knowledge skills for the task among those usable at the tier
// with the enabled packs, and records them as selected. The same task, tier
// and packs again return the same advice and record nothing. When ctx ends
// during the selection, Select returns its error and remembers nothing.
func (a *Advisor) Select(ctx context.Context, task, tier string, packs []string) (Advice, error) {
	a.selectMu.Lock()
	defer a.selectMu.Unlock()
	key := episodeKey(task, tier, packs)
	a.mu.Lock()
	if ep, ok := a.episodes[key]; ok {
		a.current = ep
		a.mu.Unlock()
		return ep.advice.clone(), nil
	}
	a.mu.Unlock()

	entries, err := a.cat.ForTechState(tier, packs)
	if err != nil {
		return Advice{}, fmt.Errorf("selection: %w", err)
	}
	ep := newEpisode()
	var events []string
	if a.embedErr != "" {
		events = append(events, a.embedErr)
	}
	cands, errs := FromCatalog(a.cat, catalog.Knowledge(entries))
	for _, err := range errs {
		events = append(events, fmt.Sprintf("left out of selection: %v", err))
	}
	for _, c := range cands {
		ep.ids[c.Name] = c.ID
	}
	opts := a.opts
	opts.Quality = a.quality.All()
	res, err := Select(ctx, task, cands, opts)
	if err != nil {
		return Advice{}, err
	}
	if err := ctx.Err(); err != nil {
		// The run is stopping: what the ranking chose meanwhile is
		// neither kept nor counted.
		return Advice{}, err
	}
	ep.advice = Advice{Names: []string{}, Events: append(events, resultEvents(res)...)}
	if res.Method == MethodBM25 {
		ep.advice.Fallback = res.Fallback
	}
	ids := make([]string, len(res.Selected))
	for i, p := range res.Selected {
		ep.advice.Names = append(ep.advice.Names, p.Name)
		ids[i] = p.ID
	}
	if len(ids) > 0 {
		if err := a.quality.RecordSelected(ids...); err != nil {
			ep.advice.Events = append(ep.advice.Events, fmt.Sprintf("quality not recorded: %v", err))
			a.log.Warn().Err(err).Msg("knowledge skill selection not recorded")
		}
	}

	a.mu.Lock()
	defer a.mu.Unlock()
	a.episodes[key] = ep
	a.order = append(a.order, key)
	if len(a.order) > maxEpisodes {
		delete(a.episodes, a.order[0])
		a.order = a.order[1:]
	}
	a.current = ep
	return ep.advice.clone(), nil
}

// Applied records that the model read a knowledge skill's instructions.
func (a *Advisor) Applied(name string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if id, ok := a.idLocked(name); ok {
		a.applyLocked(name, id)
	}
}

// StepEnded records the verdict of a step informed by these knowledge
// skills: success completes them, a failure is a fallback.
func (a *Advisor) StepEnded(informed []string, success bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ep := a.current
	for _, name := range informed {
		id, ok := a.idLocked(name)
		if !ok {
			continue
		}
		a.applyLocked(name, id)
		if success && !ep.completed[id] {
			ep.completed[id] = true
			a.record("completion", name, a.quality.RecordCompleted(id))
		}
		if !success && !ep.fellBack[id] {
			ep.fellBack[id] = true
			a.record("fallback", name, a.quality.RecordFallback(id))
		}
	}
}

func (a *Advisor) applyLocked(name, id string) {
	if ep := a.current; !ep.applied[id] {
		ep.applied[id] = true
		a.record("application", name, a.quality.RecordApplied(id))
	}
}

// idLocked resolves a knowledge skill's name (or id) to its id: from the
// current selection's candidates, else from the catalog (a skill the model
// loaded that selection did not offer). Anything else is not recorded.
func (a *Advisor) idLocked(name string) (string, bool) {
	if id, ok := a.current.ids[name]; ok {
		return id, true
	}
	e, ok := a.cat.Lookup(name)
	if !ok || !e.Kind.Knowledge() {
		a.log.Debug().Str("skill", name).Msg("not a knowledge skill; quality not recorded")
		return "", false
	}
	a.current.ids[name] = e.ID
	return e.ID, true
}

func (a *Advisor) record(what, name string, err error) {
	if err != nil {
		a.log.Warn().Err(err).Str("skill", name).Str("record", what).Msg("knowledge skill quality not recorded")
	}
}

func (ad Advice) clone() Advice {
	ad.Names = slices.Clone(ad.Names)
	ad.Events = slices.Clone(ad.Events)
	return ad
}

func episodeKey(task, tier string, packs []string) string {
	p := slices.Clone(packs)
	slices.Sort(p)
	return strings.Join([]string{strings.TrimSpace(task), tier, strings.Join(p, ",")}, "\x00")
}

// resultEvents sums a selection trace up for the planner's trace.
func resultEvents(res *Result) []string {
	var ev []string
	for _, d := range res.Filtered {
		if !d.Kept {
			ev = append(ev, fmt.Sprintf("quality filter removed %s: %s", d.Name, d.Reason))
		}
	}
	if p := res.Prefilter; p.Used {
		ev = append(ev, fmt.Sprintf("pre-filter: %d of %d candidates offered", p.After, p.Before))
	}
	if res.Prefilter.Embeddings {
		ev = append(ev, "ranking re-ranked by embeddings")
	}
	ev = append(ev, res.Notes...)
	if len(res.Unknown) > 0 {
		ev = append(ev, fmt.Sprintf("model named unknown skills: %s", strings.Join(res.Unknown, ", ")))
	}
	if len(res.Dropped) > 0 {
		ev = append(ev, fmt.Sprintf("beyond max_skills: %s", strings.Join(res.Dropped, ", ")))
	}
	if len(res.BelowFloor) > 0 {
		names := make([]string, len(res.BelowFloor))
		for i, p := range res.BelowFloor {
			names[i] = p.Name
		}
		ev = append(ev, fmt.Sprintf("below the score floor %.2f: %s", res.Floor, strings.Join(names, ", ")))
	}
	return ev
}
