package fuzz

import (
	"strings"
	"time"

	"github.com/compacteval/compacteval/compact"
)

// Family is a shape of input built to be slow for the extractors the corpus knows: each is
// a unit repeated to a size.
type Family struct {
	Name string `json:"name"`
	// Unit is repeated; Prefix and Suffix, when set, stand around the repetition.
	Unit   string `json:"-"`
	Prefix string `json:"-"`
	Suffix string `json:"-"`
}

// Families are the adversarial inputs of the time check: openers without a closer (the
// line-anchored and loose searches of the seed rescan to the end from each), analysis
// openers without a closer (the lazy analysis pattern), inline openers on one long line,
// heading-like lines (robust's marker search), and "$&" inside a summary block (a
// JavaScript replacement string grows the output with the square of the input).
var Families = []Family{
	{Name: "summary-openers", Unit: "<summary>\n"},
	{Name: "analysis-openers", Unit: "<analysis>\n"},
	{Name: "inline-openers", Unit: "x <summary> "},
	{Name: "summary-lines", Unit: "Summary\n"},
	{Name: "heading-loop", Unit: "## Summary\nThe work continued.\n"},
	{Name: "closers", Unit: "</summary>\n"},
	{Name: "dollar-amp", Prefix: "<summary>\n", Unit: "$& ", Suffix: "\n</summary>"},
}

// Build returns the family's input of about size bytes.
func (f Family) Build(size int) string {
	n := max(1, (size-len(f.Prefix)-len(f.Suffix))/len(f.Unit))
	return f.Prefix + strings.Repeat(f.Unit, n) + f.Suffix
}

// Timing is one family's time at two sizes ten times apart.
type Timing struct {
	Family string `json:"family"`
	// SmallBytes and LargeBytes are the input sizes; SmallSeconds and LargeSeconds the
	// best of the answers' times (each input is sent Repeats times). LargeSeconds is
	// absent when the large input timed out.
	SmallBytes   int      `json:"small_bytes"`
	SmallSeconds float64  `json:"small_seconds"`
	LargeBytes   int      `json:"large_bytes"`
	LargeSeconds *float64 `json:"large_seconds"`
	// Ratio is LargeSeconds / SmallSeconds: about 10 for linear time, 100 for quadratic.
	Ratio float64 `json:"ratio,omitempty"`
	// Verdict is "linear", "superlinear" (Ratio of at least SuperlinearRatio with the large
	// input taking at least MinSeconds) or "timeout".
	Verdict string `json:"verdict"`
}

const (
	// SuperlinearRatio is the ratio from which a family counts as superlinear: a linear
	// extractor gives about 10, a quadratic one about 100.
	SuperlinearRatio = 30
	// MinSeconds is the least time of the large input that counts as slow: below it a ratio
	// is noise (a process's round trip alone is a few hundred microseconds).
	MinSeconds = 0.05
	// Repeats is how often each timed input is sent; the best time counts.
	Repeats = 3
)

// timeFamilies times every family at size and 10*size, one request at a time. A request
// that fails (a timeout kills an external extractor) ends the check of the families after
// it: they are reported as timeouts too.
func timeFamilies(extract func(string) (compact.Extraction, error), size int, clock func() float64) ([]Timing, error) {
	var out []Timing
	for _, f := range Families {
		small, large := f.Build(size), f.Build(10*size)
		t := Timing{Family: f.Name, SmallBytes: len(small), LargeBytes: len(large)}
		ts, err := best(extract, small, clock)
		if err != nil {
			t.Verdict = "timeout" // the family that failed is the last one returned
			return append(out, t), err
		}
		t.SmallSeconds = round6(ts)
		tl, err := best(extract, large, clock)
		if err != nil {
			t.Verdict = "timeout"
			out = append(out, t)
			return out, err
		}
		t.LargeSeconds = ptr(round6(tl))
		if ts > 0 {
			t.Ratio = round2(tl / ts)
		}
		t.Verdict = "linear"
		if tl >= MinSeconds && (ts == 0 || tl/ts >= SuperlinearRatio) {
			t.Verdict = "superlinear"
		}
		out = append(out, t)
	}
	return out, nil
}

// best returns the shortest of Repeats timed extractions of text; a slow one (over a
// second) is not repeated.
func best(extract func(string) (compact.Extraction, error), text string, clock func() float64) (float64, error) {
	bestT := -1.0
	for range Repeats {
		start := clock()
		if _, err := extract(text); err != nil {
			return 0, err
		}
		d := clock() - start
		if bestT < 0 || d < bestT {
			bestT = d
		}
		if d > 1 {
			break
		}
	}
	return bestT, nil
}

// newClock returns the time check's clock, in seconds: the extractor's CPU time when cpu
// measures it, else the wall clock. The CPU time of a process does not grow while other
// processes hold the cores, so a loaded machine does not make a linear extractor look
// superlinear; a wait for input (the extractor blocked on a pipe) is not counted either.
func newClock(cpu func() (time.Duration, bool)) func() float64 {
	if cpu != nil {
		if _, ok := cpu(); ok {
			return func() float64 {
				d, _ := cpu()
				return d.Seconds()
			}
		}
	}
	start := time.Now()
	return func() float64 { return time.Since(start).Seconds() }
}

func ptr(x float64) *float64 { return &x }

func round6(x float64) float64 { return float64(int64(x*1e6+0.5)) / 1e6 }
func round2(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }
