package sim

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"sync"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/world"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
	"github.com/gtnh-agent/gtnh-agent/world/path"
)

// Sim is a simulated world and the body acting in it. It implements
// ipc.Body. All randomness comes from a PCG generator seeded by the
// scenario (and an optional seed override), and every iteration is in a
// fixed order, so a scenario, a seed and the same actions always give the
// same world.
type Sim struct {
	view  int // Options.ViewRadius
	sc    *Scenario
	seed  int64      // the scenario's, or the override
	rules *rules.Set // the game's rules this world follows
	state *world.State
	rng   *rand.Rand
	cells map[chunk.StateID]path.Cell
	// open is the container whose window is open, if any.
	open *world.BlockPos
	// chat is the newest chatHistory messages the player sent, chatNext
	// the number the next one gets; chatMu guards both (ChatSince runs
	// beside Execute).
	chatMu   sync.Mutex
	chat     []ipc.ChatLine
	chatNext uint64
	finder   *path.Finder
	// routes is the long-route planner move_to keeps between actions
	// (nil until a route needs it).
	routes *routeCache
	// route is the latest move_to's route (PlannedRoute).
	route path.RouteLog
	// boilers and ovens hold the machines' hidden tile-entity state.
	boilers map[world.BlockPos]*boilerCore
	ovens   map[world.BlockPos]*ovenCore
	// furnaces are the furnaces placed during the run (the scenario's
	// machines are in sc.Machines), and their hidden state.
	furnaces map[world.BlockPos]*furnaceCore
	// structures are the multiblocks built from blueprints during the
	// run, by their machine's position.
	structures map[world.BlockPos]structure
	// hunger is the player's food bar (see hunger.go).
	hunger rules.Hunger
	// danger holds the mobs, the dropped items and the player's deaths
	// (mobs.go); light what an action's time has computed of the light
	// (light.go); mobKinds the hostile mobs; spawnTop bounds the height
	// a spawn is tried at (the top filled section + 15).
	danger dangers
	// guarded: the action being applied runs under an ipc.Guard (a walk
	// is then taken as its time passes: walk).
	guarded  bool
	walk     *walk
	light    lightCache
	mobKinds []rules.MobKind
	spawnTop int
	// animalKinds are the passive mobs the animals' pass draws from, by
	// weight, and animalRng its generator (animals.go).
	animalKinds []rules.MobKind
	animalRng   *rand.Rand
	// saplings are the saplings standing in the world, which random
	// ticks grow (saplings.go).
	saplings map[world.BlockPos]struct{}
	// spawnAt is where the player started, and respawns.
	spawnAt world.Vec3
	// acting holds one action at a time: an action's time passes in
	// slices (see Execute), and another action must not run between them.
	acting chan struct{}
}

var (
	_ ipc.Body       = (*Sim)(nil)
	_ ipc.ChatSource = (*Sim)(nil)
)

// Options tune a simulation.
type Options struct {
	// Seed overrides the scenario's seed when not zero.
	Seed int64
	// Rules are the game's rules the world follows: ids, tags, mining,
	// recipes, tech; rules.Default(), the shipped set, when nil.
	Rules *rules.Set
	// ViewRadius, when positive, is how far from the player's feet (in
	// blocks) an observation sees blocks and machines, as a server sends
	// only the chunks around a player; 0 shows the whole world.
	ViewRadius int
}

// New builds the world of a scenario.
func New(sc *Scenario, opts Options) (*Sim, error) {
	return NewContext(context.Background(), sc, opts)
}

// NewContext builds the world of a scenario and gives up when ctx is done
// (a large world takes seconds to generate): the error then wraps
// ctx.Err().
func NewContext(ctx context.Context, sc *Scenario, opts Options) (*Sim, error) {
	seed := sc.Seed
	if opts.Seed != 0 {
		seed = opts.Seed
	}
	set := opts.Rules
	if set == nil {
		set = rules.Default()
	}
	ids, err := idsFor(sc, set)
	if err != nil {
		return nil, err
	}
	s := &Sim{
		view:       opts.ViewRadius,
		sc:         sc,
		rules:      set,
		state:      world.NewState(world.StateOptions{Rules: set, IDs: ids}),
		seed:       seed,
		rng:        rand.New(rand.NewPCG(uint64(seed), 0x9E3779B97F4A7C15)),
		cells:      map[chunk.StateID]path.Cell{},
		finder:     path.NewFinder(),
		boilers:    map[world.BlockPos]*boilerCore{},
		ovens:      map[world.BlockPos]*ovenCore{},
		furnaces:   map[world.BlockPos]*furnaceCore{},
		structures: map[world.BlockPos]structure{},
		saplings:   map[world.BlockPos]struct{}{},
		acting:     make(chan struct{}, 1),
	}
	s.hunger = set.Food.NewHunger(int(sc.Player.Food), sc.Player.Health)
	for _, k := range set.Mobs.Kinds() {
		if !k.Passive() { // passive mobs never spawn in the dark
			s.mobKinds = append(s.mobKinds, k)
		} else if k.Weight > 0 {
			s.animalKinds = append(s.animalKinds, k)
		}
	}
	s.lightReset()
	var buildErr error
	s.state.Update(func(tx *world.Tx) {
		if buildErr = s.build(ctx, tx); buildErr == nil {
			tx.SetTimeOfDay(s.timeAt(0))
			if sc.Mobs {
				s.spawnTop = s.topFilled(tx)
			}
		}
	})
	if buildErr != nil {
		return nil, fmt.Errorf("%s: %w", sc.File, buildErr)
	}
	return s, nil
}

// idsFor extends the vanilla id map with the modded blocks a scenario uses,
// those the blueprints build with and the stations recipes are made at, numbering them from 4096 up in name
// order (NotEnoughIds-sized ids).
func idsFor(sc *Scenario, set *rules.Set) (*rules.IDMap, error) {
	ids := set.IDs.Clone()
	names := map[string]bool{}
	for _, bp := range set.Builds.All() {
		for _, bc := range bp.Blocks() {
			names[bc.Block.ID] = true
		}
	}
	for _, r := range set.Recipes.All() {
		// A station (a Tinkers' part builder) is placed to be used.
		if r.AtStation() {
			id, _, _ := world.SplitID(r.Station)
			names[id] = true
		}
	}
	for _, b := range sc.Blocks {
		id, _, _ := world.SplitID(b.Block)
		names[id] = true
	}
	for _, m := range sc.Machines {
		id, _, _ := world.SplitID(machineBlocks[m.Kind])
		names[id] = true
	}
	if sc.OreVeins > 0 {
		names[set.Ores.Block] = true
	}
	var extra []string
	for n := range names {
		if _, ok := ids.BlockID(n); !ok {
			extra = append(extra, n)
		}
	}
	sort.Strings(extra)
	for i, n := range extra {
		if err := ids.SetBlock(4096+i, n); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

func (s *Sim) set(tx *world.Tx, p world.BlockPos, block string) error {
	id, meta, err := world.SplitID(block)
	if err != nil {
		return err
	}
	if meta < 0 {
		meta = 0
	}
	if id == saplingBlock {
		s.trackSapling(p)
	}
	return tx.SetBlock(p, id, meta)
}

func (s *Sim) build(ctx context.Context, tx *world.Tx) error {
	sc := s.sc
	ground, err := s.terrain(ctx, tx)
	if err != nil {
		return err
	}
	top := func(x, z int) int { return ground[z*sc.SizeX+x] }
	if err := s.place(ctx, tx, top); err != nil {
		return err
	}
	p := sc.Player
	if sc.Generator == "natural" {
		p.Pos.Y = top(p.Pos.X, p.Pos.Z) + 1 // on the ground the generator made
	}
	s.spawnAt = world.Vec3{X: float64(p.Pos.X) + 0.5, Y: float64(p.Pos.Y), Z: float64(p.Pos.Z) + 0.5}
	tx.SetPlayer(world.Player{Name: "Bot", Pos: s.spawnAt, Dimension: p.Dimension, Health: p.Health, Food: p.Food, Air: s.rules.Mobs.Player.MaxAir})
	return s.placeAnimals(tx, top)
}

// animalStream seeds the generator that places animals apart from the
// world's, so adding animals to a scenario changes nothing else in it.
const animalStream = 0xA11A5

// placeAnimals puts the scenario's passive mobs on grass with two free
// blocks above, at seeded columns of their areas, one a column.
func (s *Sim) placeAnimals(tx *world.Tx, top func(x, z int) int) error {
	if len(s.sc.Animals) == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(uint64(s.seed), animalStream))
	taken := map[[2]int]bool{}
	for i, a := range s.sc.Animals {
		k, ok := s.rules.Mobs.Kind(a.Kind)
		if !ok || !k.Passive() {
			var passive []string
			for _, mk := range s.rules.Mobs.Kinds() {
				if mk.Passive() {
					passive = append(passive, mk.Name)
				}
			}
			return fmt.Errorf("animals[%d].kind: %q is not a passive mob (they are %v)", i, a.Kind, passive)
		}
		placed := 0
		for attempt := 0; placed < a.Count && attempt < a.Count*50; attempt++ {
			x := a.X + rng.IntN(a.X2-a.X+1)
			z := a.Z + rng.IntN(a.Z2-a.Z+1)
			y := top(x, z)
			if taken[[2]int{x, z}] || tx.BlockAt(world.Pos(x, y, z)).ID != "minecraft:grass" ||
				!tx.BlockAt(world.Pos(x, y+1, z)).IsAir() || !tx.BlockAt(world.Pos(x, y+2, z)).IsAir() {
				continue
			}
			taken[[2]int{x, z}] = true
			s.danger.nextID++
			pos := world.Vec3{X: float64(x) + 0.5, Y: float64(y + 1), Z: float64(z) + 0.5}
			s.danger.mobs = append(s.danger.mobs, &mob{id: s.danger.nextID, kind: k, pos: pos, health: k.Health, cooldown: -1})
			placed++
		}
	}
	s.syncEntities(tx)
	return nil
}

// terrain lays the ground of the scenario's generator and returns the
// surface height of every column (x + z·SizeX).
func (s *Sim) terrain(ctx context.Context, tx *world.Tx) ([]int, error) {
	sc := s.sc
	if sc.Generator == "natural" {
		return s.natural(ctx, tx)
	}
	ground := make([]int, sc.SizeX*sc.SizeZ)
	phaseX, phaseZ := s.rng.Float64()*math.Pi*2, s.rng.Float64()*math.Pi*2
	for z := 0; z < sc.SizeZ; z++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("generating the terrain: %w", err)
		}
		for x := 0; x < sc.SizeX; x++ {
			h := sc.GroundY
			if sc.Generator == "hills" {
				h += int(math.Floor(1.5 * (math.Sin(float64(x)*0.09+phaseX) + math.Cos(float64(z)*0.07+phaseZ))))
			}
			ground[z*sc.SizeX+x] = h
			if err := s.set(tx, world.Pos(x, 0, z), "minecraft:bedrock"); err != nil {
				return nil, err
			}
			for y := 1; y <= h; y++ {
				b := "minecraft:stone"
				switch {
				case y == h:
					b = "minecraft:grass"
				case y >= h-3:
					b = "minecraft:dirt"
				}
				if err := s.set(tx, world.Pos(x, y, z), b); err != nil {
					return nil, err
				}
			}
		}
	}
	return ground, nil
}

// place puts the scenario's blocks, trees, machines and inventory on the
// terrain.
func (s *Sim) place(ctx context.Context, tx *world.Tx, top func(x, z int) int) error {
	sc := s.sc
	for _, b := range sc.Blocks {
		if b.Pos != nil {
			if err := s.set(tx, *b.Pos, b.Block); err != nil {
				return err
			}
			continue
		}
		for y := b.From.Y; y <= b.To.Y; y++ {
			for z := b.From.Z; z <= b.To.Z; z++ {
				for x := b.From.X; x <= b.To.X; x++ {
					if err := s.set(tx, world.Pos(x, y, z), b.Block); err != nil {
						return err
					}
				}
			}
		}
	}
	var trunks [][2]int
	free := func(x, z int) bool {
		for _, t := range trunks {
			if abs(t[0]-x) < 4 && abs(t[1]-z) < 4 {
				return false
			}
		}
		return tx.BlockAt(world.Pos(x, top(x, z), z)).ID == "minecraft:grass" && tx.BlockAt(world.Pos(x, top(x, z)+1, z)).IsAir()
	}
	plant := func(x, z, height int) error {
		h := top(x, z)
		if height == 0 {
			height = 4 + s.rng.IntN(3)
		}
		for dz := -2; dz <= 2; dz++ {
			for dx := -2; dx <= 2; dx++ {
				for y := h + height - 1; y <= h+height+1; y++ {
					r := 2
					if y > h+height {
						r = 1
					}
					if abs(dx) > r || abs(dz) > r {
						continue
					}
					p := world.Pos(x+dx, y, z+dz)
					if p.X < 0 || p.Z < 0 || p.X >= sc.SizeX || p.Z >= sc.SizeZ {
						continue
					}
					if tx.BlockAt(p).IsAir() {
						if err := s.set(tx, p, "minecraft:leaves"); err != nil {
							return err
						}
					}
				}
			}
		}
		for y := h + 1; y <= h+height; y++ {
			if err := s.set(tx, world.Pos(x, y, z), "minecraft:log"); err != nil {
				return err
			}
		}
		trunks = append(trunks, [2]int{x, z})
		return nil
	}
	for _, t := range sc.Trees {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("planting trees: %w", err)
		}
		if t.Random == 0 {
			if err := plant(t.X, t.Z, t.Height); err != nil {
				return err
			}
			continue
		}
		placed := 0
		for attempt := 0; placed < t.Random && attempt < t.Random*50; attempt++ {
			if attempt%256 == 0 && ctx.Err() != nil {
				return fmt.Errorf("planting trees: %w", ctx.Err())
			}
			x := t.X + s.rng.IntN(t.X2-t.X+1)
			z := t.Z + s.rng.IntN(t.Z2-t.Z+1)
			if !free(x, z) {
				continue
			}
			if err := plant(x, z, t.Height); err != nil {
				return err
			}
			placed++
		}
	}
	for _, m := range sc.Machines {
		if err := s.set(tx, m.Pos, machineBlocks[m.Kind]); err != nil {
			return err
		}
		wm := world.Machine{Kind: m.Kind, Pos: m.Pos, Formed: m.Formed, Temperature: m.Temperature,
			Slots: map[string]world.ItemStack{}, Fluids: map[string]world.FluidTank{}}
		if wm.Temperature == 0 {
			wm.Temperature = 20
		}
		for name, st := range m.Slots {
			wm.Slots[name] = st.Stack(s.rules.Tags)
		}
		for name, f := range m.Fluids {
			wm.Fluids[name] = f
		}
		addTanks(&wm)
		tx.PutMachine(wm)
	}
	inv := world.NewInventory()
	for i, st := range sc.Player.Inventory {
		// A grid tool given without its wear is a new one.
		inv.Slots[i] = s.rules.Grid.New(st.Stack(s.rules.Tags))
	}
	tx.SetInventory(inv)
	return nil
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Info implements ipc.Body: the simulator supports every action kind.
func (s *Sim) Info() ipc.Info { return ipc.Info{Name: "sim", Supports: action.Kinds()} }

// Observe implements ipc.Body.
func (s *Sim) Observe(ctx context.Context) (*world.Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	snap := s.state.Snapshot()
	if s.view > 0 {
		limitView(snap, s.view)
	}
	return snap, nil
}

// State exposes the world for tests and tools.
func (s *Sim) State() *world.State { return s.state }

// chatHistory is how many sent chat messages the simulator keeps.
const chatHistory = 256

// Chat returns the messages the player sent, the newest chatHistory (256).
func (s *Sim) Chat() []string {
	s.chatMu.Lock()
	defer s.chatMu.Unlock()
	out := make([]string, len(s.chat))
	for i, m := range s.chat {
		out[i] = m.Text
	}
	return out
}

// ChatSince implements ipc.ChatSource: the messages the player sent,
// numbered seq or later (of the newest chatHistory), from the player's name.
func (s *Sim) ChatSince(seq uint64) ([]ipc.ChatLine, uint64) {
	s.chatMu.Lock()
	defer s.chatMu.Unlock()
	next := s.chatNext + 1
	i, _ := sort.Find(len(s.chat), func(i int) int {
		switch {
		case seq < s.chat[i].Seq:
			return -1
		case seq > s.chat[i].Seq:
			return 1
		}
		return 0
	})
	if i == len(s.chat) {
		return nil, next
	}
	return append([]ipc.ChatLine(nil), s.chat[i:]...), next
}

// said logs a message the player sent.
func (s *Sim) said(from, text string, tick int64) {
	s.chatMu.Lock()
	defer s.chatMu.Unlock()
	if len(s.chat) == chatHistory {
		// Keep the newest messages in place: a long run must not grow.
		copy(s.chat, s.chat[1:])
		s.chat = s.chat[:chatHistory-1]
	}
	s.chatNext++
	s.chat = append(s.chat, ipc.ChatLine{Seq: s.chatNext, From: from, Text: text, Tick: tick})
}

// advanceSlice is how much game time passes under the world's lock at
// once: between slices others observe the world, and a cancelled action
// stops. A minute of game time with every machine working is well under a
// millisecond.
const advanceSlice = 1200

// Execute implements ipc.Body: it applies the game rules for one action,
// lets the player fall if the action left nothing under the feet (see
// gravity), advances the world clock by the ticks it took and runs the
// machines for that time. Time passes in slices of advanceSlice ticks,
// each its own change of the world, so observers are not held up by a long
// wait; when ctx ends between slices the action ends Interrupted with the
// ticks that passed. Actions run one at a time.
func (s *Sim) Execute(ctx context.Context, a action.Action) ipc.Result {
	if err := ctx.Err(); err != nil {
		return ipc.Failf(ipc.Interrupted, 0, "%v", err)
	}
	select {
	case s.acting <- struct{}{}:
	case <-ctx.Done():
		return ipc.Failf(ipc.Interrupted, 0, "%v", ctx.Err())
	}
	defer func() { <-s.acting }()
	if err := ctx.Err(); err != nil {
		return ipc.Failf(ipc.Interrupted, 0, "%v", err)
	}
	var res ipc.Result
	s.lightReset()
	s.danger.los, s.danger.diedIn = map[[2]world.BlockPos]bool{}, ""
	g, guarded := ipc.GuardOf(ctx)
	// Only a world with mobs has any to guard against.
	s.guarded, s.walk = guarded && s.sc.Mobs, nil
	var watch *guardWatch
	s.state.Update(func(tx *world.Tx) {
		res = s.apply(tx, a)
		s.gravity(tx, &res)
		if s.guarded {
			watch = s.guardStart(tx, g)
		}
	})
	s.guarded = false
	var events []string
	if watch != nil {
		events = s.guardedAdvance(a, &res, watch, ctx.Err)
	}
	for done := int64(0); watch == nil && done < res.Ticks; {
		if done > 0 && ctx.Err() != nil {
			res.Code, res.Ticks = ipc.Interrupted, done
			res.Error = fmt.Sprintf("%s interrupted after %d of %d ticks: %v", a.Kind(), done, res.Ticks, ctx.Err())
			break
		}
		n := min(advanceSlice, res.Ticks-done)
		s.state.Update(func(tx *world.Tx) { events = append(events, s.advance(tx, n)...) })
		done += n
	}
	if len(events) > 0 {
		if res.Details == nil {
			res.Details = map[string]any{}
		}
		res.Details["events"] = events
	}
	if s.danger.diedIn != "" && res.Code == ipc.OK {
		// Death ends the action as a fall's does (see die).
		res.Code, res.Error = ipc.Rejected, s.danger.diedIn
		res.Details["died"] = true
		last := s.danger.deaths[len(s.danger.deaths)-1]
		res.Details["died_at"] = last.Pos
		res.Details["death_cause"] = "the player " + last.Cause
	}
	return res
}

func describeStack(st world.ItemStack) string {
	if st.Meta != 0 {
		return fmt.Sprintf("%s:%d", st.ID, st.Meta)
	}
	return st.ID
}

func describeBlock(b world.Block) string {
	if b.IsAir() {
		return "air"
	}
	if b.Meta != 0 {
		return fmt.Sprintf("%s:%d", b.ID, b.Meta)
	}
	return b.ID
}
