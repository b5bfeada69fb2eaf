package review

import (
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/internal/protocol"
)

// remote is one extractor profile of a version, answered by the version's process. It
// keeps every answer, so that texts sent ahead in one batch (prefetch) cost one round
// trip, and the eval and drift stages reuse the corpus stage's answers.
type remote struct {
	v       *Version
	profile string

	mu    sync.Mutex
	cache map[string]compact.Extraction
	err   error // the first failure; Extract then answers !OK
}

func newRemote(v *Version, profile string) *remote {
	return &remote{v: v, profile: profile, cache: map[string]compact.Extraction{}}
}

// extractor returns r as a compact.Extractor named name. Its Path is always PathNone: the
// protocol does not say which branch decided.
func (r *remote) extractor(name string) compact.Extractor {
	return compact.Extractor{Name: name, Source: r.v.Desc, Extract: r.extract}
}

func (r *remote) request(text string) protocol.Request {
	req := protocol.Request{Op: "extract", Text: protocol.Str(text)}
	if r.v.named {
		req.Profile = protocol.Str(r.profile)
	}
	return req
}

// extract is safe for concurrent use (drift.Matrix calls it from several goroutines); the
// client answers one request at a time.
func (r *remote) extract(text string) compact.Extraction {
	r.mu.Lock()
	e, ok := r.cache[text]
	r.mu.Unlock()
	if ok {
		return e
	}
	resp, err := r.v.client.Do(r.request(text))
	e, err = r.answer(resp, err)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		if r.err == nil {
			r.err = err
		}
		return compact.Extraction{}
	}
	r.cache[text] = e
	return e
}

func (r *remote) answer(resp protocol.Response, err error) (compact.Extraction, error) {
	switch {
	case err != nil:
		return compact.Extraction{}, err
	case resp.Error != nil:
		return compact.Extraction{}, errors.New(*resp.Error)
	case !resp.HasSummary:
		return compact.Extraction{}, errors.New("the extract answer has no summary field")
	case resp.Summary == nil:
		return compact.Extraction{}, nil
	}
	return compact.Extraction{Summary: *resp.Summary, OK: true}, nil
}

// prefetch sends every text not answered yet in batches.
func (r *remote) prefetch(texts []string) error {
	const batch = 512
	r.mu.Lock()
	var todo []string
	seen := map[string]bool{}
	for _, t := range texts {
		if _, ok := r.cache[t]; !ok && !seen[t] {
			seen[t] = true
			todo = append(todo, t)
		}
	}
	r.mu.Unlock()
	for len(todo) > 0 {
		n := min(batch, len(todo))
		reqs := make([]protocol.Request, n)
		for i, t := range todo[:n] {
			reqs[i] = r.request(t)
		}
		resps, err := r.v.client.DoAll(reqs)
		if err != nil {
			return r.fail(err)
		}
		r.mu.Lock()
		for i, resp := range resps {
			e, err := r.answer(resp, nil)
			if err != nil {
				r.mu.Unlock()
				return r.fail(fmt.Errorf("%w (on a text of %d bytes)", err, len(todo[i])))
			}
			r.cache[todo[i]] = e
		}
		r.mu.Unlock()
		todo = todo[n:]
	}
	return nil
}

func (r *remote) fail(err error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
	}
	return r.failure()
}

// failure returns the first failure of any request, naming the version and profile.
func (r *remote) failure() error {
	if r.err == nil {
		return nil
	}
	return fmt.Errorf("%s %s extract: %w", r.v.Label, r.profile, r.err)
}

// driftTexts returns every response drift.Matrix(pairs, _, seed, n) will extract from,
// sorted: the matrix's samples depend only on its pairs, seed and n, so a first run with an
// extractor that only records them finds them all.
func driftTexts(pairs []drift.Pair, seed int64, n int) []string {
	var mu sync.Mutex
	set := map[string]bool{}
	record := compact.Extractor{Name: "record", Extract: func(s string) compact.Extraction {
		mu.Lock()
		set[s] = true
		mu.Unlock()
		return compact.Extraction{}
	}}
	drift.Matrix(pairs, []compact.Extractor{record}, seed, n)
	texts := make([]string, 0, len(set))
	for s := range set {
		texts = append(texts, s)
	}
	sort.Strings(texts)
	return texts
}
