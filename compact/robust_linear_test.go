package compact

import (
	"runtime"
	"testing"

	"github.com/compacteval/compacteval/internal/textgen"
)

// robustWork runs robust on text past the well-formed check and returns the work it
// counted (scan.steps) and the bytes it allocated.
func robustWork(text string) (steps int, alloc uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, steps = extractRobust(text, true)
	runtime.ReadMemStats(&after)
	return steps, after.TotalAlloc - before.TotalAlloc
}

// TestRobustLinear counts robust's work, not its time, on every adversarial family at a
// base size, twice it and ten times it: the steps and the bytes allocated must grow like
// the input (a quadratic path gives a ratio near 4 at x2 and 100 at x10).
func TestRobustLinear(t *testing.T) {
	const base = 20 << 10
	small, double, large := textgen.Families(base), textgen.Families(2*base), textgen.Families(10*base)
	for i, f := range small {
		s1, a1 := robustWork(f.Text)
		s2, _ := robustWork(double[i].Text)
		s10, a10 := robustWork(large[i].Text)
		n1, n2, n10 := float64(len(f.Text)), float64(len(double[i].Text)), float64(len(large[i].Text))
		if r := (float64(s2) / n2) / (float64(s1) / n1); r > 1.25 {
			t.Errorf("%s: steps per byte grow %.2fx from %d to %d bytes (%d -> %d steps), want linear", f.Name, r, len(f.Text), len(double[i].Text), s1, s2)
		}
		if r := (float64(s10) / n10) / (float64(s1) / n1); r > 1.25 {
			t.Errorf("%s: steps per byte grow %.2fx from %d to %d bytes (%d -> %d steps), want linear", f.Name, r, len(f.Text), len(large[i].Text), s1, s10)
		}
		// Allocation: at most 8 bytes per input byte, and linear.
		if perByte := float64(a10) / n10; perByte > 8 {
			t.Errorf("%s: %.1f bytes allocated per input byte at %d bytes, want at most 8", f.Name, perByte, len(large[i].Text))
		}
		if r := (float64(a10) / n10) / (max(float64(a1), 1) / n1); a10 > 64<<10 && r > 1.5 {
			t.Errorf("%s: allocation per byte grows %.2fx from %d to %d bytes (%d -> %d)", f.Name, r, len(f.Text), len(large[i].Text), a1, a10)
		}
		if s1 == 0 {
			t.Errorf("%s: no steps counted", f.Name)
		}
		t.Logf("%-28s %8d bytes: %9d steps (%.1f/byte), x10: %.2fx per byte; %.2f B/byte allocated", f.Name, len(f.Text), s1, float64(s1)/n1,
			(float64(s10)/n10)/(float64(s1)/n1), float64(a10)/n10)
	}
}

// TestRobustFastLinear counts the fast path's work on every family at a base size, twice
// it and ten times it, as TestRobustLinear does for the full scan: what it reads before it
// answers or gives up must grow like the input.
func TestRobustFastLinear(t *testing.T) {
	const base = 20 << 10
	work := func(text string) int {
		f := fast{text: text}
		f.extract()
		return f.steps
	}
	small, double, large := textgen.Families(base), textgen.Families(2*base), textgen.Families(10*base)
	for i, f := range small {
		s1, s2, s10 := work(f.Text), work(double[i].Text), work(large[i].Text)
		n1, n2, n10 := float64(len(f.Text)), float64(len(double[i].Text)), float64(len(large[i].Text))
		if r := (float64(s2) / n2) / (float64(s1) / n1); r > 1.25 {
			t.Errorf("%s: fast path steps per byte grow %.2fx from %d to %d bytes (%d -> %d steps), want linear", f.Name, r, len(f.Text), len(double[i].Text), s1, s2)
		}
		if r := (float64(s10) / n10) / (float64(s1) / n1); r > 1.25 {
			t.Errorf("%s: fast path steps per byte grow %.2fx from %d to %d bytes (%d -> %d steps), want linear", f.Name, r, len(f.Text), len(large[i].Text), s1, s10)
		}
		if s1 == 0 {
			t.Errorf("%s: no fast path steps counted", f.Name)
		}
		t.Logf("%-28s %8d bytes: %9d fast path steps (%.1f/byte), x10: %.2fx per byte", f.Name, len(f.Text), s1, float64(s1)/n1, (float64(s10)/n10)/(float64(s1)/n1))
	}
}
