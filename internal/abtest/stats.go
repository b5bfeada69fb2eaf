package abtest

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Resamples is the number of bootstrap resamples of an interval.
const Resamples = 4000

// zPower is z(0.975) + z(0.80): a difference this many standard errors from zero is found
// by a 95% interval four times out of five.
const zPower = 1.959964 + 0.841621

// compare returns the comparison of one measure over the inputs that have it on both
// sides.
func compare(inputs []InputResult, m string) Comparison {
	var d, bs, hs []float64
	for _, in := range inputs {
		b, okb := mean(in.Base, m)
		h, okh := mean(in.Head, m)
		if okb {
			bs = append(bs, b)
		}
		if okh {
			hs = append(hs, h)
		}
		if delta, ok := in.Delta[m]; ok {
			d = append(d, delta)
		}
	}
	c := Comparison{Verdict: Judge(m, d), Base: average(bs), Head: average(hs)}
	return c
}

// Judge returns the verdict on paired differences (head minus base) of measure m: their
// mean, its percentile bootstrap 95% interval (Resamples resamples of the inputs, seeded
// by the measure's name so that the document is deterministic) and the smallest
// difference detectable. The verdict is better or worse when the interval excludes zero
// (which way is better depends on the measure), no difference otherwise; with no pair it
// is no difference with a zero interval and N 0.
func Judge(m string, d []float64) Verdict {
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
	means := make([]float64, Resamples)
	for i := range means {
		s := 0.0
		for range d {
			s += d[rng.IntN(len(d))]
		}
		means[i] = s / float64(len(d))
	}
	slices.Sort(means)
	v.Low = round4(means[int(0.025*Resamples)])
	v.High = round4(means[int(0.975*Resamples)-1])
	if len(d) > 1 {
		mu := sum(d) / float64(len(d))
		ss := 0.0
		for _, x := range d {
			ss += (x - mu) * (x - mu)
		}
		se := math.Sqrt(ss/float64(len(d)-1)) / math.Sqrt(float64(len(d)))
		det := round4(zPower * se)
		v.Detectable = &det
	}
	up, down := v.Low > 0, v.High < 0
	switch {
	case up && lowerIsBetter(m), down && !lowerIsBetter(m):
		v.Verdict = Worse
	case up, down:
		v.Verdict = Better
	}
	return v
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

func average(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	m := round4(sum(xs) / float64(len(xs)))
	return &m
}

// round4 rounds to four decimals, so that the document does not carry float noise.
func round4(x float64) float64 {
	r := math.Round(x*1e4) / 1e4
	if r == 0 {
		return 0 // not -0
	}
	return r
}
