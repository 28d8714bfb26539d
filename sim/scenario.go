package sim

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
	"github.com/gtnh-agent/gtnh-agent/internal/suggest"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// Scenario describes a simulated world: its size and terrain, the blocks,
// trees, containers and machines placed on it, the player and the seed that
// makes every random choice (terrain, tree placement, drops) repeatable.
type Scenario struct {
	Name        string
	Description string
	Seed        int64
	// SizeX, SizeZ: the world spans x in [0, SizeX) and z in [0, SizeZ).
	SizeX, SizeZ int
	// Generator is "flat" (grass at GroundY), "hills" (gentle seeded
	// hills around GroundY) or "natural" (a seeded countryside around the
	// player's start: hills, a lake with sand, clay and gravel, gravel
	// patches, a stone outcrop; the player stands on the ground at its x
	// and z).
	Generator string
	GroundY   int
	Player    PlayerSpec
	Blocks    []BlockSpec
	Trees     []TreeSpec
	Machines  []MachineSpec
	// Hunger turns on the food bar's drain: the player's actions and the
	// passing time cost food, starving hurts and a fed player heals
	// (rules.Food). Off, the food level changes only by eating.
	Hunger bool
	// Night runs the day: the time of day advances with the game's
	// ticks, and the sky darkens from dusk to dawn (rules.Mobs). Off, the
	// time of day stays at Time.
	Night bool
	// Time is the time of day the world starts at (0..23999; 0 is
	// sunrise, 6000 noon, 18000 midnight).
	Time int
	// Mobs brings hostile mobs: zombies, skeletons, spiders and creepers
	// spawn in the dark around the player, chase and hurt it (sim/mobs.go).
	Mobs bool
	// Liquids turns on drowning and lava's hurt: with the eyes under
	// water the air supply runs down and then the player drowns, lava
	// touching the body hurts every 10 ticks and sets it burning
	// (sim/liquids.go). Off, water is harmless and lava hurts only a
	// player who falls into it (at once, as before).
	Liquids bool
	// Animals are the passive mobs placed when the world is made, as
	// SpawnerAnimals.performWorldGenSpawning places a new chunk's.
	Animals []AnimalSpec
	// OreVeins lays GregTech's ore veins in a natural world's stone, as
	// a GTNH 2.8 overworld has them (sim/veins.go, config/ores.yaml), 0
	// for none: each of the world's own vein seeds stands for this many
	// seeds of the overworld a player explores, and gets the first of
	// their veins whose ores the simulator places.
	OreVeins int
	File     string
}

// AnimalSpec places Count passive mobs of a kind (config/mobs.yaml, attack
// none: sheep) on grass at seeded columns of the area [X, X2] × [Z, Z2].
type AnimalSpec struct {
	Kind   string
	Count  int
	X, Z   int
	X2, Z2 int
}

// PlayerSpec is the player's start.
type PlayerSpec struct {
	Pos       world.BlockPos
	Dimension string
	Health    float64
	Food      float64
	Inventory []StackSpec
}

// StackSpec is an item stack in a scenario: "modid:name[:meta]", a count
// and, for tools, durability left out of a maximum.
type StackSpec struct {
	Item          string
	Count         int
	Durability    int
	MaxDurability int
}

// Stack converts the spec to an item stack with tags from a tag table.
func (s StackSpec) Stack(tags *rules.TagTable) world.ItemStack {
	id, meta, _ := world.SplitID(s.Item)
	if meta < 0 {
		meta = 0
	}
	st := tags.Stack(id, meta, s.Count)
	if s.MaxDurability > 0 {
		st.MaxDamage = s.MaxDurability
		st.Damage = s.MaxDurability - s.Durability
	}
	return st
}

// BlockSpec places one block (Pos) or fills a box (From..To, inclusive).
type BlockSpec struct {
	Block    string
	Pos      *world.BlockPos
	From, To *world.BlockPos
}

// TreeSpec plants one tree with its trunk base on the ground at (X, Z), or
// Random trees in the area [X, X2] × [Z, Z2].
type TreeSpec struct {
	X, Z   int
	X2, Z2 int
	Random int
	Height int // 0 = seeded 4..6
}

// MachineSpec places a machine (and its block).
type MachineSpec struct {
	Kind        string
	Pos         world.BlockPos
	Formed      bool
	Slots       map[string]StackSpec
	Fluids      map[string]world.FluidTank
	Temperature float64
}

// generators are the terrains a scenario can ask for.
var generators = []string{"flat", "hills", "natural"}

var scenarioKeys = []string{"name", "description", "seed", "size", "generator", "ground_y", "player", "blocks", "trees", "machines", "hunger", "night", "time", "mobs", "liquids", "animals", "ore_veins"}

// machineBlocks is the block each machine kind stands on in the world.
var machineBlocks = map[string]string{
	world.MachineCokeOven:    "Railcraft:machine.alpha:7",
	world.MachineSteamBoiler: "gregtech:gt.blockmachines:1",
	world.MachineWaterTank:   "BuildCraft|Factory:tankBlock",
	world.MachineChest:       "minecraft:chest",
}

// Names returns the item and block names of the simulated world: those of
// the shipped tables, which every block, machine, fuel and recipe of the
// simulator comes from (a test keeps it so). The simulator knows nothing
// else, so a scenario, goal or script naming anything else is refused
// before a run. Shared: Clone it before adding names.
func Names() *rules.Names { return rules.Default().Names }

// machineFluids are the tanks each machine kind has in the simulator: a
// scenario may fill these and no others (a misspelt tank would be a tank the
// machine never reads).
var machineFluids = map[string][]string{
	world.MachineCokeOven:    {"creosote"},
	world.MachineSteamBoiler: {"steam", "water"},
	world.MachineWaterTank:   {"water"},
	world.MachineChest:       nil,
}

// ParseScenario reads and validates a scenario file; every problem is
// reported with file:line:column. Blocks and items must be names the
// simulator knows (Names), with the nearest known name as a hint.
func ParseScenario(file string, data []byte) (*Scenario, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	sc := &Scenario{File: file, Generator: "flat", GroundY: 63, SizeX: 64, SizeZ: 64,
		Player: PlayerSpec{Dimension: world.Overworld, Health: 20, Food: 20}}
	if root == nil {
		d.Errorf(nil, "", "empty scenario")
		return nil, d.Errs
	}
	f := d.Mapping(root, "", scenarioKeys)
	if root.Kind != yaml.MappingNode {
		return nil, d.Errs
	}
	d.Require(root, "", f, "name", "player")
	str := func(key string, into *string) {
		if n, ok := f[key]; ok {
			if v, ok := d.String(n.Value, key); ok {
				*into = v
			}
		}
	}
	str("name", &sc.Name)
	str("description", &sc.Description)
	if n, ok := f["seed"]; ok {
		if v, ok := d.Int(n.Value, "seed"); ok {
			sc.Seed = int64(v)
		}
	}
	if n, ok := f["size"]; ok {
		fs := d.Mapping(n.Value, "size", []string{"x", "z"})
		d.Require(n.Value, "size", fs, "x", "z")
		for key, into := range map[string]*int{"x": &sc.SizeX, "z": &sc.SizeZ} {
			if v, ok := fs[key]; ok {
				if s, ok := d.Int(v.Value, "size."+key); ok {
					if s < 8 || s > 1024 {
						d.Errorf(v.Value, "size."+key, "must be within 8..1024, got %d", s)
					}
					*into = s
				}
			}
		}
	}
	str("generator", &sc.Generator)
	if n, ok := f["generator"]; ok && !slices.Contains(generators, sc.Generator) {
		d.Errorf(n.Value, "generator", "must be flat, hills or natural, got %q%s", sc.Generator, suggest.DidYouMean(sc.Generator, generators))
	}
	if n, ok := f["ground_y"]; ok {
		if v, ok := d.Int(n.Value, "ground_y"); ok {
			if v < 4 || v > 200 {
				d.Errorf(n.Value, "ground_y", "must be within 4..200, got %d", v)
			}
			sc.GroundY = v
		}
	}
	if n, ok := f["hunger"]; ok {
		sc.Hunger, _ = d.Bool(n.Value, "hunger")
	}
	if n, ok := f["night"]; ok {
		sc.Night, _ = d.Bool(n.Value, "night")
	}
	if n, ok := f["mobs"]; ok {
		sc.Mobs, _ = d.Bool(n.Value, "mobs")
	}
	if n, ok := f["liquids"]; ok {
		sc.Liquids, _ = d.Bool(n.Value, "liquids")
	}
	if n, ok := f["ore_veins"]; ok {
		if v, ok := d.Int(n.Value, "ore_veins"); ok {
			if v < 0 || v > 64 {
				d.Errorf(n.Value, "ore_veins", "must be within 0..64 (the seeds of the explored overworld each of the world's vein seeds stands for; 0: no veins), got %d", v)
			}
			sc.OreVeins = v
		}
		if sc.OreVeins > 0 && sc.Generator != "natural" {
			d.Errorf(n.Value, "ore_veins", "ore veins are laid in a natural world's stone (generator: natural), got generator %q", sc.Generator)
		}
	}
	if n, ok := f["time"]; ok {
		if v, ok := d.Int(n.Value, "time"); ok {
			if v < 0 || v > 23999 {
				d.Errorf(n.Value, "time", "must be a time of day within 0..23999 (0 sunrise, 6000 noon, 18000 midnight), got %d", v)
			}
			sc.Time = v
		}
	}
	p := &scenarioParser{Decoder: d, sc: sc}
	if n, ok := f["player"]; ok {
		p.player(n.Value)
	}
	if n, ok := f["blocks"]; ok {
		for i, c := range d.Sequence(n.Value, "blocks") {
			p.block(c, strictyaml.Index("blocks", i))
		}
	}
	if n, ok := f["trees"]; ok {
		for i, c := range d.Sequence(n.Value, "trees") {
			p.tree(c, strictyaml.Index("trees", i))
		}
	}
	if n, ok := f["machines"]; ok {
		for i, c := range d.Sequence(n.Value, "machines") {
			p.machine(c, strictyaml.Index("machines", i))
		}
	}
	if n, ok := f["animals"]; ok {
		for i, c := range d.Sequence(n.Value, "animals") {
			p.animals(c, strictyaml.Index("animals", i))
		}
	}
	if err := d.Err(); err != nil {
		d.Errs.Sort()
		return nil, d.Errs
	}
	return sc, nil
}

type scenarioParser struct {
	*strictyaml.Decoder
	sc *Scenario
}

func (p *scenarioParser) inside(n *yaml.Node, path string, pos world.BlockPos) {
	if pos.X < 0 || pos.X >= p.sc.SizeX || pos.Z < 0 || pos.Z >= p.sc.SizeZ || pos.Y < 0 || pos.Y > 255 {
		p.Errorf(n, path, "%v is outside the world (x 0..%d, y 0..255, z 0..%d)", pos, p.sc.SizeX-1, p.sc.SizeZ-1)
	}
}

func (p *scenarioParser) pos(n *yaml.Node, path string) (world.BlockPos, bool) {
	items := p.Sequence(n, path)
	if len(items) != 3 {
		if n.Kind == yaml.SequenceNode {
			p.Errorf(n, path, "a position is [x, y, z]")
		}
		return world.BlockPos{}, false
	}
	var c [3]int
	for i, it := range items {
		v, ok := p.Int(it, strictyaml.Index(path, i))
		if !ok {
			return world.BlockPos{}, false
		}
		c[i] = v
	}
	pos := world.Pos(c[0], c[1], c[2])
	p.inside(n, path, pos)
	return pos, true
}

func (p *scenarioParser) id(n *yaml.Node, path string) (string, bool) {
	s, ok := p.String(n, path)
	if !ok {
		return "", false
	}
	if _, _, err := world.SplitID(s); err != nil {
		p.Errorf(n, path, "%v", err)
		return "", false
	}
	return s, true
}

func (p *scenarioParser) stack(n *yaml.Node, path string) (StackSpec, bool) {
	f := p.Mapping(n, path, []string{"item", "count", "durability", "max_durability"})
	p.Require(n, path, f, "item")
	st := StackSpec{Count: 1}
	ok := true
	if v, has := f["item"]; has {
		st.Item, ok = p.id(v.Value, path+".item")
		if ok {
			if err := Names().CheckItem(st.Item); err != nil {
				p.Errorf(v.Value, path+".item", "%v", err)
				ok = false
			}
		}
	}
	if v, has := f["count"]; has {
		if c, good := p.Int(v.Value, path+".count"); good {
			if c < 1 || c > 64 {
				p.Errorf(v.Value, path+".count", "must be within 1..64, got %d", c)
			}
			st.Count = c
		}
	}
	if v, has := f["max_durability"]; has {
		st.MaxDurability, _ = p.Int(v.Value, path+".max_durability")
		st.Durability = st.MaxDurability
	}
	if v, has := f["durability"]; has {
		if dv, good := p.Int(v.Value, path+".durability"); good {
			if st.MaxDurability == 0 {
				p.Errorf(v.Key, path+".durability", "needs max_durability")
			} else if dv < 0 || dv > st.MaxDurability {
				p.Errorf(v.Value, path+".durability", "must be within 0..%d", st.MaxDurability)
			}
			st.Durability = dv
		}
	}
	return st, ok
}

func (p *scenarioParser) player(n *yaml.Node) {
	f := p.Mapping(n, "player", []string{"pos", "dimension", "health", "food", "inventory"})
	p.Require(n, "player", f, "pos")
	pl := &p.sc.Player
	if v, ok := f["pos"]; ok {
		pl.Pos, _ = p.pos(v.Value, "player.pos")
	}
	if v, ok := f["dimension"]; ok {
		pl.Dimension, _ = p.String(v.Value, "player.dimension")
	}
	for key, into := range map[string]*float64{"health": &pl.Health, "food": &pl.Food} {
		if v, ok := f[key]; ok {
			if x, ok := p.Float(v.Value, "player."+key); ok {
				if x < 0 || x > 20 {
					p.Errorf(v.Value, "player."+key, "must be within 0..20")
				}
				*into = x
			}
		}
	}
	if v, ok := f["inventory"]; ok {
		items := p.Sequence(v.Value, "player.inventory")
		if len(items) > 36 {
			p.Errorf(v.Value, "player.inventory", "at most 36 stacks fit, got %d", len(items))
		}
		for i, c := range items {
			if st, ok := p.stack(c, strictyaml.Index("player.inventory", i)); ok {
				pl.Inventory = append(pl.Inventory, st)
			}
		}
	}
}

func (p *scenarioParser) block(n *yaml.Node, path string) {
	f := p.Mapping(n, path, []string{"block", "pos", "from", "to"})
	p.Require(n, path, f, "block")
	var b BlockSpec
	if v, ok := f["block"]; ok {
		if id, ok := p.id(v.Value, path+".block"); ok {
			if err := Names().CheckBlock(id); err != nil {
				p.Errorf(v.Value, path+".block", "%v", err)
			}
			b.Block = id
		}
	}
	_, hasPos := f["pos"]
	_, hasFrom := f["from"]
	_, hasTo := f["to"]
	switch {
	case hasPos && !hasFrom && !hasTo:
		if pos, ok := p.pos(f["pos"].Value, path+".pos"); ok {
			b.Pos = &pos
		}
	case !hasPos && hasFrom && hasTo:
		from, ok1 := p.pos(f["from"].Value, path+".from")
		to, ok2 := p.pos(f["to"].Value, path+".to")
		if ok1 && ok2 {
			lo := world.Pos(min(from.X, to.X), min(from.Y, to.Y), min(from.Z, to.Z))
			hi := world.Pos(max(from.X, to.X), max(from.Y, to.Y), max(from.Z, to.Z))
			b.From, b.To = &lo, &hi
		}
	default:
		p.Errorf(n, path, "give either pos, or from and to")
	}
	p.sc.Blocks = append(p.sc.Blocks, b)
}

func (p *scenarioParser) tree(n *yaml.Node, path string) {
	f := p.Mapping(n, path, []string{"at", "height", "random", "area"})
	var t TreeSpec
	col := func(v *yaml.Node, cpath string) ([2]int, bool) {
		items := p.Sequence(v, cpath)
		if len(items) != 2 {
			p.Errorf(v, cpath, "a column is [x, z]")
			return [2]int{}, false
		}
		var c [2]int
		for i, it := range items {
			x, ok := p.Int(it, strictyaml.Index(cpath, i))
			if !ok {
				return [2]int{}, false
			}
			c[i] = x
		}
		if c[0] < 2 || c[0] >= p.sc.SizeX-2 || c[1] < 2 || c[1] >= p.sc.SizeZ-2 {
			p.Errorf(v, cpath, "trees need 2 blocks of room inside the world")
		}
		return c, true
	}
	_, hasAt := f["at"]
	_, hasRandom := f["random"]
	switch {
	case hasAt && !hasRandom:
		if _, hasArea := f["area"]; hasArea {
			p.Errorf(n, path, "area goes with random, not at")
		}
		if c, ok := col(f["at"].Value, path+".at"); ok {
			t.X, t.Z, t.X2, t.Z2 = c[0], c[1], c[0], c[1]
		}
	case hasRandom && !hasAt:
		if r, ok := p.Int(f["random"].Value, path+".random"); ok {
			if r < 1 || r > 10000 {
				p.Errorf(f["random"].Value, path+".random", "must be within 1..10000")
			}
			t.Random = r
		}
		t.X, t.Z, t.X2, t.Z2 = 2, 2, p.sc.SizeX-3, p.sc.SizeZ-3
		if v, ok := f["area"]; ok {
			items := p.Sequence(v.Value, path+".area")
			if len(items) != 2 {
				p.Errorf(v.Value, path+".area", "an area is [[x1, z1], [x2, z2]]")
			} else {
				a, ok1 := col(items[0], strictyaml.Index(path+".area", 0))
				b, ok2 := col(items[1], strictyaml.Index(path+".area", 1))
				if ok1 && ok2 {
					t.X, t.Z, t.X2, t.Z2 = min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])
				}
			}
		}
	default:
		p.Errorf(n, path, "give either at: [x, z] or random: N")
	}
	if v, ok := f["height"]; ok {
		if h, ok := p.Int(v.Value, path+".height"); ok {
			if h < 3 || h > 12 {
				p.Errorf(v.Value, path+".height", "must be within 3..12")
			}
			t.Height = h
		}
	}
	p.sc.Trees = append(p.sc.Trees, t)
}

// animals reads {kind: sheep, count: N, area: [[x1, z1], [x2, z2]]}; the
// kind is checked against the mob table when the world is built.
func (p *scenarioParser) animals(n *yaml.Node, path string) {
	f := p.Mapping(n, path, []string{"kind", "count", "area"})
	p.Require(n, path, f, "kind", "count", "area")
	var a AnimalSpec
	if v, ok := f["kind"]; ok {
		if k, ok := p.String(v.Value, path+".kind"); ok {
			if k == "" {
				p.Errorf(v.Value, path+".kind", "must name a passive mob (sheep)")
			}
			a.Kind = k
		}
	}
	if v, ok := f["count"]; ok {
		if c, ok := p.Int(v.Value, path+".count"); ok {
			if c < 1 || c > 1000 {
				p.Errorf(v.Value, path+".count", "must be within 1..1000, got %d", c)
			}
			a.Count = c
		}
	}
	if v, ok := f["area"]; ok {
		items := p.Sequence(v.Value, path+".area")
		if len(items) != 2 {
			p.Errorf(v.Value, path+".area", "an area is [[x1, z1], [x2, z2]]")
		} else {
			var cs [2][2]int
			good := true
			for i, it := range items {
				cpath := strictyaml.Index(path+".area", i)
				xz := p.Sequence(it, cpath)
				if len(xz) != 2 {
					p.Errorf(it, cpath, "a column is [x, z]")
					good = false
					continue
				}
				for j, c := range xz {
					v, ok := p.Int(c, strictyaml.Index(cpath, j))
					good = good && ok
					cs[i][j] = v
				}
				if good && (cs[i][0] < 0 || cs[i][0] >= p.sc.SizeX || cs[i][1] < 0 || cs[i][1] >= p.sc.SizeZ) {
					p.Errorf(it, cpath, "[%d, %d] is outside the world (x 0..%d, z 0..%d)", cs[i][0], cs[i][1], p.sc.SizeX-1, p.sc.SizeZ-1)
				}
			}
			if good {
				a.X, a.Z = min(cs[0][0], cs[1][0]), min(cs[0][1], cs[1][1])
				a.X2, a.Z2 = max(cs[0][0], cs[1][0]), max(cs[0][1], cs[1][1])
			}
		}
	}
	p.sc.Animals = append(p.sc.Animals, a)
}

func (p *scenarioParser) machine(n *yaml.Node, path string) {
	f := p.Mapping(n, path, []string{"kind", "pos", "formed", "slots", "fluids", "temperature"})
	p.Require(n, path, f, "kind", "pos")
	m := MachineSpec{Formed: true}
	if v, ok := f["kind"]; ok {
		if k, ok := p.String(v.Value, path+".kind"); ok {
			if _, known := machineBlocks[k]; !known {
				kinds := make([]string, 0, len(machineBlocks))
				for k := range machineBlocks {
					kinds = append(kinds, k)
				}
				sort.Strings(kinds)
				p.Errorf(v.Value, path+".kind", "unknown machine kind %q%s (known: %s)", k, suggest.DidYouMean(k, kinds), strings.Join(kinds, ", "))
			}
			m.Kind = k
		}
	}
	if v, ok := f["pos"]; ok {
		m.Pos, _ = p.pos(v.Value, path+".pos")
	}
	if v, ok := f["formed"]; ok {
		m.Formed, _ = p.Bool(v.Value, path+".formed")
	}
	if v, ok := f["temperature"]; ok {
		m.Temperature, _ = p.Float(v.Value, path+".temperature")
	}
	if v, ok := f["slots"]; ok {
		m.Slots = map[string]StackSpec{}
		for name, s := range p.Mapping(v.Value, path+".slots", nil) {
			if st, ok := p.stack(s.Value, path+".slots."+name); ok {
				m.Slots[name] = st
			}
		}
	}
	if v, ok := f["fluids"]; ok {
		m.Fluids = map[string]world.FluidTank{}
		for name, s := range p.Mapping(v.Value, path+".fluids", nil) {
			fp := path + ".fluids." + name
			if tanks, known := machineFluids[m.Kind]; known && !slices.Contains(tanks, name) {
				if len(tanks) == 0 {
					p.Errorf(s.Key, fp, "a %s has no fluid tanks", m.Kind)
				} else {
					p.Errorf(s.Key, fp, "a %s has no %q tank%s (its tanks: %s)", m.Kind, name, suggest.DidYouMean(name, tanks), strings.Join(tanks, ", "))
				}
			}
			ff := p.Mapping(s.Value, fp, []string{"amount", "capacity"})
			p.Require(s.Value, fp, ff, "capacity")
			tank := world.FluidTank{Fluid: name}
			if a, ok := ff["amount"]; ok {
				tank.Amount, _ = p.Int(a.Value, fp+".amount")
			}
			if c, ok := ff["capacity"]; ok {
				tank.Capacity, _ = p.Int(c.Value, fp+".capacity")
			}
			if tank.Capacity < 1 || tank.Amount < 0 || tank.Amount > tank.Capacity {
				p.Errorf(s.Value, fp, "amount must be within 0..capacity and capacity at least 1 (mB)")
			}
			if tanks := machineTanks(m.Kind); tanks != nil {
				// Boilers and coke ovens have the real machines' tanks.
				// (an unknown tank was reported above, with a suggestion)
				if want, ok := tanks[name]; ok {
					if c, ok := ff["capacity"]; ok && tank.Capacity != want {
						p.Errorf(c.Value, fp+".capacity", "a %s's %s tank holds %d mB, not %d", m.Kind, name, want, tank.Capacity)
					}
				}
			}
			m.Fluids[name] = tank
		}
	}
	p.sc.Machines = append(p.sc.Machines, m)
}

// String names the scenario.
func (sc *Scenario) String() string { return fmt.Sprintf("%s (%s)", sc.Name, sc.File) }

// LoadScenario reads and parses a scenario file (at most
// filelimit.MaxConfig bytes).
func LoadScenario(file string) (*Scenario, error) {
	data, err := filelimit.ReadFile(file, filelimit.MaxConfig)
	if err != nil {
		return nil, err
	}
	return ParseScenario(file, data)
}
