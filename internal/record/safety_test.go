package record

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/compacteval/compacteval/compact"
)

// stubProvider answers every request with a copy of its response and counts the calls.
type stubProvider struct {
	mu    sync.Mutex
	calls int
	resp  Response
}

func (s *stubProvider) Send(ctx context.Context, req *Request) (*Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	r := s.resp
	r.Usage = map[string]int{}
	for k, v := range s.resp.Usage {
		r.Usage[k] = v
	}
	return &r, nil
}

func (s *stubProvider) Submit(ctx context.Context, items []BatchItem) (string, error) {
	return "", errors.New("no batches")
}

func (s *stubProvider) Collect(ctx context.Context, id string) (*BatchResults, error) {
	return nil, errors.New("no batches")
}

// TestNonFiniteTemperature: -temperature NaN panicked in Request.Key (json.Marshal of NaN).
// The key of any request is computed, and no request is built with such a temperature.
func TestNonFiniteTemperature(t *testing.T) {
	for _, temp := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -0.5, 2.5} {
		p := Params{MaxTokens: 100, Temperature: &temp}
		if p.Check() == nil {
			t.Errorf("Params{Temperature: %v}.Check() = nil, want an error", temp)
		}
		r := &Request{Provider: OpenAI, Model: "m", Params: p}
		if k := r.Key(); len(k) != 64 {
			t.Errorf("Key() with temperature %v = %q, want a SHA-256", temp, k)
		}
		if _, err := NewRequest(source(t), OpenAI, "m", p, compact.ReasonThreshold, 1); err == nil || !strings.Contains(err.Error(), "temperature") {
			t.Errorf("NewRequest(temperature %v) = %v, want an error naming the temperature", temp, err)
		}
	}
	ok := 0.7
	if err := (Params{MaxTokens: 100, Temperature: &ok}).Check(); err != nil {
		t.Errorf("Check(temperature 0.7) = %v, want nil", err)
	}
}

// TestTokenCountsChecked: a provider that counted -900,000 tokens made a cost of $-900.
// Such an answer fails (it was still a call, and is counted as one) and is neither
// cached nor written.
func TestTokenCountsChecked(t *testing.T) {
	for _, usage := range []map[string]int{
		{"prompt_tokens": -900000, "completion_tokens": 10},
		{"prompt_tokens": 10, "completion_tokens": math.MaxInt64},
	} {
		s := newSetup(t, OpenAI, "m1", 1)
		stub := &stubProvider{resp: Response{Text: "<summary>x</summary>", Usage: usage}}
		s.rec.Provider = stub
		outs := s.rec.Run(context.Background(), s.jobs(t))
		o := outs[0]
		if o.Status != StatusFailed || !o.Called || o.Err == nil || !strings.Contains(o.Err.Error(), "not a token count") {
			t.Errorf("usage %v: outcome %s, called %v, err %v; want failed, called, \"not a token count\"", usage, o.Status, o.Called, o.Err)
		}
		if _, err := s.rec.Cache.Get(o.Job.Request); !errors.Is(err, ErrCacheMiss) {
			t.Errorf("usage %v: the answer was cached (%v)", usage, err)
		}
		if _, err := os.Stat(o.Job.Path); err == nil {
			t.Errorf("usage %v: the case was written", usage)
		}
	}
}

// TestSameRequestAskedOnce: head's jobs of an extractor-only change ask what base's ask;
// each request is answered once and replayed for the other, whatever the parallelism.
func TestSameRequestAskedOnce(t *testing.T) {
	s := newSetup(t, OpenAI, "m1", 3)
	stub := &stubProvider{resp: Response{Text: "<summary>x</summary>", Usage: map[string]int{"prompt_tokens": 5, "completion_tokens": 2}}}
	s.rec.Provider = stub
	s.rec.Parallel = 8
	base := s.jobs(t)
	head := s.jobs(t)
	for i := range head {
		head[i].ID += "-head"
		head[i].Path = filepath.Join(t.TempDir(), "head.yaml")
	}
	outs := s.rec.Run(context.Background(), append(base, head...))
	if stub.calls != 3 {
		t.Errorf("6 jobs asking 3 requests made %d calls, want 3", stub.calls)
	}
	called := 0
	for _, o := range outs {
		if o.Called {
			called++
		}
	}
	if called != 3 || statuses(outs)[3] != StatusReplayed {
		t.Errorf("outcomes %v, %d called; want 3 called and head's replayed", statuses(outs), called)
	}
}

// TestCacheWritable: a read-only cache is found before anything is paid for.
func TestCacheWritable(t *testing.T) {
	dir := t.TempDir()
	if err := (&Cache{Dir: filepath.Join(dir, "c")}).CheckWritable(); err != nil {
		t.Errorf("CheckWritable(new folder) = %v, want nil", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "c")); len(ents) != 0 {
		t.Errorf("CheckWritable left %d files behind", len(ents))
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	if err := (&Cache{Dir: filepath.Join(file, "cache")}).CheckWritable(); err == nil || !strings.Contains(err.Error(), "cannot keep answers") {
		t.Errorf("CheckWritable(below a file) = %v, want an error", err)
	}
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o555)
	if f, err := os.CreateTemp(ro, "probe"); err == nil { // root writes anywhere
		f.Close()
		t.Skip("the folder is writable despite its mode (running as root)")
	}
	if err := (&Cache{Dir: ro}).CheckWritable(); err == nil || !strings.Contains(err.Error(), "cannot keep answers") {
		t.Errorf("CheckWritable(read-only) = %v, want an error", err)
	}
}
