// Package faultbody wraps an ipc.Body and injects the faults a live server
// produces — refused actions, timeouts, disconnects and position
// corrections — at seeded rates, so long runs of the loop can be tested
// deterministically against them (see internal/soak).
package faultbody
