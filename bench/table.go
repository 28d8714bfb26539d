package bench

import (
	"fmt"
	"io"
	"strings"
)

// fmtMs formats a sample as "median (lo–hi)" with a precision that suits
// its size.
func fmtMs(s Sample) string {
	if len(s) == 0 {
		return "not run"
	}
	lo, hi := s.Range()
	return fmt.Sprintf("%s (%s–%s)", num(s.Median()), num(lo), num(hi))
}

func num(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	case v >= 1:
		return fmt.Sprintf("%.2f", v)
	case v >= 0.01:
		return fmt.Sprintf("%.3f", v)
	}
	return fmt.Sprintf("%.4f", v)
}

// ratio formats how many times a exceeds b (the JavaScript side over ours).
func ratio(js, ours float64) string {
	if ours <= 0 || js != js || ours != ours {
		return "–"
	}
	r := js / ours
	switch {
	case r >= 100:
		return fmt.Sprintf("%.0f×", r)
	case r >= 10:
		return fmt.Sprintf("%.1f×", r)
	}
	return fmt.Sprintf("%.2f×", r)
}

func walkCell(w Walk, steps int, status string) string {
	if status != "" && status != "success" {
		return status
	}
	other := len(w.Invalid) - w.CornerCuts
	s := fmt.Sprintf("%d steps: %d corner cut%s, %d other invalid", steps, w.CornerCuts, plural(w.CornerCuts), other)
	if w.FallDamage > 0 {
		s += fmt.Sprintf(", %d fall%s > %d blocks", w.FallDamage, plural(w.FallDamage), MaxSafeDrop)
	}
	return s
}

// WriteTable prints the report as one Markdown table: each row a measure,
// ours, the JavaScript side's, and the ratio (theirs over ours) where one
// makes sense.
func WriteTable(out io.Writer, r *Report) {
	var b strings.Builder
	row := func(cells ...string) { b.WriteString("| " + strings.Join(cells, " | ") + " |\n") }
	row("case", "measure", "gtnh-agent (Go)", "JavaScript", "JavaScript / Go")
	row("---", "---", "---", "---", "---")
	for _, p := range r.Paths {
		name := fmt.Sprintf("%s %v→%v", p.Case.Name, p.From, p.To)
		if len(p.JS.Ms) == 0 {
			row(name, "time, ms", fmtMs(p.Go.Ms), "not run (short mode)", "–")
			row(name, "expanded nodes", fmt.Sprint(p.Go.Expanded), "", "")
			continue
		}
		row(name, "time, ms", fmtMs(p.Go.Ms), fmtMs(p.JS.Ms), ratio(p.JS.Ms.Median(), p.Go.Ms.Median()))
		row(name, "expanded nodes", fmt.Sprint(p.Go.Expanded), fmt.Sprint(p.JS.Expanded), ratio(float64(p.JS.Expanded), float64(p.Go.Expanded)))
		det := ""
		switch {
		case p.JS.Detours == 1:
			det = " (1 step not walkable, costed by the way round)"
		case p.JS.Detours > 1:
			det = fmt.Sprintf(" (%d steps not walkable, costed by the way round)", p.JS.Detours)
		}
		row(name, "cost, game ticks", fmt.Sprintf("%.1f", p.Go.Ticks), fmt.Sprintf("%.1f%s", p.JS.Ticks, det), ratio(p.JS.Ticks, p.Go.Ticks))
		row(name, "cost, mineflayer units", fmt.Sprintf("%.2f", p.Go.MFUnits), fmt.Sprintf("%.2f", p.JS.MFUnits), ratio(p.JS.MFUnits, p.Go.MFUnits))
		row(name, "path check", walkCell(p.Go.Walk, p.Go.Walk.Steps, p.Go.Status), walkCell(p.JS.Walk, p.JS.Walk.Steps, p.JS.Status), "")
	}
	for _, n := range r.Nearest {
		row("nearest "+n.Case.Name(), "time, ms; exact", fmtMs(n.Go.Ms)+"; "+exact(n.Go), fmtMs(n.JS.Ms)+"; "+exact(n.JS), ratio(n.JS.Ms.Median(), n.Go.Ms.Median()))
	}
	d := r.Decode
	mb := float64(d.RawBytes) / 1e6
	row("decode 256 columns", fmt.Sprintf("inflate only, ms (%.2f MB from %.2f MB zlib)", mb, float64(d.ZlibBytes)/1e6), fmtMs(d.GoInflate), fmtMs(d.JSInflate), ratio(d.JSInflate.Median(), d.GoInflate.Median()))
	row("decode 256 columns", "inflate + decode, ms (the same 1.7.10 bytes)", fmtMs(d.GoDecode), fmtMs(d.JSDecode)+" (hand-written)", ratio(d.JSDecode.Median(), d.GoDecode.Median()))
	row("decode 256 columns", "prismarine-chunk 1.8 load of the same columns, ms", fmtMs(d.GoDecode), fmtMs(d.Prismarine)+" without inflate, "+fmtMs(d.PrismarineInflate)+" with", ratio(d.PrismarineInflate.Median(), d.GoDecode.Median()))
	row("memory of 256 columns", "bytes held after decoding", fmt.Sprintf("%.1f MB as decoded, %.1f MB packed", float64(d.GoMemRaw)/1e6, float64(d.GoMemPacked)/1e6),
		fmt.Sprintf("%.1f MB (prismarine-chunk)", float64(d.JSMem)/1e6), ratio(float64(d.JSMem), float64(d.GoMemRaw))+" (as decoded), "+ratio(float64(d.JSMem), float64(d.GoMemPacked))+" (packed)")
	io.WriteString(out, b.String())
}

func exact(s NearestSide) string {
	if s.Exact {
		return "exact"
	}
	return "WRONG: " + s.Why
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
