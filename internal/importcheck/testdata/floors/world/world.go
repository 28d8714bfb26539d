// Package world is a stand-in for the layering test.
package world

import (
	_ "example.com/floors/game"
	_ "example.com/floors/world/chunk"
)
