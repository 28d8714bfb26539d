package loop

import (
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// Neutral reports whether a hostile mob leaves the bot alone where it
// stands now: a mob hostile only in the dark (the spider: 1.7.10
// EntitySpider.findPlayerToAttack looks for a player only below half
// brightness; config/mobs.yaml's hostile_light_max) by day in the open,
// with no roof over it (a tunnel or a cave may be dark). The defend
// reflex leaves such a spider alone; the planner lets it guard no hunt.
func Neutral(mobs *rules.Mobs, w *world.Snapshot, e world.Entity) bool {
	return path.Neutral(mobs, w, e)
}
