package sim

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
)

//go:embed scenarios/*.yaml
var embedded embed.FS

// DefaultName is the embedded scenario `agent run` uses when none is given.
const DefaultName = "forest_base"

// embeddedFiles maps an embedded scenario's name to its file.
var embeddedFiles = map[string]string{
	"forest_base": "scenarios/default.yaml",
	"fresh_start": "scenarios/fresh_start.yaml",
	"survival":    "scenarios/survival.yaml",
}

// DefaultScenario returns the embedded default scenario: a forest beside a
// small steam-age base (coke ovens, a boiler, a water tank, a pond, a chest).
func DefaultScenario() (*Scenario, error) { return Embedded(DefaultName) }

// EmbeddedNames lists the scenarios built into the agent, sorted.
func EmbeddedNames() []string {
	names := make([]string, 0, len(embeddedFiles))
	for n := range embeddedFiles {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Embedded returns the embedded scenario of that name.
func Embedded(name string) (*Scenario, error) {
	file, ok := embeddedFiles[name]
	if !ok {
		return nil, fmt.Errorf("no embedded scenario %q%s (embedded: %s)", name, suggest.DidYouMean(name, EmbeddedNames()), strings.Join(EmbeddedNames(), ", "))
	}
	data, err := fs.ReadFile(embedded, file)
	if err != nil {
		return nil, err
	}
	return ParseScenario(path.Join("sim", file), data)
}

// Resolve finds a scenario by embedded name or by file: a name of an
// embedded scenario (fresh_start) is that one, anything else is read as a
// file. A missing file that looks like a name gets the embedded names and
// a did-you-mean.
func Resolve(arg string) (*Scenario, error) {
	if _, ok := embeddedFiles[arg]; ok {
		return Embedded(arg)
	}
	sc, err := LoadScenario(arg)
	if err != nil && errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(arg, `/\.`) {
		return nil, fmt.Errorf("scenario %q: no such file, and no embedded scenario of that name%s (embedded: %s)",
			arg, suggest.DidYouMean(arg, EmbeddedNames()), strings.Join(EmbeddedNames(), ", "))
	}
	return sc, err
}
