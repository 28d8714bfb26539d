package fakeserver

import (
	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

// Coke oven slots (ContainerCokeOven: 0 input, 1 output).
const (
	cokeInput  = 0
	cokeOutput = 1
)

// cokeOvenTickLocked is one TileCokeOven.updateEntity of a formed oven's
// master (Railcraft 9.16.33), by the shared coke oven table
// (config/coke_oven.yaml), as the simulator runs it: on every tick of the
// world clock divisible by the table's cook step, an input with a recipe,
// room in the output slot for the product and in the creosote tank for
// the recipe's creosote cooks one step more (cookTime += COOK_STEP_LENGTH)
// and the oven is cooking; once cookTime reaches the recipe's ticks one
// input item becomes the output, the creosote goes into the tank and
// cookTime starts again at 0 (finishedAt = clock). No room or no recipe
// stop it (cookTime 0, not cooking); with its input used up it stops
// cooking once clock > finishedAt + the cook step + 5. A change of the
// cooking flag is sent to every player as the master's tile packet
// (TileMultiBlockOven.setCooking → sendUpdateToClient); an open window on
// the oven is sent the slots that changed.
func (s *Server) cokeOvenTickLocked(out *outbox, b *box, tick int64) {
	co := rules.Default().Coke
	was := b.cooking
	defer func() {
		if b.cooking != was {
			out.all(s, StageNone, &proto17.PluginMessage{Channel: modnet.RailcraftChannel,
				Data: RailcraftCokeOven(b.pos.X, b.pos.Y, b.pos.Z, b.pos, int32(b.cookTime), b.cooking)})
		}
	}()
	if tick > b.finishedAt+int64(co.CookStep)+5 && b.cookTime <= 0 {
		b.cooking = false
	}
	if tick%int64(co.CookStep) != 0 {
		return
	}
	in := b.slots[cokeInput]
	if in.Empty() {
		b.cookTime = 0
		return
	}
	r, ok := co.Recipe(s.stackOf(in))
	if !ok {
		b.cookTime, b.cooking = 0, false
		return
	}
	res, ok := s.wireStack(r.Output, 1)
	if !ok {
		return
	}
	o := b.slots[cokeOutput]
	fits := o.Empty() || sameItemFS(o, res) && int(o.Count+1) <= maxStack(s.itemOf(0, res).Name)
	if !fits || b.creosote+r.Creosote > co.TankMB {
		b.cookTime, b.cooking = 0, false
		return
	}
	b.cookTime += co.CookStep
	b.cooking = true
	if b.cookTime < r.Ticks {
		return
	}
	b.cookTime, b.finishedAt = 0, tick
	b.slots[cokeInput].Count--
	if b.slots[cokeInput].Count <= 0 {
		b.slots[cokeInput] = proto17.Slot{}
	}
	if o.Empty() {
		b.slots[cokeOutput] = res
	} else {
		b.slots[cokeOutput].Count++
	}
	b.creosote += r.Creosote
	s.coked = append(s.coked, Crafted{Item: r.Output, Count: 1})
	for _, c := range s.conns {
		if w := c.window; w != nil && w.box == b {
			for _, i := range []int{cokeInput, cokeOutput} {
				out.to(c, StageNone, &proto17.SetSlot{WindowID: int8(w.id), Slot: int16(i), Item: b.slots[i]})
			}
		}
	}
	s.notifyLocked()
}

// Coked returns every item the coke ovens made, in order (Conn unused).
func (s *Server) Coked() []Crafted {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Crafted(nil), s.coked...)
}
