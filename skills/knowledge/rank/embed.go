package rank

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"sort"
	"strings"
	"unicode/utf8"
)

// Embedder turns texts into vectors whose cosine similarity says how close
// in meaning they are. Implementations must not need the network to satisfy
// this package's tests; a model served locally, or HashEmbedder, fits.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// EmbedderFunc adapts a function to Embedder.
type EmbedderFunc func(ctx context.Context, texts []string) ([][]float32, error)

// Embed implements Embedder.
func (f EmbedderFunc) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return f(ctx, texts)
}

var _ Embedder = HashEmbedder{}
var _ Embedder = EmbedderFunc(nil)

// HashEmbedder is a deterministic bag-of-features embedder: stemmed words
// and character trigrams of each word, hashed into Dim signed buckets and
// normalised. It knows no synonyms, but it does match word variants and
// shared roots that BM25's exact terms miss. It is the offline fallback:
// used when no embedding model is served.
type HashEmbedder struct {
	// Dim is the vector size (0 = 512).
	Dim int
}

// Embed implements Embedder.
func (h HashEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	dim := h.Dim
	if dim <= 0 {
		dim = 512
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v := make([]float32, dim)
		for _, w := range Tokenize(t) {
			addFeature(v, "w:"+w, 1)
			padded := "^" + w + "$"
			if utf8.RuneCountInString(padded) >= 3 {
				r := []rune(padded)
				for j := 0; j+3 <= len(r); j++ {
					addFeature(v, "c:"+string(r[j:j+3]), 0.35)
				}
			}
		}
		normalize(v)
		out[i] = v
	}
	return out, nil
}

func addFeature(v []float32, f string, w float32) {
	h := fnv.New64a()
	h.Write([]byte(f))
	x := h.Sum64()
	i := int(x % uint64(len(v)))
	if x>>63 == 1 {
		w = -w
	}
	v[i] += w
}

func normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	n := float32(math.Sqrt(s))
	for i := range v {
		v[i] /= n
	}
}

// Cosine is the cosine similarity of two vectors (0 when either is zero or
// their sizes differ).
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// Ranked is one document's place in a hybrid ranking.
type Ranked struct {
	ID        string  `json:"id"`
	BM25      float64 `json:"bm25"`
	Embedding float64 `json:"embedding,omitempty"`
	Score     float64 `json:"score"`
}

// DefaultAlpha weighs BM25 against embedding similarity in Rerank.
const DefaultAlpha = 0.5

// maxEmbedText bounds how much of a body goes into its embedding.
const maxEmbedText = 4000

// EmbedText is the text a document is embedded from: its name, description
// and the start of its body.
func EmbedText(d Doc) string {
	body := d.Body
	if len(body) > maxEmbedText {
		body = body[:maxEmbedText]
		for !utf8.ValidString(body) && len(body) > 0 {
			body = body[:len(body)-1]
		}
	}
	return strings.Join([]string{d.Name, d.Name, d.Description, body}, "\n")
}

// Rerank re-orders the BM25 hits of docs by alpha × (BM25 / best BM25) +
// (1 − alpha) × cosine(query, document). hits must come from an Index over
// docs; docs not in hits are ignored. alpha outside (0, 1] means
// DefaultAlpha. The result is sorted best first, ties in hits order.
func Rerank(ctx context.Context, emb Embedder, query string, docs []Doc, hits []Scored, alpha float64) ([]Ranked, error) {
	if emb == nil {
		return nil, errors.New("rank: no embedder")
	}
	if alpha <= 0 || alpha > 1 {
		alpha = DefaultAlpha
	}
	byID := make(map[string]Doc, len(docs))
	for _, d := range docs {
		byID[d.ID] = d
	}
	texts := []string{query}
	for _, h := range hits {
		d, ok := byID[h.ID]
		if !ok {
			return nil, fmt.Errorf("rank: hit %q is not among the documents", h.ID)
		}
		texts = append(texts, EmbedText(d))
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("rank: embedding: %w", err)
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("rank: embedder returned %d vectors for %d texts", len(vecs), len(texts))
	}
	best := 0.0
	for _, h := range hits {
		best = math.Max(best, h.Score)
	}
	out := make([]Ranked, len(hits))
	for i, h := range hits {
		norm := 0.0
		if best > 0 {
			norm = h.Score / best
		}
		cos := Cosine(vecs[0], vecs[i+1])
		out[i] = Ranked{ID: h.ID, BM25: h.Score, Embedding: cos, Score: alpha*norm + (1-alpha)*cos}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out, nil
}
