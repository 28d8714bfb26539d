package chunk

import "testing"

// FuzzSectionOps applies a byte-coded sequence of writes to a section and
// checks it against a plain array, through every palette growth and reuse.
func FuzzSectionOps(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 0, 2, 255, 15, 3})
	f.Add([]byte("a long run of writes that pushes the palette past sixteen states!!"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ref [SectionVolume]StateID
		s := NewEmptySection()
		for i := 0; i+2 < len(data); i += 3 {
			idx := (int(data[i])<<8 | int(data[i+1])) & (SectionVolume - 1)
			st := AirState
			if v := data[i+2]; v != 0 {
				// Spread states so some runs exceed 256 distinct ones.
				st = MakeState(int(v)+int(data[i])*3, int(data[i+1])&7)
			}
			if prev := s.set(idx, st); prev != ref[idx] {
				t.Fatalf("op %d: previous %v, want %v", i/3, prev, ref[idx])
			}
			ref[idx] = st
		}
		nonAir := 0
		for i, st := range ref {
			if got := s.at(i); got != st {
				t.Fatalf("block %d: %v, want %v", i, got, st)
			}
			if st != AirState {
				nonAir++
			}
		}
		if s.NonAir() != nonAir {
			t.Fatalf("non-air %d, want %d", s.NonAir(), nonAir)
		}
		bulk := NewSection(&ref)
		for i, st := range ref {
			if bulk.at(i) != st {
				t.Fatalf("bulk block %d differs", i)
			}
		}
	})
}
