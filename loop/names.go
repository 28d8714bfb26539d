package loop

// Names checks the names a goal or a script uses before a run starts, so a
// typo is a usage error with a hint instead of steps that fail one after the
// other. The command line builds one from the registry and the world's name
// tables; nil in a GoalParser checks nothing beyond the syntax.
type Names interface {
	// Item checks an item matcher (modid:name[:meta], ore:Name, tool:class).
	Item(s string) error
	// Invocation checks that the skill exists and takes these parameters
	// with values of the right types and known item and block names.
	Invocation(inv Invocation) error
}
