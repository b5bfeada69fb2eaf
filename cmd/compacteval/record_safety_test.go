package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/record"
	"github.com/compacteval/compacteval/internal/record/recordtest"
)

// The fake servers of these tests listen on the loopback interface only.

func TestRecordKeepsTheKeyFromAnotherHost(t *testing.T) {
	const key = "sk-proj-envkey0123456789abcdef"
	t.Setenv("OPENAI_API_KEY", key)
	srv := recordtest.NewServer(t)
	srv.Script("m1", recordtest.Reply{Text: recordAnswer})
	dirs, _ := recordDirs(t)
	code, _, stderr := runCLI(t, "", append(append([]string{"record", "-provider", "openai", "-base-url", srv.OpenAIURL(), "-model", "m1"}, dirs...), recordSource)...)
	if code != exitOK {
		t.Fatalf("record = %d, want 0:\n%s", code, stderr)
	}
	for _, r := range srv.Requests() {
		if strings.Contains(r.Auth, key) {
			t.Errorf("OPENAI_API_KEY went to %s without -send-key-to-base-url (auth %q)", srv.OpenAIURL(), r.Auth)
		}
	}
	if !strings.Contains(stderr, "OPENAI_API_KEY is not sent to "+srv.OpenAIURL()+", which is not api.openai.com (-send-key-to-base-url sends it)") {
		t.Errorf("record does not say that the key stayed home:\n%s", stderr)
	}

	dirs, _ = recordDirs(t)
	code, _, stderr = runCLI(t, "", append(append([]string{"record", "-provider", "openai", "-base-url", srv.OpenAIURL(), "-send-key-to-base-url", "-model", "m1"}, dirs...), recordSource)...)
	reqs := srv.Requests()
	if code != exitOK || reqs[len(reqs)-1].Auth != "Bearer "+key {
		t.Errorf("record -send-key-to-base-url = %d and sent auth %q; want 0 and the key:\n%s", code, reqs[len(reqs)-1].Auth, stderr)
	}
}

func TestRecordNeverPrintsAnEchoedKey(t *testing.T) {
	const key = "sk-ant-api03-echoedkey0123456789abcdef"
	t.Setenv("ANTHROPIC_API_KEY", key)
	srv := recordtest.NewServer(t)
	srv.Script("m1", recordtest.Reply{Status: 400, ErrType: "invalid_request_error", ErrMessage: "malformed request from key " + key + " (check " + key[:20] + ")"})
	srv.Script("m2", recordtest.Reply{Status: 503, RetryAfter: "0", ErrType: "overloaded", ErrMessage: "busy, key=" + key}, recordtest.Reply{Text: recordAnswer})
	for _, tt := range []struct {
		name string
		args []string
	}{
		{name: "an error on stderr", args: []string{"-model", "m1"}},
		{name: "an error in -json", args: []string{"-model", "m1", "-json"}},
		{name: "a retried error", args: []string{"-model", "m2", "-retries", "1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dirs, out := recordDirs(t)
			args := append(append(append([]string{"record", "-provider", "anthropic", "-base-url", srv.URL}, tt.args...), dirs...), recordSource)
			_, stdout, stderr := runCLI(t, "", args...)
			if !strings.Contains(stdout+stderr, "[REDACTED:literal]") {
				t.Errorf("record %v shows no redacted error:\nstdout:\n%s\nstderr:\n%s", tt.args, stdout, stderr)
			}
			if strings.Contains(stdout+stderr, key) {
				t.Errorf("record %v printed the key:\nstdout:\n%s\nstderr:\n%s", tt.args, stdout, stderr)
			}
			assertNoSecretInFiles(t, filepath.Dir(out), key)
		})
	}
}

func TestRecordKeepsBaseURLQueryOutOfCases(t *testing.T) {
	const secret = "gatewaysecret0123456789"
	srv := recordtest.NewServer(t)
	srv.Script("m1", recordtest.Reply{Text: recordAnswer})
	dirs, out := recordDirs(t)
	base := srv.OpenAIURL() + "?api_key=" + secret
	code, stdout, stderr := runCLI(t, "", append(append([]string{"record", "-provider", "openai", "-base-url", base, "-model", "m1", "-json"}, dirs...), recordSource)...)
	if code != exitOK {
		t.Fatalf("record = %d:\n%s", code, stderr)
	}
	if strings.Contains(stdout+stderr, secret) {
		t.Errorf("record printed the base URL's query value:\n%s\n%s", stdout, stderr)
	}
	assertNoSecretInFiles(t, filepath.Dir(out), secret)
	data, err := os.ReadFile(filepath.Join(out, "eval", "export-timeout-openai-m1-1.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "api_key=REDACTED") {
		t.Errorf("the case's notes do not show the endpoint with its query value replaced:\n%s", data)
	}
}

func TestRecordBoundsTheResponse(t *testing.T) {
	srv := recordtest.NewServer(t)
	srv.Script("huge", recordtest.Reply{Text: strings.Repeat("a model that never stops ", 9<<20/25)})
	srv.Script("large", recordtest.Reply{Text: recordAnswer + strings.Repeat("\nand it kept going for a while", 5<<20/30)})
	srv.Script("small", recordtest.Reply{Text: recordAnswer + strings.Repeat("\nthree kilobytes of answer", 120)})
	tests := []struct {
		name  string
		model string
		flags []string
		want  string
	}{
		{name: "a 9 MiB body, over the default", model: "huge", want: "is longer than 8 MiB, the limit on a response body"},
		{name: "a 5 MiB case, over the default", model: "large", want: "over the 4 MiB limit on a case file"},
		{name: "-max-response-bytes", model: "small", flags: []string{"-max-response-bytes", "2048"}, want: "is longer than 2 KiB"},
		{name: "-max-case-bytes", model: "small", flags: []string{"-max-case-bytes", "4096"}, want: "over the 4 KiB limit on a case file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dirs, out := recordDirs(t)
			args := append(append(append([]string{"record", "-provider", "openai", "-base-url", srv.OpenAIURL(), "-model", tt.model}, tt.flags...), dirs...), recordSource)
			code, _, stderr := runCLI(t, "", args...)
			id := "eval/export-timeout-openai-" + tt.model + "-1"
			if code != exitError || !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, id+" failed") {
				t.Errorf("record -model %s %v = %d; want 2 and %q naming %s:\n%s", tt.model, tt.flags, code, tt.want, id, stderr)
			}
			if strings.Contains(tt.want, "response body") && !strings.Contains(stderr, "POST "+srv.OpenAIURL()+"/chat/completions") {
				t.Errorf("the error does not name the request:\n%s", stderr)
			}
			if !strings.Contains(stderr, "raise -max-response-bytes or -max-case-bytes") {
				t.Errorf("the error does not name the flags:\n%s", stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a case was written below %s", out)
			}
		})
	}
	code, _, stderr := runCLI(t, "", "record", "-provider", "openai", "-model", "m", "-max-case-bytes", "0", recordSource)
	if code != exitError || !strings.Contains(stderr, `invalid value "0" for flag -max-case-bytes: out of range`) {
		t.Errorf("record -max-case-bytes 0 = %d, %q; want 2", code, stderr)
	}
}

// assertNoSecretInFiles fails if any file below dir holds secret.
func assertNoSecretInFiles(t *testing.T, dir, secret string) {
	t.Helper()
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Error(err)
			return nil
		}
		if strings.Contains(string(data), secret) {
			t.Errorf("%s holds the secret", path)
		}
		return nil
	})
}

func TestRecordBatchKeepsBaseURLQueryOutOfTheManifest(t *testing.T) {
	const secret = "gatewaysecret0123456789"
	srv := recordtest.NewServer(t)
	srv.Script("m1", recordtest.Reply{Text: recordAnswer})
	dirs, out := recordDirs(t)
	base := srv.OpenAIURL() + "?api_key=" + secret
	code, stdout, stderr := runCLI(t, "", append(append([]string{"record", "-batch", "-provider", "openai", "-base-url", base, "-model", "m1"}, dirs...), recordSource)...)
	id := strings.TrimSpace(stdout)
	if code != exitOK || id == "" {
		t.Fatalf("record -batch = %d, %q:\n%s", code, stdout, stderr)
	}
	assertNoSecretInFiles(t, filepath.Dir(out), secret)
	code, _, stderr = runCLI(t, "", append([]string{"record", "-collect", id}, dirs...)...)
	if code != exitError || !strings.Contains(stderr, "give the same -base-url") {
		t.Errorf("record -collect without -base-url = %d, want 2 and a hint:\n%s", code, stderr)
	}
	code, stdout, stderr = runCLI(t, "", append([]string{"record", "-collect", id, "-base-url", base}, dirs...)...)
	if code != exitOK || !strings.Contains(stdout, "1 recorded") {
		t.Errorf("record -collect -base-url = %d, want 0 and a case:\n%s\n%s", code, stdout, stderr)
	}
	assertNoSecretInFiles(t, filepath.Dir(out), secret)
}

// TestRecordReportWithoutJob: record's report took an outcome's job for granted and
// panicked on one without (record_report.go:46, after a NaN temperature).
func TestRecordReportWithoutJob(t *testing.T) {
	r := newRecordReport([]record.Outcome{{Status: record.StatusFailed, Err: record.ErrSkipped}}, nil)
	if len(r.Cases) != 1 || r.Cases[0].Status != record.StatusFailed {
		t.Errorf("newRecordReport(an outcome without a job) = %+v, want its failure", r.Cases)
	}
}
