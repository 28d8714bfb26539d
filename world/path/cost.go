package path

import (
	"fmt"
	"math"

	"github.com/gtnh-agent/gtnh-agent/rules"
)

// Costs are the durations, in game ticks (20 per second), the cost model
// charges for movement. A zero field takes the default from DefaultCosts.
//
// The defaults come from 1.7.10 player physics: walking at 4.317 blocks/s,
// swimming at about 2.2 blocks/s, gravity 0.08 blocks/tick² with 2% drag per
// tick and a jump impulse of 0.42 blocks/tick (JumpTicks, FallTicks). A move
// that changes height takes the longer of its horizontal walking time and
// its air time, since the player keeps walking while in the air:
//
//   - jump up one block: max(walk, Jump), where Jump ≈ 8.1 ticks is the air
//     time until the player lands on a block one higher;
//   - drop k blocks: WalkOff·walk (to the edge plus half the hitbox) +
//     max(FallTicks(k), (1−WalkOff)·walk);
//   - swim: Swim per block, horizontally or vertically.
//
// Diagonal moves cost √2 times the horizontal time.
type Costs struct {
	// Walk is the time to walk one block (20/4.317 ≈ 4.633).
	Walk float64
	// Swim is the time to swim one block (20/2.2 ≈ 9.091).
	Swim float64
	// Jump is the air time of a jump onto a block one higher (≈ 8.11).
	Jump float64
	// WalkOff is the fraction of a block walked before a drop starts
	// falling: half a block to the edge plus the hitbox's half-width (0.8).
	WalkOff float64
	// Place is charged per placed block (bridging, pillaring): the time to
	// place it plus a penalty for using up a block (20, as Baritone does).
	Place float64
	// Dig is the time to break a block when Options.DigTicks is nil:
	// stone with a wooden pickaxe, BreakTicks(1.5, 2, true) = 23.
	Dig float64
}

// Physics of the 1.7.10 player, per tick.
const (
	gravity   = 0.08
	drag      = 0.98
	jumpSpeed = 0.42
)

// DefaultCosts returns the cost model described on Costs.
func DefaultCosts() Costs {
	return Costs{
		Walk:    20 / 4.317,
		Swim:    20 / 2.2,
		Jump:    JumpTicks(),
		WalkOff: 0.8,
		Place:   20,
		Dig:     BreakTicks(1.5, 2, true),
	}
}

// JumpTicks is the air time, in ticks, of a standing jump that lands on a
// block one higher: the feet rise to 1.25 blocks and fall back to 1.0.
func JumpTicks() float64 {
	y, vy := 0.0, jumpSpeed
	for t := 1; t < 40; t++ {
		ny := y + vy
		vy = (vy - gravity) * drag
		if ny < 1 && y >= 1 {
			return float64(t-1) + (y-1)/(y-ny)
		}
		y = ny
	}
	panic("unreachable: a jump always lands")
}

// FallTicks is the time, in ticks, to fall the given number of blocks from
// rest (fractional: interpolated within the last tick).
func FallTicks(blocks float64) float64 {
	if blocks <= 0 {
		return 0
	}
	y, vy := 0.0, 0.0
	for t := 1; ; t++ {
		vy = (vy - gravity) * drag
		ny := y + vy
		if -ny >= blocks {
			return float64(t-1) + (blocks+y)/(y-ny)
		}
		y = ny
	}
}

// BreakTicks is the 1.7.10 time to break a block of the given hardness with
// a tool of the given mining speed (1 for a hand or the wrong tool; 2, 4, 6,
// 8, 12 for wood, stone, iron, diamond, gold), harvest telling whether the
// tool can harvest it (the break is 10/3 times slower otherwise). Hardness
// below zero (bedrock) is unbreakable: +Inf.
func BreakTicks(hardness, speed float64, harvest bool) float64 {
	return rules.BreakTicks(hardness, speed, harvest)
}

// withDefaults fills zero fields and checks the rest.
func (c Costs) withDefaults() (Costs, error) {
	d := DefaultCosts()
	fill := func(name string, v *float64, def float64) error {
		if *v == 0 {
			*v = def
		}
		if math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0 {
			return fmt.Errorf("path: Costs.%s = %v: want a finite number ≥ 0", name, *v)
		}
		return nil
	}
	for _, f := range []struct {
		name string
		v    *float64
		def  float64
	}{
		{"Walk", &c.Walk, d.Walk}, {"Swim", &c.Swim, d.Swim}, {"Jump", &c.Jump, d.Jump},
		{"WalkOff", &c.WalkOff, d.WalkOff}, {"Place", &c.Place, d.Place}, {"Dig", &c.Dig, d.Dig},
	} {
		if err := fill(f.name, f.v, f.def); err != nil {
			return c, err
		}
	}
	if c.WalkOff > 1 {
		return c, fmt.Errorf("path: Costs.WalkOff = %v: want a fraction in (0, 1]", c.WalkOff)
	}
	return c, nil
}

// milli is the fixed-point scale of search costs: integer milli-ticks make
// sums exact, so A* and exhaustive search agree to the unit.
const milli = 1000

func toMilli(ticks float64) int64 { return int64(math.Round(ticks * milli)) }

// maxDropLimit caps Options.MaxDrop.
const maxDropLimit = 16

// costTable is Costs compiled to milli-ticks for the inner loop, with the
// heuristic's per-unit lower bounds.
type costTable struct {
	walk   [2]int64 // [diagonal]
	swim   [2]int64
	jump   [2][2]int64                   // [from water][diagonal]
	drop   [2][2][maxDropLimit + 1]int64 // [from water][diagonal][blocks]
	swimV  int64                         // swim one block up or down
	pillar int64                         // jump in place and place a block below
	place  int64
	fall1  int64 // dig down: fall one block (plus the break)
	dig    int64 // default break time

	// Heuristic: hCard, hDiag per horizontal step (octile), up and down
	// per block of height, hw per block of Euclidean XZ distance.
	hCard, hDiag, up, down int64
	hw                     float64
}

func compileCosts(c Costs, maxDrop int, dig, place bool) costTable {
	var t costTable
	base := [2]float64{c.Walk, c.Swim}
	step := [2]float64{1, math.Sqrt2}
	for d := 0; d < 2; d++ {
		t.walk[d] = toMilli(c.Walk * step[d])
		t.swim[d] = toMilli(c.Swim * step[d])
		for w := 0; w < 2; w++ {
			h := base[w] * step[d]
			t.jump[w][d] = toMilli(math.Max(h, c.Jump))
			for k := 1; k <= maxDrop; k++ {
				t.drop[w][d][k] = toMilli(c.WalkOff*h + math.Max(FallTicks(float64(k)), (1-c.WalkOff)*h))
			}
		}
	}
	t.swimV = toMilli(c.Swim)
	t.place = toMilli(c.Place)
	t.pillar = toMilli(c.Jump + c.Place)
	t.fall1 = toMilli(FallTicks(1))
	t.dig = toMilli(c.Dig)

	// Every horizontal move costs at least hCard (cardinal) or hDiag
	// (diagonal); octile distance needs hCard ≤ hDiag ≤ 2·hCard.
	t.hCard = min(t.walk[0], t.swim[0])
	t.hDiag = min(t.walk[1], t.swim[1], 2*t.hCard)
	t.hDiag = max(t.hDiag, t.hCard)
	hStep := [2]int64{t.hCard, t.hDiag}
	t.hw = math.Min(float64(t.hCard), float64(t.hDiag)/math.Sqrt2)

	// Per block of height, the least any move pays beyond its horizontal
	// lower bound; floors keep the bound below every move's true cost.
	t.up = t.swimV
	t.down = t.swimV
	for w := 0; w < 2; w++ {
		for d := 0; d < 2; d++ {
			t.up = min(t.up, t.jump[w][d]-hStep[d])
			for k := 1; k <= maxDrop; k++ {
				t.down = min(t.down, (t.drop[w][d][k]-hStep[d])/int64(k))
			}
		}
	}
	if place {
		t.up = min(t.up, t.pillar)
	}
	if dig {
		t.down = min(t.down, t.fall1)
	}
	t.up = max(t.up, 0)
	t.down = max(t.down, 0)
	return t
}
