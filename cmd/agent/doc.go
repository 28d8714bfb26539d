// Command agent is the gtnh-agent binary: an autonomous player for GregTech:
// New Horizons.
//
//	agent                          run the embedded simulated scenario with the default goal
//	agent run [flags]              play until a goal holds (simulator, or a server with --server)
//	agent run --body ADDR          drive a body served by another process
//	agent serve --listen ADDR      expose a body (simulator or server) over the IPC protocol
//	agent mcp [flags]              serve the skills to an MCP client on stdin and stdout
//	agent ping HOST[:PORT]         show a GTNH server's MOTD, version, players and mods
//	agent skills list|describe|validate|load|select|lint|inject
//	agent packs list
//	agent version                  the module version and source revision (also --version)
//	agent help [COMMAND]           a command's usage and flags (also COMMAND --help)
//
// Every command reads the shipped configuration embedded in the binary;
// --config DIR adds the skills/ and skill_packs/ of a directory to it (a
// directory with its own tiers.yaml replaces it), loaded and checked as
// skills validate does. agent help COMMAND prints a command's flags; see
// docs/cli.md. Exit codes: 0 success (goal met); 1
// failure (goal not met, the server ended the run, skills validate or lint
// found problems); 2 the command cannot start (usage, unknown names in goals,
// scripts and scenarios, unreadable or invalid files, a missing or invalid
// configuration); 130 interrupted (Ctrl-C).
package main
