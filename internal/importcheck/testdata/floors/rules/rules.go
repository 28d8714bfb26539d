// Package rules is a stand-in for the layering test.
package rules

import (
	_ "example.com/floors/config"
	_ "example.com/floors/game"
	_ "example.com/floors/internal/strictyaml"
	_ "example.com/floors/skills"
)
