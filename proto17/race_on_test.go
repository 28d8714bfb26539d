//go:build race

package proto17

const raceEnabled = true
