package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/compacteval/compacteval/internal/report"
)

// bundledRun is the output folder of one compacteval run on the bundled corpus (with the
// defaults make test's gate uses), shared by the tests of this file; TestMain removes it.
var bundledRun = sync.OnceValues(func() (string, error) {
	return os.MkdirTemp("", "compacteval-run-")
})

// cleanup removes what the tests of this package share once they are done.
func cleanup() {
	if dir, err := bundledRun(); err == nil {
		os.RemoveAll(dir)
	}
}

func runBundled(t *testing.T) string {
	t.Helper()
	dir, err := bundledRun()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.json")); err == nil {
		return dir
	}
	code, out, errOut := runCLI(t, "", "run", "-out", dir)
	if code != exitOK {
		t.Fatalf("run on the bundled corpus = %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"extractor", "seed", "robust", "no problems", "report.html"} {
		if !strings.Contains(out, want) {
			t.Errorf("run stdout lacks %q:\n%s", want, out)
		}
	}
	for _, stage := range []string{"extract...", "drift...", "eval..."} {
		if !strings.Contains(errOut, stage) {
			t.Errorf("run stderr lacks the plain progress line %q:\n%s", stage, errOut)
		}
	}
	return dir
}

func TestRunWritesReports(t *testing.T) {
	dir := runBundled(t)
	r, err := report.Read(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete || len(r.Problems) != 0 || len(r.Extractors) < 7 {
		t.Errorf("report: complete %v, %d problems, %d extractors", r.Complete, len(r.Problems), len(r.Extractors))
	}
	for _, name := range []string{"report.md", "report.html"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(data) == 0 {
			t.Errorf("%s: %v (%d bytes)", name, err, len(data))
		}
	}
}

func TestRunErrors(t *testing.T) {
	if code, _, errOut := runCLI(t, "", "run", "-corpus", filepath.Join(t.TempDir(), "none"), "-out", t.TempDir()); code != exitError || !strings.Contains(errOut, "none") {
		t.Errorf("run on a missing corpus = %d, %q; want 2 naming it", code, errOut)
	}
	if code, _, _ := runCLI(t, "", "run", "-drift-n", "0"); code != exitError {
		t.Errorf("run -drift-n 0 = %d, want 2", code)
	}
}

func TestReportFormats(t *testing.T) {
	path := filepath.Join(runBundled(t), "report.json")
	code, md, _ := runCLI(t, "", "report", path)
	if code != exitOK || !strings.HasPrefix(md, "# compacteval report") || !strings.Contains(md, "## Regressions") {
		t.Errorf("report (md) = %d, %.200q", code, md)
	}
	code, junit, _ := runCLI(t, "", "report", "-format", "junit", path)
	var doc report.JUnitSuites
	if code != exitOK || xml.Unmarshal([]byte(junit), &doc) != nil || doc.Tests == 0 || doc.Failures != 0 {
		t.Errorf("report -format junit = %d, %d tests, %d failures", code, doc.Tests, doc.Failures)
	}
	out := filepath.Join(t.TempDir(), "r.html")
	if code, _, errOut := runCLI(t, "", "report", "-format", "html", "-o", out, path); code != exitOK {
		t.Errorf("report -format html -o = %d, %s", code, errOut)
	}
	if data, err := os.ReadFile(out); err != nil || !strings.Contains(string(data), "<svg") {
		t.Errorf("report.html: %v, %d bytes", err, len(data))
	}
	if code, _, _ := runCLI(t, "", "report", "-format", "pdf", path); code != exitError {
		t.Errorf("report -format pdf = %d, want 2", code)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"schema_version": 9}`), 0o644)
	if code, _, errOut := runCLI(t, "", "report", bad); code != exitError || !strings.Contains(errOut, "schema version 9") {
		t.Errorf("report of another schema = %d, %q; want 2", code, errOut)
	}
}

// TestGateRepositoryBaseline is this repository's own gate: the bundled corpus run against
// the committed baseline with the committed gate.yaml.
func TestGateRepositoryBaseline(t *testing.T) {
	path := filepath.Join(runBundled(t), "report.json")
	tmp := t.TempDir()
	code, out, errOut := runCLI(t, "", "gate", "-baseline", "reports/baseline.json", "-config", "gate.yaml",
		"-junit", filepath.Join(tmp, "gate.xml"), "-markdown", filepath.Join(tmp, "gate.md"), path)
	if code != exitOK || !strings.Contains(out, "gate passed") {
		t.Fatalf("gate against reports/baseline.json = %d\n%s%s", code, out, errOut)
	}
	md, _ := os.ReadFile(filepath.Join(tmp, "gate.md"))
	if !strings.Contains(string(md), "compacteval gate: passed") {
		t.Errorf("gate -markdown wrote %q", md)
	}
}

func TestGateRegressionsAndErrors(t *testing.T) {
	path := filepath.Join(runBundled(t), "report.json")
	r, err := report.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	baseline := filepath.Join(tmp, "baseline.json")
	if code, out, errOut := runCLI(t, "", "gate", "-bless", "-baseline", baseline, path); code != exitOK || !strings.Contains(out, "blessed") {
		t.Fatalf("gate -bless = %d\n%s%s", code, out, errOut)
	}

	// Robust stops handling one case.
	var lost string
	for i, c := range r.Cases {
		for j, res := range c.Results {
			if res.Extractor == "robust" && lost == "" {
				r.Cases[i].Results[j].MatchesIntended = false
				lost = c.ID
			}
		}
	}
	worse := filepath.Join(tmp, "worse.json")
	writeReport(t, worse, r)
	junit := filepath.Join(tmp, "gate.xml")
	code, out, _ := runCLI(t, "", "gate", "-baseline", baseline, "-junit", junit, worse)
	if want := lost + ": robust intended pass -> fail (allowed 0 of 1 lost cases)"; code != exitProblem || !strings.Contains(out, want) {
		t.Errorf("gate on a lost case = %d\n%s\nwant exit 1 and %q", code, out, want)
	}
	data, _ := os.ReadFile(junit)
	var doc report.JUnitSuites
	if err := xml.Unmarshal(data, &doc); err != nil || doc.Failures != 2 {
		t.Errorf("gate -junit: %v, %d failures, want 2 (the lost case and the rate)", err, doc.Failures)
	}

	r.Complete = false
	partial := filepath.Join(tmp, "partial.json")
	writeReport(t, partial, r)
	if code, _, errOut := runCLI(t, "", "gate", "-baseline", baseline, partial); code != exitError || !strings.Contains(errOut, "partial") {
		t.Errorf("gate on a partial run = %d, %q; want 2", code, errOut)
	}
	if code, _, _ := runCLI(t, "", "gate", "-bless", "-baseline", filepath.Join(tmp, "b2.json"), partial); code != exitError {
		t.Errorf("gate -bless of a partial run = %d, want 2", code)
	}
	if code, _, errOut := runCLI(t, "", "gate", "-baseline", filepath.Join(tmp, "missing.json"), path); code != exitError || !strings.Contains(errOut, "missing.json") {
		t.Errorf("gate with a missing baseline = %d, %q; want 2", code, errOut)
	}
	badCfg := filepath.Join(tmp, "gate.yaml")
	os.WriteFile(badCfg, []byte("version: 1\nallowed_drop:\n  coverag: 0.1\n"), 0o644)
	if code, _, errOut := runCLI(t, "", "gate", "-baseline", baseline, "-config", badCfg, path); code != exitError || !strings.Contains(errOut, "gate.yaml:3") {
		t.Errorf("gate with a bad config = %d, %q; want 2 with file:line", code, errOut)
	}
	if code, _, _ := runCLI(t, "", "gate", path); code != exitError {
		t.Errorf("gate without -baseline = %d, want 2", code)
	}
}

func writeReport(t *testing.T, path string, r *report.Report) {
	t.Helper()
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
