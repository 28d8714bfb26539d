// Package catalog joins the two kinds of skill into the one list a planner
// reads: the executable skills of a registry (package skills/registry) and
// the knowledge skills of a library (package skills/knowledge), neither of
// which imports the other. An Entry is one skill in that list (name,
// description, kind, tags, tier gating); a knowledge skill directory that
// carries an executable spec known to the registry is one entry, not two.
//
// Catalog.LoadSkill is the load_skill tool (a knowledge skill's body, an
// executable skill's spec rendered as markdown, or both), Catalog.Injection
// renders the system-prompt text in dynamic mode (catalog only) or
// preloaded mode (catalog plus the full instructions of configured
// skills), and Catalog.RegisterSpecs makes the executable specs of skill
// directories added at run time executable.
package catalog
