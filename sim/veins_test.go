package sim_test

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/rulestest"
	"github.com/gtnh-agent/gtnh-agent/loop"
	"github.com/gtnh-agent/gtnh-agent/planner/chain"
	"github.com/gtnh-agent/gtnh-agent/rules"
	"github.com/gtnh-agent/gtnh-agent/sim"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// oreCell is one GregTech ore of a generated world.
type oreCell struct {
	p     world.BlockPos
	meta  int
	tag   string // ore:oreX or ore:oreSmallX
	under string // the block the cell would be without the ore: stone
}

// oresIn lists the GregTech ores of a world, with the tags its snapshot
// gives them.
func oresIn(t *testing.T, s *sim.Sim, sizeX, sizeZ int) []oreCell {
	t.Helper()
	snap := look(t, s)
	var out []oreCell
	for x := 0; x < sizeX; x++ {
		for z := 0; z < sizeZ; z++ {
			for y := 1; y < 256; y++ {
				p := world.Pos(x, y, z)
				b := snap.BlockAt(p)
				if b.ID != "gregtech:gt.blockores" {
					continue
				}
				c := oreCell{p: p, meta: b.Meta}
				for _, tag := range b.Tags {
					if strings.HasPrefix(tag, "ore:ore") {
						c.tag = tag
					}
				}
				out = append(out, c)
			}
		}
	}
	return out
}

// TestFreshStartOreVeins: fresh_start's stone holds GregTech's veins as a
// GTNH 2.8 overworld lays them: no vanilla ore; every ore tagged with its
// material, its metadata the harvest level GregTech gives it (a small ore
// one less); a vein's regular ores within nine layers of one mix's
// heights; the small ores of the vein placer among them. The four seeds of
// the Tier 0 benchmark each have veins, and other seeds lay them
// elsewhere.
func TestFreshStartOreVeins(t *testing.T) {
	sc, err := sim.Embedded("fresh_start")
	require.NoError(t, err)
	require.Equal(t, 9, sc.OreVeins)
	o := rules.Default().Ores
	counts := map[int64]map[string]int{}
	seeds := []int64{0, 1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1] // 1.5 s a world: the scenario's own seed shows what four do
	}
	for _, seed := range seeds {
		s, err := sim.New(sc, sim.Options{Seed: seed})
		require.NoError(t, err)
		cells := oresIn(t, s, sc.SizeX, sc.SizeZ)
		require.NotEmpty(t, cells, "seed %d has no ore", seed)
		snap := look(t, s)
		n := map[string]int{}
		for _, c := range cells {
			require.NotEmpty(t, c.tag, "the ore at %v has no material tag", c.p)
			m, small, ok := o.MaterialOfTags([]string{c.tag})
			require.True(t, ok, c.tag)
			assert.Equal(t, m.HarvestLevel(small), c.meta, "%s at %v", c.tag, c.p)
			n[c.tag]++
			if !small {
				// A regular ore lies in the nine layers of a mix with
				// its material: from one below min_y to max_y - 6 + 7.
				ok := false
				for _, mix := range o.Mixes() {
					has := mix.Primary == m.Name || mix.Secondary == m.Name || mix.Between == m.Name || mix.Sporadic == m.Name
					if has && c.p.Y >= mix.MinY-1 && c.p.Y <= mix.MaxY-6+7 {
						ok = true
					}
				}
				assert.True(t, ok, "%s at y %d lies in no mix's layers", c.tag, c.p.Y)
			}
		}
		for x := 0; x < sc.SizeX; x++ {
			for z := 0; z < sc.SizeZ; z++ {
				// GregTech replaces stone only: an ore open to the sky
				// is where bare stone was the ground (an outcrop; the
				// dirt and gravel pockets move the veins about), never
				// on a column of grass, dirt or sand.
				for y := 255; y > 0; y-- {
					if b := snap.BlockAt(world.Pos(x, y, z)); !b.IsAir() {
						if b.ID == "gregtech:gt.blockores" {
							under := snap.BlockAt(world.Pos(x, y-1, z)).ID
							require.Contains(t, []string{"minecraft:stone", "gregtech:gt.blockores"}, under, "an ore tops the column at %d %d %d, over %s", x, y, z, under)
						}
						break
					}
				}
			}
		}
		for x := 0; x < sc.SizeX; x += 3 {
			for z := 0; z < sc.SizeZ; z += 3 {
				for y := 1; y < 80; y++ {
					id := snap.BlockAt(world.Pos(x, y, z)).ID
					require.False(t, strings.HasPrefix(id, "minecraft:") && strings.HasSuffix(id, "_ore"),
						"vanilla ore %s at %d %d %d: GTNH's DisableVanillaOres", id, x, y, z)
				}
			}
		}
		counts[seed] = n
	}
	if len(seeds) > 2 {
		assert.NotEqual(t, counts[1], counts[2], "another seed, other veins")
	}
	for _, seed := range seeds {
		assert.Positive(t, counts[seed]["ore:oreChalcopyrite"]+counts[seed]["ore:oreCopper"]+counts[seed]["ore:oreBrownLimonite"], "seed %d: a vein of the Stone Age's metals", seed)
	}
	// The figures the docs quote (docs/stone-age.md): ores by material
	// for each seed.
	for _, seed := range seeds {
		keys := make([]string, 0, len(counts[seed]))
		for k := range counts[seed] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s %d", k, counts[seed][k]))
		}
		t.Logf("seed %d: %s", seed, strings.Join(parts, ", "))
	}
}

// TestOreVeinsOnlyInNaturalWorlds: the scenario option asks for a natural
// world's stone.
func TestOreVeinsOnlyInNaturalWorlds(t *testing.T) {
	_, err := sim.ParseScenario("s.yaml", []byte("name: s\ngenerator: flat\nore_veins: 9\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "generator: natural")
}

// TestCopperAndIronIngotsFromTheVeins: with a pickaxe of harvest level 1 or
// more, a furnace and planks, the goal planner gets copper and iron ingots
// in fresh_start as a player does: mine_gt_ore digs down to the nearest ore
// of a material whose raw ore smelts into the ingot, and the furnace makes
// the ingots. (The Stone Age chain itself has no such pickaxe:
// docs/stone-age.md says why.)
func TestCopperAndIronIngotsFromTheVeins(t *testing.T) {
	data, err := os.ReadFile("../examples/ores_with_a_pickaxe.yaml")
	require.NoError(t, err)
	c2, err := sim.ParseScenario("ores_with_a_pickaxe.yaml", data)
	require.NoError(t, err)
	set, err := rulestest.WithTestPickaxe()
	require.NoError(t, err)
	s, err := sim.New(c2, sim.Options{Rules: set})
	require.NoError(t, err)
	out, steps, trace := runGoal(t, s, "have 3 gregtech:gt.metaitem.01:11035 and have 2 minecraft:iron_ingot", chain.Planner{Mining: set.Mining})
	require.True(t, out.GoalMet, trace)
	mined := 0
	for _, st := range steps {
		if st.Invocation.Skill == "mine_gt_ore" {
			mined++
			assert.Equal(t, loop.Success, st.Verdict, st.Error)
		}
	}
	assert.GreaterOrEqual(t, mined, 5, "three raw copper ores and two raw iron ores")
}
