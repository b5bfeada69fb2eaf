package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/report"
)

// smallReport writes a complete report of one extractor and one case, for the gate.
func smallReport(t *testing.T) string {
	t.Helper()
	r := &report.Report{
		SchemaVersion: report.SchemaVersion, Complete: true, Stages: []string{"extract", "golden", "drift", "eval"},
		Corpus:     report.Corpus{Dir: "embedded", SHA256: "c0ffee", Cases: 1},
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

// corpusWithCase writes one case file of the bundled corpus to dir/name.yaml, with extra
// appended, and returns its path.
func corpusWithCase(t *testing.T, dir, name, extra string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "corpus/cases", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, extra...), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCorpusFmtDeletesNothing: corpus fmt deleted comments and a second document, and
// replaced a linked case file with a copy, all as "rewritten".
func TestCorpusFmtDeletesNothing(t *testing.T) {
	const name = "well-formed/go-grpc-retry-deadline"
	t.Run("comments", func(t *testing.T) {
		dir := t.TempDir()
		path := corpusWithCase(t, dir, name, "# reviewed by hand: keep the deadline wording\n")
		before, _ := os.ReadFile(path)
		lines := strings.Count(string(before), "\n")
		code, out, errOut := runCLI(t, "", "corpus", "fmt", dir)
		after, _ := os.ReadFile(path)
		want := fmt.Sprintf("%s:%d: a YAML comment, which the canonical form does not keep", path, lines)
		if code != exitError || !strings.Contains(errOut, want) || !strings.Contains(errOut, "nothing rewritten") || string(after) != string(before) {
			t.Errorf("corpus fmt of a file with a comment = %d, stdout %q, stderr %q, file changed %v; want 2, %q, the file untouched", code, out, errOut, string(after) != string(before), want)
		}
		if code, out, _ := runCLI(t, "", "corpus", "fmt", "-check", dir); code != exitProblem || !strings.Contains(out, path) {
			t.Errorf("corpus fmt -check of a file with a comment = %d, %q; want 1 listing it", code, out)
		}
	})
	t.Run("second document", func(t *testing.T) {
		dir := t.TempDir()
		path := corpusWithCase(t, dir, name, "---\nversion: 1\n")
		before, _ := os.ReadFile(path)
		if code, out, _ := runCLI(t, "", "corpus", "lint", dir); code != exitProblem || !strings.Contains(out, "a second YAML document") {
			t.Errorf("corpus lint of a second document = %d, %q; want 1", code, out)
		}
		code, _, errOut := runCLI(t, "", "corpus", "fmt", dir)
		after, _ := os.ReadFile(path)
		if code != exitError || !strings.Contains(errOut, "a second YAML document") || string(after) != string(before) {
			t.Errorf("corpus fmt of a second document = %d, %q; want 2 and the file untouched", code, errOut)
		}
	})
	t.Run("linked file", func(t *testing.T) {
		dir, elsewhere := t.TempDir(), t.TempDir()
		target := corpusWithCase(t, elsewhere, name, "")
		// Not canonical: blanks after the title's colon.
		data, _ := os.ReadFile(target)
		os.WriteFile(target, []byte(strings.Replace(string(data), "title: ", "title:   ", 1)), 0o644)
		link := filepath.Join(dir, name+".yaml")
		os.MkdirAll(filepath.Dir(link), 0o755)
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCLI(t, "", "corpus", "fmt", dir)
		fi, err := os.Lstat(link)
		if code != exitOK || err != nil || fi.Mode()&os.ModeSymlink == 0 || !strings.Contains(out, "through the link") {
			t.Fatalf("corpus fmt of a linked case = %d, %q, %q; the link is now %v (%v); want 0 and the link kept", code, out, errOut, fi.Mode(), err)
		}
		if after, _ := os.ReadFile(target); string(after) != string(data) {
			t.Errorf("corpus fmt did not rewrite the link's target to the canonical form")
		}
	})
}

// TestCorpusLintBounds: a binary file gave millions of problem lines; now at most
// corpus.MaxProblemsPerFile and a count, and a file over -max-case-bytes is refused by name.
func TestCorpusLintBounds(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "fenced"), 0o755)
	bin := filepath.Join(dir, "fenced", "blob.yaml")
	data := make([]byte, 20000)
	for i := range data {
		data[i] = byte(i*7 + 1)
	}
	os.WriteFile(bin, data, 0o644)
	code, out, _ := runCLI(t, "", "corpus", "lint", dir)
	if n := strings.Count(out, "\n"); code != exitProblem || n != corpus.MaxProblemsPerFile+1 || !strings.Contains(out, "more problems not shown") {
		t.Errorf("corpus lint of 20000 binary bytes = %d, %d lines; want 1 and %d", code, n, corpus.MaxProblemsPerFile+1)
	}
	code, out, _ = runCLI(t, "", "corpus", "lint", "-max-case-bytes", "1000", dir)
	if want := bin + ": the file is 20000 bytes, over the limit of 1000"; code != exitProblem || !strings.HasPrefix(out, want) || strings.Count(out, "\n") != 1 {
		t.Errorf("corpus lint -max-case-bytes 1000 = %d, %q; want 1 and %q", code, out, want)
	}
	if corpus.MaxCaseBytes != 8<<20 {
		t.Errorf("corpus.MaxCaseBytes = %d after the command, want the default back", corpus.MaxCaseBytes)
	}
	if code, _, errOut := runCLI(t, "", "corpus", "lint", "-max-case-bytes", "0", dir); code != exitError || !strings.Contains(errOut, "-max-case-bytes must be at least 1") {
		t.Errorf("corpus lint -max-case-bytes 0 = %d, %q; want 2", code, errOut)
	}
}
