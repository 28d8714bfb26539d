package main

// subcommand is one command of agent, in litestream's shape: parse reads
// the command line into the command's fields with its own flag set,
// validate checks them together (a usage error is exit 2) and run does the
// work. run in main.go maps the errors to exit codes.
type subcommand interface {
	// parse reads args: flags anywhere, and the positional arguments the
	// command takes. --help prints the command's help and returns
	// flag.ErrHelp (exit 0).
	parse(e *env, args []string) error
	// validate checks the flags against each other and against the files
	// they name that decide the command's shape (the agent config file),
	// before the command does anything.
	validate(e *env) error
	// run does the work.
	run(e *env) error
}

// execute runs c on args through its three phases.
func execute(e *env, c subcommand, args []string) error {
	if err := c.parse(e, args); err != nil {
		return err
	}
	if err := c.validate(e); err != nil {
		return err
	}
	return c.run(e)
}

// noArgs refuses positional arguments for a command that takes none.
func noArgs(cmd string, pos []string) error {
	if len(pos) > 0 {
		return usagef("%s: unexpected argument %q", cmd, pos[0])
	}
	return nil
}
