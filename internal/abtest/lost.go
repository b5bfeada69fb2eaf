package abtest

import "math"

// LostTest compares the summaries each side lost on the samples where the sides sent
// different requests, so that their answers are independent calls: per input, head's
// share lost against base's. (Where the requests are equal both sides read the very same
// answer, and Result.HeadOnlyLost compares them sample by sample.)
type LostTest struct {
	// Samples is the number of samples compared per side; Base and Head how many of them
	// each side lost.
	Samples int `json:"samples"`
	Base    int `json:"base"`
	Head    int `json:"head"`
	// P is the chance of head losing at least Head of them were the sides alike: given how
	// many an input's samples lost in all, which side lost each is drawn at random (an
	// exact test: the sum over inputs of hypergeometric counts). 1 when none was lost.
	P float64 `json:"p"`
}

// lostTest returns the comparison of the summaries lost on the samples whose requests
// differ, nil when there are none.
func lostTest(inputs []InputResult) *LostTest {
	t := &LostTest{}
	// dist[k] is the chance that head lost k of the summaries lost so far, were the sides
	// alike.
	dist := []float64{1}
	for _, in := range inputs {
		s, b, h := 0, 0, 0
		for n := range min(len(in.Base), len(in.Head)) {
			if in.Base[n].InstructionSHA256 == in.Head[n].InstructionSHA256 {
				continue
			}
			s++
			if !in.Base[n].Found {
				b++
			}
			if !in.Head[n].Found {
				h++
			}
		}
		t.Samples += s
		t.Base += b
		t.Head += h
		if b+h == 0 {
			continue
		}
		lo, hi := max(0, b+h-s), min(b+h, s)
		pmf := make([]float64, hi+1)
		for j := lo; j <= hi; j++ {
			pmf[j] = hypergeometric(j, b+h, s)
		}
		next := make([]float64, len(dist)+hi)
		for k, pk := range dist {
			for j := lo; j <= hi; j++ {
				next[k+j] += pk * pmf[j]
			}
		}
		dist = next
	}
	if t.Samples == 0 {
		return nil
	}
	t.P = 0
	for k := t.Head; k < len(dist); k++ {
		t.P += dist[k]
	}
	t.P = math.Min(1, round4(t.P))
	return t
}

// hypergeometric returns the chance that j of lost summaries fall on one side, when lost
// of 2s samples (s a side) were lost and each side is as likely to have lost them.
func hypergeometric(j, lost, s int) float64 {
	return math.Exp(lchoose(lost, j) + lchoose(2*s-lost, s-j) - lchoose(2*s, s))
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
