package bench

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTableCells checks the table's number formats at their bounds, the
// ratio's refusals (no Go figure, a missing JavaScript one) and the path
// check cell, whose "other invalid" leaves the corner cuts out.
func TestTableCells(t *testing.T) {
	for v, want := range map[float64]string{100: "100", 99.95: "100.0", 10: "10.0", 1: "1.00", 0.01: "0.010", 0.00999: "0.0100"} {
		assert.Equal(t, want, num(v), "num(%v)", v)
	}
	assert.Equal(t, "100×", ratio(200, 2))
	assert.Equal(t, "10.0×", ratio(20, 2))
	assert.Equal(t, "0.50×", ratio(1, 2))
	assert.Equal(t, "–", ratio(1, 0), "no Go figure")
	assert.Equal(t, "–", ratio(math.NaN(), 2), "no JavaScript figure")
	assert.Equal(t, "–", ratio(1, math.NaN()))

	w := Walk{Steps: 9, CornerCuts: 2, Invalid: make([]Problem, 3), FallDamage: 1}
	assert.Equal(t, "9 steps: 2 corner cuts, 1 other invalid, 1 fall > 3 blocks", walkCell(w, 9, "success"))
	assert.Equal(t, "9 steps: 2 corner cuts, 1 other invalid, 1 fall > 3 blocks", walkCell(w, 9, ""), "no status: a path of ours")
	assert.Equal(t, "timeout", walkCell(w, 9, "timeout"))
	assert.Equal(t, "4 steps: 0 corner cuts, 0 other invalid", walkCell(Walk{Steps: 4}, 4, "success"))
	assert.Equal(t, "4 steps: 1 corner cut, 0 other invalid, 2 falls > 3 blocks",
		walkCell(Walk{Steps: 4, CornerCuts: 1, Invalid: make([]Problem, 1), FallDamage: 2}, 4, "success"))
}
