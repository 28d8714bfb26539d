package llm

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gtnh-agent/gtnh-agent/skills/catalog"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// How the prompt is counted and fitted to the model's context.
//
// The agent has no tokenizer of the model: it counts one token per four
// bytes of the request body it sends (EstimateTokens). For English text
// and JSON that is close to what the tokenizers of current open models
// give (they run at 3.5 to 4.5 bytes a token); the server's own count
// (prompt_tokens) is compared with it after every call.
const (
	// bytesPerToken is the estimate's ratio.
	bytesPerToken = 4
	// answerReserve is kept free in the context for the model's answer.
	answerReserve = 512
	// minPromptBudget is the least budget of a step's first request,
	// unless the context is smaller than twice as much.
	minPromptBudget = 1536
	// shortDescription bounds a description in its short form.
	shortDescription = 160
	// cutRatio: a server counting fewer prompt tokens than this share of
	// the estimate has most likely cut the prompt.
	cutRatio = 0.6
)

// EstimateTokens is the token count the agent assumes for n bytes it
// sends: n/4, rounded up.
func EstimateTokens(n int) int { return (n + bytesPerToken - 1) / bytesPerToken }

// PromptBudget is how many tokens (by EstimateTokens) the first request of
// a step may take in a context of n tokens: 30% of it, at least 1,536 (or
// half of a context smaller than 3,072). The rest is left for what the
// model reads during the step (load_skill and read_skill_resource results
// are cut to fit) and its answers.
func PromptBudget(context int) int {
	return max(context*3/10, min(minPromptBudget, context/2))
}

// requestTokens is the estimate of a request as it goes on the wire.
func requestTokens(req openai.ChatCompletionRequest) int {
	b, err := json.Marshal(req)
	if err != nil {
		return 0
	}
	return EstimateTokens(len(b))
}

// jsonLen is how many bytes s takes inside a JSON string.
func jsonLen(s string) int {
	b, _ := json.Marshal(s)
	return len(b) - 2
}

// catalogLine is one executable or knowledge skill of the catalog, in up
// to three forms: bare (always shown for executable skills), short and
// full.
type catalogLine struct {
	name      string
	desc      *registry.Description // an executable skill's
	bare      string                // its signature line in full
	knowledge bool
	score     int
	forms     [3]string // bare, short, full; a knowledge skill has no bare form
	level     int       // the form chosen: -1 none, 0 bare, 1 short, 2 full
}

// promptPlan is the catalog fitted to a budget, for the trace.
type promptPlan struct {
	catalog  string
	full     []string // skills given in full
	omitted  []string // knowledge skills left out, named in one line
	used     int      // bytes of the request by the fitter's count
	budget   int
	overflow bool // even the bare catalog is over the budget
}

// goalWords are the words of a goal that say what it is about: item
// names without their namespace, lowercased, without the grammar's verbs.
func goalWords(goal string) []string {
	stop := map[string]bool{"have": true, "collect": true, "reach": true, "run": true, "and": true, "the": true,
		"minecraft": true, "ore": true, "next": true, "with": true, "for": true, "from": true, "into": true, "some": true}
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(goal), func(r rune) bool {
		return !(r >= 'a' && r <= 'z')
	}) {
		w = strings.TrimSuffix(w, "s")
		if len(w) < 3 || stop[w] || slices.Contains(out, w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// relevance scores a skill for a goal and a tier: goal words in its name
// or tags count 3, in its description 1; a skill tagged or gated for the
// tier itself counts 2.
func relevance(words []string, tier, name, desc string, tags, tiers []string) int {
	head := strings.ToLower(name + " " + strings.Join(tags, " "))
	body := strings.ToLower(desc)
	score := 0
	for _, w := range words {
		if strings.Contains(head, w) {
			score += 3
		} else if strings.Contains(body, w) {
			score++
		}
	}
	if tier != "" {
		t := strings.ToLower(tier)
		if slices.Contains(tags, t) || slices.ContainsFunc(tiers, func(x string) bool { return strings.Contains(x, t) }) {
			score += 2
		}
	}
	return score
}

// firstSentence is the description's first sentence, at most n bytes.
func firstSentence(s string, n int) string {
	s = oneLine(s, 1<<20)
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if len(s) > n {
		s = strings.TrimRight(cutAt(s, n-len("…")), " ") + "…"
	}
	return s
}

// signature renders an executable skill's parameters compactly:
// "chop_tree(min_logs int=4 1..256, radius int=16 1..64)"; a parameter
// without a default is marked required.
func signature(d *registry.Description) string {
	var parts []string
	for _, n := range d.ParamNames() {
		pd := d.Params[n]
		p := n + " " + string(pd.Type)
		if pd.Required {
			p += " required"
		} else if pd.Default != nil {
			b, _ := json.Marshal(pd.Default)
			p += "=" + string(b)
		}
		if pd.Min != nil || pd.Max != nil {
			lo, hi := "", ""
			if pd.Min != nil {
				lo = strconv.FormatFloat(*pd.Min, 'g', -1, 64)
			}
			if pd.Max != nil {
				hi = strconv.FormatFloat(*pd.Max, 'g', -1, 64)
			}
			p += " " + lo + ".." + hi
		}
		if len(pd.Enum) > 0 {
			p += " {" + strings.Join(pd.Enum, "|") + "}"
		}
		parts = append(parts, p)
	}
	return d.Name + "(" + strings.Join(parts, ", ") + ")"
}

// compactSignature is a skill's name and its parameters' names, the
// required ones marked: the catalog's last resort when every signature in
// full would not fit.
func compactSignature(d *registry.Description) string {
	var parts []string
	for _, n := range d.ParamNames() {
		if d.Params[n].Required {
			n += " required"
		}
		parts = append(parts, n)
	}
	return d.Name + "(" + strings.Join(parts, ", ") + ")"
}

// paramNotes are the parameters' own descriptions, for the full form.
func paramNotes(d *registry.Description) string {
	var parts []string
	for _, n := range d.ParamNames() {
		if desc := oneLine(d.Params[n].Description, shortDescription); desc != "" {
			parts = append(parts, n+": "+desc)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " Parameters — " + strings.Join(parts, "; ")
}

// fitCatalog renders the catalog the model reads so that the first
// request of the step stays within budget tokens. fixed is the estimate
// of that request without the catalog. Every executable skill offered is
// listed once, with its parameters; then, most relevant first and while
// they fit: short descriptions of the executable skills, the knowledge
// skills with a short description, the skills given in full (preloaded,
// selected, loaded earlier), and the full descriptions.
func fitCatalog(fixed, budget int, execs []*registry.Description, entries []catalog.Entry, full []loadedSkill, words []string, tier string) promptPlan {
	used := fixed * bytesPerToken // in bytes
	limit := budget * bytesPerToken
	var lines []*catalogLine
	instructionsOf := map[string]string{} // executable -> its knowledge skill
	for _, e := range entries {
		if e.Executable != "" && e.Name != e.Executable {
			instructionsOf[e.Executable] = e.Name
		}
	}
	for _, d := range execs {
		l := &catalogLine{name: d.Name, desc: d, score: relevance(words, tier, d.Name, d.Description, d.Tags, d.Preconditions.TechStatesAnyOf)}
		sig := "- " + signature(d)
		if k := instructionsOf[d.Name]; k != "" {
			sig += " [instructions: " + k + "]"
		}
		l.forms[0], l.bare = sig, sig
		l.forms[1] = sig + ": " + firstSentence(d.Description, shortDescription)
		l.forms[2] = sig + ": " + oneLine(d.Description, 1<<20) + paramNotes(d)
		lines = append(lines, l)
	}
	var know []*catalogLine
	for _, e := range entries {
		if e.Kind != knowledge.KindKnowledge {
			continue
		}
		l := &catalogLine{name: e.Name, knowledge: true, level: -1, score: relevance(words, tier, e.Name, e.Description, e.Tags, e.Tiers)}
		for _, f := range full {
			if f.name == e.Name {
				l.score += 100 // given in full: listed first
			}
		}
		l.forms[1] = "- " + e.Name + ": " + firstSentence(e.Description, shortDescription)
		l.forms[2] = "- " + e.Name + ": " + oneLine(e.Description, 1<<20)
		know = append(know, l)
	}
	byScore := func(ls []*catalogLine) []*catalogLine {
		out := slices.Clone(ls)
		sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
		return out
	}
	const (
		execHead  = "## Skills\n\nExecutable skills (invoke_skill). Parameters: name type=default min..max {allowed values}; leave one out for its default.\n"
		knowHead  = "\nKnowledge skills (instructions: read them with load_skill, never invoke them):\n"
		namesHead = "- also: "
		fullHead  = "\n## Skills given in full\n"
	)
	used += jsonLen(execHead)
	for _, l := range lines {
		used += jsonLen(l.forms[0]) + nl
	}
	// Knowledge skills: every name at least (so that load_skill can reach
	// them), mandatory like the executable skills' signatures.
	namesCost := 0
	if len(know) > 0 {
		namesCost = jsonLen(knowHead) + jsonLen(namesHead) + nl
		for _, l := range know {
			namesCost += jsonLen(l.name) + 2
		}
	}
	used += namesCost
	fits := func(n int) bool { return used+n <= limit }
	plan := promptPlan{budget: budget}
	// Over the budget with every signature: the least relevant skills are
	// listed by name and parameter names only, until the catalog fits.
	byRelevance := byScore(lines)
	for i := len(byRelevance) - 1; i >= 0 && !fits(0); i-- {
		l := byRelevance[i]
		compact := "- " + compactSignature(l.desc)
		used -= jsonLen(l.forms[0]) - jsonLen(compact)
		l.forms[0] = compact
	}
	if !fits(0) {
		plan.overflow = true
	}
	// Short descriptions of the executable skills, most relevant first (a
	// compacted one has no room for more).
	for _, l := range byRelevance {
		if l.forms[0] != l.bare {
			continue
		}
		if d := jsonLen(l.forms[1]) - jsonLen(l.forms[0]); fits(d) {
			used += d
			l.level = 1
		}
	}
	// Knowledge skills, short, most relevant first.
	for _, l := range byScore(know) {
		if c := jsonLen(l.forms[1]) + nl - jsonLen(l.name) - 2; fits(c) {
			used += c
			l.level = 1
		}
	}
	// Skills in full, whole or not at all.
	fullCost := jsonLen(fullHead)
	var chosen []loadedSkill
	for _, f := range full {
		c := jsonLen(f.text) + nl
		if len(chosen) == 0 {
			c += fullCost
		}
		if fits(c) {
			used += c
			chosen = append(chosen, f)
		}
	}
	// Full descriptions.
	for _, ls := range [][]*catalogLine{lines, know} {
		for _, l := range byScore(ls) {
			if l.level < 1 {
				continue
			}
			if d := jsonLen(l.forms[2]) - jsonLen(l.forms[l.level]); fits(d) {
				used += d
				l.level = 2
			}
		}
	}
	var b strings.Builder
	b.WriteString(execHead)
	for _, l := range lines {
		b.WriteString(l.forms[l.level] + "\n")
	}
	if len(lines) == 0 {
		b.WriteString("None at this tier.\n")
	}
	if len(know) > 0 {
		b.WriteString(knowHead)
		for _, l := range know {
			if l.level >= 1 {
				b.WriteString(l.forms[l.level] + "\n")
			} else {
				plan.omitted = append(plan.omitted, l.name)
			}
		}
		if len(plan.omitted) > 0 {
			b.WriteString(namesHead + strings.Join(plan.omitted, ", ") + "\n")
		}
	}
	if len(chosen) > 0 {
		b.WriteString(fullHead)
		for _, f := range chosen {
			b.WriteString(f.text + "\n")
			plan.full = append(plan.full, f.name)
		}
	}
	plan.catalog = b.String()
	plan.used = used
	return plan
}

// nl is what a newline takes in the JSON of the request.
const nl = 2

// loadedSkill is a skill given in full: its name and its rendered text.
type loadedSkill struct {
	name, text string
}

// fullText renders a knowledge skill given in full: its name and body,
// without the root path (the model reads files by relative path through
// read_skill_resource, never from disk).
func fullText(l *knowledge.Loaded) string {
	return fmt.Sprintf("\n#### %s\n\n%s\n", l.Name, strings.TrimSpace(l.Body))
}

// requestBase is a request of this step without its messages: the tools
// in tools mode, the answer's schema in JSON mode.
func (s *stepRun) requestBase() openai.ChatCompletionRequest {
	// The model's name is in the body the server gets (Client.chat sets
	// it too): the prompt's budget counts it.
	req := openai.ChatCompletionRequest{Model: s.p.client.cfg.Model}
	if s.p.json {
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{
			Type:       openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: "decision", Schema: answerSchema(s.exec), Strict: false},
		}
	} else {
		req.Tools = toolDefs(s.exec, s.goal.Words)
	}
	return req
}

// toolResultOverhead is what a tool result costs besides its text (its
// message, role and call id), in tokens.
const toolResultOverhead = 16

// measureRoom sets the room the results of an answer of n tool calls
// share: the context, less the next request as it stands, the space kept
// for the answer and the step's follow-up, and each result's overhead.
func (s *stepRun) measureRoom(msgs []openai.ChatCompletionMessage, n int) {
	req := s.requestBase()
	req.Messages = msgs
	s.room = s.p.client.cfg.Context - answerReserve - followUp - requestTokens(req) - n*toolResultOverhead
}

// followUp is kept free besides the answer's reserve for what the rest of
// the step adds: the next answer sent back, a short tool result.
const followUp = 128

// minResult is the least room worth filling with part of a text.
const minResult = 64

// fit bounds a text the model asked for to max bytes and to the room left
// in the context, and takes it from the room.
func (s *stepRun) fit(text string, maxBytes int, what string) string {
	limit := min(maxBytes, (s.room-toolResultOverhead)*bytesPerToken)
	if limit < minResult*bytesPerToken {
		s.event("no room in the model's context for %s (%d tokens left)", what, max(s.room, 0))
		return feedback(fmt.Sprintf("%s is not shown: the model's context (%d tokens) is full. Invoke a skill or finish with what you know.", what, s.p.client.cfg.Context))
	}
	out := text
	if esc := jsonLen(text); esc > limit {
		// The context holds the text JSON-escaped: scale the cut to that.
		n := int(int64(limit-64) * int64(len(text)) / int64(esc))
		out = bound(text, max(n, 0))
		if limit < maxBytes {
			s.event("%s cut to fit the model's context (%d tokens left)", what, s.room)
		}
	}
	s.room -= EstimateTokens(jsonLen(out)) + toolResultOverhead
	return out
}

// checkCut compares the server's count of a prompt with the estimate of
// what was sent, and warns when the server most likely cut it: a count
// above the configured context, or well below the estimate.
func (s *stepRun) checkCut(reported, sent int) {
	if reported <= 0 || sent <= 0 {
		return
	}
	ctxLen := s.p.client.cfg.Context
	var why string
	switch {
	case reported > ctxLen:
		why = fmt.Sprintf("the server counted %d prompt tokens, more than the context of %d the agent was told: set --llm-context (or llm.context) to the server's context", reported, ctxLen)
	case float64(reported) < cutRatio*float64(sent):
		why = fmt.Sprintf("the server counted %d prompt tokens of about %d sent: it most likely cut the prompt to its context; set the server's context length (Ollama: num_ctx or OLLAMA_CONTEXT_LENGTH) to at least --llm-context (%d)", reported, sent, ctxLen)
	default:
		return
	}
	s.event("%s", why)
	if !s.p.warnedCut {
		s.p.warnedCut = true
		s.p.opts.Log.Warn().Int("prompt_tokens", reported).Int("estimated_tokens", sent).Int("context", ctxLen).Msg(why)
	}
}
