package benchworld

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
)

// Dimensions of the world.
const (
	SX = 256
	SY = 256
	SZ = 256
)

// Legacy 1.7.10 block ids used by the generator.
const (
	Air         = 0
	Stone       = 1
	Grass       = 2
	Dirt        = 3
	Cobblestone = 4
	Bedrock     = 7
	Water       = 9
	IronOre     = 15
	CoalOre     = 16
	Log         = 17
	Leaves      = 18
	TallGrass   = 31
	GoldBlock   = 41
	DiamondOre  = 56
)

// World is the generated world: W holds legacy states (id<<4 | meta) at
// Index(x, y, z); Top is the grass height per column (z*SX + x); Trees are
// the trunk columns in generation order.
type World struct {
	W     []uint16
	Top   []int32
	Trees [][2]int
}

// Index is the array index of a block: ((y*SZ)+z)*SX + x.
func Index(x, y, z int) int { return ((y*SZ)+z)*SX + x }

// ID returns the block id at a position (0 outside the world).
func (w *World) ID(x, y, z int) int {
	if x < 0 || x >= SX || y < 0 || y >= SY || z < 0 || z >= SZ {
		return Air
	}
	return int(w.W[Index(x, y, z)] >> 4)
}

// mulberry32 is the generator's PRNG, in uint32 arithmetic (JavaScript's
// |0, >>> and Math.imul wrap the same way).
func mulberry32(a uint32) func() float64 {
	return func() float64 {
		a += 0x6D2B79F5
		t := (a ^ a>>15) * (1 | a)
		t = (t + (t^t>>7)*(61|t)) ^ t
		return float64(t^t>>14) / 4294967296
	}
}

func surfaceTop(x, z int) int {
	return 63 + int(math.Floor(2.5*(math.Sin(float64(x)*0.07)+math.Cos(float64(z)*0.05))+2.5))
}

// Generate builds the world for a seed (the benchmarks use 1337), consuming
// the PRNG in exactly the JavaScript order.
func Generate(seed uint32) *World {
	rnd := mulberry32(seed)
	w := &World{W: make([]uint16, SX*SY*SZ), Top: make([]int32, SX*SZ)}
	set := func(x, y, z, id, meta int) { w.W[Index(x, y, z)] = uint16(id<<4 | meta) }
	get := func(x, y, z int) int { return int(w.W[Index(x, y, z)] >> 4) }
	for z := 0; z < SZ; z++ {
		for x := 0; x < SX; x++ {
			h := surfaceTop(x, z)
			w.Top[z*SX+x] = int32(h)
			set(x, 0, z, Bedrock, 0)
			for y := 1; y < h-3; y++ {
				r := rnd()
				id := Stone
				switch {
				case r < 0.01:
					id = CoalOre
				case r < 0.015:
					id = IronOre
				case y < 16 && r < 0.0155:
					id = DiamondOre
				}
				set(x, y, z, id, 0)
			}
			for y := h - 3; y < h; y++ {
				set(x, y, z, Dirt, 0)
			}
			set(x, h, z, Grass, 0)
		}
	}
	for z := 180; z < 200; z++ {
		for x := 40; x < 60; x++ {
			h := int(w.Top[z*SX+x])
			set(x, h, z, Water, 0)
			set(x, h-1, z, Water, 0)
		}
	}
	for z := 0; z < SZ; z++ {
		if z == 220 || z == 221 {
			continue
		}
		h := int(w.Top[z*SX+128])
		for y := h + 1; y <= h+4; y++ {
			set(128, y, z, Cobblestone, 0)
		}
	}
	for z := 3; z < SZ-3; z++ {
		for x := 3; x < SX-3; x++ {
			if x >= 126 && x <= 130 {
				continue
			}
			if x >= 37 && x <= 62 && z >= 177 && z <= 202 {
				continue
			}
			if rnd() >= 0.012 {
				continue
			}
			ok := true
			for _, t := range w.Trees {
				if abs(t[0]-x) < 4 && abs(t[1]-z) < 4 {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			h := int(w.Top[z*SX+x])
			th := 4 + int(math.Floor(rnd()*3))
			for dz := -2; dz <= 2; dz++ {
				for dx := -2; dx <= 2; dx++ {
					for y := h + th - 1; y <= h+th+1; y++ {
						r := 2
						if y > h+th {
							r = 1
						}
						if abs(dx) > r || abs(dz) > r {
							continue
						}
						if get(x+dx, y, z+dz) == Air {
							set(x+dx, y, z+dz, Leaves, 0)
						}
					}
				}
			}
			for y := h + 1; y <= h+th; y++ {
				set(x, y, z, Log, 0)
			}
			w.Trees = append(w.Trees, [2]int{x, z})
		}
	}
	for z := 0; z < SZ; z++ {
		for x := 0; x < SX; x++ {
			h := int(w.Top[z*SX+x])
			if get(x, h, z) == Grass && get(x, h+1, z) == Air && rnd() < 0.06 {
				set(x, h+1, z, TallGrass, 1)
			}
		}
	}
	return w
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// StandY is the feet height of a column: one above the first block from the
// top that is neither air nor tall grass.
func (w *World) StandY(x, z int) int {
	for y := 255; y > 0; y-- {
		id := w.ID(x, y, z)
		if id != Air && id != TallGrass {
			return y + 1
		}
	}
	return 1
}

// Hash is the SHA-256 of the block array as little-endian uint16s, the same
// bytes as Buffer.from(uint16Array.buffer) in Node.
func (w *World) Hash() string {
	h := sha256.New()
	buf := make([]byte, 2*SX*SZ)
	for off := 0; off < len(w.W); off += SX * SZ {
		for i, v := range w.W[off : off+SX*SZ] {
			binary.LittleEndian.PutUint16(buf[2*i:], v)
		}
		h.Write(buf)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// JSHash is the hash of the JavaScript generator's array for seed 1337
// (SHA-256 of Buffer.from(uint16Array.buffer)), which Generate(1337)
// reproduces.
const JSHash = "7d3a3a9ed0bf896d77d2447bd35f0a2d58b16408d313c346e0fc3b50a4b9db98"
