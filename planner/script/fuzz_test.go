package script_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/script"
)

// FuzzParseScript: a script file either parses into invocations that each
// name a skill, or fails with located errors naming the file.
func FuzzParseScript(f *testing.F) {
	for _, s := range []string{
		"- {skill: chop_tree, params: {min_logs: 4}}\n- {skill: basic_crafting, params: {item: minecraft:planks, count: 8}}\n",
		"- skill: report_status\n",
		"- {skill: mine_block, params: {target: minecraft:gravel, pos: [1, 2, 3], extra: {a: [1, {b: c}]}}}\n",
		"[]\n", "", "- {skil: x}\n", "- {skill: [x]}\n", "skill: x\n", "- {skill: \"\"}\n",
		"- &a {skill: x}\n- *a\n", "- {skill: x, params: {\"\": 1}}\n",
	} {
		f.Add("script.yaml", []byte(s))
	}
	f.Fuzz(func(t *testing.T, file string, data []byte) {
		steps, err := script.Parse(file, data)
		if err != nil {
			if steps != nil {
				t.Fatal("returned invocations and an error")
			}
			for _, e := range strictyaml.Flatten(file, err) {
				if e.File != file || e.Msg == "" {
					t.Fatalf("error does not name %q or has no message: %#v", file, e)
				}
			}
			return
		}
		if len(steps) == 0 {
			t.Fatal("accepted a script without invocations")
		}
		for i, s := range steps {
			if strings.TrimSpace(s.Skill) == "" {
				t.Fatalf("step %d has no skill name", i)
			}
			for k := range s.Params {
				if k == "" {
					t.Fatalf("step %d has an empty parameter name", i)
				}
			}
		}
		// Checking names only ever refuses more, and what it accepts
		// names known skills.
		checked, err := script.Parser{Names: oneSkill{}}.Parse(file, data)
		if err != nil {
			for _, e := range strictyaml.Flatten(file, err) {
				if e.File != file || e.Msg == "" {
					t.Fatalf("checked: error does not name %q or has no message: %#v", file, e)
				}
			}
			return
		}
		if !reflect.DeepEqual(checked, steps) {
			t.Fatalf("the checked script differs: %#v vs %#v", checked, steps)
		}
		for _, s := range checked {
			if s.Skill != "report_status" {
				t.Fatalf("accepted unknown skill %q", s.Skill)
			}
		}
	})
}

// oneSkill knows report_status only.
type oneSkill struct{}

func (oneSkill) Item(string) error { return nil }

func (oneSkill) Invocation(inv loop.Invocation) error {
	if inv.Skill != "report_status" {
		return fmt.Errorf("unknown skill %q", inv.Skill)
	}
	return nil
}
