package record

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/record/recordtest"
	"github.com/google/go-cmp/cmp"
)

func TestRecordWritesCases(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			s := newSetup(t, provider, "qwen2.5:0.5b", 2)
			s.srv.Script("qwen2.5:0.5b", recordtest.Reply{Text: wellFormed}, recordtest.Reply{Text: "<summary>\nshort\n</summary>"})
			s.rec.Parallel = 1 // the n-th call gets the n-th reply
			jobs := s.jobs(t)
			outs := s.rec.Run(context.Background(), jobs)
			if diff := cmp.Diff([]string{StatusRecorded, StatusRecorded}, statuses(outs)); diff != "" {
				t.Fatalf("Run() statuses mismatch (-want +got):\n%s\n%v", diff, outs[0].Err)
			}
			cases, err := corpus.Load(s.out)
			if err != nil {
				t.Fatalf("the recorded cases do not load cleanly: %v", err)
			}
			ids := []string{cases[0].ID, cases[1].ID}
			want := []string{"eval/export-timeout-" + provider + "-qwen2-5-0-5b-1", "eval/export-timeout-" + provider + "-qwen2-5-0-5b-2"}
			if diff := cmp.Diff(want, ids); diff != "" {
				t.Errorf("case ids mismatch (-want +got):\n%s", diff)
			}
			for _, c := range cases {
				if ps := corpus.CheckDeviations(c, compact.Extractors()); len(ps) > 0 {
					t.Errorf("%s would not lint: %v", c.ID, ps)
				}
			}
			c := cases[0]
			o := c.Origin
			if o.Kind != corpus.Recorded || o.Provider != provider || o.Model != "qwen2.5:0.5b" || o.Date != "2025-03-14" ||
				o.DerivedFrom != "eval/export-timeout" || o.InstructionSHA256 != jobs[0].Request.InstructionSHA256() ||
				o.Parameters["max_tokens"] != compact.MaxTokens || o.Truncated || o.Usage == nil {
				t.Errorf("origin = %+v", o)
			}
			if c.Response != wellFormed || !c.Intended.Found || !strings.HasPrefix(c.Intended.Summary, "1. Primary Request") {
				t.Errorf("response %q, intended %+v; want the answer and robust's extraction", c.Response, c.Intended)
			}
			if !strings.Contains(c.Notes, Unreviewed) || !strings.Contains(c.Notes, "http://localhost:11434/v1") {
				t.Errorf("notes = %q, want the unreviewed marker and the endpoint", c.Notes)
			}
			if c.KeptTail != 2 || len(c.Conversation) != 7 || len(c.Probes) != 2 || c.SummaryFlaws == nil {
				t.Errorf("eval fields: kept_tail %d, %d messages, %d probes, flaws %v", c.KeptTail, len(c.Conversation), len(c.Probes), c.SummaryFlaws)
			}
			assertNoSecret(t, filepath.Dir(s.out), "Xk29dmQp7", s.srv.Key)
		})
	}
}

// assertNoSecret fails if any file below dir holds one of the secrets.
func assertNoSecret(t *testing.T, dir string, secrets ...string) {
	t.Helper()
	files := 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		data, _ := os.ReadFile(path)
		for _, s := range secrets {
			if strings.Contains(string(data), s) {
				t.Errorf("%s holds the secret %q", path, s)
			}
		}
		return nil
	})
	if files == 0 {
		t.Errorf("no file below %s", dir)
	}
}

func TestRerunReplaysAndNeverOverwrites(t *testing.T) {
	s := newSetup(t, Anthropic, "claude-x", 2)
	s.srv.Script("claude-x", recordtest.Reply{Text: wellFormed})
	jobs := s.jobs(t)
	s.rec.Run(context.Background(), jobs)
	calls := s.srv.Calls("claude-x")

	before, _ := os.ReadFile(jobs[0].Path)
	outs := s.rec.Run(context.Background(), jobs)
	if diff := cmp.Diff([]string{StatusExists, StatusExists}, statuses(outs)); diff != "" {
		t.Errorf("rerun statuses mismatch (-want +got):\n%s", diff)
	}
	if outs[0].Case == nil {
		t.Error("an existing case is not read back for the report")
	}
	if after, _ := os.ReadFile(jobs[0].Path); string(after) != string(before) {
		t.Error("a rerun changed an existing case file")
	}

	os.Remove(jobs[1].Path)
	s.rec.Offline = true
	outs = s.rec.Run(context.Background(), jobs)
	if diff := cmp.Diff([]string{StatusExists, StatusReplayed}, statuses(outs)); diff != "" {
		t.Errorf("offline rerun after a deletion mismatch (-want +got):\n%s", diff)
	}
	if got := s.srv.Calls("claude-x"); got != calls {
		t.Errorf("replays called the model: %d calls, want %d", got, calls)
	}

	s.rec.Cache = &Cache{Dir: t.TempDir()}
	os.Remove(jobs[1].Path)
	outs = s.rec.Run(context.Background(), jobs)
	if outs[1].Status != StatusFailed || !errors.Is(outs[1].Err, ErrCacheMiss) {
		t.Errorf("offline with an empty cache = %s, %v; want failed with ErrCacheMiss", outs[1].Status, outs[1].Err)
	}
	if _, err := os.Stat(jobs[1].Path); err == nil {
		t.Error("an offline miss wrote a case file")
	}
}

func TestInterruptedRunResumes(t *testing.T) {
	s := newSetup(t, OpenAI, "m1", 3)
	s.srv.Script("m1", recordtest.Reply{Text: wellFormed})
	s.rec.Parallel = 1
	jobs := s.jobs(t)
	ctx, cancel := context.WithCancel(context.Background())
	s.rec.Done = func(Outcome) { cancel() } // interrupted after the first answer
	outs := s.rec.Run(ctx, jobs)
	if diff := cmp.Diff([]string{StatusRecorded, StatusFailed, StatusFailed}, statuses(outs)); diff != "" {
		t.Fatalf("interrupted run mismatch (-want +got):\n%s", diff)
	}
	var files []string
	filepath.WalkDir(s.out, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, filepath.Base(path))
		}
		return err
	})
	if diff := cmp.Diff([]string{"export-timeout-openai-m1-1.yaml"}, files); diff != "" {
		t.Errorf("files after the interruption mismatch (-want +got):\n%s", diff)
	}
	s.rec.Done = nil
	outs = s.rec.Run(context.Background(), jobs)
	if diff := cmp.Diff([]string{StatusExists, StatusRecorded, StatusRecorded}, statuses(outs)); diff != "" {
		t.Errorf("resumed run mismatch (-want +got):\n%s", diff)
	}
}

func TestFatalErrorStopsTheRun(t *testing.T) {
	s := newSetup(t, Anthropic, "no-such-model", 3)
	s.rec.Parallel = 1
	outs := s.rec.Run(context.Background(), s.jobs(t))
	if !errors.Is(outs[0].Err, ErrModelNotFound) || !errors.Is(outs[1].Err, ErrSkipped) || !errors.Is(outs[2].Err, ErrSkipped) {
		t.Errorf("Run(unknown model) errors = %v, %v, %v; want model not found, then skipped", outs[0].Err, outs[1].Err, outs[2].Err)
	}
	if n := s.srv.Calls("no-such-model"); n != 0 {
		t.Errorf("unscripted model counted %d calls", n)
	}
	if got := len(s.srv.Requests()); got != 1 {
		t.Errorf("the server saw %d requests, want 1", got)
	}
}

func TestDegenerateAnswers(t *testing.T) {
	tests := []struct {
		name           string
		reply          recordtest.Reply
		wantCategories []string
		wantFound      bool
		wantNotes      string
	}{
		{
			name:           "truncated at max_tokens",
			reply:          recordtest.Reply{Text: "<analysis>\nThe export loaded every row.\n</analysis>\n\n<summary>\n1. Primary Request and Intent:\n   Fix the", Truncated: true},
			wantCategories: []string{"eval", "truncated"}, wantFound: true, wantNotes: "cut at the token limit (stop reason ",
		},
		{
			name:           "empty content",
			reply:          recordtest.Reply{},
			wantCategories: []string{"eval", "empty-and-degenerate"}, wantNotes: "The answer holds no text.",
		},
		{
			name:           "thinking only",
			reply:          recordtest.Reply{Thinking: "I should summarize."},
			wantCategories: []string{"eval", "empty-and-degenerate"}, wantNotes: "no text, only thinking (1 blocks)",
		},
	}
	for _, provider := range providers {
		for _, tt := range tests {
			t.Run(provider+"/"+tt.name, func(t *testing.T) {
				s := newSetup(t, provider, "m1", 1)
				s.srv.Script("m1", tt.reply)
				outs := s.rec.Run(context.Background(), s.jobs(t))
				if outs[0].Err != nil {
					t.Fatal(outs[0].Err)
				}
				c, err := corpus.ReadFile(outs[0].Job.Path, outs[0].Job.ID)
				if err != nil {
					t.Fatalf("the case does not read back: %v", err)
				}
				if diff := cmp.Diff(tt.wantCategories, c.Categories); diff != "" {
					t.Errorf("categories mismatch (-want +got):\n%s", diff)
				}
				if c.Intended.Found != tt.wantFound || !strings.Contains(c.Notes, tt.wantNotes) {
					t.Errorf("intended found %v, notes %q; want %v and %q", c.Intended.Found, c.Notes, tt.wantFound, tt.wantNotes)
				}
				if ps := corpus.CheckDeviations(c, compact.Extractors()); len(ps) > 0 {
					t.Errorf("the case would not lint: %v", ps)
				}
			})
		}
	}
}

func TestAnswerRedacted(t *testing.T) {
	s := newSetup(t, OpenAI, "m1", 1)
	token := "ghp" + "_" + "q8Rz1LmX4vTn7bWc2KsY9pDf3HjA6eGu0NoQ" // random-looking: gitleaks skips low-entropy ones
	s.srv.Script("m1", recordtest.Reply{Text: strings.Replace(wellFormed, "Streaming", "Pushed with "+token+" and "+s.srv.Key+"; streaming", 1)})
	outs := s.rec.Run(context.Background(), s.jobs(t))
	if outs[0].Err != nil {
		t.Fatal(outs[0].Err)
	}
	resp := outs[0].Response
	if resp.Redacted != 2 || !strings.Contains(resp.Text, "[REDACTED:github-pat] and [REDACTED:literal]") {
		t.Errorf("answer = %q (%d redacted), want the token and the key redacted", resp.Text, resp.Redacted)
	}
	if !strings.Contains(outs[0].Case.Notes, "Secrets redacted: 1 in the conversation, 2 in the response.") {
		t.Errorf("notes = %q, want the redaction counts", outs[0].Case.Notes)
	}
	assertNoSecret(t, filepath.Dir(s.out), token, s.srv.Key, "Xk29dmQp7")
}
