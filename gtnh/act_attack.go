package gtnh

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// attack hits an entity once as a client's left click does: it looks at
// the entity, swings the arm and sends Use Entity with the attack action
// (the order EntityRenderer and PlayerControllerMP.attackEntity use), then
// waits the hurt cooldown a mob needs before it takes a full hit again.
// The server decides the damage; the next look shows the mob's health when
// the server sends it. The entity must be known and within the survival
// reach for entities (config/mobs.yaml combat.reach).
func (x *act) attack(a action.Attack) ipc.Result {
	combat := x.c.rules.Mobs.Combat
	var e world.Entity
	found := false
	for _, en := range x.c.state.Snapshot().Entities {
		if en.ID == a.Entity {
			e, found = en, true
		}
	}
	if !found {
		return ipc.Failf(ipc.InvalidParams, 0, "no entity %d nearby", a.Entity)
	}
	if e.Kind != world.EntityMob && e.Kind != world.EntityPlayer {
		return ipc.Failf(ipc.InvalidParams, 0, "entity %d is a %s; only mobs and players can be hit", e.ID, e.Kind)
	}
	if d := math.Sqrt(x.body().eye().DistSq(e.Pos)); d > combat.Reach+1 {
		return ipc.Failf(ipc.Unreachable, 0, "entity %d is %.1f blocks away; reach is %g", e.ID, d, combat.Reach)
	}
	if err := x.look(e.Pos); err != nil {
		return x.fail(err, "looking")
	}
	if err := x.swing(); err != nil {
		return x.fail(err, "attacking")
	}
	if err := x.c.send(x.s, &proto17.UseEntity{Target: int32(e.ID), Action: proto17.UseEntityAttack}); err != nil {
		return x.fail(err, "attacking")
	}
	if err := x.c.waitTicks(x.ctx, x.s, int64(combat.HurtCooldown)); err != nil {
		return x.fail(err, "attacking")
	}
	return ipc.Result{Code: ipc.OK, Details: map[string]any{"entity": e.ID, "sent": true}}
}
