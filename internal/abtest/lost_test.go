package abtest

import (
	"math/rand/v2"
	"testing"
)

// lostInputs returns inputs whose samples lost their summary as lost says: per input, a
// string per side of samples, 'x' lost, '.' found. Base's and head's requests differ
// unless same.
func lostInputs(same bool, lost ...[2]string) []InputResult {
	var ins []InputResult
	for _, l := range lost {
		var in InputResult
		for s, side := range l {
			for _, c := range side {
				sr := SampleResult{Found: c == '.', InstructionSHA256: "base"}
				if s == 1 && !same {
					sr.InstructionSHA256 = "head"
				}
				if s == 0 {
					in.Base = append(in.Base, sr)
				} else {
					in.Head = append(in.Head, sr)
				}
			}
		}
		ins = append(ins, in)
	}
	return ins
}

func TestLostTest(t *testing.T) {
	tests := []struct {
		name string
		in   []InputResult
		want *LostTest
	}{
		{name: "nothing lost is chance itself", in: lostInputs(false, [2]string{"..", ".."}),
			want: &LostTest{Samples: 2, P: 1}},
		{name: "head losing both of one input's two: 1 in 6 were the sides alike", in: lostInputs(false, [2]string{"..", "xx"}),
			want: &LostTest{Samples: 2, Head: 2, P: 0.1667}},
		{name: "base losing more is no sign against head", in: lostInputs(false, [2]string{"xx", "x."}, [2]string{"x.", ".."}),
			want: &LostTest{Samples: 4, Base: 3, Head: 1, P: 1}},
		{name: "two inputs, each head losing both: 1/36", in: lostInputs(false, [2]string{"..", "xx"}, [2]string{"..", "xx"}),
			want: &LostTest{Samples: 4, Head: 4, P: 0.0278}},
		{name: "the same requests are not compared as rates", in: lostInputs(true, [2]string{"..", "xx"}),
			want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lostTest(tt.in)
			if (got == nil) != (tt.want == nil) || got != nil && *got != *tt.want {
				t.Errorf("lostTest() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// simulateLost returns the share of simulated runs that lostFails fails: inputs inputs
// with samples samples a side, each input losing a summary with its own chance (drawn
// uniformly up to 0.3), head's chance that times headFactor.
func simulateLost(runs, inputs, samples int, headFactor float64, seed uint64) float64 {
	r := rand.New(rand.NewPCG(seed, uint64(inputs*100+samples)))
	fails := 0
	for range runs {
		ins := make([]InputResult, inputs)
		for i := range ins {
			p := 0.3 * r.Float64()
			for range samples {
				ins[i].Base = append(ins[i].Base, SampleResult{Found: r.Float64() >= p, InstructionSHA256: "base"})
				ins[i].Head = append(ins[i].Head, SampleResult{Found: r.Float64() >= p*headFactor, InstructionSHA256: "head"})
			}
		}
		if lt := lostTest(ins); lt.P < Level && lt.Head > lt.Base {
			fails++
		}
	}
	return float64(fails) / float64(runs)
}

// TestLostTestCalibrated checks that two sides alike (A/A, each answer a separate call)
// fail on lost summaries in at most 5% of 2,000 simulated runs (6.5% with chance), at 5 to
// 100 inputs and 1 to 3 samples, and that a head losing four times base's share is found
// in at least 80% of runs at 12 inputs × 2 samples.
func TestLostTestCalibrated(t *testing.T) {
	for _, n := range sizes {
		for samples := 1; samples <= 3; samples++ {
			rate := simulateLost(2000, n, samples, 1, 11)
			t.Logf("A/A, %d inputs × %d samples: %.2f%%", n, samples, 100*rate)
			if rate > 0.065 {
				t.Errorf("A/A, %d inputs × %d samples: %.1f%% of runs fail on lost summaries, want at most 5%%", n, samples, 100*rate)
			}
		}
	}
	if rate := simulateLost(2000, 12, 2, 4, 12); rate < 0.8 {
		t.Errorf("head losing 4 times base's share, 12 inputs × 2 samples: %.1f%% of runs fail, want at least 80%%", 100*rate)
	}
}
