// Package knowledge serves knowledge skills: directories holding a SKILL.md
// (YAML frontmatter in the Agent Skills convention, then markdown
// instructions) and optional resources (scripts/, references/, assets/),
// which an LLM planner reads on demand — how to build a coke oven, the
// steam-age progression, ore processing chains.
//
// # Discovery and precedence
//
// A Library discovers skills in ordered sources: the shipped skills
// (config/skills/<name>/, embedded in the binary, read-only), then the
// custom directories of the configuration (relative to the workspace), then
// directories registered while the agent runs (Library.AddDir,
// Library.AddSkillDir). A later source overrides an earlier one for the same
// skill name, with a warning naming both paths. Discovery reads the
// frontmatter only and streams the rest of SKILL.md through the safety scan
// without keeping it; the body is loaded on demand (Library.Load), cached,
// and re-read when the file's modification time or size changes. Missing
// directories are empty; a broken or blocked skill is skipped with a
// warning and listed by Library.Problems.
//
// # Identity
//
// Skills in writable directories get a .skill_id sidecar on first discovery
// and keep that id. Skills in read-only sources (the embedded configuration)
// get an id derived from their name and metadata.version. See Library.
//
// # Resources and safety
//
// Only files listed at discovery are readable (Library.ReadResource); paths
// are checked by CleanResourcePath and opened through os.Root, so "..",
// absolute paths and symlinks leaving the skill directory are refused. The
// safety scan (ScanText) raises named flags — prompt_injection,
// destructive_command, credential_exfiltration, remote_code_execution,
// obfuscated_payload, server_admin_command, bidi_override (all blocking) and
// invisible_characters (a warning) — with the line they are on.
//
// # One catalog
//
// A skill directory may also carry an executable spec
// (<name_with_underscores>.yaml, loaded into the registry by skills.LoadDir;
// Library.Specs parses those of directories added later). Package
// skills/catalog joins the registry's executable skills and the library's
// knowledge skills into one list; this package does not import the
// registry.
//
// # Tools
//
// ValidateDir/ValidateFS check a skill directory (fields, lengths, name =
// directory, resources escaping it, dead internal references, executable
// skills named in metadata.uses, the safety scan); Lint reports style issues.
// Selection over the catalog lives in package selection, ranking in package
// rank.
package knowledge
