package recipebook

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

// Book is a set of recipes, in the order they were read.
type Book struct {
	Recipes []Recipe
}

// For returns the recipes whose first output is item, in book order.
func (b *Book) For(item string) []*Recipe {
	var out []*Recipe
	for i := range b.Recipes {
		if b.Recipes[i].Output() == item {
			out = append(out, &b.Recipes[i])
		}
	}
	return out
}

// Count returns how many recipes of each kind the book holds.
func (b *Book) Count() map[Kind]int {
	n := map[Kind]int{}
	for i := range b.Recipes {
		n[b.Recipes[i].Kind]++
	}
	return n
}

// Crafting returns the book's grid-crafting recipes in the agent's recipe
// model (see Recipe.Crafting), in book order.
func (b *Book) Crafting() ([]rules.Recipe, error) {
	var out []rules.Recipe
	for i := range b.Recipes {
		rec, ok, err := b.Recipes[i].Crafting()
		if err != nil {
			return nil, fmt.Errorf("recipe %d: %w", i, err)
		}
		if ok {
			out = append(out, rec)
		}
	}
	return out, nil
}

// Summary says what an import kept, what it dropped and why, and what the
// dump's format cannot carry.
type Summary struct {
	Format string
	Files  int
	// Kept counts the recipes kept, by kind.
	Kept map[Kind]int
	// Skipped counts the recipes dropped, by reason.
	Skipped map[string]int
	// ShapesGuessed counts shaped recipes whose layout was inferred.
	ShapesGuessed int
	// Tools counts inputs marked as tools (not used up).
	Tools int
	// Lacks lists what the format does not export at all.
	Lacks   []string
	Elapsed time.Duration
}

func newSummary(format string) *Summary {
	return &Summary{Format: format, Kept: map[Kind]int{}, Skipped: map[string]int{}}
}

func (s *Summary) skip(reason string, n int) {
	if n > 0 {
		s.Skipped[reason] += n
	}
}

func (s *Summary) lack(note string) {
	for _, l := range s.Lacks {
		if l == note {
			return
		}
	}
	s.Lacks = append(s.Lacks, note)
}

// Total is the number of recipes kept.
func (s *Summary) Total() int {
	n := 0
	for _, c := range s.Kept {
		n += c
	}
	return n
}

// String renders the summary for people, one fact a line.
func (s *Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "format %s, %d file(s), %d recipes kept in %s\n", s.Format, s.Files, s.Total(), s.Elapsed.Round(time.Millisecond))
	for _, k := range Kinds {
		fmt.Fprintf(&b, "  %-9s %d\n", k, s.Kept[k])
	}
	if s.ShapesGuessed > 0 {
		fmt.Fprintf(&b, "  %d shaped recipes had no width in the dump: their layout was inferred\n", s.ShapesGuessed)
	}
	if s.Tools > 0 {
		fmt.Fprintf(&b, "  %d inputs are tools (stay in the grid, take damage)\n", s.Tools)
	}
	if len(s.Skipped) > 0 {
		reasons := make([]string, 0, len(s.Skipped))
		for r := range s.Skipped {
			reasons = append(reasons, r)
		}
		sort.Slice(reasons, func(i, j int) bool {
			if s.Skipped[reasons[i]] != s.Skipped[reasons[j]] {
				return s.Skipped[reasons[i]] > s.Skipped[reasons[j]]
			}
			return reasons[i] < reasons[j]
		})
		b.WriteString("skipped:\n")
		for _, r := range reasons {
			fmt.Fprintf(&b, "  %d %s\n", s.Skipped[r], r)
		}
	}
	for _, l := range s.Lacks {
		fmt.Fprintf(&b, "not in this format: %s\n", l)
	}
	return b.String()
}

// interner shares one copy of each string among the recipes and
// remembers the names it has checked, so a dump naming the same few
// thousand items a million times checks each once.
type interner struct {
	strs  map[string]string
	names map[nameKey]nameVal
	memo  itemMemo
}

type nameKey struct {
	id     string
	meta   int
	output bool
}

type nameVal struct {
	name string
	err  error
}

func newInterner() *interner {
	return &interner{strs: map[string]string{}, names: map[nameKey]nameVal{}, memo: itemMemo{}}
}

func (in *interner) get(s string) string {
	if v, ok := in.strs[s]; ok {
		return v
	}
	s = strings.Clone(s)
	in.strs[s] = s
	return s
}

// name is itemName, interned and remembered.
func (in *interner) name(id string, meta int, output bool) (string, error) {
	k := nameKey{id, meta, output}
	if v, ok := in.names[k]; ok {
		return v.name, v.err
	}
	name, err := itemName(id, meta, output)
	if err == nil {
		name = in.get(name)
	}
	if len(in.names) < 1<<20 {
		in.names[nameKey{in.get(id), meta, output}] = nameVal{name, err}
	}
	return name, err
}

// wildcardMeta is OreDictionary.WILDCARD_VALUE: any metadata.
const wildcardMeta = 32767

// itemName names a stack the way the agent does: metadata dropped when it
// is the wildcard (and, for outputs, when it is 0, as the agent names a
// plain item), kept otherwise.
func itemName(id string, meta int, output bool) (string, error) {
	if id == "" {
		return "", skipErr("an item with an empty id")
	}
	if len(id) > MaxNameLen {
		return "", skipErr("an item id longer than 256 bytes")
	}
	if _, m, err := game.SplitID(id); err != nil || m != -1 {
		return "", skipErr("an item id that is not modid:name")
	}
	name := id
	if meta >= 0 && meta != wildcardMeta && !(output && meta == 0) {
		if meta > wildcardMeta {
			return "", skipErr("an item's metadata out of range")
		}
		name = id + ":" + strconv.Itoa(meta)
	}
	if _, _, err := game.SplitID(name); err != nil {
		return "", skipErr("an item id that is not modid:name")
	}
	return name, nil
}

// toolOrePrefix is the ore-dictionary family GregTech's ToolDictNames
// registers crafting tools under (craftingToolKnife, craftingToolSaw, …);
// a crafting recipe that names one keeps the tool and damages it.
const toolOrePrefix = "craftingTool"

// knownTools are items that stay in the crafting grid and take damage
// although a dump may name them as a plain item.
//   - dreamcraft:item.WoodenBrickForm: NewHorizonsCoreMod
//     item/WoodenBrickForm.java, getContainerItem returns the form with one
//     more damage (max 300).
//   - gregtech:gt.metatool.01 metas 24 (mortar) and 34 (knife): GT5-Unofficial
//     IDMetaTool01; GT tools return themselves damaged from the grid.
var knownTools = map[string]bool{
	"dreamcraft:item.WoodenBrickForm": true,
	"gregtech:gt.metatool.01:24":      true,
	"gregtech:gt.metatool.01:34":      true,
}

func isKnownTool(name string) bool {
	if knownTools[name] {
		return true
	}
	// "modid:name:meta" names the same tool as "modid:name".
	if i := strings.LastIndexByte(name, ':'); i > 0 && strings.IndexByte(name[:i], ':') > 0 {
		return knownTools[name[:i]]
	}
	return false
}

// stackInfo is what both dump formats say about one alternative of an
// ingredient.
type stackInfo struct {
	id       string
	meta     int
	oreNames []string
}

// chooseOptions reduces an ingredient's alternatives to the agent's
// options: a crafting tool's ore entry when any alternative is one, one
// item when there is one, an ore-dictionary entry every alternative shares,
// or else the items themselves.
func chooseOptions(in *interner, alts []stackInfo, declaredOre []string) (opts []string, tool bool, err error) {
	if len(alts) == 0 && len(declaredOre) == 0 {
		return nil, false, skipErr("an ingredient with no item")
	}
	for _, o := range declaredOre {
		if strings.HasPrefix(o, toolOrePrefix) && len(o) > len(toolOrePrefix) {
			return []string{in.get("ore:" + o)}, true, nil
		}
	}
	for _, a := range alts {
		for _, o := range a.oreNames {
			if strings.HasPrefix(o, toolOrePrefix) && len(o) > len(toolOrePrefix) {
				return []string{in.get("ore:" + o)}, true, nil
			}
		}
	}
	if len(declaredOre) > 0 {
		o := declaredOre[0]
		if o == "" || len(o) > MaxNameLen-4 || strings.ContainsAny(o, ": ") {
			return nil, false, skipErr("an ore-dictionary name that is not a name")
		}
		return []string{in.get("ore:" + o)}, false, nil
	}
	if len(alts) == 1 {
		name, err := in.name(alts[0].id, alts[0].meta, false)
		if err != nil {
			return nil, false, err
		}
		return []string{name}, isKnownTool(name), nil
	}
	if ore := commonOre(alts); ore != "" {
		return []string{in.get("ore:" + ore)}, false, nil
	}
	seen := map[string]bool{}
	for _, a := range alts {
		name, err := in.name(a.id, a.meta, false)
		if err != nil {
			return nil, false, err
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		if isKnownTool(name) {
			tool = true
		}
		opts = append(opts, name)
	}
	if len(opts) > MaxOptions {
		return nil, false, errTooManyOptions
	}
	return opts, tool, nil
}

var errTooManyOptions = skipErr("more than 64 alternatives of one ingredient")

// skipErr is why a dump's recipe is not kept; its text is the reason the
// summary counts recipes under, so it carries no per-recipe values.
type skipErr string

func (e skipErr) Error() string { return string(e) }

// commonOre returns the first ore name (in the first alternative's order)
// that every alternative carries, or "".
func commonOre(alts []stackInfo) string {
	for _, o := range alts[0].oreNames {
		if o == "" || len(o) > MaxNameLen-4 || strings.ContainsAny(o, ": ") {
			continue
		}
		all := true
		for _, a := range alts[1:] {
			found := false
			for _, p := range a.oreNames {
				if p == o {
					found = true
					break
				}
			}
			if !found {
				all = false
				break
			}
		}
		if all {
			return o
		}
	}
	return ""
}

// cell is one filled cell of a grid being built.
type cell struct {
	col, row int
	opts     []string
	tool     bool
}

// buildShaped makes a shaped recipe from filled cells: the shape is
// trimmed to the cells used (a shape may sit anywhere in the grid) and
// cells naming the same options share one input.
func buildShaped(cells []cell, out Output) (Recipe, error) {
	if len(cells) == 0 {
		return Recipe{}, skipErr("a shaped recipe with no ingredient")
	}
	minC, minR, maxC, maxR := 3, 3, -1, -1
	for _, c := range cells {
		if c.col < 0 || c.col > 2 || c.row < 0 || c.row > 2 {
			return Recipe{}, skipErr("a cell outside the 3x3 grid")
		}
		minC, minR = min(minC, c.col), min(minR, c.row)
		maxC, maxR = max(maxC, c.col), max(maxR, c.row)
	}
	w, h := maxC-minC+1, maxR-minR+1
	r := Recipe{Kind: Shaped, Width: uint8(w), Height: uint8(h), Cells: make([]int8, w*h), Outputs: []Output{out}}
	for i := range r.Cells {
		r.Cells[i] = -1
	}
	index := map[string]int{}
	for _, c := range cells {
		at := (c.row-minR)*w + (c.col - minC)
		if r.Cells[at] != -1 {
			return Recipe{}, skipErr("two ingredients in one cell")
		}
		key := strings.Join(c.opts, "\x00")
		if c.tool {
			key += "\x00tool"
		}
		i, ok := index[key]
		if !ok {
			i = len(r.Inputs)
			index[key] = i
			r.Inputs = append(r.Inputs, Input{Options: c.opts, Tool: c.tool})
		}
		r.Inputs[i].Count++
		r.Cells[at] = int8(i)
	}
	return r, nil
}

// buildShapeless makes a shapeless recipe, merging inputs that name the
// same options.
func buildShapeless(ins []Input, out Output) (Recipe, error) {
	if len(ins) == 0 {
		return Recipe{}, skipErr("a shapeless recipe with no ingredient")
	}
	if len(ins) > MaxGridCells {
		return Recipe{}, skipErr("more ingredients than a 3x3 grid holds")
	}
	r := Recipe{Kind: Shapeless, Outputs: []Output{out}}
	for _, in := range ins {
		merged := false
		for i := range r.Inputs {
			if r.Inputs[i].Tool == in.Tool && equalStrings(r.Inputs[i].Options, in.Options) {
				r.Inputs[i].Count++
				merged = true
				break
			}
		}
		if !merged {
			in.Count = 1
			r.Inputs = append(r.Inputs, in)
		}
	}
	return r, nil
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// keep checks a built recipe and adds it to the book, or counts it as
// skipped with the reason.
func keep(b *Book, s *Summary, r Recipe, in *interner) {
	if err := r.check(in.memo.check); err != nil {
		s.skip("invalid: "+reasonOf(err), 1)
		return
	}
	if r.ShapeGuessed {
		s.ShapesGuessed++
	}
	for _, in := range r.Inputs {
		if in.Tool {
			s.Tools++
		}
	}
	s.Kept[r.Kind]++
	b.Recipes = append(b.Recipes, r)
}

// reasonOf turns an error into a reason to count recipes under: the field
// and message without the values that differ from recipe to recipe.
func reasonOf(err error) string {
	if fe, ok := err.(*FieldError); ok {
		field := fe.Field
		if i := strings.LastIndexByte(field, '.'); i >= 0 {
			field = field[i+1:]
		}
		msg := fe.Msg
		if i := strings.Index(msg, ", got"); i >= 0 {
			msg = msg[:i]
		}
		return field + ": " + msg
	}
	if se, ok := err.(skipErr); ok {
		return string(se)
	}
	return "unreadable"
}

// to32 narrows a dump's number; one that does not fit 32 bits drops the
// recipe rather than wrapping into a value that would pass the checks.
func to32(n int) (int32, error) {
	if n > math.MaxInt32 || n < math.MinInt32 {
		return 0, skipErr("a number out of range")
	}
	return int32(n), nil
}
