package casefile

import (
	"os"
	"strings"
	"testing"

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
