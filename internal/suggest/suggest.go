// Package suggest finds the known name a mistyped one was probably meant to
// be, for "did you mean" hints in error messages.
package suggest

import "fmt"

// Closest returns the candidate nearest to name by edit distance when it is
// plausibly a typo of it (at most 2 edits, or up to a third of the name's
// length and at most 4), else "". Ties go to the earliest candidate, so pass
// a sorted list for a stable answer.
func Closest(name string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if d := Distance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	if best == name {
		return ""
	}
	if bestD <= 2 || (bestD <= len(name)/3 && bestD <= 4) {
		return best
	}
	return ""
}

// DidYouMean returns ` (did you mean "x"?)` for the closest candidate, or ""
// when none is close.
func DidYouMean(name string, candidates []string) string {
	if s := Closest(name, candidates); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// Distance is the optimal-string-alignment distance between a and b, in
// bytes: insertions, deletions, substitutions and swaps of two neighbouring
// characters cost one each, so "lgo" is one edit from "log" (and two from
// "egg").
func Distance(a, b string) int {
	// rows i-2, i-1 and i of the dynamic-programming table.
	pp := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], pp[j-2]+1)
			}
		}
		pp, prev, cur = prev, cur, pp
	}
	return prev[len(b)]
}
