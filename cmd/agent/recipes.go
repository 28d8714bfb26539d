package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/gtnh-agent/gtnh-agent/recipebook"
)

const (
	recipesImportUsage = "recipes import FILE|DIR [--format guineautil|recex|auto] --out FILE (or -o FILE)"
	recipesShowUsage   = "recipes show FILE [--output ITEM] [--kind shaped|shapeless|smelting|machine] [--limit N]"
)

// recipesImportCommand is `agent recipes import`: a recipe dump in, a
// compact recipe file out, and a summary of what was kept and dropped.
type recipesImportCommand struct {
	dump, format, out string
}

var _ subcommand = (*recipesImportCommand)(nil)

func (c *recipesImportCommand) parse(e *env, args []string) error {
	fs := newFlagSet(e, "recipes import", recipesImportUsage)
	fs.StringVar(&c.format, "format", recipebook.FormatAuto, "the dump's `FORMAT`: guineautil (a /gutil dump file or its directory), recex (a RecEx JSON file) or auto (told from the file)")
	fs.StringVar(&c.out, "out", "", "write the compact recipe file to `FILE` (required; -o FILE is the same)")
	pos, err := parseFlags(fs, shortOut(args))
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("recipes import: want one dump FILE or DIR, got %d arguments\n%s", len(pos), helpHint("recipes import"))
	}
	c.dump = pos[0]
	return nil
}

// shortOut spells -o as --out, so the short form works without a flag of
// one letter in the help.
func shortOut(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		switch {
		case a == "-o":
			a = "--out"
		case strings.HasPrefix(a, "-o="):
			a = "--out=" + a[len("-o="):]
		}
		out[i] = a
	}
	return out
}

func (c *recipesImportCommand) validate(*env) error {
	switch c.format {
	case recipebook.FormatAuto, recipebook.FormatGuineaUtil, recipebook.FormatRecEx:
	default:
		return usagef("recipes import: --format %q: want guineautil, recex or auto", c.format)
	}
	if c.out == "" {
		return usagef("recipes import: --out FILE is required (where to write the compact recipe file)\n%s", helpHint("recipes import"))
	}
	if filepath.Clean(c.out) == filepath.Clean(c.dump) {
		return usagef("recipes import: --out %s would overwrite the dump", c.out)
	}
	return nil
}

func (c *recipesImportCommand) run(e *env) error {
	book, sum, err := recipebook.Import(c.dump, c.format)
	if err != nil {
		return usagef("recipes import: %v", err)
	}
	if len(book.Recipes) == 0 {
		fmt.Fprint(e.stdout, sum)
		return usagef("recipes import: %s holds no recipe this agent can use; nothing written", c.dump)
	}
	if err := recipebook.WriteFile(c.out, book); err != nil {
		return fmt.Errorf("recipes import: %w", err)
	}
	fmt.Fprint(e.stdout, sum)
	fmt.Fprintf(e.stdout, "wrote %s\n", c.out)
	e.log.Info().Str("dump", c.dump).Str("out", c.out).Int("recipes", len(book.Recipes)).Dur("took", sum.Elapsed).Msg("recipes imported")
	return nil
}

// recipesShowCommand is `agent recipes show`: what a compact recipe file
// holds.
type recipesShowCommand struct {
	file, output, kind string
	limit              int
}

var _ subcommand = (*recipesShowCommand)(nil)

func (c *recipesShowCommand) parse(e *env, args []string) error {
	fs := newFlagSet(e, "recipes show", recipesShowUsage)
	fs.StringVar(&c.output, "output", "", "list only the recipes that make `ITEM` (modid:name[:meta])")
	fs.StringVar(&c.kind, "kind", "", "list only recipes of this `KIND`: shaped, shapeless, smelting or machine")
	fs.IntVar(&c.limit, "limit", 50, "list at most `N` recipes (0: all)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("recipes show: want one compact recipe FILE, got %d arguments\n%s", len(pos), helpHint("recipes show"))
	}
	c.file = pos[0]
	return nil
}

func (c *recipesShowCommand) validate(*env) error {
	if c.limit < 0 {
		return usagef("recipes show: --limit must be 0 or more, got %d", c.limit)
	}
	if c.kind != "" && kindNamed(c.kind) == 0 {
		return usagef("recipes show: --kind %q: want shaped, shapeless, smelting or machine", c.kind)
	}
	return nil
}

func kindNamed(name string) recipebook.Kind {
	for _, k := range recipebook.Kinds {
		if k.String() == name {
			return k
		}
	}
	return 0
}

func (c *recipesShowCommand) run(e *env) error {
	book, err := recipebook.ReadFile(c.file)
	if err != nil {
		return usagef("recipes show: %v", err)
	}
	counts := book.Count()
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s: %d recipes\n", c.file, len(book.Recipes))
	for _, k := range recipebook.Kinds {
		fmt.Fprintf(tw, "  %s\t%d\n", k, counts[k])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	want := kindNamed(c.kind)
	shown, matched := 0, 0
	for i := range book.Recipes {
		r := &book.Recipes[i]
		if c.output != "" && r.Output() != c.output {
			continue
		}
		if want != 0 && r.Kind != want {
			continue
		}
		matched++
		if c.limit == 0 || shown < c.limit {
			fmt.Fprintln(e.stdout, r)
			shown++
		}
	}
	if matched > shown {
		fmt.Fprintf(e.stdout, "… %d more (--limit 0 lists all)\n", matched-shown)
	}
	if c.output != "" && matched == 0 {
		fmt.Fprintf(e.stdout, "no recipe makes %s\n", c.output)
	}
	return nil
}
