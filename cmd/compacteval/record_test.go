package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/record/recordtest"
	"github.com/compacteval/compacteval/internal/testhelp/testref"
)

// recordSource is a small case with a conversation, a tool call and a secret.
const recordSource = "internal/record/testdata/eval/export-timeout.yaml"

const recordAnswer = "<analysis>\nThe export loaded every row.\n</analysis>\n\n<summary>\n1. Primary Request and Intent:\n   Fix jobs/export.py for tenants with over 1M rows.\n\n8. Current Work:\n   Streaming with yield_per(5000).\n</summary>"

// recordDirs returns -out and -cache flags for temporary folders, and the out folder.
func recordDirs(t *testing.T) ([]string, string) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "inbox")
	return []string{"-out", out, "-cache", filepath.Join(dir, "cache")}, out
}

func TestRecordLocalServer(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	srv := recordtest.NewServer(t)
	srv.Script("qwen2.5:0.5b",
		recordtest.Reply{Text: recordAnswer},
		recordtest.Reply{Status: 429, RetryAfter: "0", ErrType: "rate_limit_error", ErrMessage: "slow down"},
		recordtest.Reply{Text: "1. Primary Request and Intent:\n   Fix the export.", Truncated: true})
	dirs, out := recordDirs(t)
	args := append([]string{"record", "-provider", "openai", "-base-url", srv.OpenAIURL(), "-model", "qwen2.5:0.5b", "-n", "2"}, dirs...)
	code, stdout, stderr := runCLI(t, "", append(args, recordSource)...)
	if code != exitOK {
		t.Fatalf("record = %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"eval/export-timeout-openai-qwen2-5-0-5b-1 recorded stop",
		"eval/export-timeout-openai-qwen2-5-0-5b-2 recorded length!",
		"2 recorded, 0 replayed from the cache, 0 already there, 0 failed",
		"eval/export-timeout: 2 samples, 2 distinct answers, 1 truncated, 0 empty",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("record stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stdout, "  seed ") || !strings.Contains(stdout, "  robust ") {
		t.Errorf("the variation table lacks seed or robust:\n%s", stdout)
	}
	if strings.Contains(stderr, "warning") {
		t.Errorf("record warns about a full prompt:\n%s", stderr)
	}
	if !strings.Contains(stderr, "429 Too Many Requests") || !strings.Contains(stderr, "retry 1 in 0s") {
		t.Errorf("record stderr does not report the retry:\n%s", stderr)
	}
	cases, err := corpus.Load(out)
	if err != nil || len(cases) != 2 {
		t.Fatalf("corpus.Load(out) = %d cases, %v; want 2 clean ones", len(cases), err)
	}
	for _, c := range cases {
		if ps := corpus.CheckDeviations(c, compact.Extractors()); len(ps) > 0 {
			t.Errorf("%s would not lint: %v", c.ID, ps)
		}
	}

	calls := srv.Calls("qwen2.5:0.5b")
	code, stdout, _ = runCLI(t, "", append(args, recordSource)...)
	if code != exitOK || !strings.Contains(stdout, "0 recorded, 0 replayed from the cache, 2 already there") || srv.Calls("qwen2.5:0.5b") != calls {
		t.Errorf("rerun = %d with %d new calls, want 0 and none:\n%s", code, srv.Calls("qwen2.5:0.5b")-calls, stdout)
	}
	os.RemoveAll(out)
	code, stdout, _ = runCLI(t, "", append(append([]string{"record", "-offline", "-provider", "openai", "-model", "qwen2.5:0.5b", "-n", "2"}, dirs...), recordSource)...)
	if code != exitOK || !strings.Contains(stdout, "0 recorded, 2 replayed from the cache") {
		t.Errorf("offline replay = %d:\n%s", code, stdout)
	}
}

func TestRecordJSON(t *testing.T) {
	srv := recordtest.NewServer(t)
	srv.Script("claude-x", recordtest.Reply{Text: recordAnswer})
	t.Setenv("COMPACTEVAL_TEST_KEY", "test-key-0123456789")
	srv.Key = "test-key-0123456789"
	dirs, _ := recordDirs(t)
	args := append([]string{"record", "-json", "-provider", "anthropic", "-base-url", srv.URL, "-api-key-env", "COMPACTEVAL_TEST_KEY", "-send-key-to-base-url", "-model", "claude-x", "-n", "2"}, dirs...)
	code, stdout, stderr := runCLI(t, "", append(args, recordSource)...)
	if code != exitOK {
		t.Fatalf("record -json = %d\n%s", code, stderr)
	}
	var doc recordReport
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("record -json is not one JSON document: %v\n%s", err, stdout)
	}
	if len(doc.Cases) != 2 || doc.Cases[0].Status != "recorded" || doc.Cases[0].Source != "eval/export-timeout" || doc.Cases[1].Sample != 2 {
		t.Errorf("record -json cases = %+v", doc.Cases)
	}
	if len(doc.Variation) != 1 || doc.Variation[0].DistinctResponses != 1 || doc.Variation[0].Extractors[0].Distinct != 1 {
		t.Errorf("record -json variation = %+v", doc.Variation)
	}
	for _, r := range srv.Requests() {
		if r.Auth != "Bearer test-key-0123456789" && r.Auth != "test-key-0123456789" {
			t.Errorf("request sent auth %q, want the key from -api-key-env", r.Auth)
		}
	}
}

func TestRecordErrors(t *testing.T) {
	srv := recordtest.NewServer(t)
	srv.Key = "right-key-0123456789"
	srv.Script("m1", recordtest.Reply{Text: recordAnswer})
	t.Setenv("COMPACTEVAL_TEST_KEY", "wrong-key-0123456789")
	t.Setenv("COMPACTEVAL_RIGHT_KEY", "right-key-0123456789")
	t.Setenv("COMPACTEVAL_UNSET_KEY", "")
	t.Setenv("ANTHROPIC_API_KEY", "")
	dirs, out := recordDirs(t)
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{
			name: "a refused key",
			args: []string{"-provider", "openai", "-base-url", srv.OpenAIURL(), "-api-key-env", "COMPACTEVAL_TEST_KEY", "-send-key-to-base-url", "-model", "m1", "-n", "3"},
			want: []string{"401 Unauthorized", "the key in COMPACTEVAL_TEST_KEY was refused", "2 not run after the error above"},
		},
		{
			name: "an unknown model",
			args: []string{"-provider", "openai", "-base-url", srv.OpenAIURL(), "-api-key-env", "COMPACTEVAL_RIGHT_KEY", "-send-key-to-base-url", "-model", "llama9:1b", "-n", "2"},
			want: []string{"404 Not Found", "model \"llama9:1b\" is not served at", "ollama pull llama9:1b", "1 not run after the error above"},
		},
		{
			name: "no key for a server that wants one",
			args: []string{"-provider", "openai", "-base-url", srv.OpenAIURL(), "-api-key-env", "COMPACTEVAL_UNSET_KEY", "-model", "m1"},
			want: []string{"401 Unauthorized", "COMPACTEVAL_UNSET_KEY is not set: set it to a valid key"},
		},
		{
			name: "no key for the provider's own API",
			args: []string{"-provider", "anthropic", "-model", "claude-x"},
			want: []string{"ANTHROPIC_API_KEY is not set"},
		},
		{
			name: "offline cache miss",
			args: []string{"-offline", "-provider", "anthropic", "-model", "claude-x"},
			want: []string{"not in the replay cache (-offline)", "record it without -offline first"},
		},
		{
			name: "a base URL without /v1",
			args: []string{"-provider", "openai", "-base-url", srv.URL, "-api-key-env", "COMPACTEVAL_RIGHT_KEY", "-send-key-to-base-url", "-model", "m1"},
			want: []string{"usually ends in /v1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append(append([]string{"record"}, tt.args...), dirs...), recordSource)
			code, _, stderr := runCLI(t, "", args...)
			if code != exitError {
				t.Errorf("record %v = %d, want 2", tt.args, code)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("record %v stderr lacks %q:\n%s", tt.args, w, stderr)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a failed run created %s", out)
			}
		})
	}
}

func TestRecordWarnsOfACutPrompt(t *testing.T) {
	srv := recordtest.NewServer(t)
	srv.Script("m1", recordtest.Reply{Text: recordAnswer, PromptTokens: 12})
	dirs, _ := recordDirs(t)
	code, _, stderr := runCLI(t, "", append(append([]string{"record", "-provider", "openai", "-base-url", srv.OpenAIURL(), "-model", "m1"}, dirs...), recordSource)...)
	if code != exitOK || !strings.Contains(stderr, "the server counted 12 prompt tokens for a conversation of about") || !strings.Contains(stderr, "OLLAMA_CONTEXT_LENGTH") {
		t.Errorf("record with a cut prompt = %d, want 0 and a warning:\n%s", code, stderr)
	}
}

func TestRecordNoServer(t *testing.T) {
	srv := recordtest.NewServer(t)
	url := srv.OpenAIURL()
	srv.Close() // nothing listens there any more
	dirs, _ := recordDirs(t)
	code, _, stderr := runCLI(t, "", append(append([]string{"record", "-provider", "openai", "-base-url", url, "-model", "m1", "-n", "3"}, dirs...), recordSource)...)
	if code != exitError || !strings.Contains(stderr, "is the server running?") || !strings.Contains(stderr, "2 not run after the error above") {
		t.Errorf("record against no server = %d, want 2, a hint and the other samples not run:\n%s", code, stderr)
	}
}

func TestRecordUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-model", "m", recordSource}, `-provider is ""`},
		{[]string{"-provider", "gemini", "-model", "m", recordSource}, `-provider is "gemini"`},
		{[]string{"-provider", "openai", recordSource}, "-model is required"},
		{[]string{"-provider", "openai", "-model", "m"}, "no CASE"},
		{[]string{"-provider", "openai", "-model", "m", "-n", "0", recordSource}, `invalid value "0" for flag -n: out of range`},
		{[]string{"-provider", "openai", "-model", "m", "-batch", "-offline", recordSource}, "cannot be -offline"},
		{[]string{"-provider", "openai", "-model", "m", "-temperature", "warm", recordSource}, `invalid value "warm" for flag -temperature`},
		{[]string{"-provider", "openai", "-model", "m", "-reason", "bored", recordSource}, `-reason is "bored"`},
		{[]string{"-provider", "openai", "-model", "m", "-tools", "maybe", recordSource}, `-tools is "maybe"`},
		{[]string{"-collect", "b1", recordSource}, "-collect takes no CASE"},
		{[]string{"-provider", "openai", "-model", "m", "-offline", "corpus/cases/well-formed"}, "no case with a conversation"},
	}
	for _, tt := range tests {
		code, _, stderr := runCLI(t, "", append([]string{"record"}, tt.args...)...)
		if code != exitError || !strings.Contains(stderr, tt.want) {
			t.Errorf("record %v = %d, %q; want 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
	if code, stdout, _ := runCLI(t, "", "record", "-h"); code != exitOK || !strings.Contains(stdout, "Examples:") {
		t.Errorf("record -h = %d, want 0 and the usage on stdout", code)
	}
}

func TestRecordBatch(t *testing.T) {
	for _, provider := range []string{"anthropic", "openai"} {
		t.Run(provider, func(t *testing.T) {
			srv := recordtest.NewServer(t)
			srv.PendingPolls = 1
			srv.Script("m1", recordtest.Reply{Text: recordAnswer})
			t.Setenv("COMPACTEVAL_TEST_KEY", "k-0123456789")
			base := srv.URL
			if provider == "openai" {
				base = srv.OpenAIURL()
			}
			dirs, out := recordDirs(t)
			args := append([]string{"record", "-batch", "-provider", provider, "-base-url", base, "-api-key-env", "COMPACTEVAL_TEST_KEY", "-send-key-to-base-url", "-model", "m1", "-n", "3"}, dirs...)
			code, stdout, stderr := runCLI(t, "", append(args, recordSource)...)
			id := strings.TrimSpace(stdout)
			if code != exitOK || id == "" || strings.Contains(id, "\n") || !strings.Contains(stderr, "submitted batch "+id+" with 3 requests") {
				t.Fatalf("record -batch = %d, stdout %q, want the batch id alone\n%s", code, stdout, stderr)
			}
			collect := append([]string{"record", "-collect", id, "-api-key-env", "COMPACTEVAL_TEST_KEY", "-send-key-to-base-url"}, dirs...)
			code, _, stderr = runCLI(t, "", collect...)
			if code != exitProblem || !strings.Contains(stderr, "is in_progress; collect it again later") {
				t.Errorf("record -collect (running) = %d, want 1:\n%s", code, stderr)
			}
			code, stdout, stderr = runCLI(t, "", collect...)
			if code != exitOK || !strings.Contains(stdout, "3 recorded") {
				t.Errorf("record -collect (ended) = %d, want 0 and 3 cases:\n%s\n%s", code, stdout, stderr)
			}
			if cases, err := corpus.Load(out); err != nil || len(cases) != 3 {
				t.Errorf("collected %d cases, %v; want 3", len(cases), err)
			}
			code, _, stderr = runCLI(t, "", append(args, recordSource)...)
			if code != exitOK || !strings.Contains(stderr, "nothing to submit") {
				t.Errorf("record -batch after collection = %d, want 0 and nothing to submit:\n%s", code, stderr)
			}
		})
	}
}

// TestRecordUserPrompt: -prompt module:FILE sends the module's buildCompactionInstruction,
// kept-tail note and all, and the case records the digest of that text.
func TestRecordUserPrompt(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testref.Missing(t, "node", err)
	}
	t.Setenv("OPENAI_API_KEY", "")
	module := filepath.Join(t.TempDir(), "prompt.mjs")
	src := `export function buildCompactionInstruction(o) {
	return "Summarize for " + o.reason + (o.keptTail ? " keeping " + o.keptTail.count : "") + ".";
}
`
	if err := os.WriteFile(module, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := recordtest.NewServer(t)
	srv.Script("m", recordtest.Reply{Text: recordAnswer})
	dirs, out := recordDirs(t)
	args := append([]string{"record", "-provider", "openai", "-base-url", srv.OpenAIURL(), "-model", "m", "-prompt", "module:" + module}, dirs...)
	if code, stdout, stderr := runCLI(t, "", append(args, recordSource)...); code != exitOK {
		t.Fatalf("record -prompt = %d\n%s\n%s", code, stdout, stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	body, _ := json.Marshal(reqs[0].Body)
	c, err := corpus.ReadFile(filepath.Join(out, "eval", "export-timeout-openai-m-1.yaml"), "")
	if err != nil {
		t.Fatal(err)
	}
	want := "Summarize for threshold"
	if c.KeptTail > 0 {
		want += fmt.Sprintf(" keeping %d", c.KeptTail)
	}
	want += "."
	if !strings.Contains(string(body), want) || strings.Contains(string(body), "Primary Request and Intent") {
		t.Errorf("the request does not carry the module's instruction %q:\n%.600s", want, body)
	}
	if sum := fmt.Sprintf("%x", sha256.Sum256([]byte(want))); c.Origin.InstructionSHA256 != sum {
		t.Errorf("instruction_sha256 = %s, want %s (of %q)", c.Origin.InstructionSHA256, sum, want)
	}
	if code, _, stderr := runCLI(t, "", append(append([]string{"record", "-provider", "openai", "-base-url", srv.OpenAIURL(), "-model", "m", "-prompt", "module:" + filepath.Join(t.TempDir(), "none.ts")}, dirs...), recordSource)...); code != exitError || !strings.Contains(stderr, "-prompt") {
		t.Errorf("record with a missing prompt module = %d, %q; want 2", code, stderr)
	}
}

// TestRecordEmbeddedCase: a user without this repository's corpus/cases names a case of
// the corpus inside the binary, as record's usage shows.
func TestRecordEmbeddedCase(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	srv := recordtest.NewServer(t)
	srv.Script("m", recordtest.Reply{Text: recordAnswer})
	dirs, out := recordDirs(t)
	const id = "eval/gok8s-operator-reconcile-hot-loop-complete"
	args := append([]string{"record", "-provider", "openai", "-base-url", srv.OpenAIURL(), "-model", "m"}, dirs...)
	code, stdout, stderr := runCLI(t, "", append(args, "embedded/"+id)...)
	if code != exitOK || !strings.Contains(stdout, id+"-openai-m-1 recorded stop") {
		t.Fatalf("record embedded/%s = %d, want 0 and the case recorded\nstdout:\n%s\nstderr:\n%s", id, code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, id+"-openai-m-1.yaml")); err != nil {
		t.Errorf("record wrote no case: %v", err)
	}
}

// TestLoadCorpusEmbeddedPart: embedded/CATEGORY and embedded/ID name part of the corpus
// inside the binary; a name that matches nothing is an error saying where to look.
func TestLoadCorpusEmbeddedPart(t *testing.T) {
	all, _, err := loadCorpus(corpus.EmbeddedLabel)
	if err != nil {
		t.Fatal(err)
	}
	evalCases := 0
	for _, c := range all {
		if strings.HasPrefix(c.ID, "eval/") {
			evalCases++
		}
	}
	for _, tc := range []struct {
		arg  string
		want int
	}{
		{arg: "embedded/eval", want: evalCases},
		{arg: "embedded/eval/", want: evalCases},
		{arg: "embedded/eval/gok8s-operator-reconcile-hot-loop-complete", want: 1},
		{arg: "embedded/eval/gok8s-operator-reconcile-hot-loop-complete.yaml", want: 1},
		{arg: "embedded/ev", want: 0},
	} {
		cases, _, err := loadCorpus(tc.arg)
		if len(cases) != tc.want {
			t.Errorf("loadCorpus(%q) = %d cases, want %d", tc.arg, len(cases), tc.want)
		}
		if (tc.want == 0) != (err != nil) {
			t.Errorf("loadCorpus(%q) error = %v", tc.arg, err)
		}
	}
	if evalCases < 10 {
		t.Errorf("the embedded corpus has %d eval cases, want the 30 of corpus/cases/eval", evalCases)
	}
}
