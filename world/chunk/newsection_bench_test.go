package chunk

import (
	"math/rand"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/internal/benchworld"
)

func BenchmarkNewSectionTerrain(b *testing.B) {
	w := benchworld.Generate(1337)
	var secs [][SectionVolume]StateID
	for cy := 3; cy < 5; cy++ {
		for cz := 0; cz < 4; cz++ {
			for cx := 0; cx < 4; cx++ {
				var a [SectionVolume]StateID
				for y := 0; y < 16; y++ {
					for z := 0; z < 16; z++ {
						for x := 0; x < 16; x++ {
							a[SectionIndex(x, y, z)] = LegacyState(w.W[benchworld.Index(cx*16+x, cy*16+y, cz*16+z)])
						}
					}
				}
				secs = append(secs, a)
			}
		}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		NewSection(&secs[i%len(secs)])
	}
}

// BenchmarkNewSectionEntropy builds sections of stone varieties with a
// sixth of the blocks ores of a dozen kinds with random metadata and a few
// percent caves: about 200 distinct states, the palette-heavy case.
func BenchmarkNewSectionEntropy(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	ores := []int{14, 15, 16, 21, 56, 73, 129, 153, 1, 13, 3, 82}
	secs := make([][SectionVolume]StateID, 16)
	for k := range secs {
		for i := range secs[k] {
			switch r := rng.Intn(100); {
			case r < 6:
				secs[k][i] = AirState
			case r < 22:
				secs[k][i] = MakeState(ores[rng.Intn(len(ores))], rng.Intn(16))
			default:
				secs[k][i] = MakeState(1, rng.Intn(7))
			}
		}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		NewSection(&secs[i%len(secs)])
	}
}
