// Package chunk is a stand-in for the layering test.
package chunk

import (
	_ "example.com/floors/rules"
	_ "example.com/floors/world/path"
)
