package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/google/go-cmp/cmp"
)

func TestDriftTable(t *testing.T) {
	code, out, errOut := runCLI(t, "", "drift", "-n", "2")
	if code != exitOK {
		t.Fatalf("drift -n 2 = %d, stderr %q; want 0", code, errOut)
	}
	rows := map[string]int{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			rows[f[0]]++
		}
	}
	for _, op := range drift.OperatorNames() {
		if rows[op] != 2 {
			t.Errorf("drift table has %d rows for operator %s, want 2 (single and composed)", rows[op], op)
		}
	}
	if rows["identity"] != 1 || rows["total"] != 2 || rows["all"] != 1 {
		t.Errorf("drift table: identity, total and all-samples rows = %d, %d, %d; want 1, 2, 1", rows["identity"], rows["total"], rows["all"])
	}
	header := ""
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "operator ") {
			header = line
			break
		}
	}
	for _, name := range compact.ExtractorNames() {
		if !strings.Contains(header, " "+name) {
			t.Errorf("drift table header %q lacks extractor %s", header, name)
		}
	}
	if code, again, _ := runCLI(t, "", "drift", "-n", "2"); code != exitOK || again != out {
		t.Errorf("drift -n 2 twice gives different output:\n%s", cmp.Diff(out, again))
	}
}

func TestDriftJSON(t *testing.T) {
	code, out, errOut := runCLI(t, "", "drift", "-json", "-n", "2", "-seed", "5")
	if code != exitOK {
		t.Fatalf("drift -json = %d, stderr %q; want 0", code, errOut)
	}
	var m drift.MatrixResult
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("drift -json is not one JSON document: %v\n%.300s", err, out)
	}
	if m.Seed != 5 || m.N != 2 || !cmp.Equal(m.Operators, drift.OperatorNames()) || !cmp.Equal(m.Extractors, compact.ExtractorNames()) {
		t.Errorf("drift -json: seed %d, n %d, operators %v, extractors %v", m.Seed, m.N, m.Operators, m.Extractors)
	}
	if len(m.Single) != len(m.Operators) || m.Total.Samples == 0 || len(m.Total.Cells) != len(m.Extractors) {
		t.Errorf("drift -json: %d single rows, %d samples, %d total cells", len(m.Single), m.Total.Samples, len(m.Total.Cells))
	}
	for _, key := range []string{`"single_total"`, `"analysis_leaked"`, `"summary_lost"`, `"intended_found"`} {
		if !strings.Contains(out, key) {
			t.Errorf("drift -json lacks the key %s", key)
		}
	}
	if _, again, _ := runCLI(t, "", "drift", "-json", "-n", "2", "-seed", "5"); again != out {
		t.Errorf("drift -json with the same seed differs")
	}
	if _, other, _ := runCLI(t, "", "drift", "-json", "-n", "2", "-seed", "6"); other == out {
		t.Errorf("drift -json with seeds 5 and 6 gives the same document")
	}
}

func TestDriftCorpusFlag(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "well-formed"), 0o755)
	data, err := os.ReadFile(filepath.Join(repoRoot, "corpus/cases/well-formed/go-grpc-retry-deadline.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "well-formed", "go-grpc-retry-deadline.yaml"), data, 0o644)
	code, out, errOut := runCLI(t, "", "drift", "-json", "-n", "1", "-corpus", dir)
	var m drift.MatrixResult
	if code != exitOK || json.Unmarshal([]byte(out), &m) != nil || !cmp.Equal(m.Pairs, []string{"well-formed/go-grpc-retry-deadline"}) {
		t.Errorf("drift -corpus with one case = %d, pairs %v, stderr %q; want 0 and that pair", code, m.Pairs, errOut)
	}
}

func TestDriftExitCodes(t *testing.T) {
	empty := t.TempDir()
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
		reason string
	}{
		{[]string{"drift", "-h"}, exitOK, "Usage: compacteval drift", "help is not an error"},
		{[]string{"drift", "-bogus"}, exitError, "flag provided but not defined", "unknown flag"},
		{[]string{"drift", "-n", "0"}, exitError, "want at least 1", "no samples"},
		{[]string{"drift", "extra"}, exitError, `unexpected argument "extra"`, "drift takes no arguments"},
		{[]string{"drift", "-corpus", filepath.Join(empty, "missing")}, exitError, "missing", "unreadable corpus"},
		{[]string{"drift", "-corpus", empty}, exitError, "no cases in", "nothing to mutate"},
	} {
		code, out, errOut := runCLI(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.stderr) {
			t.Errorf("%v = %d, stderr %q; want %d and %q (%s)", tc.args, code, errOut, tc.code, tc.stderr, tc.reason)
		}
		if out != "" {
			t.Errorf("%v wrote %q to stdout, want nothing", tc.args, out)
		}
	}
}
