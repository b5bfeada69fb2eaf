package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the repository root; tests start in cmd/compacteval.
var repoRoot, _ = filepath.Abs("../..")

// runCLI runs the command in-process from the repository root, as a user would.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(repoRoot)
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestUsageAndUnknownCommand(t *testing.T) {
	if code, out, _ := runCLI(t, "", "help"); code != exitOK || !strings.Contains(out, "extract") {
		t.Errorf("help = %d, %q; want 0 and the command list", code, out)
	}
	if code, _, errOut := runCLI(t, "", "frobnicate"); code != exitError || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Errorf("frobnicate = %d, %q; want 2 and a message", code, errOut)
	}
}

func TestExtract(t *testing.T) {
	resp := "<analysis>\nthink\n</analysis>\n<summary>\n1. Request\n</summary>\n"
	code, out, _ := runCLI(t, resp, "extract")
	if code != exitOK || out != "1. Request\n" {
		t.Errorf("extract = %d, %q; want 0, %q", code, out, "1. Request\n")
	}
	code, out, _ = runCLI(t, resp, "extract", "-json")
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK {
		t.Fatalf("extract -json = %d, %q (%v)", code, out, err)
	}
	if got["path"] != "line-anchored" || got["ok"] != true || got["summary"] != "1. Request" {
		t.Errorf("extract -json = %v", got)
	}
	if code, _, errOut := runCLI(t, "<analysis>only</analysis>", "extract"); code != exitProblem || !strings.Contains(errOut, "no summary") {
		t.Errorf("extract of an analysis only = %d, %q; want 1", code, errOut)
	}
	if code, _, _ := runCLI(t, "", "extract", "-extractor", "nope"); code != exitError {
		t.Errorf("extract -extractor nope = %d, want 2", code)
	}
	if code, _, errOut := runCLI(t, "", "extract", filepath.Join(t.TempDir(), "missing.txt")); code != exitError || !strings.Contains(errOut, "missing.txt") {
		t.Errorf("extract of a missing file = %d, %q; want 2 naming the file", code, errOut)
	}
}

func TestPipe(t *testing.T) {
	in := strings.Join([]string{
		`{"op":"extract","text":"<summary>\nhi\n</summary>"}`,
		``,
		`not json`,
		`{"op":"extract"}`,
		`{"op":"extract","text":"x","profile":"nope"}`,
		`{"op":"keptTailNote","count":1.5}`,
		`{"op":"constants"}`,
		`{"op":"extract","text":"<analysis>a</analysis>"}`,
	}, "\n")
	code, out, _ := runCLI(t, in, "pipe")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != exitOK || len(lines) != 7 {
		t.Fatalf("pipe = %d with %d lines, want 0 and 7 (a blank line gets no answer):\n%s", code, len(lines), out)
	}
	for i, want := range []string{`{"summary":"hi"}`, `{"error":`, `{"error":"missing field \"text\""}`, `{"error":"unknown profile \"nope\"`, `{"error":`, `{"maxTokens":32000,"instruction":"CRITICAL`, `{"summary":null}`} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("pipe answer %d = %.80q, want prefix %q", i+1, lines[i], want)
		}
	}
}

func TestCorpusCommands(t *testing.T) {
	if code, out, errOut := runCLI(t, "", "corpus", "lint"); code != exitOK || out != "" || !strings.Contains(errOut, "0 problems") {
		t.Errorf("corpus lint = %d, %q, %q; want 0 and no problems", code, out, errOut)
	}
	code, out, _ := runCLI(t, "", "corpus", "stats", "-json")
	var st corpusStats
	if err := json.Unmarshal([]byte(out), &st); err != nil || code != exitOK || st.Cases < 150 || st.Categories["fenced"] < 10 {
		t.Errorf("corpus stats -json = %d, %+v (%v)", code, st, err)
	}
	code, out, _ = runCLI(t, "", "corpus", "list", "-json", "corpus/cases/fenced")
	var list struct{ Cases []listedCase }
	if err := json.Unmarshal([]byte(out), &list); err != nil || code != exitOK || len(list.Cases) < 10 || list.Cases[0].Response == "" {
		t.Errorf("corpus list -json corpus/cases/fenced = %d, %d cases (%v)", code, len(list.Cases), err)
	}
	if code, _, _ := runCLI(t, "", "corpus", "list"); code != exitError {
		t.Errorf("corpus list without -json = %d, want 2", code)
	}
}

func TestCorpusLintReportsBadFile(t *testing.T) {
	dir := t.TempDir()
	bad, err := os.ReadFile(filepath.Join(repoRoot, "corpus/testdata/bad/misspelled-key.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "malformed-tags"), 0o755)
	file := filepath.Join(dir, "malformed-tags", "example.yaml")
	os.WriteFile(file, bad, 0o644)
	code, out, _ := runCLI(t, "", "corpus", "lint", dir)
	if code != exitProblem || !strings.Contains(out, file+`:9:1: unknown field "responce" (did you mean response?)`) {
		t.Errorf("corpus lint on a bad file = %d, %q; want 1 and file:line:col", code, out)
	}
}

func TestCorpusFmtKeepsContent(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"whitespace-unicode/bom-at-start-fastapi-pydantic2", "line-endings/crlf-throughout-dotnet-di-lifetime", "well-formed/go-grpc-retry-deadline"} {
		data, err := os.ReadFile(filepath.Join(repoRoot, "corpus/cases", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, name+".yaml")
		os.MkdirAll(filepath.Dir(dst), 0o755)
		os.WriteFile(dst, data, 0o644)
	}
	before, _, _ := runCLI(t, "", "corpus", "list", "-json", dir)
	if code, _, errOut := runCLI(t, "", "corpus", "fmt", dir); code != exitOK {
		t.Fatalf("corpus fmt = %d: %s", code, errOut)
	}
	if code, out, _ := runCLI(t, "", "corpus", "fmt", "-check", dir); code != exitOK || out != "" {
		t.Errorf("corpus fmt -check after fmt = %d, %q; want 0 and nothing", code, out)
	}
	after, _, _ := runCLI(t, "", "corpus", "list", "-json", dir)
	if before != after {
		t.Errorf("corpus fmt changed the content of the cases")
	}
}
