package gtnh_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func pigs(c *gtnh.Client) []world.Entity {
	var out []world.Entity
	for _, e := range c.State().Snapshot().EntitiesOfKind(world.EntityMob) {
		if e.Name == "pig" {
			out = append(out, e)
		}
	}
	return out
}

// TestKillAPigLive: by day the test server's pig is there from the start
// (Spawn Mob type 90, 10 health) and stands still. Two fight steps of the
// loop with the iron axe (6 a hit) kill it: the server sends its death
// (Entity Status 3), the client's world loses it, and the loop counts the
// kill from that, in the step whose look no longer shows it — not from
// the attack's answer; the first step, which only hurt it, counts none.
func TestKillAPigLive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, err := fakeserver.New(fakeserver.Options{Addr: fakeserver.MemoryAddr(), TickDuration: liveTick, StartTime: 1000,
			Mobs:  []fakeserver.Mob{{Kind: "pig", X: 10.5, Y: 64, Z: 8.5}},
			Trees: []fakeserver.Tree{}, Blocks: []fakeserver.Block{}, Logf: t.Logf})
		require.NoError(t, err)
		t.Cleanup(srv.Close)
		c := joinLive(t, srv)
		gtnh.Eventually(t, "the pig", func() bool { return len(pigs(c)) == 1 })
		p := pigs(c)[0]
		assert.Equal(t, 10.0, p.Health, "EntityPig's 10 health, from the Spawn Mob metadata")
		waitTicks(t, srv, 40)
		assert.Equal(t, p.Pos, pigs(c)[0].Pos, "it stands where it is")
		assert.Equal(t, 20.0, c.State().Snapshot().Player.Health, "and hurts nobody")

		reg, err := registry.LoadConfig(config.FS, registry.Options{})
		require.NoError(t, err)
		require.NoError(t, reg.RegisterProvided())
		require.NoError(t, reg.Finalize())
		goal, err := loop.ParseGoal("kill 1 pig", reg.Tiers())
		require.NoError(t, err)
		l, err := loop.New(context.Background(), loop.Config{Registry: reg, Conn: ipc.InProcess(c), Goal: goal})
		require.NoError(t, err)
		fight := loop.Invocation{Skill: "fight", Params: map[string]any{"entity": p.ID}}
		rec, err := l.Step(context.Background(), fight)
		require.NoError(t, err)
		assert.Empty(t, rec.Kills, "hurt, not killed: %s", rec.Error)
		waitTicks(t, srv, 11)
		rec, err = l.Step(context.Background(), fight)
		require.NoError(t, err)
		gtnh.Eventually(t, "the pig gone from the client's world", func() bool { return len(pigs(c)) == 0 })
		obs, err := l.Observe(context.Background())
		require.NoError(t, err)
		assert.True(t, obs.Progress.Met, "the kill is seen: %v (step: %v)", obs.Progress.Unmet, rec.Kills)
		var mine []fakeserver.Hit
		for _, h := range srv.Hits() {
			if h.Attacker == "Bot" {
				mine = append(mine, h)
			}
		}
		require.Len(t, mine, 2)
		assert.Equal(t, []float64{4, 0}, []float64{mine[0].HealthAfter, mine[1].HealthAfter})
		gtnh.Eventually(t, "its porkchops on the ground", func() bool {
			for _, e := range c.State().Snapshot().EntitiesOfKind(world.EntityItem) {
				if e.Item != nil && e.Item.ID == "minecraft:porkchop" {
					return true
				}
			}
			return false
		})
		assert.Empty(t, srv.Refusals())
	})
}
