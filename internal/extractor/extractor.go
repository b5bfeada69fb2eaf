// Package extractor makes an extractor a value, whatever it is made of: a built-in profile
// of package compact, a user's TypeScript or JavaScript module run under Node, or any
// process that speaks the reference protocol (docs/protocol.md).
//
// An external extractor is one long-lived process. Texts are sent ahead in pipelined
// batches (Prefetch) and the answers are kept, up to CacheBytes of answers (the oldest go
// first), so the stages of a run (corpus, drift, eval) cost one round trip per
// batch, not one per text, and on a corpus whose texts fit never ask for a text twice.
package extractor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/par"
	"github.com/compacteval/compacteval/internal/protocol"
)

// Extractor is one extractor: a built-in profile, or one profile of an external
// implementation. Its methods are safe for concurrent use.
type Extractor struct {
	// Name is how reports and the gate name it: the -extractor value as given
	// ("robust", "module:src/compaction.ts", "cmd:python3 tools/extract.py").
	Name string
	// Source says where its behaviour comes from.
	Source string
	// Impl is what answers it; nil for a built-in profile.
	Impl *Impl

	builtin func(string) compact.Extraction
	profile string // the profile of Impl it asks for; "" sends none

	mu    sync.Mutex
	cache answers
	err   error // the first failure; Extract then answers !OK
	owned bool  // Close closes Impl
}

// ErrUnknown is returned by Open for a name that is no built-in profile and no
// module: or cmd: value.
var ErrUnknown = errors.New("unknown extractor")

// Open returns the extractor a -extractor value names:
//
//   - a built-in profile name (compacteval extract -h lists them);
//   - module:FILE, a TypeScript (.ts, .mts, .cts) or JavaScript (.mjs, .js, .cjs) module
//     exporting extractSummary, bundled by esbuild and run under Node;
//   - cmd:COMMAND, run with sh -c, answering docs/protocol.md on stdin and stdout.
//
// When ctx is done the extractor's process is killed (Kill). The caller closes what Open
// returns.
func Open(ctx context.Context, value string, opt OpenOptions) (*Extractor, error) {
	kind, arg, ok := strings.Cut(value, ":")
	if !ok {
		ex, found := compact.Lookup(value)
		if !found {
			return nil, fmt.Errorf("%w %q: want one of %s, module:FILE or cmd:COMMAND", ErrUnknown, value, strings.Join(compact.ExtractorNames(), ", "))
		}
		return Builtin(ex), nil
	}
	if arg == "" {
		return nil, fmt.Errorf("extractor %q: nothing after %s:", value, kind)
	}
	var im *Impl
	var err error
	switch kind {
	case "module":
		im, err = OpenModule(ctx, arg, opt)
	case "cmd":
		im, err = OpenCommand(ctx, arg, opt)
	default:
		return nil, fmt.Errorf("%w %q: want a built-in name, module:FILE or cmd:COMMAND", ErrUnknown, value)
	}
	if err != nil {
		return nil, fmt.Errorf("extractor %s: %w", value, err)
	}
	if len(im.Profiles) == 0 {
		im.Close()
		return nil, fmt.Errorf("extractor %s: it answers no extract request", value)
	}
	ex := Remote(im, "", value)
	ex.owned = true
	return ex, nil
}

// OpenAll opens every value, or none: on error what was opened is closed again.
func OpenAll(ctx context.Context, values []string, opt OpenOptions) ([]*Extractor, error) {
	var out []*Extractor
	seen := map[string]bool{}
	for _, v := range values {
		if seen[v] {
			CloseAll(out)
			return nil, fmt.Errorf("extractor %s given twice", v)
		}
		seen[v] = true
		ex, err := Open(ctx, v, opt)
		if err != nil {
			CloseAll(out)
			return nil, err
		}
		if ex.Name != v && seen[ex.Name] { // an alias and the version it names
			CloseAll(append(out, ex))
			return nil, fmt.Errorf("extractor %s given twice (%s is %s)", ex.Name, v, ex.Name)
		}
		seen[ex.Name] = true
		out = append(out, ex)
	}
	return out, nil
}

// Builtins returns every built-in profile, seed first.
func Builtins() []*Extractor {
	var out []*Extractor
	for _, ex := range compact.Extractors() {
		out = append(out, Builtin(ex))
	}
	return out
}

// Builtin returns the built-in profile ex as an Extractor.
func Builtin(ex compact.Extractor) *Extractor {
	return &Extractor{Name: ex.Name, Source: ex.Source, builtin: ex.Extract}
}

// Remote returns profile of im as an extractor named name; profile "" asks im for its
// default (the only one of a module). Closing it leaves im open.
func Remote(im *Impl, profile, name string) *Extractor {
	ex := &Extractor{Name: name, Source: im.Desc, Impl: im}
	if im.named {
		ex.profile = profile
	}
	return ex
}

// Pid returns the id of the extractor's process, or 0 for a built-in.
func (e *Extractor) Pid() int {
	if e == nil || e.Impl == nil || e.Impl.proc == nil {
		return 0
	}
	return e.Impl.proc.Pid()
}

// External reports whether the extractor is a process (a module or a command).
func (e *Extractor) External() bool { return e.builtin == nil }

// Close ends the extractor's process if it owns one.
func (e *Extractor) Close() error {
	if e == nil || !e.owned {
		return nil
	}
	return e.Impl.Close()
}

// Kill ends the extractor's process group at once, owned or not (a profile of a shared
// implementation kills the implementation), from any goroutine: a request being answered
// fails and the extractor answers !OK from then on. Kill of a built-in does nothing.
func (e *Extractor) Kill() {
	if e != nil && e.Impl != nil {
		e.Impl.Kill()
	}
}

// CloseAll closes every extractor.
func CloseAll(exs []*Extractor) {
	for _, e := range exs {
		e.Close()
	}
}

// Compact returns the extractor as a compact.Extractor, for the code that calls an
// extraction function (drift.Matrix, eval.Score). Path is PathNone for an external
// extractor: the protocol does not say which branch decided.
func (e *Extractor) Compact() compact.Extractor {
	return compact.Extractor{Name: e.Name, Source: e.Source, Extract: e.Extract}
}

// Extract returns the extraction of text: from the kept answers when Prefetch sent it
// ahead, otherwise with one request. After a failure an external extractor answers !OK;
// Err returns the failure.
func (e *Extractor) Extract(text string) compact.Extraction {
	if e.builtin != nil {
		return e.builtin(text)
	}
	k := keyOf(text)
	e.mu.Lock()
	got, ok := e.cache.get(k)
	failed := e.err != nil
	e.mu.Unlock()
	if ok || failed {
		return got
	}
	out, err := e.fetch([]string{text}, []textKey{k})
	if err != nil {
		return compact.Extraction{}
	}
	return out[0]
}

// ExtractAll returns the extractions of texts, in order: in parallel on every core for a
// built-in, in pipelined batches for a process.
func (e *Extractor) ExtractAll(texts []string) ([]compact.Extraction, error) {
	out := make([]compact.Extraction, len(texts))
	if e.builtin != nil {
		par.Do(len(texts), func(i int) { out[i] = e.builtin(texts[i]) })
		return out, nil
	}
	if e.Err() != nil {
		return nil, e.Err()
	}
	// The kept answers are read before the fetch, which may push them out.
	var todo []string
	var keys []textKey
	at := map[textKey][]int{} // text to fetch -> its places in texts
	e.mu.Lock()
	for i, t := range texts {
		k := keyOf(t)
		if x, ok := e.cache.get(k); ok {
			out[i] = x
			continue
		}
		if _, ok := at[k]; !ok {
			todo, keys = append(todo, t), append(keys, k)
		}
		at[k] = append(at[k], i)
	}
	e.mu.Unlock()
	got, err := e.fetch(todo, keys)
	if err != nil {
		return nil, err
	}
	for j, k := range keys {
		for _, i := range at[k] {
			out[i] = got[j]
		}
	}
	return out, nil
}

// Err returns the first failure of the extractor's process, naming the extractor.
func (e *Extractor) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err == nil {
		return nil
	}
	return fmt.Errorf("extractor %s: %w", e.Name, e.err)
}

// Batch is the number of requests sent to a process before its answers are read.
const Batch = 256

// Prefetch sends every text not answered yet, in batches, and keeps the answers. An answer
// that is an error, or a process that stops answering, fails the extractor: every later
// Extract answers !OK and Err says why.
func (e *Extractor) Prefetch(texts []string) error {
	if e.builtin != nil {
		return nil
	}
	if err := e.Err(); err != nil {
		return err
	}
	var todo []string
	var keys []textKey
	seen := map[textKey]bool{}
	e.mu.Lock()
	for _, t := range texts {
		k := keyOf(t)
		if _, ok := e.cache.get(k); !ok && !seen[k] {
			seen[k] = true
			todo, keys = append(todo, t), append(keys, k)
		}
	}
	e.mu.Unlock()
	_, err := e.fetch(todo, keys)
	return err
}

// fetch sends texts in batches and returns their answers in order, keeping them under
// keys (keys[i] is keyOf(texts[i])).
func (e *Extractor) fetch(texts []string, keys []textKey) ([]compact.Extraction, error) {
	out := make([]compact.Extraction, 0, len(texts))
	for todo := texts; len(todo) > 0; {
		n := min(Batch, len(todo))
		reqs := make([]protocol.Request, n)
		for i, t := range todo[:n] {
			reqs[i] = protocol.Request{Op: "extract", Text: protocol.Str(t)}
			if e.profile != "" {
				reqs[i].Profile = protocol.Str(e.profile)
			}
		}
		resps, err := e.Impl.client.DoAll(reqs)
		if err != nil {
			return nil, e.fail(err)
		}
		e.mu.Lock()
		for i, resp := range resps {
			x, err := answer(resp)
			if err != nil {
				e.mu.Unlock()
				return nil, e.fail(fmt.Errorf("%w (on a text of %d bytes)", err, len(todo[i])))
			}
			e.cache.put(keys[i], x)
			out = append(out, x)
		}
		e.mu.Unlock()
		todo, keys = todo[n:], keys[n:]
	}
	return out, nil
}

// Forget drops the kept answers (a fuzz run sends millions of texts once each).
func (e *Extractor) Forget() {
	e.mu.Lock()
	e.cache = answers{}
	e.mu.Unlock()
}

func (e *Extractor) fail(err error) error {
	e.mu.Lock()
	if e.err == nil {
		e.err = err
	}
	e.mu.Unlock()
	return e.Err()
}

func answer(resp protocol.Response) (compact.Extraction, error) {
	switch {
	case resp.Error != nil:
		return compact.Extraction{}, fmt.Errorf("answered an error: %s", *resp.Error)
	case !resp.HasSummary:
		return compact.Extraction{}, errors.New("the extract answer has no summary field")
	case resp.Summary == nil:
		return compact.Extraction{}, nil
	}
	return compact.Extraction{Summary: *resp.Summary, OK: true}, nil
}

// Values is a flag.Value for a repeatable -extractor flag.
type Values []string

func (v *Values) String() string { return strings.Join(*v, ",") }

// Set adds one value.
func (v *Values) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("empty extractor")
	}
	*v = append(*v, s)
	return nil
}

// Names returns the extractors' names.
func Names(exs []*Extractor) []string {
	out := make([]string, len(exs))
	for i, e := range exs {
		out[i] = e.Name
	}
	return out
}
