package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/report"
)

// smallReport writes a complete report of one extractor and one case, for the gate.
func smallReport(t *testing.T) string {
	t.Helper()
	r := &report.Report{
		SchemaVersion: report.SchemaVersion, Complete: true, Stages: []string{"extract", "golden", "drift", "eval"},
		Extractors: []report.Extractor{{Name: "robust", Cases: 1, Intended: 1, Rate: 1, DriftExact: 0.98}},
		Problems:   []report.Problem{},
		Cases:      []report.Case{{ID: "well-formed/a", Results: []report.Result{{Extractor: "robust", MatchesIntended: true}}}},
	}
	path := filepath.Join(t.TempDir(), "report.json")
	writeReport(t, path, r)
	return path
}

// TestGateConfigErrorsExit2: a NaN allowance and a must_pass entry naming an extractor the
// run lacks are config errors (exit 2, gate.yaml's line), not a pass or a regression.
func TestGateConfigErrorsExit2(t *testing.T) {
	run := smallReport(t)
	for _, tc := range []struct {
		name, config, want string
	}{
		{"nan", "version: 1\nallowed_drop:\n  drift_exact: .nan\n", "gate.yaml:3: allowed_drop.drift_exact is NaN"},
		{"nan override", "version: 1\nextractors:\n  robust: {drift_exact: .nan}\n", "gate.yaml:3: extractors.robust.drift_exact is NaN"},
		{"unknown must_pass extractor", "version: 1\nmust_pass:\n  - extractor: robustt\n    cases: ['*']\n", `gate.yaml:3: must_pass names extractor "robustt"`},
	} {
		cfg := filepath.Join(t.TempDir(), "gate.yaml")
		if err := os.WriteFile(cfg, []byte(tc.config), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCLI(t, "", "gate", "-baseline", run, "-config", cfg, run)
		if code != exitError || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: gate = %d, stdout %q, stderr %q; want 2 and %q", tc.name, code, out, errOut, tc.want)
		}
	}
}

// TestDriftSampleBound: a sample count that would need gigabytes is refused at once.
func TestDriftSampleBound(t *testing.T) {
	for _, args := range [][]string{{"drift", "-n", "20000000"}, {"run", "-drift-n", "20000000", "-out", t.TempDir()}} {
		code, out, errOut := runCLI(t, "", args...)
		if code != exitError || !strings.Contains(errOut, "20000000 samples per operator is over the limit of 10000") {
			t.Errorf("%v = %d, stdout %q, stderr %q; want 2 and the limit", args, code, out, errOut)
		}
	}
}

// TestExtractClaudeCodeBounded: 30 KB of "$&" in a summary block wrote 450 MB; the output is
// now bounded by compact.MaxOutput and the cut is reported.
func TestExtractClaudeCodeBounded(t *testing.T) {
	in := "<summary>" + strings.Repeat("$&", 15000) + "</summary>"
	code, out, errOut := runCLI(t, in, "extract", "-extractor", "claude-code")
	if code != exitOK || len(out) > compact.MaxOutput+len(in)+1 || !strings.Contains(errOut, "stopped expanding") {
		t.Errorf("extract -extractor claude-code of 30 KB of $& = %d, %d bytes out, stderr %q; want 0, at most %d bytes and a warning", code, len(out), errOut, compact.MaxOutput+len(in)+1)
	}
}
