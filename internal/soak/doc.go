// Package soak holds the long-run test of the plan-act loop: the simulated
// world behind a fault-injecting body (internal/faultbody), a planner that
// keeps cycling through the shipped skills, and checks that memory and
// goroutines stay flat, that every step reaches the trace and that the
// learned metrics agree with the trace.
//
//	go test ./internal/soak                        1,000 steps (part of go test ./...)
//	GTNH_SOAK_STEPS=100000 go test ./internal/soak -run Soak -v -timeout 2h
//	scripts/soak.sh                                the same, 100,000 steps
package soak
