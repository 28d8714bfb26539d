package registry

import (
	"fmt"
	"sort"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/skills"
)

// The process-wide set of Go implementations, filled by init functions the
// way database/sql drivers register themselves. This plays the role of the
// seed's @register_skill decorator: importing a package of skills (such as
// skills/base, usually with a blank import) makes its skills available, and a
// Registry picks them up with RegisterProvided during its build phase.
var (
	providedMu sync.Mutex
	provided   = map[string]skills.Implementation{}
)

// Provide adds a Go skill implementation to the process-wide set. Call it from
// an init function. It panics on a nil implementation, an empty name or a
// second implementation with the same name, since each is a programming error
// that must not reach a running agent.
func Provide(impl skills.Implementation) {
	if impl == nil {
		panic("registry: Provide called with a nil implementation")
	}
	name := impl.Name()
	if name == "" {
		panic(fmt.Sprintf("registry: implementation %T has an empty Name()", impl))
	}
	providedMu.Lock()
	defer providedMu.Unlock()
	if prev, dup := provided[name]; dup {
		panic(fmt.Sprintf("registry: skill %q provided twice (%T and %T)", name, prev, impl))
	}
	provided[name] = impl
}

// Provided returns the process-wide implementations sorted by name.
func Provided() []skills.Implementation {
	providedMu.Lock()
	defer providedMu.Unlock()
	out := make([]skills.Implementation, 0, len(provided))
	for _, impl := range provided {
		out = append(out, impl)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}
