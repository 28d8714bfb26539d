package rules

import "testing"

func FuzzParseFood(f *testing.F) {
	f.Add([]byte(foodHead + "foods:\n  - {item: \"minecraft:apple\", hunger: 4, saturation: 0.3}\n"))
	f.Add([]byte("stats: {max_food: x}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		food, err := ParseFood("f.yaml", data)
		if err != nil {
			located(t, err)
			return
		}
		h := food.NewHunger(food.Stats.MaxFood, food.Stats.MaxHealth/2)
		for _, fi := range food.All() {
			if fi.Hunger < 1 {
				t.Fatalf("accepted a food that restores nothing: %+v", fi)
			}
			food.Feed(&h, fi)
			if h.Food > food.Stats.MaxFood || h.Saturation > float64(h.Food) {
				t.Fatalf("eating went past the bar: %+v", h)
			}
		}
		food.Exhaust(&h, 100)
		food.Tick(&h, 1000)
		if h.Food < 0 || h.Health < 0 || h.Exhaustion > maxExhaustion {
			t.Fatalf("the bar left its range: %+v", h)
		}
	})
}
