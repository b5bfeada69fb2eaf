package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/internal/abtest"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/outfile"
	"github.com/compacteval/compacteval/internal/record"
)

const reviewABUsage = `Usage: compacteval review -base-file A -head-file B -provider anthropic|openai -model NAME
         -sessions PATH... [-samples N] [-base-url URL] [-offline] [-batch] [-collect ID]
         [-max-cost USD] [-price IN,OUT] [-min-delta D] [-config gate.yaml]
         [-base-name N] [-head-name N] [-out DIR] [-cache DIR] [-json] [-markdown FILE]
         [-html FILE]

Measures what a change to the compaction prompt does to what a model writes: the A/B
review, chosen by -provider. Every compaction point of the -sessions (pi sessions, Claude
Code transcripts, folders of them) and every eval case with a conversation (corpus
folders or case files) is one input: the conversation before the cut and the kept tail.
Each side builds its own instruction (its module's buildCompactionInstruction, kept-tail
note and all; an instruction text is framed as the seed frames its own), the model answers
it -samples times, the side's own extractor (a text's: the seed's) takes out the summary,
and eval scores it against the same conversation and tail. A summary not found scores 0.

Per input, head's mean over samples minus base's, of the headline score, coverage,
boundary coverage, tail leakage, summaries lost, summary tokens and compression ratio
(summary tokens over those of what it replaces); over inputs, the mean difference with
a paired Student-t 95% interval and a verdict: better, worse, or no difference this
run can detect, with the smallest difference it would detect. Inputs with the same
conversation count once.

Inputs are named relative to the -sessions value given, so that a review reads the same on
every machine. A pi session's user !commands, extension messages and branch summaries are
sent as user messages, as pi sends them, and scored as context the model saw.

The Markdown (stdout, -markdown) and the HTML (-html) open with the verdict (head − base
of the headline score, relative to base's, and its interval), then each side and how many
of its summaries its extractor found only through a fallback (no block of the tag its
instruction names), the table of every measure, every input (those that changed, and all;
up, down, unchanged), and for each input that moved the facts gained and lost (coverage
and boundary, with their weights) and a word diff of base's and head's summaries. The
Markdown stays under 60,000 characters for a pull-request comment and says what it left
out; the HTML (base's column beside head's, every sample) and -json (the document with
every sample) hold everything.

Nothing paid for is thrown away: an answer is cached before its case is written, an answer
whose case cannot be written is scored all the same, and an input with a call that gave no
answer (a failed call, an -offline miss) is listed with the reason while the others are
reviewed.

Calls go through record's machinery (compacteval record -h: keys, redaction, bounds,
retries): answers are cached in -cache under the model, parameters, messages, instruction
and sample, so a rerun calls nothing and -offline (CI) fails on a miss, naming it. Each
answer is written as a case below -out/base or -out/head, origin recorded (model, date,
the instruction's SHA-256), to keep as a corpus. -batch submits the calls as one provider
batch and prints its id; the same command with -collect ID then collects it and reviews.

Cost: before the run, the calls still to make (neither a case file nor the cache has the
answer, and no earlier call of the run asks the same: a change to the extractor alone pays
base's calls once and replays them for head), their tokens (estimated: 4 bytes a token in,
2000 tokens an answer out) and cost are printed on stderr; after it, what this run spent,
and in the review the tokens the provider counted for every answer read and their cost.
Prices per million tokens come from -price IN,OUT, or a table of the providers' current
models (abtest.Prices; an id with a date is priced as its family), or are 0 for a server on
this machine. A price not known cannot be checked against a cap: the run is refused unless
-max-cost 0 says it may cost anything. -max-cost stops a run that would cost more before
its first call, and a -cache that cannot keep answers stops it too.

Exit codes: 0 the review passes; 1 head's headline score interval lies wholly below
-min-delta's negative (default 0, or review.min_delta of the gate config), or head lost
more summaries that base kept from the same answers than review.allowed_lost_summaries
(0), or more than base beyond chance where the answers differ, or head's summaries average
more tokens than review.max_summary_tokens; also 1 when a batch is still running; 2 usage
or operational error (no input could be scored, a run over -max-cost).

Examples:
  compacteval review -base-file old/compaction.ts -head-file src/compaction.ts \
      -provider openai -model qwen2.5:7b -base-url http://localhost:11434/v1 -samples 3 \
      -sessions ~/.pi/agent/sessions -sessions corpus/cases/eval
  compacteval review -offline -base-file old/compaction.ts -head-file src/compaction.ts \
      -provider openai -model qwen2.5:7b -samples 3 -sessions corpus/cases/eval
  ANTHROPIC_API_KEY=... compacteval review -base-file a.ts -head-file b.ts \
      -provider anthropic -model claude-haiku-4-5 -max-cost 2 -sessions corpus/cases/eval
`

// reviewAB reports whether review's arguments ask for the A/B run: they name a provider.
func reviewAB(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && (name == "provider" || name == "sessions" || name == "samples") {
			return true
		}
	}
	return false
}

// abFlags are the flags of the A/B run besides record's.
type abFlags struct {
	record.Target
	call                 recordFlags
	baseFile, headFile   string
	baseName, headName   string
	sessions             extractor.Values
	maxCost, minDelta    float64
	price, config        string
	asJSON               bool
	mdPath, htmlPath     string
	collect              string
	keepTokens, window   int
	minDeltaSet, costSet bool
}

func runReviewAB(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f := &abFlags{}
	f.call.review = true
	fs := newFlags("review", reviewABUsage, stderr)
	f.call.registerCall(fs)
	fs.StringVar(&f.baseFile, "base-file", "", "base module or instruction text `FILE`")
	fs.StringVar(&f.headFile, "head-file", "", "head module or instruction text `FILE`")
	fs.StringVar(&f.baseName, "base-name", "", "what the review calls base's file (default: -base-file as given), such as origin/main:src/compaction.ts")
	fs.StringVar(&f.headName, "head-name", "", "what the review calls head's file (default: -head-file as given)")
	fs.Var(&f.sessions, "sessions", "a session file, a folder of them, a corpus folder or case file (may repeat)")
	fs.IntVar(&f.call.samples, "samples", 1, "answers per input and side")
	fs.StringVar(&f.call.out, "out", ".compacteval/review", "cases root the answers go below (base/ and head/)")
	fs.Float64Var(&f.maxCost, "max-cost", 0, "stop before the first call when the calls to make would cost more (US dollars; 0: no limit)")
	fs.StringVar(&f.price, "price", "", "dollars per million tokens `IN,OUT` (default: the table, or 0 for a local server)")
	fs.Float64Var(&f.minDelta, "min-delta", 0, "the fall of the headline score tolerated (default: the gate config's review.min_delta, else 0)")
	fs.StringVar(&f.config, "config", "", "gate config with a review: section (default: gate.yaml if it exists)")
	fs.StringVar(&f.collect, "collect", "", "collect the batch with this `ID` (submitted by the same command with -batch) and review")
	fs.IntVar(&f.keepTokens, "keep-tokens", eval.DefaultKeepTokens, "pi's keepRecentTokens, for a compaction whose kept tail is not recorded")
	fs.IntVar(&f.window, "window", 0, "messages before the cut that are the work in progress (0: eval's default)")
	fs.BoolVar(&f.asJSON, "json", false, "print the document (every sample) as JSON and nothing else")
	fs.StringVar(&f.mdPath, "markdown", "", "also write the Markdown review to `FILE`")
	fs.StringVar(&f.htmlPath, "html", "", "also write the HTML review to `FILE`")
	limit(fs, "samples", 1, abtest.MaxSamples, "each sample is two paid calls per input")
	limit(fs, "max-cost", 0, 1e6, "a cap is a sum of dollars")
	limit(fs, "min-delta", 0, 1, "scores lie from 0 to 1")
	limit(fs, "price", 0, 1e4, "dollars per million tokens; the dearest models cost hundreds")
	limit(fs, "keep-tokens", 1, 1e7, "a kept tail larger than any context window")
	limit(fs, "window", 0, 1e6, "messages before the cut")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	fs.Visit(func(fl *flag.Flag) {
		f.minDeltaSet = f.minDeltaSet || fl.Name == "min-delta"
		f.costSet = f.costSet || fl.Name == "max-cost"
	})
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "compacteval review: "+format+"\n", a...)
		return exitError
	}
	switch {
	case fs.NArg() > 0:
		return fail("unexpected argument %q", fs.Arg(0))
	case f.baseFile == "" || f.headFile == "":
		return fail("the A/B review (-provider) needs -base-file and -head-file")
	case f.maxCost < 0 || f.minDelta < 0 || f.keepTokens < 1 || f.window < 0:
		return fail("-max-cost and -min-delta must not be negative, -keep-tokens must be positive, -window not negative")
	case f.collect != "" && (f.batch() || f.call.offline):
		return fail("-collect takes no -batch or -offline")
	}
	if msg := f.call.checkCall(len(f.sessions) == 0, "no -sessions: give session files, folders of them or corpus folders"); msg != "" {
		return fail("%s", msg)
	}
	cfg, err := reviewConfig(f.config)
	if err != nil {
		return fail("%v", err)
	}
	if r := cfg.Review; r.MinDelta < 0 || r.AllowedLostSummaries < 0 || r.MaxSummaryTokens < 0 || math.IsNaN(r.MinDelta) {
		return fail("%s: review.min_delta, review.allowed_lost_summaries and review.max_summary_tokens must not be negative", cfg.File)
	}
	if !f.minDeltaSet {
		f.minDelta = cfg.Review.MinDelta
	}
	for _, o := range []struct {
		path string
		kind outfile.Kind
	}{{f.mdPath, outfile.Markdown}, {f.htmlPath, outfile.HTML}} {
		if o.path == "" {
			continue
		}
		if _, err := outfile.Check(o.path, o.kind); err != nil { // before anything is paid for
			return fail("%v", err)
		}
	}
	price, err := f.pricing()
	if err != nil {
		return fail("%v", err)
	}
	// A price not known cannot be checked against a cap: the run needs -price, or
	// -max-cost 0 to say that it may cost anything.
	pays := !f.call.offline && f.collect == ""
	if pays && price == nil && !(f.costSet && f.maxCost == 0) {
		return fail("no price is known for model %s, so the cost of the calls cannot be checked: give -price IN,OUT (dollars per million tokens), or -max-cost 0 to run without a cap", f.call.model)
	}

	inputs, err := abInputs(f.sessions, f.keepTokens, stderr)
	if err != nil {
		return fail("%v", err)
	}
	var sides [2]abtest.Side
	for i, file := range []string{f.baseFile, f.headFile} {
		s, closer, err := openABSide(ctx, []string{"base", "head"}[i], file, []string{f.baseName, f.headName}[i])
		if err != nil {
			return fail("%v", err)
		}
		defer closer()
		sides[i] = s
	}

	params, _ := f.call.params()
	key, env := f.call.apiKey(f.call.provider)
	secrets := recordSecrets(key, f.call.baseURL)
	out, errOut := newRedactWriter(stdout, secrets), newRedactWriter(stderr, secrets)
	defer out.Flush()
	defer errOut.Flush()
	stdout, stderr = out, errOut
	target := record.Target{
		Provider: f.call.provider, Model: f.call.model, Params: params, Reason: compact.Reason(f.call.reason),
		Samples: f.call.samples, Endpoint: f.call.baseURL, Secrets: secrets,
	}
	plan, err := abtest.NewPlanContext(ctx, target, sides, inputs, f.call.out)
	if err != nil {
		return fail("%v", err)
	}
	cache := &record.Cache{Dir: f.call.cache}
	est, err := plan.EstimateContext(ctx, cache, f.call.maxTokens)
	if err != nil {
		return fail("%v", err)
	}
	what := "calls to make" // -collect makes none: it reads the answers the batch holds
	switch {
	case f.batch():
		what = "requests to submit in a batch"
	case f.collect != "":
		what = "answers to collect from batch " + f.collect
	}
	for s, name := range []string{"base", "head"} {
		fmt.Fprintf(stderr, "compacteval review: %s: %d %s (%d answered already), ~%d tokens in, ~%d out, %s\n",
			name, est.Calls[s], what, est.Answered[s], est.TokensIn[s], est.TokensOut[s], costText(price, est.TokensIn[s], est.TokensOut[s]))
	}
	calls := est.Calls[0] + est.Calls[1]
	if h := batchHint(f, price, est); h != "" && calls > 0 && pays {
		fmt.Fprintf(stderr, "compacteval review: %s\n", h)
	}
	if f.costSet && f.maxCost > 0 && calls > 0 && pays {
		total := price.Cost(est.TokensIn[0]+est.TokensIn[1], est.TokensOut[0]+est.TokensOut[1])
		if total > f.maxCost {
			return fail("the %d calls to make would cost about $%.4f, over -max-cost $%.4f: nothing was called", calls, total, f.maxCost)
		}
	}
	if calls > 0 && pays {
		if err := cache.CheckWritable(); err != nil { // an answer paid for and not kept is paid again
			return fail("-cache: %v: nothing was called", err)
		}
	}

	rec, sent, err := f.call.recorder(f.call.provider, f.call.baseURL, key, env, stderr)
	if err != nil {
		return fail("%v", err)
	}
	rec.Secrets = secrets
	hint := recordHint{provider: f.call.provider, model: f.call.model, baseURL: f.call.baseURL, keyEnv: env, key: key, keySent: sent, cache: f.call.cache,
		batch: f.batch() || f.collect != ""}
	var outs []record.Outcome
	switch {
	case f.batch():
		m, _, err := rec.Submit(ctx, target, plan.Jobs)
		if err != nil {
			return fail("%s", hint.explain(err))
		}
		if m != nil {
			fmt.Fprintf(stderr, "compacteval review: submitted batch %s with %s; when it has ended, run the same command with -collect %s instead of -batch\n",
				m.ID, plural(len(m.Items), "request"), m.ID)
			fmt.Fprintln(stdout, m.ID)
			return exitOK
		}
		fmt.Fprintln(stderr, "compacteval review: nothing to submit: every answer is written or cached")
		outs = rec.Run(ctx, plan.Jobs)
	case f.collect != "":
		m, err := record.ReadManifest(f.call.cache, f.collect)
		if err != nil {
			return fail("%v", err)
		}
		status, done, err := rec.CollectJobs(ctx, m, plan.Jobs)
		if err != nil {
			return fail("%s", hint.explain(err))
		}
		if done == nil {
			fmt.Fprintf(stderr, "compacteval review: batch %s is %s; collect it again later\n", m.ID, status)
			return exitProblem
		}
		for _, o := range done {
			// An item that failed leaves its input unscored (the replay below misses it);
			// the others are reviewed.
			if o.Err != nil && o.Response == nil {
				fmt.Fprintf(stderr, "compacteval review: batch %s: %s failed: %s\n", m.ID, o.Job.ID, hint.explain(o.Err))
			}
		}
		rec.Offline = true // every answer is now in a case or the cache
		outs = rec.Run(ctx, plan.Jobs)
	default:
		outs = rec.Run(ctx, plan.Jobs)
	}
	fmt.Fprintf(stderr, "compacteval review: %s\n", runCounts(outs, price))
	for _, o := range outs {
		switch {
		case o.Err == nil || errors.Is(o.Err, record.ErrSkipped):
		case o.Response != nil:
			fmt.Fprintf(stderr, "compacteval review: %s: the answer is cached and scored, but no case was written: %s\n", o.Job.ID, hint.explain(o.Err))
		default:
			fmt.Fprintf(stderr, "compacteval review: %s failed: %s\n", o.Job.ID, hint.explain(o.Err))
		}
	}
	if ctx.Err() != nil {
		return fail("interrupted: every answer received is kept in %s; run the same command again to resume", f.call.cache)
	}
	r, err := abtest.Score(plan, outs, abtest.Options{
		Provider: f.call.provider, Model: f.call.model, MinDelta: f.minDelta,
		AllowedHeadLost: cfg.Review.AllowedLostSummaries, MaxSummaryTokens: cfg.Review.MaxSummaryTokens, Price: price,
		Eval: eval.Options{BoundaryWindow: f.window, KeepTokens: f.keepTokens},
	})
	if err != nil {
		return fail("%v", err)
	}
	for _, u := range r.Unscorable {
		fmt.Fprintf(stderr, "compacteval review: %s is not scored: %s\n", u.Input, u.Reason)
	}
	if found, total := foundSummaries(r); found == 0 {
		return fail("no summary was found in any of the %d answers of either side (%d of them empty): nothing to compare; does %s answer at all?",
			total, emptyAnswers(outs), f.call.model)
	}
	return writeAB(r, f, stdout, stderr)
}

// runCounts says what the run did: the calls made and what they cost (spent this run,
// apart from the recorded cost of every answer the review reads), the answers replayed
// from the cache or read from their cases, the failures.
func runCounts(outs []record.Outcome, price *abtest.Price) string {
	s := abtest.Spend(outs)
	spent := ""
	if s.Calls > 0 {
		spent = " (spent this run: " + costText(price, s.TokensIn, s.TokensOut) + ")"
	}
	return fmt.Sprintf("%d calls made%s, %d answers replayed from the cache, %d read from their cases, %d failed",
		s.Calls, spent, s.Replayed, s.Existing, s.Failed)
}

// foundSummaries counts the samples of both sides whose extractor found a summary.
func foundSummaries(r *abtest.Result) (found, total int) {
	for _, in := range r.Inputs {
		for _, s := range append(append([]abtest.SampleResult{}, in.Base...), in.Head...) {
			total++
			if s.Found {
				found++
			}
		}
	}
	return found, total
}

// emptyAnswers counts the answers with no text but white space.
func emptyAnswers(outs []record.Outcome) int {
	n := 0
	for _, o := range outs {
		text := ""
		switch {
		case o.Response != nil:
			text = o.Response.Text
		case o.Case != nil:
			text = o.Case.Response
		}
		if strings.TrimSpace(text) == "" {
			n++
		}
	}
	return n
}

func (f *abFlags) batch() bool { return f.call.batch }

// pricing returns the price per million tokens: -price, the table, 0 for a server on this
// machine; nil when none is known.
func (f *abFlags) pricing() (*abtest.Price, error) {
	if f.price != "" {
		p, err := abtest.ParsePrice(f.price)
		return &p, err
	}
	p, _ := abtest.LookupPrice(f.call.model, loopback(f.call.baseURL))
	return p, nil
}

// batchHint says what -batch would change for a run that calls now: on the provider's own
// API, half the cost; on another server, that it may have no batch API. It is "" for a
// server on this machine, which has none, and for a run with -batch.
func batchHint(f *abFlags, price *abtest.Price, est abtest.Estimate) string {
	switch {
	case f.batch() || f.collect != "" || loopback(f.call.baseURL):
		return ""
	case f.call.baseURL != "":
		return "-batch needs a batch API, which " + record.EndpointText(f.call.baseURL) + " may not have (a 404 says so)"
	case price == nil:
		return "-batch would halve the cost (the provider's batch rate), the answers coming within 24 hours"
	}
	total := price.Cost(est.TokensIn[0]+est.TokensIn[1], est.TokensOut[0]+est.TokensOut[1])
	return fmt.Sprintf("-batch would cost about $%.4f instead, half (the provider's batch rate), the answers coming within 24 hours", total/2)
}

// loopback reports whether a base URL names this machine.
func loopback(base string) bool {
	u, err := url.Parse(base)
	if err != nil || base == "" {
		return false
	}
	if u.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

func costText(p *abtest.Price, in, out int) string {
	if p == nil {
		return "cost unknown (-price)"
	}
	return fmt.Sprintf("~$%.4f", p.Cost(in, out))
}

// writeAB writes the review and returns the exit code.
func writeAB(r *abtest.Result, f *abFlags, stdout, stderr io.Writer) int {
	var md bytes.Buffer
	if err := abtest.Markdown(&md, r); err != nil {
		fmt.Fprintf(stderr, "compacteval review: %v\n", err)
		return exitError
	}
	if f.mdPath != "" {
		if err := writeOutput(stderr, "review", f.mdPath, md.Bytes(), outfile.Markdown); err != nil {
			fmt.Fprintf(stderr, "compacteval review: %v\n", err)
			return exitError
		}
	}
	if f.htmlPath != "" {
		page, err := abtest.HTML(r)
		if err == nil {
			err = writeOutput(stderr, "review", f.htmlPath, page, outfile.HTML)
		}
		if err != nil {
			fmt.Fprintf(stderr, "compacteval review: %v\n", err)
			return exitError
		}
	}
	if f.asJSON {
		if code := writeJSON(stdout, stderr, r); code != exitOK {
			return code
		}
	} else if _, err := stdout.Write(md.Bytes()); err != nil {
		fmt.Fprintf(stderr, "compacteval review: %v\n", err)
		return exitError
	}
	fmt.Fprintf(stderr, "compacteval review: %s\n", r.Headline())
	if !r.Passed() {
		fmt.Fprintf(stderr, "compacteval review: fails: %s\n", strings.Join(r.Failures, "; "))
		return exitProblem
	}
	return exitOK
}

// openABSide opens a side: a module (its instruction builder and extractor) or an
// instruction text (framed as the seed frames its own, extracted by the seed's extractor).
// A label, when given, names the file in the side's description.
func openABSide(ctx context.Context, name, file, label string) (abtest.Side, func(), error) {
	var im *extractor.Impl
	var err error
	switch strings.ToLower(filepath.Ext(file)) {
	case ".ts", ".mts", ".cts", ".mjs", ".js", ".cjs":
		im, err = extractor.OpenModule(ctx, file, extractor.OpenOptions{})
	default:
		im, err = extractor.OpenText(file)
	}
	if err != nil {
		return abtest.Side{}, func() {}, fmt.Errorf("-%s-file: %w", name, err)
	}
	ex := extractor.Builtins()[0]
	if len(im.Profiles) > 0 {
		ex = extractor.Remote(im, "", name)
	}
	desc := im.Desc
	if label != "" {
		desc = strings.Replace(desc, file, label, 1)
	}
	side := abtest.Side{
		Name: name, Desc: desc, Prompt: im.Prompt,
		Extract: func(texts []string) ([]compact.Extraction, error) {
			out, err := ex.ExtractAll(texts)
			if err == nil {
				err = ex.Err()
			}
			return out, err
		},
	}
	return side, func() { im.Close() }, nil
}
