package abtest

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/record/recordtest"
)

var update = flag.Bool("update", false, "rewrite the generated table of docs/review-ab.md")

// sizes are the numbers of inputs the calibration is proven at.
var sizes = []int{5, 8, 12, 30, 100}

// noise is a distribution of paired differences under A/A: symmetric around zero, as
// head and base are then exchangeable.
type noise struct {
	name string
	draw func(r *rand.Rand) float64
}

var noises = []noise{
	{"normal", func(r *rand.Rand) float64 { return r.NormFloat64() }},
	{"t, 3 df (heavy tails)", func(r *rand.Rand) float64 { return studentT(r, 3) }},
	{"Cauchy (t, 1 df)", func(r *rand.Rand) float64 { return studentT(r, 1) }},
	{"half zero, half normal", func(r *rand.Rand) float64 {
		if r.IntN(2) == 0 {
			return 0
		}
		return r.NormFloat64()
	}},
	// Each side loses each of 2 samples with probability 0.1: the per-input difference of
	// summary_lost, mostly 0, else ±0.5 or ±1.
	{"lost summaries (2 samples, 10%)", func(r *rand.Rand) float64 {
		d := 0.0
		for range 2 {
			if r.Float64() < 0.1 {
				d += 0.5
			}
			if r.Float64() < 0.1 {
				d -= 0.5
			}
		}
		return d
	}},
	// One input in twenty moves, by ±1: few distinct values, where a t interval is
	// least at home.
	{"95% zero, else ±1", func(r *rand.Rand) float64 {
		if r.IntN(20) != 0 {
			return 0
		}
		return float64(2*r.IntN(2) - 1)
	}},
}

func studentT(r *rand.Rand, df int) float64 {
	v := 0.0
	for range df {
		x := r.NormFloat64()
		v += x * x
	}
	return r.NormFloat64() / math.Sqrt(v/float64(df))
}

// draws fills d with draws of nz plus shift.
func draws(r *rand.Rand, nz noise, d []float64, shift float64) {
	for i := range d {
		d[i] = nz.draw(r) + shift
	}
}

// falsePositives returns the share of runs in which judge gives a verdict on pure noise.
func falsePositives(judge func(string, []float64) Verdict, m string, nz noise, n, runs int, seed uint64) float64 {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	d := make([]float64, n)
	hits := 0
	for range runs {
		draws(r, nz, d, 0)
		if judge(m, d).Verdict != NoDifference {
			hits++
		}
	}
	return float64(hits) / float64(runs)
}

// powerAtDetectable returns the share of runs in which judge finds a difference equal to
// the smallest detectable difference Judge printed in another run on the same noise.
func powerAtDetectable(judge func(string, []float64) Verdict, nz noise, n, runs int, seed uint64) float64 {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	d := make([]float64, n)
	hits := 0
	for range runs {
		draws(r, nz, d, 0)
		det := Judge(MeasureScore, d).Detectable
		if det == nil {
			panic("no detectable difference")
		}
		draws(r, nz, d, *det)
		if judge(MeasureScore, d).Verdict != NoDifference {
			hits++
		}
	}
	return float64(hits) / float64(runs)
}

// TestJudgeCalibrated checks that Judge gives a verdict on pure noise (A/A) at most 5% of
// the time, on every measure, at every size listed and on normal, heavy-tailed and
// zero-inflated differences: 4,000 runs each, failing above 6.5% (the rate a 5% test
// exceeds by chance less than once in 10^6 such checks).
func TestJudgeCalibrated(t *testing.T) {
	const runs = 4000
	for i, nz := range noises {
		for _, n := range sizes {
			for j, m := range Measures {
				rate := falsePositives(Judge, m, nz, n, runs, uint64(1000*i+j))
				if rate > 0.065 {
					t.Errorf("Judge(%s) on %s noise, %d inputs: a verdict in %.1f%% of %d runs, want at most 5%% (6.5%% with chance)", m, nz.name, n, 100*rate, runs)
				}
			}
		}
	}
}

// TestJudgeDetectablePower checks the smallest detectable difference Judge prints: a true
// difference of that size (printed by another run on the same normal noise) is found in
// at least 80% of runs (77.5% with chance: 4,000 runs give it a standard error of 0.6%).
func TestJudgeDetectablePower(t *testing.T) {
	const runs = 4000
	for _, n := range sizes {
		if p := powerAtDetectable(Judge, noises[0], n, runs, 7); p < 0.775 {
			t.Errorf("Judge on normal noise, %d inputs: a difference of the printed detectable size found in %.1f%% of %d runs, want at least 80%%", n, 100*p, runs)
		}
	}
}

func TestJudgeOnePair(t *testing.T) {
	v := Judge(MeasureScore, []float64{-0.5})
	if v.Verdict != NoDifference || v.Low != -0.5 || v.High != -0.5 || v.Detectable != nil {
		t.Errorf("Judge(score, [-0.5]) = %+v, want no difference, the mean as its interval, no detectable difference", v)
	}
}

// bootstrapJudge is Judge before the t interval: a percentile bootstrap of the inputs,
// 4,000 resamples, seeded by the measure's name, and 2.8 estimated standard errors as
// the detectable difference. Kept to measure it against the t interval.
func bootstrapJudge(m string, d []float64) Verdict {
	const resamples = 4000
	v := Verdict{Measure: m, Verdict: NoDifference, N: len(d)}
	if len(d) == 0 {
		return v
	}
	v.Mean = round4(sum(d) / float64(len(d)))
	seed := uint64(0)
	for _, c := range m {
		seed = seed*31 + uint64(c)
	}
	rng := rand.New(rand.NewPCG(seed, 2026))
	means := make([]float64, resamples)
	for i := range means {
		s := 0.0
		for range d {
			s += d[rng.IntN(len(d))]
		}
		means[i] = s / float64(len(d))
	}
	slices.Sort(means)
	v.Low = round4(means[int(0.025*resamples)])
	v.High = round4(means[int(0.975*resamples)-1])
	switch {
	case v.Low > 0 && lowerIsBetter(m), v.High < 0 && !lowerIsBetter(m):
		v.Verdict = Worse
	case v.Low > 0, v.High < 0:
		v.Verdict = Better
	}
	return v
}

const (
	tableStart = "<!-- judge-table: go test ./internal/abtest -run TestJudgeTable -update -->\n"
	tableEnd   = "<!-- end of judge-table -->\n"
)

// TestJudgeTable writes the table of docs/review-ab.md that measures the bootstrap
// interval against the t interval at 12 inputs: the same noise, the same seeds. It runs
// only with -update (the bootstrap takes seconds).
func TestJudgeTable(t *testing.T) {
	if !*update {
		t.Skip("writes docs/review-ab.md's table: run with -update")
	}
	const n, runs = 12, 4000
	var b strings.Builder
	b.WriteString(tableStart)
	fmt.Fprintf(&b, "\n%d inputs, %d simulated runs per cell, the same draws for both intervals.\n\n", n, runs)
	b.WriteString("| paired differences | verdicts on pure noise, bootstrap | verdicts on pure noise, t | power at the printed detectable difference, bootstrap | power at it, t |\n")
	b.WriteString("|---|---:|---:|---:|---:|\n")
	for i, nz := range noises {
		seed := uint64(5000 + i)
		fmt.Fprintf(&b, "| %s | %.1f%% | %.1f%% | %.1f%% | %.1f%% |\n", nz.name,
			100*falsePositives(bootstrapJudge, MeasureScore, nz, n, runs, seed), 100*falsePositives(Judge, MeasureScore, nz, n, runs, seed),
			100*powerAtDetectable(bootstrapJudge, nz, n, runs, seed), 100*powerAtDetectable(Judge, nz, n, runs, seed))
	}
	fakeTable(t, &b)
	b.WriteString("\n" + tableEnd)
	const path = "../../docs/review-ab.md"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	start, end := bytes.Index(doc, []byte(tableStart)), bytes.Index(doc, []byte(tableEnd))
	if start < 0 || end < start {
		t.Fatalf("%s has no judge-table markers", path)
	}
	out := append(append(slices.Clip(doc[:start]), b.String()...), doc[end+len(tableEnd):]...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// oldVerdicts judges r's measures again as before the t interval and the lost-summary
// test: the bootstrap, and head's sample n paired with base's whatever the requests. It
// returns whether the run failed and whether any measure was worse.
func oldVerdicts(r *Result) (failed, worse bool, boundary string) {
	for _, m := range Measures {
		var d []float64
		for _, in := range r.Inputs {
			if x, ok := in.Delta[m]; ok {
				d = append(d, x)
			}
		}
		v := bootstrapJudge(m, d)
		worse = worse || v.Verdict == Worse
		if m == MeasureScore && v.N > 0 && v.High < 0 {
			failed = true
		}
		if m == MeasureBoundary {
			boundary = v.Verdict
		}
	}
	for _, in := range r.Inputs {
		for n := range min(len(in.Base), len(in.Head)) {
			failed = failed || in.Base[n].Found && !in.Head[n].Found
		}
	}
	return failed, worse, boundary
}

// fakeTable measures the review before and after on the noisy fake: the same 40 seeds of
// FakeModel{BreakRate: 0.1, Noise: 0.3}, the ten eval conversations × 2 samples, both
// sides extracting with the line-anchored extractor; A/A (a double space) and section 8
// dropped.
func fakeTable(t *testing.T, b *strings.Builder) {
	inputs := evalInputs(t)
	base := goSide("base", compact.Instruction, strictExtract)
	aa := directPlan(t, base, goSide("head", edit(t, "Your task is to create", "Your task is to  create"), strictExtract), inputs, 2)
	drop := directPlan(t, base, goSide("head", edit(t, section8...), strictExtract), inputs, 2)
	const seeds = 40
	var oldFail, newFail, oldWorse, newWorse, oldFound, newFound int
	for seed := range uint64(seeds) {
		r := runDirect(t, &recordtest.FakeModel{BreakRate: 0.1, Noise: 0.3, Seed: 1000 + seed}, aa)
		failed, worse, _ := oldVerdicts(r)
		oldFail, oldWorse = oldFail+btoi(failed), oldWorse+btoi(worse)
		newFail, newWorse = newFail+btoi(!r.Passed()), newWorse+btoi(len(worseOn(r)) > 0)
		r = runDirect(t, &recordtest.FakeModel{BreakRate: 0.1, Noise: 0.3, Seed: 2000 + seed}, drop)
		_, _, boundary := oldVerdicts(r)
		oldFound, newFound = oldFound+btoi(boundary == Worse), newFound+btoi(measure(r, MeasureBoundary).Verdict.Verdict == Worse)
	}
	fmt.Fprintf(b, "\nOn the noisy fake (`FakeModel{BreakRate: 0.1, Noise: 0.3}`, %d seeds, the %d eval conversations × 2\nsamples, both sides with an extractor that loses every broken summary), the same answers\njudged both ways:\n\n", seeds, len(inputs))
	b.WriteString("| run | before | after |\n|---|---:|---:|\n")
	fmt.Fprintf(b, "| A/A (a double space): the review fails | %d of %d | %d of %d |\n", oldFail, seeds, newFail, seeds)
	fmt.Fprintf(b, "| A/A: some measure is worse | %d of %d | %d of %d |\n", oldWorse, seeds, newWorse, seeds)
	fmt.Fprintf(b, "| section 8 dropped: boundary coverage is worse | %d of %d | %d of %d |\n", oldFound, seeds, newFound, seeds)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
