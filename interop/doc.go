// Package interop holds the interoperability test against an independent
// Minecraft 1.7.10 implementation: server.js runs a node-minecraft-protocol
// server (npm package minecraft-protocol, pinned in package.json and
// package-lock.json) and interop_test.go joins it with a client built from
// proto17, checking that login, keep-alive, chunk data, block changes, plugin
// messages and chat are understood both ways.
//
// The test needs Node.js and the npm packages: run `npm ci` in this directory
// (.ci/run does). Without them it skips with a message saying so.
//
// The package has no non-test code.
package interop
