package record

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/atomicfile"
	"github.com/compacteval/compacteval/internal/redact"
)

// Job is one sample of one source case to record, and the file it goes to.
type Job struct {
	Recording
	Path string
}

// Target says what to record and where.
type Target struct {
	Provider string
	Model    string
	Params   Params
	Reason   compact.Reason
	// Samples is how many answers to record per source case (-n).
	Samples int
	// Out is the cases root the new files go below.
	Out string
	// Endpoint is the base URL, noted in each case; empty for the provider's own API.
	Endpoint string
	// Secrets are literal values to redact besides the patterns (the API key in use).
	Secrets []string
	// Prompt builds the instruction sent after the conversation; nil is the seed's
	// (compact.BuildInstruction). record -prompt module:FILE sets the user's.
	Prompt func(compact.Options) (string, error)
}

// Jobs returns a job per source case with a conversation and per sample, in source order;
// skipped lists the ids of the sources without a conversation.
func (t Target) Jobs(sources []*corpus.Case) (jobs []Job, skipped []string, err error) {
	for _, src := range sources {
		if len(src.Conversation) == 0 {
			skipped = append(skipped, src.ID)
			continue
		}
		req, err := NewRequest(src, t.Provider, t.Model, t.Params, t.Reason, 1, t.Secrets...)
		if err != nil {
			return nil, nil, err
		}
		// Redacting the conversation is the slow part of a job: it is done once per source,
		// and the samples' requests differ in Sample alone.
		for n := 1; n <= t.Samples; n++ {
			r := *req
			r.Sample = n
			job, err := t.job(src, &r)
			if err != nil {
				return nil, nil, err
			}
			jobs = append(jobs, job)
		}
	}
	return jobs, skipped, nil
}

// Reprompt returns jobs for t: the same sources, samples and redacted conversations, with
// t's instruction and case files below t.Out. t differs from the target that made jobs in
// Prompt and Out alone (internal/abtest asks two prompts on the same conversations, and
// redacts each once).
func (t Target) Reprompt(jobs []Job) ([]Job, error) {
	out := make([]Job, len(jobs))
	for i, j := range jobs {
		r := *j.Request
		r.Instruction = compact.BuildInstruction(keptTailOptions(j.Source, r.Messages, t.Reason))
		job, err := t.job(j.Source, &r)
		if err != nil {
			return nil, err
		}
		out[i] = job
	}
	return out, nil
}

// job returns the job of src asking req (its conversation redacted, NewRequest), with t's
// instruction when t has a Prompt.
func (t Target) job(src *corpus.Case, req *Request) (Job, error) {
	if t.Prompt != nil {
		var err error
		if req.Instruction, err = t.Prompt(keptTailOptions(src, req.Messages, t.Reason)); err != nil {
			return Job{}, fmt.Errorf("build the instruction for %s: %w", src.ID, err)
		}
	}
	id := CaseID(src, t.Provider, t.Model, req.Sample)
	return Job{
		Recording: Recording{Source: src, Request: req, ID: id, Endpoint: t.Endpoint},
		Path:      CasePath(t.Out, id),
	}, nil
}

// Outcome statuses.
const (
	StatusRecorded = "recorded" // the model answered; the case was written
	StatusReplayed = "replayed" // the answer came from the cache; the case was written
	StatusExists   = "exists"   // the case file was already there and was left alone
	StatusFailed   = "failed"
)

// Outcome is what became of one job.
type Outcome struct {
	Job    *Job
	Status string
	// Case is the written or existing case; nil when it failed or cannot be read.
	Case *corpus.Case
	// Response is the answer, when there is one (nil for an existing file).
	Response *Response
	// Called reports that the provider was asked (and may have charged), whatever the
	// status: an answer that could not be kept after it was paid for is still a call made.
	Called bool
	Err    error
}

// Recorder runs jobs: from the case file if it exists, else from the cache, else from the
// provider; each case file is created atomically and never overwritten.
type Recorder struct {
	// Provider may be nil when Offline.
	Provider Provider
	Retry    Retry
	// Cache may be nil: then nothing is replayed or kept.
	Cache *Cache
	// Offline fails a job whose answer is not cached instead of calling the provider.
	Offline bool
	// Parallel is how many calls run at once (at least 1).
	Parallel int
	// Now gives the date of an answer; nil means time.Now.
	Now func() time.Time
	// Secrets are literal values redacted from answers and errors besides the patterns (the
	// API key in use, the base URL's query values); a case file that would still hold one
	// is not written.
	Secrets []string
	// MaxCaseBytes bounds a case file; 0 means DefaultMaxCaseBytes.
	MaxCaseBytes int
	// Done, when set, hears of each outcome as it happens (for progress), one at a time.
	Done func(Outcome)
}

// ErrSkipped marks jobs not run because an earlier one failed in a way that every job
// would (a refused key, an unknown model, a wrong endpoint, no server).
var ErrSkipped = errors.New("not run after an earlier error")

// Run runs every job and returns their outcomes in job order. A refused key, an unknown
// model, a wrong endpoint or a refused connection stops the jobs not yet started; ctx's
// cancellation stops all.
func (r *Recorder) Run(ctx context.Context, jobs []Job) []Outcome {
	out := make([]Outcome, len(jobs))
	var (
		mu    sync.Mutex
		fatal bool
		wg    sync.WaitGroup
	)
	// Jobs asking the same request (an extractor-only change asks head what base asked)
	// run one at a time, so that the later one replays the earlier's answer.
	same := map[string]*sync.Mutex{}
	for i := range jobs {
		if k := jobs[i].Request.Key(); same[k] == nil {
			same[k] = &sync.Mutex{}
		}
	}
	next := make(chan int)
	for range max(r.Parallel, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				mu.Lock()
				stop := fatal
				mu.Unlock()
				var o Outcome
				if stop || ctx.Err() != nil {
					o = Outcome{Job: &jobs[i], Status: StatusFailed, Err: ErrSkipped}
				} else {
					m := same[jobs[i].Request.Key()]
					m.Lock()
					o = r.one(ctx, &jobs[i])
					m.Unlock()
					o.Err = r.Clean(o.Err)
				}
				mu.Lock()
				if stopsRun(o.Err) {
					fatal = true
				}
				out[i] = o
				if r.Done != nil {
					r.Done(o)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// stopsRun reports whether err would fail every other job too.
func stopsRun(err error) bool {
	return errors.Is(err, ErrUnauthorized) || errors.Is(err, ErrModelNotFound) ||
		errors.Is(err, ErrEndpointNotFound) || errors.Is(err, syscall.ECONNREFUSED)
}

func (r *Recorder) one(ctx context.Context, job *Job) Outcome {
	if o, ok := existing(job); ok {
		return o
	}
	status := StatusReplayed
	resp, err := r.cached(job.Request)
	switch {
	case errors.Is(err, ErrCacheMiss) && r.Offline:
		return Outcome{Job: job, Status: StatusFailed, Err: fmt.Errorf("%w (-offline)", err)}
	case errors.Is(err, ErrCacheMiss):
		status = StatusRecorded
		err = r.Retry.Do(ctx, func(ctx context.Context) error {
			var err error
			resp, err = r.Provider.Send(ctx, job.Request)
			return err
		})
		if err != nil {
			return Outcome{Job: job, Status: StatusFailed, Called: true, Err: err}
		}
		if err := r.finish(resp); err != nil {
			return Outcome{Job: job, Status: StatusFailed, Called: true, Err: fmt.Errorf("%s: %w", job.ID, err)}
		}
		if r.Cache != nil {
			if err := r.Cache.Put(job.Request, resp); err != nil {
				return Outcome{Job: job, Status: StatusFailed, Response: resp, Called: true, Err: err}
			}
		}
		o := r.write(job, status, resp)
		o.Called = true
		return o
	case err != nil:
		return Outcome{Job: job, Status: StatusFailed, Err: err}
	}
	return r.write(job, status, resp)
}

func (r *Recorder) cached(req *Request) (*Response, error) {
	if r.Cache == nil {
		return nil, ErrCacheMiss
	}
	return r.Cache.Get(req)
}

// finish dates and redacts a fresh answer, before anything keeps it: its text, and the
// literal secrets from every other string the server sent. It removes the token counts
// that are no count (CheckUsage) and returns their error: the answer is not kept.
func (r *Recorder) finish(resp *Response) error {
	bad := CheckUsage(resp.Usage)
	for k, v := range resp.Usage {
		if v < 0 || v > MaxTokenCount {
			delete(resp.Usage, k)
		}
	}
	resp.Date = r.today()
	text, n := redact.Literals(resp.Text, r.Secrets...)
	text, m := redact.String(text)
	resp.Text, resp.Redacted = text, n+m
	resp.Model, _ = redact.Literals(resp.Model, r.Secrets...)
	resp.StopReason, _ = redact.Literals(resp.StopReason, r.Secrets...)
	usage := make(map[string]int, len(resp.Usage))
	for k, v := range resp.Usage {
		k, _ = redact.Literals(k, r.Secrets...)
		usage[k] = v
	}
	if resp.Usage != nil {
		resp.Usage = usage
	}
	return bad
}

// MaxTokenCount is the largest token count believed from a provider: no context window
// comes near it, and a sum of such counts cannot overflow.
const MaxTokenCount = 1 << 30

// CheckUsage returns an error naming a token count that is negative or over
// MaxTokenCount (a cost of $-900 came from one), or nil.
func CheckUsage(usage map[string]int) error {
	for _, k := range sortedKeys(usage) {
		if v := usage[k]; v < 0 || v > MaxTokenCount {
			return fmt.Errorf("the provider counted %d %s: not a token count (0 to %d)", v, k, MaxTokenCount)
		}
	}
	return nil
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Clean returns err with the literal secrets removed from its text; errors.Is and
// errors.As still see what it wraps. It returns nil for nil.
func (r *Recorder) Clean(err error) error {
	if err == nil {
		return nil
	}
	if text, n := redact.Literals(err.Error(), r.Secrets...); n > 0 {
		return &cleanError{text: text, err: err}
	}
	return err
}

// cleanError is an error whose text had a secret.
type cleanError struct {
	text string
	err  error
}

func (e *cleanError) Error() string { return e.text }
func (e *cleanError) Unwrap() error { return e.err }

// CaseTooLargeError reports a recorded case over the bound on a case file.
type CaseTooLargeError struct {
	ID          string
	Size, Limit int
}

func (e *CaseTooLargeError) Error() string {
	return fmt.Sprintf("recorded case %s would be %s, over the %s limit on a case file", e.ID, byteSize(int64(e.Size)), byteSize(int64(e.Limit)))
}

func (e *CaseTooLargeError) Unwrap() error { return ErrTooLarge }

// write creates the case file of an answer; a file that appeared meanwhile is left alone.
func (r *Recorder) write(job *Job, status string, resp *Response) Outcome {
	c, data, err := NewCase(job.Recording, resp)
	if err != nil {
		return Outcome{Job: job, Status: StatusFailed, Response: resp, Err: err}
	}
	c.File = job.Path
	limit := r.MaxCaseBytes
	if limit <= 0 {
		limit = DefaultMaxCaseBytes
	}
	if len(data) > limit {
		return Outcome{Job: job, Status: StatusFailed, Response: resp, Err: &CaseTooLargeError{ID: job.ID, Size: len(data), Limit: limit}}
	}
	if _, n := redact.Literals(string(data), r.Secrets...); n > 0 {
		return Outcome{Job: job, Status: StatusFailed, Response: resp, Err: fmt.Errorf("recorded case %s would hold a secret (the API key or a base URL query value); not written", job.ID)}
	}
	if err := atomicfile.Create(job.Path, data, 0o644); err != nil {
		if errors.Is(err, atomicfile.ErrExists) {
			o, _ := existing(job)
			return o
		}
		return Outcome{Job: job, Status: StatusFailed, Response: resp, Err: err}
	}
	return Outcome{Job: job, Status: status, Case: c, Response: resp}
}

// existing returns the outcome for a job whose case file is already there: it is read for
// the report, and left alone even when it does not read (a person may be editing it).
func existing(job *Job) (Outcome, bool) {
	if _, err := os.Stat(job.Path); err != nil {
		return Outcome{}, false
	}
	o := Outcome{Job: job, Status: StatusExists}
	// A case with problems still comes back as far as it decoded; the report uses it.
	o.Case, _ = corpus.ReadFile(job.Path, job.ID)
	return o, true
}
