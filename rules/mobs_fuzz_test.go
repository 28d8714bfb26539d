package rules

import (
	"io/fs"
	"math"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/config"
)

func mustReadConfig(t testing.TB, name string) []byte {
	t.Helper()
	data, err := fs.ReadFile(config.FS, name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func FuzzParseMobs(f *testing.F) {
	f.Add(mustReadConfig(f, "mobs.yaml"))
	f.Add([]byte("day: {length: 0}\n"))
	f.Add([]byte("mobs:\n  - {name: z, attack: {kind: melee, fuse: 3}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMobs("m.yaml", data)
		if err != nil {
			located(t, err)
			return
		}
		for _, tm := range []int64{0, 6000, 13000, 18000, -1, math.MaxInt64, math.MinInt64} {
			if d := m.SkyDarkness(tm); d < 0 || d > m.Day.MaxSkyDarkness {
				t.Fatalf("sky darkness %d at %d is outside 0..%d", d, tm, m.Day.MaxSkyDarkness)
			}
		}
		for _, k := range m.Kinds() {
			if k.Health <= 0 || k.WalkSpeed() < 0 || math.IsNaN(k.WalkSpeed()) {
				t.Fatalf("accepted a mob that cannot be: %+v", k)
			}
			if k.Attack.Kind == AttackRanged && k.Attack.ShotInterval(1e9) < k.Attack.IntervalMin {
				t.Fatalf("a shot sooner than the minimum: %+v", k.Attack)
			}
			for _, dr := range k.Drops {
				if dr.Max < dr.Min {
					t.Fatalf("accepted a drop range upside down: %+v", dr)
				}
			}
		}
	})
}
