package game

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// idGrammar is SplitID's grammar as a regular expression: the scan must
// accept exactly what it matches.
var idGrammar = regexp.MustCompile(`^[A-Za-z0-9_|.\-]+:[A-Za-z0-9_.\-/]+(:[0-9]+)?$`)

// splitIDByGrammar is SplitID written with the regular expression.
func splitIDByGrammar(s string) (string, int, bool) {
	if !idGrammar.MatchString(s) {
		return "", 0, false
	}
	parts := strings.Split(s, ":")
	if len(parts) == 3 {
		m, err := strconv.Atoi(parts[2])
		if err != nil || m > 32767 {
			return "", 0, false
		}
		return parts[0] + ":" + parts[1], m, true
	}
	return s, -1, true
}

func FuzzSplitID(f *testing.F) {
	for _, s := range []string{
		"minecraft:log", "minecraft:log:1", "gregtech:gt.metaitem.01:2805", "BuildCraft|Factory:tank",
		"IC2:blockMachine/x:3", "a:b:32767", "a:b:32768", "a:b:", ":b", "a:", "a|b:c|d", "a/b:c",
		"a:b:1:2", "a:b:-1", "a b:c", "", "a:b:99999999999999999999", "é:b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, meta, err := SplitID(s)
		wid, wmeta, ok := splitIDByGrammar(s)
		if ok != (err == nil) || id != wid || meta != wmeta {
			t.Fatalf("SplitID(%q) = %q, %d, %v; the grammar says %q, %d, ok=%v", s, id, meta, err, wid, wmeta, ok)
		}
	})
}
