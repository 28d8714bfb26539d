package rules

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

var shippedTierOrder = []string{
	"stone_age", "steam_age", "lv", "mv", "hv", "ev", "iv", "luv",
	"zpm", "uv", "uhv", "uev", "uiv", "umv", "uxv", "max",
}

func TestShippedTiersOrder(t *testing.T) {
	data, err := fs.ReadFile(config.FS, "tiers.yaml")
	require.NoError(t, err)
	tiers, err := ParseTiers("config/tiers.yaml", data)
	require.NoError(t, err)

	assert.Equal(t, shippedTierOrder, tiers.Names())
	assert.Equal(t, shippedTierOrder, loadTiers().Names())
	assert.Same(t, loadTiers(), loadTiers(), "the shipped table is loaded once")
	assert.Equal(t, "stone_age", tiers.Lowest())

	for i := range shippedTierOrder {
		idx, ok := tiers.Index(shippedTierOrder[i])
		require.True(t, ok)
		assert.Equal(t, i, idx)
		if i == 0 {
			continue
		}
		c, err := tiers.Compare(shippedTierOrder[i-1], shippedTierOrder[i])
		require.NoError(t, err)
		assert.Equal(t, -1, c, "%s < %s", shippedTierOrder[i-1], shippedTierOrder[i])
		c, err = tiers.Compare(shippedTierOrder[i], shippedTierOrder[i-1])
		require.NoError(t, err)
		assert.Equal(t, 1, c)
	}
	c, err := tiers.Compare("lv", "lv")
	require.NoError(t, err)
	assert.Equal(t, 0, c)

	// Voltages never decrease along the order.
	list := tiers.List()
	require.Len(t, list, len(shippedTierOrder))
	for i := 1; i < len(list); i++ {
		assert.GreaterOrEqual(t, list[i].Voltage, list[i-1].Voltage, list[i].Name)
	}
	info, ok := tiers.Info("lv")
	require.True(t, ok)
	assert.Equal(t, TierInfo{Name: "lv", Title: "Low Voltage", Voltage: 32,
		Description: "First electric machines, the electric blast furnace is still ahead."}, info)
	_, ok = tiers.Info("nope")
	assert.False(t, ok)

	// List returns a copy.
	list[0].Name = "changed"
	assert.Equal(t, "stone_age", tiers.List()[0].Name)
}

func TestTiersCompareUnknown(t *testing.T) {
	tiers := loadTiers()
	_, err := tiers.Compare("lv", "nope")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown tier "nope"`)
	assert.Contains(t, err.Error(), "stone_age, steam_age, lv")
	_, err = tiers.Compare("LV", "lv")
	assert.ErrorContains(t, err, `unknown tier "LV"`)
	_, ok := tiers.Index("nope")
	assert.False(t, ok)
}

func TestParseRange(t *testing.T) {
	tiers := loadTiers()
	idx := func(name string) int {
		i, ok := tiers.Index(name)
		require.True(t, ok, name)
		return i
	}
	last := len(shippedTierOrder) - 1
	tests := []struct {
		expr     string
		min, max int
		norm     string
		in       []string
		out      []string
	}{
		{"lv", idx("lv"), idx("lv"), "lv", []string{"lv"}, []string{"steam_age", "mv"}},
		{"  mv  ", idx("mv"), idx("mv"), "mv", []string{"mv"}, []string{"lv", "hv"}},
		{"== lv", idx("lv"), idx("lv"), "lv", []string{"lv"}, []string{"mv"}},
		{">= steam_age", idx("steam_age"), last, ">= steam_age", []string{"steam_age", "lv", "max"}, []string{"stone_age"}},
		{">=steam_age", idx("steam_age"), last, ">= steam_age", []string{"steam_age"}, []string{"stone_age"}},
		{"<= mv", 0, idx("mv"), "<= mv", []string{"stone_age", "lv", "mv"}, []string{"hv"}},
		{"> lv", idx("mv"), last, "> lv", []string{"mv", "max"}, []string{"lv", "stone_age"}},
		{"< hv", 0, idx("mv"), "< hv", []string{"stone_age", "mv"}, []string{"hv", "ev"}},
		{"steam_age..lv", idx("steam_age"), idx("lv"), "steam_age..lv", []string{"steam_age", "lv"}, []string{"stone_age", "mv"}},
		{" steam_age .. mv ", idx("steam_age"), idx("mv"), "steam_age..mv", []string{"lv"}, []string{"hv"}},
		{"lv..lv", idx("lv"), idx("lv"), "lv..lv", []string{"lv"}, []string{"mv"}},
		{"any", 0, last, "any", shippedTierOrder, []string{"", "nope"}},
		{"*", 0, last, "any", []string{"stone_age", "max"}, nil},
		{">= max", last, last, ">= max", []string{"max"}, []string{"uxv"}},
		{"<= stone_age", 0, 0, "<= stone_age", []string{"stone_age"}, []string{"steam_age"}},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			r, err := tiers.ParseRange(tc.expr)
			require.NoError(t, err)
			assert.Equal(t, tc.min, r.Min)
			assert.Equal(t, tc.max, r.Max)
			assert.Equal(t, tc.norm, r.Expr)
			assert.Equal(t, tc.norm, r.String())
			for _, n := range tc.in {
				assert.True(t, tiers.Includes(r, n), "%s should include %s", tc.expr, n)
			}
			for _, n := range tc.out {
				assert.False(t, tiers.Includes(r, n), "%s should exclude %s", tc.expr, n)
			}
		})
	}

	errs := []struct {
		expr string
		msg  string
	}{
		{"", "empty tier expression"},
		{"   ", "empty tier expression"},
		{"nope", `unknown tier "nope"`},
		{"LV", `unknown tier "LV"`},
		{">= nope", `unknown tier "nope"`},
		{"lv..stone_age", `tier range "lv..stone_age" is empty: lv is above stone_age`},
		{"lv..nope", `unknown tier "nope"`},
		{"nope..lv", `unknown tier "nope"`},
		{"..lv", `tier expression "..lv" is missing a tier name`},
		{"lv..", `tier expression "lv.." is missing a tier name`},
		{">=", `tier expression ">=" is missing a tier name`},
		{"> max", `tier range "> max" matches no tier`},
		{"< stone_age", `tier range "< stone_age" matches no tier`},
		{"=lv", `unknown tier "=lv"`},
		{"lv mv", `unknown tier "lv mv"`},
	}
	for _, tc := range errs {
		t.Run("error/"+tc.expr, func(t *testing.T) {
			_, err := tiers.ParseRange(tc.expr)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

func TestTierRangeContains(t *testing.T) {
	r := TierRange{Min: 2, Max: 4}
	assert.False(t, r.Contains(1))
	assert.True(t, r.Contains(2))
	assert.True(t, r.Contains(4))
	assert.False(t, r.Contains(5))
}

func TestParseTiers(t *testing.T) {
	t.Run("valid small table", func(t *testing.T) {
		tiers, err := ParseTiers("t.yaml", []byte("tiers:\n  - name: a\n    voltage: 1\n  - name: b\n    title: B\n"))
		require.NoError(t, err)
		assert.Equal(t, []string{"a", "b"}, tiers.Names())
		r, err := tiers.ParseRange(">= a")
		require.NoError(t, err)
		assert.Equal(t, 1, r.Max)
		_, err = tiers.ParseRange("lv")
		assert.Error(t, err, "ranges resolve against this table, not the shipped one")
	})

	type wantErr struct {
		line, col int
		field     string
		msg       string
	}
	tests := []struct {
		name string
		src  string
		want []wantErr
	}{
		{"duplicate tier", "tiers:\n  - name: lv\n  - name: mv\n  - name: lv\n",
			[]wantErr{{4, 11, "tiers[2].name", `duplicate tier "lv"`}}},
		{"bad name", "tiers:\n  - name: Low-Voltage\n",
			[]wantErr{{2, 11, "tiers[0].name", `tier name "Low-Voltage" must be lowercase`}}},
		{"unknown key in tier", "tiers:\n  - name: lv\n    voltag: 32\n",
			[]wantErr{{3, 5, "tiers[0].voltag", `unknown field "voltag" (did you mean "voltage"?)`}}},
		{"unknown top-level key", "tier:\n  - name: lv\n",
			[]wantErr{{1, 1, "tier", `unknown field "tier" (did you mean "tiers"?)`}, {1, 1, "tiers", "required field is missing"}}},
		{"missing name", "tiers:\n  - title: LV\n",
			[]wantErr{{2, 5, "tiers[0].name", "required field is missing"}}},
		{"negative voltage", "tiers:\n  - name: lv\n    voltage: -1\n",
			[]wantErr{{3, 14, "tiers[0].voltage", "voltage must not be negative"}}},
		{"voltage as string", "tiers:\n  - name: lv\n    voltage: \"32\"\n",
			[]wantErr{{3, 14, "tiers[0].voltage", `expected an integer, got the string "32"`}}},
		{"empty list", "tiers: []\n",
			[]wantErr{{1, 1, "tiers", "at least one tier is required"}}},
		{"tiers not a list", "tiers: lv\n",
			[]wantErr{{1, 8, "tiers", `expected a list, got the string "lv"`}}},
		{"not a mapping", "- lv\n- mv\n",
			[]wantErr{{1, 1, "", "expected a mapping, got a list"}, {1, 1, "tiers", "required field is missing"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tiers, err := ParseTiers("t.yaml", []byte(tc.src))
			require.Error(t, err)
			assert.Nil(t, tiers)
			var es strictyaml.Errors
			require.True(t, errors.As(err, &es), "want Errors, got %T", err)
			require.Len(t, es, len(tc.want), "%v", err)
			for i, w := range tc.want {
				e := es[i]
				assert.Equal(t, "t.yaml", e.File)
				assert.Equal(t, w.line, e.Line, "line of %v", e)
				assert.Equal(t, w.col, e.Column, "column of %v", e)
				assert.Equal(t, w.field, e.Field)
				assert.Contains(t, e.Msg, w.msg)
			}
		})
	}

	t.Run("syntax error", func(t *testing.T) {
		_, err := ParseTiers("t.yaml", []byte("tiers:\n  - name: lv\n    title: a: b\n"))
		var e *strictyaml.Error
		require.True(t, errors.As(err, &e))
		assert.Equal(t, 3, e.Line)
		assert.Equal(t, 5, e.Column)
		assert.Contains(t, e.Msg, "invalid YAML")
	})

	t.Run("empty document", func(t *testing.T) {
		_, err := ParseTiers("t.yaml", nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "tiers: required field is missing")
	})
}
