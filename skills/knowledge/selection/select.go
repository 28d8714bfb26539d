package selection

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge/rank"
)

// Candidate is one skill offered to selection.
type Candidate struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Description string `json:"description"`
	// Body is what BM25 indexes besides name and description: a knowledge
	// skill's instructions, an executable skill's rendered spec.
	Body string `json:"-"`
}

// FromCatalog turns catalog entries into candidates, loading the body of
// every knowledge skill (cached by the library) and rendering every
// executable spec. Entries whose body cannot be loaded are skipped and
// reported.
func FromCatalog(c *catalog.Catalog, entries []catalog.Entry) ([]Candidate, []error) {
	var out []Candidate
	var errs []error
	for _, e := range entries {
		cand := Candidate{ID: e.ID, Name: e.Name, Kind: string(e.Kind), Description: e.Description}
		if e.Kind.Knowledge() && c.Library != nil {
			body, err := c.Library.Body(e.Name)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", e.Name, err))
				continue
			}
			cand.Body = body
		}
		if e.Spec() != nil {
			cand.Body += "\n" + catalog.RenderSpec(e.Spec())
		}
		out = append(out, cand)
	}
	return out, errs
}

// Model is the planner's model client as selection needs it: one prompt
// in, the model's text out. It must honour ctx's deadline; selection stops
// waiting at the deadline either way.
type Model interface {
	Complete(ctx context.Context, prompt string) (string, error)
}

// ModelFunc adapts a function to Model.
type ModelFunc func(ctx context.Context, prompt string) (string, error)

// Complete implements Model.
func (f ModelFunc) Complete(ctx context.Context, prompt string) (string, error) {
	return f(ctx, prompt)
}

var _ Model = ModelFunc(nil)

// MinPrefilterKeep is the least number of candidates the BM25 pre-filter
// keeps.
const MinPrefilterKeep = 15

// Options tune Select.
type Options struct {
	// MaxSkills caps the selection (0 = knowledge.DefaultMaxSkills).
	MaxSkills int
	// PrefilterThreshold: above this many candidates, only the BM25 best
	// max(15, 5 × MaxSkills) reach the model (0 = the default).
	PrefilterThreshold int
	// Timeout bounds the model call (0 = the default).
	Timeout time.Duration
	// Model selects skills; nil means BM25 ranking only.
	Model Model
	// Embedder re-ranks the BM25 hits; nil means BM25 only.
	Embedder rank.Embedder
	// Quality is the recorded quality by skill id.
	Quality map[string]Quality
	// MinScore is the score floor of the BM25 fallback: a candidate whose
	// Relevance is below it is never picked when the model does not choose
	// (0 = no floor; knowledge.DefaultMinScore is the configured default).
	MinScore float64
}

// Ranked is one candidate's place in the ranking, with its Relevance: how
// well the candidate's name and description alone match the task, the
// measure the score floor applies to.
type Ranked struct {
	rank.Ranked
	Relevance float64 `json:"relevance"`
}

// Relevance scores how well each candidate's name and description match the
// task: the BM25 score over those two fields alone, in an index of the
// candidates' names and descriptions, divided by the weight of a word no
// candidate uses (rank.Index.UnseenIDF). 1.0 is about what one word that
// only this skill's name and description use is worth.
//
// Why not the ranking's own BM25 score: skill bodies are long and mention
// everything ("steam" and "boiler" occur in every shipped skill), so with a
// handful of knowledge skills the body-wide score of "set up a steam boiler"
// for steam-age-boilers (0.79) is below that of "build a nuclear reactor"
// for coke-oven-operation (1.03), and no floor separates them. The name
// and description say what a skill is for; there the first scores 4.43 and
// the second 1.47. Dividing by the unseen-word weight keeps the floor in
// place as the index grows: the same two tasks give 1.78 and 0.59 over the
// five shipped knowledge skills, 2.03 and 0.51 over the four usable at lv,
// and 1.32 and 0.98 over the whole catalog of 17, where "build" is rare and
// weighs more.
//
// The floor, knowledge.DefaultMinScore = 1.1, comes from the table in
// TestScoreFloorShipped, over those three indexes: its on-topic tasks score
// at least 1.26 for their skill (1.42, 1.31 and 1.26 in the three), its
// off-topic tasks at most 0.98 for any skill (0.77, 0.73 and 0.98); 1.1 is
// about halfway. Short tasks whose one content word several skills share
// ("make charcoal": 0.65 for sustainable-wood) fall below it: offline,
// selecting nothing is better than selecting noise, and a configured model
// chooses without a floor.
func Relevance(task string, cands []Candidate) map[string]float64 {
	heads := make([]rank.Doc, len(cands))
	for i, c := range cands {
		heads[i] = rank.Doc{ID: c.ID, Name: c.Name, Description: c.Description}
	}
	ix := rank.NewIndex(heads)
	unseen := ix.UnseenIDF()
	out := make(map[string]float64, len(cands))
	for _, s := range ix.Score(task) {
		out[s.ID] = s.Score / unseen
	}
	return out
}

// Methods of a Result.
const (
	MethodLLM  = "llm"
	MethodBM25 = "bm25"
)

// Result is a selection and its trace: the filter decisions, the ranking,
// the pre-filter, what the model was asked and answered, and — when the
// BM25 ranking had to stand in for the model — why.
type Result struct {
	Task   string `json:"task"`
	Method string `json:"method"`
	// Fallback says why the BM25 ranking was used instead of the model.
	Fallback string `json:"fallback,omitempty"`
	Selected []Pick `json:"selected"`
	// Filtered lists the quality decisions for every candidate with a
	// quality record.
	Filtered  []Decision `json:"filtered"`
	Prefilter Prefilter  `json:"prefilter"`
	Ranking   []Ranked   `json:"ranking"`
	// Floor is the score floor the BM25 fallback applied (0 = none), and
	// BelowFloor the ranked candidates it left out, best first.
	Floor      float64 `json:"floor"`
	BelowFloor []Pick  `json:"below_floor,omitempty"`
	// Offered are the candidate ids the model saw.
	Offered  []string `json:"offered,omitempty"`
	Plan     string   `json:"brief_plan,omitempty"`
	Prompt   string   `json:"prompt,omitempty"`
	Response string   `json:"response,omitempty"`
	// Unknown are ids the model named that were not offered (dropped).
	Unknown []string `json:"unknown,omitempty"`
	// Dropped are valid ids beyond MaxSkills.
	Dropped []string `json:"dropped,omitempty"`
	// Notes record anything else worth knowing (an embedder that failed).
	Notes []string `json:"notes,omitempty"`
}

// Pick is one selected skill.
type Pick struct {
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	Kind  string  `json:"kind"`
	Score float64 `json:"score"`
}

// Decision is the quality filter's verdict on one candidate.
type Decision struct {
	ID      string  `json:"id"`
	Name    string  `json:"name"`
	Kept    bool    `json:"kept"`
	Reason  string  `json:"reason"`
	Quality Quality `json:"quality"`
}

// Prefilter records what the BM25 pre-filter did.
type Prefilter struct {
	Used       bool `json:"used"`
	Threshold  int  `json:"threshold"`
	Keep       int  `json:"keep"`
	Before     int  `json:"before"`
	After      int  `json:"after"`
	Embeddings bool `json:"embeddings"`
}

// ErrEmptyTask is returned for a blank task.
var ErrEmptyTask = errors.New("selection: empty task")

// Select picks at most MaxSkills candidates for task: the quality filter
// drops skills that keep failing; the rest are ranked by BM25 (re-ranked by
// embeddings when an Embedder is set); above PrefilterThreshold candidates
// only the best max(15, 5 × MaxSkills) are offered to the model, which
// plans, then answers JSON naming skill ids. Unknown ids are dropped and
// the answer is capped at MaxSkills. With no model, a model error, a
// timeout, a malformed answer or an answer naming only unknown ids, the
// selection is the BM25 ranking's best MaxSkills matches whose Relevance
// reaches MinScore, and Result.Fallback says why.
func Select(ctx context.Context, task string, cands []Candidate, opts Options) (*Result, error) {
	if strings.TrimSpace(task) == "" {
		return nil, ErrEmptyTask
	}
	if opts.MaxSkills <= 0 {
		opts.MaxSkills = knowledge.DefaultMaxSkills
	}
	if opts.PrefilterThreshold <= 0 {
		opts.PrefilterThreshold = knowledge.DefaultPrefilterThreshold
	}
	if opts.Timeout <= 0 {
		opts.Timeout = knowledge.DefaultSelectionTimeout
	}
	res := &Result{Task: task, Selected: []Pick{}, Filtered: []Decision{}, Ranking: []Ranked{}}

	// Quality filter.
	var kept []Candidate
	for _, c := range cands {
		q, ok := opts.Quality[c.ID]
		if !ok {
			kept = append(kept, c)
			continue
		}
		why := q.FilterReason()
		d := Decision{ID: c.ID, Name: c.Name, Kept: why == "", Reason: why, Quality: q}
		if d.Kept {
			d.Reason = "kept: " + q.Note()
			kept = append(kept, c)
		}
		res.Filtered = append(res.Filtered, d)
	}

	// Ranking.
	docs := make([]rank.Doc, len(kept))
	byID := make(map[string]Candidate, len(kept))
	for i, c := range kept {
		docs[i] = rank.Doc{ID: c.ID, Name: c.Name, Description: c.Description, Body: c.Body}
		byID[c.ID] = c
	}
	ix := rank.NewIndex(docs)
	hits := ix.Search(task, 0)
	ranking := make([]rank.Ranked, len(hits))
	for i, h := range hits {
		ranking[i] = rank.Ranked{ID: h.ID, BM25: h.Score, Score: h.Score}
	}
	res.Prefilter = Prefilter{Threshold: opts.PrefilterThreshold, Before: len(kept), After: len(kept)}
	if opts.Embedder != nil && len(hits) > 0 {
		rr, err := rank.Rerank(ctx, opts.Embedder, task, docs, hits, rank.DefaultAlpha)
		if err == nil {
			ranking = rr
			res.Prefilter.Embeddings = true
		} else {
			res.Notes = append(res.Notes, fmt.Sprintf("embedding re-rank failed (%v); BM25 ranking kept", err))
		}
	}
	relevance := Relevance(task, kept)
	res.Ranking = make([]Ranked, len(ranking))
	for i, r := range ranking {
		res.Ranking[i] = Ranked{Ranked: r, Relevance: relevance[r.ID]}
	}

	// Pre-filter.
	offered := kept
	if len(kept) > opts.PrefilterThreshold {
		keep := max(MinPrefilterKeep, 5*opts.MaxSkills)
		res.Prefilter.Used, res.Prefilter.Keep = true, keep
		if keep < len(kept) {
			chosen := map[string]bool{}
			offered = nil
			for _, r := range ranking {
				if len(offered) == keep {
					break
				}
				chosen[r.ID] = true
				offered = append(offered, byID[r.ID])
			}
			// Few matches: fill up in catalog order so the model still
			// sees a full list.
			for _, c := range kept {
				if len(offered) == keep {
					break
				}
				if !chosen[c.ID] {
					offered = append(offered, c)
				}
			}
		}
		res.Prefilter.After = len(offered)
	}
	for _, c := range offered {
		res.Offered = append(res.Offered, c.ID)
	}
	if len(offered) == 0 {
		res.Method = MethodBM25
		res.Fallback = "no candidates left after the quality filter"
		return res, nil
	}

	fallback := func(why string) (*Result, error) {
		res.Method, res.Fallback, res.Floor = MethodBM25, why, opts.MinScore
		res.Selected = res.Selected[:0]
		for _, r := range res.Ranking {
			c := byID[r.ID]
			p := Pick{ID: c.ID, Name: c.Name, Kind: c.Kind, Score: r.Score}
			if r.Relevance < opts.MinScore {
				res.BelowFloor = append(res.BelowFloor, p)
				continue
			}
			if len(res.Selected) < opts.MaxSkills {
				res.Selected = append(res.Selected, p)
			}
		}
		return res, nil
	}
	if opts.Model == nil {
		return fallback("no model configured; using the BM25 ranking")
	}

	res.Prompt = Prompt(task, offered, opts.Quality, opts.MaxSkills)
	answer, err := complete(ctx, opts.Model, res.Prompt, opts.Timeout)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return fallback(fmt.Sprintf("model timed out after %s; using the BM25 ranking", opts.Timeout))
		}
		return fallback(fmt.Sprintf("model failed: %v; using the BM25 ranking", err))
	}
	res.Response = answer
	ids, plan, err := ParseAnswer(answer)
	res.Plan = plan
	if err != nil {
		return fallback(fmt.Sprintf("malformed model answer (%v); using the BM25 ranking", err))
	}
	offeredByID := make(map[string]Candidate, len(offered))
	byName := make(map[string]Candidate, len(offered))
	for _, c := range offered {
		offeredByID[c.ID] = c
		byName[c.Name] = c
	}
	scores := map[string]float64{}
	for _, r := range ranking {
		scores[r.ID] = r.Score
	}
	seen := map[string]bool{}
	for _, id := range ids {
		c, ok := offeredByID[id]
		if !ok {
			// Models often echo the name shown inside the id; names are
			// unique in the catalog, so accept them.
			c, ok = byName[id]
		}
		if !ok {
			res.Unknown = append(res.Unknown, id)
			continue
		}
		if seen[c.ID] {
			continue
		}
		seen[c.ID] = true
		if len(res.Selected) == opts.MaxSkills {
			res.Dropped = append(res.Dropped, c.ID)
			continue
		}
		res.Selected = append(res.Selected, Pick{ID: c.ID, Name: c.Name, Kind: c.Kind, Score: scores[c.ID]})
	}
	if len(ids) > 0 && len(res.Selected) == 0 {
		return fallback(fmt.Sprintf("every skill the model named is unknown (%s); using the BM25 ranking", strings.Join(res.Unknown, ", ")))
	}
	res.Method = MethodLLM
	return res, nil
}

// complete calls the model with a deadline and stops waiting when it
// passes, even if the model ignores its context.
func complete(ctx context.Context, m Model, prompt string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type answer struct {
		text string
		err  error
	}
	ch := make(chan answer, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- answer{err: fmt.Errorf("model panicked: %v", p)}
			}
		}()
		t, err := m.Complete(ctx, prompt)
		ch <- answer{t, err}
	}()
	select {
	case a := <-ch:
		if a.err == nil && ctx.Err() != nil {
			return "", ctx.Err()
		}
		return a.text, a.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

var (
	fenceRE = regexp.MustCompile("(?s)```(?:json)?\\s*(.*?)\\s*```")
	objRE   = regexp.MustCompile(`(?s)\{.*\}`)
)

// ParseAnswer extracts the skill ids and the brief plan from a model answer:
// a JSON object {"brief_plan": "...", "skills": [...]}, bare or in a
// ```json block, possibly surrounded by prose. An answer without such an
// object, or whose "skills" is not a list, is malformed. List items that
// are not strings are returned as text so that they count as unknown ids.
func ParseAnswer(text string) (ids []string, plan string, err error) {
	body := strings.TrimSpace(text)
	if m := fenceRE.FindStringSubmatch(body); m != nil {
		body = m[1]
	} else if m := objRE.FindString(body); m != "" {
		body = m
	}
	var raw struct {
		BriefPlan string          `json:"brief_plan"`
		Skills    json.RawMessage `json:"skills"`
	}
	if err := json.Unmarshal([]byte(body), &raw); err != nil {
		return nil, "", fmt.Errorf("not a JSON object: %v", err)
	}
	if len(raw.Skills) == 0 || string(raw.Skills) == "null" {
		return nil, raw.BriefPlan, errors.New(`no "skills" list`)
	}
	var items []any
	if err := json.Unmarshal(raw.Skills, &items); err != nil {
		return nil, raw.BriefPlan, errors.New(`"skills" is not a list`)
	}
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			b, _ := json.Marshal(it)
			ids = append(ids, string(b))
			continue
		}
		if s = strings.TrimSpace(s); s != "" {
			ids = append(ids, s)
		}
	}
	return ids, raw.BriefPlan, nil
}

// Prompt builds seed 002's plan-then-select prompt for a GTNH player: the
// task, the catalog (id, kind, description and quality), and the four
// steps, asking for a JSON answer.
func Prompt(task string, cands []Candidate, quality map[string]Quality, maxSkills int) string {
	var cat strings.Builder
	for _, c := range cands {
		fmt.Fprintf(&cat, "- **%s** (%s): %s", c.ID, c.Kind, strings.Join(strings.Fields(c.Description), " "))
		if q, ok := quality[c.ID]; ok {
			fmt.Fprintf(&cat, " (%s)", q.Note())
		}
		cat.WriteString("\n")
	}
	return fmt.Sprintf(`You are the skill selector of an autonomous player in GregTech: New Horizons (Minecraft 1.7.10).

# Task
%s

# Available Skills
%s
# Instructions
Follow these steps:

**Step 1 — Plan**: Think about how the player would accomplish this task in GTNH. Which machines,
materials and tech tier are involved? What has to be built, gathered or kept running?

**Step 2 — Match**: Check which skills directly teach or perform a core part of your plan.
Knowledge skills give instructions to read; executable skills (go, template) act in the world.
A skill is relevant ONLY if it covers a core part of the plan; skills that merely share a word
with the task add noise and must be left out.

**Step 3 — Quality check**: Among matching skills, prefer ones with higher success rates. Avoid
skills marked as "never succeeded" or with very low success rates.

**Step 4 — Decide**: Select at most %d skill(s). If no skill closely matches your plan, return an
empty list. Selecting an irrelevant or low-quality skill is worse than selecting none. When in
doubt, leave it out.

Return a JSON object:
{"brief_plan": "1-2 sentence plan for this task", "skills": ["skill_id_1", "skill_id_2"]}

If no skill applies:
{"brief_plan": "1-2 sentence plan", "skills": []}

IMPORTANT: Use the **exact skill id** from the list above.`, task, cat.String(), maxSkills)
}
