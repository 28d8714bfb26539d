package modnet

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gtnh-agent/gtnh-agent/config"
)

// Data files, relative to the configuration root.
const (
	GregTechFile   = "gregtech.yaml"
	ContainersFile = "containers.yaml"
)

// MachineInfo names a GregTech machine by its meta tile entity id.
type MachineInfo struct {
	Kind    string `yaml:"kind"`    // the machine kind skills search for: steam_boiler, …
	Variant string `yaml:"variant"` // the block tag of this machine: small_coal_boiler, …
	Name    string `yaml:"name"`    // GregTech's English name
}

// OreNames turns GregTech ore materials into ore dictionary names.
type OreNames struct {
	Stones      map[int]string `yaml:"stones"`
	SmallPrefix string         `yaml:"small_prefix"`
	Materials   map[int]string `yaml:"materials"`
}

// SlotRange is a run of container slots. Count 0 in a file means 1.
type SlotRange struct {
	First int `yaml:"first"`
	Count int `yaml:"count"`
}

// OpenSpec says how a container kind's window opens: by FML OpenGui (Mod
// and Gui; or Mod "modularui" and GregTechMachines, since ModularUI's gui id
// is assigned at start-up), or by vanilla Open Window (WindowType and Size).
type OpenSpec struct {
	Mod              string `yaml:"mod"`
	Gui              *int   `yaml:"gui"`
	GregTechMachines []int  `yaml:"gregtech_machines"`
	WindowType       *int   `yaml:"window_type"`
	Size             int    `yaml:"size"`
}

// ContainerLayout is the slot layout of one container kind.
type ContainerLayout struct {
	Kind       string               `yaml:"-"`
	Machine    string               `yaml:"machine"`
	Open       OpenSpec             `yaml:"open"`
	Slots      map[string]SlotRange `yaml:"slots"`
	Properties map[string]int       `yaml:"properties"`
	// Size is the number of container slots (computed).
	Size int `yaml:"-"`
}

// Slot returns the container slot of a single named slot.
func (c ContainerLayout) Slot(name string) (int, bool) {
	r, ok := c.Slots[name]
	if !ok || r.Count != 1 {
		return 0, false
	}
	return r.First, true
}

// Data is the mod data the client reads: GregTech machines and ores, and the
// slot layouts of the containers it opens.
type Data struct {
	Machines   map[int]MachineInfo
	Ores       OreNames
	Containers map[string]ContainerLayout
	byGui      map[string]string // "mod\x00gui" → kind
	byGTMeta   map[int]string    // meta tile entity id → kind
	byWindow   map[[2]int]string // {window type, size} → kind
}

type gregtechFile struct {
	Machines map[int]MachineInfo `yaml:"machines"`
	Ores     OreNames            `yaml:"ores"`
}

type containersFile struct {
	Containers map[string]ContainerLayout `yaml:"containers"`
}

// DataError lists every problem found in the data files.
type DataError struct {
	Problems []string // "file: field: problem"
}

func (e *DataError) Error() string {
	return "modnet data: " + strings.Join(e.Problems, "; ")
}

// DefaultData loads the shipped data files.
func DefaultData() (*Data, error) { return LoadData(config.FS) }

// LoadData reads gregtech.yaml and containers.yaml from fsys, checks them and
// builds the lookups. Every problem found is reported, not just the first.
func LoadData(fsys fs.FS) (*Data, error) {
	var probs []string
	addf := func(file, format string, args ...any) {
		probs = append(probs, file+": "+fmt.Sprintf(format, args...))
	}
	var gt gregtechFile
	if err := decodeStrict(fsys, GregTechFile, &gt); err != nil {
		return nil, err
	}
	var cf containersFile
	if err := decodeStrict(fsys, ContainersFile, &cf); err != nil {
		return nil, err
	}
	d := &Data{Machines: gt.Machines, Ores: gt.Ores, Containers: map[string]ContainerLayout{},
		byGui: map[string]string{}, byGTMeta: map[int]string{}, byWindow: map[[2]int]string{}}

	for _, id := range sortedKeys(gt.Machines) {
		m := gt.Machines[id]
		if id <= 0 || id > 32767 {
			addf(GregTechFile, "machines.%d: id outside 1..32767", id)
		}
		if m.Kind == "" || m.Variant == "" || m.Name == "" {
			addf(GregTechFile, "machines.%d: kind, variant and name are required", id)
		}
	}
	if len(gt.Ores.Stones) == 0 {
		addf(GregTechFile, "ores.stones: empty")
	}
	for _, s := range sortedKeys(gt.Ores.Stones) {
		if s < 0 || s > 15 {
			addf(GregTechFile, "ores.stones.%d: stone index outside 0..15", s)
		}
		if !strings.HasPrefix(gt.Ores.Stones[s], "ore") {
			addf(GregTechFile, "ores.stones.%d: prefix %q does not start with \"ore\"", s, gt.Ores.Stones[s])
		}
	}
	if !strings.HasPrefix(gt.Ores.SmallPrefix, "ore") {
		addf(GregTechFile, "ores.small_prefix: %q does not start with \"ore\"", gt.Ores.SmallPrefix)
	}
	if len(gt.Ores.Materials) == 0 {
		addf(GregTechFile, "ores.materials: empty")
	}
	for _, id := range sortedKeys(gt.Ores.Materials) {
		if id <= 0 || id > 999 {
			addf(GregTechFile, "ores.materials.%d: id outside 1..999", id)
		}
		if n := gt.Ores.Materials[id]; n == "" || strings.ContainsAny(n, " :") {
			addf(GregTechFile, "ores.materials.%d: name %q must be one word", id, n)
		}
	}

	for _, kind := range sortedKeys(cf.Containers) {
		c := cf.Containers[kind]
		c.Kind = kind
		field := "containers." + kind
		if c.Machine == "" {
			addf(ContainersFile, "%s.machine: required", field)
		}
		size, slotProbs := checkSlots(c.Slots)
		for _, p := range slotProbs {
			addf(ContainersFile, "%s.slots: %s", field, p)
		}
		c.Size = size
		for name, id := range c.Properties {
			if id < 0 || id > 32767 {
				addf(ContainersFile, "%s.properties.%s: id %d outside 0..32767", field, name, id)
			}
		}
		o := c.Open
		switch {
		case o.WindowType != nil:
			if o.Mod != "" || o.Gui != nil || len(o.GregTechMachines) > 0 {
				addf(ContainersFile, "%s.open: window_type excludes mod, gui and gregtech_machines", field)
			}
			if o.Size <= 0 || (c.Slots["chest"] != SlotRange{} && o.Size != c.Slots["chest"].Count) {
				addf(ContainersFile, "%s.open.size: %d does not match the chest slots", field, o.Size)
			}
			key := [2]int{*o.WindowType, o.Size}
			if prev, dup := d.byWindow[key]; dup {
				addf(ContainersFile, "%s.open: same window type and size as %s", field, prev)
			}
			d.byWindow[key] = kind
		case o.Mod != "" && o.Gui != nil:
			if len(o.GregTechMachines) > 0 {
				addf(ContainersFile, "%s.open: gui and gregtech_machines exclude each other", field)
			}
			key := o.Mod + "\x00" + strconv.Itoa(*o.Gui)
			if prev, dup := d.byGui[key]; dup {
				addf(ContainersFile, "%s.open: same mod and gui as %s", field, prev)
			}
			d.byGui[key] = kind
		case o.Mod != "" && len(o.GregTechMachines) > 0:
			for _, id := range o.GregTechMachines {
				if _, ok := gt.Machines[id]; !ok {
					addf(ContainersFile, "%s.open.gregtech_machines: %d is not in %s", field, id, GregTechFile)
				}
				if prev, dup := d.byGTMeta[id]; dup {
					addf(ContainersFile, "%s.open.gregtech_machines: %d already opens %s", field, id, prev)
				}
				d.byGTMeta[id] = kind
			}
		default:
			addf(ContainersFile, "%s.open: needs mod and gui, mod and gregtech_machines, or window_type and size", field)
		}
		d.Containers[kind] = c
	}
	if len(probs) > 0 {
		return nil, &DataError{Problems: probs}
	}
	return d, nil
}

// checkSlots normalises counts and checks that the ranges cover 0..size-1
// exactly once; it returns the size.
func checkSlots(slots map[string]SlotRange) (int, []string) {
	var probs []string
	if len(slots) == 0 {
		return 0, []string{"no slots"}
	}
	type run struct {
		name        string
		first, last int
	}
	var runs []run
	for _, name := range sortedKeys(slots) {
		r := slots[name]
		if r.Count == 0 {
			r.Count = 1
			slots[name] = r
		}
		if r.First < 0 || r.Count < 0 || r.Count > 1024 {
			probs = append(probs, fmt.Sprintf("%s: first %d count %d out of range", name, r.First, r.Count))
			continue
		}
		runs = append(runs, run{name, r.First, r.First + r.Count - 1})
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].first < runs[j].first })
	next := 0
	for _, r := range runs {
		if r.first < next {
			probs = append(probs, fmt.Sprintf("%s: slot %d already used", r.name, r.first))
		} else if r.first > next {
			probs = append(probs, fmt.Sprintf("slots %d..%d are not named", next, r.first-1))
		}
		next = max(next, r.last+1)
	}
	return next, probs
}

func decodeStrict(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return fmt.Errorf("modnet data: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		return &DataError{Problems: []string{name + ": " + err.Error()}}
	}
	return nil
}

func sortedKeys[K int | string, V any](m map[K]V) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	return ks
}

// Machine names a GregTech meta tile entity id.
func (d *Data) Machine(metaID int) (MachineInfo, bool) {
	m, ok := d.Machines[metaID]
	return m, ok
}

// ErrUnknownOre means an ore's material or stone is not in the data.
var ErrUnknownOre = errors.New("unknown ore")

// OreName returns the ore dictionary name of an ore, as a block tag
// ("ore:oreCopper", "ore:oreNetherrackCopper", "ore:oreSmallCopper"). A small
// ore's name carries no stone: GregTech has no per-stone small ore names.
func (d *Data) OreName(o Ore) (string, error) {
	mat, ok := d.Ores.Materials[o.Material]
	if !ok {
		return "", fmt.Errorf("%w: material %d", ErrUnknownOre, o.Material)
	}
	prefix, ok := d.Ores.Stones[o.Stone]
	if !ok {
		return "", fmt.Errorf("%w: stone %d", ErrUnknownOre, o.Stone)
	}
	if o.Small {
		prefix = d.Ores.SmallPrefix
	}
	return "ore:" + prefix + mat, nil
}

// LayoutForOpenGui returns the layout of a mod GUI with a fixed gui id.
func (d *Data) LayoutForOpenGui(g OpenGui) (ContainerLayout, bool) {
	k, ok := d.byGui[g.ModID+"\x00"+strconv.Itoa(int(g.GuiID))]
	if !ok {
		return ContainerLayout{}, false
	}
	return d.Containers[k], true
}

// LayoutForGregTech returns the layout of the ModularUI window of the
// GregTech machine with this meta tile entity id.
func (d *Data) LayoutForGregTech(metaID int) (ContainerLayout, bool) {
	k, ok := d.byGTMeta[metaID]
	if !ok {
		return ContainerLayout{}, false
	}
	return d.Containers[k], true
}

// LayoutForWindow returns the layout of a vanilla window by its Open Window
// inventory type and slot count.
func (d *Data) LayoutForWindow(windowType, size int) (ContainerLayout, bool) {
	k, ok := d.byWindow[[2]int{windowType, size}]
	if !ok {
		return ContainerLayout{}, false
	}
	return d.Containers[k], true
}
