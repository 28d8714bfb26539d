package skills

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// BlockMatcher selects the blocks of a blocks effect: a block id
// ("minecraft:log" matches every metadata, "minecraft:log:1" one) or a
// semantic block tag from config/tags.yaml ("tag:log").
type BlockMatcher struct {
	raw  string
	tag  string
	id   string
	meta int
}

// ParseBlockMatcher parses "modid:name", "modid:name:meta" or "tag:NAME".
func ParseBlockMatcher(s string) (BlockMatcher, error) {
	if rest, ok := strings.CutPrefix(s, "tag:"); ok {
		if !tagRE.MatchString(rest) {
			return BlockMatcher{}, fmt.Errorf("%q: a semantic block tag is expected after tag: (lowercase letters, digits, '_', '-', '.', ':')", s)
		}
		return BlockMatcher{raw: s, tag: rest}, nil
	}
	id, meta, err := world.SplitID(s)
	if err != nil {
		return BlockMatcher{}, fmt.Errorf("%q is not a block: expected modid:name, modid:name:meta or tag:NAME", s)
	}
	return BlockMatcher{raw: s, id: id, meta: meta}, nil
}

// Matches reports whether b is selected (air never is).
func (m BlockMatcher) Matches(b world.Block) bool {
	if b.IsAir() {
		return false
	}
	if m.tag != "" {
		return b.HasTag(m.tag)
	}
	return b.ID == m.id && (m.meta < 0 || b.Meta == m.meta)
}

func (m BlockMatcher) String() string { return m.raw }

// paramRef returns the parameter name of a key written as a single
// placeholder ("{fuel}" → "fuel").
func paramRef(key string) (string, bool) {
	m := placeholderRE.FindStringSubmatch(key)
	if m == nil || m[0] != key || strings.Contains(m[1], ":") {
		return "", false
	}
	return m[1], true
}

// ResolveKey turns an effect key or item written as "{param}" into the
// invocation's value of that parameter; other keys are returned unchanged.
func ResolveKey(key string, p Params) string {
	if name, ok := paramRef(key); ok {
		return p.String(name)
	}
	if block, ok := strings.CutPrefix(key, DropPrefix); ok {
		return DropPrefix + ResolveKey(block, p)
	}
	return key
}

// checkIDRef checks a "{param}" key: the parameter must exist and hold an id.
func checkIDRef(name string, s *Spec, want string) error {
	ps, ok := s.Params[name]
	if !ok {
		return fmt.Errorf("references undeclared parameter %q", name)
	}
	if ps.Type != action.TypeItemID && ps.Type != action.TypeBlockID {
		return fmt.Errorf("references parameter %q of type %s; %s parameter is needed", name, ps.Type, want)
	}
	return nil
}

// checkItemKey checks an inventory_delta key or a machine effect's item.
func checkItemKey(key string, s *Spec, allowAny bool) error {
	if key == AnyItem {
		if !allowAny {
			return fmt.Errorf("%q (any item) is only an inventory_delta key; leave item out to count every item", key)
		}
		return nil
	}
	if block, ok := strings.CutPrefix(key, DropPrefix); ok {
		if !allowAny {
			return fmt.Errorf("%q (a block's drop) is only an inventory_delta key", key)
		}
		if name, ok := paramRef(block); ok {
			if ps, ok := s.Params[name]; !ok || ps.Type != action.TypeBlockID {
				return fmt.Errorf("%s needs a block_id parameter, not %q", DropPrefix, name)
			}
			return nil
		}
		if _, _, err := world.SplitID(block); err != nil || strings.HasPrefix(block, "tag:") {
			return fmt.Errorf("%s needs a block id or a block_id parameter, got %q", DropPrefix, block)
		}
		return nil
	}
	if name, ok := paramRef(key); ok {
		return checkIDRef(name, s, "an item_id")
	}
	_, err := world.ParseItemMatcher(key)
	return err
}

// checkBlockKey checks a blocks key.
func checkBlockKey(key string, s *Spec) error {
	if name, ok := paramRef(key); ok {
		return checkIDRef(name, s, "a block_id")
	}
	_, err := ParseBlockMatcher(key)
	return err
}

// checkAmount checks an amount of an effect that must be able to fail: a
// literal must be at least minimum, a reference must name an int parameter.
func checkAmount(a *Amount, s *Spec, minimum int) error {
	if a == nil {
		return nil
	}
	if a.Param != "" {
		ps, ok := s.Params[a.Param]
		if !ok {
			return fmt.Errorf("references undeclared parameter %q", a.Param)
		}
		if ps.Type != action.TypeInt {
			return fmt.Errorf("references parameter %q of type %s; an int parameter is needed", a.Param, ps.Type)
		}
		return nil
	}
	if a.Value < minimum {
		return fmt.Errorf("must be at least %d, got %d", minimum, a.Value)
	}
	return nil
}

// maxEffectRadius bounds a literal radius of a blocks or machines effect.
const maxEffectRadius = 128

// validateSet checks one group of effects (the top level or an any_of
// alternative) for specs built in code; path prefixes every problem.
func validateSet(set EffectSet, s *Spec, path string, bad func(format string, args ...any)) {
	for _, key := range slices.Sorted(maps.Keys(set.InventoryDelta)) {
		ch := set.InventoryDelta[key]
		p := path + "inventory_delta." + key
		if err := checkItemKey(key, s, true); err != nil {
			bad("%s: %v", p, err)
		}
		if ch.MinIncrease == nil && ch.MinDecrease == nil && ch.MaxDecrease == nil {
			bad("%s: give at least one of min_increase, min_decrease, max_decrease", p)
		}
		if ch.MinIncrease != nil && (ch.MinDecrease != nil || ch.MaxDecrease != nil) {
			bad("%s: an item cannot both increase and decrease", p)
		}
		for i, a := range []*Amount{ch.MinIncrease, ch.MinDecrease, ch.MaxDecrease} {
			if err := checkAmount(a, s, 0); err != nil {
				bad("%s.%s: %v", p, changeKeys[i], err)
			}
		}
	}
	for _, key := range slices.Sorted(maps.Keys(set.Blocks)) {
		ch := set.Blocks[key]
		p := path + "blocks." + key
		if err := checkBlockKey(key, s); err != nil {
			bad("%s: %v", p, err)
		}
		if ch.MinRemoved == nil && ch.MinPlaced == nil && ch.MinNear == nil {
			bad("%s: give min_removed, min_placed or min_near", p)
		}
		if err := checkAmount(ch.MinRemoved, s, 1); err != nil {
			bad("%s.min_removed: %v", p, err)
		}
		if err := checkAmount(ch.MinPlaced, s, 1); err != nil {
			bad("%s.min_placed: %v", p, err)
		}
		if err := checkAmount(ch.MinNear, s, 1); err != nil {
			bad("%s.min_near: %v", p, err)
		}
		if err := checkRadius(&ch.Radius, s); err != nil {
			bad("%s.radius: %v", p, err)
		}
	}
	for i, mc := range set.Machines {
		p := fmt.Sprintf("%smachines[%d]", path, i)
		if err := checkMachine(mc, s); err != nil {
			bad("%s: %v", p, err)
		}
	}
}

func checkRadius(a *Amount, s *Spec) error {
	if a == nil {
		return nil
	}
	if err := checkAmount(a, s, 1); err != nil {
		return err
	}
	if a.Param == "" && a.Value > maxEffectRadius {
		return fmt.Errorf("must be at most %d, got %d", maxEffectRadius, a.Value)
	}
	return nil
}

// checkMachine checks a machines entry built in code.
func checkMachine(mc MachineChange, s *Spec) error {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if !tagRE.MatchString(mc.Kind) {
		bad("kind %q must be a machine kind such as coke_oven or steam_boiler", mc.Kind)
	}
	switch {
	case mc.Slot == "" && mc.Fluid == "":
		bad("give slot or fluid")
	case mc.Slot != "" && mc.Fluid != "":
		bad("slot and fluid exclude each other")
	case mc.Fluid != "" && !tagRE.MatchString(mc.Fluid):
		bad("fluid %q must be a fluid name such as water or creosote", mc.Fluid)
	}
	if mc.Item != "" {
		if mc.Slot == "" {
			bad("item applies only to a slot")
		} else if err := checkItemKey(mc.Item, s, false); err != nil {
			bad("item: %v", err)
		}
	}
	if (mc.MinIncrease == nil) == (mc.MinDecrease == nil) {
		bad("give exactly one of min_increase and min_decrease")
	}
	if err := checkAmount(mc.MinIncrease, s, 1); err != nil {
		bad("min_increase: %v", err)
	}
	if err := checkAmount(mc.MinDecrease, s, 1); err != nil {
		bad("min_decrease: %v", err)
	}
	if err := checkRadius(mc.Radius, s); err != nil {
		bad("radius: %v", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return nil
}

// WorldEffectLines describes the blocks, machines, player and any_of effects for
// people and planners, one line each ("blocks tag:log: removed >= 1 within
// {radius}"); inventory and tier effects are left to the caller.
func (e Effects) WorldEffectLines() []string {
	out := EffectSet{Blocks: e.Blocks, Machines: e.Machines}.lines()
	if e.Player != nil && e.Player.Food != nil && e.Player.Food.MinIncrease != nil {
		b, _ := e.Player.Food.MinIncrease.MarshalJSON()
		out = append(out, "player food level: increases by >= "+strings.Trim(string(b), `"`))
	}
	for i, alt := range e.AnyOf {
		for _, l := range alt.lines() {
			out = append(out, fmt.Sprintf("any_of[%d]: %s", i, l))
		}
	}
	return out
}

// lines describes every entry of a set, inventory included.
func (set EffectSet) lines() []string {
	var out []string
	amount := func(a *Amount) string {
		b, _ := a.MarshalJSON()
		return strings.Trim(string(b), `"`)
	}
	for _, k := range slices.Sorted(maps.Keys(set.InventoryDelta)) {
		ch := set.InventoryDelta[k]
		for i, a := range []*Amount{ch.MinIncrease, ch.MinDecrease, ch.MaxDecrease} {
			if a != nil {
				out = append(out, fmt.Sprintf("inventory %s: %s %s", k, changeKeys[i], amount(a)))
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(set.Blocks)) {
		ch := set.Blocks[k]
		r := amount(&ch.Radius)
		if ch.MinRemoved != nil {
			out = append(out, fmt.Sprintf("blocks %s: removed >= %s within %s", k, amount(ch.MinRemoved), r))
		}
		if ch.MinPlaced != nil {
			out = append(out, fmt.Sprintf("blocks %s: placed >= %s within %s", k, amount(ch.MinPlaced), r))
		}
		if ch.MinNear != nil {
			out = append(out, fmt.Sprintf("blocks %s: >= %s within %s of where the player ends", k, amount(ch.MinNear), r))
		}
	}
	for _, mc := range set.Machines {
		what := "fluid " + mc.Fluid + " (mB)"
		if mc.Slot != "" {
			what = "slot " + mc.Slot
			if mc.Item != "" {
				what += " (" + mc.Item + ")"
			}
		}
		l := fmt.Sprintf("machine %s %s: ", mc.Kind, what)
		if mc.MinIncrease != nil {
			l += "increases by >= " + amount(mc.MinIncrease)
		} else if mc.MinDecrease != nil {
			l += "decreases by >= " + amount(mc.MinDecrease)
		}
		if mc.Radius != nil {
			l += " within " + amount(mc.Radius)
		}
		out = append(out, l)
	}
	return out
}
