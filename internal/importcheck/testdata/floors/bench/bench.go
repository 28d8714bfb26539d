// Package bench is a stand-in for the layering test.
package bench

import (
	_ "example.com/floors/internal/benchworld"
)
