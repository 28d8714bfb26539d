package gtnh

import (
	"context"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// ChestClientForTest is a client of the scripted test server (over a pipe)
// whose world has a chest of ten logs at the returned position, opening its
// window when right-clicked and accepting every click; tap sees the
// session. External tests (package gtnh_test) use it.
func ChestClientForTest(t *testing.T, tap Tap) (*Client, world.BlockPos) {
	chest := world.Pos(-6, 64, -8) // the block confirmClicks answers
	n := newPipeNet(t, playScript(gtnhLogin(map[world.BlockPos][2]int{chest: {idPlanks, 0}}), func(sc *serverConn) {
		confirmClicks(sc, nil)
	}))
	return testClient(t, n, func(cfg *Config) {
		cfg.Mods = testMods
		cfg.Tap = tap
	}), chest
}

// CraftClientForTest is a client of the scripted test server with three
// logs in its hotbar whose 2×2 grid makes planks as the server does (the
// result slot shows two planks while logs lie in the grid, and is emptied
// when the last is used).
func CraftClientForTest(t *testing.T, tap Tap) *Client {
	n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
		items := make([]proto17.Slot, 45)
		items[36] = proto17.Slot{ID: idLog, Count: 3}
		sc.send(&proto17.WindowItems{WindowID: 0, Items: items})
		grid := 0
		confirmClicks(sc, func(p *proto17.ClickWindow) {
			switch {
			case p.WindowID == 0 && p.Slot >= 1 && p.Slot <= 4 && p.Button == 1:
				grid++
				sc.send(&proto17.SetSlot{WindowID: 0, Slot: 0, Item: proto17.Slot{ID: idPlanks, Count: 2}})
			case p.WindowID == 0 && p.Slot == 0:
				grid--
				if grid > 0 {
					sc.send(&proto17.SetSlot{WindowID: 0, Slot: 0, Item: proto17.Slot{ID: idPlanks, Count: 2}})
				} else {
					sc.send(&proto17.SetSlot{WindowID: 0, Slot: 0})
				}
			}
		})
	}))
	return testClient(t, n, func(cfg *Config) {
		cfg.Mods = testMods
		cfg.Tap = tap
	})
}

// EquipClientForTest is a client of the scripted test server with an iron
// axe in the first slot of its main inventory (not the hotbar) and logs in
// the fourth hotbar slot; the server accepts every click.
func EquipClientForTest(t *testing.T, tap Tap) *Client {
	n := newPipeNet(t, playScript(gtnhLogin(nil), func(sc *serverConn) {
		items := make([]proto17.Slot, 45)
		items[9] = proto17.Slot{ID: idAxe, Count: 1}
		items[39] = proto17.Slot{ID: idLog, Count: 5}
		sc.send(&proto17.WindowItems{WindowID: 0, Items: items})
		confirmClicks(sc, nil)
	}))
	return testClient(t, n, func(cfg *Config) {
		cfg.Mods = testMods
		cfg.Tap = tap
	})
}

// Eventually is eventually for external tests: it polls cond in the
// bubble's time until it holds.
func Eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	eventually(t, what, cond)
}

// RawClicker sends window clicks with the stack the test says the slot
// holds (no prediction), waits for the server's Confirm Transaction and
// reports whether the click was accepted. External tests use it to make
// the client claim what the server does not show.
func RawClicker(c *Client) func(window uint8, slot int, button int8, clicked proto17.Slot) bool {
	return func(window uint8, slot int, button int8, clicked proto17.Slot) bool {
		c.mu.Lock()
		s := c.sess
		s.actionNum++
		key := confirmKey{window, s.actionNum}
		pending := s.expectConfirm(key)
		c.mu.Unlock()
		if err := c.send(s, &proto17.ClickWindow{WindowID: window, Slot: int16(slot), Button: button, Action: key.action, Mode: 0, Clicked: clicked}); err != nil {
			return false
		}
		if err := c.waitFor(context.Background(), s, func() bool { return pending.answered }); err != nil {
			return false
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		return pending.accepted
	}
}

// RawAttack sends Use Entity with the attack action for the entity, as
// the vanilla client's left click does (after its arm swing).
func RawAttack(c *Client, entity int32) error {
	c.mu.Lock()
	s := c.sess
	self := s.entityID
	c.mu.Unlock()
	if err := c.send(s, &proto17.Animation{EntityID: self, Animation: proto17.AnimationSwingArm}); err != nil {
		return err
	}
	return c.send(s, &proto17.UseEntity{Target: entity, Action: proto17.UseEntityAttack})
}
