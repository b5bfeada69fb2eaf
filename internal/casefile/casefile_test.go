package casefile

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/report"
	"github.com/google/go-cmp/cmp"
)

// TestRoundTrip: what All yields is what Add was given, value for value, for the values
// JSON would change or lose (nil against empty lists, a pointer to an empty summary,
// invalid UTF-8, a line longer than the reader's buffer), read twice; and the folder holds
// no file of it once it is closed.
func TestRoundTrip(t *testing.T) {
	empty := ""
	bad := "cut inside \xe2\x82"
	long := strings.Repeat("<a & b> \u2028 ", 20000)
	cases := []report.Case{
		{ID: "a", Title: "nil lists"},
		{ID: "b", Categories: []string{}, Results: []report.Result{}},
		{ID: "c", Categories: []string{"fenced"}, Origin: "synthetic", IntendedFound: true, Response: long, Intended: long[:100],
			Results: []report.Result{{Extractor: "seed", OK: true, Path: "x", Summary: &empty}, {Extractor: "robust", Summary: &long, Golden: "mismatch", PathOnly: true}}},
		{ID: "d", Response: bad, Results: []report.Result{{Extractor: "seed", Summary: &bad}}},
		{ID: "e", Title: "after the held one"},
	}
	dir := t.TempDir()
	f, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cases {
		if err := f.Add(&cases[i]); err != nil {
			t.Fatal(err)
		}
	}
	if f.Len() != len(cases) {
		t.Errorf("Len() = %d, want %d", f.Len(), len(cases))
	}
	if len(f.held) != 1 {
		t.Errorf("%d cases held in memory, want 1 (the one with invalid UTF-8)", len(f.held))
	}
	for pass := range 2 {
		var got []report.Case
		for c, err := range f.All() {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, *c)
		}
		if diff := cmp.Diff(cases, got); diff != "" {
			t.Errorf("pass %d: All() mismatch (-added +read):\n%s", pass, diff)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("a second Close() = %v, want nil", err)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("the folder holds %d files after Close, want none", len(left))
	}
}

// TestEvalRoundTrip: an eval result read back encodes as the one added did, byte for byte
// (report.json re-encodes it), for the values whose JSON alone would not give it back:
// weighted sums that the JSON rounds (the value it writes is computed before rounding),
// nil against empty lists, and invalid UTF-8, which is held in memory.
func TestEvalRoundTrip(t *testing.T) {
	score := 0.4
	results := []eval.Result{
		{ID: "eval/rounded", Found: true, Path: "last-block", // 1.00004/2.99996 is 0.3334; 1.0/3.0 is 0.3333
			WeightedCoverage:         eval.Weighted{Hit: 1.00004, Of: 2.99996},
			WeightedBoundaryCoverage: eval.Weighted{Hit: 2.00004, Of: 2.99996},
			Score:                    &score, Missed: []eval.Fact{{Kind: "path", Text: "a/b.go", Message: 3, Weight: 1.25}},
			Sections: eval.Sections{Present: []int{}, Missing: []int{1, 2}}},
		{ID: "eval/nil", Missed: nil, Leaked: []eval.Fact{}},
		{ID: "eval/cut", Missed: []eval.Fact{{Kind: "error", Text: "cut inside \xe2\x82"}}},
	}
	f, err := CreateEval(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i := range results {
		if err := f.Add(&results[i]); err != nil {
			t.Fatal(err)
		}
	}
	if len(f.held) != 1 {
		t.Errorf("%d eval results held in memory, want 1 (the one with invalid UTF-8)", len(f.held))
	}
	n := 0
	for r, err := range f.All() {
		if err != nil {
			t.Fatal(err)
		}
		want, err1 := json.Marshal(&results[n])
		got, err2 := json.Marshal(r)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(want, got) {
			t.Errorf("eval result %d read back encodes differently (-added +read):\n%s", n, cmp.Diff(string(want), string(got)))
		}
		if r.Missed != nil && n == 2 && r.Missed[0].Text != results[2].Missed[0].Text {
			t.Errorf("the held result's fact = %q, want %q", r.Missed[0].Text, results[2].Missed[0].Text)
		}
		n++
	}
	if n != len(results) {
		t.Errorf("All() yielded %d eval results, want %d", n, len(results))
	}
}
