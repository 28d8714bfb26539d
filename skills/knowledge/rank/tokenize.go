package rank

import (
	"strings"
	"unicode"
)

// stopwords are dropped from documents and queries: they match everything
// and rank nothing.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about above after again against all also am an and any are as at be
		because been before being below between both but by can could did do does doing down during each
		few for from further get got had has have having he her here hers him his how i if in into is it its
		itself just let me might more most must my need needs no nor not now of off on once only or other our
		ours out over own please same she should so some such than that the their theirs them then there these
		they this those through to too under until up use used using very via want was we were what when where
		which while who whom why will with would you your yours`) {
		stopwords[w] = true
	}
}

// Tokenize splits text into lowercase terms for ranking: it breaks on
// anything that is not a letter or digit (so snake_case and kebab-case
// names split into words), drops stopwords and one-letter terms, and
// reduces each word with Stem.
func Tokenize(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len([]rune(f)) < 2 || stopwords[f] {
			continue
		}
		out = append(out, Stem(f))
	}
	return out
}

// Stem is a light English stemmer: it strips plural, -ing, -ed and -ly
// endings and a final e, so that "boilers"/"boiler", "smelting"/"smelted"/
// "smelt" and "mining"/"mine"/"mines" meet. It is deliberately simpler than
// Porter's: skill vocabularies are small and over-stemming hurts more than
// it helps.
func Stem(w string) string {
	if len(w) <= 3 || !isAlpha(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "xes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is"):
	case strings.HasSuffix(w, "s"):
		w = w[:len(w)-1]
	}
	switch {
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) > 4:
		w = undouble(w[:len(w)-2])
	case strings.HasSuffix(w, "ly") && len(w) > 5:
		w = w[:len(w)-2]
	}
	if strings.HasSuffix(w, "e") && len(w) > 3 {
		w = w[:len(w)-1]
	}
	return w
}

// undouble turns "runn" into "run" after a suffix is removed.
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

func isAlpha(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}
