package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/rules"
	_ "github.com/gtnh-agent/gtnh-agent/skills/base" // provides the Go skills
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
)

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
	// exitInterrupted: the run was interrupted (Ctrl-C), 128 + SIGINT.
	exitInterrupted = 130
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// usageError marks errors that exit with code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// env is what every subcommand gets.
type env struct {
	stdout, stderr io.Writer
	// log is the command's own logger (component cli).
	log zerolog.Logger
	// base is log without a component, for the packages that name their
	// own (nil: log stands in).
	base *zerolog.Logger
	// clock times the progress lines (nil: the wall clock on a terminal,
	// none otherwise).
	clock *progressClock
}

// pkgLog is the logger to give a package that adds its own component
// (gtnh, knowledge, mcp, …): one "component" key per line, not two.
func (e *env) pkgLog() zerolog.Logger {
	if e.base == nil {
		return e.log
	}
	return *e.base
}

// component is a logger for a part of the command with a name of its own.
func (e *env) component(name string) zerolog.Logger {
	return e.pkgLog().With().Str("component", name).Logger()
}

const topUsage = `usage: agent <command> [arguments]

commands:
  run [--scenario NAME|FILE] [--goal "..."] [--seed N] [--trace FILE] [--max-steps N]
      [--planner goal|script|llm] [--json]
                              play in the simulated world until the goal holds
  run --server HOST:PORT --username NAME [--goal "..."] [--reconnect] [--config-file FILE]
                              play on a GTNH server until the goal holds
  run --body ADDR [--token-file FILE] [--goal "..."] ...
                              drive a body served by another process (agent serve)
  run --planner-cmd "COMMAND ARGS" | --planner ADDR [--planner-timeout D] ...
                              ask a planner in another process (docs/ipc.md)
  run --planner llm --llm-url URL --llm-model NAME [--llm-key-env VAR] ...
                              let a language model plan (Ollama, vLLM, llama.cpp, a
                              hosted API; docs/llm.md)
  serve --body sim|server --listen ADDR [--token-file FILE] [--scenario NAME|FILE] [--seed N]
                              expose a body over the IPC protocol (docs/ipc.md)
  mcp [--scenario NAME|FILE] [--goal "..."] | --server HOST:PORT --username NAME | --body ADDR
      [--listen HOST:PORT [--token-file FILE]]
                              serve the skills to an MCP client on stdin and stdout,
                              or over HTTP with --listen (docs/mcp.md)
  run --server HOST:PORT --record FILE ...
                              play and record what the server sends (docs/recording.md)
  replay FILE [--at MS] [--json]
                              replay a recording offline and show what the bot saw
  map --recording FILE | --trace FILE [--scenario NAME|FILE] --out FILE.png
      [--center X,Z] [--radius N] [--scale N] [--max-y Y]
                              draw the world seen from above as a PNG (docs/view.md)
  ping HOST[:PORT] [--json]   show a server's MOTD, version, players, mods and wire formats
  login [--client-id ID] [--force]
                              sign in with a Microsoft account for online-mode servers
                              (docs/online-mode.md)
  logout                      forget the saved Microsoft login
  skills list [--tech-state T] [--packs a,b] [--candidates] [--json]
                              list the skills planners can use
  skills describe NAME[@VERSION] [--json]
                              show one skill's full metadata
  skills validate [DIR...]    check spec, pack and SKILL.md directories (with the safety
                              scan); exit 1 naming every invalid or blocked skill
  skills load NAME [--json]   print what the load_skill tool returns for a skill
  skills select --task "..." [--max N] [--json]
                              rank the catalog for a task and show the selection
  skills lint [DIR...]        report style issues in SKILL.md instructions
  skills inject [--preload a,b] [--tech-state T]
                              print the skills part of a planner's system prompt
  packs list [--json]         list the skill packs and their tier gates
  recipes import FILE|DIR [--format guineautil|recex|auto] -o FILE
                              read a recipe dump (GuineaUtil or RecEx) into a compact
                              recipe file (docs/recipes.md)
  recipes show FILE [--output ITEM] [--kind K] [--limit N]
                              list what a compact recipe file holds
  memory show [--server NAME [--dimension D]] [--memory FILE] [--json]
                              list the worlds the bot remembers, or what it remembers
                              of one (docs/memory.md)
  memory forget --server NAME [--what KIND] [--block ID]
                              forget a world, or one kind of record of it
  version                     show the module version and source revision (also --version)
  help [COMMAND [SUBCOMMAND]] show a command's usage and flags (also COMMAND --help)

With no command, agent runs the embedded scenario (a forest beside a small
steam-age base) with the goal "` + defaultGoal + `".
Goals: "collect N ITEM" (N more than at the start), "have N ITEM" (at
least N), "kill N MOB" (kills seen during the run), "reach TIER", "build
NAME", "run SKILL name=value ...", joined with "and"; every name is checked
before the run (a typo is exit 2 with a did-you-mean).
Exit codes: 0 success (goal met); 1 failure (goal not met, the server ended
the run, skills validate or lint found problems); 2 the command cannot start
(usage, unknown names, unreadable or invalid files, a missing or invalid
configuration); 130 interrupted (Ctrl-C; a second Ctrl-C exits at once).
Common flags: --config DIR (a directory whose skills and packs are added to the
shipped ones), --state FILE (registry state with learned metrics), --log-level
debug|info|warn|error (default warn), -v (debug). The reference is docs/cli.md.`

func run(args []string, stdout, stderr io.Writer) int {
	base := newBaseLogger(stderr)
	e := &env{stdout: stdout, stderr: stderr, log: base.With().Str("component", "cli").Logger(), base: &base}
	err := dispatch(e, args)
	if err == nil {
		return exitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "agent: %v\n", err)
		return exitUsage
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if errors.Is(err, errInterrupted) {
		return exitInterrupted
	}
	var failed *reportedError
	if !errors.As(err, &failed) {
		fmt.Fprintf(stderr, "agent: %v\n", err)
	}
	return exitFail
}

// reportedError is a failure whose details were already printed.
type reportedError struct{ summary string }

func (e *reportedError) Error() string { return e.summary }

// newLogger is the command's own logger on w (component cli).
func newLogger(w io.Writer) zerolog.Logger {
	return newBaseLogger(w).With().Str("component", "cli").Logger()
}

// newBaseLogger logs on w at warn level: human console lines on a terminal,
// JSON otherwise. It names no component: each user of it adds its own.
func newBaseLogger(w io.Writer) zerolog.Logger {
	if isTerminal(w) {
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: "15:04:05"}
	}
	return zerolog.New(w).With().Timestamp().Logger().Level(zerolog.WarnLevel)
}

// isTerminal tells whether w is a terminal (progress lines and console
// logs are for people watching).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

// configFlags are shared by the commands that load a registry.
type configFlags struct {
	dir   string
	state string
	// rules, when set (run --recipes), is the rule set the skills that
	// read rule tables are bound to.
	rules *rules.Set
}

func (c *configFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.dir, "config", "", "configuration `DIR` whose skills/ and skill_packs/ are added to the shipped ones (with its own tiers.yaml it replaces them)")
	fs.StringVar(&c.state, "state", "", "registry state file with learned metrics (default: none)")
}

// load builds and finalizes the registry from the configuration, with the
// checks skills validate makes (checkConfig): an invalid configuration is
// printed and refused with exit status 2 by every command.
func (c *configFlags) load(e *env, policy registry.Policy) (*registry.Registry, error) {
	// The SKILL.md directories of the configuration in the binary cannot
	// change after the tests that validate them (TestSkillsValidateEmbedded),
	// so they are not scanned again at every start.
	var kt knowledgeTarget
	dir := c.dir
	if dir != "" {
		dir = filepath.Clean(dir)
		if err := checkConfigRoot(c.dir); err != nil {
			return nil, err
		}
		var err error
		if kt, err = osTarget(c.dir); err != nil {
			return nil, err
		}
	}
	reg, problems := checkConfig(e, dir, kt, registry.Options{Policy: policy, StatePath: c.state, Rules: c.rules}, false)
	if problems > 0 {
		return nil, errInvalidConfig
	}
	return reg, nil
}

// printErrors prints every located error, one per line, with file paths
// made relative to the directory the user named.
func printErrors(w io.Writer, prefix string, err error) int {
	list := strictyaml.Flatten("", err)
	for _, x := range list {
		if x.File != "" && prefix != "" && !path.IsAbs(x.File) && !strings.HasPrefix(x.File, prefix+"/") {
			c := *x
			c.File = path.Join(prefix, x.File)
			x = &c
		}
		fmt.Fprintln(w, x.Error())
	}
	return len(list)
}

// ptr is a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }
