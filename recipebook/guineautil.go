package recipebook

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// GuineaUtil's "/gutil dump" writes one JSON file per NEI recipe handler,
// ./gutil/<Handler>_<recipe name>.json, each
//
//	{"type": <NEI tab title>, "handlerID": <NEI handler id>,
//	 "recipes": [...], "dumperName": <dumper class>}
//
// with an item stack as {"name", "damage", "maxDamage", "size", "maxSize",
// "oreNames", "tag", "label"} and a fluid as {"name", "label", "amount"}.
// Sources (guineawheek/GuineaUtil, src/main/java/io/github/guineawheek/
// guineautil/dump/): JSONUtil.java encodeItemStack and encodeFluidStack;
// ers/TemplateRecipeHandlerDumper.java (crafting: "outputs", "inputs" of
// {"stack": [alternatives], "relx", "rely"} — positions only from the
// shaped handler — and "isOreDict"); ers/VanillaSmeltingDumper.java
// ({"input", "output"}); handlers/GregTechDumper.java ("EU/t", "duration",
// "fake", "hidden", "specialValue", "inputs" as [[alternatives]],
// "outputs" with "chance" in 1/100 %, "fluidInputs", "fluidOutputs").

// guStack is GuineaUtil's item stack; label, maxSize and tag are not kept.
type guStack struct {
	Name     string   `json:"name"`
	Damage   int      `json:"damage"`
	Size     int      `json:"size"`
	OreNames []string `json:"oreNames"`
	Chance   *int     `json:"chance"`
}

type guFluid struct {
	Name   string `json:"name"`
	Amount int    `json:"amount"`
}

// guInput is one ingredient: an object {"stack", "relx", "rely"} from the
// crafting dumpers or an array of alternatives from the GregTech dumper.
type guInput struct {
	Stack      []guStack
	RelX, RelY *int
}

func (g *guInput) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		return json.Unmarshal(b, &g.Stack)
	}
	var c struct {
		Stack []guStack `json:"stack"`
		RelX  *int      `json:"relx"`
		RelY  *int      `json:"rely"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return err
	}
	g.Stack, g.RelX, g.RelY = c.Stack, c.RelX, c.RelY
	return nil
}

// guRecipe holds the fields of every dumper's recipe; which apply follows
// from the file's handler.
type guRecipe struct {
	Outputs      []guStack `json:"outputs"`
	Inputs       []guInput `json:"inputs"`
	Input        *guStack  `json:"input"`
	Output       *guStack  `json:"output"`
	Duration     *int      `json:"duration"`
	EUt          int       `json:"EU/t"`
	Fake         bool      `json:"fake"`
	FluidInputs  []guFluid `json:"fluidInputs"`
	FluidOutputs []guFluid `json:"fluidOutputs"`
}

// NEI's handler ids for the vanilla crafting and furnace tabs (NEI's
// TemplateRecipeHandler.getHandlerId is the handler's class name).
const (
	neiShaped    = "codechicken.nei.recipe.ShapedRecipeHandler"
	neiShapeless = "codechicken.nei.recipe.ShapelessRecipeHandler"
	neiFurnace   = "codechicken.nei.recipe.FurnaceRecipeHandler"
)

// ReadGuineaUtil reads one GuineaUtil dump file (one NEI handler's
// recipes). A recipe the book cannot hold is counted in the summary and
// skipped; a file that is not such a dump is an error.
func (im *Importer) ReadGuineaUtil(file string, r io.Reader) error {
	b, s, in := &im.book, im.sum, im.in
	st := newStream(file, r)
	var typ, handler string
	var pending []guRecipe
	bad, seen := 0, false
	err := st.object("the dump", func(key string) error {
		var err error
		switch key {
		case "type":
			typ, err = st.str("type")
		case "handlerID":
			handler, err = st.str("handlerID")
		case "recipes":
			seen = true
			err = st.array("recipes", func() error {
				var rec guRecipe
				skipped, err := st.element(&rec)
				if skipped {
					bad++
				} else if err == nil {
					pending = append(pending, rec)
				}
				return err
			})
		default:
			err = st.skip()
		}
		return err
	})
	if err == nil {
		err = st.end()
	}
	if err == nil && !seen {
		err = st.fail("not a GuineaUtil dump: no \"recipes\"")
	}
	if err != nil {
		return err
	}
	s.Files++
	s.skip("a field of the wrong type", bad)
	kind := Kind(0)
	switch handler {
	case neiShaped:
		kind = Shaped
	case neiShapeless:
		kind = Shapeless
	case neiFurnace:
		kind = Smelting
	}
	machine := typ
	if machine == "" {
		machine = handler
	}
	for _, rec := range pending {
		k := kind
		if rec.Duration != nil {
			k = Machine
		}
		if k == 0 {
			s.skip("handler not imported: "+clip(machine), 1)
			continue
		}
		if k == Machine && rec.Fake {
			s.skip("GregTech display-only (fake) recipe", 1)
			continue
		}
		r, err := guConvert(k, machine, rec, in)
		if err != nil {
			s.skip(reasonOf(err), 1)
			continue
		}
		keep(b, s, r, in)
	}
	return nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}

func guInfos(stacks []guStack) []stackInfo {
	out := make([]stackInfo, len(stacks))
	for i, st := range stacks {
		out[i] = stackInfo{id: st.Name, meta: st.Damage, oreNames: st.OreNames}
	}
	return out
}

func guOutput(st guStack, in *interner) (Output, error) {
	name, err := in.name(st.Name, st.Damage, true)
	if err != nil {
		return Output{}, err
	}
	chance := ChanceAlways
	if st.Chance != nil {
		chance = *st.Chance
	}
	count, err := to32(st.Size)
	if err != nil {
		return Output{}, err
	}
	c, err := to32(chance)
	if err != nil {
		return Output{}, err
	}
	return Output{Item: name, Count: count, Chance: c}, nil
}

func guConvert(k Kind, machine string, rec guRecipe, in *interner) (Recipe, error) {
	switch k {
	case Smelting:
		if rec.Input == nil || rec.Output == nil {
			return Recipe{}, skipErr("a furnace recipe without its input or output")
		}
		opts, tool, err := chooseOptions(in, guInfos([]guStack{*rec.Input}), nil)
		if err != nil {
			return Recipe{}, err
		}
		out, err := guOutput(*rec.Output, in)
		if err != nil {
			return Recipe{}, err
		}
		return Recipe{Kind: Smelting, Inputs: []Input{{Options: opts, Count: 1, Tool: tool}}, Outputs: []Output{out}}, nil
	case Shaped, Shapeless:
		if len(rec.Outputs) == 0 {
			return Recipe{}, skipErr("a crafting recipe without an output")
		}
		out, err := guOutput(rec.Outputs[0], in)
		if err != nil {
			return Recipe{}, err
		}
		if len(rec.Inputs) > MaxGridCells {
			return Recipe{}, skipErr("more ingredients than a 3x3 grid holds")
		}
		if k == Shapeless {
			ins := make([]Input, 0, len(rec.Inputs))
			for _, gi := range rec.Inputs {
				opts, tool, err := chooseOptions(in, guInfos(gi.Stack), nil)
				if err != nil {
					return Recipe{}, err
				}
				ins = append(ins, Input{Options: opts, Tool: tool})
			}
			return buildShapeless(ins, out)
		}
		cells := make([]cell, 0, len(rec.Inputs))
		for _, gi := range rec.Inputs {
			if gi.RelX == nil || gi.RelY == nil {
				return Recipe{}, skipErr("a shaped ingredient without its grid position")
			}
			col, row, ok := neiCell(*gi.RelX, *gi.RelY)
			if !ok {
				return Recipe{}, skipErr("a cell outside the 3x3 grid")
			}
			opts, tool, err := chooseOptions(in, guInfos(gi.Stack), nil)
			if err != nil {
				return Recipe{}, err
			}
			cells = append(cells, cell{col: col, row: row, opts: opts, tool: tool})
		}
		return buildShaped(cells, out)
	}
	// Machine.
	if len(rec.Inputs) > MaxInputs || len(rec.Outputs) > MaxOutputs || len(rec.FluidInputs) > MaxFluids || len(rec.FluidOutputs) > MaxFluids {
		return Recipe{}, skipErr("more inputs or outputs than a recipe may have")
	}
	dur, err := to32(*rec.Duration)
	if err != nil {
		return Recipe{}, err
	}
	eut, err := to32(rec.EUt)
	if err != nil {
		return Recipe{}, err
	}
	r := Recipe{Kind: Machine, Machine: in.get(clip(machine)), Duration: dur, EUt: eut}
	for _, gi := range rec.Inputs {
		if len(gi.Stack) == 0 {
			return Recipe{}, skipErr("an ingredient with no item")
		}
		opts, tool, err := chooseOptions(in, guInfos(gi.Stack), nil)
		if err != nil {
			return Recipe{}, err
		}
		n := gi.Stack[0].Size
		if n == 0 { // GregTech: a stack of 0 is needed but not used up
			n, tool = 1, true
		}
		count, err := to32(n)
		if err != nil {
			return Recipe{}, err
		}
		r.Inputs = append(r.Inputs, Input{Options: opts, Count: count, Tool: tool})
	}
	for _, st := range rec.Outputs {
		out, err := guOutput(st, in)
		if err != nil {
			return Recipe{}, err
		}
		r.Outputs = append(r.Outputs, out)
	}
	var err2 error
	if r.FluidInputs, err2 = guFluids(rec.FluidInputs, in); err2 != nil {
		return Recipe{}, err2
	}
	if r.FluidOutputs, err2 = guFluids(rec.FluidOutputs, in); err2 != nil {
		return Recipe{}, err2
	}
	return r, nil
}

// neiCell turns an NEI crafting position into a grid cell: NEI's
// ShapedRecipeHandler places cell (x, y) at relx = 25 + 18x, rely = 6 + 18y
// (CachedShapedRecipe.setIngredients).
func neiCell(relx, rely int) (col, row int, ok bool) {
	x, y := relx-25, rely-6
	if x < 0 || y < 0 || x%18 != 0 || y%18 != 0 {
		return 0, 0, false
	}
	col, row = x/18, y/18
	return col, row, col <= 2 && row <= 2
}

func guFluids(fs []guFluid, in *interner) ([]Fluid, error) {
	var out []Fluid
	for _, f := range fs {
		n, err := to32(f.Amount)
		if err != nil {
			return nil, err
		}
		out = append(out, Fluid{Name: in.get(f.Name), Amount: n})
	}
	return out, nil
}
