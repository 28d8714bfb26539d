package main

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docFiles are the pages whose commands must keep working: every command
// they show runs against the embedded simulated world in TestDocCommands.
var docFiles = []string{
	"README.md",
	"docs/running.md",
	"docs/cli.md",
	"docs/skills.md",
	"docs/simulator.md",
	"docs/server.md",
	"docs/integrations.md",
	"docs/quests.md",
	"docs/memory.md",
	"docs/view.md",
}

// docSkips are the commands a test cannot run, by the words that mark
// them, with the reason. Nothing else is skipped.
var docSkips = []struct{ word, reason string }{
	{"--server", "needs a live GTNH server"},
	{"ping", "needs a live GTNH server"},
	{"login", "needs a Microsoft account and an Azure application id"},
	{"llm", "needs a model server (--planner llm)"},
}

// docCommand is one agent command a page shows: in a ```sh block (to be
// typed, exit 0 expected), or after "$ " in any block, followed by what it
// prints (every line of which the command must print).
type docCommand struct {
	file string
	line int
	args []string
	want []string // for "$ agent …": the lines shown under it
}

// docCommands extracts the agent commands of a page. In ```sh blocks every
// command of a line (split at &&) that is agent, ./agent or go run
// ./cmd/agent is one, comments after " #" left out; plain ``` blocks hold
// usage synopses and output unless a line starts with "$ agent".
func docCommands(t *testing.T, file string, data string) []docCommand {
	t.Helper()
	var out []docCommand
	inBlock, sh := false, false
	var cur *docCommand
	sc := bufio.NewScanner(strings.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			if cur != nil {
				out = append(out, *cur)
				cur = nil
			}
			if inBlock {
				inBlock = false
				continue
			}
			inBlock, sh = true, strings.TrimPrefix(trimmed, "```") == "sh"
			continue
		}
		if !inBlock {
			continue
		}
		if rest, ok := strings.CutPrefix(trimmed, "$ "); ok {
			if cur != nil {
				out = append(out, *cur)
			}
			cur = nil
			if args := agentArgs(t, file, n, rest); len(args) > 0 {
				cur = &docCommand{file: file, line: n, args: args[0]}
			}
			continue
		}
		if cur != nil {
			if trimmed != "" {
				cur.want = append(cur.want, line)
			}
			continue
		}
		if sh {
			for _, args := range agentArgs(t, file, n, trimmed) {
				out = append(out, docCommand{file: file, line: n, args: args})
			}
		}
	}
	require.False(t, inBlock, "%s: a code block is not closed", file)
	return out
}

// agentArgs returns the agent commands of a shell line, each as the
// arguments after the command.
func agentArgs(t *testing.T, file string, n int, line string) [][]string {
	words, err := splitCommand(line)
	require.NoError(t, err, "%s:%d: %s", file, n, line)
	for i, w := range words {
		if strings.HasPrefix(w, "#") {
			words = words[:i]
			break
		}
	}
	var out [][]string
	for len(words) > 0 {
		end := len(words)
		for i, w := range words {
			if w == "&&" {
				end = i
				break
			}
		}
		cmd := words[:end]
		switch {
		case len(cmd) > 0 && (cmd[0] == "agent" || cmd[0] == "./agent"):
			out = append(out, cmd[1:])
		case len(cmd) > 2 && cmd[0] == "go" && cmd[1] == "run" && cmd[2] == "./cmd/agent":
			out = append(out, cmd[3:])
		}
		if end == len(words) {
			break
		}
		words = words[end+1:]
	}
	return out
}

func skipReason(args []string) string {
	for _, s := range docSkips {
		for _, a := range args {
			if a == s.word {
				return s.reason
			}
		}
		if len(args) > 0 && args[0] == s.word {
			return s.reason
		}
	}
	return ""
}

// TestDocCommands runs every agent command the pages show, in a scratch
// directory that holds the repository's examples/ and the configuration
// directory the pages use (my-config), so a page's example cannot rot.
func TestDocCommands(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	var cmds []docCommand
	for _, f := range docFiles {
		data, err := os.ReadFile(filepath.Join(root, f))
		require.NoError(t, err)
		cmds = append(cmds, docCommands(t, f, string(data))...)
	}
	require.Greater(t, len(cmds), 25, "the pages show commands")

	work := t.TempDir()
	require.NoError(t, os.CopyFS(filepath.Join(work, "examples"), os.DirFS(filepath.Join(root, "examples"))))
	writeFiles(t, work, map[string]string{
		"my-config/skills/greet.yaml":       "name: greet\nversion: 1\ndescription: Say hello in chat.\naction_sequence:\n  - {type: chat, message: hello}\n",
		"my-config/skill_packs/social.yaml": "name: social\nrequires_tech_state: any\nskills: [greet]\n",
	})
	t.Chdir(work)
	t.Setenv(defaultOperatorSecretEnv, "")

	ran, skipped := 0, map[string][]string{}
	for _, c := range cmds {
		where := c.file + ":" + strconv.Itoa(c.line) + ": agent " + strings.Join(c.args, " ")
		if r := skipReason(c.args); r != "" {
			skipped[r] = append(skipped[r], where)
			continue
		}
		ran++
		code, out, errOut := runAgent(t, c.args...)
		if c.want == nil {
			assert.Equal(t, exitOK, code, "%s\nstdout:\n%s\nstderr:\n%s", where, out, errOut)
			continue
		}
		for _, w := range c.want {
			assert.Contains(t, out+errOut, w, "%s prints what the page shows", where)
		}
	}
	for r, list := range skipped {
		t.Logf("skipped, %s:\n  %s", r, strings.Join(list, "\n  "))
	}
	t.Logf("ran %d commands", ran)
	assert.Greater(t, ran, 25)
}

// TestDocConfigFiles: every agent.yaml the pages show (a yaml block with a
// server: or run: section) is a valid config file.
func TestDocConfigFiles(t *testing.T) {
	root := filepath.Join("..", "..")
	blocks := 0
	for _, f := range docFiles {
		data, err := fs.ReadFile(os.DirFS(root), f)
		require.NoError(t, err)
		lines := strings.Split(string(data), "\n")
		for i := 0; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) != "```yaml" {
				continue
			}
			j := i + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) != "```" {
				j++
			}
			body := strings.Join(lines[i+1:j], "\n")
			if strings.HasPrefix(body, "server:") || strings.HasPrefix(body, "run:") {
				blocks++
				_, err := parseAgentConfig(f, []byte(body))
				assert.NoError(t, err, "%s:%d: the config file shown", f, i+1)
			}
			i = j
		}
	}
	assert.GreaterOrEqual(t, blocks, 1, "docs/server.md shows one")
}

// TestReadmeStaysAnOverview: the README is an overview of at most 150
// lines that starts with the two commands; the reference lives in docs/.
func TestReadmeStaysAnOverview(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	assert.LessOrEqual(t, len(lines), 150, "README.md has %d lines: move the detail to docs/", len(lines))
	head := strings.Join(lines[:min(len(lines), 8)], "\n")
	assert.Contains(t, head, "go run ./cmd/agent")
	assert.Contains(t, head, "go test ./...")
}
