package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/eval"
)

func TestScoreTable(t *testing.T) {
	code, out, errOut := runCLI(t, "", "score", "eval/testdata/cases")
	if code != exitOK {
		t.Fatalf("score eval/testdata/cases = %d, stderr %q; want 0", code, errOut)
	}
	for _, want := range []string{
		"case", "cover", "bound", "eval/export-timeout-yield-per", "total (mean)", "7 cases, 7 with a summary.",
		"eval/export-timeout-retells-tail\n  missed 1:\n    [3] state worker is killed\n  leaked 2:\n    [14] command pytest tests/test_metrics.py -q",
		"misattributed 1:\n    [5] fake-user-turn rotate the signing key every 24 hours",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("score table lacks %q:\n%s", want, out)
		}
	}
}

func TestScoreJSON(t *testing.T) {
	code, out, errOut := runCLI(t, "", "score", "-json", "-window", "4", "eval/testdata/cases/eval/session-store-refactor.yaml", "eval/testdata/pi/v2.jsonl", "eval/testdata/claude/transcript.jsonl")
	if code != exitOK {
		t.Fatalf("score -json = %d, stderr %q", code, errOut)
	}
	var r eval.Report
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("score -json is not one report: %v\n%s", err, out)
	}
	if dec.More() {
		t.Errorf("score -json wrote more than one document")
	}
	if r.SchemaVersion != eval.SchemaVersion || r.BoundaryWindow != 4 || r.Extractor != "seed" || len(r.Cases) != 5 || r.Totals.Cases != 5 {
		t.Errorf("report = schema %d, window %d, extractor %q, %d cases, totals %d; want %d, 4, seed, 5, 5",
			r.SchemaVersion, r.BoundaryWindow, r.Extractor, len(r.Cases), r.Totals.Cases, eval.SchemaVersion)
	}
	var formats []string
	for _, s := range r.Sources {
		formats = append(formats, s.Format)
	}
	if strings.Join(formats, " ") != "corpus pi claude" {
		t.Errorf("source formats = %v, want corpus pi claude (detected)", formats)
	}
	if r.Cases[0].Path != "line-anchored" || r.Cases[1].Path != "given" || r.Cases[2].PreviousSummarySurvival == nil {
		t.Errorf("cases = %q, %q, survival %v; want the corpus response extracted, the session summary given, the second compaction's survival", r.Cases[0].Path, r.Cases[1].Path, r.Cases[2].PreviousSummarySurvival)
	}
	if !strings.Contains(out, `"value": null`) && !strings.Contains(out, `"value":null`) {
		t.Errorf("score -json never writes a null share; the Claude Code cases keep no tail, so tail_leakage has none:\n%.400s", out)
	}
}

func TestScoreSessionNotes(t *testing.T) {
	code, out, errOut := runCLI(t, "", "score", "eval/testdata/pi/v3.jsonl")
	if code != exitOK || !strings.Contains(out, "eval/testdata/pi/v3.jsonl#compaction-1") {
		t.Fatalf("score v3.jsonl = %d, %q, %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "unknown fancy_new_entry 1, role hologram 1") {
		t.Errorf("stderr = %q; want the unknown entry type and role counted", errOut)
	}
}

func TestScoreErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("{\"type\":\"session\",\"version\":3,\"id\":\"x\"}\n{\"type\":\"message\",\n"), 0o644)
	noMessage := filepath.Join(dir, "nomessage.jsonl")
	os.WriteFile(noMessage, []byte(`{"type":"user","uuid":"a"}`+"\n"+`{"type":"assistant","uuid":"b","parentUuid":"a"}`+"\n"), 0o644)
	skipped := withMalformedLine(t, dir)
	neither := filepath.Join(dir, "neither.jsonl")
	os.WriteFile(neither, []byte(`{"foo":1}`+"\n"), 0o644)
	for _, tc := range []struct {
		args   []string
		stderr string
		reason string
	}{
		{[]string{"score", bad}, bad + ":2: malformed JSON", "a malformed line is skipped with file:line; then nothing is left to score"},
		{[]string{"score", noMessage}, "no case to score", "a Claude Code transcript with no message fields: before, exit 0"},
		{[]string{"score", "corpus/cases/fenced"}, "no case to score", "a folder without eval cases: before, exit 0"},
		{[]string{"score", "-format", "claude", "eval/testdata/pi/v2.jsonl"}, "-format claude found no message", "a pi session forced to claude: before, exit 0 with no case"},
		{[]string{"score", "-strict", skipped}, "1 malformed lines (-strict)", "-strict turns a skipped line into exit 2"},
		{[]string{"score", neither}, "use -format", "a file of neither format"},
		{[]string{"score", filepath.Join(dir, "missing.jsonl")}, "missing.jsonl", "a missing file"},
		{[]string{"score"}, "no PATH", "no argument"},
		{[]string{"score", "-extractor", "nope", "eval/testdata/cases"}, `unknown extractor "nope"`, "an unknown extractor"},
		{[]string{"score", "-format", "xml", "eval/testdata/cases"}, `unknown format "xml"`, "an unknown format"},
		{[]string{"score", "-format", "pi", "eval/testdata/cases"}, "a folder is read as a corpus", "a folder forced to pi"},
		{[]string{"score", "-format", "pi", "eval/testdata/claude/transcript.jsonl"}, "transcript.jsonl:1: not a session file", "a Claude Code transcript forced to pi has no session header"},
		{[]string{"score", "-keep-tokens", "0", "eval/testdata/cases"}, `invalid value "0" for flag -keep-tokens: out of range`, "a zero budget"},
		{[]string{"score", "-nope"}, "flag provided but not defined", "an unknown flag"},
	} {
		code, out, errOut := runCLI(t, "", tc.args...)
		if code != exitError || !strings.Contains(errOut, tc.stderr) {
			t.Errorf("%v = %d, stderr %q; want 2 and %q (%s)", tc.args, code, errOut, tc.stderr, tc.reason)
		}
		if out != "" {
			t.Errorf("%v wrote to stdout on error: %q", tc.args, out)
		}
	}
}

func TestScoreHelp(t *testing.T) {
	code, out, _ := runCLI(t, "", "score", "-h")
	if code != exitOK || !strings.Contains(out, "Examples:") || !strings.Contains(out, "-keep-tokens") {
		t.Errorf("score -h = %d, %q; want 0 and the usage with examples and flags on stdout", code, out)
	}
}

// withMalformedLine writes a copy of the v2 pi session with a line of two entries after its
// header, and returns its path.
func withMalformedLine(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "eval/testdata/pi/v2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	head, rest, _ := strings.Cut(string(data), "\n")
	path := filepath.Join(dir, "two-on-a-line.jsonl")
	bad := `{"type":"label","id":"l1","parentId":null,"label":"x"}{"type":"label","id":"l2","parentId":null,"label":"y"}`
	if err := os.WriteFile(path, []byte(head+"\n"+bad+"\n"+rest), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestScoreSkipsMalformedLine(t *testing.T) {
	// pi skips a line it cannot parse; so does score (before: exit 2 for the whole file).
	path := withMalformedLine(t, t.TempDir())
	code, out, errOut := runCLI(t, "", "score", "-json", path)
	if code != exitOK {
		t.Fatalf("score %s = %d, stderr %q; want 0", path, code, errOut)
	}
	if !strings.Contains(errOut, path+":2: malformed JSON") {
		t.Errorf("stderr = %q; want a warning naming %s:2", errOut, path)
	}
	var r eval.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Cases) != 2 || r.Sources[0].Stats == nil || r.Sources[0].Stats.Malformed != 1 {
		t.Errorf("report: %d cases, stats %+v; want the 2 compactions and 1 malformed line counted", len(r.Cases), r.Sources[0].Stats)
	}
}

func TestScoreCountsACaseOnce(t *testing.T) {
	// The same case given twice, directly and through its folder, was counted twice.
	code, out, errOut := runCLI(t, "", "score", "-json", "eval/testdata/cases", "eval/testdata/cases/eval/session-store-refactor.yaml", "eval/testdata/pi/v2.jsonl", "./eval/testdata/pi/v2.jsonl")
	if code != exitOK {
		t.Fatalf("score = %d, stderr %q", code, errOut)
	}
	var r eval.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Totals.Cases != 9 {
		t.Errorf("totals count %d cases, want 9 (7 corpus cases and 2 compactions, each once)", r.Totals.Cases)
	}
	if !strings.Contains(errOut, "given twice; scored once") {
		t.Errorf("stderr = %q; want the duplicates named", errOut)
	}
}
