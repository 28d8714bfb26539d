// Package selection chooses which skills of the unified catalog a planner
// gets for a task, following seed 002:
//
//  1. Quality filter: per-skill records (selections, applied, completions,
//     fallbacks; QualityStore, persisted atomically) drop skills selected at
//     least twice and never completed, and skills applied at least twice
//     that fell back in more than half of the applications.
//  2. Ranking: BM25 over name, description and body (package rank),
//     optionally re-ranked by an Embedder.
//  3. Pre-filter: with more candidates than the threshold, only the best
//     max(15, 5 × max_skills) reach the model.
//  4. LLM selection through the planner's model client (the Model
//     interface): plan first, then select, answering JSON; unknown ids are
//     dropped and at most max_skills are kept.
//  5. Fallback: with no model, a model error or timeout, a malformed
//     answer, or an answer naming only unknown ids, the BM25 ranking's best
//     matches whose Relevance reaches the score floor (Options.MinScore)
//     are the selection, and Result.Fallback says why.
//
// Select returns the whole trace (filter decisions, ranking, pre-filter,
// prompt, answer), which `agent skills select` prints. Advisor runs Select
// for the model planner over the knowledge skills usable at a tier and
// writes the quality store from the run.
package selection
