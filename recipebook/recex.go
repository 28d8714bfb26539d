package recipebook

import (
	"io"
)

// RecEx (GTNewHorizons/RecEx, a fork of bigbass1997/RecEx) writes one
// Gson JSON file, RecEx-Records/<date>.json:
//
//	{"sources": [{"type": "gregtech", "machines": [{"n", "recs": [...]}]},
//	             {"type": "shaped" | "shapeless" | "shapedOreDict" | "smelting",
//	              "recipes": [...]}]}
//
// An item is {"a": amount, "m": metadata (32767 = any), "id": "modid:name",
// "lN": display name, "nbt"}; an ore-dictionary ingredient is {"dns":
// [ore names], "ims": [items]}; a fluid is {"a": mB, "id", "lN"}. Crafting
// recipes are {"iI": [cells, null for an empty one], "o": item}; furnace
// recipes {"input", "output"}; GregTech recipes {"en", "dur", "eut", "sp",
// "iI", "iO", "fI", "fO"}.
// Sources (GTNewHorizons/RecEx, src/main/java/com/bigbass/recex/recipes/):
// RecipeExporter.java (emitJson, getShapedRecipes, getShapelessRecipes,
// getOreDictShapedRecipes, getGregtechRecipes), ingredients/Item.java,
// ingredients/ItemOreDict.java, ingredients/Fluid.java, FurnaceRecipe.java,
// gregtech/GregtechRecipe.java.
//
// What RecEx does not export: ShapelessOreRecipe (so none of GregTech's or
// NewHorizonsCoreMod's shapeless recipes), the width of a shape (only the
// width × height cells), and the chances of machine outputs.

// rxItem is a RecEx item or ore-dictionary ingredient.
type rxItem struct {
	A   int       `json:"a"`
	M   int       `json:"m"`
	ID  string    `json:"id"`
	DNS []string  `json:"dns"`
	IMS []rxPlain `json:"ims"`
}

type rxPlain struct {
	A  int    `json:"a"`
	M  int    `json:"m"`
	ID string `json:"id"`
}

type rxFluid struct {
	A  int    `json:"a"`
	ID string `json:"id"`
}

type rxRecipe struct {
	II     []*rxItem `json:"iI"`
	O      *rxPlain  `json:"o"`
	Input  *rxPlain  `json:"input"`
	Output *rxPlain  `json:"output"`
}

type rxGT struct {
	En  *bool     `json:"en"`
	Dur int       `json:"dur"`
	EUt int       `json:"eut"`
	II  []rxPlain `json:"iI"`
	IO  []rxPlain `json:"iO"`
	FI  []rxFluid `json:"fI"`
	FO  []rxFluid `json:"fO"`
}

// RecEx notes for the summary.
const (
	lackShapelessOre = "shapeless ore-dictionary recipes (RecEx exports none: GregTech's and NewHorizonsCoreMod's shapeless recipes such as log to planks, the wooden brick form and the coke oven block are missing; a GuineaUtil dump has them)"
	lackWidth        = "the width of a shape (RecEx exports only its cells: layouts of 2, 3 and 6 cells are guessed)"
	lackChances      = "the chances of machine outputs (RecEx exports none: every output is taken as certain)"
	lackSmelting     = "furnace recipes (this RecEx version wrote no smelting source)"
)

// ReadRecEx reads a RecEx dump. A recipe the book cannot hold is counted
// in the summary and skipped; a file that is not such a dump is an error.
func (im *Importer) ReadRecEx(file string, r io.Reader) error {
	st := newStream(file, r)
	smelting, machines, sources := false, false, false
	err := st.object("the dump", func(key string) error {
		if key != "sources" {
			return st.skip()
		}
		sources = true
		return st.array("sources", func() error {
			var typ string
			var pending []rxRecipe
			bad := 0
			err := st.object("a source", func(key string) error {
				switch key {
				case "type":
					var err error
					typ, err = st.str("type")
					return err
				case "recipes":
					return st.array("recipes", func() error {
						var rec rxRecipe
						skipped, err := st.element(&rec)
						if skipped {
							bad++
						} else if err == nil {
							pending = append(pending, rec)
						}
						return err
					})
				case "machines":
					machines = true
					return st.array("machines", func() error { return im.rxMachine(st) })
				}
				return st.skip()
			})
			if err != nil {
				return err
			}
			im.sum.skip("a field of the wrong type", bad)
			if typ == "smelting" {
				smelting = true
			}
			for _, rec := range pending {
				r, err := rxConvert(typ, rec, im.in)
				if err != nil {
					im.sum.skip(reasonOf(err), 1)
					continue
				}
				keep(&im.book, im.sum, r, im.in)
			}
			return nil
		})
	})
	if err == nil {
		err = st.end()
	}
	if err == nil && !sources {
		err = st.fail("not a RecEx dump: no \"sources\"")
	}
	if err != nil {
		return err
	}
	im.sum.Files++
	im.sum.lack(lackShapelessOre)
	im.sum.lack(lackWidth)
	if machines {
		im.sum.lack(lackChances)
	}
	if !smelting {
		im.sum.lack(lackSmelting)
	}
	return nil
}

// rxMachine reads one GregTech machine: its name and its recipes.
func (im *Importer) rxMachine(st *stream) error {
	var name string
	var pending []rxGT
	bad := 0
	err := st.object("a machine", func(key string) error {
		switch key {
		case "n":
			var err error
			name, err = st.str("n")
			return err
		case "recs":
			return st.array("recs", func() error {
				var rec rxGT
				skipped, err := st.element(&rec)
				if skipped {
					bad++
				} else if err == nil {
					pending = append(pending, rec)
				}
				return err
			})
		}
		return st.skip()
	})
	if err != nil {
		return err
	}
	im.sum.skip("a field of the wrong type", bad)
	for _, rec := range pending {
		if rec.En != nil && !*rec.En {
			im.sum.skip("disabled machine recipe", 1)
			continue
		}
		r, err := rxMachineRecipe(name, rec, im.in)
		if err != nil {
			im.sum.skip(reasonOf(err), 1)
			continue
		}
		keep(&im.book, im.sum, r, im.in)
	}
	return nil
}

func rxMachineRecipe(name string, rec rxGT, in *interner) (Recipe, error) {
	if name == "" {
		return Recipe{}, skipErr("a machine without a name")
	}
	if len(rec.II) > MaxInputs || len(rec.IO) > MaxOutputs || len(rec.FI) > MaxFluids || len(rec.FO) > MaxFluids {
		return Recipe{}, skipErr("more inputs or outputs than a recipe may have")
	}
	dur, err := to32(rec.Dur)
	if err != nil {
		return Recipe{}, err
	}
	eut, err := to32(rec.EUt)
	if err != nil {
		return Recipe{}, err
	}
	r := Recipe{Kind: Machine, Machine: in.get(clip(name)), Duration: dur, EUt: eut}
	for _, it := range rec.II {
		opts, tool, err := chooseOptions(in, []stackInfo{{id: it.ID, meta: it.M}}, nil)
		if err != nil {
			return Recipe{}, err
		}
		n := it.A
		if n == 0 { // GregTech: a stack of 0 is needed but not used up
			n, tool = 1, true
		}
		count, err := to32(n)
		if err != nil {
			return Recipe{}, err
		}
		r.Inputs = append(r.Inputs, Input{Options: opts, Count: count, Tool: tool})
	}
	for _, it := range rec.IO {
		out, err := rxOutput(it, in)
		if err != nil {
			return Recipe{}, err
		}
		r.Outputs = append(r.Outputs, out)
	}
	if r.FluidInputs, err = rxFluids(rec.FI, in); err != nil {
		return Recipe{}, err
	}
	if r.FluidOutputs, err = rxFluids(rec.FO, in); err != nil {
		return Recipe{}, err
	}
	return r, nil
}

func rxFluids(fs []rxFluid, in *interner) ([]Fluid, error) {
	var out []Fluid
	for _, f := range fs {
		n, err := to32(f.A)
		if err != nil {
			return nil, err
		}
		out = append(out, Fluid{Name: in.get(f.ID), Amount: n})
	}
	return out, nil
}

func rxOutput(it rxPlain, in *interner) (Output, error) {
	name, err := in.name(it.ID, it.M, true)
	if err != nil {
		return Output{}, err
	}
	n, err := to32(it.A)
	if err != nil {
		return Output{}, err
	}
	return Output{Item: name, Count: n, Chance: ChanceAlways}, nil
}

func rxOptions(it *rxItem, in *interner) ([]string, bool, error) {
	if it.DNS != nil || it.IMS != nil {
		alts := make([]stackInfo, len(it.IMS))
		for i, p := range it.IMS {
			alts[i] = stackInfo{id: p.ID, meta: p.M}
		}
		return chooseOptions(in, alts, it.DNS)
	}
	return chooseOptions(in, []stackInfo{{id: it.ID, meta: it.M}}, nil)
}

// rxShape lays out n cells of a shape whose width RecEx did not export:
// 9, 4 and 1 cells are 3×3, 2×2 and 1×1; 2 and 3 cells are taken as a
// column (the common "tool over item" shapes), 6 as three wide and two
// tall. guessed reports a layout that could have been the other way round.
func rxShape(n int) (w, h int, guessed bool, ok bool) {
	switch n {
	case 9:
		return 3, 3, false, true
	case 4:
		return 2, 2, false, true
	case 1:
		return 1, 1, false, true
	case 2, 3:
		return 1, n, true, true
	case 6:
		return 3, 2, true, true
	}
	return 0, 0, false, false
}

func rxConvert(typ string, rec rxRecipe, in *interner) (Recipe, error) {
	switch typ {
	case "smelting":
		if rec.Input == nil || rec.Output == nil {
			return Recipe{}, skipErr("a furnace recipe without its input or output")
		}
		opts, tool, err := chooseOptions(in, []stackInfo{{id: rec.Input.ID, meta: rec.Input.M}}, nil)
		if err != nil {
			return Recipe{}, err
		}
		out, err := rxOutput(*rec.Output, in)
		if err != nil {
			return Recipe{}, err
		}
		return Recipe{Kind: Smelting, Inputs: []Input{{Options: opts, Count: 1, Tool: tool}}, Outputs: []Output{out}}, nil
	case "shaped", "shapedOreDict", "shapeless":
	default:
		return Recipe{}, skipErr("source type not imported: " + clip(typ))
	}
	if rec.O == nil {
		return Recipe{}, skipErr("a crafting recipe without an output")
	}
	out, err := rxOutput(*rec.O, in)
	if err != nil {
		return Recipe{}, err
	}
	if len(rec.II) > MaxGridCells {
		return Recipe{}, skipErr("more ingredients than a 3x3 grid holds")
	}
	if typ == "shapeless" {
		ins := make([]Input, 0, len(rec.II))
		for _, it := range rec.II {
			if it == nil {
				continue
			}
			opts, tool, err := rxOptions(it, in)
			if err != nil {
				return Recipe{}, err
			}
			ins = append(ins, Input{Options: opts, Tool: tool})
		}
		return buildShapeless(ins, out)
	}
	w, _, guessed, ok := rxShape(len(rec.II))
	if !ok {
		return Recipe{}, skipErr("a shape whose cell count fits no grid")
	}
	cells := make([]cell, 0, len(rec.II))
	for i, it := range rec.II {
		if it == nil {
			continue
		}
		opts, tool, err := rxOptions(it, in)
		if err != nil {
			return Recipe{}, err
		}
		cells = append(cells, cell{col: i % w, row: i / w, opts: opts, tool: tool})
	}
	r, err := buildShaped(cells, out)
	r.ShapeGuessed = guessed
	return r, err
}
