package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/abtest"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/record"
)

const recordUsage = `Usage: compacteval record -provider anthropic|openai -model NAME [flags] CASE...
       compacteval record -collect ID [-cache DIR] [-json]

Sends the conversation of each CASE followed by the compaction instruction to a real
model, as the agent does (with the kept-tail note where the case keeps a tail, max_tokens
32000 unless -max-tokens), and writes each answer as a new case with origin recorded:
model, provider, date, SHA-256 of the instruction, parameters, stop reason, truncation and
token usage. A CASE is a case file, a folder (its cases with a conversation), or a
category or case of the corpus inside the binary: embedded/eval,
embedded/eval/gok8s-operator-reconcile-hot-loop-complete.

-provider openai covers every OpenAI-compatible server, so small local models served by
Ollama, llama.cpp or vLLM are recorded the same way (-base-url http://localhost:11434/v1
for Ollama, http://localhost:8080/v1 for llama-server, http://localhost:8000/v1 for vLLM).

New cases go below -out as <folder>/<source name>-<provider>-<model>-<n>.yaml, their id
the same path without .yaml. Their intended summary is the robust extractor's result and
their summary_flaws is [], both marked "not yet reviewed by a person" in the notes: judge
them, then move the file into corpus/cases (and run make golden). A case file is never
overwritten: a rerun skips the samples already written, so an interrupted run resumes.

-prompt sets the instruction: seed (compacteval's port of the seed module), module:FILE
(the buildCompactionInstruction of a TypeScript or JavaScript module, with the kept-tail
note it builds), cmd:COMMAND (a process answering instruction requests) or text:FILE (an
instruction text, framed as the seed frames its own). Each case records the SHA-256 of
the instruction actually sent.

Secrets: the conversation is redacted (API keys, tokens, JWTs, private keys, passwords in
URLs and prose, password flags, KEY=value settings) before it is sent, the answer before it
is cached or written. The API key is read from the environment only (ANTHROPIC_API_KEY,
OPENAI_API_KEY, or the variable -api-key-env names; a local server needs none). It is sent
to the provider's own host (api.anthropic.com, api.openai.com); to any other -base-url only
with -send-key-to-base-url, and never over plain http to a host that is not a loopback
address. The key and the base URL's query values are removed from everything record
prints or writes (a server's error that echoes them included).

Bounds: a response body over -max-response-bytes (default 8 MiB; a batch's result file
that much per request) fails its request; a case file over -max-case-bytes (default
4 MiB) is not written. Both name the case and the request.

Replay: every answer is cached in -cache under the SHA-256 of provider, model, parameters,
messages, instruction and sample index, so a rerun costs nothing. -offline never calls a
model and fails on a cache miss (CI).

Cost: before the first call, the calls to make (neither a case file nor the cache has the
answer) are priced with -price IN,OUT (dollars per million tokens), the table of the
providers' current models, or 0 for a server on this machine. A price not known cannot be
checked: the run is refused unless -max-cost 0 says it may cost anything; -max-cost stops
a run whose estimate (4 bytes a token in, 2000 tokens an answer out) is over it.

-n K records K answers per input and prints how much they vary: distinct answers, and per
extractor the distinct extractions, found/not found and the range of eval's coverage and
boundary coverage (measured flakiness). -json prints the cases and that report as one
document instead.

Calls are retried on 429 and 5xx, after what retry-after asks (at most -max-wait) or 1s,
2s, 4s, ...; each call has -timeout. A refused key (401) and an unknown model or base URL
(404) stop the run with a message that says so.

-batch sends the calls not yet answered or cached as one provider batch (Anthropic Message
Batches, OpenAI Batch API), prints its id and keeps a manifest in -cache. -collect ID
writes the cases once the batch has ended; run it from the same folder.

Exit codes: 0 every case written or already there; 1 the batch is still running; 2 usage
error, unreadable case, or a call that failed (refused key, unknown model, retries spent,
offline cache miss, failed batch item).

Examples:
  ollama pull qwen2.5:0.5b
  compacteval record -provider openai -base-url http://localhost:11434/v1 \
      -model qwen2.5:0.5b -n 3 embedded/eval
  ANTHROPIC_API_KEY=... compacteval record -provider anthropic -model claude-haiku-4-5 \
      embedded/eval/gok8s-operator-reconcile-hot-loop-complete
  compacteval record -offline -provider openai -model qwen2.5:0.5b -n 3 embedded/eval
  compacteval record -provider anthropic -model claude-haiku-4-5 -n 5 -batch tests/my-cases
  compacteval record -collect msgbatch_01HkcTjaV5uDC8jWR4ZsDV8d
`

// recordFlags are the parsed flags of compacteval record.
type recordFlags struct {
	provider, model, baseURL, keyEnv string
	samples, maxTokens, parallel     int
	retries                          int
	temperature, reason, tools       string
	out, cache, collect              string
	offline, batch, asJSON           bool
	sendKey                          bool
	timeout, maxWait                 time.Duration
	prompt                           string
	maxResponse, maxCase             int
	// maxCost and price are record's cap (review has its own flags of the same names).
	maxCost float64
	price   string
	costSet bool
	// review is set for compacteval review's A/B run, which shares these flags.
	review bool
}

func parseRecordFlags(args []string, stderr io.Writer) (*recordFlags, []string, int) {
	f := &recordFlags{}
	fs := newFlags("record", recordUsage, stderr)
	f.registerCall(fs)
	fs.IntVar(&f.samples, "n", 1, "answers to record per input")
	limit(fs, "n", 1, abtest.MaxSamples, "each sample is a paid call per input")
	fs.StringVar(&f.prompt, "prompt", "seed", "the instruction sent: seed, module:FILE (its buildCompactionInstruction), cmd:COMMAND or text:FILE")
	fs.StringVar(&f.out, "out", "corpus/inbox", "cases root the new cases go below")
	fs.StringVar(&f.collect, "collect", "", "collect the batch with this id and write its cases")
	fs.BoolVar(&f.asJSON, "json", false, "print the cases and the variation report as one JSON document")
	fs.Float64Var(&f.maxCost, "max-cost", 0, "stop before the first call when the calls to make would cost more (US dollars; 0: no limit)")
	fs.StringVar(&f.price, "price", "", "dollars per million tokens `IN,OUT` (default: the table, or 0 for a local server)")
	limit(fs, "max-cost", 0, 1e6, "a cap is a sum of dollars")
	limit(fs, "price", 0, 1e4, "dollars per million tokens; the dearest models cost hundreds")
	if code := parseFlags(fs, args); code >= 0 {
		return nil, nil, code
	}
	fs.Visit(func(fl *flag.Flag) { f.costSet = f.costSet || fl.Name == "max-cost" })
	if msg := f.check(fs); msg != "" {
		fmt.Fprintf(stderr, "compacteval record: %s\n", msg)
		return nil, nil, exitError
	}
	return f, fs.Args(), -1
}

// registerCall registers the flags that say how to call a model, which review's A/B run
// shares with record.
func (f *recordFlags) registerCall(fs *flag.FlagSet) {
	fs.StringVar(&f.provider, "provider", "", "API to call: anthropic or openai (any OpenAI-compatible server)")
	fs.StringVar(&f.model, "model", "", "model name, as the server knows it (ollama list shows Ollama's)")
	fs.StringVar(&f.baseURL, "base-url", "", "server base URL; empty for the provider's own API")
	fs.StringVar(&f.keyEnv, "api-key-env", "", "environment variable holding the API key (default ANTHROPIC_API_KEY or OPENAI_API_KEY)")
	fs.BoolVar(&f.sendKey, "send-key-to-base-url", false, "send the API key to a -base-url that is not the provider's own host (never over plain http to another machine)")
	fs.IntVar(&f.maxResponse, "max-response-bytes", record.DefaultMaxResponseBytes, "longest response body read from the provider, per request of a batch")
	fs.IntVar(&f.maxCase, "max-case-bytes", record.DefaultMaxCaseBytes, "largest case file written")
	fs.IntVar(&f.maxTokens, "max-tokens", compact.MaxTokens, "max_tokens of each call")
	fs.StringVar(&f.temperature, "temperature", "", "sampling temperature; empty for the provider's default")
	fs.StringVar(&f.reason, "reason", string(compact.ReasonThreshold), "what triggered the compaction, for the instruction: manual, threshold or overflow")
	fs.StringVar(&f.tools, "tools", "declare", "tool calls in the conversation: declare (tool blocks, tools declared) or text (for models without tool support)")
	fs.StringVar(&f.cache, "cache", record.DefaultCacheDir, "replay cache and batch manifests")
	fs.BoolVar(&f.offline, "offline", false, "never call a model: replay from -cache, fail on a miss")
	fs.BoolVar(&f.batch, "batch", false, "submit the calls as one provider batch instead of calling now")
	fs.DurationVar(&f.timeout, "timeout", record.DefaultRetry.Timeout, "time limit of each call")
	fs.IntVar(&f.retries, "retries", record.DefaultRetry.Retries, "retries after a 429 or 5xx")
	fs.DurationVar(&f.maxWait, "max-wait", record.DefaultRetry.MaxWait, "longest wait before a retry; a longer retry-after fails the call")
	fs.IntVar(&f.parallel, "parallel", 1, "calls at once")
	limit(fs, "max-response-bytes", 1, 1<<30, "a response body is held in memory")
	limit(fs, "max-case-bytes", 1, 1<<30, "a case file is held in memory")
	limit(fs, "max-tokens", 1, 1<<20, "no model answers more; the estimate of -max-cost multiplies it")
	limit(fs, "temperature", 0, 2, "the providers' range (Anthropic's is 0 to 1)")
	limit(fs, "timeout", 0.001, 24*3600, "a call that never ends")
	limit(fs, "retries", 0, 100, "each retry may be paid for")
	limit(fs, "max-wait", 0, 24*3600, "a run that waits forever")
	limit(fs, "parallel", 1, 256, "connections and processes at once")
}

// check returns what is wrong with the flags, or "".
func (f *recordFlags) check(fs *flag.FlagSet) string {
	if f.collect != "" {
		if fs.NArg() > 0 || f.batch || f.offline {
			return "-collect takes no CASE, -batch or -offline"
		}
		if f.maxResponse < 1 || f.maxCase < 1 {
			return "-max-response-bytes and -max-case-bytes must be positive"
		}
		return ""
	}
	return f.checkCall(fs.NArg() == 0, "no CASE to record (a case file or a folder of cases)")
}

// checkCall returns what is wrong with the flags of a call, or "": noInput, when set, is
// reported after the provider and the model, as missing.
func (f *recordFlags) checkCall(noInput bool, missing string) string {
	switch {
	case f.provider != record.Anthropic && f.provider != record.OpenAI:
		return fmt.Sprintf("-provider is %q, want anthropic or openai (run compacteval %s -h)", f.provider, f.command())
	case f.model == "":
		return "-model is required"
	case noInput:
		return missing
	case f.samples < 1 || f.maxTokens < 1 || f.parallel < 1 || f.retries < 0 || f.timeout <= 0:
		return fmt.Sprintf("%s, -max-tokens, -parallel and -timeout must be positive, -retries not negative", f.samplesFlag())
	case f.maxResponse < 1 || f.maxCase < 1:
		return "-max-response-bytes and -max-case-bytes must be positive"
	case f.batch && f.offline:
		return "-batch calls a provider; it cannot be -offline"
	case f.tools != "declare" && f.tools != "text":
		return fmt.Sprintf("-tools is %q, want declare or text", f.tools)
	}
	switch compact.Reason(f.reason) {
	case compact.ReasonManual, compact.ReasonThreshold, compact.ReasonOverflow:
	default:
		return fmt.Sprintf("-reason is %q, want manual, threshold or overflow", f.reason)
	}
	if _, err := f.params(); err != nil {
		return err.Error()
	}
	return ""
}

// command and samplesFlag name the command the flags are for and its samples flag.
func (f *recordFlags) command() string {
	if f.review {
		return "review"
	}
	return "record"
}

func (f *recordFlags) samplesFlag() string {
	if f.review {
		return "-samples"
	}
	return "-n"
}

func (f *recordFlags) params() (record.Params, error) {
	p := record.Params{MaxTokens: f.maxTokens, ToolsAsText: f.tools == "text"}
	if f.temperature != "" {
		t, err := strconv.ParseFloat(f.temperature, 64)
		p.Temperature = &t
		if err != nil || p.Check() != nil {
			return p, fmt.Errorf("-temperature %q is not a number from 0 to %d", f.temperature, record.MaxTemperature)
		}
	}
	return p, p.Check()
}

// apiKey returns the key from the environment and the variable it came from.
func (f *recordFlags) apiKey(provider string) (key, env string) {
	env = f.keyEnv
	if env == "" {
		env = map[string]string{record.Anthropic: "ANTHROPIC_API_KEY", record.OpenAI: "OPENAI_API_KEY"}[provider]
	}
	return os.Getenv(env), env
}

func runRecord(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, paths, code := parseRecordFlags(args, stderr)
	if code >= 0 {
		return code
	}
	if f.collect != "" {
		return runCollect(ctx, f, stdout, stderr)
	}
	params, _ := f.params()
	target := record.Target{
		Provider: f.provider, Model: f.model, Params: params, Reason: compact.Reason(f.reason),
		Samples: f.samples, Out: f.out, Endpoint: f.baseURL,
	}
	key, env := f.apiKey(f.provider)
	if key != "" {
		target.Secrets = []string{key}
	}
	if f.prompt != "seed" {
		im, err := extractor.OpenPrompt(ctx, f.prompt, extractor.OpenOptions{})
		if err != nil {
			fmt.Fprintf(stderr, "compacteval record: -prompt: %v\n", err)
			return exitError
		}
		defer im.Close()
		target.Prompt = im.Prompt
	}
	target.Secrets = recordSecrets(key, f.baseURL)
	out, errOut := newRedactWriter(stdout, target.Secrets), newRedactWriter(stderr, target.Secrets)
	defer out.Flush()
	defer errOut.Flush()
	stdout, stderr = out, errOut
	sources, err := loadSources(paths)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval record: %v\n", err)
		return exitError
	}
	jobs, skipped, err := target.Jobs(sources)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval record: %v\n", err)
		return exitError
	}
	if len(skipped) > 0 {
		fmt.Fprintf(stderr, "compacteval record: %s without a conversation skipped\n", plural(len(skipped), "case"))
	}
	if len(jobs) == 0 {
		fmt.Fprintln(stderr, "compacteval record: no case with a conversation to record")
		return exitError
	}
	rec, sent, err := f.recorder(f.provider, f.baseURL, key, env, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval record: %v\n", err)
		return exitError
	}
	rec.Secrets = target.Secrets
	if msg := f.checkCost(jobs); msg != "" { // after the key: a run without one stops there
		fmt.Fprintf(stderr, "compacteval record: %s\n", msg)
		return exitError
	}
	if !f.offline {
		if err := rec.Cache.CheckWritable(); err != nil { // an answer paid for and not kept is paid again
			fmt.Fprintf(stderr, "compacteval record: -cache: %v: nothing was called\n", err)
			return exitError
		}
	}
	hint := recordHint{provider: f.provider, model: f.model, baseURL: f.baseURL, keyEnv: env, key: key, keySent: sent, cache: f.cache, batch: f.batch}
	if f.batch {
		return submitBatch(ctx, rec, target, jobs, f.asJSON, hint, stdout, stderr)
	}
	rec.Done = recordProgress(stderr, len(jobs), hint)
	outs := rec.Run(ctx, jobs)
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "compacteval record: interrupted; every case written is complete: run the same command again to resume")
	}
	return reportRecord(stdout, stderr, outs, nil, f.asJSON, f.out)
}

// checkCost returns why the calls of jobs may not be made, or "": a price that is not
// known (the cap cannot be checked) unless -max-cost 0 says the run may cost anything, or
// an estimate over -max-cost. An -offline run pays nothing.
func (f *recordFlags) checkCost(jobs []record.Job) string {
	if f.offline {
		return ""
	}
	calls, in, out := abtest.EstimateJobs(jobs, &record.Cache{Dir: f.cache}, f.maxTokens)
	if calls == 0 {
		return ""
	}
	var price *abtest.Price
	if f.price != "" {
		p, err := abtest.ParsePrice(f.price)
		if err != nil {
			return err.Error()
		}
		price = &p
	} else {
		price, _ = abtest.LookupPrice(f.model, loopback(f.baseURL))
	}
	if price == nil && !(f.costSet && f.maxCost == 0) {
		return fmt.Sprintf("no price is known for model %s, so the cost of the %d calls to make cannot be checked: give -price IN,OUT (dollars per million tokens), or -max-cost 0 to run without a cap", f.model, calls)
	}
	if price != nil && f.maxCost > 0 {
		if total := price.Cost(in, out); total > f.maxCost {
			return fmt.Sprintf("the %d calls to make would cost about $%.4f, over -max-cost $%.4f: nothing was called", calls, total, f.maxCost)
		}
	}
	return ""
}

// recorder returns a Recorder for the flags, and whether the key is sent; without
// -offline it has a provider, which needs a key unless a base URL names another server.
// A key that stays home because the base URL is another host is said on stderr.
func (f *recordFlags) recorder(provider, baseURL, key, env string, stderr io.Writer) (*record.Recorder, bool, error) {
	retry := record.DefaultRetry
	retry.Retries, retry.Timeout, retry.MaxWait = f.retries, f.timeout, f.maxWait
	retry.Notify = func(attempt int, wait time.Duration, err error) {
		fmt.Fprintf(stderr, "compacteval %s: %v; retry %d in %v\n", f.command(), err, attempt, wait)
	}
	rec := &record.Recorder{Retry: retry, Cache: &record.Cache{Dir: f.cache}, Offline: f.offline, Parallel: f.parallel, MaxCaseBytes: f.maxCase}
	if f.offline {
		return rec, false, nil
	}
	if key == "" && baseURL == "" {
		return nil, false, fmt.Errorf("%s is not set: the %s API needs a key (or use -offline to replay the cache)", env, provider)
	}
	sent := false
	if key != "" {
		var err error
		if sent, err = record.SendsKey(provider, baseURL, f.sendKey); err != nil {
			return nil, false, fmt.Errorf("%s: %w", env, err)
		}
		if !sent {
			fmt.Fprintf(stderr, "compacteval %s: %s is not sent to %s, which is not %s (-send-key-to-base-url sends it)\n",
				f.command(), env, record.EndpointText(baseURL), record.OwnHost(provider))
		}
	}
	p, err := record.New(record.Config{
		Provider: provider, BaseURL: baseURL, APIKey: key, SendKeyToBaseURL: f.sendKey,
		Timeout: f.timeout, MaxResponseBytes: int64(f.maxResponse),
	})
	if err != nil {
		return nil, false, err
	}
	rec.Provider = p
	return rec, sent, nil
}

// loadSources loads every CASE argument; cases with problems stop the run, since their
// conversation may not be what it seems.
func loadSources(paths []string) ([]*corpus.Case, error) {
	var all []*corpus.Case
	for _, path := range paths {
		cases, problems, err := loadCorpus(path)
		if err != nil {
			return nil, err
		}
		if len(problems) > 0 {
			return nil, fmt.Errorf("%d corpus problems in %s (compacteval corpus lint):\n%v", len(problems), path, problems)
		}
		all = append(all, cases...)
	}
	return all, nil
}

// recordProgress returns a Done callback that reports each outcome on stderr.
func recordProgress(stderr io.Writer, total int, h recordHint) func(record.Outcome) {
	n := 0
	return func(o record.Outcome) {
		n++
		switch {
		case o.Err != nil && errors.Is(o.Err, record.ErrSkipped):
			return
		case o.Err != nil:
			fmt.Fprintf(stderr, "compacteval record: [%d/%d] %s failed: %s\n", n, total, o.Job.ID, h.explain(o.Err))
		default:
			fmt.Fprintf(stderr, "compacteval record: [%d/%d] %s %s\n", n, total, o.Status, o.Job.ID)
		}
		if o.Response != nil && record.PromptCut(o.Job.Request, o.Response) {
			got, _ := o.Response.PromptTokens()
			fmt.Fprintf(stderr, "compacteval record: warning: %s: the server counted %d prompt tokens for a conversation of about %d; "+
				"its context window may have cut it (Ollama: start it with OLLAMA_CONTEXT_LENGTH=65536)\n", o.Job.ID, got, o.Job.Request.EstimatedTokens())
		}
	}
}

// recordHint turns errors into messages that say what to do.
type recordHint struct {
	provider, model, baseURL, keyEnv, key, cache string
	keySent                                      bool
	// batch is set when the run submits or collects a batch.
	batch bool
}

func (h recordHint) explain(err error) string {
	where := record.EndpointText(h.baseURL)
	if h.baseURL == "" {
		where = "the " + h.provider + " API"
	}
	switch {
	case errors.Is(err, record.ErrUnauthorized) && h.key != "" && !h.keySent:
		return fmt.Sprintf("%v\n  %s answered 401 and the key in %s was not sent, since %s is not %s: -send-key-to-base-url sends it", err, where, h.keyEnv, where, record.OwnHost(h.provider))
	case errors.Is(err, record.ErrTooLarge):
		return fmt.Sprintf("%v\n  raise -max-response-bytes or -max-case-bytes if the answer is meant to be that long", err)
	case errors.Is(err, record.ErrUnauthorized) && h.key == "":
		return fmt.Sprintf("%v\n  %s answered 401 and %s is not set: set it to a valid key", err, where, h.keyEnv)
	case errors.Is(err, record.ErrUnauthorized):
		return fmt.Sprintf("%v\n  the key in %s was refused: check that it is valid for %s", err, h.keyEnv, where)
	case errors.Is(err, record.ErrModelNotFound) && h.baseURL != "":
		return fmt.Sprintf("%v\n  model %q is not served at %s (Ollama: ollama pull %s; ollama list shows the names)", err, h.model, where, h.model)
	case errors.Is(err, record.ErrModelNotFound):
		return fmt.Sprintf("%v\n  model %q does not exist or this key cannot use it: check the name", err, h.model)
	case errors.Is(err, record.ErrEndpointNotFound) && h.batch:
		return fmt.Sprintf("%v\n  %s has no batch API (Anthropic's Message Batches, OpenAI's /v1/files and /v1/batches; local servers such as Ollama, llama.cpp and vLLM have none): run without -batch", err, where)
	case errors.Is(err, record.ErrEndpointNotFound):
		return fmt.Sprintf("%v\n  nothing answers there: an OpenAI-compatible -base-url usually ends in /v1", err)
	case errors.Is(err, record.ErrCacheMiss):
		return fmt.Sprintf("%v\n  no answer for this input in %s: record it without -offline first", err, h.cache)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("%v\n  nothing listens at %s: is the server running?", err, where)
	}
	return err.Error()
}
