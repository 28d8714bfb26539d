package main

import (
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/loop"
)

// survivalConfig is the survival section of the config file: the reflexes
// that preempt the plan (docs/survival.md). Each is on by default.
//
//	survival:
//	  eat: {enabled: true, threshold: 6}   # eat at food 6 or less
//	  unstuck: {enabled: true, seconds: 30, distance: 5}
type survivalConfig struct {
	Eat     eatReflexConfig
	Unstuck unstuckReflexConfig
}

// eatReflexConfig: Off turns the eat reflex off; Threshold, when set, is
// the food level at or below which it eats (loop.DefaultEatThreshold
// otherwise).
type eatReflexConfig struct {
	Off       bool
	Threshold *int
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
	s := d.Mapping(f.Value, "survival", []string{"eat", "unstuck"})
	enabled := func(m map[string]strictyaml.Field, path string, off *bool) {
		if b, ok := m["enabled"]; ok {
			if on, ok := d.Bool(b.Value, path+".enabled"); ok {
				*off = !on
			}
		}
	}
	if v, ok := s["eat"]; ok {
		e := d.Mapping(v.Value, "survival.eat", []string{"enabled", "threshold"})
		enabled(e, "survival.eat", &cfg.Eat.Off)
		var n int
		intIn(d, e, "survival.eat", "threshold", 0, 19, &n)
		if _, ok := e["threshold"]; ok {
			cfg.Eat.Threshold = &n
		}
	}
	if v, ok := s["unstuck"]; ok {
		u := d.Mapping(v.Value, "survival.unstuck", []string{"enabled", "seconds", "distance"})
		enabled(u, "survival.unstuck", &cfg.Unstuck.Off)
		intIn(d, u, "survival.unstuck", "seconds", 1, 3600, &cfg.Unstuck.Seconds)
		intIn(d, u, "survival.unstuck", "distance", 2, 16, &cfg.Unstuck.Distance)
	}
}

// reflexes are the loop's reflexes as the section sets them, in the order
// they are asked: eating first (it takes 32 ticks and fixes what it
// fires for), then getting unstuck. The unstuck reflex remembers progress
// between steps, so each call makes a new one: call it once per run.
func (s survivalConfig) reflexes() []loop.Reflex {
	var out []loop.Reflex
	if !s.Eat.Off {
		t := loop.DefaultEatThreshold
		if s.Eat.Threshold != nil {
			t = *s.Eat.Threshold
		}
		out = append(out, loop.EatReflex{Threshold: t})
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
