package recipebook

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

// Kind is what makes a recipe: a crafting grid, a furnace or a machine.
type Kind uint8

// Recipe kinds.
const (
	// Shaped is grid crafting with a fixed layout (Width × Height cells).
	Shaped Kind = iota + 1
	// Shapeless is grid crafting where the items may lie in any cells.
	Shapeless
	// Smelting is a furnace recipe: one item in, one item out.
	Smelting
	// Machine is any other machine's recipe (GregTech recipe maps and the
	// like), kept with its inputs, outputs, fluids, duration and power.
	Machine
)

// Kinds lists the recipe kinds in their order of display.
var Kinds = []Kind{Shaped, Shapeless, Smelting, Machine}

func (k Kind) String() string {
	switch k {
	case Shaped:
		return "shaped"
	case Shapeless:
		return "shapeless"
	case Smelting:
		return "smelting"
	case Machine:
		return "machine"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Limits on a recipe. A crafting grid holds at most 9 items and a stack at
// most 64; the machine limits are well above what GregTech's largest recipe
// maps use (the assembly line takes 16 items and 4 fluids) and only bound
// what an untrusted file can make the agent hold.
const (
	MaxCount      = 64            // items of one input or output
	MaxGridCells  = 9             // a crafting table's 3×3
	MaxInputs     = 64            // item inputs of one recipe
	MaxOutputs    = 64            // item outputs of one recipe
	MaxFluids     = 16            // fluid inputs or outputs of one recipe
	MaxOptions    = 64            // alternatives of one input
	MaxNameLen    = 256           // bytes of an item, ore or fluid name
	MaxFluidMB    = 2_000_000_000 // mB of one fluid stack
	ChanceAlways  = 10000         // an output's chance in 1/100 %
	maxMachineLen = 128           // bytes of a machine's name
)

// Input is one ingredient of a recipe: any of Options, Count of them.
// An option is an item ("modid:name", "modid:name:meta") or an
// ore-dictionary entry ("ore:logWood"). A tool stays in the grid (or the
// machine) and takes damage instead of being used up.
type Input struct {
	Options []string
	Count   int32
	Tool    bool
}

// Output is one product of a recipe. Chance is in hundredths of a percent
// (ChanceAlways = 10000 is every time).
type Output struct {
	Item   string
	Count  int32
	Chance int32
}

// Fluid is a fluid stack: the fluid's name and millibuckets.
type Fluid struct {
	Name   string
	Amount int32
}

// Recipe is one recipe of any kind.
//
// For Shaped recipes Cells holds the layout, Width × Height cells row by
// row from the top left, each the index of its Input or -1 for an empty
// cell; each Input's Count is the number of cells that name it. A shape
// may be placed anywhere in a grid large enough to hold it, as in the game.
// ShapeGuessed is set when the dump did not say the shape's width and the
// layout was inferred (RecEx exports no width).
type Recipe struct {
	Kind         Kind
	Width        uint8
	Height       uint8
	ShapeGuessed bool
	Cells        []int8
	Inputs       []Input
	Outputs      []Output
	FluidInputs  []Fluid
	FluidOutputs []Fluid
	// Machine names the machine or recipe map of a Machine recipe.
	Machine string
	// Duration is the machine's time in ticks; EUt its power in EU/t.
	Duration int32
	EUt      int32
}

// Output returns the recipe's first item output ("" when it has none).
func (r *Recipe) Output() string {
	if len(r.Outputs) == 0 {
		return ""
	}
	return r.Outputs[0].Item
}

// Grid returns the crafting grid a crafting recipe needs: "2x2" when it
// fits the inventory's grid, "3x3" when it needs a crafting table.
func (r *Recipe) Grid() string {
	switch r.Kind {
	case Shaped:
		if r.Width <= 2 && r.Height <= 2 {
			return "2x2"
		}
	case Shapeless:
		if r.cellsUsed() <= 4 {
			return "2x2"
		}
	}
	return "3x3"
}

func (r *Recipe) cellsUsed() int {
	n := 0
	for _, in := range r.Inputs {
		n += int(in.Count)
	}
	return n
}

// FieldError says which field of a recipe is wrong and why.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

func fieldErr(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Check reports the first thing wrong with a recipe: a count out of
// range, an id that is not an item, a shape that does not fit the grid.
func (r *Recipe) Check() error { return r.check(checkItem) }

// check is Check with the item-name check given, so that a reader holding
// many recipes over few names checks each name once.
func (r *Recipe) check(item func(s string, input bool) error) error {
	if err := checkList("inputs", len(r.Inputs), MaxInputs); err != nil {
		return err
	}
	if err := checkList("outputs", len(r.Outputs), MaxOutputs); err != nil {
		return err
	}
	if err := checkList("fluid_inputs", len(r.FluidInputs), MaxFluids); err != nil {
		return err
	}
	if err := checkList("fluid_outputs", len(r.FluidOutputs), MaxFluids); err != nil {
		return err
	}
	for i, in := range r.Inputs {
		if len(in.Options) == 0 || len(in.Options) > MaxOptions {
			return fieldErr(fmt.Sprintf("inputs[%d].options", i), "must name 1..%d items, got %d", MaxOptions, len(in.Options))
		}
		for j, o := range in.Options {
			if err := item(o, true); err != nil {
				return fieldErr(fmt.Sprintf("inputs[%d].options[%d]", i, j), "%v", err)
			}
		}
		if in.Count < 1 || in.Count > MaxCount {
			return fieldErr(fmt.Sprintf("inputs[%d].count", i), "count must be 1..%d, got %d", MaxCount, in.Count)
		}
	}
	for i, out := range r.Outputs {
		if err := item(out.Item, false); err != nil {
			return fieldErr(fmt.Sprintf("outputs[%d].item", i), "%v", err)
		}
		if out.Count < 1 || out.Count > MaxCount {
			return fieldErr(fmt.Sprintf("outputs[%d].count", i), "count must be 1..%d, got %d", MaxCount, out.Count)
		}
		if out.Chance < 1 || out.Chance > ChanceAlways {
			return fieldErr(fmt.Sprintf("outputs[%d].chance", i), "chance must be 1..%d (1/100 %%), got %d", ChanceAlways, out.Chance)
		}
	}
	for i, f := range r.FluidInputs {
		if err := checkFluid("fluid_inputs", i, f); err != nil {
			return err
		}
	}
	for i, f := range r.FluidOutputs {
		if err := checkFluid("fluid_outputs", i, f); err != nil {
			return err
		}
	}
	switch r.Kind {
	case Shaped, Shapeless:
		return r.checkCrafting()
	case Smelting:
		if len(r.Inputs) != 1 || r.Inputs[0].Count != 1 || len(r.Outputs) != 1 {
			return fieldErr("inputs", "a furnace recipe takes 1 item and makes 1 stack, got %d inputs and %d outputs", len(r.Inputs), len(r.Outputs))
		}
		if r.Inputs[0].Tool {
			return fieldErr("inputs[0].tool", "a furnace's input is used up, not a tool")
		}
		return r.checkNoMachine()
	case Machine:
		if r.Machine == "" || len(r.Machine) > maxMachineLen || !utf8.ValidString(r.Machine) {
			return fieldErr("machine", "a machine recipe needs the machine's name (1..%d bytes of UTF-8)", maxMachineLen)
		}
		if len(r.Inputs)+len(r.FluidInputs) == 0 || len(r.Outputs)+len(r.FluidOutputs) == 0 {
			return fieldErr("inputs", "a machine recipe needs an input and an output")
		}
		if r.Duration < 0 {
			return fieldErr("duration", "duration must not be negative, got %d", r.Duration)
		}
		if r.Width != 0 || r.Height != 0 || len(r.Cells) != 0 || r.ShapeGuessed {
			return fieldErr("cells", "only a shaped recipe has a grid")
		}
		return nil
	}
	return fieldErr("kind", "unknown recipe kind %d", uint8(r.Kind))
}

func (r *Recipe) checkNoMachine() error {
	if r.Machine != "" || r.Duration != 0 || r.EUt != 0 || len(r.FluidInputs) != 0 || len(r.FluidOutputs) != 0 {
		return fieldErr("machine", "only a machine recipe has a machine, fluids, duration or power")
	}
	if r.Width != 0 || r.Height != 0 || len(r.Cells) != 0 || r.ShapeGuessed {
		return fieldErr("cells", "only a shaped recipe has a grid")
	}
	return nil
}

func (r *Recipe) checkCrafting() error {
	if len(r.Inputs) == 0 {
		return fieldErr("inputs", "a crafting recipe needs an ingredient")
	}
	if len(r.Outputs) != 1 {
		return fieldErr("outputs", "a crafting recipe makes one stack, got %d", len(r.Outputs))
	}
	if r.Outputs[0].Chance != ChanceAlways {
		return fieldErr("outputs[0].chance", "a crafting recipe's output is certain")
	}
	if r.Machine != "" || r.Duration != 0 || r.EUt != 0 || len(r.FluidInputs) != 0 || len(r.FluidOutputs) != 0 {
		return fieldErr("machine", "only a machine recipe has a machine, fluids, duration or power")
	}
	if used := r.cellsUsed(); used > MaxGridCells {
		return fieldErr("inputs", "%d items do not fit a 3x3 grid", used)
	}
	if r.Kind == Shapeless {
		if r.Width != 0 || r.Height != 0 || len(r.Cells) != 0 || r.ShapeGuessed {
			return fieldErr("cells", "a shapeless recipe has no layout")
		}
		return nil
	}
	if r.Width < 1 || r.Width > 3 || r.Height < 1 || r.Height > 3 {
		return fieldErr("width", "a shape is 1..3 cells wide and tall, got %dx%d", r.Width, r.Height)
	}
	if len(r.Cells) != int(r.Width)*int(r.Height) {
		return fieldErr("cells", "a %dx%d shape has %d cells, got %d", r.Width, r.Height, int(r.Width)*int(r.Height), len(r.Cells))
	}
	uses := make([]int32, len(r.Inputs))
	for i, c := range r.Cells {
		if c == -1 {
			continue
		}
		if c < 0 || int(c) >= len(r.Inputs) {
			return fieldErr(fmt.Sprintf("cells[%d]", i), "names input %d of %d", c, len(r.Inputs))
		}
		uses[c]++
	}
	for i, n := range uses {
		if n != r.Inputs[i].Count {
			return fieldErr(fmt.Sprintf("inputs[%d].count", i), "count %d but the shape has it in %d cells", r.Inputs[i].Count, n)
		}
	}
	return nil
}

func checkList(field string, n, max int) error {
	if n > max {
		return fieldErr(field, "at most %d, got %d", max, n)
	}
	return nil
}

func checkFluid(list string, i int, f Fluid) error {
	if f.Name == "" || len(f.Name) > MaxNameLen || strings.ContainsAny(f.Name, " \t\n") || !utf8.ValidString(f.Name) {
		return fieldErr(fmt.Sprintf("%s[%d].name", list, i), "%q is not a fluid name", f.Name)
	}
	if f.Amount < 1 || f.Amount > MaxFluidMB {
		return fieldErr(fmt.Sprintf("%s[%d].amount", list, i), "amount must be 1..%d mB, got %d", MaxFluidMB, f.Amount)
	}
	return nil
}

// itemMemo remembers which names passed checkItem.
type itemMemo map[string]uint8

const (
	memoOutput uint8 = 1 << iota // passed as an output
	memoInput                    // passed as an input
)

func (m itemMemo) check(s string, input bool) error {
	bit := memoOutput
	if input {
		bit = memoInput
	}
	if m[s]&bit != 0 {
		return nil
	}
	if err := checkItem(s, input); err != nil {
		return err
	}
	m[s] |= bit
	return nil
}

// checkItem accepts "modid:name[:meta]" and, for inputs, "ore:Name".
func checkItem(s string, input bool) error {
	if len(s) > MaxNameLen {
		return fmt.Errorf("name of %d bytes is longer than %d", len(s), MaxNameLen)
	}
	if strings.HasPrefix(s, "ore:") {
		if !input {
			return fmt.Errorf("%q: an output is an item, not an ore-dictionary entry", s)
		}
		_, err := game.ParseItemMatcher(s)
		return err
	}
	_, _, err := game.SplitID(s)
	return err
}

// Crafting maps a crafting recipe onto the agent's recipe model. An
// input with several options becomes its first option (the model names one
// item or ore entry per ingredient); tools go to the model's tools and are
// not ingredients. ok is false for recipes that are not grid crafting.
func (r *Recipe) Crafting() (rec rules.Recipe, ok bool, err error) {
	if r.Kind != Shaped && r.Kind != Shapeless {
		return rules.Recipe{}, false, nil
	}
	if len(r.Outputs) != 1 {
		return rules.Recipe{}, false, fieldErr("outputs", "a crafting recipe makes one stack, got %d", len(r.Outputs))
	}
	rec = rules.Recipe{Output: r.Outputs[0].Item, Count: int(r.Outputs[0].Count), Grid: r.Grid()}
	for i, in := range r.Inputs {
		if len(in.Options) == 0 {
			return rules.Recipe{}, false, fieldErr(fmt.Sprintf("inputs[%d].options", i), "no item")
		}
		m, err := game.ParseItemMatcher(in.Options[0])
		if err != nil {
			return rules.Recipe{}, false, fieldErr(fmt.Sprintf("inputs[%d].options[0]", i), "%v", err)
		}
		if in.Tool {
			rec.Tools = append(rec.Tools, m)
			continue
		}
		rec.Ingredients = append(rec.Ingredients, rules.Ingredient{Item: m, Count: int(in.Count)})
	}
	return rec, true, nil
}
