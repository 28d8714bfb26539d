package rules

import (
	"fmt"
	"io/fs"

	"github.com/gtnh-agent/gtnh-agent/config"
)

// loadShipped parses a shipped table (config/NAME) with parse. A shipped
// table that does not parse is a broken build: it panics, naming the file
// and the reason (the tests load every table).
func loadShipped[T any](name string, parse func(file string, data []byte) (*T, error)) *T {
	data, err := fs.ReadFile(config.FS, name)
	if err == nil {
		var t *T
		if t, err = parse("config/"+name, data); err == nil {
			return t
		}
	}
	panic(fmt.Sprintf("rules: shipped %s is invalid: %v", name, err))
}
