package packs

import (
	"errors"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// FuzzParsePack: pack files never crash the loader; a failure is always a
// list of located errors and a success is a usable pack.
func FuzzParsePack(f *testing.F) {
	f.Add([]byte("name: p\nrequires_tech_state: \">= steam_age\"\nskills: [a, b]\n"))
	f.Add([]byte("name: p\nrequires_tech_state: lv..mv\ndepends_on_packs: [q]\nconflicts_with: [r]\nskills: [a]\n"))
	f.Add([]byte("name: [\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePack("p.yaml", data, nil)
		if err != nil {
			var list strictyaml.Errors
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error is not a located list: %T %v", err, err)
			}
			for _, e := range list {
				if e.File != "p.yaml" {
					t.Fatalf("error without the file: %v", e)
				}
			}
			return
		}
		if p.Name == "" || len(p.Skills) == 0 {
			t.Fatalf("accepted a pack without name or skills: %+v", p)
		}
		set, err := NewSet(nil, p)
		if err != nil {
			return // e.g. a dependency on an unknown pack
		}
		if _, err := set.ActiveSkillNames("lv", []string{p.Name}); err != nil && len(p.ConflictsWith) == 0 {
			t.Fatalf("resolving a valid single pack failed: %v", err)
		}
	})
}
