package corpus_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestOpenLazy holds OpenLazy, and OpenHolding with budgets of half and all of the cases'
// texts, to Open: the same sources, problems, repeated files, digest and entries,
// and Read gives the cases Open holds, held or from the files again, for corpora with a
// case replaced by a later source, a case file read twice and one that does not load.
func TestOpenLazy(t *testing.T) {
	dir := t.TempDir()
	src, err := filepath.Glob("cases/eval/*.yaml")
	if err != nil || len(src) < 2 {
		t.Fatalf("want two eval cases, got %v, %v", src, err)
	}
	for _, f := range src[:2] {
		copyCase(t, f, filepath.Join(dir, "eval", filepath.Base(f)))
	}
	if err := os.WriteFile(filepath.Join(dir, "eval", "broken.yaml"), []byte("version: 1\nid: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, values := range [][]string{
		nil, // the embedded corpus
		{corpus.EmbeddedLabel, dir, dir},
	} {
		whole, err := corpus.Open(values)
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, e := range whole.Entries() {
			total += e.Bytes
		}
		// The embedded corpus alone is held within its texts' size; the three sources, with
		// a replaced case and a file read twice, hold past half of it and drop them all.
		opens := map[string]func([]string) (*corpus.Corpus, error){"OpenLazy": corpus.OpenLazy}
		if values == nil {
			opens["OpenHolding(all)"] = func(v []string) (*corpus.Corpus, error) { return corpus.OpenHolding(v, total) }
		} else {
			opens["OpenHolding(half)"] = func(v []string) (*corpus.Corpus, error) { return corpus.OpenHolding(v, total/2) }
		}
		for name, open := range opens {
			t.Run(name, func(t *testing.T) { checkLazy(t, values, whole, open) })
		}
	}
}

// checkLazy holds a corpus that open reads from values to whole, which Open read.
func checkLazy(t *testing.T, values []string, whole *corpus.Corpus, open func([]string) (*corpus.Corpus, error)) {
	t.Helper()
	lazy, err := open(values)
	if err != nil {
		t.Fatal(err)
	}
	if lazy.Cases != nil {
		t.Errorf("OpenLazy(%q).Cases holds %d cases, want nil", values, len(lazy.Cases))
	}
	ignore := cmpopts.IgnoreFields(corpus.Source{}, "Golden")
	if diff := cmp.Diff(whole.Sources, lazy.Sources, ignore); diff != "" {
		t.Errorf("OpenLazy(%q) sources mismatch (-Open +OpenLazy):\n%s", values, diff)
	}
	if diff := cmp.Diff(whole.Problems, lazy.Problems); diff != "" {
		t.Errorf("OpenLazy(%q) problems mismatch (-Open +OpenLazy):\n%s", values, diff)
	}
	if diff := cmp.Diff(whole.Repeated, lazy.Repeated); diff != "" {
		t.Errorf("OpenLazy(%q) repeated mismatch (-Open +OpenLazy):\n%s", values, diff)
	}
	if whole.Digest() != lazy.Digest() || whole.Digest() != corpus.Digest(whole.Cases) || whole.Len() != lazy.Len() || whole.Len() != len(whole.Cases) {
		t.Errorf("OpenLazy(%q): digest %s and %d cases, Open: %s and %d", values, lazy.Digest(), lazy.Len(), whole.Digest(), whole.Len())
	}
	entries := lazy.Entries()
	if diff := cmp.Diff(whole.Entries(), entries, cmpopts.IgnoreUnexported(corpus.Entry{})); diff != "" {
		t.Errorf("OpenLazy(%q) entries mismatch (-Open +OpenLazy):\n%s", values, diff)
	}
	got, err := lazy.Read(entries)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(whole.Cases, got); diff != "" {
		t.Errorf("OpenLazy(%q).Read mismatch (-Open +OpenLazy):\n%s", values, diff)
	}
	if len(got) > 0 && got[0] == whole.Cases[0] {
		t.Errorf("Read returned Open's case: the test compares nothing")
	}
	if some, err := lazy.Read(entries[1:2]); err != nil || len(some) != 1 || some[0].ID != entries[1].ID {
		t.Errorf("Read(entries[1:2]) = %d cases, %v; want %s", len(some), err, entries[1].ID)
	}
}

// TestReadChanged: a case file changed or removed after OpenLazy is an error naming it.
func TestReadChanged(t *testing.T) {
	testReadChanged(t, corpus.OpenLazy)
}

// TestReadChangedHeld: OpenHolding holds every case or none: with a budget for both
// cases Read finds neither changed, with a budget a byte short of that, or none, it reads
// both again and finds both changed.
func TestReadChangedHeld(t *testing.T) {
	testReadChanged(t, func(v []string) (*corpus.Corpus, error) { return corpus.OpenHolding(v, 0) })
	for _, spare := range []int{0, 1} {
		dir, files := twoCases(t)
		probe, err := corpus.OpenLazy([]string{dir})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := probe.Read(probe.Entries())
		both := probe.Entries()[0].Bytes + probe.Entries()[1].Bytes
		c, err := corpus.OpenHolding([]string{dir}, both-1+spare)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, append(data, "# a comment\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := c.Read(c.Entries())
		named := 0
		for _, f := range files {
			if err != nil && strings.Contains(err.Error(), f) {
				named++
			}
		}
		switch {
		case spare == 1 && (err != nil || len(got) != 2 || got[0].SHA256 != want[0].SHA256 || got[1].SHA256 != want[1].SHA256):
			t.Errorf("OpenHolding with a budget for both cases: Read after a change = %d cases, %v; want both as they were opened", len(got), err)
		case spare == 0 && (!errors.Is(err, corpus.ErrChanged) || named != 2):
			t.Errorf("OpenHolding with a budget a byte short of both cases: Read after a change of both = %v, want ErrChanged naming both files", err)
		}
	}
}

func testReadChanged(t *testing.T, open func([]string) (*corpus.Corpus, error)) {
	t.Helper()
	dir, files := twoCases(t)
	c, err := open([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	entries := c.Entries()
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files[0], append(data, "# a comment\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Read(entries); !errors.Is(err, corpus.ErrChanged) || !strings.Contains(err.Error(), files[0]) {
		t.Errorf("Read() after a change = %v, want ErrChanged naming %s", err, files[0])
	}
	if err := os.Remove(files[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Read(entries[1:]); err == nil || !strings.Contains(err.Error(), files[1]) {
		t.Errorf("Read() of a removed file = %v, want an error naming %s", err, files[1])
	}
}

// twoCases copies the first two bundled eval cases into a new corpus folder and returns
// it and the two files.
func twoCases(t *testing.T) (dir string, files []string) {
	t.Helper()
	dir = t.TempDir()
	src, err := filepath.Glob("cases/eval/*.yaml")
	if err != nil || len(src) < 2 {
		t.Fatalf("want two eval cases, got %v, %v", src, err)
	}
	for _, f := range src[:2] {
		files = append(files, filepath.Join(dir, "eval", filepath.Base(f)))
		copyCase(t, f, files[len(files)-1])
	}
	return dir, files
}

func copyCase(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHeld: Held says whether Read reads no file: true for Open and for OpenHolding within
// its budget, false for OpenLazy and for OpenHolding over it.
func TestHeld(t *testing.T) {
	dir, _ := twoCases(t)
	values := []string{dir}
	lazy, err := corpus.OpenLazy(values)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, e := range lazy.Entries() {
		total += e.Bytes
	}
	for _, tc := range []struct {
		name string
		open func() (*corpus.Corpus, error)
		want bool
	}{
		{"Open", func() (*corpus.Corpus, error) { return corpus.Open(values) }, true},
		{"OpenLazy", func() (*corpus.Corpus, error) { return corpus.OpenLazy(values) }, false},
		{"OpenHolding within", func() (*corpus.Corpus, error) { return corpus.OpenHolding(values, total) }, true},
		{"OpenHolding a byte short", func() (*corpus.Corpus, error) { return corpus.OpenHolding(values, total-1) }, false},
	} {
		c, err := tc.open()
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Held(); got != tc.want {
			t.Errorf("%s: Held() = %v, want %v", tc.name, got, tc.want)
		}
	}
}
