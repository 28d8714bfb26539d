package gtnh

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/Tnze/go-mc/chat"
)

// Death messages. When a player dies, a 1.7.10 server tells everyone in
// chat why (EntityPlayerMP.onDeath → ServerConfigurationManager.sendChatMsg
// of CombatTracker.func_151521_b): a ChatComponentTranslation whose key is
// "death.attack.<damage type>" (DamageSource.func_151519_b, with ".player"
// when a mob or player had hit the victim and the key exists;
// EntityDamageSource adds the killer, ".item" its named weapon) or
// "death.fell.*" for a fall, and whose arguments are the victim's name,
// the killer's and the weapon's. The client renders it in English as the
// game does, so that a death's cause reads as Minecraft tells it.

// DeathMessage is a death message read from chat.
type DeathMessage struct {
	// Key is the translation key ("death.attack.mob").
	Key string
	// Victim is the player who died, Killer the mob or player that killed
	// it and Weapon its named weapon ("" when the message names none).
	Victim, Killer, Weapon string
	// Text is the message in English ("Bot was slain by Zombie").
	Text string
}

// maxDeathText bounds a rendered death message (and each name in it): a
// cause kept in memory and the trace, not a chat log.
const maxDeathText = 256

// deathTexts are the English death messages of 1.7.10
// (assets/minecraft/lang/en_US.lang, the death.* keys); %1$s is the victim,
// %2$s the killer, %3$s the weapon.
var deathTexts = map[string]string{
	"death.fell.accident.ladder":      "%1$s fell off a ladder",
	"death.fell.accident.vines":       "%1$s fell off some vines",
	"death.fell.accident.water":       "%1$s fell out of the water",
	"death.fell.accident.generic":     "%1$s fell from a high place",
	"death.fell.killer":               "%1$s was doomed to fall",
	"death.fell.assist":               "%1$s was doomed to fall by %2$s",
	"death.fell.assist.item":          "%1$s was doomed to fall by %2$s using %3$s",
	"death.fell.finish":               "%1$s fell too far and was finished by %2$s",
	"death.fell.finish.item":          "%1$s fell too far and was finished by %2$s using %3$s",
	"death.attack.lightningBolt":      "%1$s was struck by lightning",
	"death.attack.inFire":             "%1$s went up in flames",
	"death.attack.inFire.player":      "%1$s walked into fire whilst fighting %2$s",
	"death.attack.onFire":             "%1$s burned to death",
	"death.attack.onFire.player":      "%1$s was burnt to a crisp whilst fighting %2$s",
	"death.attack.lava":               "%1$s tried to swim in lava",
	"death.attack.lava.player":        "%1$s tried to swim in lava to escape %2$s",
	"death.attack.inWall":             "%1$s suffocated in a wall",
	"death.attack.drown":              "%1$s drowned",
	"death.attack.drown.player":       "%1$s drowned whilst trying to escape %2$s",
	"death.attack.starve":             "%1$s starved to death",
	"death.attack.cactus":             "%1$s was pricked to death",
	"death.attack.cactus.player":      "%1$s walked into a cactus whilst trying to escape %2$s",
	"death.attack.generic":            "%1$s died",
	"death.attack.explosion":          "%1$s blew up",
	"death.attack.explosion.player":   "%1$s was blown up by %2$s",
	"death.attack.magic":              "%1$s was killed by magic",
	"death.attack.wither":             "%1$s withered away",
	"death.attack.anvil":              "%1$s was squashed by a falling anvil",
	"death.attack.fallingBlock":       "%1$s was squashed by a falling block",
	"death.attack.mob":                "%1$s was slain by %2$s",
	"death.attack.player":             "%1$s was slain by %2$s",
	"death.attack.player.item":        "%1$s was slain by %2$s using %3$s",
	"death.attack.arrow":              "%1$s was shot by %2$s",
	"death.attack.arrow.item":         "%1$s was shot by %2$s using %3$s",
	"death.attack.fireball":           "%1$s was fireballed by %2$s",
	"death.attack.fireball.item":      "%1$s was fireballed by %2$s using %3$s",
	"death.attack.thrown":             "%1$s was pelted by %2$s",
	"death.attack.thrown.item":        "%1$s was pelted by %2$s using %3$s",
	"death.attack.indirectMagic":      "%1$s was killed by %2$s using magic",
	"death.attack.indirectMagic.item": "%1$s was killed by %2$s using %3$s",
	"death.attack.thorns":             "%1$s was killed trying to hurt %2$s",
	"death.attack.fall":               "%1$s hit the ground too hard",
	"death.attack.outOfWorld":         "%1$s fell out of the world",
}

// ParseDeathMessage reads a chat line's JSON as a death message: a
// translation whose key starts with "death." and that names the victim
// first. ok is false for any other line (and for JSON that does not
// decode). A key the table does not know (a mod's damage type) renders as
// "<victim> died (<key>)", with the killer when named.
func ParseDeathMessage(raw string) (DeathMessage, bool) {
	var m chat.Message
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return DeathMessage{}, false
	}
	if !strings.HasPrefix(m.Translate, "death.") || len(m.With) == 0 {
		return DeathMessage{}, false
	}
	d := DeathMessage{Key: clip(m.Translate), Victim: clip(senderName(m.With[0]))}
	if len(m.With) > 1 {
		d.Killer = clip(plainOf(m.With[1]))
	}
	if len(m.With) > 2 {
		d.Weapon = clip(plainOf(m.With[2]))
	}
	if d.Victim == "" {
		return DeathMessage{}, false
	}
	if tpl, ok := deathTexts[m.Translate]; ok {
		r := strings.NewReplacer("%1$s", d.Victim, "%2$s", d.Killer, "%3$s", d.Weapon)
		d.Text = r.Replace(tpl)
	} else if d.Killer != "" {
		d.Text = fmt.Sprintf("%s died (%s, %s)", d.Victim, d.Key, d.Killer)
	} else {
		d.Text = fmt.Sprintf("%s died (%s)", d.Victim, d.Key)
	}
	d.Text = clip(d.Text)
	return d, true
}

// clip cuts s to maxDeathText bytes at a rune boundary.
func clip(s string) string {
	if len(s) <= maxDeathText {
		return s
	}
	i := maxDeathText
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}
