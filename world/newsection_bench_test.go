package world

import (
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
