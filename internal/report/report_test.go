package report

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/google/go-cmp/cmp"
)

const (
	corpusDir = "../../corpus/cases"
	goldenDir = "../../corpus/golden"
)

func TestBuildCorpus(t *testing.T) {
	opt := Options{CorpusDir: corpusDir, GoldenDir: goldenDir, DriftSeed: 1, DriftN: 5}
	r, err := Build(opt)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete || len(r.Problems) != 0 {
		t.Fatalf("Build(bundled corpus): complete %v, problems %+v", r.Complete, r.Problems)
	}
	cases, err := corpus.Load(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Corpus.Cases != len(cases) || len(r.Cases) != len(cases) {
		t.Errorf("report has %d/%d cases, corpus %d", r.Corpus.Cases, len(r.Cases), len(cases))
	}
	// Each extractor's count is the number of its results that match intended.
	for i, e := range r.Extractors {
		n := 0
		for _, c := range r.Cases {
			if c.Results[i].Extractor != e.Name {
				t.Fatalf("results out of order: %s at %d", c.Results[i].Extractor, i)
			}
			if c.Results[i].MatchesIntended {
				n++
			}
		}
		if n != e.Intended {
			t.Errorf("%s: Intended = %d, results say %d", e.Name, e.Intended, n)
		}
	}
	if r.Extractors[0].Name != "seed" {
		t.Errorf("first extractor %s, want seed", r.Extractors[0].Name)
	}
	if r.Eval.Totals.Cases < 30 {
		t.Errorf("eval scored %d cases, want the 30+ eval cases", r.Eval.Totals.Cases)
	}
	// Texts are kept only where a case is shown in detail.
	for _, c := range r.Cases {
		detail := false
		for _, res := range c.Results {
			if res.Summary != nil {
				detail = true
				if res.MatchesIntended || !Detailed[res.Extractor] {
					t.Errorf("%s: %s keeps its summary without a reason", c.ID, res.Extractor)
				}
			}
		}
		if detail != (c.Response != "") {
			t.Errorf("%s: response kept = %v, detailed = %v", c.ID, c.Response != "", detail)
		}
	}
	again, err := Build(opt)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := Marshal(r)
	b, _ := Marshal(again)
	if !bytes.Equal(a, b) {
		t.Errorf("two builds of the same corpus differ")
	}
	back, err := Parse("report.json", a)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := Marshal(back); !bytes.Equal(a, c) {
		t.Errorf("report.json does not survive Parse and Marshal")
	}
}

// TestBuildFindsProblems copies two cases and their goldens, then breaks a golden and
// drops a known deviation: the report must name both.
func TestBuildFindsProblems(t *testing.T) {
	tmp := t.TempDir()
	ids := []string{"well-formed/go-grpc-retry-deadline", "duplicated/three-blocks-ci-sharding"}
	for _, id := range ids {
		copyFile(t, filepath.Join(corpusDir, id+".yaml"), filepath.Join(tmp, "cases", id+".yaml"))
		entries, _ := os.ReadDir(goldenDir)
		for _, ex := range entries {
			copyFile(t, corpus.GoldenPath(goldenDir, ex.Name(), id), corpus.GoldenPath(filepath.Join(tmp, "golden"), ex.Name(), id))
		}
	}
	golden := corpus.GoldenPath(filepath.Join(tmp, "golden"), "robust", ids[0])
	if err := os.WriteFile(golden, []byte("ok: false\npath: none\n--- summary\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	caseFile := filepath.Join(tmp, "cases", ids[1]+".yaml")
	c, err := corpus.ReadFile(caseFile, ids[1])
	if err != nil {
		t.Fatal(err)
	}
	delete(c.KnownDeviations, "seed")
	out, err := corpus.Format(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(caseFile, out, 0o644); err != nil {
		t.Fatal(err)
	}

	r, err := Build(Options{CorpusDir: filepath.Join(tmp, "cases"), GoldenDir: filepath.Join(tmp, "golden"), SkipEval: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range r.Problems {
		got = append(got, p.Kind+" "+p.Case+" "+p.Extractor)
	}
	want := []string{"unlisted-deviation duplicated/three-blocks-ci-sharding seed", "golden-mismatch well-formed/go-grpc-retry-deadline robust"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems mismatch (-want +got):\n%s", diff)
	}
	if r.Complete {
		t.Errorf("a run without drift and eval says it is complete")
	}
	md := string(Markdown(r))
	for _, s := range []string{"Partial run", "2 problems", "**golden-mismatch** `well-formed/go-grpc-retry-deadline` robust"} {
		if !strings.Contains(md, s) {
			t.Errorf("Markdown lacks %q:\n%s", s, md)
		}
	}
	if strings.Index(md, "## Regressions") > strings.Index(md, "## Extractors") {
		t.Errorf("Markdown does not put regressions first")
	}
	data, err := JUnit(r)
	if err != nil {
		t.Fatal(err)
	}
	var doc JUnitSuites
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("JUnit output does not parse: %v\n%s", err, data)
	}
	// Two problems, plus the partial run.
	if doc.Failures != 3 || doc.Tests != 2*len(r.Extractors)+1 {
		t.Errorf("JUnit: %d failures in %d tests, want 3 in %d", doc.Failures, doc.Tests, 2*len(r.Extractors)+1)
	}
}

func TestParseRefusesOtherVersions(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"schema_version": 2}`, "schema version 2"},
		{`{}`, "no schema_version"},
		{`[`, "not a compacteval report"},
		{`{"schema_version": 1, "surprise": true}`, "unknown field"},
	} {
		if _, err := Parse("r.json", []byte(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s) = %v, want an error with %q", tc.in, err, tc.want)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
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
