package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/knowledge"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// Entry is one skill in the unified catalog: what a planner sees before it
// loads anything.
type Entry struct {
	// ID is the persistent id of a knowledge skill, the name of an
	// executable one.
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	Kind        knowledge.Kind `json:"kind"`
	Description string         `json:"description"`
	// Version is the executable's spec version or the knowledge skill's
	// metadata.version.
	Version string   `json:"version,omitempty"`
	Tags    []string `json:"tags"`
	// Tiers are the tier expressions gating the skill (any one must hold;
	// empty means every tier).
	Tiers []string `json:"tiers"`
	// Packs are the skill packs that offer an executable skill.
	Packs []string `json:"packs,omitempty"`
	// Uses names the executable skills a knowledge skill relies on.
	Uses []string `json:"uses,omitempty"`
	// Executable is the executable skill a knowledge skill carries.
	Executable string `json:"executable,omitempty"`
	// Source and Root locate a knowledge skill.
	Source string `json:"source,omitempty"`
	Root   string `json:"root,omitempty"`
	// SuccessRate is an executable skill's learned success rate.
	SuccessRate *float64 `json:"success_rate,omitempty"`

	desc *registry.Description
}

// Spec returns an executable entry's registry description (nil for plain
// knowledge skills).
func (e Entry) Spec() *registry.Description { return e.desc }

// Catalog joins the executable skills of a registry and the knowledge skills
// of a library into one list. Either may be nil. A Catalog holds no state of
// its own: every call reads the current registry and library.
type Catalog struct {
	Registry *registry.Registry
	Library  *knowledge.Library
	// Tiers gate knowledge skills (nil = the registry's, else the shipped
	// table).
	Tiers *rules.Tiers
}

func (c *Catalog) tiers() *rules.Tiers {
	if c.Tiers != nil {
		return c.Tiers
	}
	if c.Registry != nil {
		return c.Registry.Tiers()
	}
	return rules.Default().Tiers
}

// Entries returns every skill, both kinds, sorted by name. A knowledge skill
// whose directory carries an executable spec known to the registry is one
// entry (kind knowledge+go or knowledge+template), not two.
func (c *Catalog) Entries() []Entry {
	var descs []*registry.Description
	if c.Registry != nil {
		descs = c.Registry.DescribeAll()
	}
	return c.build(descs, nil, true)
}

// ForTechState returns the skills usable at a tech tier: the executable
// skills of the packs active there, in pack order as
// registry.DescribeForTechState gives them, then the knowledge skills whose
// metadata.tiers admit the tier, by name. A combined skill whose executable
// is not offered at that tier is shown as plain knowledge.
func (c *Catalog) ForTechState(tier string, enabledPacks []string) ([]Entry, error) {
	t := c.tiers()
	if _, ok := t.Index(tier); !ok {
		return nil, fmt.Errorf("unknown tech state %q (known: %s)", tier, strings.Join(t.Names(), ", "))
	}
	descs := []*registry.Description{}
	if c.Registry != nil {
		d, err := c.Registry.DescribeForTechState(tier, enabledPacks)
		if err != nil && !errors.Is(err, registry.ErrNoPacks) {
			return nil, err
		}
		descs = d
	}
	return c.build(descs, func(sk *knowledge.Doc) bool { return knowledge.TierAllows(t, sk.Frontmatter.Metadata.Tiers, tier) }, false), nil
}

func (c *Catalog) packsOf() map[string][]string {
	out := map[string][]string{}
	if c.Registry == nil || c.Registry.Packs() == nil {
		return out
	}
	for _, p := range c.Registry.Packs().All() {
		for _, s := range p.Skills {
			out[s] = append(out[s], p.Name)
		}
	}
	return out
}

func (c *Catalog) build(descs []*registry.Description, allow func(*knowledge.Doc) bool, byName bool) []Entry {
	packs := c.packsOf()
	exec := map[string]*registry.Description{}
	for _, d := range descs {
		exec[d.Name] = d
	}
	merged := map[string]bool{}
	var know []Entry
	if c.Library != nil {
		for _, sk := range c.Library.Skills() {
			if allow != nil && !allow(sk) {
				continue
			}
			md := sk.Frontmatter.Metadata
			e := Entry{
				ID: sk.ID, Name: sk.Name, Kind: knowledge.KindKnowledge, Description: sk.Description,
				Version: md.Version, Tags: nonNil(md.Tags), Tiers: nonNil(md.Tiers), Uses: md.Uses,
				Source: sk.Source, Root: sk.Root,
			}
			if x := sk.ExecutableName(); x != "" {
				if d, ok := exec[x]; ok {
					merged[x] = true
					e.Kind = knowledge.KindKnowledgeTemplate
					if d.Implementation == skills.ImplGo {
						e.Kind = knowledge.KindKnowledgeGo
					}
					e.Executable = x
					e.Packs = packs[x]
					e.SuccessRate = d.Metrics.SuccessRate
					e.desc = d
					if len(e.Tiers) == 0 {
						e.Tiers = nonNil(d.Preconditions.TechStatesAnyOf)
					}
				}
			}
			know = append(know, e)
		}
	}
	var out []Entry
	for _, d := range descs {
		if merged[d.Name] {
			continue
		}
		k := knowledge.KindGo
		if d.Implementation == skills.ImplTemplate {
			k = knowledge.KindTemplate
		}
		out = append(out, Entry{
			ID: d.Name, Name: d.Name, Kind: k, Description: d.Description,
			Version: strconv.Itoa(d.Version), Tags: nonNil(d.Tags),
			Tiers: nonNil(d.Preconditions.TechStatesAnyOf), Packs: packs[d.Name],
			SuccessRate: d.Metrics.SuccessRate, desc: d,
		})
	}
	if !byName {
		// Knowledge skills follow the executable skills, which keep the
		// registry's pack order; a combined skill takes the place of its
		// executable.
		combined := map[string]Entry{}
		var rest []Entry
		for _, k := range know {
			if k.Executable != "" {
				combined[k.Executable] = k
			} else {
				rest = append(rest, k)
			}
		}
		execByName := make(map[string]Entry, len(out))
		for _, x := range out {
			execByName[x.Name] = x
		}
		merged := make([]Entry, 0, len(out)+len(know))
		for _, d := range descs {
			if k, ok := combined[d.Name]; ok {
				merged = append(merged, k)
			} else if x, ok := execByName[d.Name]; ok {
				merged = append(merged, x)
			}
		}
		return append(merged, rest...)
	}
	out = append(out, know...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Lookup finds an entry by name, id, or — for a knowledge skill carrying an
// executable — the executable's name. Should a knowledge skill share its
// name with an executable skill (validation reports that), the executable
// is found by the name and the knowledge skill by its id.
func (c *Catalog) Lookup(nameOrID string) (Entry, bool) {
	return lookupIn(c.Entries(), nameOrID)
}

func lookupIn(entries []Entry, nameOrID string) (Entry, bool) {
	for _, e := range entries {
		if e.Name == nameOrID || e.ID == nameOrID {
			return e, true
		}
	}
	for _, e := range entries {
		if e.Executable != "" && e.Executable == nameOrID {
			return e, true
		}
	}
	return Entry{}, false
}

// LoadSkill is the load_skill tool: the full instructions of any skill in
// the catalog. A knowledge skill returns its body with {baseDir} resolved
// and its root path; an executable skill returns its spec rendered as
// markdown (parameters, preconditions, effects, actions); a skill with both
// returns the body followed by the spec.
func (c *Catalog) LoadSkill(nameOrID string) (*knowledge.Loaded, error) {
	e, ok := c.Lookup(nameOrID)
	if !ok {
		return nil, fmt.Errorf("%w %q (known: %s)", knowledge.ErrUnknownSkill, nameOrID, strings.Join(c.names(), ", "))
	}
	if !e.Kind.Knowledge() {
		return &knowledge.Loaded{Name: e.Name, ID: e.ID, Kind: e.Kind, Body: RenderSpec(e.desc)}, nil
	}
	l, err := c.Library.Load(e.Name)
	if err != nil {
		return nil, err
	}
	l.Kind = e.Kind
	l.Executable = e.Executable
	if e.desc != nil {
		l.Body = strings.TrimRight(l.Body, "\n") + "\n\n" + demote(RenderSpec(e.desc))
	}
	return l, nil
}

func (c *Catalog) names() []string {
	var out []string
	for _, e := range c.Entries() {
		out = append(out, e.Name)
	}
	return out
}

// demote turns "# " headings into "## " so an appended spec nests under a
// body's title.
func demote(md string) string {
	lines := strings.Split(md, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "#") {
			lines[i] = "#" + l
		}
	}
	return strings.Join(lines, "\n")
}

// RenderSpec renders an executable skill's description as markdown: what
// load_skill returns for it.
func RenderSpec(d *registry.Description) string {
	if d == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Executable skill `%s` (%s, version %d, %s)\n\n", d.Name, d.Implementation, d.Version, d.Status)
	fmt.Fprintf(&b, "%s\n\n", d.Description)
	b.WriteString("## Parameters\n\n")
	if len(d.Params) == 0 {
		b.WriteString("None.\n")
	}
	for _, n := range d.ParamNames() {
		p := d.Params[n]
		def := p.DefaultText()
		var bounds []string
		if p.Min != nil {
			bounds = append(bounds, "min "+strconv.FormatFloat(*p.Min, 'g', -1, 64))
		}
		if p.Max != nil {
			bounds = append(bounds, "max "+strconv.FormatFloat(*p.Max, 'g', -1, 64))
		}
		if len(p.Enum) > 0 {
			bounds = append(bounds, "one of "+strings.Join(p.Enum, ", "))
		}
		extra := ""
		if len(bounds) > 0 {
			extra = "; " + strings.Join(bounds, ", ")
		}
		fmt.Fprintf(&b, "- `%s` (%s, %s%s): %s\n", n, p.Type, def, extra, strings.TrimSpace(p.Description))
	}
	pre := d.Preconditions
	b.WriteString("\n## Preconditions\n\n")
	fmt.Fprintf(&b, "- tech states: %s\n", orAny(pre.TechStatesAnyOf))
	fmt.Fprintf(&b, "- dimensions: %s\n", orAny(pre.DimensionAllowlist))
	var tools []string
	for _, t := range pre.RequiredTools {
		tools = append(tools, fmt.Sprintf("%s (durability >= %d)", t.ItemID, t.MinDurability))
	}
	fmt.Fprintf(&b, "- tools: %s\n", orNone(tools))
	fmt.Fprintf(&b, "- nearby: %s\n", orAny(pre.SemanticTagsAnyOf))
	b.WriteString("\n## Effects\n\n")
	keys := make([]string, 0, len(d.Effects.InventoryDelta))
	for k := range d.Effects.InventoryDelta {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		j, _ := json.Marshal(d.Effects.InventoryDelta[k])
		fmt.Fprintf(&b, "- inventory `%s`: %s\n", k, j)
	}
	world := d.Effects.WorldEffectLines()
	for _, l := range world {
		fmt.Fprintf(&b, "- %s\n", l)
	}
	if t := d.Effects.TechDelta; t.ReachesTier != "" {
		fmt.Fprintf(&b, "- reaches tier %s\n", t.ReachesTier)
	}
	if len(d.Effects.TechDelta.Unlocks) > 0 {
		fmt.Fprintf(&b, "- unlocks %s\n", strings.Join(d.Effects.TechDelta.Unlocks, ", "))
	}
	if len(d.Effects.Tags) > 0 {
		fmt.Fprintf(&b, "- tags: %s\n", strings.Join(d.Effects.Tags, ", "))
	}
	if len(keys) == 0 && len(world) == 0 && d.Effects.TechDelta.ReachesTier == "" && len(d.Effects.Tags) == 0 {
		b.WriteString("- none declared\n")
	}
	emits := make([]string, len(d.Emits))
	for i, k := range d.Emits {
		emits[i] = string(k)
	}
	fmt.Fprintf(&b, "\n## Actions it may emit\n\n%s\n", strings.Join(emits, ", "))
	if len(d.Tags) > 0 {
		fmt.Fprintf(&b, "\nTags: %s\n", strings.Join(d.Tags, ", "))
	}
	if d.Metrics.SuccessRate != nil {
		fmt.Fprintf(&b, "Success rate: %.0f%% over %d runs\n", *d.Metrics.SuccessRate*100, d.Metrics.Samples)
	}
	return b.String()
}

func orAny(s []string) string {
	if len(s) == 0 {
		return "any"
	}
	return strings.Join(s, ", ")
}

// Names returns the names of entries.
func Names(entries []Entry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Name
	}
	return out
}

// Knowledge returns the entries that have instructions.
func Knowledge(entries []Entry) []Entry {
	return slices.DeleteFunc(slices.Clone(entries), func(e Entry) bool { return !e.Kind.Knowledge() })
}

// RegisterSpecs adds to the registry the executable specs carried by
// knowledge skill directories that the registry does not hold yet (custom
// and hot-registered directories; shipped ones are loaded with the
// configuration by skills.LoadDir), through registry.UpdateSpec. A template
// spec runs as is; a go spec needs its Go implementation registered.
func (c *Catalog) RegisterSpecs() error {
	if c.Library == nil || c.Registry == nil {
		return nil
	}
	specs, err := c.Library.Specs(c.Registry.Tiers())
	errs := []error{err}
	for _, s := range specs {
		if _, verr := c.Registry.GetSkillVersion(s.Name, s.Version); verr == nil || !errors.Is(verr, registry.ErrUnknownSkill) {
			continue
		}
		if uerr := c.Registry.UpdateSpec(s); uerr != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.File, uerr))
		}
	}
	return errors.Join(errs...)
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
