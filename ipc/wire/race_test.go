//go:build race

package wire

// raceEnabled: the race detector's build allocates differently (a grown
// buffer is made and then copied), so allocation figures are not checked.
const raceEnabled = true
