package recipebook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// genRecEx writes a RecEx dump of n recipes shaped like a full modpack's:
// a few thousand items with display names, ore-dictionary cells with their
// item lists, GregTech machines with fluids. Seeded, so every run reads the
// same bytes.
func genRecEx(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	mods := []string{"minecraft", "gregtech", "dreamcraft", "IC2", "Railcraft", "TConstruct", "bartworks", "miscutils"}
	item := func() map[string]any {
		i := rng.IntN(8000)
		return map[string]any{"a": 1, "m": i % 40, "id": fmt.Sprintf("%s:item.Generated%d", mods[i%len(mods)], i/40), "lN": fmt.Sprintf("Generated Item Number %d", i)}
	}
	ore := func() map[string]any {
		i := rng.IntN(600)
		ims := []map[string]any{}
		for j := 0; j < 1+i%4; j++ {
			ims = append(ims, item())
		}
		return map[string]any{"dns": []string{fmt.Sprintf("plateGenerated%d", i)}, "ims": ims}
	}
	var shaped, oreShaped, shapeless, smelting []any
	machines := make([]map[string]any, 40)
	for m := range machines {
		machines[m] = map[string]any{"n": fmt.Sprintf("Generated Machine %d", m), "recs": []any{}}
	}
	for i := 0; i < n; i++ {
		switch i % 10 {
		case 0, 1, 2, 3: // GT-style shaped ore recipes, 9 cells
			cells := make([]any, 9)
			for c := range cells {
				switch rng.IntN(3) {
				case 0:
					cells[c] = nil
				case 1:
					cells[c] = item()
				default:
					cells[c] = ore()
				}
			}
			cells[4] = item()
			oreShaped = append(oreShaped, map[string]any{"iI": cells, "o": item()})
		case 4, 5:
			cells := make([]any, 9)
			for c := range cells {
				if rng.IntN(4) > 0 {
					cells[c] = item()
				}
			}
			cells[0] = item()
			shaped = append(shaped, map[string]any{"iI": cells, "o": item()})
		case 6:
			ins := []any{}
			for j := 0; j < 1+rng.IntN(5); j++ {
				ins = append(ins, item())
			}
			shapeless = append(shapeless, map[string]any{"iI": ins, "o": item()})
		case 7:
			smelting = append(smelting, map[string]any{"input": item(), "output": item()})
		default:
			m := machines[rng.IntN(len(machines))]
			ins, outs := []any{}, []any{}
			for j := 0; j < 1+rng.IntN(4); j++ {
				ins = append(ins, item())
			}
			for j := 0; j < 1+rng.IntN(3); j++ {
				outs = append(outs, item())
			}
			rec := map[string]any{"en": true, "dur": 20 + rng.IntN(2000), "eut": 8 << rng.IntN(8), "iI": ins, "iO": outs,
				"fI": []any{map[string]any{"a": 144, "id": "molten.generated", "lN": "Molten Generated"}}, "fO": []any{}}
			m["recs"] = append(m["recs"].([]any), rec)
		}
	}
	doc := map[string]any{"sources": []any{
		map[string]any{"type": "gregtech", "machines": machines},
		map[string]any{"type": "shaped", "recipes": shaped},
		map[string]any{"type": "shapedOreDict", "recipes": oreShaped},
		map[string]any{"type": "shapeless", "recipes": shapeless},
		map[string]any{"type": "smelting", "recipes": smelting},
	}}
	data, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return data
}

// heapOf returns the heap bytes held by what build returns: the live
// heap with it, less the live heap once it is dropped.
func heapOf(build func() any) uint64 {
	var with, without runtime.MemStats
	v := build()
	runtime.GC()
	runtime.ReadMemStats(&with)
	runtime.KeepAlive(v)
	v = nil
	runtime.GC()
	runtime.ReadMemStats(&without)
	if with.HeapAlloc < without.HeapAlloc {
		return 0
	}
	return with.HeapAlloc - without.HeapAlloc
}

// BenchmarkImport50k imports a generated RecEx dump of 50,000 recipes;
// it reports the dump's size, the recipes kept and the imported book's
// heap.
//
//	go test -run XXX -bench Import50k -benchtime 3x ./recipebook
func BenchmarkImport50k(b *testing.B) {
	dump := genRecEx(50000)
	var kept int
	for b.Loop() {
		im := NewImporter(FormatRecEx)
		if err := im.Read("bench.json", bytes.NewReader(dump), FormatRecEx); err != nil {
			b.Fatal(err)
		}
		_, s := im.Result()
		kept = s.Total()
	}
	b.StopTimer()
	heap := heapOf(func() any {
		im := NewImporter(FormatRecEx)
		if err := im.Read("bench.json", bytes.NewReader(dump), FormatRecEx); err != nil {
			b.Fatal(err)
		}
		book, _ := im.Result()
		return book
	})
	b.ReportMetric(float64(len(dump))/1e6, "dump-MB")
	b.ReportMetric(float64(kept), "recipes")
	b.ReportMetric(float64(heap)/1e6, "book-MB")
}

// BenchmarkLoad50k loads the compact file of those recipes, as the agent
// does at start; it reports the file's size and the loaded set's heap.
//
//	go test -run XXX -bench Load50k -benchtime 10x ./recipebook
func BenchmarkLoad50k(b *testing.B) {
	im := NewImporter(FormatRecEx)
	if err := im.Read("bench.json", bytes.NewReader(genRecEx(50000)), FormatRecEx); err != nil {
		b.Fatal(err)
	}
	book, _ := im.Result()
	var file bytes.Buffer
	if err := Write(&file, book); err != nil {
		b.Fatal(err)
	}
	data := file.Bytes()
	for b.Loop() {
		if _, err := Read("bench.rcp", bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	heap := heapOf(func() any {
		got, err := Read("bench.rcp", bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		return got
	})
	b.ReportMetric(float64(len(data))/1e6, "file-MB")
	b.ReportMetric(float64(len(book.Recipes)), "recipes")
	b.ReportMetric(float64(heap)/1e6, "loaded-MB")
}
