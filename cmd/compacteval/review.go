package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/gate"
	"github.com/compacteval/compacteval/internal/outfile"
	"github.com/compacteval/compacteval/internal/review"
)

const reviewUsage = `Usage: compacteval review BASE HEAD [-corpus DIR] [-drift-n N] [-drift-seed N]
         [-run REGEXP] [-category C]... [-failed FILE]
         [-eval-extractor NAME] [-config gate.yaml] [-json] [-markdown FILE] [-html FILE]

Shows what a change to the compaction prompt or to an extractor does, for the reviewer of a
pull request. BASE and HEAD are each one of

  -base REV / -head REV             a git revision of this repository: compacteval is built
                                    there (in a temporary worktree) and run as compacteval pipe,
                                    with every extractor profile it has
  -base-file F / -head-file F       a TypeScript or JavaScript module like
                                    ../shared/seed/compaction.ts (.ts, .mts, .cts, .mjs, .js,
                                    .cjs: bundled by esbuild with what it imports, run under
                                    node), or any other file: an instruction text (one final
                                    line break dropped), rendered with compacteval's own framing
  -base-cmd C / -head-cmd C         a command, run with sh -c, that answers the reference
                                    protocol (docs/protocol.md) on stdin and stdout

Both versions run on the same corpus (-corpus, of the working tree), or on the same
selection of its cases (-run REGEXP, -category C, -failed FILE: as run selects them). The
review holds:

  - a word diff of the instruction text and of every rendered text (each reason, with and
    without custom instructions and a kept tail; the continuation summary)
  - for each extractor profile both versions have (a module has one, seed): every case
    whose output changed, by category, base and head, and whether it moved toward intended
    (base deviated, head returns it), away from it, or neither
  - the drift matrix of both (exact recoveries per operator, same seed and samples)
  - the eval scores of both, per case and in total (-eval-extractor, default seed), both
    scored with this compacteval's eval code; when -base and -head are revisions whose
    eval/ differs, the review says so, since a change to the scorer then does not show

Prints Markdown for a pull-request comment; -markdown and -html also write it to files
(the HTML page is self-contained, with side-by-side diffs); -json prints one document
(schema_version) instead. Progress goes to stderr: each build and each side's stages, with
their elapsed time (as run's).

With -provider (or -sessions, -samples), review runs the A/B review instead: a model answers
both sides' prompts (-base-file, -head-file) on sessions and eval cases, and eval scores what
it writes; the verdict is on the headline score, with a 95% interval (docs/review-ab.md).
Its own flags:

  -provider anthropic|openai        the API to call (any OpenAI-compatible server: openai)
  -model NAME                       the model, as the server knows it
  -sessions PATH                    a pi session, a Claude Code transcript, a folder of them,
                                    a corpus folder or case file; may repeat
  -samples N                        answers per input and side (default 1)
  -base-url URL                     the server (default: the provider's own API)
  -offline                          call nothing: replay from -cache, list a miss as not scored
  -batch / -collect ID              submit the calls as one provider batch / collect it
  -max-cost USD, -price IN,OUT      stop before the first call over USD; dollars per million
                                    tokens in and out
  -min-delta D                      the fall of the headline score tolerated (default: the
                                    gate config's review.min_delta, else 0)
  -base-name N / -head-name N       what the review calls each side's file
  -out DIR, -cache DIR              where answers are written as cases, and cached
  -keep-tokens N, -window N         pi's keepRecentTokens; the boundary window in messages
  -json, -markdown FILE, -html FILE as above: the JSON holds every sample

compacteval review -provider openai -h shows them all with record's (keys, bounds, retries).

Exit codes: 0 nothing regressed; 1 a case moved away from intended (more cases than the
gate config's allowed_drop.intended_cases for that extractor, 0 by default), or a drift
or eval score fell further than its allowed_drop (-config, default gate.yaml when it
exists); a changed text alone never fails; 2 the review could not run (usage, a version
that does not build or start, an unreadable corpus or config).

Examples:
  compacteval review -base origin/main -head HEAD -html review.html > review.md
  compacteval review -base-file old/compaction.ts -head-file ../shared/seed/compaction.ts
  compacteval review -base-file prompt-v1.txt -head-file prompt-v2.txt
  compacteval review -base HEAD -head-cmd 'node my-runner.mjs' -json | jq .regressions
`

func runReview(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if reviewAB(args) {
		return runReviewAB(ctx, args, stdout, stderr) // with a model in the loop: review_ab.go
	}
	fs := newFlags("review", reviewUsage, stderr)
	var base, head review.Spec
	fs.StringVar(&base.Rev, "base", "", "base `REV`ision of this git repository")
	fs.StringVar(&head.Rev, "head", "", "head `REV`ision of this git repository")
	fs.StringVar(&base.File, "base-file", "", "base module or instruction text `FILE`")
	fs.StringVar(&head.File, "head-file", "", "head module or instruction text `FILE`")
	fs.StringVar(&base.Command, "base-cmd", "", "base `command` speaking the protocol (sh -c)")
	fs.StringVar(&head.Command, "head-cmd", "", "head `command` speaking the protocol (sh -c)")
	var pick selection
	pick.register(fs)
	var corpora extractor.Values
	fs.Var(&corpora, "corpus", "a corpus both versions run on: embedded or a `DIR` (may repeat; default embedded)")
	timeout := fs.Duration("timeout", extractor.DefaultTimeout, "the longest wait for one answer of a version's process")
	n := fs.Int("drift-n", 50, "drift samples per operator (0 skips drift)")
	maxN := fs.Int("max-samples", drift.MaxN, "the largest -drift-n accepted")
	limit(fs, "drift-n", 0, math.MaxInt32, "checked against -max-samples")
	limit(fs, "max-samples", 1, 1e7, "drift samples are held in memory")
	seed := fs.Int64("drift-seed", 1, "seed of the drift matrix")
	limit(fs, "timeout", 0.001, 24*3600, "an extractor that never answers")
	evalEx := fs.String("eval-extractor", "seed", "extractor profile whose summaries eval scores")
	configPath := fs.String("config", "", "gate config with the allowed drops (default: gate.yaml if it exists, else none may fall)")
	asJSON := fs.Bool("json", false, "print the review as one JSON document and nothing else")
	mdPath := fs.String("markdown", "", "also write the Markdown review to `FILE`")
	htmlPath := fs.String("html", "", "also write the HTML review to `FILE`")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "compacteval review: unexpected argument %q\n", fs.Arg(0))
		return exitError
	}
	for _, s := range []struct {
		name string
		spec review.Spec
	}{{"base", base}, {"head", head}} {
		given := 0
		for _, v := range []string{s.spec.Rev, s.spec.File, s.spec.Command} {
			if v != "" {
				given++
			}
		}
		if given != 1 {
			fmt.Fprintf(stderr, "compacteval review: give exactly one of -%[1]s, -%[1]s-file and -%[1]s-cmd\n", s.name)
			return exitError
		}
	}
	if *n < 0 {
		fmt.Fprintf(stderr, "compacteval review: -drift-n must not be negative, not %d\n", *n)
		return exitError
	}
	if *n > 0 {
		if err := drift.CheckNWithin(*n, *maxN); err != nil {
			fmt.Fprintf(stderr, "compacteval review: -drift-n: %v\n", err)
			return exitError
		}
	}
	for _, o := range []struct {
		path string
		kind outfile.Kind
	}{{*mdPath, outfile.Markdown}, {*htmlPath, outfile.HTML}} {
		if o.path == "" {
			continue
		}
		if _, err := outfile.Check(o.path, o.kind); err != nil { // before the builds
			fmt.Fprintf(stderr, "compacteval review: %v\n", err)
			return exitError
		}
	}
	sel, code, ok := pick.selected("review", stdin, stderr)
	if !ok {
		return code
	}
	cfg, err := reviewConfig(*configPath)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval review: %v\n", err)
		return exitError
	}
	c, err := corpus.Open(corpora)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval review: %v\n", err)
		return exitError
	}
	if len(c.Problems) > 0 {
		fmt.Fprintf(stderr, "compacteval review: %d corpus problems (run compacteval corpus lint); using the %d cases that loaded\n", len(c.Problems), len(c.Cases))
		c.Problems = nil
	}
	if c, err = selectCases(c, sel); err != nil {
		fmt.Fprintf(stderr, "compacteval review: %v\n", err)
		return exitError
	}

	p := newProgress("review", stderr)
	defer p.done()
	stderr = p.writer() // the builds' and sides' log lines, and the errors, clear the live line
	b, h, err := review.Open(ctx, base, head, review.OpenOptions{Log: stderr, Timeout: *timeout, Progress: p.step})
	if err != nil {
		fmt.Fprintf(stderr, "compacteval review: %v\n", err)
		return exitError
	}
	r, err := review.Compare(ctx, b, h, review.Options{
		Corpus: c, DriftSeed: *seed, DriftN: *n,
		EvalExtractor: *evalEx, Gate: cfg, Log: stderr, Progress: p.step,
	})
	p.done()
	if cerr := errors.Join(b.Close(), h.Close()); cerr != nil && err == nil {
		fmt.Fprintf(stderr, "compacteval review: warning: %v\n", cerr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "compacteval review: %v\n", err)
		return exitError
	}

	var md bytes.Buffer
	if err := review.Markdown(&md, r); err != nil {
		fmt.Fprintf(stderr, "compacteval review: %v\n", err)
		return exitError
	}
	if *mdPath != "" {
		if err := writeOutput(stderr, "review", *mdPath, md.Bytes(), outfile.Markdown); err != nil {
			fmt.Fprintf(stderr, "compacteval review: %v\n", err)
			return exitError
		}
	}
	if *htmlPath != "" {
		page, err := review.HTML(r)
		if err == nil {
			err = writeOutput(stderr, "review", *htmlPath, page, outfile.HTML)
		}
		if err != nil {
			fmt.Fprintf(stderr, "compacteval review: %v\n", err)
			return exitError
		}
	}
	if *asJSON {
		if code := writeJSON(stdout, stderr, r); code != exitOK {
			return code
		}
	} else if _, err := stdout.Write(md.Bytes()); err != nil {
		fmt.Fprintf(stderr, "compacteval review: %v\n", err)
		return exitError
	}
	if !r.Passed() {
		fmt.Fprintf(stderr, "compacteval review: %s: %s\n", plural(len(r.Regressions), "regression"), regressionList(r.Regressions))
		return exitProblem
	}
	return exitOK
}

// reviewConfig reads the gate config: path, or gate.yaml when it exists, or the default.
func reviewConfig(path string) (gate.Config, error) {
	if path == "" {
		if _, err := os.Stat("gate.yaml"); err != nil {
			return gate.DefaultConfig(), nil
		}
		path = "gate.yaml"
	}
	return gate.ReadConfig(path)
}

func regressionList(rs []gate.Regression) string {
	var parts []string
	for i, r := range rs {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(rs)-5))
			break
		}
		parts = append(parts, r.String())
	}
	return strings.Join(parts, "; ")
}
