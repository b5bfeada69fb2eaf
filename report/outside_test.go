package report_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/report"
)

// TestImportFromAnotherModule builds and runs testdata/outside, a module of its own that
// requires compacteval through a replace directive: it reads a report.json with report and
// fuzzes a function with fuzz, as another project would. Nothing internal is in the way.
func TestImportFromAnotherModule(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("SKIP: go is not on PATH")
	}
	r := &report.Report{SchemaVersion: report.SchemaVersion, Corpus: report.Corpus{Cases: 3},
		Extractors: []report.Extractor{{Name: "mine", External: true}},
		Cases: []report.Case{
			{ID: "a/kept", Results: []report.Result{{Extractor: "mine", MatchesIntended: true}}},
			{ID: "b/lost", Results: []report.Result{{Extractor: "mine"}}},
		}}
	data, err := report.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", ".", file)
	cmd.Dir = filepath.Join("testdata", "outside")
	// The module cache has what the build needs; the network is never asked. -mod=readonly
	// is added to the GOFLAGS the test runs with, not put in their place: under make they
	// hold -trimpath, and without it this build compiled the standard library and the
	// packages it imports a second time on an empty Go cache (docs/testing.md).
	goflags := strings.TrimSpace(os.Getenv("GOFLAGS") + " -mod=readonly")
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+goflags, "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run testdata/outside: %v\n%s", err, out)
	}
	if want := "3 cases, failed [b/lost]\nfuzz failed: false\n"; string(out) != want {
		t.Errorf("testdata/outside printed\n%s\nwant\n%s", out, want)
	}
}
