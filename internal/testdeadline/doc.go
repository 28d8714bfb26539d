// Package testdeadline bounds a test's waits by the test binary's own
// deadline instead of an arbitrary number of seconds.
//
// A guard such as context.WithTimeout(ctx, 5*time.Second) in a test says
// "this must not hang", but it also says "this must finish in 5 s", which a
// busy machine (the race detector, two CPU burners, a shared CI runner) can
// break although nothing is wrong. The deadline go test already has
// (-timeout, 10 minutes unless told) is the bound that means "hung": this
// package ends a test's wait a grace period before it, so the test fails
// itself with a message naming what it waited for, instead of the binary
// panicking with every goroutine's stack.
//
// Use it for hang guards only. A bound that is the point of a test (a
// stalled peer must not hold up the others) is a measurement and stays a
// number. Code inside a testing/synctest bubble runs on virtual time and
// needs neither, but a helper shared by bubbles and plain tests may use
// it: in a bubble its waits last InBubble of virtual time.
package testdeadline
