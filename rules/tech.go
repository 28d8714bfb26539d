package rules

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// Evidence kinds.
const (
	EvidenceItem        = "item"         // the inventory holds matching items
	EvidenceMachine     = "machine"      // a machine of a kind is known
	EvidenceMachineTier = "machine_tier" // a machine of a voltage tier is known
)

// Evidence is one observation that shows a tier has been reached: holding an
// item (Count or more matching Item), knowing a machine of a kind (formed, for
// multiblocks, when Formed is set), or knowing a machine of a voltage tier.
type Evidence struct {
	Kind        string           `json:"kind"`
	Item        game.ItemMatcher `json:"-"`
	Count       int              `json:"count,omitempty"`
	Machine     string           `json:"machine,omitempty"`
	Formed      bool             `json:"formed,omitempty"`
	MachineTier string           `json:"machine_tier,omitempty"`
}

// Met reports whether the inventory and the known machines show this
// evidence.
func (e Evidence) Met(inv game.Inventory, machines []game.Machine) bool {
	switch e.Kind {
	case EvidenceItem:
		return inv.Count(e.Item) >= max(e.Count, 1)
	case EvidenceMachine:
		for _, m := range machines {
			if m.Kind == e.Machine && (!e.Formed || m.Formed) {
				return true
			}
		}
	case EvidenceMachineTier:
		for _, m := range machines {
			if m.Tier == e.MachineTier {
				return true
			}
		}
	}
	return false
}

func (e Evidence) String() string {
	switch e.Kind {
	case EvidenceItem:
		if e.Count > 1 {
			return fmt.Sprintf("item %s ×%d", e.Item, e.Count)
		}
		return "item " + e.Item.String()
	case EvidenceMachine:
		if e.Formed {
			return "formed machine " + e.Machine
		}
		return "machine " + e.Machine
	case EvidenceMachineTier:
		return "machine of tier " + e.MachineTier
	}
	return "no evidence"
}

// TechRules holds, for each tier of a tier table, the evidence that shows the
// tier is reached (any one piece suffices). Tiers are cumulative: inference
// returns the highest tier with evidence, so meeting lv implies at least
// steam_age. The lowest tier needs nothing. Immutable once parsed.
type TechRules struct {
	tiers    *Tiers
	evidence [][]Evidence // by tier index
}

// ParseTech reads a tech requirements data file (see config/tech.yaml)
// against a tier table:
//
//	tiers:
//	  stone_age: []
//	  steam_age:
//	    - item: ore:ingotBronze
//	    - machine: coke_oven
//	      formed: true
//	  lv:
//	    - machine_tier: lv
//
// Every tier of the table must appear; the lowest with no evidence, every
// other with at least one piece (a tier without evidence could never be
// inferred). Unknown tiers, fields and malformed evidence are errors naming
// file, line and column.
func ParseTech(file string, data []byte, tiers *Tiers) (*TechRules, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	top := d.Mapping(root, "", []string{"tiers"})
	d.Require(root, "", top, "tiers")
	rules := &TechRules{tiers: tiers, evidence: make([][]Evidence, len(tiers.list))}
	seen := make([]bool, len(tiers.list))
	f, ok := top["tiers"]
	if ok {
		fields := d.Mapping(f.Value, "tiers", nil)
		ordered := make([]strictyaml.Field, 0, len(fields))
		for _, fld := range fields {
			ordered = append(ordered, fld)
		}
		sort.Slice(ordered, func(i, j int) bool { return nodeBefore(ordered[i].Key, ordered[j].Key) })
		for _, fld := range ordered {
			name := fld.Key.Value
			path := strictyaml.Join("tiers", name)
			idx, known := tiers.Index(name)
			if !known {
				d.Errorf(fld.Key, path, "%v", tiers.unknown(name))
				continue
			}
			seen[idx] = true
			before := len(d.Errs)
			items := d.Sequence(fld.Value, path)
			if len(d.Errs) > before {
				continue
			}
			if idx == 0 && len(items) > 0 {
				d.Errorf(fld.Value, path, "%s is the lowest tier, reached with nothing; it takes no evidence", name)
				continue
			}
			if idx > 0 && len(items) == 0 {
				d.Errorf(fld.Value, path, "tier %s needs at least one piece of evidence, or it could never be inferred", name)
			}
			for i, n := range items {
				if ev, ok := parseEvidence(d, tiers, n, strictyaml.Index(path, i)); ok {
					rules.evidence[idx] = append(rules.evidence[idx], ev)
				}
			}
		}
	}
	if ok && len(d.Errs) == 0 {
		var missing []string
		for i, s := range seen {
			if !s {
				missing = append(missing, tiers.list[i].Name)
			}
		}
		if len(missing) > 0 {
			d.Errorf(f.Value, "tiers", "missing tiers: %s (every tier of the tier table needs an entry)", strings.Join(missing, ", "))
		}
	}
	if err := d.Err(); err != nil {
		d.Errs.Sort()
		return nil, d.Errs
	}
	return rules, nil
}

func parseEvidence(d *strictyaml.Decoder, tiers *Tiers, n *yaml.Node, path string) (Evidence, bool) {
	before := len(d.Errs)
	fs := d.Mapping(n, path, []string{"item", "count", "machine", "formed", "machine_tier"})
	var ev Evidence
	kinds := 0
	for _, k := range []string{EvidenceItem, EvidenceMachine, EvidenceMachineTier} {
		if _, ok := fs[k]; ok {
			kinds++
			ev.Kind = k
		}
	}
	if kinds != 1 {
		if len(d.Errs) == before {
			d.Errorf(n, path, "evidence needs exactly one of item, machine or machine_tier")
		}
		return Evidence{}, false
	}
	if f, ok := fs["item"]; ok {
		if s, ok := d.String(f.Value, path+".item"); ok {
			m, err := game.ParseItemMatcher(s)
			if err != nil {
				d.Errorf(f.Value, path+".item", "%v", err)
			}
			ev.Item = m
		}
	}
	if f, ok := fs["count"]; ok {
		if ev.Kind != EvidenceItem {
			d.Errorf(f.Key, path+".count", "count applies to item evidence only")
		} else if c, ok := d.Int(f.Value, path+".count"); ok {
			if c < 1 {
				d.Errorf(f.Value, path+".count", "count must be at least 1, got %d", c)
			}
			ev.Count = c
		}
	}
	if f, ok := fs["machine"]; ok {
		if s, ok := d.String(f.Value, path+".machine"); ok {
			if !identRE.MatchString(s) {
				d.Errorf(f.Value, path+".machine", "machine kind %q must be lowercase letters, digits and underscores", s)
			}
			ev.Machine = s
		}
	}
	if f, ok := fs["formed"]; ok {
		if ev.Kind != EvidenceMachine {
			d.Errorf(f.Key, path+".formed", "formed applies to machine evidence only")
		} else if b, ok := d.Bool(f.Value, path+".formed"); ok {
			ev.Formed = b
		}
	}
	if f, ok := fs["machine_tier"]; ok {
		if s, ok := d.String(f.Value, path+".machine_tier"); ok {
			if _, known := tiers.Index(s); !known {
				d.Errorf(f.Value, path+".machine_tier", "%v", tiers.unknown(s))
			}
			ev.MachineTier = s
		}
	}
	return ev, len(d.Errs) == before
}

var (
	defaultTechOnce sync.Once
	defaultTech     *TechRules
)

// loadTech returns the shipped requirements (config/tech.yaml) over the
// shipped tier table.
func loadTech() *TechRules {
	defaultTechOnce.Do(func() {
		data, err := fs.ReadFile(config.FS, "tech.yaml")
		if err == nil {
			defaultTech, err = ParseTech("config/tech.yaml", data, loadTiers())
		}
		if err != nil {
			panic(fmt.Sprintf("rules: shipped tech.yaml is invalid: %v", err))
		}
	})
	return defaultTech
}

// Tiers returns the tier table the rules were parsed against.
func (t *TechRules) Tiers() *Tiers { return t.tiers }

// Evidence returns the evidence listed for a tier (nil for the lowest or an
// unknown tier).
func (t *TechRules) Evidence(tier string) []Evidence {
	i, ok := t.tiers.Index(tier)
	if !ok {
		return nil
	}
	return append([]Evidence(nil), t.evidence[i]...)
}

// Infer returns the highest tier for which the inventory or the known
// machines show evidence, or the lowest tier when none do.
func (t *TechRules) Infer(inv game.Inventory, machines []game.Machine) string {
	tier, _ := t.Explain(inv, machines)
	return tier
}

// Explain is Infer that also returns the evidence that decided (nil for the
// lowest tier).
func (t *TechRules) Explain(inv game.Inventory, machines []game.Machine) (string, *Evidence) {
	for i := len(t.evidence) - 1; i > 0; i-- {
		for j := range t.evidence[i] {
			if t.evidence[i][j].Met(inv, machines) {
				ev := t.evidence[i][j]
				return t.tiers.list[i].Name, &ev
			}
		}
	}
	return t.tiers.Lowest(), nil
}
