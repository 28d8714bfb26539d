// Package rank orders skill documents by relevance to a task: BM25 over a
// skill's name, description and body (the name weighs most, the body least),
// and an optional re-rank by embedding similarity behind the Embedder
// interface.
//
// Nothing here needs the network. HashEmbedder is a deterministic embedder
// built from hashed word and character n-gram features, good enough to
// re-rank near-synonyms ("smelt" and "smelting", "boiler" and "boilers"):
// the offline fallback. A real embedding model (a model server's
// /v1/embeddings, through the model client) plugs in through the same
// interface.
package rank
