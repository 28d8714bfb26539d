package main

import (
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// survivalConfig is the survival section of the config file: the reflexes
// that preempt the plan (docs/survival.md). Each is on by default.
//
//	survival:
//	  eat: {enabled: true, threshold: 6, heal_below: 14}   # eat at food 6 or less, or hurt under 14 and food under 8
//	  defend: {enabled: true, range: 8, flee_health: 8, min_weapon_damage: 4, interrupt: true}
//	  shelter: {enabled: true, from: 12000, until: 23500}
//	  unstuck: {enabled: true, seconds: 30, distance: 5}
//	  recover: {enabled: true}
//	  escape: {enabled: true, air: 150}
//	  cook: {enabled: true}
//	  hunt: {enabled: true, radius: 32, min_health: 16}
type survivalConfig struct {
	Escape  escapeReflexConfig
	Eat     eatReflexConfig
	Defend  defendReflexConfig
	Shelter shelterReflexConfig
	Unstuck unstuckReflexConfig
	// RecoverOff turns the recover reflex off.
	RecoverOff bool
	// CookOff turns the cook reflex off.
	CookOff bool
	Hunt    huntReflexConfig
}

// huntReflexConfig: Off turns the hunt reflex off; Radius and MinHealth,
// when set, replace loop.DefaultHuntRadius and DefaultHuntHealth.
type huntReflexConfig struct {
	Off               bool
	Radius, MinHealth *int
}

// defendReflexConfig: Off turns the defend reflex off; the others, when
// set, replace loop.DefaultDefendRange, DefaultFleeHealth and
// DefaultMinWeaponDamage. NoInterrupt lets steps run to their end
// whatever mob comes near (the loop's Guard off).
type defendReflexConfig struct {
	Off, NoInterrupt                bool
	Range, FleeHealth, MinWeaponDmg *int
}

// shelterReflexConfig: Off turns the shelter reflex off; From and Until,
// when set, replace loop.DefaultShelterFrom and DefaultShelterUntil.
type shelterReflexConfig struct {
	Off         bool
	From, Until *int
}

// escapeReflexConfig: Off turns the escape reflex off; Air, when set, is
// the air supply at or below which it leaves water
// (loop.DefaultEscapeAir otherwise).
type escapeReflexConfig struct {
	Off bool
	Air *int
}

// eatReflexConfig: Off turns the eat reflex off; Threshold, when set, is
// the food level at or below which it eats (loop.DefaultEatThreshold
// otherwise); HealBelow, when set, the health under which it eats to heal
// (loop.DefaultEatHealBelow otherwise).
type eatReflexConfig struct {
	Off                  bool
	Threshold, HealBelow *int
}

// unstuckReflexConfig: Off turns the unstuck reflex off; Seconds and
// Distance, when not zero, replace loop.DefaultUnstuckSeconds and
// loop.DefaultUnstuckDistance.
type unstuckReflexConfig struct {
	Off      bool
	Seconds  int
	Distance int
}

// decodeSurvival reads the survival section.
func decodeSurvival(d *strictyaml.Decoder, f strictyaml.Field, cfg *survivalConfig) {
	s := d.Mapping(f.Value, "survival", []string{"eat", "defend", "shelter", "unstuck", "recover", "escape", "cook", "hunt"})
	enabled := func(m map[string]strictyaml.Field, path string, off *bool) {
		if b, ok := m["enabled"]; ok {
			if on, ok := d.Bool(b.Value, path+".enabled"); ok {
				*off = !on
			}
		}
	}
	if v, ok := s["eat"]; ok {
		e := d.Mapping(v.Value, "survival.eat", []string{"enabled", "threshold", "heal_below"})
		enabled(e, "survival.eat", &cfg.Eat.Off)
		var n int
		intIn(d, e, "survival.eat", "threshold", 0, 19, &n)
		if _, ok := e["threshold"]; ok {
			cfg.Eat.Threshold = &n
		}
		var h int
		intIn(d, e, "survival.eat", "heal_below", 0, 20, &h)
		if _, ok := e["heal_below"]; ok {
			cfg.Eat.HealBelow = &h
		}
	}
	opt := func(m map[string]strictyaml.Field, path, key string, lo, hi int, dst **int) {
		if _, ok := m[key]; ok {
			var n int
			intIn(d, m, path, key, lo, hi, &n)
			*dst = &n
		}
	}
	if v, ok := s["defend"]; ok {
		m := d.Mapping(v.Value, "survival.defend", []string{"enabled", "range", "flee_health", "min_weapon_damage", "interrupt"})
		enabled(m, "survival.defend", &cfg.Defend.Off)
		if b, ok := m["interrupt"]; ok {
			if on, ok := d.Bool(b.Value, "survival.defend.interrupt"); ok {
				cfg.Defend.NoInterrupt = !on
			}
		}
		opt(m, "survival.defend", "range", 1, 32, &cfg.Defend.Range)
		opt(m, "survival.defend", "flee_health", 0, 20, &cfg.Defend.FleeHealth)
		opt(m, "survival.defend", "min_weapon_damage", 0, 100, &cfg.Defend.MinWeaponDmg)
	}
	if v, ok := s["shelter"]; ok {
		m := d.Mapping(v.Value, "survival.shelter", []string{"enabled", "from", "until"})
		enabled(m, "survival.shelter", &cfg.Shelter.Off)
		opt(m, "survival.shelter", "from", 0, 23999, &cfg.Shelter.From)
		opt(m, "survival.shelter", "until", 0, 23999, &cfg.Shelter.Until)
		if cfg.Shelter.From != nil && cfg.Shelter.Until != nil && *cfg.Shelter.From == *cfg.Shelter.Until {
			d.Errorf(m["until"].Value, "survival.shelter.until", "must differ from from (%d): the night would be empty", *cfg.Shelter.From)
		}
	}
	if v, ok := s["unstuck"]; ok {
		u := d.Mapping(v.Value, "survival.unstuck", []string{"enabled", "seconds", "distance"})
		enabled(u, "survival.unstuck", &cfg.Unstuck.Off)
		intIn(d, u, "survival.unstuck", "seconds", 1, 3600, &cfg.Unstuck.Seconds)
		intIn(d, u, "survival.unstuck", "distance", 2, 16, &cfg.Unstuck.Distance)
	}
	if v, ok := s["escape"]; ok {
		m := d.Mapping(v.Value, "survival.escape", []string{"enabled", "air"})
		enabled(m, "survival.escape", &cfg.Escape.Off)
		opt(m, "survival.escape", "air", 0, 300, &cfg.Escape.Air)
	}
	if v, ok := s["cook"]; ok {
		enabled(d.Mapping(v.Value, "survival.cook", []string{"enabled"}), "survival.cook", &cfg.CookOff)
	}
	if v, ok := s["recover"]; ok {
		enabled(d.Mapping(v.Value, "survival.recover", []string{"enabled"}), "survival.recover", &cfg.RecoverOff)
	}
	if v, ok := s["hunt"]; ok {
		m := d.Mapping(v.Value, "survival.hunt", []string{"enabled", "radius", "min_health"})
		enabled(m, "survival.hunt", &cfg.Hunt.Off)
		opt(m, "survival.hunt", "radius", 1, 64, &cfg.Hunt.Radius)
		opt(m, "survival.hunt", "min_health", 1, 20, &cfg.Hunt.MinHealth)
	}
}

// reflexes are the loop's reflexes as the section sets them, in the order
// they are asked: leaving lava and water first (lava kills in 2.5 s),
// then cooking raw food (at the eat threshold, before it is eaten raw),
// then eating (it takes 32 ticks and fixes what it
// fires for), then dealing with a mob near (before walling in: a pit dug
// beside a zombie is no shelter), then going back for what a death dropped
// (the items last five minutes, less than a night), then the night's hunt
// the plan waits for (before walling in: the mob is out there), then the
// night's shelter, then getting unstuck. The recover and unstuck reflexes remember
// between steps, so each call makes new ones: call it once per run.
func (s survivalConfig) reflexes() []loop.Reflex {
	var out []loop.Reflex
	if !s.Escape.Off {
		a := loop.DefaultEscapeAir
		if s.Escape.Air != nil {
			a = *s.Escape.Air
		}
		out = append(out, loop.EscapeReflex{Air: a})
	}
	eatAt := loop.DefaultEatThreshold
	if s.Eat.Threshold != nil {
		eatAt = *s.Eat.Threshold
	}
	if !s.CookOff {
		out = append(out, loop.CookReflex{Threshold: eatAt})
	}
	if !s.Eat.Off {
		healBelow := loop.DefaultEatHealBelow
		if s.Eat.HealBelow != nil {
			healBelow = *s.Eat.HealBelow
		}
		out = append(out, loop.EatReflex{Threshold: eatAt, HealBelow: float64(healBelow)})
	}
	val := func(p *int, def int) int {
		if p != nil {
			return *p
		}
		return def
	}
	if !s.Defend.Off {
		out = append(out, loop.DefendReflex{
			Range:           float64(val(s.Defend.Range, loop.DefaultDefendRange)),
			FleeHealth:      float64(val(s.Defend.FleeHealth, loop.DefaultFleeHealth)),
			MinWeaponDamage: float64(val(s.Defend.MinWeaponDmg, loop.DefaultMinWeaponDamage)),
		})
	}
	if !s.RecoverOff {
		out = append(out, &loop.RecoverReflex{})
	}
	if !s.Hunt.Off {
		out = append(out, &loop.HuntReflex{
			Radius:    float64(val(s.Hunt.Radius, loop.DefaultHuntRadius)),
			MinHealth: float64(val(s.Hunt.MinHealth, loop.DefaultHuntHealth)),
		})
	}
	if !s.Shelter.Off {
		out = append(out, &loop.ShelterReflex{From: int64(val(s.Shelter.From, loop.DefaultShelterFrom)), Until: int64(val(s.Shelter.Until, loop.DefaultShelterUntil))})
	}
	if !s.Unstuck.Off {
		u := &loop.UnstuckReflex{Seconds: loop.DefaultUnstuckSeconds, Distance: loop.DefaultUnstuckDistance}
		if s.Unstuck.Seconds != 0 {
			u.Seconds = s.Unstuck.Seconds
		}
		if s.Unstuck.Distance != 0 {
			u.Distance = s.Unstuck.Distance
		}
		out = append(out, u)
	}
	return out
}

// guard is the loop's guard: with the defend reflex on and its interrupt
// not turned off, a hostile mob within the defend range ends a step early
// (loop.Config.Guard), so the reflex deals with it; otherwise none.
func (s survivalConfig) guard() ipc.Guard {
	if s.Defend.Off || s.Defend.NoInterrupt {
		return ipc.Guard{}
	}
	r := loop.DefaultDefendRange
	if s.Defend.Range != nil {
		r = *s.Defend.Range
	}
	return ipc.Guard{Range: float64(r)}
}
