package rules

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
)

// TierInfo describes one GTNH technology tier from the tiers data file.
type TierInfo struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Voltage     int64  `json:"voltage"`
	Description string `json:"description"`
}

// Tiers is the ordered list of GTNH tiers (stone_age < steam_age < lv < …).
// It is immutable once loaded and safe for concurrent use.
type Tiers struct {
	list  []TierInfo
	index map[string]int
}

var identRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// ParseTiers reads a tiers data file. file names the source in errors.
func ParseTiers(file string, data []byte) (*Tiers, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	top := d.Mapping(root, "", []string{"tiers"})
	d.Require(root, "", top, "tiers")
	t := &Tiers{index: map[string]int{}}
	if f, ok := top["tiers"]; ok {
		for i, n := range d.Sequence(f.Value, "tiers") {
			path := strictyaml.Index("tiers", i)
			fields := d.Mapping(n, path, []string{"name", "title", "voltage", "description"})
			d.Require(n, path, fields, "name")
			var info TierInfo
			if f, ok := fields["name"]; ok {
				if s, ok := d.String(f.Value, path+".name"); ok {
					if !identRE.MatchString(s) {
						d.Errorf(f.Value, path+".name", "tier name %q must be lowercase letters, digits and underscores", s)
					} else if _, dup := t.index[s]; dup {
						d.Errorf(f.Value, path+".name", "duplicate tier %q", s)
					}
					info.Name = s
				}
			}
			if f, ok := fields["title"]; ok {
				info.Title, _ = d.String(f.Value, path+".title")
			}
			if f, ok := fields["description"]; ok {
				info.Description, _ = d.String(f.Value, path+".description")
			}
			if f, ok := fields["voltage"]; ok {
				if v, ok := d.Int(f.Value, path+".voltage"); ok {
					if v < 0 {
						d.Errorf(f.Value, path+".voltage", "voltage must not be negative")
					}
					info.Voltage = int64(v)
				}
			}
			if info.Name != "" {
				if _, dup := t.index[info.Name]; !dup {
					t.index[info.Name] = len(t.list)
					t.list = append(t.list, info)
				}
			}
		}
	}
	if len(d.Errs) == 0 && len(t.list) == 0 {
		d.Errorf(root, "tiers", "at least one tier is required")
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	return t, nil
}

var (
	defaultTiersOnce sync.Once
	defaultTiers     *Tiers
	defaultTiersErr  error
)

// loadTiers returns the shipped GTNH tier table (config/tiers.yaml).
func loadTiers() *Tiers {
	defaultTiersOnce.Do(func() {
		data, err := fs.ReadFile(config.FS, "tiers.yaml")
		if err != nil {
			defaultTiersErr = err
			return
		}
		defaultTiers, defaultTiersErr = ParseTiers("config/tiers.yaml", data)
	})
	if defaultTiersErr != nil {
		// The file is embedded and covered by tests; failing here is a build defect.
		panic(fmt.Sprintf("rules: shipped tiers.yaml is invalid: %v", defaultTiersErr))
	}
	return defaultTiers
}

// Names returns the tier names in order.
func (t *Tiers) Names() []string {
	out := make([]string, len(t.list))
	for i, info := range t.list {
		out[i] = info.Name
	}
	return out
}

// List returns the tiers in order.
func (t *Tiers) List() []TierInfo { return append([]TierInfo(nil), t.list...) }

// Index returns the position of a tier in the order, and whether it exists.
func (t *Tiers) Index(name string) (int, bool) {
	i, ok := t.index[name]
	return i, ok
}

// Lowest returns the first tier (stone_age with the shipped table).
func (t *Tiers) Lowest() string { return t.list[0].Name }

// Info returns the description of a tier.
func (t *Tiers) Info(name string) (TierInfo, bool) {
	i, ok := t.index[name]
	if !ok {
		return TierInfo{}, false
	}
	return t.list[i], true
}

// Compare returns -1, 0 or 1 as tier a is below, equal to or above tier b.
// Unknown tiers are an error.
func (t *Tiers) Compare(a, b string) (int, error) {
	ia, ok := t.index[a]
	if !ok {
		return 0, t.unknown(a)
	}
	ib, ok := t.index[b]
	if !ok {
		return 0, t.unknown(b)
	}
	switch {
	case ia < ib:
		return -1, nil
	case ia > ib:
		return 1, nil
	}
	return 0, nil
}

func (t *Tiers) unknown(name string) error { return t.UnknownError(name) }

// UnknownError is the error for a tier name the table does not have: it
// lists the known tiers and suggests the nearest one ("stem_age": did you
// mean "steam_age"?).
func (t *Tiers) UnknownError(name string) error {
	known := strings.Join(t.Names(), ", ")
	if s := suggest.Closest(name, t.Names()); s != "" {
		return fmt.Errorf("unknown tier %q (did you mean %q? known: %s)", name, s, known)
	}
	return fmt.Errorf("unknown tier %q (known: %s)", name, known)
}

// TierRange is an inclusive range of tiers, parsed from an exact tier
// ("lv"), a comparison (">= steam_age", "> lv", "<= mv", "< hv"), an inclusive
// span ("steam_age..lv") or "any".
type TierRange struct {
	Expr string // the text it was parsed from, normalised
	Min  int    // index of the lowest tier included
	Max  int    // index of the highest tier included
}

// ParseRange parses a tier expression against this tier table.
func (t *Tiers) ParseRange(expr string) (TierRange, error) {
	s := strings.TrimSpace(expr)
	last := len(t.list) - 1
	idx := func(name string) (int, error) {
		name = strings.TrimSpace(name)
		if name == "" {
			return 0, fmt.Errorf("tier expression %q is missing a tier name", expr)
		}
		i, ok := t.index[name]
		if !ok {
			return 0, t.unknown(name)
		}
		return i, nil
	}
	if s == "" {
		return TierRange{}, fmt.Errorf("empty tier expression")
	}
	if s == "any" || s == "*" {
		return TierRange{Expr: "any", Min: 0, Max: last}, nil
	}
	if a, b, ok := strings.Cut(s, ".."); ok {
		lo, err := idx(a)
		if err != nil {
			return TierRange{}, err
		}
		hi, err := idx(b)
		if err != nil {
			return TierRange{}, err
		}
		if lo > hi {
			return TierRange{}, fmt.Errorf("tier range %q is empty: %s is above %s", expr, strings.TrimSpace(a), strings.TrimSpace(b))
		}
		return TierRange{Expr: t.list[lo].Name + ".." + t.list[hi].Name, Min: lo, Max: hi}, nil
	}
	for _, op := range []string{">=", "<=", ">", "<", "=="} {
		if rest, ok := strings.CutPrefix(s, op); ok {
			i, err := idx(rest)
			if err != nil {
				return TierRange{}, err
			}
			name := t.list[i].Name
			r := TierRange{Expr: op + " " + name}
			switch op {
			case ">=":
				r.Min, r.Max = i, last
			case "<=":
				r.Min, r.Max = 0, i
			case ">":
				r.Min, r.Max = i+1, last
			case "<":
				r.Min, r.Max = 0, i-1
			case "==":
				r.Min, r.Max, r.Expr = i, i, name
			}
			if r.Min > r.Max {
				return TierRange{}, fmt.Errorf("tier range %q matches no tier", expr)
			}
			return r, nil
		}
	}
	i, err := idx(s)
	if err != nil {
		return TierRange{}, err
	}
	return TierRange{Expr: t.list[i].Name, Min: i, Max: i}, nil
}

// Contains reports whether the tier with index i is in the range.
func (r TierRange) Contains(i int) bool { return i >= r.Min && i <= r.Max }

// Includes reports whether the named tier is in the range.
func (t *Tiers) Includes(r TierRange, tier string) bool {
	i, ok := t.index[tier]
	return ok && r.Contains(i)
}

func (r TierRange) String() string { return r.Expr }
