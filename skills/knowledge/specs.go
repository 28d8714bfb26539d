package knowledge

import (
	"errors"
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
)

// Specs parses the executable specs carried by the library's active skill
// directories (see Skill.Specs), validated against tiers (nil = shipped).
// Every problem is returned together.
func (l *Library) Specs(tiers *rules.Tiers) ([]*skills.Spec, error) {
	var out []*skills.Spec
	var errs []error
	for _, sk := range l.Skills() {
		if len(sk.Specs) == 0 {
			continue
		}
		e, err := l.lookup(sk.Name)
		if err != nil {
			continue
		}
		d, err := l.open(e)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, f := range sk.Specs {
			data, err := readLimited(d.fsys, f, maxResourceSize)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", d.path(f), err))
				continue
			}
			spec, err := (skills.LoadOptions{Tiers: tiers}).ParseSpec(d.path(f), data)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			out = append(out, spec)
		}
		d.close()
	}
	return out, errors.Join(errs...)
}
