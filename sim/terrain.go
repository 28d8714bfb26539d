package sim

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// The natural generator: a seeded countryside with what a player's first
// hours need within a walk of the start, as a 1.7.10 overworld plain beside
// a lake has it. Grass over three blocks of dirt over stone, gentle hills;
// a lake of still water with sand beaches, clay in its shallows and gravel
// on its floor; gravel patches in the grass; a small outcrop of bare stone;
// dirt and gravel pockets in the stone below (pockets.go). Trees come from the
// scenario's trees entries, as in every world.
//
// Everything is drawn from the scenario's seed (its own stream, so that the
// flat and hills worlds are unchanged), and laid out around the player's
// start so that every seed has every resource: the lake 20–28 blocks from
// the start, the gravel patches 10–30, the outcrop 12–24, none of them
// within 6 blocks of it.
const (
	lakeMinRadius, lakeMaxRadius = 8, 11 // the lake's radius; its beach is 4 wider
	beachWidth                   = 4
	gravelPatches                = 3
)

// terrainCell is the hill noise's grid in blocks: hills a few dozen blocks
// across, rising at most 4 blocks above the ground level.
const terrainCell = 16

// natural lays the terrain of a natural world and returns the surface
// height of every column (x + z·SizeX) and the player's standing height.
func (s *Sim) natural(ctx context.Context, tx *world.Tx) ([]int, error) {
	sc := s.sc
	rng := rand.New(rand.NewPCG(uint64(s.seed), 0xA0761D6478BD642F))
	noise := newValueNoise(rng, sc.SizeX, sc.SizeZ, terrainCell)
	start := [2]float64{float64(sc.Player.Pos.X) + 0.5, float64(sc.Player.Pos.Z) + 0.5}
	// place puts a feature at a seeded bearing and distance from the start,
	// inside the world by margin; the last try stands if none fits.
	place := func(minD, maxD, margin float64) [2]float64 {
		var c [2]float64
		for range 64 {
			a, d := rng.Float64()*2*math.Pi, minD+rng.Float64()*(maxD-minD)
			c = [2]float64{start[0] + d*math.Cos(a), start[1] + d*math.Sin(a)}
			if c[0] >= margin && c[1] >= margin && c[0] < float64(sc.SizeX)-margin && c[1] < float64(sc.SizeZ)-margin {
				break
			}
		}
		return c
	}
	lakeR := float64(lakeMinRadius) + rng.Float64()*float64(lakeMaxRadius-lakeMinRadius)
	lake := place(20, 28, lakeR/2)
	var gravel [][3]float64 // x, z, radius
	for range gravelPatches {
		for try := 0; ; try++ {
			c := place(10, 30, 3)
			r := 2 + rng.Float64()*1.5
			if dist(c, lake) > lakeR+beachWidth+r+2 || try == 16 {
				gravel = append(gravel, [3]float64{c[0], c[1], r})
				break
			}
		}
	}
	var rock [2]float64
	rockR := 3.5 + rng.Float64()*1.5
	for try := 0; ; try++ {
		rock = place(12, 24, rockR)
		if dist(rock, lake) > lakeR+beachWidth+rockR+2 || try == 16 {
			break
		}
	}
	sea := sc.GroundY - 1 // the lake's surface
	ground := make([]int, sc.SizeX*sc.SizeZ)
	for z := 0; z < sc.SizeZ; z++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("generating the terrain: %w", err)
		}
		for x := 0; x < sc.SizeX; x++ {
			p := [2]float64{float64(x) + 0.5, float64(z) + 0.5}
			hills := sc.GroundY + int(math.Floor(4*noise.at(float64(x), float64(z))))
			// the lake's edge wobbles by a quarter of its radius
			d := dist(p, lake) * (0.85 + 0.3*noise.at(float64(x)*2+97, float64(z)*2+31))
			var col []string // from y = 1 up; bedrock at 0
			top := hills
			switch {
			case d < lakeR:
				depth := 1 + int(3*(1-d/lakeR)) // 1 at the edge to 3–4 in the middle
				floor := sea - depth
				bed := "minecraft:sand"
				switch r := noise.at(float64(x)*3+11, float64(z)*3+57); {
				case depth <= 2 && r < 0.55:
					bed = "minecraft:clay"
				case r > 0.8:
					bed = "minecraft:gravel"
				}
				col = layers(floor, []string{bed, bed})
				for y := floor + 1; y <= sea; y++ {
					col = append(col, "minecraft:water")
				}
				top = floor
			case d < lakeR+beachWidth:
				top = sea + int((d-lakeR)/beachWidth*2) // the beach climbs 0–1 above the water
				col = layers(top, []string{"minecraft:sand", "minecraft:sand", "minecraft:sand"})
			default:
				// the land rises from the beach into the hills over 6 blocks
				w := min(1, (d-lakeR-beachWidth)/6)
				top = sea + 1 + int(math.Round(w*float64(hills-(sea+1))))
				top = max(top, sea+1)
				surface := []string{"minecraft:grass", "minecraft:dirt", "minecraft:dirt", "minecraft:dirt"}
				if dr := dist(p, rock); dr < rockR {
					top += 1 + int(2*(1-dr/rockR)) // bare stone, up to 3 above the land
					surface = nil
				}
				for _, g := range gravel {
					if dist(p, [2]float64{g[0], g[1]}) < g[2] {
						surface = []string{"minecraft:gravel", "minecraft:gravel", "minecraft:dirt"}
					}
				}
				col = layers(top, surface)
			}
			ground[z*sc.SizeX+x] = top
			if err := s.set(tx, world.Pos(x, 0, z), "minecraft:bedrock"); err != nil {
				return nil, err
			}
			for i, b := range col {
				if err := s.set(tx, world.Pos(x, i+1, z), b); err != nil {
					return nil, err
				}
			}
		}
	}
	if err := s.pockets(ctx, tx); err != nil {
		return nil, err
	}
	if sc.OreVeins > 0 {
		// GregTech generates last (its GameRegistryMixin puts
		// GTWorldgenerator at the end), after the vanilla decoration.
		if err := s.oreVeins(ctx, tx); err != nil {
			return nil, err
		}
	}
	return ground, nil
}

// layers is a column from y = 1 to top: stone, then surface (top first)
// over it.
func layers(top int, surface []string) []string {
	col := make([]string, top)
	for i := range col {
		col[i] = "minecraft:stone"
	}
	for i, b := range surface {
		if y := top - i; y >= 1 {
			col[y-1] = b
		}
	}
	return col
}

func dist(a, b [2]float64) float64 { return math.Hypot(a[0]-b[0], a[1]-b[1]) }

// valueNoise is smooth seeded noise in [0, 1): random values on a grid,
// blended with smoothstep.
type valueNoise struct {
	cell   float64
	nx, nz int
	v      []float64
}

func newValueNoise(rng *rand.Rand, sizeX, sizeZ, cell int) *valueNoise {
	// Wide enough for the lookups at 3× the coordinates plus an offset.
	nx, nz := (sizeX*3+128)/cell+2, (sizeZ*3+128)/cell+2
	n := &valueNoise{cell: float64(cell), nx: nx, nz: nz, v: make([]float64, nx*nz)}
	for i := range n.v {
		n.v[i] = rng.Float64()
	}
	return n
}

func (n *valueNoise) at(x, z float64) float64 {
	fx, fz := x/n.cell, z/n.cell
	ix, iz := int(fx), int(fz)
	ix, iz = min(max(ix, 0), n.nx-2), min(max(iz, 0), n.nz-2)
	tx, tz := smooth(fx-float64(ix)), smooth(fz-float64(iz))
	v := func(i, j int) float64 { return n.v[j*n.nx+i] }
	a := v(ix, iz) + (v(ix+1, iz)-v(ix, iz))*tx
	b := v(ix, iz+1) + (v(ix+1, iz+1)-v(ix, iz+1))*tx
	return min(a+(b-a)*tz, math.Nextafter(1, 0))
}

func smooth(t float64) float64 {
	t = min(max(t, 0), 1)
	return t * t * (3 - 2*t)
}
