package pipeline

import (
	"bytes"
	"context"
	"encoding/xml"
	"html"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/render"
	"github.com/compacteval/compacteval/report"
	"github.com/google/go-cmp/cmp"
)

const (
	corpusDir = "../../corpus/cases"
	goldenDir = "../../corpus/golden"
)

// options runs every built-in extractor on the corpus folder dir.
func options(t *testing.T, dir string, driftN int) Options {
	t.Helper()
	c, err := corpus.Open([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return Options{Corpus: c, Extractors: extractor.Builtins(), DriftSeed: 1, DriftN: driftN}
}

var (
	corpusOnce sync.Once
	corpusRep  *report.Report
	corpusErr  error
)

// corpusReport runs the real corpus once per test binary.
func corpusReport(t *testing.T) *report.Report {
	t.Helper()
	corpusOnce.Do(func() {
		corpusRep, corpusErr = Run(context.Background(), options(t, corpusDir, 20))
	})
	if corpusErr != nil {
		t.Fatalf("Run() error: %v", corpusErr)
	}
	return corpusRep
}

func TestBuildCorpus(t *testing.T) {
	opt := options(t, corpusDir, 5)
	r, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete || len(r.Problems) != 0 {
		t.Fatalf("Run(corpus): complete %v, problems %+v", r.Complete, r.Problems)
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
				if res.MatchesIntended || !report.Detailed[res.Extractor] {
					t.Errorf("%s: %s keeps its summary without a reason", c.ID, res.Extractor)
				}
			}
		}
		if detail != (c.Response != "") {
			t.Errorf("%s: response kept = %v, detailed = %v", c.ID, c.Response != "", detail)
		}
	}
	again, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := report.Marshal(r)
	b, _ := report.Marshal(again)
	if !bytes.Equal(a, b) {
		t.Errorf("two builds of the same corpus differ")
	}
	back, err := report.Parse("report.json", a)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := report.Marshal(back); !bytes.Equal(a, c) {
		t.Errorf("report.json does not survive Parse and report.Marshal")
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

	cs, err := corpus.Open([]string{filepath.Join(tmp, "cases")})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), Options{Corpus: cs, Extractors: extractor.Builtins(), SkipEval: true})
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
	mdData, err := render.Markdown(r)
	if err != nil {
		t.Fatal(err)
	}
	md := string(mdData)
	for _, s := range []string{"Partial run", "**Regressed: 2 problems in 2 cases.**", "| `well-formed/go-grpc-retry-deadline` | robust | golden mismatch | line-anchored (golden: none) |"} {
		if !strings.Contains(md, s) {
			t.Errorf("Markdown lacks %q:\n%s", s, md)
		}
	}
	if strings.Index(md, "## Regressions") > strings.Index(md, "## Extractors") {
		t.Errorf("Markdown does not put regressions first")
	}
	data, err := render.JUnit(r)
	if err != nil {
		t.Fatal(err)
	}
	var doc render.JUnitSuites
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("JUnit output does not parse: %v\n%s", err, data)
	}
	// Two problems, plus the partial run.
	if doc.Failures != 3 || doc.Tests != 2*len(r.Extractors)+1 {
		t.Errorf("JUnit: %d failures in %d tests, want 3 in %d", doc.Failures, doc.Tests, 2*len(r.Extractors)+1)
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

func TestHTMLCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the report of the whole corpus")
	}
	r := corpusReport(t)
	out, err := render.HTML(r)
	if err != nil {
		t.Fatal(err)
	}
	page := string(out)
	responses := 0
	for _, c := range r.Cases {
		responses += len(c.Response)
		kept := false
		for _, res := range c.Results {
			kept = kept || res.Summary != nil
		}
		if kept && !strings.Contains(page, html.EscapeString(c.ID)) {
			t.Errorf("HTML() lacks the detail of %s", c.ID)
		}
	}
	// responses are shown once; diffs keep only the ends of long changes
	if limit := 2*responses + 2<<20; len(page) > limit {
		t.Errorf("HTML() is %d bytes for %d bytes of responses, want at most %d", len(page), responses, limit)
	}
	t.Logf("report.html: %d bytes, %d bytes of responses", len(page), responses)
}
