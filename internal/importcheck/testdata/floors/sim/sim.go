// Package sim is a stand-in for the layering test.
package sim

import (
	_ "example.com/floors/internal/benchworld"
	_ "example.com/floors/world"
)
