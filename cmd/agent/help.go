package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
)

// command is one entry of the command table: what `agent help` lists, what
// dispatch runs, and the subcommands of a group (skills, packs).
type command struct {
	name    string
	summary string
	new     func() subcommand // a fresh command to execute
	subs    []command
}

// exec executes a fresh instance of c on args.
func (c command) exec(e *env, args []string) error { return execute(e, c.new(), args) }

// commands is the command table in the order `agent help` shows it. It is a
// function, not a variable, because helpCmd is in it and reads it.
func commands() []command {
	return []command{
		{name: "run", summary: "play until the goal holds: in the simulated world, on a GTNH server (--server) or in a served body (--body)", new: func() subcommand { return &runCommand{} }},
		{name: "serve", summary: "expose a body (the simulated world or a player on a server) over the IPC protocol (docs/ipc.md)", new: func() subcommand { return &serveCommand{} }},
		{name: "mcp", summary: "serve the skills to an MCP client on stdin and stdout, or over HTTP with --listen HOST:PORT (docs/mcp.md)", new: func() subcommand { return &mcpCommand{} }},
		{name: "replay", summary: "replay a recording of agent run --record offline and show what the bot saw", new: func() subcommand { return &replayCommand{} }},
		{name: "map", summary: "draw the world seen from above as a PNG, from a recording or from a trace of a simulated run (docs/view.md)", new: func() subcommand { return &mapCommand{} }},
		{name: "ping", summary: "show a server's MOTD, version, players, mods and wire formats", new: func() subcommand { return &pingCommand{} }},
		{name: "login", summary: "sign in with a Microsoft account for online-mode servers (docs/online-mode.md)", new: newAccountCommand("login")},
		{name: "logout", summary: "forget the saved Microsoft login", new: newAccountCommand("logout")},
		{name: "skills", summary: "list, describe, validate, load, select, lint and inject skills", subs: []command{
			{name: "list", summary: "list the skills planners can use", new: func() subcommand { return &skillsListCommand{} }},
			{name: "describe", summary: "show one skill's full metadata", new: func() subcommand { return &skillsDescribeCommand{} }},
			{name: "validate", summary: "check configuration, spec, pack and SKILL.md directories exactly as --config DIR loads them; exit 1 naming every invalid or blocked skill", new: func() subcommand { return &skillsValidateCommand{} }},
			{name: "load", summary: "print what the load_skill tool returns for a skill", new: func() subcommand { return &skillsLoadCommand{} }},
			{name: "select", summary: "rank the catalog for a task and show the selection", new: func() subcommand { return &skillsSelectCommand{} }},
			{name: "lint", summary: "report style issues in SKILL.md instructions", new: func() subcommand { return &skillsLintCommand{} }},
			{name: "inject", summary: "print the skills part of a planner's system prompt", new: func() subcommand { return &skillsInjectCommand{} }},
		}},
		{name: "packs", summary: "list the skill packs and their tier gates", subs: []command{
			{name: "list", summary: "list the skill packs, their tier gates, dependencies, conflicts and skills", new: func() subcommand { return &packsListCommand{} }},
		}},
		{name: "recipes", summary: "import a recipe dump of your modpack into a compact recipe file, and show what one holds", subs: []command{
			{name: "import", summary: "read a GuineaUtil or RecEx recipe dump and write a compact recipe file, printing what was kept and dropped (docs/recipes.md)", new: func() subcommand { return &recipesImportCommand{} }},
			{name: "show", summary: "list what a compact recipe file holds", new: func() subcommand { return &recipesShowCommand{} }},
		}},
		{name: "quests", summary: "read your modpack's quest book: its lines, what each quest needs and whether the agent can do it (docs/quests.md)", subs: []command{
			{name: "lines", summary: "list the quest lines in book order, with how many quests the agent can do", new: func() subcommand { return &questsLinesCommand{} }},
			{name: "list", summary: "list a line's quests in prerequisite order, what each needs and whether the agent can do it", new: func() subcommand { return &questsListCommand{} }},
			{name: "show", summary: "show one quest: prerequisites, tasks, and the goal it becomes", new: func() subcommand { return &questsShowCommand{} }},
		}},
		{name: "memory", summary: "show or forget what live runs (and runs with --memory FILE) remember of their worlds (docs/memory.md)", subs: []command{
			{name: "show", summary: "list the worlds a memory file remembers, or what it holds of one (--server NAME)", new: func() subcommand { return &memoryShowCommand{} }},
			{name: "forget", summary: "forget a world, or one kind of record of it", new: func() subcommand { return &memoryForgetCommand{} }},
		}},
		{name: "version", summary: "show the module version and the source revision the binary was built from", new: func() subcommand { return &versionCommand{} }},
		{name: "help", summary: "show a command's usage and flags", new: func() subcommand { return &helpCommand{} }},
	}
}

func commandNames(cs []command) []string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.name
	}
	return names
}

func findCommand(cs []command, name string) (command, bool) {
	i := slices.IndexFunc(cs, func(c command) bool { return c.name == name })
	if i < 0 {
		return command{}, false
	}
	return cs[i], true
}

// isHelp tells the words that ask for help where a command is expected.
func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help" || arg == "help"
}

func isVersion(arg string) bool { return arg == "--version" || arg == "-version" }

func dispatch(e *env, args []string) error {
	if len(args) == 0 {
		return execute(e, &runCommand{}, nil)
	}
	switch {
	case args[0] == "help":
		return execute(e, &helpCommand{}, args[1:])
	case isHelp(args[0]):
		fmt.Fprintln(e.stdout, topUsage)
		return nil
	case isVersion(args[0]):
		return execute(e, &versionCommand{}, args[1:])
	case strings.HasPrefix(args[0], "-"):
		// Flags without a command are the default command's: agent -v is
		// agent run -v.
		return execute(e, &runCommand{}, args)
	}
	c, ok := findCommand(commands(), args[0])
	if !ok {
		return unknownCommand("", args[0], commands())
	}
	if c.subs == nil {
		return c.exec(e, args[1:])
	}
	if len(args) < 2 {
		return usagef("%s: missing subcommand (%s)\n%s", c.name, strings.Join(commandNames(c.subs), ", "), helpHint(c.name))
	}
	if isHelp(args[1]) {
		printGroupHelp(e.stdout, c)
		return nil
	}
	sub, ok := findCommand(c.subs, args[1])
	if !ok {
		return unknownCommand(c.name, args[1], c.subs)
	}
	return sub.exec(e, args[2:])
}

// unknownCommand is one line with the nearest name and a hint.
func unknownCommand(group, name string, known []command) error {
	what, where := "command", ""
	if group != "" {
		what, where = "subcommand", group+": "
	}
	return usagef("%sunknown %s %q%s\n%s", where, what, name, suggest.DidYouMean(name, commandNames(known)), helpHint(group))
}

// helpHint names the help to read after a mistake.
func helpHint(cmd string) string {
	if cmd == "" {
		return "run `agent help` for the commands"
	}
	return "run `agent help " + cmd + "` for its usage"
}

// helpCommand is `agent help [COMMAND [SUBCOMMAND]]`: the same text as
// `agent COMMAND --help`, exit 0. It takes words, not flags: `agent help
// --help` is the global help.
type helpCommand struct{ args []string }

var _ subcommand = (*helpCommand)(nil)

func (h *helpCommand) parse(_ *env, args []string) error { h.args = args; return nil }
func (h *helpCommand) validate(*env) error               { return nil }

func (h *helpCommand) run(e *env) error {
	args := h.args
	if len(args) == 0 || (len(args) == 1 && isHelp(args[0])) {
		fmt.Fprintln(e.stdout, topUsage)
		return nil
	}
	if isVersion(args[0]) {
		args[0] = "version"
	}
	c, ok := findCommand(commands(), args[0])
	if !ok {
		return unknownCommand("", args[0], commands())
	}
	if c.subs == nil {
		if len(args) > 1 {
			return usagef("help: %s has no subcommands\n%s", c.name, helpHint(c.name))
		}
		return c.exec(e, []string{"--help"})
	}
	if len(args) == 1 {
		printGroupHelp(e.stdout, c)
		return nil
	}
	if len(args) > 2 {
		return usagef("help: expected `agent help %s SUBCOMMAND`, got %d words", c.name, len(args))
	}
	sub, ok := findCommand(c.subs, args[1])
	if !ok {
		return unknownCommand(c.name, args[1], c.subs)
	}
	return sub.exec(e, []string{"--help"})
}

func printGroupHelp(w io.Writer, c command) {
	fmt.Fprintf(w, "usage: agent %s <subcommand> [arguments]\n\n%s.\n\nsubcommands:\n", c.name, c.summary)
	for _, s := range c.subs {
		fmt.Fprintf(w, "  %-10s %s\n", s.name, s.summary)
	}
	fmt.Fprintf(w, "\nrun `agent help %s SUBCOMMAND` (or agent %s SUBCOMMAND --help) for a subcommand's flags.\n", c.name, c.name)
}

// summaryOf finds a command's summary in the table by its flag set's name
// ("run", "skills list").
func summaryOf(name string) string {
	words := strings.Fields(name)
	cs := commands()
	var c command
	for _, w := range words {
		var ok bool
		if c, ok = findCommand(cs, w); !ok {
			return ""
		}
		cs = c.subs
	}
	return c.summary
}

// newFlagSet makes a command's flag set: parse errors are returned, not
// printed (parseFlags makes them one line and a hint), and --help prints the
// command's help on stdout. Every command takes --log-level and -v.
func newFlagSet(e *env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() { printCommandHelp(e.stdout, fs, usage) }
	registerLogFlags(fs, e)
	return fs
}

// printCommandHelp writes a command's usage, summary and flags, spelled as
// the docs spell them (--goal, not -goal).
func printCommandHelp(w io.Writer, fs *flag.FlagSet, usage string) {
	fmt.Fprintf(w, "usage: agent %s\n", usage)
	if s := summaryOf(fs.Name()); s != "" {
		fmt.Fprintf(w, "\n%s.\n", s)
	}
	fmt.Fprintf(w, "\nflags:\n")
	printFlags(w, fs)
	fmt.Fprintf(w, "  -h, --help\n        show this help\n")
}

// printFlags is flag.PrintDefaults with the docs' spelling: two dashes for
// a long name, one for a single letter.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		line := "  " + flagSpelling(f.Name)
		if arg != "" {
			line += " " + arg
		}
		fmt.Fprintln(w, line)
		usage = strings.ReplaceAll(usage, "\n", "\n        ")
		if def := f.DefValue; !zeroDefault(def) {
			if arg == "string" {
				def = fmt.Sprintf("%q", def)
			}
			usage += fmt.Sprintf(" (default %s)", def)
		}
		fmt.Fprintf(w, "        %s\n", usage)
	})
}

func zeroDefault(v string) bool {
	switch v {
	case "", "0", "false", "0s", "[]":
		return true
	}
	return false
}

func flagSpelling(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// parseFlags parses flags that may come before, between or after positional
// arguments, returning the positionals. -h and --help print the command's
// help and return flag.ErrHelp (exit 0); a bad flag is one usage error line
// and a hint.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	help := fs.Usage
	fs.Usage = func() {} // the flag package calls it on every error
	defer func() { fs.Usage = help }()
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				if help != nil {
					help()
				}
				return nil, err
			}
			return nil, flagError(fs, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// flagName finds the flag names in the flag package's messages ("for flag
// -goal:", "argument: -goal") to spell them as the docs do.
var flagName = regexp.MustCompile(`(for flag|for|argument:) -([A-Za-z0-9][A-Za-z0-9_-]*)`)

// flagError turns the flag package's error into one line with the docs'
// spelling, the nearest flag for an unknown one, and where to read more.
func flagError(fs *flag.FlagSet, err error) error {
	hint := helpHint(fs.Name())
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
		var known []string
		fs.VisitAll(func(f *flag.Flag) { known = append(known, flagSpelling(f.Name)) })
		known = append(known, "--help")
		typed := flagSpelling(name)
		return usagef("%s: unknown flag %s%s\n%s", fs.Name(), typed, suggest.DidYouMean(typed, known), hint)
	}
	msg := flagName.ReplaceAllStringFunc(err.Error(), func(m string) string {
		sub := flagName.FindStringSubmatch(m)
		return sub[1] + " " + flagSpelling(sub[2])
	})
	return usagef("%s: %s\n%s", fs.Name(), msg, hint)
}

// logLevels are the levels --log-level takes, quietest last.
var logLevels = []string{"debug", "info", "warn", "error"}

// registerLogFlags adds --log-level and -v, which set the level of e.log
// when they are parsed (the commands log only after parsing their flags).
func registerLogFlags(fs *flag.FlagSet, e *env) {
	fs.Func("log-level", "log `LEVEL` on stderr: debug, info, warn or error (default warn)", func(s string) error {
		if !slices.Contains(logLevels, s) {
			return fmt.Errorf("unknown level %q%s (debug, info, warn or error)", s, suggest.DidYouMean(s, logLevels))
		}
		lvl, _ := zerolog.ParseLevel(s)
		e.setLevel(lvl)
		return nil
	})
	fs.BoolFunc("v", "verbose: log at debug level (as --log-level debug)", func(s string) error {
		if s != "true" {
			return fmt.Errorf("-v takes no value")
		}
		e.setLevel(zerolog.DebugLevel)
		return nil
	})
}

// setLevel sets the level of every logger the command hands out.
func (e *env) setLevel(lvl zerolog.Level) {
	e.log = e.log.Level(lvl)
	if e.base != nil {
		b := e.base.Level(lvl)
		e.base = &b
	}
}
