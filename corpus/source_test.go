package corpus_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/google/go-cmp/cmp"
)

// TestOpenSameFileTwice: a case file reached through a second -corpus (the same folder, its
// category folder, a link to it) is read once, from the first, and listed in Repeated.
func TestOpenSameFileTwice(t *testing.T) {
	src, err := filepath.Glob("cases/eval/*.yaml")
	if err != nil || len(src) < 2 {
		t.Fatalf("want two eval cases, got %v, %v", src, err)
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "eval"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range src[:2] {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "eval", filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(t.TempDir(), "eval") // a category name: ids come from its parent
	if err := os.Symlink(filepath.Join(dir, "eval"), link); err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(dir, "eval", filepath.Base(src[0]))
	c, err := corpus.Open([]string{dir, dir, filepath.Join(dir, "eval"), link, one})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Cases) != 2 || len(c.Problems) != 0 {
		t.Errorf("Open() = %d cases, problems %v; want the 2 cases once", len(c.Cases), c.Problems)
	}
	var got []int
	for _, s := range c.Sources {
		got = append(got, s.Cases, s.Replaced)
	}
	// (cases, replaced) per source: only the first gives any, and none is replaced.
	if diff := cmp.Diff([]int{2, 0, 0, 0, 0, 0, 0, 0, 0, 0}, got); diff != "" {
		t.Errorf("Open() sources mismatch (-want +got):\n%s", diff)
	}
	if len(c.Repeated) != 7 {
		t.Errorf("Open() Repeated = %q, want the 7 files read again", c.Repeated)
	}
}
