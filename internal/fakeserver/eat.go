package fakeserver

import (
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// eatState is a food item being eaten: the hotbar slot it is held in and
// the ticks left (EntityPlayer.itemInUseCount).
type eatState struct {
	held int
	left int
}

// startEatingLocked starts eating the held item when it is a food and the
// player needs food (ItemFood.onItemRightClick: canEat(false), i.e. food
// below the full bar); otherwise using it in the air does nothing here.
func (c *conn) startEatingLocked() {
	food := rules.Default().Food
	sl, name := c.heldLocked()
	if name == "" || c.food >= food.Stats.MaxFood {
		return
	}
	fi, ok := food.Of(world.NewStack(name, int(sl.Damage), int(sl.Count)))
	if !ok {
		return
	}
	// Hunger Overhaul's eating time: hunger × 8 + 8 ticks.
	c.eating = &eatState{held: c.held, left: food.EatTicksOf(fi)}
}

// eatTickLocked counts an item being eaten down by one tick; on the last
// one the item is eaten (EntityPlayer.onItemUseFinish → ItemFood.
// onEaten → FoodStats.addStats): one fewer in the slot, the food level and
// saturation raised, both sent. Changing the held slot or losing the item
// stops eating, as clearItemInUse does.
func (c *conn) eatTickLocked(out *outbox) {
	e := c.eating
	if e == nil {
		return
	}
	sl, name := c.heldLocked()
	food := rules.Default().Food
	fi, ok := food.Of(world.NewStack(name, int(sl.Damage), int(sl.Count)))
	if e.held != c.held || !ok {
		c.eating = nil
		return
	}
	if e.left--; e.left > 0 {
		return
	}
	c.eating = nil
	c.food, c.saturation = food.Eat(c.food, c.saturation, fi)
	slot := hotbarFirst + c.held
	if c.inv[slot].Count--; c.inv[slot].Count <= 0 {
		c.inv[slot] = proto17.Slot{}
	}
	out.to(c, StageNone, &proto17.SetSlot{WindowID: 0, Slot: int16(slot), Item: c.inv[slot]})
	out.to(c, StageNone, &proto17.UpdateHealth{Health: float32(c.health), Food: int16(c.food), Saturation: float32(c.saturation)})
}
