package record

import (
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
)

// TestJobsRedactOnce: Jobs builds one request per source and copies it per sample, and
// Reprompt reuses a target's requests with another prompt; each job is the one a request
// built for it alone (NewRequest, then the target's prompt) would make, key, id and path.
func TestJobsRedactOnce(t *testing.T) {
	src := source(t)
	src.KeptTail = 2 // the instruction quotes a kept message: the prompt sees the options
	src.Conversation = append([]corpus.Message{{Role: "user", Text: "my key is sk-ant-api03-" + strings.Repeat("a1B2", 20)}}, src.Conversation...)
	base := Target{Provider: "anthropic", Model: "m", Params: Params{MaxTokens: compact.MaxTokens},
		Reason: compact.ReasonThreshold, Samples: 3, Out: "out/base", Secrets: []string{"Secret-Literal"}}
	head := base
	head.Out = "out/head"
	head.Prompt = func(o compact.Options) (string, error) {
		return "head's instruction: " + compact.BuildInstruction(o), nil
	}
	// want is the job of one sample built alone, as Jobs built every one before.
	want := func(tg Target, sample int) Job {
		req, err := NewRequest(src, tg.Provider, tg.Model, tg.Params, tg.Reason, sample, tg.Secrets...)
		if err != nil {
			t.Fatal(err)
		}
		if req.Redacted == 0 {
			t.Fatal("the test's conversation holds no secret to redact")
		}
		if tg.Prompt != nil {
			opts := compact.Options{Reason: tg.Reason}
			opts.KeptTail = compact.KeptTail{Count: src.KeptTail, Opening: Opening(req.Messages[len(req.Messages)-src.KeptTail])}
			if req.Instruction, err = tg.Prompt(opts); err != nil {
				t.Fatal(err)
			}
		}
		id := CaseID(src, tg.Provider, tg.Model, sample)
		return Job{Recording: Recording{Source: src, Request: req, ID: id}, Path: CasePath(tg.Out, id)}
	}
	check := func(name string, tg Target, got []Job) {
		t.Helper()
		if len(got) != tg.Samples {
			t.Fatalf("%s: %d jobs, want %d", name, len(got), tg.Samples)
		}
		for i, j := range got {
			w := want(tg, i+1)
			if j.Request.Key() != w.Request.Key() || j.ID != w.ID || j.Path != w.Path || j.Request.Redacted != w.Request.Redacted {
				t.Errorf("%s: job %d = key %.12s id %s path %s redacted %d, want key %.12s id %s path %s redacted %d",
					name, i, j.Request.Key(), j.ID, j.Path, j.Request.Redacted, w.Request.Key(), w.ID, w.Path, w.Request.Redacted)
			}
		}
	}
	jobs, _, err := base.Jobs([]*corpus.Case{src})
	if err != nil {
		t.Fatal(err)
	}
	check("base.Jobs", base, jobs)
	headJobs, _, err := head.Jobs([]*corpus.Case{src})
	if err != nil {
		t.Fatal(err)
	}
	check("head.Jobs", head, headJobs)
	re, err := head.Reprompt(jobs)
	if err != nil {
		t.Fatal(err)
	}
	check("head.Reprompt(base's jobs)", head, re)
	back, err := base.Reprompt(re)
	if err != nil {
		t.Fatal(err)
	}
	check("base.Reprompt(head's jobs)", base, back)
}
