package selection

import (
	"errors"
	"testing"
)

// FuzzParseQuality: a quality file never crashes the store; anything that is
// not a valid file is reported as corrupt, naming the file.
func FuzzParseQuality(f *testing.F) {
	f.Add([]byte(`{"format": 1, "skills": {"coke-oven-operation__ro_0123abcd": {"selections": 3, "applied": 2, "completions": 1, "fallbacks": 1}}}`))
	f.Add([]byte(`{"format": 1, "skills": {}}`))
	f.Add([]byte(`{"format": 1, "skills": {"x": null}}`))
	f.Add([]byte(`{"format": 1, "skills": {"x": {"selections": -1}}}`))
	f.Add([]byte(`{"format": 2}`))
	f.Add([]byte(`{"format": 1`))
	f.Add([]byte(`{"format": 1} {}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseQuality("quality.json", data)
		if err != nil {
			if !errors.Is(err, ErrCorruptQuality) {
				t.Fatalf("error is not ErrCorruptQuality: %v", err)
			}
			return
		}
		for id, q := range m {
			if id == "" || q == nil {
				t.Fatalf("accepted an empty entry %q", id)
			}
			if q.Selections < 0 || q.Applied < 0 || q.Completions < 0 || q.Fallbacks < 0 {
				t.Fatalf("accepted negative counts for %q: %+v", id, *q)
			}
		}
	})
}
