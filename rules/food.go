package rules

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// FoodStats are the constants of the food bar (FoodStats in 1.7.10 with
// Hunger Overhaul's rules as GTNH configures them; each is cited in
// config/food.yaml).
type FoodStats struct {
	MaxFood            int
	StartSaturation    float64
	ExhaustionPerPoint float64
	TickPeriod         int
	RegenMinFood       int
	// RegenLowHealth and RegenLowHealthPower make the regeneration
	// period grow with the health missing: TickPeriod × (missing ×
	// RegenLowHealth + 1)^RegenLowHealthPower.
	RegenLowHealth      float64
	RegenLowHealthPower float64
	// Eating gives the Well Fed effect for (hunger ×
	// WellFedPerHunger)^WellFedPower ticks when that reaches
	// WellFedMinTicks; while it lasts the regeneration period is
	// multiplied by WellFedRegen.
	WellFedPerHunger float64
	WellFedPower     float64
	WellFedMinTicks  int
	WellFedRegen     float64
	RegenHealth      float64
	RegenExhaustion  float64
	StarveDamage     float64
	// StarveMinHealth: starvation stops hurting at this health (normal
	// difficulty).
	StarveMinHealth float64
	// SprintMinFood: at this food level or below the player cannot
	// sprint.
	SprintMinFood int
	MaxHealth     float64
	// Eating one item takes its hunger × EatTicksPerHunger + EatTicks
	// ticks (see EatTicksOf).
	EatTicks          int
	EatTicksPerHunger int
}

// Exhaustion is what each action adds to the exhaustion level.
type Exhaustion struct {
	WalkPerMetre, SprintPerMetre, SwimPerMetre float64
	Jump, SprintJump                           float64
	BreakBlock, Attack, Damage                 float64
	// UnblockableDamage is what a hit from a source that bypasses
	// armour adds (drowning, burning, falling, starving).
	UnblockableDamage float64
}

// FoodItem is what eating one item gives back.
type FoodItem struct {
	Item game.ItemMatcher
	// Hunger is the food points restored, Saturation the modifier:
	// eating adds Hunger × Saturation × 2 to the saturation.
	Hunger     int
	Saturation float64
}

// Food is the food bar's rules and the food items (config/food.yaml).
type Food struct {
	Stats      FoodStats
	Exhaustion Exhaustion
	foods      []FoodItem
}

var (
	foodStatsKeys = []string{"max_food", "start_saturation", "exhaustion_per_point", "tick_period",
		"regen_min_food", "regen_low_health", "regen_low_health_power", "well_fed_per_hunger",
		"well_fed_power", "well_fed_min_ticks", "well_fed_regen", "regen_health", "regen_exhaustion",
		"starve_damage", "starve_min_health", "sprint_min_food", "max_health", "eat_ticks",
		"eat_ticks_per_hunger"}
	exhaustionKeys = []string{"walk_per_metre", "sprint_per_metre", "swim_per_metre", "jump",
		"sprint_jump", "break_block", "attack", "damage", "unblockable_damage"}
)

// ParseFood reads a food data file (see config/food.yaml). Every field is
// required; numbers must be finite and within their ranges.
func ParseFood(file string, data []byte) (*Food, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	f := &Food{}
	top := d.Mapping(root, "", []string{"stats", "exhaustion", "foods"})
	d.Require(root, "", top, "stats", "exhaustion", "foods")
	num := func(fields map[string]strictyaml.Field, path, key string, lo, hi float64) float64 {
		v, _ := d.FloatIn(fields, path, key, lo, hi)
		return v
	}
	integer := func(fields map[string]strictyaml.Field, path, key string, lo, hi int) int {
		v, _ := d.IntIn(fields, path, key, lo, hi)
		return v
	}
	if n, ok := top["stats"]; ok {
		sf := d.Mapping(n.Value, "stats", foodStatsKeys)
		d.Require(n.Value, "stats", sf, foodStatsKeys...)
		s := &f.Stats
		s.MaxFood = integer(sf, "stats", "max_food", 1, 1000)
		s.StartSaturation = num(sf, "stats", "start_saturation", 0, 1000)
		s.ExhaustionPerPoint = num(sf, "stats", "exhaustion_per_point", 0.001, 1000)
		s.TickPeriod = integer(sf, "stats", "tick_period", 1, 1<<20)
		s.RegenMinFood = integer(sf, "stats", "regen_min_food", 0, 1000)
		s.RegenLowHealth = num(sf, "stats", "regen_low_health", 0, 1)
		s.RegenLowHealthPower = num(sf, "stats", "regen_low_health_power", 0, 3)
		s.WellFedPerHunger = num(sf, "stats", "well_fed_per_hunger", 0, 1000)
		s.WellFedPower = num(sf, "stats", "well_fed_power", 0, 2)
		s.WellFedMinTicks = integer(sf, "stats", "well_fed_min_ticks", 0, 1<<20)
		s.WellFedRegen = num(sf, "stats", "well_fed_regen", 0.01, 100)
		s.RegenHealth = num(sf, "stats", "regen_health", 0, 1000)
		s.RegenExhaustion = num(sf, "stats", "regen_exhaustion", 0, 1000)
		s.StarveDamage = num(sf, "stats", "starve_damage", 0, 1000)
		s.StarveMinHealth = num(sf, "stats", "starve_min_health", 0, 1000)
		s.SprintMinFood = integer(sf, "stats", "sprint_min_food", 0, 1000)
		s.MaxHealth = num(sf, "stats", "max_health", 1, 1000)
		s.EatTicks = integer(sf, "stats", "eat_ticks", 1, 1<<20)
		s.EatTicksPerHunger = integer(sf, "stats", "eat_ticks_per_hunger", 0, 1<<10)
		if _, ok := sf["start_saturation"]; ok && s.MaxFood > 0 && s.StartSaturation > float64(s.MaxFood) {
			d.Errorf(sf["start_saturation"].Value, "stats.start_saturation", "must not exceed max_food (%d), got %g", s.MaxFood, s.StartSaturation)
		}
		for _, k := range []string{"regen_min_food", "sprint_min_food"} {
			if v, ok := sf[k]; ok && s.MaxFood > 0 && integer(sf, "stats", k, 0, 1000) > s.MaxFood {
				d.Errorf(v.Value, "stats."+k, "must not exceed max_food (%d)", s.MaxFood)
			}
		}
	}
	if n, ok := top["exhaustion"]; ok {
		ef := d.Mapping(n.Value, "exhaustion", exhaustionKeys)
		d.Require(n.Value, "exhaustion", ef, exhaustionKeys...)
		e := &f.Exhaustion
		for key, dst := range map[string]*float64{"walk_per_metre": &e.WalkPerMetre, "sprint_per_metre": &e.SprintPerMetre,
			"swim_per_metre": &e.SwimPerMetre, "jump": &e.Jump, "sprint_jump": &e.SprintJump,
			"break_block": &e.BreakBlock, "attack": &e.Attack, "damage": &e.Damage,
			"unblockable_damage": &e.UnblockableDamage} {
			*dst = num(ef, "exhaustion", key, 0, 100)
		}
	}
	if n, ok := top["foods"]; ok {
		seen := map[string]string{}
		for i, c := range d.Sequence(n.Value, "foods") {
			path := strictyaml.Index("foods", i)
			ff := d.Mapping(c, path, []string{"item", "hunger", "saturation"})
			d.Require(c, path, ff, "item", "hunger", "saturation")
			var fi FoodItem
			valid := true
			if v, ok := ff["item"]; ok {
				fi.Item, valid = decodeMatcher(d, v, path+".item")
				if valid {
					key := fi.Item.String()
					if first, dup := seen[key]; dup {
						d.Errorf(v.Value, path+".item", "%s is listed twice (first at %s)", key, first)
					}
					seen[key] = path
				}
			}
			fi.Hunger = integer(ff, path, "hunger", 1, 1000)
			fi.Saturation = num(ff, path, "saturation", 0, 100)
			if valid {
				f.foods = append(f.foods, fi)
			}
		}
	}
	if err := d.Err(); err != nil {
		d.Errs.Sort()
		return nil, d.Errs
	}
	return f, nil
}

// loadFood parses the shipped table (config/food.yaml).
func loadFood() *Food {
	return loadShipped("food.yaml", ParseFood)
}

// Of returns what eating a stack's item gives, if it is a food.
func (f *Food) Of(st game.ItemStack) (FoodItem, bool) {
	if st.Empty() {
		return FoodItem{}, false
	}
	for _, fi := range f.foods {
		if fi.Item.Matches(st) {
			return fi, true
		}
	}
	return FoodItem{}, false
}

// All returns every food, in file order.
func (f *Food) All() []FoodItem { return append([]FoodItem(nil), f.foods...) }

// EatTicksOf is how long eating one item takes (Hunger Overhaul's
// modifyFoodEatingSpeed: hunger × 8 + 8 ticks).
func (f *Food) EatTicksOf(fi FoodItem) int {
	return fi.Hunger*f.Stats.EatTicksPerHunger + f.Stats.EatTicks
}

// WellFedTicks is how long eating fi gives the Well Fed effect (0: none):
// (int)(hunger × 100)^1.2, when that is at least 30.
func (f *Food) WellFedTicks(fi FoodItem) int64 {
	d := int64(math.Pow(float64(fi.Hunger)*f.Stats.WellFedPerHunger, f.Stats.WellFedPower))
	if d < int64(f.Stats.WellFedMinTicks) {
		return 0
	}
	return d
}

// RegenPeriod is the ticks between two regenerated points of health for a
// player at health with the Well Fed effect or not (Hunger Overhaul's
// onHealthRegenTick on normal difficulty: round(80 × wellFed × (missing ×
// 0.05 + 1)^1.5), computed in float as Java does).
func (f *Food) RegenPeriod(health float64, wellFed bool) int {
	s := f.Stats
	low := float32(s.MaxHealth-health) * float32(s.RegenLowHealth)
	low = float32(math.Pow(float64(low+1), s.RegenLowHealthPower))
	wf := float32(1)
	if wellFed {
		wf = float32(s.WellFedRegen)
	}
	// Math.round(float) is floor(x + 0.5).
	return int(math.Floor(float64(float32(s.TickPeriod)*wf*low) + 0.5))
}

// Eat is FoodStats.addStats: the food level and saturation after eating
// one item.
func (f *Food) Eat(food int, saturation float64, fi FoodItem) (int, float64) {
	food = min(food+fi.Hunger, f.Stats.MaxFood)
	saturation = min(saturation+float64(fi.Hunger)*fi.Saturation*2, float64(food))
	return food, saturation
}

// maxExhaustion caps the exhaustion level (FoodStats.addExhaustion:
// Math.min(foodExhaustionLevel + exhaustion, 40.0F)).
const maxExhaustion = 40.0

// Hunger is one player's food bar and health as FoodStats.onUpdate keeps
// them, tick by tick (normal difficulty, natural regeneration on).
type Hunger struct {
	Food       int
	Saturation float64
	Exhaustion float64
	Health     float64
	// WellFed is the ticks left of the Well Fed effect.
	WellFed int64
	// regen and starve count ticks towards the next regeneration and the
	// next starvation hurt (AppleCore keeps the two timers apart).
	regen, starve int
}

// NewHunger is a player's food bar with the given food level and health
// and the starting saturation (capped at the food level).
func (f *Food) NewHunger(food int, health float64) Hunger {
	food = max(0, min(food, f.Stats.MaxFood))
	return Hunger{Food: food, Saturation: min(f.Stats.StartSaturation, float64(food)), Health: health}
}

// Exhaust adds exhaustion (EntityPlayer.addExhaustion), capped at 40.
func (f *Food) Exhaust(h *Hunger, x float64) {
	if x > 0 {
		h.Exhaustion = min(h.Exhaustion+x, maxExhaustion)
	}
}

// Feed applies one eaten food item (FoodStats.addStats) and adds its Well
// Fed time to what is left of the effect.
func (f *Food) Feed(h *Hunger, fi FoodItem) {
	h.Food, h.Saturation = f.Eat(h.Food, h.Saturation, fi)
	if d := f.WellFedTicks(fi); d > 0 {
		h.WellFed += d
	}
}

// Tick runs n ticks of FoodStats.onUpdate over h: exhaustion turns into
// lost saturation and then lost food, a hurt player with food enough heals
// (faster while Well Fed), a starving one is hurt while above
// StarveMinHealth. It returns the health lost to starvation. A bar that can
// no longer change stops the loop early, so a long wait costs little.
func (f *Food) Tick(h *Hunger, n int64) (starved float64) {
	s := f.Stats
	for ; n > 0; n-- {
		// Potions count down before FoodStats.onUpdate runs
		// (EntityLivingBase.updatePotionEffects in super.onUpdate), and an
		// effect counted down to 0 is gone.
		h.WellFed = max(h.WellFed-1, 0)
		wellFed := h.WellFed > 0
		if h.Exhaustion >= s.ExhaustionPerPoint {
			h.Exhaustion -= s.ExhaustionPerPoint
			if h.Saturation > 0 {
				h.Saturation = max(h.Saturation-1, 0)
			} else {
				h.Food = max(h.Food-1, 0)
			}
		}
		canHeal := h.Food >= s.RegenMinFood && h.Health > 0 && h.Health < s.MaxHealth
		if canHeal {
			h.regen++
			if h.regen >= f.RegenPeriod(h.Health, wellFed) {
				h.Health = min(h.Health+s.RegenHealth, s.MaxHealth)
				f.Exhaust(h, s.RegenExhaustion)
				h.regen = 0
			}
		} else {
			h.regen = 0
		}
		canStarve := h.Food <= 0 && h.Health > s.StarveMinHealth
		if h.Food <= 0 {
			h.starve++
			if h.starve >= s.TickPeriod {
				if canStarve {
					hurt := min(s.StarveDamage, h.Health)
					h.Health -= hurt
					starved += hurt
				}
				h.starve = 0
			}
		} else {
			h.starve = 0
		}
		if !canHeal && !canStarve && h.Exhaustion < s.ExhaustionPerPoint {
			// Nothing can change any more until the player acts or eats;
			// the Well Fed effect runs out all the same.
			h.regen, h.starve = 0, 0
			h.WellFed = max(h.WellFed-(n-1), 0)
			break
		}
	}
	return starved
}
