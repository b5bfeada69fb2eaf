package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestHalfOf(t *testing.T) {
	// The split is a fixed rule: these are the halves docs/validity.md reports.
	for repo, want := range map[string]string{
		"badlogic/pi-mono":           TuningHalf,  // SHA-256 starts f0
		"Crazytieguy/alignment-hive": TuningHalf,  // a0
		"marot/spotter":              HeldOutHalf, // f5
		"entireio/cli":               HeldOutHalf, // 7d
	} {
		if got := HalfOf(repo); got != want {
			t.Errorf("HalfOf(%q) = %s, want %s", repo, got, want)
		}
	}
}

func TestReadValiditySources(t *testing.T) {
	good := "# comment\n\na.jsonl\to/r\tc0mm1t\tp/a.jsonl\tabc\tpi\n"
	got, err := ReadValiditySources(strings.NewReader(good), "sources.tsv")
	if err != nil || len(got) != 1 || got[0] != (ValiditySource{"a.jsonl", "o/r", "c0mm1t", "p/a.jsonl", "abc", "pi"}) {
		t.Errorf("ReadValiditySources(good) = %v, %v", got, err)
	}
	for _, tc := range []struct{ in, want string }{
		{in: "a.jsonl\to/r\tc\tp\n", want: "sources.tsv:1: 4 tab-separated fields, want 6"},
		{in: "# x\na\to/r\tc\tp\ts\tpi\na\to/r\tc\tp\ts\tpi\n", want: "sources.tsv:3: name a is already on line 2"},
		{in: "a\tnoslash\tc\tp\ts\tpi\n", want: `sources.tsv:1: repository "noslash" is not owner/name`},
	} {
		_, err := ReadValiditySources(strings.NewReader(tc.in), "sources.tsv")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ReadValiditySources(%q) error = %v, want %s", tc.in, err, tc.want)
		}
	}
}

func TestValiditySourcesFile(t *testing.T) {
	// The committed list reads, and its files come from at least 30 projects (issue 37).
	f := mustOpen(t, validitySources)
	got, err := ReadValiditySources(f, validitySources)
	if err != nil {
		t.Fatal(err)
	}
	repos := map[string]bool{}
	for _, s := range got {
		repos[s.Repository] = true
	}
	if len(repos) < 30 {
		t.Errorf("%s lists files of %d repositories, want at least 30", validitySources, len(repos))
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestProjectCap(t *testing.T) {
	for _, tc := range []struct {
		name   string
		counts []int
		want   int
		wantOK bool
	}{
		{name: "no projects: nothing to cap", counts: nil, want: 0, wantOK: true},
		{name: "four projects cannot each hold 20% or less", counts: []int{3, 3, 3, 3}, want: 3, wantOK: false},
		{name: "five equal projects hold exactly 20% each", counts: []int{4, 4, 4, 4, 4}, want: 4, wantOK: true},
		{name: "balanced enough: the largest count fits", counts: []int{2, 2, 2, 2, 2, 2, 2, 2, 2, 3}, want: 3, wantOK: true},
		{name: "one project holds most: 2 of 2+9 fits, 3 of 3+9 is over", counts: []int{78, 1, 1, 1, 1, 1, 1, 1, 1, 1}, want: 2, wantOK: true},
		{name: "two large projects: 3 of 3+3+8 is over", counts: []int{50, 40, 2, 2, 2, 2}, want: 2, wantOK: true},
		{name: "12 of 52 is over: 10 of 50 fits exactly, 11 of 51 does not", counts: []int{12, 8, 7, 7, 6, 3, 3, 3, 3}, want: 10, wantOK: true},
	} {
		got, ok := ProjectCap(tc.counts)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("%s: ProjectCap(%v) = %d, %v, want %d, %v", tc.name, tc.counts, got, ok, tc.want, tc.wantOK)
		}
	}
}

// TestProjectCapLargest checks ProjectCap against a search of every k on random counts: the
// k it returns fits, and no larger k does.
func TestProjectCapLargest(t *testing.T) {
	fits := func(counts []int, k int) bool {
		kept := 0
		for _, n := range counts {
			kept += min(n, k)
		}
		return k*int(math.Round(1/MaxProjectShare)) <= kept // in integers: no rounding
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		counts := make([]int, rng.IntN(12))
		most := 0
		for i := range counts {
			counts[i] = 1 + rng.IntN(40)
			if rng.IntN(5) == 0 {
				counts[i] += rng.IntN(200)
			}
			most = max(most, counts[i])
		}
		want, wantOK := 0, true
		for k := 1; k <= most; k++ {
			if fits(counts, k) {
				want = k
			}
		}
		if want == 0 && most > 0 {
			want, wantOK = most, false
		}
		if got, ok := ProjectCap(counts); got != want || ok != wantOK {
			t.Fatalf("ProjectCap(%v) = %d, %v, want %d, %v", counts, got, ok, want, wantOK)
		}
	}
}

func TestCapOrder(t *testing.T) {
	ids := []string{"a.jsonl#compaction-1", "a.jsonl#compaction-2", "b.jsonl#compaction-1", "c.jsonl#compaction-1", "c.jsonl#compaction-2"}
	want := append([]string(nil), ids...)
	CapOrder(want)
	if slices.Equal(want, ids) || slices.IsSorted(want) {
		t.Errorf("CapOrder(%v) = %v: the order of the names, want the order of their hashes", ids, want)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		got := append([]string(nil), ids...)
		rng.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
		CapOrder(got)
		if !slices.Equal(got, want) {
			t.Fatalf("CapOrder of a shuffle = %v, want %v: the order must not depend on the input's", got, want)
		}
	}
}

func TestProjectMeans(t *testing.T) {
	pair := func(c, ablation string, verdict string) Pair {
		p := Pair{Case: c, Ablation: ablation}
		for k := range p.Verdicts {
			p.Verdicts[k] = verdict
		}
		return p
	}
	var pairs []Pair
	// Project a wins 9 of 10 pairs; project b wins 1 of 2 and has a pair that does not
	// apply; project c has only shuffles, which never count.
	for i := range 9 {
		pairs = append(pairs, pair("a.jsonl#compaction-1", fmt.Sprint("ablation ", i), Win))
	}
	pairs = append(pairs, pair("a.jsonl#compaction-1", "ablation 9", Tie),
		pair("b.jsonl#compaction-1", "ablation 0", Win), pair("b.jsonl#compaction-1", "ablation 1", Loss),
		pair("b.jsonl#compaction-1", "ablation 2", NotApplicable),
		pair("c.jsonl#compaction-1", AblationShuffled, Tie), pair("a.jsonl#compaction-1", AblationShuffled, Loss))
	project := func(id string) string { return strings.SplitN(id, ".", 2)[0] }
	means, projects := ProjectMeans(pairs, project)
	for k, m := range ValidityMeasures {
		// (9/10 + 1/2) / 2 = 0.7; pooled it would be 10/12.
		if math.Abs(means[k]-0.7) > 1e-12 || projects[k] != 2 {
			t.Errorf("ProjectMeans: %s = %v over %d projects, want 0.7 over 2", m, means[k], projects[k])
		}
	}
}

func TestSplitRealCapsAndCountsOnce(t *testing.T) {
	// One repository with 10 compactions and five with one each, all in the held-out half;
	// a sixth file repeats a summary of the large project's first file.
	var sources []ValiditySource
	var ins []Input
	add := func(file, repo string, n int, summary string) {
		sources = append(sources, ValiditySource{Name: file, Repository: repo})
		for i := range n {
			s := fmt.Sprintf("%s %d", summary, i)
			ins = append(ins, Input{ID: fmt.Sprintf("%s#compaction-%d", file, i+1), Source: fmt.Sprintf("%s:%d", file, i+1), Summary: &s})
		}
	}
	var heldOut []string
	for i := 0; len(heldOut) < 6; i++ {
		if r := fmt.Sprintf("o/r%d", i); HalfOf(r) == HeldOutHalf {
			heldOut = append(heldOut, r)
		}
	}
	add("big.jsonl", heldOut[0], 10, "big")
	add("again.jsonl", heldOut[0], 1, "big") // "big 0" again: a later checkpoint of the same session
	for i, r := range heldOut[1:] {
		add(fmt.Sprintf("small%d.jsonl", i), r, 1, fmt.Sprint("small", i))
	}
	var h *half
	for _, x := range splitReal(ins, sources) {
		if x.name == HeldOutHalf {
			h = x
		}
	}
	// 10 + 5 compactions: k = 1 keeps 6 and 1 <= 1.2; k = 2 keeps 7 and 2 > 1.4.
	if !h.capped || h.perProject != 1 || len(h.ins) != 6 || h.over[heldOut[0]] != 9 || h.repeats != 1 {
		t.Errorf("held-out half: capped %v at %d, %d compactions kept, %v over, %d repeats; want capped at 1, 6 kept, 9 of %s over, 1 repeat",
			h.capped, h.perProject, len(h.ins), h.over, h.repeats, heldOut[0])
	}
	if len(h.projects) != 6 {
		t.Errorf("held-out half: %d projects, want 6", len(h.projects))
	}
}
