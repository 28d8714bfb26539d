package loop

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// ItemGoal asks for at least Count items matching Item in the inventory
// ("have"), or, with Gain, for Count more than the inventory held when the
// run started ("collect"; Start is that count, set by Goal.Anchor). What
// a "collect" goal gathers counts in the inventory and in the chests in
// sight (Gathered), so a bot whose inventory fills up puts its haul away
// and goes on.
type ItemGoal struct {
	Item  string `json:"item"`
	Count int    `json:"count"`
	Gain  bool   `json:"gain,omitempty"`
	Start int    `json:"start,omitempty"`
}

// Stored counts the items matching m in the chests of w (those in sight,
// with their contents known).
func Stored(w *world.Snapshot, m world.ItemMatcher) int {
	n := 0
	for _, c := range w.Machines {
		if c.Kind != world.MachineChest {
			continue
		}
		for _, st := range c.Slots {
			if m.Matches(st) {
				n += st.Count
			}
		}
	}
	return n
}

// Gathered is how many items matching the goal's item w shows for it: the
// inventory's, and for a "collect" goal the chests' too (Stored).
func (ig ItemGoal) Gathered(w *world.Snapshot, m world.ItemMatcher) int {
	if ig.Gain {
		return w.Inventory.Count(m) + Stored(w, m)
	}
	return w.Inventory.Count(m)
}

// Target is the count (Gathered) that meets the item goal.
func (ig ItemGoal) Target() int {
	if ig.Gain {
		return ig.Start + ig.Count
	}
	return ig.Count
}

// KillGoal asks for Count kills of a mob kind (config/mobs.yaml's name:
// "pig") that the loop saw during the run: a mob the bot hit that then
// left the world model near the bot (a killed mob's death; see
// killWatch). Seen is the kills seen so far, kept by the loop.
type KillGoal struct {
	Mob   string `json:"mob"`
	Count int    `json:"count"`
	Seen  int    `json:"seen,omitempty"`
}

// BuildGoal asks for a structure of a blueprint that the bot built: a
// formed machine of the blueprint's kind that was not formed at the start
// of the run (Start lists where the formed ones were, set by Goal.Anchor).
type BuildGoal struct {
	Name    string           `json:"name"`
	Machine string           `json:"machine"`
	Start   []world.BlockPos `json:"start,omitempty"`
}

// built reports whether w shows a formed machine of the goal's kind that
// was not formed at the start.
func (bg BuildGoal) built(w *world.Snapshot) bool {
	for _, m := range w.Machines {
		if m.Kind == bg.Machine && m.Formed && !slices.Contains(bg.Start, m.Pos) {
			return true
		}
	}
	return false
}

// Anchor returns the goal with each "collect" item's Start set to what the
// inventory of w holds, so that collect N means N more than at the start,
// and each "build" goal's Start set to the formed machines of its kind, so
// that only a structure formed since counts.
// The loop anchors its goal on the first observation of a run.
func (g Goal) Anchor(w *world.Snapshot) Goal {
	out := g
	if len(g.Builds) > 0 {
		out.Builds = make([]BuildGoal, len(g.Builds))
	}
	for i, bg := range g.Builds {
		bg.Start = nil
		for _, m := range w.Machines {
			if m.Kind == bg.Machine && m.Formed {
				bg.Start = append(bg.Start, m.Pos)
			}
		}
		out.Builds[i] = bg
	}
	if len(g.Kills) > 0 {
		// Kills count from the run's start; the loop's copy is its own.
		out.Kills = make([]KillGoal, len(g.Kills))
		for i, kg := range g.Kills {
			kg.Seen = 0
			out.Kills[i] = kg
		}
	}
	out.Items = make([]ItemGoal, len(g.Items))
	for i, ig := range g.Items {
		if ig.Gain {
			if m, err := world.ParseItemMatcher(ig.Item); err == nil {
				ig.Start = ig.Gathered(w, m)
			}
		}
		out.Items[i] = ig
	}
	return out
}

// Goal is what a run tries to achieve. Every part that is set must hold.
type Goal struct {
	// Text is the goal as the user wrote it.
	Text string `json:"text"`
	// Items: inventory targets ("collect 16 minecraft:log": 16 more than at
	// the start of the run; "have 4 ore:plankWood": at least 4).
	Items []ItemGoal `json:"items,omitempty"`
	// Tier: reach at least this tech tier ("reach steam_age").
	Tier string `json:"tier,omitempty"`
	// Builds: structures of config/blueprints.yaml the bot builds ("build
	// coke_oven": a coke oven formed during the run).
	Builds []BuildGoal `json:"builds,omitempty"`
	// Kills: mobs the bot kills during the run ("kill 5 pig"), counted
	// from the deaths the loop sees after the bot's hits.
	Kills []KillGoal `json:"kills,omitempty"`
	// Skill: run this skill successfully once ("run mine_block target=minecraft:gravel");
	// template skills are resolved by name this way, as in seed 001.
	Skill *Invocation `json:"skill,omitempty"`
	// Quests: the quests of quest and line clauses, each after its
	// prerequisites (RunQuests works through them; a goal with quests has
	// no other part).
	Quests []QuestStage `json:"quests,omitempty"`
	// Keep are items a planner must not throw away, at least Count of
	// each: what the quests after this one in a quest run ask for. They
	// are not part of the goal: Check ignores them.
	Keep []ItemGoal `json:"keep,omitempty"`
	// QuestLines are the lines the goal's line clauses named, for the
	// figures per line.
	QuestLines []string `json:"quest_lines,omitempty"`
	// Words marks a goal given in words only, for a planner that reads
	// them (the model planner): no part of it is checked here, Check never
	// holds, and the run ends when the planner says it is done.
	Words bool `json:"words,omitempty"`
}

// MaxWordsGoal bounds a goal in words, in bytes.
const MaxWordsGoal = 1000

// WordsGoal is a goal in words ("build a coke oven next to the boiler")
// for a planner that reads them: text the goal grammar does not parse.
// It is refused when empty, longer than MaxWordsGoal or holding control
// characters.
func WordsGoal(text string) (Goal, error) {
	t := strings.TrimSpace(text)
	switch {
	case t == "":
		return Goal{}, fmt.Errorf("empty goal")
	case len(t) > MaxWordsGoal:
		return Goal{}, fmt.Errorf("a goal in words is %d bytes, more than %d", len(t), MaxWordsGoal)
	case !utf8.ValidString(t):
		return Goal{}, fmt.Errorf("a goal in words must be UTF-8 text")
	case strings.IndexFunc(t, unicode.IsControl) >= 0:
		return Goal{}, fmt.Errorf("a goal in words must be one line of text, without control characters")
	}
	return Goal{Text: t, Words: true}, nil
}

// WordsUnmet is what Check says of a goal in words.
const WordsUnmet = "a goal in words: the planner says when it is met"

// Invocation is one call of a skill.
type Invocation struct {
	Skill  string         `json:"skill"`
	Params map[string]any `json:"params,omitempty"`
}

func (inv Invocation) String() string {
	if len(inv.Params) == 0 {
		return inv.Skill
	}
	keys := make([]string, 0, len(inv.Params))
	for k := range inv.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, inv.Params[k])
	}
	return inv.Skill + " " + strings.Join(parts, " ")
}

// GoalParser parses goals against a tier table and, when Names is set,
// checks every item, skill and parameter they name.
type GoalParser struct {
	Tiers *rules.Tiers
	Names Names
	// Blueprints are the structures a build clause may name (nil = the
	// shipped config/blueprints.yaml).
	Blueprints *rules.Blueprints
	// Quests resolves quest and line clauses (nil: the clauses are
	// refused, naming --quests).
	Quests QuestSource
	// Mobs are the mob kinds a kill clause may name (nil = the shipped
	// config/mobs.yaml).
	Mobs *rules.Mobs
}

// ParseGoal parses a goal written on the command line against a tier table,
// checking no names (GoalParser.Parse does).
func ParseGoal(text string, tiers *rules.Tiers) (Goal, error) {
	return GoalParser{Tiers: tiers}.Parse(text)
}

// Parse parses a goal written on the command line. Clauses are joined
// with " and ":
//
//	collect 16 minecraft:log     16 more matching items than at the start of the run
//	have 4 ore:plankWood         at least 4 matching items in the inventory
//	reach steam_age              the inferred tier is at least steam_age
//	build coke_oven              a structure of that blueprint, formed during the run
//	kill 5 pig                   5 mobs of that kind killed by the bot during the run
//	run mine_block target=minecraft:gravel radius=24
//	                             run a skill once, successfully
//	quest "Where's the Flint?"   a quest of the quest book, after its prerequisites
//	line "Tier 0 - Stone Age"    every quest of a line, in prerequisite order
//
// A name in double quotes may hold " and ". Quest and line clauses go only
// with other quest and line clauses.
func (p GoalParser) Parse(text string) (Goal, error) {
	tiers := p.Tiers
	g := Goal{Text: strings.TrimSpace(text)}
	if g.Text == "" {
		return Goal{}, fmt.Errorf("empty goal")
	}
	clauses, err := splitClauses(g.Text)
	if err != nil {
		return Goal{}, fmt.Errorf("goal %q: %v", text, err)
	}
	for _, clause := range clauses {
		f := strings.Fields(clause)
		if len(f) == 0 {
			return Goal{}, fmt.Errorf("goal %q has an empty clause", text)
		}
		switch f[0] {
		case "quest", "line":
			if err := p.quests(&g, f[0], clause); err != nil {
				return Goal{}, err
			}
		case "collect", "have":
			if len(f) != 3 {
				return Goal{}, fmt.Errorf("%q: write %s COUNT ITEM, e.g. %s 16 minecraft:log", clause, f[0], f[0])
			}
			n, err := strconv.Atoi(f[1])
			if err != nil || n < 1 {
				return Goal{}, fmt.Errorf("%q: count must be a positive integer", clause)
			}
			if err := p.item(f[2]); err != nil {
				return Goal{}, fmt.Errorf("%q: %v", clause, err)
			}
			g.Items = append(g.Items, ItemGoal{Item: f[2], Count: n, Gain: f[0] == "collect"})
		case "kill":
			if len(f) != 3 {
				return Goal{}, fmt.Errorf("%q: write kill COUNT MOB, e.g. kill 5 pig", clause)
			}
			n, err := strconv.Atoi(f[1])
			if err != nil || n < 1 {
				return Goal{}, fmt.Errorf("%q: count must be a positive integer", clause)
			}
			if err := p.mob(f[2]); err != nil {
				return Goal{}, fmt.Errorf("%q: %v", clause, err)
			}
			g.Kills = append(g.Kills, KillGoal{Mob: f[2], Count: n})
		case "reach":
			if len(f) != 2 {
				return Goal{}, fmt.Errorf("%q: write reach TIER, e.g. reach steam_age", clause)
			}
			if _, ok := tiers.Index(f[1]); !ok {
				return Goal{}, fmt.Errorf("%q: %v", clause, tiers.UnknownError(f[1]))
			}
			if g.Tier != "" {
				return Goal{}, fmt.Errorf("goal %q names two tiers", text)
			}
			g.Tier = f[1]
		case "build":
			if len(f) != 2 {
				return Goal{}, fmt.Errorf("%q: write build NAME, e.g. build coke_oven", clause)
			}
			bg, err := p.build(f[1])
			if err != nil {
				return Goal{}, fmt.Errorf("%q: %v", clause, err)
			}
			g.Builds = append(g.Builds, bg)
		case "run":
			if len(f) < 2 {
				return Goal{}, fmt.Errorf("%q: write run SKILL [param=value ...]", clause)
			}
			if g.Skill != nil {
				return Goal{}, fmt.Errorf("goal %q names two skills to run", text)
			}
			inv := &Invocation{Skill: f[1]}
			for _, kv := range f[2:] {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return Goal{}, fmt.Errorf("%q: parameter %q must be name=value", clause, kv)
				}
				if inv.Params == nil {
					inv.Params = map[string]any{}
				}
				inv.Params[k] = scalar(v)
			}
			if p.Names != nil {
				if err := p.Names.Invocation(*inv); err != nil {
					return Goal{}, fmt.Errorf("%q: %v", clause, err)
				}
			}
			g.Skill = inv
		default:
			return Goal{}, fmt.Errorf("%q: a goal clause starts with collect, have, kill, reach, build, run, quest or line", clause)
		}
	}
	if len(g.Quests) > 0 && (len(g.Items) > 0 || g.Tier != "" || len(g.Builds) > 0 || len(g.Kills) > 0 || g.Skill != nil) {
		return Goal{}, fmt.Errorf("goal %q: quest and line clauses go only with other quest and line clauses", text)
	}
	return g, nil
}

// scalar turns a command-line value into an int, float, bool or string.
func scalar(s string) any {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	if b, err := strconv.ParseBool(s); err == nil {
		return b
	}
	return s
}

// build resolves a blueprint name to its goal.
func (p GoalParser) build(name string) (BuildGoal, error) {
	bps := p.Blueprints
	if bps == nil {
		bps = rules.Default().Builds
	}
	bp, ok := bps.Get(name)
	if !ok {
		return BuildGoal{}, fmt.Errorf("no blueprint %q%s (known: %s)", name, suggest.DidYouMean(name, bps.Names()), strings.Join(bps.Names(), ", "))
	}
	return BuildGoal{Name: bp.Name, Machine: bp.Machine}, nil
}

// mob checks that a kill clause names a mob kind.
func (p GoalParser) mob(name string) error {
	mobs := p.Mobs
	if mobs == nil {
		mobs = rules.Default().Mobs
	}
	if _, ok := mobs.Kind(name); ok {
		return nil
	}
	var names []string
	for _, k := range mobs.Kinds() {
		names = append(names, k.Name)
	}
	return fmt.Errorf("no mob %q%s (known: %s)", name, suggest.DidYouMean(name, names), strings.Join(names, ", "))
}

// item checks an item matcher's syntax and, with Names, that it is known.
func (p GoalParser) item(s string) error {
	if _, err := world.ParseItemMatcher(s); err != nil {
		return err
	}
	if p.Names != nil {
		return p.Names.Item(s)
	}
	return nil
}

// ParseGoalYAML parses a goal file against a tier table, checking no names
// (GoalParser.ParseYAML does).
func ParseGoalYAML(file string, data []byte, tiers *rules.Tiers) (Goal, error) {
	return GoalParser{Tiers: tiers}.ParseYAML(file, data)
}

// ParseYAML reads a goal file:
//
//	items:
//	  - {item: minecraft:log, count: 16}
//	tier: steam_age
//	build: [coke_oven]
//	skill: {name: mine_block, params: {target: minecraft:gravel}}
func (p GoalParser) ParseYAML(file string, data []byte) (Goal, error) {
	tiers := p.Tiers
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return Goal{}, err
	}
	d := strictyaml.NewDecoder(file)
	if root == nil {
		d.Errorf(nil, "", "empty goal file")
		return Goal{}, d.Errs
	}
	g := Goal{Text: file}
	f := d.Mapping(root, "", []string{"items", "tier", "build", "skill"})
	if n, ok := f["items"]; ok {
		for i, c := range d.Sequence(n.Value, "items") {
			path := strictyaml.Index("items", i)
			fs := d.Mapping(c, path, []string{"item", "count", "collect"})
			d.Require(c, path, fs, "item")
			_, hasCount := fs["count"]
			_, hasCollect := fs["collect"]
			switch {
			case hasCount && hasCollect:
				d.Errorf(c, path, "count (have at least) and collect (gain) exclude each other")
			case !hasCount && !hasCollect:
				d.Errorf(c, path, "missing count (have at least) or collect (gain)")
			}
			var ig ItemGoal
			if v, ok := fs["item"]; ok {
				if s, ok := d.String(v.Value, path+".item"); ok {
					if err := p.item(s); err != nil {
						d.Errorf(v.Value, path+".item", "%v", err)
					}
					ig.Item = s
				}
			}
			for _, key := range []string{"count", "collect"} {
				if v, ok := fs[key]; ok {
					if n, ok := d.Int(v.Value, path+"."+key); ok {
						if n < 1 {
							d.Errorf(v.Value, path+"."+key, "must be at least 1")
						}
						ig.Count, ig.Gain = n, key == "collect"
					}
				}
			}
			g.Items = append(g.Items, ig)
		}
	}
	if n, ok := f["tier"]; ok {
		if s, ok := d.String(n.Value, "tier"); ok {
			if _, known := tiers.Index(s); !known {
				d.Errorf(n.Value, "tier", "%v", tiers.UnknownError(s))
			}
			g.Tier = s
		}
	}
	if n, ok := f["build"]; ok {
		for i, c := range d.Sequence(n.Value, "build") {
			if s, ok := d.String(c, strictyaml.Index("build", i)); ok {
				bg, err := p.build(s)
				if err != nil {
					d.Errorf(c, strictyaml.Index("build", i), "%v", err)
					continue
				}
				g.Builds = append(g.Builds, bg)
			}
		}
	}
	if n, ok := f["skill"]; ok {
		errs := len(d.Errs)
		fs := d.Mapping(n.Value, "skill", []string{"name", "params"})
		d.Require(n.Value, "skill", fs, "name")
		inv := &Invocation{}
		if v, ok := fs["name"]; ok {
			if s, ok := d.String(v.Value, "skill.name"); ok {
				if strings.TrimSpace(s) == "" {
					d.Errorf(v.Value, "skill.name", "must name a skill")
				}
				inv.Skill = s
			}
		}
		if v, ok := fs["params"]; ok {
			inv.Params = d.AnyMap(v.Value, "skill.params")
			if _, empty := inv.Params[""]; empty {
				d.Errorf(v.Value, "skill.params", "a parameter name is empty")
			}
		}
		if p.Names != nil && inv.Skill != "" && len(d.Errs) == errs {
			if err := p.Names.Invocation(*inv); err != nil {
				d.Errorf(n.Value, "skill", "%v", err)
			}
		}
		g.Skill = inv
	}
	if len(d.Errs) == 0 && len(g.Items) == 0 && g.Tier == "" && g.Skill == nil && len(g.Builds) == 0 {
		d.Errorf(root, "", "a goal needs items, tier, build or skill")
	}
	if err := d.Err(); err != nil {
		return Goal{}, err
	}
	return g, nil
}

// Progress says which parts of a goal hold in a snapshot.
type Progress struct {
	Met   bool     `json:"met"`
	Unmet []string `json:"unmet,omitempty"`
}

// Check evaluates the goal against a snapshot. skillDone says whether the
// goal's skill has already run successfully.
func (g Goal) Check(w *world.Snapshot, tiers *rules.Tiers, skillDone bool) Progress {
	var unmet []string
	for _, ig := range g.Items {
		m, err := world.ParseItemMatcher(ig.Item)
		if err != nil {
			unmet = append(unmet, fmt.Sprintf("invalid item %q", ig.Item))
			continue
		}
		switch have := ig.Gathered(w, m); {
		case have >= ig.Target():
		case ig.Gain:
			unmet = append(unmet, fmt.Sprintf("collected %d/%d %s", have-ig.Start, ig.Count, ig.Item))
		default:
			unmet = append(unmet, fmt.Sprintf("%d/%d %s", have, ig.Count, ig.Item))
		}
	}
	if g.Tier != "" {
		if c, err := tiers.Compare(w.TechState, g.Tier); err != nil || c < 0 {
			unmet = append(unmet, fmt.Sprintf("tier %s, want %s", w.TechState, g.Tier))
		}
	}
	for _, bg := range g.Builds {
		if !bg.built(w) {
			unmet = append(unmet, "build "+bg.Name)
		}
	}
	for _, kg := range g.Kills {
		if kg.Seen < kg.Count {
			unmet = append(unmet, fmt.Sprintf("killed %d/%d %s", kg.Seen, kg.Count, kg.Mob))
		}
	}
	if g.Skill != nil && !skillDone {
		unmet = append(unmet, "run "+g.Skill.Skill)
	}
	if g.Words {
		unmet = append(unmet, WordsUnmet)
	}
	return Progress{Met: len(unmet) == 0, Unmet: unmet}
}

// skillRunMet reports whether the step rec fulfils the goal's run clause:
// the goal's invocation ran with a Success verdict and its declared effects
// were observed, every check holding. checkable says whether the skill
// declares effects the verifier can check; for such a skill a step without
// checks (a success nobody confirmed in the world) never meets the goal.
func (g Goal) skillRunMet(rec StepRecord, checkable bool) bool {
	if g.Skill == nil || rec.Invocation == nil || rec.Verdict != Success || !sameInvocation(*g.Skill, *rec.Invocation) {
		return false
	}
	if checkable && len(rec.Effects) == 0 {
		return false
	}
	return allOK(rec.Effects)
}

// LoadGoalFile reads and parses a goal file (at most filelimit.MaxConfig
// bytes), checking no names (GoalParser.LoadFile does).
func LoadGoalFile(file string, tiers *rules.Tiers) (Goal, error) {
	return GoalParser{Tiers: tiers}.LoadFile(file)
}

// LoadFile reads and parses a goal file (at most filelimit.MaxConfig bytes).
func (p GoalParser) LoadFile(file string) (Goal, error) {
	data, err := filelimit.ReadFile(file, filelimit.MaxConfig)
	if err != nil {
		return Goal{}, err
	}
	return p.ParseYAML(file, data)
}
