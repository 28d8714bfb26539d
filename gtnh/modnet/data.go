package modnet

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// Data files, relative to the configuration root.
const (
	GregTechFile   = "gregtech.yaml"
	ContainersFile = "containers.yaml"
)

// MachineInfo names a GregTech machine by its meta tile entity id.
type MachineInfo struct {
	Kind    string // the machine kind skills search for: steam_boiler, …
	Variant string // the block tag of this machine: small_coal_boiler, …
	Name    string // GregTech's English name
}

// OreNames turns GregTech ore materials into ore dictionary names.
type OreNames struct {
	Stones      map[int]string // stone index → ore dictionary prefix
	SmallPrefix string
	// OtherStonesPrefix is the prefix of regular ores in the stones of the
	// metadata format that are not the legacy ones (Moon, the space
	// stones); empty: they have no name.
	OtherStonesPrefix string
	Materials         map[int]string // material id → name
}

// SlotRange is a run of container slots.
type SlotRange struct {
	First, Count int
}

// OpenSpec says how a container kind's window opens: by FML OpenGui (Mod
// and Gui; or Mod "modularui" and GregTechMachines, since ModularUI's gui id
// is assigned at start-up), or by vanilla Open Window (WindowType and Size).
type OpenSpec struct {
	Mod              string
	Gui              *int
	GregTechMachines []int
	WindowType       *int
	Size             int
}

// ContainerLayout is the slot layout of one container kind.
type ContainerLayout struct {
	Kind       string
	Machine    string
	Open       OpenSpec
	Slots      map[string]SlotRange
	Properties map[string]int
	// Tanks are the container's fluid tanks whose amount a Railcraft
	// window sends as an RC GUI_INTEGER, by fluid name.
	Tanks map[string]TankSpec
	Size  int // the number of container slots
}

// TankSpec is a fluid tank of a Railcraft window: the GUI_INTEGER data id
// that carries its amount (TankManager.initGuiData and updateGuiData send
// tank i's amount as data id 3i+1), and its capacity in mB, which Railcraft
// does not send.
type TankSpec struct {
	GuiInteger int
	Capacity   int
}

// TankForGuiInteger returns the tank whose amount a GUI_INTEGER with this
// data id carries.
func (c ContainerLayout) TankForGuiInteger(dataID int) (string, TankSpec, bool) {
	for name, t := range c.Tanks {
		if t.GuiInteger == dataID {
			return name, t, true
		}
	}
	return "", TankSpec{}, false
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
// slot layouts of the containers it opens. It is read-only once loaded.
type Data struct {
	Machines   map[int]MachineInfo
	Ores       OreNames
	Containers map[string]ContainerLayout
	byGui      map[string]string // "mod\x00gui" → kind
	byGTMeta   map[int]string    // meta tile entity id → kind
	byWindow   map[[2]int]string // {window type, size} → kind
}

// DefaultData loads the shipped data files.
func DefaultData() (*Data, error) { return LoadData(config.FS) }

// LoadData reads gregtech.yaml and containers.yaml from fsys, checks them and
// builds the lookups. Every problem in both files is reported (as
// strictyaml.Errors with file, line, column and field), not just the first.
func LoadData(fsys fs.FS) (*Data, error) {
	d := &Data{Machines: map[int]MachineInfo{}, Containers: map[string]ContainerLayout{},
		byGui: map[string]string{}, byGTMeta: map[int]string{}, byWindow: map[[2]int]string{}}
	gtRoot, err := parseFile(fsys, GregTechFile)
	if err != nil {
		return nil, err
	}
	ctRoot, err := parseFile(fsys, ContainersFile)
	if err != nil {
		return nil, err
	}
	gt := strictyaml.NewDecoder(GregTechFile)
	d.loadGregTech(gt, gtRoot)
	ct := strictyaml.NewDecoder(ContainersFile)
	d.loadContainers(ct, ctRoot)
	errs := append(gt.Errs, ct.Errs...)
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return d, nil
}

func parseFile(fsys fs.FS, name string) (*yaml.Node, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("modnet data: %w", err)
	}
	root, err := strictyaml.Parse(name, b)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return nil, strictyaml.Errors{{File: name, Msg: "empty file"}}
	}
	return root, nil
}

// intKeys returns a mapping's fields by integer key, reporting keys that are
// not integers in lo..hi.
func intKeys(dec *strictyaml.Decoder, n *yaml.Node, path string, lo, hi int) map[int]strictyaml.Field {
	out := map[int]strictyaml.Field{}
	for name, f := range dec.Mapping(n, path, nil) {
		id, err := strconv.Atoi(name)
		if err != nil || id < lo || id > hi {
			dec.Errorf(f.Key, strictyaml.Join(path, name), "key must be an integer in %d..%d", lo, hi)
			continue
		}
		out[id] = f
	}
	return out
}

func (d *Data) loadGregTech(dec *strictyaml.Decoder, root *yaml.Node) {
	top := dec.Mapping(root, "", []string{"machines", "ores"})
	dec.Require(root, "", top, "machines", "ores")
	for id, f := range intKeys(dec, top["machines"].Value, "machines", 1, 32767) {
		path := strictyaml.Join("machines", strconv.Itoa(id))
		m := dec.Mapping(f.Value, path, []string{"kind", "variant", "name"})
		dec.Require(f.Value, path, m, "kind", "variant", "name")
		var info MachineInfo
		info.Kind = word(dec, m["kind"].Value, strictyaml.Join(path, "kind"))
		info.Variant = word(dec, m["variant"].Value, strictyaml.Join(path, "variant"))
		if v := m["name"].Value; v != nil {
			info.Name, _ = dec.String(v, strictyaml.Join(path, "name"))
		}
		d.Machines[id] = info
	}

	oresNode := top["ores"].Value
	ores := dec.Mapping(oresNode, "ores", []string{"stones", "small_prefix", "other_stones_prefix", "materials"})
	if oresNode != nil {
		dec.Require(oresNode, "ores", ores, "stones", "small_prefix", "materials")
	}
	d.Ores = OreNames{Stones: map[int]string{}, Materials: map[int]string{}}
	for s, f := range intKeys(dec, ores["stones"].Value, "ores.stones", 0, 15) {
		d.Ores.Stones[s] = orePrefix(dec, f.Value, strictyaml.Join("ores.stones", strconv.Itoa(s)))
	}
	if v := ores["small_prefix"].Value; v != nil {
		d.Ores.SmallPrefix = orePrefix(dec, v, "ores.small_prefix")
	}
	if v := ores["other_stones_prefix"].Value; v != nil {
		d.Ores.OtherStonesPrefix = orePrefix(dec, v, "ores.other_stones_prefix")
	}
	for id, f := range intKeys(dec, ores["materials"].Value, "ores.materials", 1, 999) {
		path := strictyaml.Join("ores.materials", strconv.Itoa(id))
		name, ok := dec.String(f.Value, path)
		if ok && (name == "" || strings.ContainsAny(name, " :\t")) {
			dec.Errorf(f.Value, path, "material name %q must be one word", name)
		}
		d.Ores.Materials[id] = name
	}
	if oresNode != nil && len(d.Ores.Stones) == 0 {
		dec.Errorf(oresNode, "ores.stones", "no stones")
	}
	if oresNode != nil && len(d.Ores.Materials) == 0 {
		dec.Errorf(oresNode, "ores.materials", "no materials")
	}
}

// word decodes a lower_snake_case name.
func word(dec *strictyaml.Decoder, n *yaml.Node, path string) string {
	if n == nil {
		return ""
	}
	s, ok := dec.String(n, path)
	if !ok {
		return ""
	}
	if s == "" || strings.Trim(s, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
		dec.Errorf(n, path, "%q is not a lower_snake_case name", s)
	}
	return s
}

func orePrefix(dec *strictyaml.Decoder, n *yaml.Node, path string) string {
	s, ok := dec.String(n, path)
	if ok && !strings.HasPrefix(s, "ore") {
		dec.Errorf(n, path, "ore dictionary prefix %q does not start with \"ore\"", s)
	}
	return s
}

func (d *Data) loadContainers(dec *strictyaml.Decoder, root *yaml.Node) {
	top := dec.Mapping(root, "", []string{"containers"})
	dec.Require(root, "", top, "containers")
	kinds := dec.Mapping(top["containers"].Value, "containers", nil)
	for _, kind := range sortedKeys(kinds) {
		f := kinds[kind]
		path := strictyaml.Join("containers", kind)
		m := dec.Mapping(f.Value, path, []string{"machine", "open", "slots", "properties", "tanks"})
		dec.Require(f.Value, path, m, "machine", "open", "slots")
		c := ContainerLayout{Kind: kind, Slots: map[string]SlotRange{}, Properties: map[string]int{}, Tanks: map[string]TankSpec{}}
		c.Machine = word(dec, m["machine"].Value, strictyaml.Join(path, "machine"))
		loadSlots(dec, m["slots"].Value, strictyaml.Join(path, "slots"), &c)
		pp := strictyaml.Join(path, "properties")
		for name, p := range dec.Mapping(m["properties"].Value, pp, nil) {
			if id, ok := dec.Int(p.Value, strictyaml.Join(pp, name)); ok {
				if id < 0 || id > 32767 {
					dec.Errorf(p.Value, strictyaml.Join(pp, name), "window property %d outside 0..32767", id)
				}
				c.Properties[name] = id
			}
		}
		loadTanks(dec, m["tanks"].Value, strictyaml.Join(path, "tanks"), &c)
		if n := m["open"].Value; n != nil {
			d.loadOpen(dec, n, strictyaml.Join(path, "open"), &c)
		}
		d.Containers[kind] = c
	}
}

// loadTanks reads a layout's tanks: by fluid name, the GUI_INTEGER data id
// of the amount (0..255, a byte on the wire, one tank per id) and the
// capacity in mB (at least 1).
func loadTanks(dec *strictyaml.Decoder, n *yaml.Node, path string, c *ContainerLayout) {
	if n == nil {
		return
	}
	tanks := dec.Mapping(n, path, nil)
	ids := map[int]string{}
	for _, name := range sortedKeys(tanks) {
		tp := strictyaml.Join(path, name)
		f := tanks[name]
		m := dec.Mapping(f.Value, tp, []string{"gui_integer", "capacity"})
		dec.Require(f.Value, tp, m, "gui_integer", "capacity")
		word(dec, f.Key, tp)
		var t TankSpec
		okID, okCap := false, false
		if v := m["gui_integer"].Value; v != nil {
			t.GuiInteger, okID = dec.Int(v, strictyaml.Join(tp, "gui_integer"))
			if okID && (t.GuiInteger < 0 || t.GuiInteger > 255) {
				dec.Errorf(v, strictyaml.Join(tp, "gui_integer"), "data id %d outside 0..255", t.GuiInteger)
				okID = false
			}
			if prev, dup := ids[t.GuiInteger]; okID && dup {
				dec.Errorf(v, strictyaml.Join(tp, "gui_integer"), "data id %d already carries %s", t.GuiInteger, prev)
				okID = false
			}
		}
		if v := m["capacity"].Value; v != nil {
			t.Capacity, okCap = dec.Int(v, strictyaml.Join(tp, "capacity"))
			if okCap && t.Capacity < 1 {
				dec.Errorf(v, strictyaml.Join(tp, "capacity"), "capacity %d mB must be at least 1", t.Capacity)
				okCap = false
			}
		}
		if okID && okCap {
			ids[t.GuiInteger] = name
			c.Tanks[name] = t
		}
	}
}

// loadSlots reads named slot ranges and checks that they cover 0..size-1
// once each.
func loadSlots(dec *strictyaml.Decoder, n *yaml.Node, path string, c *ContainerLayout) {
	if n == nil {
		return
	}
	type run struct {
		name        string
		node        *yaml.Node
		first, last int
	}
	var runs []run
	slots := dec.Mapping(n, path, nil)
	if len(slots) == 0 {
		dec.Errorf(n, path, "no slots")
		return
	}
	for _, name := range sortedKeys(slots) {
		sp := strictyaml.Join(path, name)
		f := slots[name]
		m := dec.Mapping(f.Value, sp, []string{"first", "count"})
		dec.Require(f.Value, sp, m, "first")
		r := SlotRange{Count: 1}
		ok := m["first"].Value != nil
		if ok {
			r.First, ok = dec.Int(m["first"].Value, strictyaml.Join(sp, "first"))
		}
		if v := m["count"].Value; v != nil {
			var okc bool
			r.Count, okc = dec.Int(v, strictyaml.Join(sp, "count"))
			ok = ok && okc
		}
		if !ok {
			continue
		}
		if r.First < 0 || r.Count < 1 || r.First+r.Count > 1024 {
			dec.Errorf(f.Value, sp, "first %d and count %d must lie in 0..1023 with count at least 1", r.First, r.Count)
			continue
		}
		c.Slots[name] = r
		runs = append(runs, run{name, f.Value, r.First, r.First + r.Count - 1})
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].first < runs[j].first })
	next := 0
	for _, r := range runs {
		if r.first < next {
			dec.Errorf(r.node, strictyaml.Join(path, r.name), "slot %d is already named", r.first)
		} else if r.first > next {
			dec.Errorf(r.node, strictyaml.Join(path, r.name), "slots %d..%d are not named", next, r.first-1)
		}
		next = max(next, r.last+1)
	}
	c.Size = next
}

func (d *Data) loadOpen(dec *strictyaml.Decoder, n *yaml.Node, path string, c *ContainerLayout) {
	m := dec.Mapping(n, path, []string{"mod", "gui", "gregtech_machines", "window_type", "size"})
	has := func(k string) bool { _, ok := m[k]; return ok }
	intField := func(k string) *int {
		if v := m[k].Value; v != nil {
			if i, ok := dec.Int(v, strictyaml.Join(path, k)); ok {
				return &i
			}
		}
		return nil
	}
	var o OpenSpec
	if v := m["mod"].Value; v != nil {
		o.Mod, _ = dec.String(v, strictyaml.Join(path, "mod"))
	}
	o.Gui, o.WindowType = intField("gui"), intField("window_type")
	if s := intField("size"); s != nil {
		o.Size = *s
	}
	gp := strictyaml.Join(path, "gregtech_machines")
	for i, v := range dec.Sequence(m["gregtech_machines"].Value, gp) {
		if id, ok := dec.Int(v, strictyaml.Index(gp, i)); ok {
			o.GregTechMachines = append(o.GregTechMachines, id)
		}
	}
	c.Open = o
	switch {
	case has("window_type"):
		if has("mod") || has("gui") || has("gregtech_machines") {
			dec.Errorf(n, path, "window_type excludes mod, gui and gregtech_machines")
		}
		if o.WindowType == nil {
			return
		}
		if chest, ok := c.Slots["chest"]; o.Size <= 0 || (ok && o.Size != chest.Count) {
			dec.Errorf(n, strictyaml.Join(path, "size"), "size %d must be the count of the chest slots", o.Size)
		}
		key := [2]int{*o.WindowType, o.Size}
		if prev, dup := d.byWindow[key]; dup {
			dec.Errorf(n, path, "window type %d with size %d already opens %s", key[0], key[1], prev)
		}
		d.byWindow[key] = c.Kind
	case has("mod") && has("gui"):
		if has("gregtech_machines") || has("size") {
			dec.Errorf(n, path, "gui excludes gregtech_machines and size")
		}
		if o.Mod == "" || o.Gui == nil {
			dec.Errorf(n, path, "mod and gui must be set")
			return
		}
		key := o.Mod + "\x00" + strconv.Itoa(*o.Gui)
		if prev, dup := d.byGui[key]; dup {
			dec.Errorf(n, path, "mod %s gui %d already opens %s", o.Mod, *o.Gui, prev)
		}
		d.byGui[key] = c.Kind
	case has("mod") && has("gregtech_machines"):
		if has("size") {
			dec.Errorf(n, path, "gregtech_machines excludes size")
		}
		if len(o.GregTechMachines) == 0 {
			dec.Errorf(n, gp, "no machines")
		}
		for _, id := range o.GregTechMachines {
			if _, ok := d.Machines[id]; !ok {
				dec.Errorf(n, gp, "machine %d is not in %s", id, GregTechFile)
			}
			if prev, dup := d.byGTMeta[id]; dup {
				dec.Errorf(n, gp, "machine %d already opens %s", id, prev)
			}
			d.byGTMeta[id] = c.Kind
		}
	default:
		dec.Errorf(n, path, "needs mod and gui, mod and gregtech_machines, or window_type and size")
	}
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
