package registry

import (
	"errors"
	"testing"
)

// FuzzParseState: a state file never crashes the registry; anything that is
// not a valid state is reported as corrupt.
func FuzzParseState(f *testing.F) {
	f.Add([]byte(`{"format": 1, "skills": {"chop_tree@1": {"status": "active", "metrics": {"success_rate": 0.5, "avg_cost": 12, "samples": 3}}}}`))
	f.Add([]byte(`{"format": 1, "skills": {}}`))
	f.Add([]byte(`{"format": 1, "skills": {"x@1": null}}`))
	f.Add([]byte(`{"format": 1`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := parseState("state.json", data)
		if err != nil {
			if !errors.Is(err, ErrCorruptState) {
				t.Fatalf("error is not ErrCorruptState: %v", err)
			}
			return
		}
		for key, e := range st.Skills {
			if e == nil {
				t.Fatalf("accepted a null entry %q", key)
			}
			if m := e.Metrics; m.SuccessRate != nil && (*m.SuccessRate < 0 || *m.SuccessRate > 1) {
				t.Fatalf("accepted success_rate %v", *m.SuccessRate)
			}
		}
	})
}
