package corpus_test

import (
	"errors"
	"flag"
	"github.com/compacteval/compacteval/internal/testhelp/testref"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/atomicfile"
	"github.com/compacteval/compacteval/internal/protocol"
	"github.com/compacteval/compacteval/internal/textdiff"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "update golden files")

const (
	casesDir  = "cases"
	goldenDir = "golden"
)

func loadAll(t *testing.T) []*corpus.Case {
	t.Helper()
	cases, err := corpus.Load(casesDir)
	if err != nil {
		t.Fatalf("corpus.Load(%s):\n%v", casesDir, err)
	}
	if len(cases) == 0 {
		t.Fatalf("corpus.Load(%s) found no cases", casesDir)
	}
	return cases
}

func TestCorpusSize(t *testing.T) {
	cases := loadAll(t)
	if len(cases) < 150 {
		t.Errorf("the corpus has %d cases, want at least 150", len(cases))
	}
	count := map[string]int{}
	largest := 0
	for _, c := range cases {
		largest = max(largest, len(c.Response))
		for _, cat := range c.Categories {
			count[cat]++
		}
	}
	for _, cat := range corpus.Categories {
		if count[cat] < 10 {
			t.Errorf("category %s has %d cases, want at least 10", cat, count[cat])
		}
	}
	// One answer uses (nearly) the whole max_tokens budget, at 4 characters a token.
	if want := compact.MaxTokens * 4 * 98 / 100; largest < want {
		t.Errorf("the largest response has %d characters, want one of at least %d (a full %d-token answer)", largest, want, compact.MaxTokens)
	}
}

// TestNoUnreviewedCases keeps recordings that wait in corpus/inbox for a person's judgement
// out of the corpus the gate stands on.
func TestNoUnreviewedCases(t *testing.T) {
	for _, c := range loadAll(t) {
		if strings.Contains(c.Notes, corpus.Unreviewed) {
			t.Errorf("%s: notes say %q: judge intended and summary_flaws, then edit the notes", c.File, corpus.Unreviewed)
		}
	}
}

// TestRoundTrip formats every case canonically and reads it back: every byte of the
// response and the intended summary must survive, CR, U+2028, U+0085 and BOM included.
func TestRoundTrip(t *testing.T) {
	for _, c := range loadAll(t) {
		out, err := corpus.Format(c)
		if err != nil {
			t.Errorf("Format(%s): %v", c.ID, err)
			continue
		}
		back, err := corpus.Parse(c.File, out, c.ID)
		if err != nil {
			t.Errorf("Parse(Format(%s)): %v\n%s", c.ID, err, out)
			continue
		}
		if diff := cmp.Diff(c, back); diff != "" {
			t.Errorf("Parse(Format(%s)) mismatch (-want +got):\n%s", c.ID, diff)
		}
	}
}

func TestGolden(t *testing.T) {
	cases := loadAll(t)
	for _, ex := range compact.Extractors() {
		for _, c := range cases {
			got := ex.Extract(c.Response)
			path := corpus.GoldenPath(goldenDir, ex.Name, c.ID)
			if *update {
				if err := atomicfile.Write(path, corpus.FormatGolden(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%s: %v (run 'go test ./corpus -run Golden -update' and read the diff)", c.ID, err)
				continue
			}
			want, err := corpus.ParseGolden(data)
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			if got != want {
				t.Errorf("%s on %s differs from %s (-golden +got):\n%s"+
					"You can run 'go test ./corpus -run Golden -update' if the change is intended; read the diff first.",
					ex.Name, c.ID, path, corpus.GoldenDiff(want, got))
			}
		}
	}
	checkNoStaleGoldens(t, cases)
}

// checkNoStaleGoldens fails on golden files whose case or extractor no longer exists; with
// -update it deletes them.
func checkNoStaleGoldens(t *testing.T, cases []*corpus.Case) {
	t.Helper()
	want := map[string]bool{}
	for _, ex := range compact.Extractors() {
		for _, c := range cases {
			want[filepath.Clean(corpus.GoldenPath(goldenDir, ex.Name, c.ID))] = true
		}
	}
	filepath.WalkDir(goldenDir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !want[filepath.Clean(path)] {
			if *update {
				if err := os.Remove(path); err != nil {
					t.Error(err)
				}
				return nil
			}
			t.Errorf("stale golden file %s: no such case or extractor (-update deletes it)", path)
		}
		return nil
	})
}

// TestGoldenSeedMatchesReference checks the seed goldens against the reference module itself,
// so they are never just the port agreeing with itself.
func TestGoldenSeedMatchesReference(t *testing.T) {
	argv, err := protocol.ReferenceCommand(".")
	if errors.Is(err, protocol.ErrNoReference) {
		testref.Missing(t, "seed goldens against the reference", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	ref, err := protocol.Start(argv)
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	cases := loadAll(t)
	reqs := make([]protocol.Request, len(cases))
	for i, c := range cases {
		reqs[i] = protocol.Request{Op: "extract", Text: protocol.Str(c.Response)}
	}
	answers, err := ref.DoAll(reqs)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		data, err := os.ReadFile(corpus.GoldenPath(goldenDir, "seed", c.ID))
		if err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		golden, err := corpus.ParseGolden(data)
		if err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		a := answers[i]
		refOK := a.Summary != nil
		refSummary := ""
		if refOK {
			refSummary = *a.Summary
		}
		if golden.OK != refOK || golden.Summary != refSummary {
			t.Errorf("seed golden of %s differs from the reference (-golden +reference): ok %v -> %v\n%s",
				c.ID, golden.OK, refOK, textdiff.Unified(golden.Summary, refSummary, 3))
		}
	}
}

// TestKnownDeviations fails when an extractor's deviation from intended appears or
// disappears without the case's known_deviations changing.
func TestKnownDeviations(t *testing.T) {
	for _, c := range loadAll(t) {
		for _, p := range corpus.CheckDeviations(c, compact.Extractors()) {
			t.Error(p)
		}
	}
}

// TestBadFiles reads testdata/bad/*.yaml: each file's first line is "# want: " followed by
// the problems expected, separated by " | ", as they are printed without the file name.
func TestBadFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/bad/*.yaml")
	if len(files) == 0 {
		t.Fatal("no testdata/bad/*.yaml")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(data), "\n")
			wantLine, ok := strings.CutPrefix(first, "# want: ")
			if !ok {
				t.Fatalf("%s: first line must be '# want: ...'", file)
			}
			_, err = corpus.Parse(file, data, "")
			var ps corpus.Problems
			if !errors.As(err, &ps) {
				t.Fatalf("Parse(%s) = %v, want problems %q", file, err, wantLine)
			}
			var got []string
			for _, p := range ps {
				got = append(got, strings.TrimPrefix(p.String(), file+":"))
			}
			if diff := cmp.Diff(strings.Split(wantLine, " | "), got); diff != "" {
				t.Errorf("Parse(%s) problems mismatch (-want +got):\n%s", file, diff)
			}
		})
	}
}
