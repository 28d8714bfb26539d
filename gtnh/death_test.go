package gtnh

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestParseDeathMessage(t *testing.T) {
	bot := `{"text":"Bot","clickEvent":{"action":"suggest_command","value":"/msg Bot "}}`
	for _, tc := range []struct {
		name, raw string
		want      DeathMessage
		ok        bool
	}{
		{"drowned", `{"translate":"death.attack.drown","with":[` + bot + `]}`,
			DeathMessage{Key: "death.attack.drown", Victim: "Bot", Text: "Bot drowned"}, true},
		{"a mob", `{"translate":"death.attack.mob","with":[` + bot + `,"Zombie"]}`,
			DeathMessage{Key: "death.attack.mob", Victim: "Bot", Killer: "Zombie", Text: "Bot was slain by Zombie"}, true},
		{"escaping a mob into lava", `{"translate":"death.attack.lava.player","with":[` + bot + `,"Skeleton"]}`,
			DeathMessage{Key: "death.attack.lava.player", Victim: "Bot", Killer: "Skeleton", Text: "Bot tried to swim in lava to escape Skeleton"}, true},
		{"a named weapon", `{"translate":"death.attack.player.item","with":["Bot",{"text":"Alice"},{"text":"[","extra":["Sting","]"]}]}`,
			DeathMessage{Key: "death.attack.player.item", Victim: "Bot", Killer: "Alice", Weapon: "[Sting]", Text: "Bot was slain by Alice using [Sting]"}, true},
		{"a fall", `{"translate":"death.fell.accident.water","with":["Bot"]}`,
			DeathMessage{Key: "death.fell.accident.water", Victim: "Bot", Text: "Bot fell out of the water"}, true},
		{"a mod's damage type", `{"translate":"death.attack.gt.electric","with":["Bot","Machine"]}`,
			DeathMessage{Key: "death.attack.gt.electric", Victim: "Bot", Killer: "Machine", Text: "Bot died (death.attack.gt.electric, Machine)"}, true},
		{"formatting codes stripped", `{"translate":"death.attack.onFire","with":["§cBot"]}`,
			DeathMessage{Key: "death.attack.onFire", Victim: "Bot", Text: "Bot burned to death"}, true},
		{"no victim", `{"translate":"death.attack.drown"}`, DeathMessage{}, false},
		{"an empty victim", `{"translate":"death.attack.drown","with":[""]}`, DeathMessage{}, false},
		{"ordinary chat", `{"translate":"chat.type.text","with":["Alice","death.attack.drown"]}`, DeathMessage{}, false},
		{"plain text", `{"text":"Bot drowned"}`, DeathMessage{}, false},
		{"not JSON", `death.attack.drown`, DeathMessage{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ParseDeathMessage(tc.raw)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestDeathMessageIsBounded: a name of any length gives a message of at
// most maxDeathText bytes, cut at a rune boundary.
func TestDeathMessageIsBounded(t *testing.T) {
	long := strings.Repeat("é", 400)
	d, ok := ParseDeathMessage(`{"translate":"death.attack.mob","with":["Bot","` + long + `"]}`)
	assert.True(t, ok)
	assert.LessOrEqual(t, len(d.Killer), maxDeathText)
	assert.LessOrEqual(t, len(d.Text), maxDeathText)
	assert.True(t, utf8.ValidString(d.Killer) && utf8.ValidString(d.Text))
	assert.True(t, strings.HasPrefix(d.Text, "Bot was slain by éé"))
}

func FuzzDeathMessage(f *testing.F) {
	for _, s := range []string{
		`{"translate":"death.attack.drown","with":[{"text":"Bot","clickEvent":{"action":"suggest_command","value":"/msg Bot "}}]}`,
		`{"translate":"death.attack.mob","with":["Bot","Zombie"]}`,
		`{"translate":"death.attack.player.item","with":["Bot","Alice",{"text":"[","extra":["Sting","]"]}]}`,
		`{"translate":"death.fell.finish.item","with":["Bot",{"translate":"entity.Zombie.name"},["x",["y"]]]}`,
		`{"translate":"death.","with":[{"with":[[[[[]]]]]}]}`,
		`{"translate":"death.attack.mob","with":[5]}`, `{"translate":"death.attack.mob","with":null}`,
		`"plain"`, `[{"text":"a"},"b"]`, `not json`, ``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		d, ok := ParseDeathMessage(raw)
		if !ok {
			if d != (DeathMessage{}) {
				t.Fatalf("not a death message, yet %+v", d)
			}
			return
		}
		if d.Victim == "" || !strings.HasPrefix(d.Key, "death.") {
			t.Fatalf("a death message without a victim or its key: %+v", d)
		}
		for _, s := range []string{d.Key, d.Victim, d.Killer, d.Weapon, d.Text} {
			if len(s) > maxDeathText {
				t.Fatalf("%d bytes, more than %d: %q", len(s), maxDeathText, s)
			}
		}
	})
}
