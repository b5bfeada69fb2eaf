package abtest

import (
	"math"
	"testing"
)

// TestTQuantile checks tQuantile against the printed tables of Student's t (two-sided 95%).
func TestTQuantile(t *testing.T) {
	for _, tt := range []struct {
		df   int
		want float64
	}{{1, 12.706}, {2, 4.303}, {4, 2.776}, {7, 2.365}, {11, 2.201}, {29, 2.045}, {99, 1.984}} {
		if got := tQuantile(0.975, tt.df); math.Abs(got-tt.want) > 0.0005 {
			t.Errorf("tQuantile(0.975, %d) = %.4f, want %.3f", tt.df, got, tt.want)
		}
	}
}

// TestSDensity checks that sDensity is a density with mean about 1 (exactly
// sqrt(2/df) Γ((df+1)/2) / Γ(df/2)), for the integrals of detectable.
func TestSDensity(t *testing.T) {
	for _, df := range []int{1, 4, 11, 99} {
		lo, hi := sRange(df)
		if df == 1 {
			hi = 12 // the half-normal's tail beyond sRange is 1e-8
		}
		mass := simpson(func(s float64) float64 { return sDensity(s+lo, df) }, hi-lo, 2000)
		mean := simpson(func(s float64) float64 { return (s + lo) * sDensity(s+lo, df) }, hi-lo, 2000)
		a, _ := math.Lgamma(float64(df+1) / 2)
		b, _ := math.Lgamma(float64(df) / 2)
		want := math.Sqrt(2/float64(df)) * math.Exp(a-b)
		if math.Abs(mass-1) > 1e-4 || math.Abs(mean-want) > 1e-4 {
			t.Errorf("sDensity, %d df: mass %.6f, mean %.6f; want 1 and %.6f", df, mass, mean, want)
		}
	}
}
