package script

import (
	"strings"

	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// Parser parses scripts for the scripted planner; when Names is set,
// every invocation's skill, parameters and item names are checked too, so a
// typo is reported before the run instead of as a rejected step.
type Parser struct {
	Names loop.Names
}

// Parse parses a script, checking no names (Parser.Parse does).
func Parse(file string, data []byte) ([]loop.Invocation, error) {
	return Parser{}.Parse(file, data)
}

// Parse reads a script for the scripted planner: a YAML list of
// invocations,
//
//   - {skill: chop_tree, params: {min_logs: 4}}
//   - {skill: basic_crafting, params: {item: minecraft:planks, count: 8}}
//
// Problems are strictyaml.Errors naming file, line, column and field.
func (p Parser) Parse(file string, data []byte) ([]loop.Invocation, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	var out []loop.Invocation
	for i, n := range d.Sequence(root, "") {
		path := strictyaml.Index("script", i)
		errs := len(d.Errs)
		f := d.Mapping(n, path, []string{"skill", "params"})
		d.Require(n, path, f, "skill")
		var inv loop.Invocation
		if v, ok := f["skill"]; ok {
			if s, ok := d.String(v.Value, path+".skill"); ok {
				if strings.TrimSpace(s) == "" {
					d.Errorf(v.Value, path+".skill", "must name a skill")
				}
				inv.Skill = s
			}
		}
		if v, ok := f["params"]; ok {
			inv.Params = d.AnyMap(v.Value, path+".params")
			if _, empty := inv.Params[""]; empty {
				d.Errorf(v.Value, path+".params", "a parameter name is empty")
			}
		}
		if p.Names != nil && inv.Skill != "" && len(d.Errs) == errs {
			if err := p.Names.Invocation(inv); err != nil {
				d.Errorf(n, path, "%v", err)
			}
		}
		out = append(out, inv)
	}
	if len(out) == 0 && len(d.Errs) == 0 {
		d.Errorf(root, "script", "the script lists no invocations")
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Load reads and parses a script file (at most filelimit.MaxConfig
// bytes), checking no names (Parser.Load does).
func Load(file string) ([]loop.Invocation, error) {
	return Parser{}.Load(file)
}

// Load reads and parses a script file (at most filelimit.MaxConfig bytes).
func (p Parser) Load(file string) ([]loop.Invocation, error) {
	data, err := filelimit.ReadFile(file, filelimit.MaxConfig)
	if err != nil {
		return nil, err
	}
	return p.Parse(file, data)
}
