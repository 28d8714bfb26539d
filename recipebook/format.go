package recipebook

import (
	"fmt"
	"strconv"
	"strings"
)

// String renders a recipe on one line: what it makes, then how.
//
//	minecraft:crafting_table ×1 ← shaped 2x2 [AA/BB] A=minecraft:flint:0 B=ore:logWood
//	minecraft:flint ×1 ← shapeless 2x2: 3 minecraft:gravel:0
//	dreamcraft:item.CokeOvenBrick ×1 ← furnace: dreamcraft:item.UnfiredCokeOvenBrick:0
//	dreamcraft:item.CokeOvenBrick ×2 ← Alloy Smelter (200 t, 8 EU/t): 1 ore:sand, 1 minecraft:clay_ball:0
func (r *Recipe) String() string {
	var b strings.Builder
	for i, o := range r.Outputs {
		if i > 0 {
			b.WriteString(" + ")
		}
		fmt.Fprintf(&b, "%s ×%d", o.Item, o.Count)
		if o.Chance != ChanceAlways {
			fmt.Fprintf(&b, " (%s%%)", strconv.FormatFloat(float64(o.Chance)/100, 'f', -1, 64))
		}
	}
	for i, f := range r.FluidOutputs {
		if i > 0 || len(r.Outputs) > 0 {
			b.WriteString(" + ")
		}
		fmt.Fprintf(&b, "%d mB %s", f.Amount, f.Name)
	}
	b.WriteString(" ← ")
	switch r.Kind {
	case Shaped:
		fmt.Fprintf(&b, "shaped %s [", r.Grid())
		for i, c := range r.Cells {
			if i > 0 && i%int(r.Width) == 0 {
				b.WriteByte('/')
			}
			if c < 0 {
				b.WriteByte('_')
			} else {
				b.WriteByte(byte('A' + c))
			}
		}
		b.WriteByte(']')
		for i, in := range r.Inputs {
			fmt.Fprintf(&b, " %c=%s", 'A'+i, options(in))
		}
		if r.ShapeGuessed {
			b.WriteString(" (layout inferred)")
		}
		return b.String()
	case Shapeless:
		fmt.Fprintf(&b, "shapeless %s:", r.Grid())
	case Smelting:
		b.WriteString("furnace:")
	case Machine:
		fmt.Fprintf(&b, "%s (%d t, %d EU/t):", r.Machine, r.Duration, r.EUt)
	default:
		fmt.Fprintf(&b, "%s:", r.Kind)
	}
	for i, in := range r.Inputs {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %d %s", in.Count, options(in))
	}
	for i, f := range r.FluidInputs {
		if i > 0 || len(r.Inputs) > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %d mB %s", f.Amount, f.Name)
	}
	return b.String()
}

func options(in Input) string {
	s := strings.Join(in.Options, "|")
	if in.Tool {
		s += " (tool)"
	}
	return s
}
