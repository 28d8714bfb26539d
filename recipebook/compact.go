package recipebook

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"unicode/utf8"

	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
)

// The compact recipe file:
//
//	magic   "GTNHRCP" then the version byte (1)
//	strings uvarint count, then each: uvarint length, bytes (UTF-8)
//	recipes uvarint count, then each recipe:
//	          kind byte
//	          shaped:  width byte, height byte, guessed byte (0/1),
//	                   width×height cell bytes (0 = empty, i+1 = input i)
//	          machine: uvarint machine string, varint duration, varint EU/t
//	          uvarint inputs,  each: uvarint options, each a uvarint string,
//	                                 uvarint count, tool byte (0/1)
//	          uvarint outputs, each: uvarint item string, uvarint count,
//	                                 uvarint chance
//	          uvarint fluid inputs, then outputs, each: uvarint name string,
//	                                 uvarint mB
//	crc32   IEEE checksum of everything before it, 4 bytes little-endian
//
// Every string is stored once and named by its index, so a set of tens of
// thousands of recipes that name the same few thousand items loads into
// one copy of each name.
const (
	compactMagic   = "GTNHRCP"
	compactVersion = 1
	// MaxCompactBytes bounds a compact file: 50,000 recipes take 2.4 MB, a
	// full modpack's few hundred thousand well under this.
	MaxCompactBytes = 32 << 20
	// MaxRecipes and MaxStrings bound what one file may hold; a full GTNH
	// dump has a few hundred thousand recipes naming fewer strings.
	MaxRecipes   = 1 << 20
	MaxStrings   = 1 << 20
	maxStringLen = 4096
)

// Write writes the book as a compact recipe file. Every recipe is checked
// first: a book that Read would refuse is not written.
func Write(w io.Writer, b *Book) error {
	out, err := encode(b, true)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// encode lays the book out as a compact file; check=false is for tests
// that need a file holding a bad recipe.
func encode(b *Book, check bool) ([]byte, error) {
	strs := map[string]uint64{}
	var table []string
	idx := func(s string) uint64 {
		if i, ok := strs[s]; ok {
			return i
		}
		i := uint64(len(table))
		strs[s] = i
		table = append(table, s)
		return i
	}
	// The recipes first, so that the string table is known.
	var body []byte
	var tmp [binary.MaxVarintLen64]byte
	uv := func(v uint64) { body = append(body, tmp[:binary.PutUvarint(tmp[:], v)]...) }
	sv := func(v int64) { body = append(body, tmp[:binary.PutVarint(tmp[:], v)]...) }
	flag := func(b bool) {
		if b {
			body = append(body, 1)
		} else {
			body = append(body, 0)
		}
	}
	uv(uint64(len(b.Recipes)))
	for i := range b.Recipes {
		r := &b.Recipes[i]
		if check {
			if err := r.Check(); err != nil {
				return nil, fmt.Errorf("recipe %d: %w", i, err)
			}
		}
		body = append(body, byte(r.Kind))
		switch r.Kind {
		case Shaped:
			body = append(body, r.Width, r.Height)
			flag(r.ShapeGuessed)
			for _, c := range r.Cells {
				body = append(body, byte(c+1))
			}
		case Machine:
			uv(idx(r.Machine))
			sv(int64(r.Duration))
			sv(int64(r.EUt))
		}
		uv(uint64(len(r.Inputs)))
		for _, in := range r.Inputs {
			uv(uint64(len(in.Options)))
			for _, o := range in.Options {
				uv(idx(o))
			}
			uv(uint64(in.Count))
			flag(in.Tool)
		}
		uv(uint64(len(r.Outputs)))
		for _, o := range r.Outputs {
			uv(idx(o.Item))
			uv(uint64(o.Count))
			uv(uint64(o.Chance))
		}
		for _, fs := range [][]Fluid{r.FluidInputs, r.FluidOutputs} {
			uv(uint64(len(fs)))
			for _, f := range fs {
				uv(idx(f.Name))
				uv(uint64(f.Amount))
			}
		}
	}
	out := append([]byte(compactMagic), compactVersion)
	out = binary.AppendUvarint(out, uint64(len(table)))
	for _, s := range table {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	out = append(out, body...)
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out)), nil
}

// WriteFile writes the book to a compact recipe file, replacing it whole:
// the file is written beside its name and renamed over it.
func WriteFile(path string, b *Book) error {
	tmp, err := os.CreateTemp(dirOf(path), ".recipes-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	bw := bufio.NewWriter(tmp)
	if err := Write(bw, b); err != nil {
		tmp.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func dirOf(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if os.IsPathSeparator(path[i]) {
			return path[:i+1]
		}
	}
	return "."
}

// FileError is a compact recipe file that cannot be loaded: the file, the
// recipe (-1 when the fault is outside any recipe), the field, and why.
type FileError struct {
	File   string
	Recipe int
	Field  string
	Err    error
}

func (e *FileError) Error() string {
	switch {
	case e.Recipe >= 0 && e.Field != "":
		return fmt.Sprintf("%s: recipe %d: %s: %v", e.File, e.Recipe, e.Field, e.Err)
	case e.Recipe >= 0:
		return fmt.Sprintf("%s: recipe %d: %v", e.File, e.Recipe, e.Err)
	case e.Field != "":
		return fmt.Sprintf("%s: %s: %v", e.File, e.Field, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// ReadFile loads a compact recipe file; a file over MaxCompactBytes is
// refused by its size before it is read.
func ReadFile(path string) (*Book, error) {
	data, err := filelimit.ReadFile(path, MaxCompactBytes)
	if err != nil {
		return nil, err
	}
	return Decode(path, data)
}

var errTruncated = errors.New("the file ends early")

// Read loads a compact recipe file from r; file names it in errors.
func Read(file string, r io.Reader) (*Book, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxCompactBytes+1))
	if err != nil {
		return nil, &FileError{File: file, Recipe: -1, Err: err}
	}
	return Decode(file, data)
}

// Decode loads a compact recipe file's bytes, checking every recipe.
func Decode(file string, data []byte) (*Book, error) {
	if len(data) > MaxCompactBytes {
		return nil, &FileError{File: file, Recipe: -1, Err: fmt.Errorf("larger than %d MiB", MaxCompactBytes>>20)}
	}
	fail := func(field string, err error) error { return &FileError{File: file, Recipe: -1, Field: field, Err: err} }
	if len(data) < len(compactMagic)+1+4 || string(data[:len(compactMagic)]) != compactMagic {
		return nil, fail("", errors.New("not a compact recipe file (write one with agent recipes import)"))
	}
	if v := data[len(compactMagic)]; v != compactVersion {
		return nil, fail("version", fmt.Errorf("version %d, this agent reads version %d", v, compactVersion))
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, fail("checksum", errors.New("checksum mismatch: the file is damaged or cut short"))
	}
	// One string holds every name; the table's entries are cut from it.
	all := string(body)
	d := &decoder{buf: body[len(compactMagic)+1:]}
	n, err := d.count(2)
	if err != nil {
		return nil, fail("strings", err)
	}
	if n > MaxStrings {
		return nil, fail("strings", fmt.Errorf("at most %d, got %d", MaxStrings, n))
	}
	table := make([]string, 0, min(n, 4096))
	for i := 0; i < n; i++ {
		l, err := d.uvarint()
		if err != nil {
			return nil, fail(fmt.Sprintf("strings[%d]", i), err)
		}
		if l < 1 || l > maxStringLen || l > uint64(len(d.buf)) {
			return nil, fail(fmt.Sprintf("strings[%d]", i), fmt.Errorf("length %d out of range", l))
		}
		at := len(body) - len(d.buf)
		s := all[at : at+int(l)]
		d.buf = d.buf[l:]
		if !utf8.ValidString(s) {
			return nil, fail(fmt.Sprintf("strings[%d]", i), errors.New("not UTF-8"))
		}
		table = append(table, s)
	}
	d.table = table
	// A recipe takes at least 5 bytes (kind and four empty lists).
	n, err = d.count(5)
	if err != nil {
		return nil, fail("recipes", err)
	}
	if n > MaxRecipes {
		return nil, fail("recipes", fmt.Errorf("at most %d, got %d", MaxRecipes, n))
	}
	// Grown as recipes decode, so memory follows the recipes really there.
	b := &Book{Recipes: make([]Recipe, 0, min(n, 4096))}
	memo := itemMemo{}
	for i := 0; i < n; i++ {
		b.Recipes = append(b.Recipes, Recipe{})
		if err := d.recipe(&b.Recipes[i]); err != nil {
			var fe *FieldError
			if errors.As(err, &fe) {
				return nil, &FileError{File: file, Recipe: i, Field: fe.Field, Err: errors.New(fe.Msg)}
			}
			return nil, &FileError{File: file, Recipe: i, Err: err}
		}
		if err := b.Recipes[i].check(memo.check); err != nil {
			var fe *FieldError
			if errors.As(err, &fe) {
				return nil, &FileError{File: file, Recipe: i, Field: fe.Field, Err: errors.New(fe.Msg)}
			}
			return nil, &FileError{File: file, Recipe: i, Err: err}
		}
	}
	if len(d.buf) != 0 {
		return nil, fail("", fmt.Errorf("%d bytes after the last recipe", len(d.buf)))
	}
	return b, nil
}

// decoder reads the recipes of a compact file. Slices are cut from shared
// slabs, so a loaded book is a few large allocations rather than one per
// list.
type decoder struct {
	buf     []byte
	table   []string
	inputs  slab[Input]
	outputs slab[Output]
	strs    slab[string]
	fluids  slab[Fluid]
	cells   slab[int8]
}

type slab[T any] struct{ buf []T }

func (s *slab[T]) take(n int) []T {
	if n == 0 {
		return nil
	}
	if n > cap(s.buf)-len(s.buf) {
		s.buf = make([]T, 0, max(n, 4096))
	}
	start := len(s.buf)
	s.buf = s.buf[:start+n]
	return s.buf[start : start+n : start+n]
}

func (d *decoder) uvarint() (uint64, error) {
	v, n := binary.Uvarint(d.buf)
	if n == 0 {
		return 0, errTruncated
	}
	if n < 0 {
		return 0, errors.New("a number too large")
	}
	d.buf = d.buf[n:]
	return v, nil
}

func (d *decoder) varint() (int64, error) {
	v, n := binary.Varint(d.buf)
	if n == 0 {
		return 0, errTruncated
	}
	if n < 0 {
		return 0, errors.New("a number too large")
	}
	d.buf = d.buf[n:]
	return v, nil
}

func (d *decoder) byte() (byte, error) {
	if len(d.buf) == 0 {
		return 0, errTruncated
	}
	c := d.buf[0]
	d.buf = d.buf[1:]
	return c, nil
}

func (d *decoder) flag(field string) (bool, error) {
	c, err := d.byte()
	if err != nil {
		return false, err
	}
	if c > 1 {
		return false, fieldErr(field, "flag %d is neither 0 nor 1", c)
	}
	return c == 1, nil
}

// count reads a list's length, refusing one that could not fit in the
// bytes left at minSize bytes an element: allocations follow the bytes
// present, not a number the file claims.
func (d *decoder) count(minSize int) (int, error) {
	v, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if v > uint64(len(d.buf)/minSize) {
		return 0, fmt.Errorf("claims %d entries, more than the file holds", v)
	}
	return int(v), nil
}

func (d *decoder) listLen(field string, max, minSize int) (int, error) {
	n, err := d.count(minSize)
	if err != nil {
		return 0, fieldErr(field, "%v", err)
	}
	if n > max {
		return 0, fieldErr(field, "at most %d, got %d", max, n)
	}
	return n, nil
}

func (d *decoder) str(field string) (string, error) {
	v, err := d.uvarint()
	if err != nil {
		return "", fieldErr(field, "%v", err)
	}
	if v >= uint64(len(d.table)) {
		return "", fieldErr(field, "string %d of %d", v, len(d.table))
	}
	return d.table[v], nil
}

func (d *decoder) num32(field string) (int32, error) {
	v, err := d.uvarint()
	if err != nil {
		return 0, fieldErr(field, "%v", err)
	}
	if v > 1<<31-1 {
		return 0, fieldErr(field, "%d out of range", v)
	}
	return int32(v), nil
}

func (d *decoder) recipe(r *Recipe) error {
	k, err := d.byte()
	if err != nil {
		return err
	}
	r.Kind = Kind(k)
	switch r.Kind {
	case Shaped:
		if len(d.buf) < 3 {
			return errTruncated
		}
		r.Width, r.Height = d.buf[0], d.buf[1]
		d.buf = d.buf[2:]
		if r.ShapeGuessed, err = d.flag("guessed"); err != nil {
			return err
		}
		if r.Width < 1 || r.Width > 3 || r.Height < 1 || r.Height > 3 {
			return fieldErr("width", "a shape is 1..3 cells wide and tall, got %dx%d", r.Width, r.Height)
		}
		n := int(r.Width) * int(r.Height)
		if len(d.buf) < n {
			return errTruncated
		}
		r.Cells = d.cells.take(n)
		for i := range r.Cells {
			if d.buf[i] > MaxGridCells {
				return fieldErr(fmt.Sprintf("cells[%d]", i), "names input %d", int(d.buf[i])-1)
			}
			r.Cells[i] = int8(d.buf[i]) - 1
		}
		d.buf = d.buf[n:]
	case Shapeless, Smelting:
	case Machine:
		if r.Machine, err = d.str("machine"); err != nil {
			return err
		}
		for _, f := range []*int32{&r.Duration, &r.EUt} {
			v, err := d.varint()
			if err != nil {
				return fieldErr("duration", "%v", err)
			}
			if v > 1<<31-1 || v < -1<<31 {
				return fieldErr("duration", "%d out of range", v)
			}
			*f = int32(v)
		}
	default:
		return fieldErr("kind", "unknown recipe kind %d", k)
	}
	n, err := d.listLen("inputs", MaxInputs, 3)
	if err != nil {
		return err
	}
	r.Inputs = d.inputs.take(n)
	for i := range r.Inputs {
		if err := d.input(&r.Inputs[i]); err != nil {
			return within(fmt.Sprintf("inputs[%d]", i), err)
		}
	}
	if n, err = d.listLen("outputs", MaxOutputs, 3); err != nil {
		return err
	}
	r.Outputs = d.outputs.take(n)
	for i := range r.Outputs {
		o := &r.Outputs[i]
		if o.Item, err = d.str("item"); err == nil {
			if o.Count, err = d.num32("count"); err == nil {
				o.Chance, err = d.num32("chance")
			}
		}
		if err != nil {
			return within(fmt.Sprintf("outputs[%d]", i), err)
		}
	}
	for _, side := range []struct {
		field string
		into  *[]Fluid
	}{{"fluid_inputs", &r.FluidInputs}, {"fluid_outputs", &r.FluidOutputs}} {
		if n, err = d.listLen(side.field, MaxFluids, 2); err != nil {
			return err
		}
		*side.into = d.fluids.take(n)
		for i := range *side.into {
			f := &(*side.into)[i]
			if f.Name, err = d.str("name"); err == nil {
				f.Amount, err = d.num32("amount")
			}
			if err != nil {
				return within(fmt.Sprintf("%s[%d]", side.field, i), err)
			}
		}
	}
	return nil
}

func (d *decoder) input(in *Input) error {
	no, err := d.listLen("options", MaxOptions, 1)
	if err != nil {
		return err
	}
	in.Options = d.strs.take(no)
	for j := range in.Options {
		if in.Options[j], err = d.str("option"); err != nil {
			return within(fmt.Sprintf("options[%d]", j), err)
		}
	}
	if in.Count, err = d.num32("count"); err != nil {
		return err
	}
	in.Tool, err = d.flag("tool")
	return err
}

// within puts a field error inside a list element's path.
func within(path string, err error) error {
	var fe *FieldError
	if errors.As(err, &fe) {
		return fieldErr(path+"."+fe.Field, "%s", fe.Msg)
	}
	return fieldErr(path, "%v", err)
}
