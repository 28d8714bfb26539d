package selection

import (
	"testing"

	"github.com/gtnh-agent/gtnh-agent/internal/badfiles"
)

// TestBadFilesQuality: the quality file through the bad inputs.
func TestBadFilesQuality(t *testing.T) {
	valid := []byte(`{"format": 1, "skills": {"coke-oven-operation__ro_0123abcd": {"selections": 3, "applied": 2, "completions": 1, "fallbacks": 1}}}` + "\n")
	badfiles.Run(t, badfiles.Loader{Name: "skill quality", File: "skill-quality.json", MissingOK: true,
		Valid: [][]byte{valid},
		Parse: func(f string, d []byte) error { _, err := parseQuality(f, d); return err },
		Load:  func(p string) error { _, err := OpenQualityStore(p); return err }})
}
