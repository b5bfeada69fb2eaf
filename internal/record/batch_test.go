package record

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/atomicfile"
	"github.com/compacteval/compacteval/internal/record/recordtest"
	"github.com/google/go-cmp/cmp"
)

func TestBatchSubmitAndCollect(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			s := newSetup(t, provider, "m1", 3)
			s.srv.PendingPolls = 1
			s.srv.Script("m1",
				recordtest.Reply{Text: wellFormed},
				recordtest.Reply{Status: 500, ErrType: "api_error", ErrMessage: "the item failed"},
				recordtest.Reply{Text: "<summary>\nother\n</summary>", Truncated: true})
			jobs := s.jobs(t)

			m, done, err := s.rec.Submit(context.Background(), s.target, jobs)
			if err != nil {
				t.Fatal(err)
			}
			if m == nil || len(m.Items) != 3 || len(done) != 0 {
				t.Fatalf("Submit() = %+v, %d done; want a manifest of 3 items", m, len(done))
			}
			back, err := ReadManifest(s.rec.Cache.Dir, m.ID)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(m, back); diff != "" {
				t.Errorf("ReadManifest() mismatch (-want +got):\n%s", diff)
			}

			status, outs, err := s.rec.Collect(context.Background(), back)
			if err != nil || status != "in_progress" || outs != nil {
				t.Fatalf("Collect(pending) = %q, %v, %v; want in_progress and nothing", status, outs, err)
			}
			_, outs, err = s.rec.Collect(context.Background(), back)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{StatusRecorded, StatusFailed, StatusRecorded}, statuses(outs)); diff != "" {
				t.Fatalf("Collect() statuses mismatch (-want +got):\n%s", diff)
			}
			if !strings.Contains(outs[1].Err.Error(), "the item failed") {
				t.Errorf("a failed item says %v, want the provider's message", outs[1].Err)
			}
			if !outs[2].Case.Origin.Truncated || outs[0].Case.Response != wellFormed {
				t.Errorf("collected cases: %+v, %+v", outs[0].Case.Origin, outs[2].Case.Origin)
			}
			if _, err := corpus.Load(s.out); err != nil {
				t.Errorf("the collected cases do not load cleanly: %v", err)
			}

			// Collecting again writes nothing new; the answers are cached for plain runs too.
			_, outs, _ = s.rec.Collect(context.Background(), back)
			if diff := cmp.Diff([]string{StatusExists, StatusFailed, StatusExists}, statuses(outs)); diff != "" {
				t.Errorf("second Collect() mismatch (-want +got):\n%s", diff)
			}
			os.Remove(jobs[0].Path)
			s.rec.Offline = true
			if outs := s.rec.Run(context.Background(), jobs[:1]); outs[0].Status != StatusReplayed {
				t.Errorf("a collected answer does not replay offline: %s %v", outs[0].Status, outs[0].Err)
			}
			assertNoSecret(t, s.rec.Cache.Dir, s.srv.Key, "Xk29dmQp7")
		})
	}
}

func TestBatchSkipsWhatIsDone(t *testing.T) {
	s := newSetup(t, Anthropic, "m1", 2)
	s.srv.Script("m1", recordtest.Reply{Text: wellFormed})
	jobs := s.jobs(t)
	s.rec.Run(context.Background(), jobs[:1])
	m, done, err := s.rec.Submit(context.Background(), s.target, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 1 || done[0].Status != StatusExists || len(m.Items) != 1 || m.Items[0].Sample != 2 {
		t.Errorf("Submit() sent %d items with %d done, want sample 2 only", len(m.Items), len(done))
	}
	s.rec.Run(context.Background(), jobs[1:])
	if m, _, err := s.rec.Submit(context.Background(), s.target, jobs); m != nil || err != nil {
		t.Errorf("Submit(everything recorded) = %v, %v; want no batch", m, err)
	}
}

func TestCollectRefusesAChangedSource(t *testing.T) {
	s := newSetup(t, OpenAI, "m1", 1)
	s.srv.Script("m1", recordtest.Reply{Text: wellFormed})
	src := source(t)
	data, _ := os.ReadFile(src.File)
	copyPath := filepath.Join(t.TempDir(), "eval", "export-timeout.yaml")
	if err := atomicfile.Write(copyPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	moved, err := corpus.ReadFile(copyPath, src.ID)
	if err != nil {
		t.Fatal(err)
	}
	jobs, _, _ := s.target.Jobs([]*corpus.Case{moved})
	m, _, err := s.rec.Submit(context.Background(), s.target, jobs)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(copyPath, []byte(strings.Replace(string(data), "Run the tests please.", "Run the tests now.", 1)), 0o644)
	_, outs, err := s.rec.Collect(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if outs[0].Status != StatusFailed || !strings.Contains(outs[0].Err.Error(), "changed since the batch was submitted") {
		t.Errorf("Collect(changed source) = %s, %v; want a failure that says so", outs[0].Status, outs[0].Err)
	}
}

func TestReadManifestMissing(t *testing.T) {
	if _, err := ReadManifest(t.TempDir(), "msgbatch_404"); err == nil || !strings.Contains(err.Error(), "msgbatch_404") {
		t.Errorf("ReadManifest(missing) = %v, want an error naming the batch", err)
	}
}

// TestCollectJobs checks that a caller with its own instructions (compacteval review)
// collects a batch by matching items to its jobs by key, where Collect, which rebuilds
// the seed's requests from the sources, could not.
func TestCollectJobs(t *testing.T) {
	s := newSetup(t, OpenAI, "m1", 2)
	s.srv.Script("m1", recordtest.Reply{Text: wellFormed})
	s.target.Prompt = func(o compact.Options) (string, error) { return "SUMMARIZE " + string(o.Reason), nil }
	jobs := s.jobs(t)
	m, _, err := s.rec.Submit(context.Background(), s.target, jobs)
	if err != nil || m == nil {
		t.Fatalf("Submit() = %v, %v; want a manifest", m, err)
	}
	if _, outs, err := s.rec.Collect(context.Background(), m); err != nil || outs[0].Err == nil {
		t.Fatalf("Collect() of a batch with another instruction = %v; want its items to fail their key check", err)
	}
	_, outs, err := s.rec.CollectJobs(context.Background(), m, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{StatusRecorded, StatusRecorded}, statuses(outs)); diff != "" {
		t.Fatalf("CollectJobs() statuses mismatch (-want +got):\n%s", diff)
	}
	if got, want := outs[0].Case.Origin.InstructionSHA256, jobs[0].Request.InstructionSHA256(); got != want {
		t.Errorf("the collected case's instruction_sha256 = %s, want %s (the instruction sent)", got, want)
	}
	_, outs, err = s.rec.CollectJobs(context.Background(), m, jobs[1:])
	if err != nil || outs[0].Err == nil || !strings.Contains(outs[0].Err.Error(), "no input of this run") {
		t.Errorf("CollectJobs() without the first job: %v, %+v; want its item to fail naming it", err, outs)
	}
}
