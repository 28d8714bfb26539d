package base

import (
	"fmt"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

func init() { registry.Provide(Eat{}) }

// lastResortFood is eaten only when nothing else is held: in 1.7.10
// rotten flesh gives Hunger (ItemFood.setPotionEffect(Potion.hunger.id,
// 30, 0, 0.8F): an 80 % chance), which drains the bar faster.
const lastResortFood = "minecraft:rotten_flesh"

// Eat eats one food item from the inventory (config/food.yaml): the one
// named by the food parameter, or the best fit: the food restoring the
// most that still fits under a full bar, else the smallest one; rotten
// flesh last. It emits one use_item in the air (the body eats for hunger
// × 8 + 8 ticks in GTNH). A full bar is no_target (a full player cannot eat), no food in
// the inventory missing_items.
type Eat struct {
	// Rules holds the food table (nil = the shipped set).
	Rules *rules.Set
}

var _ skills.RuleUser = Eat{}

// Name implements skills.Implementation.
func (Eat) Name() string { return "eat" }

// WithRules implements skills.RuleUser.
func (Eat) WithRules(set *rules.Set) skills.Implementation { return Eat{Rules: set} }

// SuggestActions implements skills.Implementation.
func (sk Eat) SuggestActions(w *world.Snapshot, p skills.Params) ([]action.Action, error) {
	food := rules.Default().Food
	if sk.Rules != nil {
		food = sk.Rules.Food
	}
	missing := food.Stats.MaxFood - int(w.Player.Food)
	if missing <= 0 {
		return nil, skills.Failf(skills.CodeNoTarget, "not hungry: the food bar is full (%d of %d)", int(w.Player.Food), food.Stats.MaxFood)
	}
	st, err := PickFood(food, w.Inventory, p.String("food"), missing)
	if err != nil {
		return nil, err
	}
	return []action.Action{action.UseItem{Item: fmt.Sprintf("%s:%d", st.ID, st.Meta)}}, nil
}

// PickFood chooses the stack to eat with missing food points to fill: the
// named item (an item id or ore: name) when named is not empty, else the
// best fit of the food table's items held (see Eat).
func PickFood(food *rules.Food, inv world.Inventory, named string, missing int) (world.ItemStack, error) {
	if named != "" {
		m, err := world.ParseItemMatcher(named)
		if err != nil {
			return world.ItemStack{}, skills.Failf(skills.CodeInvalidParams, "parameter \"food\": %v", err)
		}
		for _, st := range inv.Slots {
			if st.Count > 0 && m.Matches(st) {
				if _, ok := food.Of(st); !ok {
					return world.ItemStack{}, skills.Failf(skills.CodeInvalidParams, "parameter \"food\": %s is not a food the food table knows", named)
				}
				return st, nil
			}
		}
		return world.ItemStack{}, skills.Failf(skills.CodeMissingItems, "no %s in the inventory", named)
	}
	var best world.ItemStack
	bestHunger, bestLast := 0, true
	better := func(h int, last bool) bool {
		switch {
		case best.Empty():
			return true
		case last != bestLast:
			return !last
		case h <= missing && bestHunger <= missing:
			return h > bestHunger
		case h <= missing || bestHunger <= missing:
			return h <= missing
		}
		return h < bestHunger
	}
	for _, st := range inv.Slots {
		if st.Count <= 0 {
			continue
		}
		fi, ok := food.Of(st)
		if !ok {
			continue
		}
		if last := st.ID == lastResortFood; better(fi.Hunger, last) {
			best, bestHunger, bestLast = st, fi.Hunger, last
		}
	}
	if best.Empty() {
		var names []string
		for _, fi := range food.All() {
			names = append(names, fi.Item.String())
		}
		return world.ItemStack{}, skills.Failf(skills.CodeMissingItems, "no food in the inventory (foods: %s)", strings.Join(names, ", "))
	}
	return best, nil
}
