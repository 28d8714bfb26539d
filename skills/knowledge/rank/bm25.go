package rank

import (
	"math"
	"sort"
)

// Doc is one skill as the ranker sees it.
type Doc struct {
	ID          string
	Name        string
	Description string
	Body        string
}

// Scored is a document's score for one query.
type Scored struct {
	ID    string  `json:"id"`
	Score float64 `json:"score"`
}

// Field weights: a term in the name counts as three in the body, one in the
// description as two. This is BM25F with per-field boosts folded into the
// term frequencies and the document length.
const (
	NameWeight        = 3.0
	DescriptionWeight = 2.0
	BodyWeight        = 1.0
)

// BM25 parameters (the usual defaults).
const (
	K1 = 1.2
	B  = 0.75
)

// Index is a BM25 index over a fixed set of documents. It is immutable
// after NewIndex and safe for concurrent use.
type Index struct {
	ids    []string
	tf     []map[string]float64
	length []float64
	avgLen float64
	df     map[string]int
}

// NewIndex tokenizes and indexes docs.
func NewIndex(docs []Doc) *Index {
	ix := &Index{
		ids:    make([]string, len(docs)),
		tf:     make([]map[string]float64, len(docs)),
		length: make([]float64, len(docs)),
		df:     map[string]int{},
	}
	total := 0.0
	for i, d := range docs {
		ix.ids[i] = d.ID
		tf := map[string]float64{}
		n := 0.0
		for _, f := range []struct {
			text string
			w    float64
		}{{d.Name, NameWeight}, {d.Description, DescriptionWeight}, {d.Body, BodyWeight}} {
			for _, t := range Tokenize(f.text) {
				tf[t] += f.w
				n += f.w
			}
		}
		for t := range tf {
			ix.df[t]++
		}
		ix.tf[i] = tf
		ix.length[i] = n
		total += n
	}
	if len(docs) > 0 {
		ix.avgLen = total / float64(len(docs))
	}
	if ix.avgLen == 0 {
		ix.avgLen = 1
	}
	return ix
}

// Len is the number of indexed documents.
func (ix *Index) Len() int { return len(ix.ids) }

// idf is the BM25 inverse document frequency, floored at a small positive
// value so that a term in most documents still counts a little.
func (ix *Index) idf(t string) float64 {
	n := float64(len(ix.ids))
	df := float64(ix.df[t])
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// UnseenIDF is the inverse document frequency of a term no document
// contains: the most a single term can weigh in this index. Dividing a score
// by it makes scores of indexes of different sizes comparable.
func (ix *Index) UnseenIDF() float64 { return ix.idf("") }

// Score returns every document's score for query, in index order.
func (ix *Index) Score(query string) []Scored {
	terms := uniq(Tokenize(query))
	out := make([]Scored, len(ix.ids))
	for i, id := range ix.ids {
		s := 0.0
		norm := K1 * (1 - B + B*ix.length[i]/ix.avgLen)
		for _, t := range terms {
			f := ix.tf[i][t]
			if f == 0 {
				continue
			}
			s += ix.idf(t) * f * (K1 + 1) / (f + norm)
		}
		out[i] = Scored{ID: id, Score: s}
	}
	return out
}

// Search returns the k best documents with a positive score, best first;
// ties keep index order. k <= 0 returns every match.
func (ix *Index) Search(query string, k int) []Scored {
	all := ix.Score(query)
	var hits []Scored
	for _, s := range all {
		if s.Score > 0 {
			hits = append(hits, s)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
	if k > 0 && len(hits) > k {
		hits = hits[:k]
	}
	return hits
}

// Rank returns every document ordered by score, best first, ties in index
// order: documents that match nothing come last.
func (ix *Index) Rank(query string) []Scored {
	all := ix.Score(query)
	sort.SliceStable(all, func(i, j int) bool { return all[i].Score > all[j].Score })
	return all
}

func uniq(s []string) []string {
	seen := make(map[string]bool, len(s))
	out := s[:0:0]
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
