package web_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/gtnh-agent/gtnh-agent/view/web"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// FuzzQuery: whatever a browser puts in the query of the map and state
// requests (live and replay) is answered 200 or 400, never a crash or a
// map larger than the bounds.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{"", "r=3", "x=1&z=-5&r=64&maxy=40", "frame=1", "r=-1", "maxy=%00", "x=99999999999999999999", "frame=2&r=1"} {
		f.Add(s)
	}
	// Snapshots without blocks: the map of an unknown world is quick, so
	// the fuzzer spends its time on the query.
	blank := func(x float64) *world.Snapshot { s := at(x); s.Blocks = nil; return s }
	fr := &web.Frames{Every: time.Second}
	fr.Add(0, blank(0))
	views := []http.Handler{
		web.NewReplay(web.Options{}, fr, blank(1), time.Second).Handler(web.ServeOptions{}),
		web.New(web.Options{}).Handler(web.ServeOptions{}),
	}
	f.Fuzz(func(t *testing.T, q string) {
		if _, err := url.ParseQuery(q); err != nil {
			return // not a query a request line carries
		}
		for _, h := range views {
			for _, p := range []string{"/api/map?", "/api/state?"} {
				r := httptest.NewRequest(http.MethodGet, "/", nil)
				r.URL.Path, r.URL.RawQuery = p[:len(p)-1], q
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK && w.Code != http.StatusBadRequest {
					t.Fatalf("%s%s: %d", p, q, w.Code)
				}
				if w.Body.Len() > 2<<20 {
					t.Fatalf("%s%s: %d bytes", p, q, w.Body.Len())
				}
			}
		}
	})
}
