package path

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Neutral reports whether a hostile mob leaves the bot alone where it
// stands now: a mob hostile only in the dark (the spider: 1.7.10
// EntitySpider.findPlayerToAttack looks for a player only below half
// brightness; config/mobs.yaml's hostile_light_max) by day in the open,
// with no roof over it (a tunnel or a cave may be dark). A passive mob of
// the table (a farm animal) is neutral too; a mob the table does not know
// is not.
func Neutral(mobs *rules.Mobs, w *world.Snapshot, e world.Entity) bool {
	k, ok := mobs.Kind(e.Name)
	if !ok || k.Passive() {
		return ok
	}
	return k.HostileLightMax < mobs.Light.Max && mobs.IsDaytime(w.TimeOfDay) && !underRoof(w, e.Pos)
}

// roofSearch is how far above a mob Neutral looks for a roof.
const roofSearch = 32

// underRoof reports whether a known solid block stands within roofSearch
// blocks above a mob's head: under it, the light may be low enough by day
// for a spider to attack (a tunnel, a cave, a forest's dark floor is not
// counted).
func underRoof(w *world.Snapshot, pos world.Vec3) bool {
	b := pos.Block()
	for y := b.Y + 2; y <= b.Y+roofSearch; y++ {
		p := world.Pos(b.X, y, b.Z)
		if w.Known(p) && ClassifyByTags(w.BlockAt(p)) == Solid {
			return true
		}
	}
	return false
}

// FromWay is how far p lies, horizontally, from the straight way between
// a and b.
func FromWay(p, a, b world.Vec3) float64 {
	dx, dz := b.X-a.X, b.Z-a.Z
	t := 0.0
	if l := dx*dx + dz*dz; l > 0 {
		t = min(max(((p.X-a.X)*dx+(p.Z-a.Z)*dz)/l, 0), 1)
	}
	return math.Hypot(p.X-(a.X+t*dx), p.Z-(a.Z+t*dz))
}

// Guard is a hostile mob that keeps work away from a place: the place, or
// the straight way from the bot to it, lies within the mob's follow range.
type Guard struct {
	Mob world.Entity
	// Dist is how far the mob is from the way to the place.
	Dist float64
	// Range is the mob's follow range.
	Range float64
}

// Guarded returns the hostile mob nearest the straight way from the bot's
// feet to a place, among those the way leads towards within their follow
// range (config/mobs.yaml follow_range: the followRange attribute, how
// far a mob sees a player to chase; 1.7.10 EntityAINearestAttackableTarget
// and EntityAIAttackOnCollide: zombie 40, skeleton, creeper and spider
// 16): the way passes within that range of the mob and nearer to it than
// the bot stands now, so a walk there would bring it on (a creeper comes
// and swells, a skeleton shoots, and the defend reflex ends the work to
// flee or fight). A way that leads away from a mob the bot is already
// within range of is not guarded by it. Neutral mobs (a spider by day in
// the open, a farm animal) and mobs outside the table guard nothing.
func Guarded(w *world.Snapshot, mobs *rules.Mobs, to world.BlockPos) (Guard, bool) {
	at := world.Vec3{X: float64(to.X) + 0.5, Y: float64(to.Y), Z: float64(to.Z) + 0.5}
	var g Guard
	found := false
	for _, e := range w.Entities {
		if e.Kind != world.EntityMob {
			continue
		}
		k, ok := mobs.Kind(e.Name)
		if !ok || Neutral(mobs, w, e) { // Neutral: a farm animal too
			continue
		}
		now := math.Hypot(e.Pos.X-w.Player.Pos.X, e.Pos.Z-w.Player.Pos.Z)
		if d := FromWay(e.Pos, w.Player.Pos, at); d <= k.FollowRange && d < now-1e-9 && (!found || d < g.Dist) {
			g, found = Guard{Mob: e, Dist: d, Range: k.FollowRange}, true
		}
	}
	return g, found
}
