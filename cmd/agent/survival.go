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
type survivalConfig struct {
	Eat eatReflexConfig
}

// eatReflexConfig: Off turns the eat reflex off; Threshold, when set, is
// the food level at or below which it eats (loop.DefaultEatThreshold
// otherwise).
type eatReflexConfig struct {
	Off       bool
	Threshold *int
}

// decodeSurvival reads the survival section.
func decodeSurvival(d *strictyaml.Decoder, f strictyaml.Field, cfg *survivalConfig) {
	s := d.Mapping(f.Value, "survival", []string{"eat"})
	if v, ok := s["eat"]; ok {
		e := d.Mapping(v.Value, "survival.eat", []string{"enabled", "threshold"})
		if b, ok := e["enabled"]; ok {
			if on, ok := d.Bool(b.Value, "survival.eat.enabled"); ok {
				cfg.Eat.Off = !on
			}
		}
		var n int
		intIn(d, e, "survival.eat", "threshold", 0, 19, &n)
		if _, ok := e["threshold"]; ok {
			cfg.Eat.Threshold = &n
		}
	}
}

// reflexes are the loop's reflexes as the section sets them.
func (s survivalConfig) reflexes() []loop.Reflex {
	var out []loop.Reflex
	if !s.Eat.Off {
		t := loop.DefaultEatThreshold
		if s.Eat.Threshold != nil {
			t = *s.Eat.Threshold
		}
		out = append(out, loop.EatReflex{Threshold: t})
	}
	return out
}
