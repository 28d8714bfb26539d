package loop_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// FuzzParseGoal: a command-line goal either parses into a goal whose every
// part is usable, or fails with an error; it never panics.
func FuzzParseGoal(f *testing.F) {
	for _, s := range []string{
		"have 8 minecraft:stick and collect 8 minecraft:log",
		"collect 16 minecraft:log and reach steam_age and run mine_block target=minecraft:gravel radius=24",
		"have 4 ore:plankWood", "reach lv", "run report_status", "run x a=1 b=2.5 c=true d=",
		"collect 0 minecraft:log", "reach lv and reach mv", " and ", "collect -1 x:y", "have 9999999999999999999 minecraft:log",
	} {
		f.Add(s)
	}
	tiers := rules.Default().Tiers
	f.Fuzz(func(t *testing.T, text string) {
		g, err := loop.ParseGoal(text, tiers)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		checkGoal(t, g, tiers)
		if g.Text != strings.TrimSpace(text) {
			t.Fatalf("Text = %q, want the trimmed input", g.Text)
		}
	})
}

// FuzzGoalParserNames: checking names only ever refuses more: a goal the
// checked parser accepts is accepted unchecked, the same, and names only
// known items and skills; it never panics.
func FuzzGoalParserNames(f *testing.F) {
	for _, s := range []string{
		"have 8 minecraft:stick and collect 8 minecraft:log", "collect 3 minecraft:lgo", "have 2 ore:logWod",
		"have 1 tool:axe and run mine_block target=minecraft:gravel", "run chop_tre", "reach stem_age",
		"have 1 somemod:widget:3", "collect 1 minecraft:log and run report_status note=x",
	} {
		f.Add(s)
	}
	tiers := rules.Default().Tiers
	names := knownNames{}
	checked := loop.GoalParser{Tiers: tiers, Names: names}
	f.Fuzz(func(t *testing.T, text string) {
		g, err := checked.Parse(text)
		plain, plainErr := loop.ParseGoal(text, tiers)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if plainErr != nil {
			t.Fatalf("accepted with names checked, refused without: %v", plainErr)
		}
		if !reflect.DeepEqual(g, plain) {
			t.Fatalf("the checked goal differs: %#v vs %#v", g, plain)
		}
		for _, ig := range g.Items {
			if err := names.Item(ig.Item); err != nil {
				t.Fatalf("accepted unknown item: %v", err)
			}
		}
		if g.Skill != nil {
			if err := names.Invocation(*g.Skill); err != nil {
				t.Fatalf("accepted unknown skill: %v", err)
			}
		}
	})
}

// knownNames checks items against the shipped tables and knows three
// skills (any parameters).
type knownNames struct{}

func (knownNames) Item(s string) error { return rules.Default().Names.CheckItem(s) }

func (knownNames) Invocation(inv loop.Invocation) error {
	switch inv.Skill {
	case "mine_block", "report_status", "fill_bucket":
		return nil
	}
	return fmt.Errorf("unknown skill %q", inv.Skill)
}

// FuzzParseGoalYAML: a goal file either parses into a usable goal or fails
// with located errors naming the file; it never panics.
func FuzzParseGoalYAML(f *testing.F) {
	for _, s := range []string{
		"items:\n  - {item: minecraft:log, count: 16}\ntier: steam_age\nskill: {name: fill_bucket}\n",
		"tier: lv\n",
		"skill: {name: mine_block, params: {target: minecraft:gravel, radius: 24}}\n",
		"items: [{item: ore:plankWood, count: 4}, {item: 'tool:axe', count: 1}]\n",
		"itmes: []\n", "items:\n  - {item: minecraft:log, count: 0}\n", "", "~\n", "- a\n", "skill: {name: \"\"}\n",
		"a: &a [1]\nitems: *a\n", "skill: {name: x, params: {\"\": 1}}\n", "skill: {name: \"  \"}\n",
	} {
		f.Add("goal.yaml", []byte(s))
	}
	tiers := rules.Default().Tiers
	f.Fuzz(func(t *testing.T, file string, data []byte) {
		g, err := loop.ParseGoalYAML(file, data, tiers)
		if err != nil {
			for _, e := range strictyaml.Flatten(file, err) {
				if e.File != file || e.Msg == "" {
					t.Fatalf("error does not name %q or has no message: %#v", file, e)
				}
			}
			return
		}
		checkGoal(t, g, tiers)
		if _, err := (loop.GoalParser{Tiers: tiers, Names: knownNames{}}).ParseYAML(file, data); err == nil {
			for _, ig := range g.Items {
				if err := rules.Default().Names.CheckItem(ig.Item); err != nil {
					t.Fatalf("accepted unknown item with names checked: %v", err)
				}
			}
		}
	})
}

func checkGoal(t *testing.T, g loop.Goal, tiers *rules.Tiers) {
	t.Helper()
	if len(g.Items) == 0 && g.Tier == "" && g.Skill == nil {
		t.Fatal("accepted a goal with nothing to achieve")
	}
	for _, ig := range g.Items {
		if ig.Count < 1 {
			t.Fatalf("accepted count %d", ig.Count)
		}
		if _, err := world.ParseItemMatcher(ig.Item); err != nil {
			t.Fatalf("accepted item %q: %v", ig.Item, err)
		}
	}
	if g.Tier != "" {
		if _, ok := tiers.Index(g.Tier); !ok {
			t.Fatalf("accepted unknown tier %q", g.Tier)
		}
	}
	if g.Skill != nil {
		if strings.TrimSpace(g.Skill.Skill) == "" {
			t.Fatalf("accepted a skill goal without a skill name: %#v", g.Skill)
		}
		for k := range g.Skill.Params {
			if k == "" {
				t.Fatal("accepted an empty parameter name")
			}
		}
	}
}
