package record

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/record/recordtest"
)

// wellFormed is an answer every extractor agrees on but claude-code and plain.
const wellFormed = "<analysis>\nThe export loaded every row.\n</analysis>\n\n<summary>\n1. Primary Request and Intent:\n   Fix the export of jobs/export.py for tenants with over 1M rows.\n\n8. Current Work:\n   Streaming with yield_per(5000); running pytest tests/test_export.py.\n</summary>"

// source returns the test case with a conversation.
func source(t *testing.T) *corpus.Case {
	t.Helper()
	cases, err := corpus.Load("testdata")
	if err != nil {
		t.Fatalf("corpus.Load(testdata): %v", err)
	}
	for _, c := range cases {
		if c.ID == "eval/export-timeout" {
			return c
		}
	}
	t.Fatal("testdata has no eval/export-timeout")
	return nil
}

// sleeps records the waits of a Retry instead of waiting.
type sleeps struct{ waits []time.Duration }

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.waits = append(s.waits, d)
	return ctx.Err()
}

// testRetry is DefaultRetry with a fake clock.
func testRetry(s *sleeps) Retry {
	r := DefaultRetry
	r.Sleep = s.sleep
	return r
}

// fixedNow is the date every test answer gets.
func fixedNow() time.Time { return time.Date(2025, 3, 14, 12, 0, 0, 0, time.UTC) }

// newProvider returns a provider for the fake server.
func newProvider(t *testing.T, srv *recordtest.Server, provider string) Provider {
	t.Helper()
	base := srv.URL
	if provider == OpenAI {
		base = srv.OpenAIURL()
	}
	p, err := New(Config{Provider: provider, BaseURL: base, APIKey: srv.Key, SendKeyToBaseURL: true, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// testSetup is a recorder on a fake server with a temporary corpus and cache.
type testSetup struct {
	srv    *recordtest.Server
	rec    *Recorder
	target Target
	out    string
	sleeps *sleeps
}

func newSetup(t *testing.T, provider, model string, samples int) *testSetup {
	t.Helper()
	srv := recordtest.NewServer(t)
	srv.Key = "test-key-0123456789"
	dir := t.TempDir()
	s := &testSetup{srv: srv, out: filepath.Join(dir, "cases"), sleeps: &sleeps{}}
	s.rec = &Recorder{
		Provider: newProvider(t, srv, provider),
		Retry:    testRetry(s.sleeps),
		Cache:    &Cache{Dir: filepath.Join(dir, "cache")},
		Parallel: 2,
		Now:      fixedNow,
		Secrets:  []string{srv.Key},
	}
	s.target = Target{
		Provider: provider, Model: model, Params: Params{MaxTokens: compact.MaxTokens},
		Reason: compact.ReasonThreshold, Samples: samples, Out: s.out, Endpoint: "http://localhost:11434/v1",
	}
	return s
}

func (s *testSetup) jobs(t *testing.T) []Job {
	t.Helper()
	jobs, _, err := s.target.Jobs([]*corpus.Case{source(t)})
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

func statuses(outs []Outcome) []string {
	var s []string
	for _, o := range outs {
		s = append(s, o.Status)
	}
	return s
}
