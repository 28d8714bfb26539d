// Package mcpserver serves the agent's skills over the Model Context
// Protocol (MCP), with the official Go SDK: a model in an MCP client (a
// desktop assistant, an IDE) reads the skill catalog, loads knowledge
// skills, observes the world and runs executable skills on a body, one
// invocation at a time, through the same loop machinery as agent run — the
// parameters are validated, the declared effects checked in the world, and
// repeated failures blocked until the world changes.
//
// Tools: list_skills, load_skill, read_skill_resource, observe,
// invoke_skill, goal_status, and one skill_NAME tool per executable skill
// available at the body's tier with the enabled packs. Knowledge skills are
// resources: skill://NAME (the instructions) and skill://NAME/PATH (their
// listed files). The skill tools and the resources follow the tier: after
// every observe and invoke_skill the server compares the catalog with what
// it serves, and the SDK tells connected clients that the lists changed.
package mcpserver
