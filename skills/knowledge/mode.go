package knowledge

// Mode is how skills reach a planner's system prompt.
type Mode string

const (
	// ModeDynamic injects the catalog only; the planner calls load_skill
	// for what it needs.
	ModeDynamic Mode = "dynamic"
	// ModePreloaded also injects the full instructions of the skills
	// listed in the configuration.
	ModePreloaded Mode = "preloaded"
)
