package chain

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/skills"
	"github.com/gtnh-agent/gtnh-agent/skills/registry"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// maxDepth bounds how deep the goal planner chains sub-goals. GTNH's
// stone age is deep: the flint mortar wants stone, smelted from
// cobblestone in a furnace made of cobblestone, mined with a wooden
// pickaxe made of planks and sticks from logs — a dozen levels.
const maxDepth = 24

// tableRadius is how far a crafting table may be for 3x3 recipes (the
// basic_crafting skill uses the same distance).
const tableRadius = 16

// stationRadius is how far a station (a Tinkers' part builder) may be for
// the recipes made at it (basic_crafting walks as far).
const stationRadius = 64

// Planner is the goal-driven planner. For each unmet item goal it finds a skill
// whose declared effects produce the item (an inventory_delta min_increase
// on the item, on an ore-dictionary name or tool class the item carries, or
// on an item_id parameter such as basic_crafting's "{item}" when the recipe
// book knows the item), and works backwards: missing recipe ingredients,
// a missing crafting table for 3x3 recipes and missing required tools become
// sub-goals first. Among several producers it prefers the best learned
// metrics (success rate, then cost), then the name. Invocations the loop has
// blocked are skipped. A gathering skill (chop_tree) is asked for what its
// radius holds rather than the whole goal at once, so each step promises
// what it can keep; the radius widens up to its maximum to reach the
// nearest source, and a gatherer with no source in reach is a reason, not
// a step. An item collected from machines (coke from coke ovens) with
// nothing to collect yet is planned through the machines' cycle: wait while
// they work, feed them when they are idle. A tier goal takes a skill that declares it reaches the tier, or
// works towards the first piece of the tier's evidence (config/tech.yaml)
// that it can obtain; when none can be, the run is stuck with the reason
// for each piece.
type Planner struct {
	// Recipes is the recipe book (nil = the shipped one).
	Recipes *rules.Recipes
	// Tags resolves an item's ore-dictionary names and tool classes (nil =
	// the shipped table).
	Tags *rules.TagTable
	// Tech is the tier evidence a tier goal is planned towards (nil = the
	// shipped config/tech.yaml).
	Tech *rules.TechRules
	// Drops says which blocks give an item when mined (nil = the shipped
	// config/drops.yaml), and Mining which of them need a tool (nil = the
	// shipped config/mining.yaml).
	Drops  *rules.Drops
	Mining *rules.MiningRules
	// Smelt is the furnace's table (nil = the shipped
	// config/smelting.yaml).
	Smelt *rules.Smelting
	// Grid says how the tools that stay in the crafting grid wear (nil =
	// the shipped config/crafting_tools.yaml).
	Grid *rules.CraftingTools
	// Builds are the blueprints a build goal names (nil = the shipped
	// config/blueprints.yaml).
	Builds *rules.Blueprints
	// Coke is the coke oven's table (nil = the shipped
	// config/coke_oven.yaml): what to feed an oven for the item wanted
	// from it (logs for charcoal, coal for coke) and how long it cooks.
	Coke *rules.CokeOven
	// Mobs says what a killed mob drops (nil = the shipped
	// config/mobs.yaml): a hunting skill is asked for wool where sheep are.
	Mobs *rules.Mobs
	// Food says what is food (nil = the shipped config/food.yaml): a
	// full inventory keeps its food when the rest goes into a chest.
	Food *rules.Food
	// Ores says which GregTech ore gives a raw ore and what pickaxe it
	// asks for (nil = the shipped config/ores.yaml; ores.go).
	Ores *rules.Ores
}

var _ loop.Planner = Planner{}

// Plan implements loop.Planner.
func (g Planner) Plan(_ context.Context, goal loop.Goal, obs loop.Observation, catalog []*registry.Description) (loop.Decision, error) {
	if g.Recipes == nil {
		g.Recipes = rules.Default().Recipes
	}
	if g.Tags == nil {
		g.Tags = rules.Default().Tags
	}
	if g.Tech == nil {
		g.Tech = rules.Default().Tech
	}
	if g.Drops == nil {
		g.Drops = rules.Default().Drops
	}
	if g.Mining == nil {
		g.Mining = rules.Default().Mining
	}
	if g.Smelt == nil {
		g.Smelt = rules.Default().Smelt
	}
	if g.Builds == nil {
		g.Builds = rules.Default().Builds
	}
	if g.Coke == nil {
		g.Coke = rules.Default().Coke
	}
	if g.Grid == nil {
		g.Grid = rules.Default().Grid
	}
	if g.Mobs == nil {
		g.Mobs = rules.Default().Mobs
	}
	if g.Food == nil {
		g.Food = rules.Default().Food
	}
	s := &search{Planner: g, w: obs.Snapshot, last: obs.Last, catalog: catalog, blocked: map[string]bool{}, visiting: map[string]bool{}}
	for _, b := range obs.Blocked {
		s.blocked[b.String()] = true
	}
	root := &loop.PlanNode{Label: goal.Text}
	if root.Label == "" {
		root.Label = "the goal"
	}
	dec, err := s.plan(root, goal, obs)
	switch {
	case err != nil:
		root.State = loop.PlanStuck
	case dec.Done:
		root.State = loop.PlanMet
	default:
		root.State = loop.PlanActive
	}
	dec.Tree = root
	if err == nil && !dec.Done {
		// A hunt the plan waits for the night to run (night.go).
		dec.Awaits = s.awaits
	}
	return dec, err
}

// plan decides the next step towards the goal and draws the plan tree
// under root: a node for each part of the goal, in the order the parts
// are planned, and under the part chosen the sub-goals down to the step.
func (s *search) plan(root *loop.PlanNode, goal loop.Goal, obs loop.Observation) (loop.Decision, error) {
	var parts []*loop.PlanNode // in the order they are planned
	part := func(label string, met bool) *loop.PlanNode {
		n := &loop.PlanNode{Label: label, State: loop.PlanPending}
		if met {
			n.State = loop.PlanMet
		}
		root.Children = append(root.Children, n)
		parts = append(parts, n)
		return n
	}
	var skillPart *loop.PlanNode
	if goal.Skill != nil {
		skillPart = part("run "+goal.Skill.String(), !containsUnmet(obs.Progress, "run "+goal.Skill.Skill))
	}
	buildParts := make([]*loop.PlanNode, len(goal.Builds))
	for i, bg := range goal.Builds {
		buildParts[i] = part("build "+bg.Name, !containsUnmet(obs.Progress, "build "+bg.Name))
	}
	killParts := make([]*loop.PlanNode, len(goal.Kills))
	for i, kg := range goal.Kills {
		killParts[i] = part(fmt.Sprintf("kill %d %s", kg.Count, kg.Mob), kg.Seen >= kg.Count)
	}
	itemParts := make([]*loop.PlanNode, len(goal.Items))
	for i, ig := range goal.Items {
		verb := "have"
		if ig.Gain {
			verb = "collect"
		}
		met := false
		if m, err := world.ParseItemMatcher(ig.Item); err == nil {
			met = ig.Gathered(s.w, m) >= ig.Target()
		}
		itemParts[i] = part(fmt.Sprintf("%s %d %s", verb, ig.Count, ig.Item), met)
	}
	var tierPart *loop.PlanNode
	if goal.Tier != "" {
		tierPart = part("reach "+goal.Tier, !containsUnmetPrefix(obs.Progress, "tier "))
	}
	// chose marks the part the decision serves and the step under it;
	// stuck marks a part that cannot progress.
	chose := func(n *loop.PlanNode, dec loop.Decision) (loop.Decision, error) {
		n.State = loop.PlanActive
		s.step(n, dec.Invocation)
		return dec, nil
	}
	stuck := func(n *loop.PlanNode, err error) error {
		n.State, n.Note, n.Children = loop.PlanStuck, err.Error(), nil
		return err
	}
	if skillPart != nil && skillPart.State != loop.PlanMet {
		s.node = skillPart
		if s.find(goal.Skill.Skill) == nil {
			return loop.Decision{}, stuck(skillPart, fmt.Errorf("%w: the goal runs %s, which is not available at tier %s", loop.ErrStuck, goal.Skill.Skill, obs.Snapshot.TechState))
		}
		inv := *goal.Skill
		if sub, err := s.tools(s.find(inv.Skill), 0); err != nil {
			return loop.Decision{}, stuck(skillPart, fmt.Errorf("%w: the goal runs %s, which %v", loop.ErrStuck, inv.Skill, err))
		} else if sub != nil {
			if s.blocked[sub.String()] {
				return loop.Decision{}, stuck(skillPart, fmt.Errorf("%w: the goal runs %s, whose tools need %s, which is blocked", loop.ErrStuck, inv.Skill, sub))
			}
			return chose(skillPart, loop.Decision{Invocation: sub, Reason: "a tool for " + inv.Skill})
		}
		if s.blocked[inv.String()] {
			why := "failed the same way twice here"
			if last := obs.Last; last != nil && last.Invocation != nil && last.Invocation.String() == inv.String() {
				switch {
				case last.Verdict == loop.Noop:
					why = "had nothing to do here"
				case last.Error != "":
					// The failure, so the end of the run says why.
					why += " (" + last.Error + ")"
				}
			}
			return loop.Decision{}, stuck(skillPart, fmt.Errorf("%w: the goal runs %s, which %s and is blocked until the world changes", loop.ErrStuck, inv, why))
		}
		return chose(skillPart, loop.Decision{Invocation: &inv, Reason: "the goal names this skill"})
	}
	// Out of the walls first: a walled-in bot with nothing that breaks
	// them makes the tool that does (digout.go).
	out := &loop.PlanNode{Label: "dig out of the walls", State: loop.PlanPending}
	s.node = out
	if inv, why, ok := s.digOut(); ok {
		root.Children = append([]*loop.PlanNode{out}, root.Children...)
		out.Note = why
		return chose(out, loop.Decision{Invocation: inv, Reason: why})
	}
	// The food reserve before the goal's work: a standing need (food.go).
	reserve := &loop.PlanNode{Label: "keep a food reserve", State: loop.PlanPending}
	s.node = reserve
	if inv, why, ok := s.reserveFood(goal); ok {
		root.Children = append([]*loop.PlanNode{reserve}, root.Children...)
		reserve.Note = why
		return chose(reserve, loop.Decision{Invocation: inv, Reason: why})
	}
	var whyNot []string
	// While the machines work on one item or the saplings grow for a
	// structure (the step is a wait), the other parts' work goes first, as
	// a player mines while the oven bakes; the wait comes when nothing
	// else has work.
	var wait *loop.Decision
	var waitPart *loop.PlanNode
	// Structures first: what the goal collects may come out of them (the
	// charcoal of the coke oven the bot builds).
	for i, bg := range goal.Builds {
		if buildParts[i].State == loop.PlanMet {
			continue
		}
		s.node = buildParts[i]
		inv, err := s.build(bg.Name, 0)
		if err != nil {
			whyNot = append(whyNot, stuck(buildParts[i], err).Error())
			continue
		}
		dec := loop.Decision{Invocation: inv, Reason: "towards building " + bg.Name}
		if s.passesTime(inv) {
			if wait == nil {
				wait, waitPart = &dec, buildParts[i]
			}
			continue
		}
		return chose(buildParts[i], dec)
	}
	// Kills next: the mobs stand in sight now (the planner hunts only
	// what the world model shows), and their drops may serve the items.
	for i, kg := range goal.Kills {
		if killParts[i].State == loop.PlanMet {
			continue
		}
		s.node = killParts[i]
		inv, err := s.kill(kg.Mob, kg.Count-kg.Seen)
		if err != nil {
			back, why, waits, ok := s.killBack(kg.Mob)
			if !ok {
				if why != "" {
					err = fmt.Errorf("%w; %s", err, why)
				}
				whyNot = append(whyNot, stuck(killParts[i], err).Error())
				continue
			}
			dec := loop.Decision{Invocation: back, Reason: fmt.Sprintf("towards killing %d %s (%d seen killed): %s", kg.Count, kg.Mob, kg.Seen, why)}
			if waits {
				if wait == nil {
					wait, waitPart = &dec, killParts[i]
				}
				continue
			}
			return chose(killParts[i], dec)
		}
		return chose(killParts[i], loop.Decision{Invocation: inv, Reason: fmt.Sprintf("towards killing %d %s (%d seen killed)", kg.Count, kg.Mob, kg.Seen)})
	}
	if dec, n, ok := s.storeWhenFull(goal, parts, itemParts); ok {
		return chose(n, dec)
	}
	for i, ig := range goal.Items {
		s.node = itemParts[i]
		target := ig.Target()
		if m, err := world.ParseItemMatcher(ig.Item); err == nil {
			// What the chests hold counts for the goal but is not in
			// the inventory to work with.
			target -= ig.Gathered(s.w, m) - s.w.Inventory.Count(m)
		}
		inv, err := s.obtain(ig.Item, target, 0)
		if err != nil {
			whyNot = append(whyNot, stuck(itemParts[i], err).Error())
			continue
		}
		if inv == nil {
			itemParts[i].State, itemParts[i].Children = loop.PlanMet, nil
			continue
		}
		dec := loop.Decision{Invocation: inv, Reason: fmt.Sprintf("towards %d %s", ig.Target(), ig.Item)}
		if s.passesTime(inv) {
			if wait == nil {
				wait, waitPart = &dec, itemParts[i]
			}
			continue
		}
		if wait != nil {
			dec.Reason += fmt.Sprintf(" while the machines work (%s)", wait.Reason)
		}
		return chose(itemParts[i], dec)
	}
	if tierPart != nil && tierPart.State != loop.PlanMet {
		s.node = tierPart
		dec, err := s.towardsTier(goal.Tier)
		if err == nil && (wait == nil || !s.passesTime(dec.Invocation)) {
			return chose(tierPart, dec)
		}
		if err != nil {
			whyNot = append(whyNot, stuck(tierPart, err).Error())
		}
	}
	if wait != nil {
		return chose(waitPart, *wait)
	}
	if len(whyNot) > 0 {
		// The search is deterministic: asking again in the same world gives
		// the same answer, so the run is stuck.
		return loop.Decision{}, fmt.Errorf("%w: no plan: %s", loop.ErrStuck, strings.Join(whyNot, "; "))
	}
	for _, n := range parts {
		if n.State == loop.PlanPending {
			// Not unmet by the goal's own account (a tier reached another way).
			n.State = loop.PlanMet
		}
	}
	return loop.Decision{Done: true, Reason: "nothing left to do"}, nil
}

// passesTime reports whether an invocation's skill only lets time pass
// (wait_for, or shelter waiting walled in): a step that does no work
// towards the goal.
func (s *search) passesTime(inv *loop.Invocation) bool {
	d := s.find(inv.Skill)
	return d != nil && slices.Contains(d.Effects.Tags, "passes_time") || s.waitsWalledIn(inv)
}

// builds reports whether a skill builds structures from blueprints.
func builds(d *registry.Description) bool {
	return slices.Contains(d.Effects.Tags, "builds_structures")
}

// buildFor plans building a structure whose machine makes the item (the
// coke oven's table: charcoal from logs) when no formed machine of that
// kind stands in the world model: one that stands is used, not built
// again (its collecting skill is a producer; when none is available the
// reason says so). ok is false when no blueprint's machine makes the item
// or the build cannot be planned; why then names the reason, if any.
// When ok, why names the blueprint.
func (s *search) buildFor(item string, depth int) (inv *loop.Invocation, why string, ok bool) {
	var reasons []string
	for _, bp := range s.Builds.All() {
		if len(s.cokeRecipesFor(item, map[string]bool{bp.Machine: true})) == 0 {
			continue
		}
		if slices.ContainsFunc(s.w.Machines, func(m world.Machine) bool { return m.Kind == bp.Machine && m.Formed }) {
			if slices.ContainsFunc(s.catalog, func(d *registry.Description) bool { _, _, ok := collectsOutput(d, s, item); return ok }) {
				continue // the collector above says why it cannot
			}
			reasons = append(reasons, fmt.Sprintf("a formed %s stands, but no available skill collects %s from it", bp.Machine, item))
			continue
		}
		mark := s.mark()
		next, err := s.build(bp.Name, depth+1)
		if err != nil {
			s.rollback(mark)
			reasons = append(reasons, err.Error())
			continue
		}
		return next, bp.Name, true
	}
	return nil, strings.Join(reasons, "; "), false
}

// build plans the next step towards a structure of a blueprint: the
// blueprint's blocks first (each an item goal), then the first available
// skill that builds structures, asked for the blueprint by name.
func (s *search) build(name string, depth int) (*loop.Invocation, error) {
	bp, ok := s.Builds.Get(name)
	if !ok {
		return nil, fmt.Errorf("build %s: no such blueprint", name)
	}
	var builder *registry.Description
	for _, d := range s.ranked(s.catalog) {
		if builds(d) {
			builder = d
			break
		}
	}
	if builder == nil {
		return nil, fmt.Errorf("build %s: no available skill builds structures", name)
	}
	for _, bc := range bp.Blocks() {
		inv, err := s.obtain(bc.Block.Item(), bc.Count, depth)
		if err != nil {
			return nil, fmt.Errorf("build %s: %v", name, err)
		}
		if inv != nil {
			return inv, nil
		}
	}
	inv := &loop.Invocation{Skill: builder.Name, Params: map[string]any{"name": name}}
	if s.blocked[inv.String()] {
		return nil, fmt.Errorf("build %s: %s is blocked until the world changes", name, inv)
	}
	return inv, nil
}

// towardsTier plans the next step towards a tier: a skill that declares it
// reaches the tier (or a higher one), else the first piece of the tier's
// evidence in config/tech.yaml that a chain of skills can obtain (an item:
// its producers and recipe chain, as for an item goal). When there is none
// the error says, for each piece of evidence, why it cannot be obtained.
func (s *search) towardsTier(tier string) (loop.Decision, error) {
	tiers := s.Tech.Tiers()
	want, ok := tiers.Index(tier)
	if !ok {
		return loop.Decision{}, fmt.Errorf("unknown tier %s", tier)
	}
	var blocked []string
	for _, d := range s.ranked(s.catalog) {
		r := d.Effects.TechDelta.ReachesTier
		if i, ok := tiers.Index(r); !ok || r == "" || i < want {
			continue
		}
		inv := loop.Invocation{Skill: d.Name}
		if s.blocked[inv.String()] {
			blocked = append(blocked, inv.String())
			continue
		}
		return loop.Decision{Invocation: &inv, Reason: "reaches " + r}, nil
	}
	head := fmt.Sprintf("no available skill reaches %s", tier)
	if len(blocked) > 0 {
		head = fmt.Sprintf("the skills that reach %s are blocked (%s)", tier, strings.Join(blocked, ", "))
	}
	var reasons []string
	for _, ev := range s.Tech.Evidence(tier) {
		switch ev.Kind {
		case rules.EvidenceItem:
			inv, err := s.obtain(ev.Item.String(), max(ev.Count, 1), 0)
			if err != nil {
				reasons = append(reasons, fmt.Sprintf("%s: %v", ev, err))
				continue
			}
			if inv != nil {
				return loop.Decision{Invocation: inv, Reason: fmt.Sprintf("towards %s (evidence of %s)", ev, tier)}, nil
			}
		case rules.EvidenceMachine:
			why := "no skill builds machines"
			for _, m := range s.w.Machines {
				if m.Kind == ev.Machine && ev.Formed && !m.Formed {
					why = fmt.Sprintf("the %s at %s is not formed, and no skill builds machines", m.Kind, m.Pos)
					break
				}
			}
			reasons = append(reasons, fmt.Sprintf("%s: %s", ev, why))
		default:
			reasons = append(reasons, fmt.Sprintf("%s: no skill builds machines", ev))
		}
	}
	return loop.Decision{}, fmt.Errorf("tier %s, want %s: %s and none of its evidence can be obtained: %s", s.w.TechState, tier, head, strings.Join(reasons, "; "))
}

func containsUnmet(p loop.Progress, s string) bool {
	for _, u := range p.Unmet {
		if u == s {
			return true
		}
	}
	return false
}

func containsUnmetPrefix(p loop.Progress, prefix string) bool {
	for _, u := range p.Unmet {
		if strings.HasPrefix(u, prefix) {
			return true
		}
	}
	return false
}

type search struct {
	Planner
	w        *world.Snapshot
	last     *loop.StepRecord // the previous step (nil at the first)
	catalog  []*registry.Description
	blocked  map[string]bool
	visiting map[string]bool
	// gathered memoizes gatherable by skill and item: the snapshot does
	// not change during one plan, and the search asks again at every depth.
	gathered map[[2]string]gatherResult
	// node is the plan tree's node the search is under: sub-goals found
	// are added to it as children.
	node *loop.PlanNode
	// awaits is the hunt a wait for the night is for (night.go).
	awaits *loop.Invocation
	// traps memoizes trapped by mob and prey (guard.go).
	traps map[[2]int]bool
	// inPlace: the bot is walled in and the plan takes only steps that
	// do not walk, in the room's cells (digout.go).
	inPlace bool
	room    []world.BlockPos
}

// mark is where the current node's children end: rollback drops the
// sub-goals added since, when the way they were on is given up.
func (s *search) mark() int {
	if s.node == nil {
		return 0
	}
	return len(s.node.Children)
}

func (s *search) rollback(mark int) {
	if s.node != nil && len(s.node.Children) > mark {
		clear(s.node.Children[mark:])
		s.node.Children = s.node.Children[:mark]
	}
}

// add adds a node under the current one.
func (s *search) add(n *loop.PlanNode) {
	if s.node != nil {
		s.node.Children = append(s.node.Children, n)
	}
}

// step adds the step chosen under n unless a sub-goal of n chose it.
func (s *search) step(n *loop.PlanNode, inv *loop.Invocation) {
	if inv == nil || n == nil {
		return
	}
	for _, c := range n.Children {
		if c.State == loop.PlanActive || c.State == loop.PlanStep {
			return
		}
	}
	n.Children = append(n.Children, &loop.PlanNode{Label: inv.String(), State: loop.PlanStep})
}

func (s *search) find(name string) *registry.Description {
	for _, d := range s.catalog {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// ranked orders skills by learned success rate (unknown = 0.5), then
// average cost (unknown = 0), then name.
func (s *search) ranked(ds []*registry.Description) []*registry.Description {
	out := append([]*registry.Description(nil), ds...)
	rate := func(d *registry.Description) float64 {
		if d.Metrics.SuccessRate == nil {
			return 0.5
		}
		return *d.Metrics.SuccessRate
	}
	cost := func(d *registry.Description) float64 {
		if d.Metrics.AvgCost == nil {
			return 0
		}
		return *d.Metrics.AvgCost
	}
	sort.SliceStable(out, func(i, j int) bool {
		if ri, rj := rate(out[i]), rate(out[j]); ri != rj {
			return ri > rj
		}
		if ci, cj := cost(out[i]), cost(out[j]); ci != cj {
			return ci < cj
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// producer is a skill that can increase an item, and how.
type producer struct {
	desc *registry.Description
	// param is the item_id parameter to set to the item (generic producers
	// such as basic_crafting), or "".
	param string
	// amount is the int parameter the increase is tied to ("{min_logs}"), or "".
	amount string
	// mine is a block to mine for the item (mine_block), set as the
	// skill's block_id parameter blockParam, with the radius to ask for (0:
	// the skill's default).
	mine, blockParam string
	radius           int
	// buried is the block to mine when none is open to the air (a gravel
	// pocket in the stone): what lies over it is dug through to reach it.
	buried *world.BlockPos
	// remembered: no such block is in sight, but the memory of the world
	// holds one; the bot walks to it first (walk_to_remembered).
	remembered bool
	// hunt is the mob to kill for the item (a skill tagged hunts_mobs:
	// hunt's target).
	hunt string
	// ore is the tag of the GregTech ore to mine for a raw ore (a skill
	// tagged mines_gt_ore), oreLevel the pickaxe level it asks for
	// (ores.go).
	ore      string
	oreLevel int
	// night: no such mob is in the world model, and the kind spawns in
	// the dark; or guard says why the ones in range are left alone for
	// now: the hunt waits, walled in (night.go).
	night bool
	guard string
	// guardedBy is the hostile mob that guards the nearest prey (with
	// guard).
	guardedBy world.Entity
}

// itemTags returns the tags of an exact item id ("modid:name[:meta]").
func (s *search) itemTags(item string) []string {
	id, meta, err := world.SplitID(item)
	if err != nil {
		return nil
	}
	if meta < 0 {
		meta = 0
	}
	return s.Tags.ItemTags(id, meta)
}

// produces reports whether an effect key covers the wanted item matcher.
func (s *search) produces(key, want string) bool {
	if key == want {
		return true
	}
	if strings.HasPrefix(want, "ore:") || strings.HasPrefix(want, "tool:") {
		// The key is an exact item carrying the wanted tag.
		for _, t := range s.itemTags(key) {
			if t == want {
				return true
			}
		}
		return false
	}
	// want is an exact item; the key may be its plain id or one of its tags.
	if id, _, err := world.SplitID(want); err == nil && key == id {
		return true
	}
	for _, t := range s.itemTags(want) {
		if t == key {
			return true
		}
	}
	return false
}

func (s *search) producers(item string) []producer {
	var out, miners []producer
	gatherer := false
	for _, d := range s.ranked(s.catalog) {
		if slices.Contains(d.Effects.Tags, oreMinerTag) {
			if p, ok := s.oreMiner(d, item); ok {
				miners = append(miners, p)
			}
			continue
		}
		if param := minerParam(d); param != "" {
			if t, ok := s.mineable(d, item); ok && s.minerFits(d, t.block) {
				miners = append(miners, producer{desc: d, mine: t.block, blockParam: param, radius: t.radius, remembered: t.remembered, buried: t.buried})
			}
			continue
		}
		if slices.Contains(d.Effects.Tags, "hunts_mobs") {
			if p, ok := s.hunter(d, item); ok {
				out = append(out, p)
			}
			continue
		}
		if s.producesAny(d, item) {
			if g, ok := s.gatherable(d, item); ok && g.inRange > 0 {
				gatherer = true
			}
		}
		// What a skill gains: its inventory_delta, and that of each any_of
		// alternative (a skill whose outcomes differ, such as collecting
		// coke or charcoal, produces each of them).
		gains := map[string]skills.InventoryChange{}
		for _, alt := range d.Effects.AnyOf {
			maps.Copy(gains, alt.InventoryDelta)
		}
		maps.Copy(gains, d.Effects.InventoryDelta)
		keys := slices.Sorted(maps.Keys(gains))
		for _, key := range keys {
			ch := gains[key]
			if ch.MinIncrease == nil {
				continue
			}
			p := producer{desc: d, amount: ch.MinIncrease.Param}
			if strings.HasPrefix(key, "{") && strings.HasSuffix(key, "}") {
				param := key[1 : len(key)-1]
				if pd, ok := d.Params[param]; !ok || pd.Type != action.TypeItemID {
					continue
				}
				if smelts(d) {
					if len(s.Smelt.For(item)) == 0 {
						continue // a smelting skill needs a furnace recipe
					}
				} else if len(s.Recipes.For(item)) == 0 {
					continue // the generic producer here is crafting; it needs a recipe
				}
				p.param = param
			} else if !s.produces(key, item) {
				continue
			}
			out = append(out, p)
			break
		}
	}
	// A block a gathering skill takes whole (a tree: chop_tree fells it
	// from the bottom up) is not mined one block at a time: the logs
	// above the one mined would be left floating out of reach.
	if !gatherer {
		out = append(out, miners...)
	}
	return out
}

// hunter is a hunting skill (effects tagged hunts_mobs, an item_id
// parameter its gain is keyed by, a string target) as the producer of an
// item some mob drops, when a mob of that kind is in the world model
// within the skill's radius (up to the parameter's maximum, asked for
// when it is past the default): the nearest kind's, the kinds in
// config/mobs.yaml's order. With none in range, a hostile kind that drops
// it (one that spawns in the dark: string from spiders) is the producer
// still, its hunt waiting for the night.
func (s *search) hunter(d *registry.Description, item string) (producer, bool) {
	param := huntItemParam(d)
	if param == "" {
		return producer{}, false
	}
	want, err := world.ParseItemMatcher(item)
	if err != nil {
		return producer{}, false
	}
	radius, limit := 32.0, 32.0
	if pd, ok := d.Params["radius"]; ok {
		if v, ok := number(pd.Default); ok {
			radius, limit = float64(v), float64(v)
		}
		if pd.Max != nil {
			limit = max(limit, *pd.Max)
		}
	}
	best, bestDist := producer{}, math.Inf(1)
	guarded := "" // why the nearest prey in range is left alone
	guardedDist := math.Inf(1)
	var guardedBy world.Entity // the mob that guards it
	for _, k := range s.Mobs.Kinds() {
		if _, ok := s.dropOf(k, want); !ok {
			continue
		}
		for _, e := range s.w.EntitiesOfKind(world.EntityMob) {
			if e.Name != k.Name {
				continue
			}
			dist := math.Hypot(e.Pos.X-s.w.Player.Pos.X, e.Pos.Z-s.w.Player.Pos.Z)
			if dist > limit {
				continue
			}
			if why, by := s.guardMob(e); why != "" {
				if dist < guardedDist {
					guarded, guardedDist, guardedBy = why, dist, by
				}
				continue
			}
			if dist < bestDist {
				best, bestDist = producer{desc: d, param: param, hunt: k.Name}, dist
				if dist > radius {
					// Beyond the skill's default: ask for the radius
					// that reaches it.
					best.radius = int(math.Ceil(dist))
				}
			}
		}
	}
	if best.desc == nil {
		for _, k := range s.Mobs.Kinds() {
			if _, ok := s.dropOf(k, want); !ok {
				continue
			}
			if guarded != "" {
				return producer{desc: d, param: param, hunt: k.Name, night: true, guard: guarded, guardedBy: guardedBy}, true
			}
			if !k.Passive() && k.Weight > 0 {
				return producer{desc: d, param: param, hunt: k.Name, night: true}, true
			}
		}
	}
	return best, best.desc != nil
}

// huntItemParam is a hunting skill's item_id parameter its gain is keyed
// by ("item" for hunt), or "".
func huntItemParam(d *registry.Description) string {
	for key, ch := range d.Effects.InventoryDelta {
		if ch.MinIncrease == nil || !strings.HasPrefix(key, "{") || !strings.HasSuffix(key, "}") {
			continue
		}
		if pd, ok := d.Params[key[1:len(key)-1]]; ok && pd.Type == action.TypeItemID {
			return key[1 : len(key)-1]
		}
	}
	return ""
}

// guard says why a mob is not to be hunted now: a hostile mob of another
// kind that would see the bot on its way, from the bot to the mob (within
// loop.GuardRange: its follow range, 40 blocks for a zombie, and at least
// 16) ("" when none).
func (s *search) guard(prey world.Entity) string {
	why, _ := s.guardMob(prey)
	return why
}

// guardMob is guard's reason and the mob that guards.
func (s *search) guardMob(prey world.Entity) (string, world.Entity) {
	for _, e := range s.w.EntitiesOfKind(world.EntityMob) {
		k, ok := s.Mobs.Kind(e.Name)
		if !ok || k.Passive() || e.Name == prey.Name {
			continue
		}
		if d := loop.FromWay(e.Pos, s.w.Player.Pos, prey.Pos); d <= loop.GuardRange(k) && s.comes(e, k, prey) {
			return fmt.Sprintf("a %s (entity %d) is %.0f blocks from the way to the %s (entity %d)", e.Name, e.ID, d, prey.Name, prey.ID), e
		}
	}
	return "", world.Entity{}
}

// kill plans killing n mobs of a kind with a hunting skill (effects
// tagged hunts_mobs): its tools first (a sword), then the skill asked for
// the kind's surest drop, as many as n kills give (hunt kills count ÷ the
// least a kill drops, or count when a kill may drop nothing), within a
// radius that reaches the nearest mob of the kind in the world model (up
// to the skill's largest).
func (s *search) kill(mob string, n int) (*loop.Invocation, error) {
	k, ok := s.Mobs.Kind(mob)
	if !ok {
		return nil, fmt.Errorf("no mob %q in the mob table", mob)
	}
	var drop rules.MobDrop
	found := false
	for _, d := range k.Drops {
		if d.Max > 0 && (!found || d.Min > drop.Min) {
			drop, found = d, true
		}
	}
	if !found {
		return nil, fmt.Errorf("a %s drops nothing, and a hunting skill is asked for a drop", mob)
	}
	var whyNot []string
	for _, d := range s.ranked(s.catalog) {
		param := huntItemParam(d)
		if !slices.Contains(d.Effects.Tags, "hunts_mobs") || param == "" {
			continue
		}
		reach, dflt := 32.0, 32.0
		if pd, ok := d.Params["radius"]; ok {
			if v, ok := number(pd.Default); ok {
				reach, dflt = float64(v), float64(v)
			}
			if pd.Max != nil {
				reach = *pd.Max
			}
		}
		nearest := math.Inf(1)
		for _, e := range s.w.EntitiesOfKind(world.EntityMob) {
			if e.Name == mob {
				nearest = min(nearest, math.Hypot(e.Pos.X-s.w.Player.Pos.X, e.Pos.Z-s.w.Player.Pos.Z))
			}
		}
		if nearest > reach {
			whyNot = append(whyNot, fmt.Sprintf("%s: no %s within %g blocks", d.Name, mob, reach))
			continue
		}
		sub, err := s.tools(d, 0)
		if err != nil {
			whyNot = append(whyNot, fmt.Sprintf("%s: %v", d.Name, err))
			continue
		}
		if sub != nil {
			return sub, nil
		}
		count := n * max(drop.Min, 1)
		if pd, ok := d.Params["count"]; ok && pd.Max != nil {
			count = min(count, int(*pd.Max))
		}
		inv := &loop.Invocation{Skill: d.Name, Params: map[string]any{"target": mob, param: drop.Item.String(), "count": count}}
		if nearest > dflt {
			inv.Params["radius"] = int(math.Ceil(nearest))
		}
		if s.blocked[inv.String()] {
			whyNot = append(whyNot, inv.String()+" is blocked until the world changes")
			continue
		}
		return inv, nil
	}
	if len(whyNot) == 0 {
		return nil, fmt.Errorf("no available skill hunts mobs (a %s)", mob)
	}
	return nil, fmt.Errorf("cannot kill a %s: %s", mob, strings.Join(whyNot, "; "))
}

// dropOf returns the drop of a mob kind that gives an item matching want.
func (s *search) dropOf(k rules.MobKind, want world.ItemMatcher) (rules.MobDrop, bool) {
	for _, d := range k.Drops {
		id, meta := d.Item.ID()
		if d.Max > 0 && want.Matches(s.Tags.Stack(id, max(meta, 0), 1)) {
			return d, true
		}
	}
	return rules.MobDrop{}, false
}

// producesAny reports whether a skill's declared gains cover the item.
func (s *search) producesAny(d *registry.Description, item string) bool {
	for key, ch := range d.Effects.InventoryDelta {
		if ch.MinIncrease != nil && s.produces(key, item) {
			return true
		}
	}
	return false
}

// minerParam is the block_id parameter of a skill that mines one block of
// a given id (effects tagged mines_block: mine_block's target), or "".
func minerParam(d *registry.Description) string {
	if !slices.Contains(d.Effects.Tags, "mines_block") {
		return ""
	}
	for _, name := range slices.Sorted(maps.Keys(d.Params)) {
		if d.Params[name].Type == action.TypeBlockID {
			return name
		}
	}
	return ""
}

// dropSources lists the blocks whose harvest surely gives the item, or an
// item carrying the tag (ore:cobblestone from stone).
func (s *search) dropSources(item string) []string {
	if !strings.HasPrefix(item, "ore:") && !strings.HasPrefix(item, "tool:") {
		return s.Drops.Sources(item, func(id string) bool { _, ok := s.Mining.Block(id); return ok })
	}
	var out []string
	for _, b := range s.Mining.Blocks() {
		d, random := s.Drops.Of(world.Block{ID: b})
		if !random && slices.Contains(s.itemTags(fmt.Sprintf("%s:%d", d.Item, d.Meta)), item) {
			out = append(out, b)
		}
	}
	return out
}

// minerFits reports whether a mining skill is the one for a block: a block
// that drops without a tool is mined by a skill that needs none (mine_block),
// one that needs a tool class by a skill that requires a tool of that class
// and holds it (mine_ore: tool:pickaxe).
func (s *search) minerFits(d *registry.Description, block string) bool {
	rule, _ := s.Mining.Block(block)
	if !rule.NeedsTool {
		return len(d.Preconditions.RequiredTools) == 0
	}
	return slices.ContainsFunc(d.Preconditions.RequiredTools, func(t skills.ToolRequirement) bool { return t.ItemID == "tool:"+rule.Tool })
}

// mineTarget is the block a mining producer mines: its id, the radius to
// ask for when it lies past the skill's default (0 otherwise), whether it
// is only remembered (out of sight), and where it lies when it is buried.
type mineTarget struct {
	block      string
	radius     int
	remembered bool
	buried     *world.BlockPos
}

// mineable finds the nearest block that surely gives the item when mined
// (the drop table: gravel for gravel, clay for clay balls) within the
// mining skill's largest radius.
func (s *search) mineable(d *registry.Description, item string) (mineTarget, bool) {
	if s.w.Blocks == nil {
		return mineTarget{}, false
	}
	sources := s.dropSources(item)
	if len(sources) == 0 {
		return mineTarget{}, false
	}
	def, limit := 16, 16
	if rp, has := d.Params["radius"]; has {
		if n, isNum := number(rp.Default); isNum {
			def, limit = n, n
		}
		if rp.Max != nil {
			limit = max(limit, int(*rp.Max))
		}
	}
	hits := s.w.Blocks.Nearest(s.w.Feet(), limit, openLook, func(b world.Block) bool { return slices.Contains(sources, b.ID) })
	// The block the player stands on is never the mining skill's target
	// ({target_location}): planning for it would name a block the skill
	// then finds none of.
	below := s.w.Feet().Down()
	hits = slices.DeleteFunc(hits, func(h world.BlockHit) bool { return h.Pos == below })
	if len(hits) == 0 {
		if b, ok := s.rememberedSource(sources); ok {
			return mineTarget{block: b, remembered: true}, true
		}
		return mineTarget{}, false
	}
	// The nearest one open to the air, as the mining skill picks (a
	// buried one, a gravel pocket in the stone, only when none is open,
	// and then the one least work to dig to): the radius reaches it
	// rather than a buried one nearer.
	var t mineTarget
	best := hits[0]
	if i := slices.IndexFunc(hits, func(h world.BlockHit) bool { return skills.OpenToAir(s.w, h.Pos) }); i >= 0 {
		best = hits[i]
	} else {
		least := skills.DigWork(s.w, best.Pos)
		for _, h := range hits[1:] {
			if c := skills.DigWork(s.w, h.Pos); c < least {
				best, least = h, c
			}
		}
		pos := best.Pos
		t.buried = &pos
	}
	t.block = best.Block.ID
	if best.DistSq > def*def {
		t.radius = int(math.Ceil(math.Sqrt(float64(best.DistSq))))
	}
	return t, true
}

// digTools returns the sub-goal towards the tool that digging down to a
// buried block takes, nil when the inventory holds it: the first block
// over it (up to the air, as Cover counts) that drops nothing without a
// tool the inventory lacks (stone: a pickaxe). A player digs to a gravel
// pocket in the stone with a pickaxe, and a digging route breaks no stone
// by hand (digroute.BestTool).
func (s *search) digTools(buried world.BlockPos, depth int) (*loop.Invocation, error) {
	for q, i := buried.Add(0, 1, 0), 0; i < maxDigCover; q, i = q.Add(0, 1, 0), i+1 {
		b := s.w.BlockAt(q)
		if b.IsAir() {
			return nil, nil
		}
		rule, ok := s.Mining.Block(b.ID)
		if !ok || !rule.NeedsTool || s.bestLevel(rule.Tool) >= rule.Level {
			continue
		}
		tool := "tool:" + rule.Tool
		sub, err := s.obtain(tool, s.w.Inventory.Count(world.MustItem(tool))+1, depth+1)
		if err != nil {
			return nil, fmt.Errorf("digging down to the %s at %s through %s needs a %s: %w", s.w.BlockAt(buried).ID, buried, b.ID, tool, err)
		}
		return sub, nil
	}
	return nil, nil
}

// maxDigCover bounds digTools' look up a buried block's column (as
// skills.Cover counts).
const maxDigCover = 64

// openLook is how many of the nearest source blocks mineable weighs to
// find one open to the air (the mining skill's target_location weighs
// as many).
const openLook = 512

// walkSkill walks to a remembered block (skills/base).
const walkSkill = "walk_to_remembered"

// rememberedSource is the source block the memory of the world holds
// nearest the player, within walkSkill's default distance, when the
// catalog has walkSkill.
func (s *search) rememberedSource(sources []string) (string, bool) {
	if s.w.Recall == nil || !slices.ContainsFunc(s.catalog, func(d *registry.Description) bool { return d.Name == walkSkill }) {
		return "", false
	}
	best, bestD := "", -1
	for _, src := range sources {
		for _, p := range s.w.Recall.RecallBlocks(src, -1, s.w.Feet(), 256, 1) {
			if d := p.DistSq(s.w.Feet()); bestD < 0 || d < bestD || d == bestD && src < best {
				best, bestD = src, d
			}
		}
	}
	return best, bestD >= 0
}

// obtain returns the next invocation towards having need items matching
// item, nil when they are already there, or an error when no skill can make
// them.
func (s *search) obtain(item string, need, depth int) (*loop.Invocation, error) {
	m, err := world.ParseItemMatcher(item)
	if err != nil {
		return nil, err
	}
	have := s.w.Inventory.Count(m)
	n := &loop.PlanNode{Label: fmt.Sprintf("%d %s", need, item), Note: fmt.Sprintf("have %d", have)}
	if have >= need {
		n.State = loop.PlanMet
		s.add(n)
		return nil, nil
	}
	parent, mark := s.node, s.mark()
	s.add(n)
	s.node = n
	inv, err := s.obtainMissing(n, item, m, have, need, depth)
	s.node = parent
	if err != nil || inv == nil {
		s.rollback(mark)
		return inv, err
	}
	n.State = loop.PlanActive
	s.step(n, inv)
	return inv, nil
}

// obtainMissing is obtain's search for the items missing, under the
// plan tree's node n.
func (s *search) obtainMissing(n *loop.PlanNode, item string, m world.ItemMatcher, have, need, depth int) (*loop.Invocation, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%s: sub-goals nest deeper than %d", item, maxDepth)
	}
	if s.visiting[item] {
		return nil, fmt.Errorf("%s: circular dependency", item)
	}
	s.visiting[item] = true
	defer delete(s.visiting, item)

	missing := need - have
	if id, meta := m.ID(); id != "" && meta == 0 && len(s.Recipes.For(item)) == 0 && len(s.Recipes.For(id)) > 0 {
		// A recipe's output written without metadata is metadata 0: an
		// exact want of metadata 0 (NewHorizonsCoreMod's fence asks for oak
		// planks, minecraft:planks:0) is crafted as the plain id. Only
		// crafting: the plain id of a mined or smelted item may match other
		// metadata (coal and charcoal are minecraft:coal).
		plain, _ := world.ParseItemMatcher(id)
		return s.obtain(id, s.w.Inventory.Count(plain)+missing, depth+1)
	}
	var reasons []string
	var waiting *producer // the first way that waits for a hunt
	for _, p := range s.producers(item) {
		if s.inPlace && !s.runsInPlace(p) {
			reasons = append(reasons, fmt.Sprintf("%s walks, and the bot is walled in", p.desc.Name))
			continue
		}
		mark := s.mark()
		n.Note = fmt.Sprintf("have %d; via %s", have, p.desc.Name)
		if slot, kind, ok := collectsOutput(p.desc, s, item); ok && !s.outputToCollect(kind, slot, item) {
			// Nothing to take out yet: the machines must work first
			// (running the collector would do nothing).
			if next, why := s.machineCycle(p.desc, item, missing, depth); next != nil {
				n.Note = fmt.Sprintf("have %d; from the machines, then %s", have, p.desc.Name)
				return next, nil
			} else if why != "" {
				s.rollback(mark)
				reasons = append(reasons, fmt.Sprintf("%s has nothing to collect (%s)", p.desc.Name, why))
				continue
			}
			s.rollback(mark)
		}
		awaits := s.awaits
		inv, err := s.via(p, item, missing, depth)
		if err != nil {
			s.rollback(mark)
			reasons = append(reasons, fmt.Sprintf("%s: %v", p.desc.Name, err))
			continue
		}
		if inv != nil && s.awaits != awaits && s.passesTime(inv) {
			// A way that waits for the night's hunt (wool from string)
			// comes after every way that works now (wool from a sheep).
			s.rollback(mark)
			s.awaits = awaits
			if waiting == nil {
				waiting = &p
			}
			continue
		}
		if inv != nil && s.blocked[inv.String()] {
			s.rollback(mark)
			// A machine's output is collected when there is some: with
			// nothing to collect, the machine must work first.
			if next, why := s.machineCycle(p.desc, item, missing, depth); next != nil {
				n.Note = fmt.Sprintf("have %d; from the machines, then %s", have, p.desc.Name)
				return next, nil
			} else if why != "" {
				s.rollback(mark)
				reasons = append(reasons, fmt.Sprintf("%s is blocked (%s)", inv, why))
				continue
			}
			s.rollback(mark)
			reasons = append(reasons, fmt.Sprintf("%s is blocked", inv))
			continue
		}
		if inv != nil {
			return inv, nil
		}
		s.rollback(mark)
	}
	n.Note = fmt.Sprintf("have %d", have)
	// An ore-dictionary or tool-class want can be met by any craftable item
	// carrying the tag (ore:plankWood by minecraft:planks).
	if m.IsTag() {
		for _, exact := range s.craftableWithTag(item) {
			em, _ := world.ParseItemMatcher(exact)
			mark := s.mark()
			inv, err := s.obtain(exact, s.w.Inventory.Count(em)+missing, depth+1)
			if err != nil {
				reasons = append(reasons, err.Error())
				continue
			}
			if inv != nil {
				n.Note = fmt.Sprintf("have %d; as %s", have, exact)
				return inv, nil
			}
			s.rollback(mark)
		}
	}
	// A machine the bot can build makes it (charcoal: only the coke oven
	// cokes logs in GTNH): build one first, as a player does; feeding
	// and waiting follow once it stands.
	if s.inPlace {
		if len(reasons) == 0 {
			return nil, fmt.Errorf("no available skill makes %s where the bot stands", item)
		}
		return nil, fmt.Errorf("cannot get %d %s where the bot stands: %s", missing, item, strings.Join(reasons, "; "))
	}
	if inv, why, ok := s.buildFor(item, depth); ok {
		n.Note = fmt.Sprintf("have %d; from a %s the bot builds", have, why)
		return inv, nil
	} else if why != "" {
		reasons = append(reasons, why)
	}
	if waiting != nil {
		n.Note = fmt.Sprintf("have %d; via %s", have, waiting.desc.Name)
		return s.via(*waiting, item, missing, depth)
	}
	if len(reasons) == 0 {
		return nil, fmt.Errorf("%w %s", errNoProducer, item)
	}
	return nil, fmt.Errorf("cannot get %d %s: %s", missing, item, strings.Join(reasons, "; "))
}

// errNoProducer is obtain's error for an item nothing makes (its text is
// what loop's list of blockers reads).
var errNoProducer = errors.New("no available skill produces")

// preferErr keeps the first error of the recipes tried, unless it is only
// that an ingredient has no producer at all (an iron head only a quest
// gives) and a later recipe says more.
func preferErr(first, err error) error {
	if first == nil || errors.Is(first, errNoProducer) && !errors.Is(err, errNoProducer) {
		return err
	}
	return first
}

// craftableWithTag lists crafting and smelting outputs carrying a tag, sorted.
func (s *search) craftableWithTag(tag string) []string {
	seen := map[string]bool{}
	var out []string
	consider := func(output string) {
		if seen[output] {
			return
		}
		seen[output] = true
		if slices.Contains(s.itemTags(output), tag) {
			out = append(out, output)
		}
	}
	for _, r := range s.Recipes.All() {
		consider(r.Output)
	}
	for _, r := range s.Smelt.All() {
		consider(r.Output) // ore:stone from smelted cobblestone
	}
	sort.Strings(out)
	// Items made only at a station (a Tinkers' pickaxe: patterns, parts
	// and three tables) come after those a crafting grid or a furnace
	// makes (the wooden pickaxe): the cheap way first.
	sort.SliceStable(out, func(i, j int) bool { return !s.stationOnly(out[i]) && s.stationOnly(out[j]) })
	return out
}

// stationOnly reports whether every recipe for an item is made at a
// station (config/recipes.yaml's station), none in a grid.
func (s *search) stationOnly(item string) bool {
	rs := s.Recipes.For(item)
	for _, r := range rs {
		if !r.AtStation() {
			return false
		}
	}
	return len(rs) > 0
}

// via plans getting missing items through one producer: its sub-goals
// first, then the producer itself.
func (s *search) via(p producer, item string, missing, depth int) (*loop.Invocation, error) {
	if p.ore != "" {
		return s.oreStep(p, item, depth)
	}
	if sub, err := s.tools(p.desc, depth); err != nil || sub != nil {
		return sub, err
	}
	inv := &loop.Invocation{Skill: p.desc.Name, Params: map[string]any{}}
	if p.mine != "" {
		// The skill's tools are in the inventory (above): the best of
		// them must also reach the block's harvest level.
		if rule, ok := s.Mining.Block(p.mine); ok && rule.NeedsTool {
			if best := s.bestLevel(rule.Tool); best < rule.Level {
				return nil, fmt.Errorf("%s drops nothing without a %s of harvest level %d or more, and the best in the inventory is level %d", p.mine, rule.Tool, rule.Level, best)
			}
		}
		if p.buried != nil {
			if sub, err := s.digTools(*p.buried, depth); err != nil || sub != nil {
				return sub, err
			}
		}
		if p.remembered {
			// Out of sight but remembered: walk there; the next plan
			// sees the block and mines it.
			return &loop.Invocation{Skill: walkSkill, Params: map[string]any{"target": p.mine}}, nil
		}
		inv.Params[p.blockParam] = p.mine
		if p.radius > 0 {
			inv.Params["radius"] = p.radius
		}
		return inv, nil
	}
	if p.night {
		return s.awaitNight(p, item, missing)
	}
	if p.hunt != "" {
		inv := s.huntStep(p, item, missing)
		if s.blocked[inv.String()] {
			// The mobs in sight gave nothing twice (a spider drops no
			// string one time in three): the night brings others.
			return s.awaitNight(p, item, missing)
		}
		return inv, nil
	}
	limit := -1 // the most items the step can make (grid tools wear out)
	if p.param != "" && smelts(p.desc) {
		sub, at, err := s.smeltInputs(item, missing, depth)
		if err != nil || sub != nil {
			return sub, err
		}
		inv.Params[p.param] = item
		if at != "" {
			inv.Params["pos"] = at
		}
		// The smelting skill waits by the furnace while it cooks: a few
		// items a step keep each step's output coming within
		// smeltStepTicks, and the plan looks again between them.
		if s.Smelt.CookTicks > 0 {
			limit = max(1, smeltStepTicks/s.Smelt.CookTicks)
		}
	} else if p.param != "" {
		sub, r, err := s.craftInputs(item, missing, depth)
		if err != nil || sub != nil {
			return sub, err
		}
		inv.Params[p.param] = item
		if c := s.craftCap(*r); c >= 0 {
			limit = c
		}
	}
	if p.amount != "" {
		n := missing
		if limit >= 0 {
			n = min(n, limit)
		}
		if pd, ok := p.desc.Params[p.amount]; ok && pd.Max != nil {
			n = int(math.Min(float64(n), *pd.Max))
		}
		if g, ok := s.gatherable(p.desc, item); ok {
			if g.inRange == 0 {
				// Trees grow again from saplings (treefarm.go).
				inv, farm, why := s.regrow(p.desc, g.limit)
				if inv != nil {
					return inv, nil
				}
				err := fmt.Errorf("no block it gathers %s from (tagged %s) within %d blocks", item, strings.Join(p.desc.Preconditions.SemanticTagsAnyOf, " or "), g.limit)
				if farm {
					err = fmt.Errorf("%w, and no tree farm: %s", err, why)
				}
				return nil, err
			}
			if walk := s.walkFirst(g.nearest); walk != nil {
				return walk, nil
			}
			// Ask for what the world in range holds, not for more than
			// one visit can give: the step then promises what it can keep.
			n = min(n, g.inRange)
			if g.radius > 0 {
				inv.Params["radius"] = g.radius
			}
		}
		inv.Params[p.amount] = n
	}
	if _, kind, ok := collectsOutput(p.desc, s, item); ok {
		if walk, err := s.reachMachines(p.desc, map[string]bool{kind: true}, inv.Params); err != nil || walk != nil {
			return walk, err
		}
	}
	if len(inv.Params) == 0 {
		inv.Params = nil
	}
	return inv, nil
}

// reachMachines sets a machine skill's int radius parameter so that it
// reaches the nearest formed machine of the kinds when its default does
// not (the player may have walked off to fetch logs); for a machine
// beyond the parameter's maximum it returns the walk back towards it
// (walkBack), or an error when there is none.
func (s *search) reachMachines(d *registry.Description, kinds map[string]bool, params map[string]any) (*loop.Invocation, error) {
	rp, has := d.Params["radius"]
	if !has || rp.Type != action.TypeInt {
		return nil, nil
	}
	def, isNum := number(rp.Default)
	if !isNum {
		return nil, nil
	}
	limit := def
	if rp.Max != nil {
		limit = max(def, int(*rp.Max))
	}
	feet := s.w.Feet()
	nearest := -1
	var at world.BlockPos
	for _, m := range s.w.Machines {
		if kinds[m.Kind] && m.Formed {
			if d := m.Pos.DistSq(feet); nearest < 0 || d < nearest {
				nearest, at = d, m.Pos
			}
		}
	}
	if nearest < 0 || nearest <= def*def {
		return nil, nil
	}
	r := int(math.Ceil(math.Sqrt(float64(nearest))))
	if r > limit {
		// A bot that fled or wandered past the skill's reach (a zombie
		// chasing it from its oven by day) walks back towards the machine.
		if walk := s.walkBack(at, r, limit); walk != nil {
			return walk, nil
		}
		return nil, fmt.Errorf("the nearest %s, at %s, is %d blocks away, beyond its reach of %d", strings.Join(slices.Sorted(maps.Keys(kinds)), " or "), at, r, limit)
	}
	params["radius"] = r
	return nil, nil
}

// walkBack plans a leg of the walk back towards a machine at dist blocks,
// past a skill's reach of limit: walk_to its block until it is within half
// the reach; nil without the walking skill, or when that walk is blocked.
func (s *search) walkBack(at world.BlockPos, dist, limit int) *loop.Invocation {
	block := s.w.BlockAt(at).ID
	if block == "" || s.find(walkToSkill) == nil {
		return nil // the machine's block unseen: nothing to walk towards
	}
	inv := &loop.Invocation{Skill: walkToSkill, Params: map[string]any{"target": block, "near": max(2, limit/2), "leg": walkTicks, "radius": dist + 1}}
	if s.blocked[inv.String()] {
		return nil
	}
	return inv
}

// bestLevel is the highest harvest level of a tool class among the
// inventory's tools with durability left (-1: none).
func (s *search) bestLevel(class string) int {
	best := -1
	for _, st := range s.w.Inventory.Slots {
		if st.Empty() || !st.HasTag("tool:"+class) || st.MaxDamage > 0 && st.Damage >= st.MaxDamage {
			continue
		}
		best = max(best, s.Mining.ToolLevel(st, class, -1))
	}
	return best
}

// tools returns the sub-goal towards the first of a skill's required tools
// (preconditions.required_tools) that the inventory lacks, nil when every
// one is there, or an error saying which tool cannot be obtained and why.
// A tool held that is about to wear out is replaced first when it can be
// (spare).
func (s *search) tools(d *registry.Description, depth int) (*loop.Invocation, error) {
	for _, tool := range d.Preconditions.RequiredTools {
		tm, err := world.ParseItemMatcher(tool.ItemID)
		if err != nil {
			return nil, err
		}
		if slot := s.w.Inventory.BestTool(tm, tool.MinDurability); slot >= 0 {
			if sub := s.spare(tool.ItemID, tm, slot, depth); sub != nil {
				return sub, nil
			}
			continue
		}
		sub, err := s.obtain(tool.ItemID, s.w.Inventory.Count(tm)+1, depth+1)
		if err != nil {
			return nil, fmt.Errorf("needs %s: %w", tool.ItemID, err)
		}
		if sub != nil {
			return sub, nil
		}
	}
	return nil, nil
}

// smelts reports whether a skill smelts items (its effects are tagged
// smelts_items): its item parameter is met by the furnace's table.
func smelts(d *registry.Description) bool { return slices.Contains(d.Effects.Tags, "smelts_items") }

// smeltMaxRadius is how far the plan looks for a furnace a batch was left
// in (the smelting skill's largest search radius, config/skills/smelt.yaml).
const smeltMaxRadius = 64

// furnaceRadius is how far the smelting skill looks for a furnace.
const furnaceRadius = 16

// smeltStepTicks bounds the cooking one smelting step waits for (45 s of
// game time: 4 items at 200 ticks each), so that a long batch (a hundred
// coke oven bricks) is many steps, each with its output, rather than one
// step of ten minutes with nothing to show until its end.
const smeltStepTicks = 900

// smeltInputs returns the sub-goal that must come before smelting missing
// items: a furnace when none stands within reach nor is held, then the
// input, then fuel: planks or coal that alone burn the cooking time (the
// smelting skill burns one kind; planks first). With none, at is the
// furnace the smelting skill must use ("x,y,z") when it is not the one it
// takes by itself (the nearest within its radius), else "".
func (s *search) smeltInputs(item string, missing, depth int) (sub *loop.Invocation, at string, err error) {
	rs := s.Smelt.For(item)
	if len(rs) == 0 {
		return nil, "", fmt.Errorf("no furnace recipe for %s", item)
	}
	r := s.pickSmelt(rs)
	// A batch cut short (a mob ended the step before the withdrawal)
	// left its output made and its input cooking in its furnace: neither
	// is wanted again, and that furnace is the one to go back to, even
	// when the bot was driven off or another furnace stands nearer.
	fs := s.w.MachinesOfKind(world.MachineFurnace, furnaceRadius)
	for _, f := range s.w.MachinesOfKind(world.MachineFurnace, smeltMaxRadius) {
		if done, cooking := r.InFurnace(f.Slots, item, s.Tags); done+cooking > 0 {
			if len(fs) == 0 || fs[0].Pos != f.Pos {
				at = fmt.Sprintf("%d,%d,%d", f.Pos.X, f.Pos.Y, f.Pos.Z)
			}
			fs = []world.Machine{f}
			break
		}
	}
	if len(fs) > 0 {
		done, cooking := r.InFurnace(fs[0].Slots, item, s.Tags)
		missing = max(0, missing-done-cooking*r.Count)
	}
	ops := (missing + r.Count - 1) / r.Count
	furnace := world.MustItem("minecraft:furnace")
	if len(fs) == 0 && s.w.Inventory.Find(furnace) < 0 {
		if sub, err := s.obtain("minecraft:furnace", 1, depth+1); err != nil || sub != nil {
			return sub, "", err
		}
	}
	if sub, err := s.obtain(r.Input.String(), ops, depth+1); err != nil || sub != nil {
		return sub, "", err
	}
	ticks := ops * s.Smelt.CookTicks
	for _, f := range []string{"ore:plankWood", "minecraft:coal"} {
		m := world.MustItem(f)
		if slot := s.w.Inventory.Find(m); slot >= 0 && s.w.Inventory.Count(m)*s.Smelt.BurnTicks(s.w.Inventory.Slots[slot]) >= ticks {
			return nil, at, nil
		}
	}
	planks := world.MustItem("ore:plankWood")
	per := s.Smelt.BurnTicks(world.NewStack("minecraft:planks", 0, 1))
	if per <= 0 {
		return nil, "", fmt.Errorf("planks do not burn in the smelting table: no fuel for %d ticks of cooking", ticks)
	}
	sub, err = s.obtain("ore:plankWood", max(s.w.Inventory.Count(planks), (ticks+per-1)/per), depth+1)
	return sub, at, err
}

// craftInputs returns the sub-goal that must come before crafting missing
// items: an ingredient, or a crafting table for 3x3 recipes; with none, the
// recipe the crafting will use.
func (s *search) craftInputs(item string, missing, depth int) (*loop.Invocation, *rules.Recipe, error) {
	recipes := s.Recipes.For(item)
	var firstErr error
	// Recipes whose tools are at hand first; a recipe whose tool is
	// missing or worn out (the brick form for bricks) makes the tool its
	// first sub-goal only when no recipe can do without.
	var lacking []rules.Recipe
	for _, r := range recipes {
		if slices.ContainsFunc(r.Tools, func(t world.ItemMatcher) bool { return s.toolUses(t) == 0 }) {
			lacking = append(lacking, r)
			continue
		}
		mark := s.mark()
		sub, err := s.recipeInputs(r, missing, depth)
		if err != nil {
			s.rollback(mark)
			firstErr = preferErr(firstErr, err)
			continue
		}
		return sub, &r, nil
	}
	for _, r := range lacking {
		mark := s.mark()
		var sub *loop.Invocation
		var err error
		for _, t := range r.Tools {
			if s.toolUses(t) != 0 {
				continue
			}
			if sub, err = s.obtain(t.String(), s.w.Inventory.Count(t)+1, depth+1); err != nil {
				if r.AtStation() {
					err = fmt.Errorf("needs %s at %s: %w", t, r.Station, err)
				} else {
					err = fmt.Errorf("needs %s in the grid: %w", t, err)
				}
			}
			break
		}
		if err == nil && sub == nil {
			sub, err = s.recipeInputs(r, missing, depth)
		}
		if err != nil {
			s.rollback(mark)
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		return sub, &r, nil
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("no usable recipe for %s", item)
	}
	return nil, nil, firstErr
}

// toolUses is how many crafts the inventory's tools matching a recipe's
// tool still do in the grid (config/crafting_tools.yaml): 0 when none is
// held or every one is worn out, -1 when one does not wear.
func (s *search) toolUses(t world.ItemMatcher) int {
	if s.w.Inventory.Find(t) < 0 {
		return 0
	}
	return s.Grid.UsesIn(s.w.Inventory, t)
}

// craftCap is how many items a recipe can make before one of its grid
// tools wears out, -1 for no limit: the crafting step asks for no more,
// and the next plan makes a new tool. A recipe that gives a container
// back (paper's bucket of water) makes what the held ingredients allow,
// one batch at least: the container comes back to be filled for the next.
func (s *search) craftCap(r rules.Recipe) int {
	limit := -1 // in crafts
	if len(r.Returns) > 0 {
		limit = max(1, s.heldBatches(r))
	}
	for _, t := range r.Tools {
		if u := s.toolUses(t); u >= 0 && (limit < 0 || u < limit) {
			limit = u
		}
	}
	if limit < 0 {
		return -1
	}
	return limit * r.Count
}

// heldBatches is how many crafts of r the inventory's ingredients make.
func (s *search) heldBatches(r rules.Recipe) int {
	n := -1
	for _, ing := range r.Ingredients {
		if k := s.w.Inventory.Count(ing.Item) / ing.Count; n < 0 || k < n {
			n = k
		}
	}
	return max(n, 0)
}

// recipeInputs returns the sub-goal towards a recipe's ingredients for
// missing items, then a crafting table for a 3x3 one, nil when all are
// there.
func (s *search) recipeInputs(r rules.Recipe, missing, depth int) (*loop.Invocation, error) {
	ops := (missing + r.Count - 1) / r.Count
	if len(r.Returns) > 0 {
		// One batch at a time: the container the craft gives back is
		// filled again for the next, rather than a new one made for each.
		ops = min(ops, max(1, s.heldBatches(r)))
	}
	for _, ing := range r.Ingredients {
		if sub, err := s.obtain(ing.Item.String(), ing.Count*ops, depth+1); err != nil || sub != nil {
			return sub, err
		}
	}
	if r.NeedsTable() && !s.tableAtHand() {
		if s.inPlace && !s.roomForTable() {
			return nil, fmt.Errorf("%s needs a crafting table, and the room the bot is walled into has no place for one", r.Output)
		}
		return s.obtain("minecraft:crafting_table", 1, depth+1)
	}
	if r.AtStation() && !s.stationAtHand(r.Station) {
		// The station's exact metadata: the tool station is
		// TConstruct:ToolStationBlock:0, and a part builder or pattern
		// chest held (the same id, other metadata) is not one.
		id, meta, _ := world.SplitID(r.Station)
		return s.obtain(fmt.Sprintf("%s:%d", id, max(meta, 0)), 1, depth+1)
	}
	return nil, nil
}

// stationAtHand reports whether a station block (a Tinkers' part builder:
// a recipe's Station) is within the crafting skill's reach in the world
// model, or one is in the inventory to be placed.
func (s *search) stationAtHand(station string) bool {
	id, meta, err := world.SplitID(station)
	if err != nil {
		return false
	}
	meta = max(meta, 0)
	if s.w.Inventory.Count(world.MustItem(fmt.Sprintf("%s:%d", id, meta))) > 0 {
		return true
	}
	return s.w.Blocks != nil && len(s.w.Blocks.Nearest(s.w.Feet(), stationRadius, 1, func(b world.Block) bool { return b.ID == id && b.Meta == meta })) > 0
}

// gathering is what a gathering skill would find (see gatherable).
type gathering struct {
	radius  int // the radius to ask for; 0 = the skill's default
	inRange int // matching blocks within that radius
	limit   int // the largest radius the skill takes
	nearest world.BlockHit
}

// gatherResult is a memoized gatherable answer.
type gatherResult struct {
	g  gathering
	ok bool
}

// gatherable looks at what a gathering skill would find: a skill with an
// int "radius" parameter that searches for blocks carrying its
// semantic_tags_any_of (chop_tree: tree) and gets the wanted item from
// blocks that are that item (a log block drops a log). It counts such
// blocks within the skill's default radius and, when there are none, finds
// the smallest radius up to the parameter's maximum that reaches the
// nearest one. ok is false when the skill is not such a gatherer.
func (s *search) gatherable(d *registry.Description, item string) (gathering, bool) {
	k := [2]string{d.Name, item}
	if r, hit := s.gathered[k]; hit {
		return r.g, r.ok
	}
	g, ok := s.gatherableNow(d, item)
	if s.gathered == nil {
		s.gathered = map[[2]string]gatherResult{}
	}
	s.gathered[k] = gatherResult{g, ok}
	return g, ok
}

// gatherableNow is gatherable without the memo.
func (s *search) gatherableNow(d *registry.Description, item string) (g gathering, ok bool) {
	tags := d.Preconditions.SemanticTagsAnyOf
	rp, has := d.Params["radius"]
	if len(tags) == 0 || !has || rp.Type != action.TypeInt {
		return g, false
	}
	def, isNum := number(rp.Default)
	if !isNum {
		return g, false
	}
	g.limit = def
	if rp.Max != nil {
		g.limit = max(def, int(*rp.Max))
	}
	var hits []world.BlockHit
	for _, h := range s.w.NearestBlocks(g.limit, 0, tags...) {
		if s.produces(h.Block.ID, item) {
			hits = append(hits, h)
		}
	}
	if len(hits) == 0 {
		return g, true
	}
	g.nearest = hits[0]
	if hits[0].DistSq > def*def {
		g.radius = int(math.Ceil(math.Sqrt(float64(hits[0].DistSq))))
		def = g.radius
	}
	for _, h := range hits {
		if h.DistSq <= def*def {
			g.inRange++
		}
	}
	return g, true
}

// number reads an int parameter default (an int, or a float from YAML).
func number(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case float64:
		return int(n), true
	}
	return 0, false
}

// collectsOutput reports whether a skill gets the item by taking it out of
// a machine's slot (maintain_coke_ovens: an alternative of its effects
// gains the item and takes from a coke oven's output slot), and which slot
// of which kind.
func collectsOutput(d *registry.Description, s *search, item string) (slot, kind string, ok bool) {
	for _, alt := range d.Effects.AnyOf {
		gains := false
		for key, ch := range alt.InventoryDelta {
			gains = gains || ch.MinIncrease != nil && s.produces(key, item)
		}
		if !gains {
			continue
		}
		for _, mc := range alt.Machines {
			if mc.Slot != "" && mc.MinDecrease != nil {
				return mc.Slot, mc.Kind, true
			}
		}
	}
	return "", "", false
}

// outputToCollect reports whether a formed machine of the kind holds the
// item in the slot, or may (its contents are unknown until looked into).
func (s *search) outputToCollect(kind, slot, item string) bool {
	for _, m := range s.w.Machines {
		if m.Kind != kind || !m.Formed {
			continue
		}
		if m.ContentsUnknown {
			return true
		}
		if out := m.Slot(slot); !out.Empty() && s.produces(out.ID+":"+strconv.Itoa(out.Meta), item) {
			return true
		}
	}
	return false
}

// machineCycle plans how a machine's output comes about when the skill
// that collects it (maintain_coke_ovens) has nothing to collect: while a
// machine of a kind the collector works on (its semantic_tags_any_of) is
// busy, pass time with a skill tagged passes_time (wait_for), for as long
// as a coke oven needs to finish the missing items when the skill takes a
// duration; when none is busy, load them with a skill tagged
// feeds_machines that works on the same kind. For coke ovens the coke
// oven's table says what to feed for the wanted item (logs for charcoal):
// the feeding skill's item parameter is set to the recipe's input, and an
// input the inventory lacks is obtained first. Otherwise the skill's input
// (a min_decrease on an item_id parameter) must be in the inventory at its
// default. The reason is empty when the collector works on no known
// machine.
func (s *search) machineCycle(collector *registry.Description, item string, missing, depth int) (*loop.Invocation, string) {
	kinds := map[string]bool{}
	for _, k := range collector.Preconditions.SemanticTagsAnyOf {
		kinds[k] = true
	}
	var machines []world.Machine
	for _, m := range s.w.Machines {
		if kinds[m.Kind] && m.Formed {
			machines = append(machines, m)
		}
	}
	if len(machines) == 0 {
		return nil, ""
	}
	busy := false
	for _, m := range machines {
		busy = busy || s.working(m)
	}
	recipes := s.cokeRecipesFor(item, kinds)
	var feedWhy []string // why the ovens cannot get more of a recipe's input
	enough := false      // the ovens hold all the input the goal needs
	need := missing      // what the ovens must still make (less their output)
	if len(recipes) > 0 {
		// The ovens cook one item at a time: keep their inputs at what
		// the goal still needs, topping up (or getting more input) while
		// they work, and wait only when they hold enough.
		queued := 0
		for _, m := range machines {
			if out := m.Slot("output"); !out.Empty() && s.produces(out.ID+":"+strconv.Itoa(out.Meta), item) {
				need -= out.Count
			}
			if r, ok := s.Coke.Recipe(m.Slot("input")); ok && slices.ContainsFunc(recipes, func(x rules.CokeRecipe) bool { return x.Output == r.Output }) {
				queued += m.Slot("input").Count
			}
		}
		enough = queued >= need
		if !enough {
			next, why := s.feedMore(kinds, recipes, need, need-queued, depth)
			if next != nil {
				return next, ""
			}
			feedWhy = why
		}
	}
	if busy {
		for _, d := range s.ranked(s.catalog) {
			inv := loop.Invocation{Skill: d.Name}
			if !slices.Contains(d.Effects.Tags, "passes_time") || s.blocked[inv.String()] {
				continue
			}
			if param, ticks := durationParam(d), s.cookTicksLeft(machines, recipes, max(need, 1)); param != "" && ticks > 0 {
				if pd := d.Params[param]; pd.Max != nil {
					ticks = min(ticks, int(*pd.Max))
				}
				// Where the day turns, a wait ends at dusk: hostile mobs
				// wander up to a bot standing in the open at night, and
				// the loop's night reflexes act only between steps.
				if l := s.last; l != nil && l.After != nil && l.After.TimeOfDay != l.Before.TimeOfDay {
					if dark := s.Mobs.TicksToDark(s.w.TimeOfDay); dark > 0 {
						ticks = min(ticks, dark)
					}
				}
				inv.Params = map[string]any{param: ticks}
				if s.blocked[inv.String()] {
					inv.Params = nil
				}
			}
			return &inv, ""
		}
		return nil, "the machines are working and no skill passes time"
	}
	if enough {
		return nil, "the machines are idle and hold what the goal needs, but cannot work (a full output slot or tank)"
	}
	why := feedWhy
	for _, d := range s.ranked(s.catalog) {
		if !slices.Contains(d.Effects.Tags, "feeds_machines") || !slices.ContainsFunc(d.Preconditions.SemanticTagsAnyOf, func(k string) bool { return kinds[k] }) {
			continue
		}
		if len(recipes) > 0 && feedParam(d) != "" {
			continue // fed by the recipe above
		}
		inv := loop.Invocation{Skill: d.Name, Params: map[string]any{}}
		walk, err := s.reachMachines(d, kinds, inv.Params)
		if err != nil {
			why = append(why, fmt.Sprintf("%s: %v", d.Name, err))
			continue
		}
		if walk != nil {
			return walk, ""
		}
		if len(inv.Params) == 0 {
			inv.Params = nil
		}
		if s.blocked[inv.String()] {
			why = append(why, inv.String()+" is blocked")
			continue
		}
		if input, ok := s.feedInput(d); ok {
			return &inv, ""
		} else if input != "" {
			why = append(why, fmt.Sprintf("%s needs %s", d.Name, input))
		}
	}
	if len(why) == 0 {
		return nil, "the machines are idle and no skill feeds them"
	}
	return nil, "the machines are idle: " + strings.Join(why, "; ")
}

// working reports whether a machine is at work: active, or a coke oven
// holding an input it has a recipe for and room for the product (an oven
// works only on ticks divisible by its step, so one just fed is not
// active yet).
func (s *search) working(m world.Machine) bool {
	if m.Active {
		return true
	}
	if m.Kind != world.MachineCokeOven || m.ContentsUnknown {
		return false
	}
	r, ok := s.Coke.Recipe(m.Slot("input"))
	if !ok {
		return false
	}
	out := m.Slot("output")
	id, meta, _ := world.SplitID(r.Output)
	tank := m.Fluid("creosote")
	return (out.Empty() || out.ID == id && out.Meta == max(meta, 0) && out.Count < 64) &&
		(tank.Capacity == 0 || tank.Amount+r.Creosote <= tank.Capacity)
}

// cokeRecipesFor returns the coke oven recipes that make the wanted item
// when the machines are coke ovens.
func (s *search) cokeRecipesFor(item string, kinds map[string]bool) []rules.CokeRecipe {
	if !kinds[world.MachineCokeOven] {
		return nil
	}
	var out []rules.CokeRecipe
	for _, r := range s.Coke.All() {
		if s.produces(r.Output, item) {
			out = append(out, r)
		}
	}
	return out
}

// feedMore plans getting short more recipe input into the ovens so that
// they hold need: a feeding skill for the ovens' kind, its item parameter
// set to the input of the first recipe the inventory holds (and its
// per_oven, when it has one, to need); with none held, obtaining the first
// recipe's input.
func (s *search) feedMore(kinds map[string]bool, recipes []rules.CokeRecipe, need, short, depth int) (*loop.Invocation, []string) {
	var why []string
	for _, d := range s.ranked(s.catalog) {
		if !slices.Contains(d.Effects.Tags, "feeds_machines") || !slices.ContainsFunc(d.Preconditions.SemanticTagsAnyOf, func(k string) bool { return kinds[k] }) {
			continue
		}
		param := feedParam(d)
		if param == "" {
			continue
		}
		for _, r := range recipes {
			if s.w.Inventory.Count(r.Input) == 0 {
				continue
			}
			inv := &loop.Invocation{Skill: d.Name, Params: map[string]any{param: r.Input.String()}}
			if pd, ok := d.Params["per_oven"]; ok && pd.Type == action.TypeInt {
				n := need
				if pd.Max != nil {
					n = min(n, int(*pd.Max))
				}
				inv.Params["per_oven"] = n
			}
			walk, err := s.reachMachines(d, kinds, inv.Params)
			if err != nil {
				why = append(why, fmt.Sprintf("%s: %v", d.Name, err))
				break
			}
			if walk != nil {
				return walk, nil
			}
			if s.blocked[inv.String()] {
				why = append(why, inv.String()+" is blocked")
				continue
			}
			return inv, nil
		}
		in := recipes[0].Input.String()
		sub, err := s.obtain(in, short, depth+1)
		if err != nil {
			why = append(why, fmt.Sprintf("%s needs %s: %v", d.Name, in, err))
			continue
		}
		if sub != nil {
			return sub, nil
		}
	}
	return nil, why
}

// feedParam is the item_id parameter whose items a feeding skill uses up
// (a min_decrease on "{param}") when it is the only one, or "": a coke
// oven recipe has one input.
func feedParam(d *registry.Description) string {
	var params []string
	for key, ch := range d.Effects.InventoryDelta {
		if ch.MinDecrease == nil || !strings.HasPrefix(key, "{") || !strings.HasSuffix(key, "}") {
			continue
		}
		if pd, ok := d.Params[key[1:len(key)-1]]; ok && pd.Type == action.TypeItemID {
			params = append(params, key[1:len(key)-1])
		}
	}
	if len(params) != 1 {
		return ""
	}
	return params[0]
}

// durationParam is a skill's duration parameter (wait_for's), or "".
func durationParam(d *registry.Description) string {
	for _, name := range slices.Sorted(maps.Keys(d.Params)) {
		if d.Params[name].Type == action.TypeDuration {
			return name
		}
	}
	return ""
}

// cookTicksLeft is how long the busiest coke oven needs to finish the
// items still to make (the current item's rest, then whole items, as many as its
// input holds), or 0 when it cannot say (no recipe for the item, an oven
// whose contents are unknown).
func (s *search) cookTicksLeft(ovens []world.Machine, recipes []rules.CokeRecipe, missing int) int {
	if len(recipes) == 0 {
		return 0
	}
	best := 0
	for _, m := range ovens {
		in := m.Slot("input")
		if !s.working(m) || m.ContentsUnknown || in.Empty() {
			continue
		}
		r, ok := s.Coke.Recipe(in)
		if !ok || !slices.ContainsFunc(recipes, func(x rules.CokeRecipe) bool { return x.Output == r.Output }) {
			continue
		}
		items := min(missing, in.Count)
		ticks := int(math.Ceil((1-m.Progress)*float64(r.Ticks))) + (items-1)*r.Ticks
		best = max(best, ticks)
	}
	return best
}

// feedInput reports the items a feeding skill uses up by default (the
// defaults of the item_id parameters its min_decrease entries name) and
// whether the inventory holds every one: it returns the first missing one in
// key order, else the first one. The item is "" when the skill declares no
// such input.
func (s *search) feedInput(d *registry.Description) (string, bool) {
	first := ""
	for _, key := range slices.Sorted(maps.Keys(d.Effects.InventoryDelta)) {
		ch := d.Effects.InventoryDelta[key]
		if ch.MinDecrease == nil || !strings.HasPrefix(key, "{") || !strings.HasSuffix(key, "}") {
			continue
		}
		pd, ok := d.Params[key[1:len(key)-1]]
		if !ok || pd.Type != action.TypeItemID {
			continue
		}
		item, _ := pd.Default.(string)
		m, err := world.ParseItemMatcher(item)
		if err != nil {
			continue
		}
		if s.w.Inventory.Count(m) == 0 {
			return item, false
		}
		if first == "" {
			first = item
		}
	}
	return first, first != ""
}
