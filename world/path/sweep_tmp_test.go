package path

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func TestSweepTmp(t *testing.T) {
	if os.Getenv("SWEEP") == "" {
		t.Skip()
	}
	g := tiled()
	opt := map[int]float64{1000: 5543.0, 2000: 11318, 5000: 28133}
	base, _ := NewRouter(g, RouteOptions{Corridor: 6})
	for _, d := range []int{1000, 2000, 5000} {
		from, to := longRoute(d)
		base.Find(from, At(to))
	}
	for _, c := range []struct {
		corr int
		w    float64
	}{{6, 0}, {4, 0}, {3, 0}, {2, 0}, {6, 1.02}, {3, 1.02}, {6, 1.05}, {3, 1.05}, {2, 1.05}, {6, 1.1}} {
		r := base
		r.opt.Corridor, r.opt.Weight, r.weight = c.corr, c.w, c.w
		for _, d := range []int{1000, 2000, 5000} {
			from, to := longRoute(d)
			var rt Route
			t0 := time.Now()
			for i := 0; i < 3; i++ {
				rt, _ = r.Find(from, At(to))
			}
			fmt.Printf("corr %d w %.2f d %d: portals %d coarse %d legs %d ratio %.4f built %d  %v\n", c.corr, c.w, d, rt.AbstractExpanded, rt.CoarseExpanded, rt.LegExpanded, rt.Cost/opt[d], rt.RegionsBuilt, time.Since(t0)/3)
		}
	}
}
