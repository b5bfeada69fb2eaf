package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/atomicfile"
)

const defaultCorpus = "corpus/cases"

const corpusUsage = `Usage: compacteval corpus <lint|stats|list|fmt> [flags] [DIR]

DIR is a folder of case files, or embedded for the corpus inside this binary (the default
where there is no corpus/cases folder; fmt needs a folder); corpus/FORMAT.md describes them.
Every subcommand takes -max-case-bytes N (default 8388608): a larger case file is a problem
naming it, and is not read.

  lint [-deviations=false] [DIR]
                        check every case: YAML, fields, ids, raw characters, and that each
                        built-in extractor's deviations from intended are listed in
                        known_deviations (-deviations=false skips that: your own cases, run
                        with your own extractor, need no such list); prints
                        file:line:col: message, exit 1 if anything is wrong
  stats [-json] [DIR]   counts by category and origin, and sizes
  list -json [DIR]      every case with its response and intended result, for tools
  fmt [-check] [DIR]    rewrite case files in the canonical form (atomically; only files
                        that change; a linked file is written through the link); -check
                        lists them and exits 1 instead. A file with YAML comments, which the
                        canonical form does not keep, is never rewritten: fmt names each
                        comment's file:line and rewrites nothing (exit 2)

Examples:
  compacteval corpus lint
  compacteval corpus stats -json corpus/cases
`

// corpusSubcommands are corpus's subcommands, for the shell completion.
var corpusSubcommands = []string{"lint", "stats", "list", "fmt"}

func runCorpus(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, corpusUsage)
		return exitError
	}
	switch args[0] {
	case "lint":
		return runCorpusLint(args[1:], stdout, stderr)
	case "stats":
		return runCorpusStats(args[1:], stdout, stderr)
	case "list":
		return runCorpusList(args[1:], stdout, stderr)
	case "fmt":
		return runCorpusFmt(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, corpusUsage)
		return exitOK
	}
	fmt.Fprintf(stderr, "compacteval corpus: unknown subcommand %q\n\n%s", args[0], corpusUsage)
	return exitError
}

// corpusDir returns the one optional DIR argument.
func corpusDir(name string, args []string, stderr io.Writer) (string, bool) {
	switch len(args) {
	case 0:
		if _, err := os.Stat(defaultCorpus); err != nil && name != "fmt" {
			return corpus.EmbeddedLabel, true // outside this checkout: the corpus the binary carries
		}
		return defaultCorpus, true
	case 1:
		return args[0], true
	}
	fmt.Fprintf(stderr, "compacteval corpus %s: at most one DIR\n", name)
	return "", false
}

// caseLimit adds -max-case-bytes to fs. Call the returned function after parsing: it sets
// corpus.MaxCaseBytes, or returns false after printing why the value is unusable, and
// restores the old limit when the command ends (tests run commands in one process).
func caseLimit(fs *flag.FlagSet, stderr io.Writer) func() (restore func(), ok bool) {
	maxBytes := fs.Int64("max-case-bytes", corpus.MaxCaseBytes, "largest case file read, in bytes")
	limit(fs, "max-case-bytes", 1, 1<<30, "a case file is held in memory")
	return func() (func(), bool) {
		if *maxBytes < 1 {
			fmt.Fprintf(stderr, "compacteval %s: -max-case-bytes must be at least 1, not %d\n", fs.Name(), *maxBytes)
			return func() {}, false
		}
		old := corpus.MaxCaseBytes
		corpus.MaxCaseBytes = *maxBytes
		return func() { corpus.MaxCaseBytes = old }, true
	}
}

// loadCorpus loads dir; problems in files are returned, an unreadable dir is an error.
func loadCorpus(dir string) ([]*corpus.Case, corpus.Problems, error) {
	var cases []*corpus.Case
	var err error
	if sub, ok := strings.CutPrefix(dir, corpus.EmbeddedLabel+"/"); ok {
		return embeddedPart(dir, strings.TrimSuffix(sub, ".yaml"))
	}
	if dir == corpus.EmbeddedLabel {
		cases, err = corpus.LoadFS(corpus.Embedded(), corpus.EmbeddedLabel)
	} else {
		if _, err := os.Stat(dir); err != nil {
			return nil, nil, err
		}
		cases, err = corpus.Load(dir)
	}
	var ps corpus.Problems
	if errors.As(err, &ps) {
		return cases, ps, nil
	}
	return cases, nil, err
}

// embeddedPart returns the embedded corpus's cases in the category folder sub
// ("embedded/eval") or the one case of id sub ("embedded/eval/gok8s-...-complete"), so
// that a user without this repository's corpus/cases can name them.
func embeddedPart(dir, sub string) ([]*corpus.Case, corpus.Problems, error) {
	all, err := corpus.LoadFS(corpus.Embedded(), corpus.EmbeddedLabel)
	if err != nil {
		return nil, nil, err // the embedded corpus always loads: make test lints it
	}
	var cases []*corpus.Case
	for _, c := range all {
		if c.ID == sub || strings.HasPrefix(c.ID, strings.TrimSuffix(sub, "/")+"/") {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		return nil, nil, fmt.Errorf("%s: no embedded case or category %s (compacteval corpus list embedded lists them)", dir, sub)
	}
	return cases, nil, nil
}

func runCorpusLint(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("corpus lint", corpusUsage, stderr)
	deviations := fs.Bool("deviations", true, "check that every built-in extractor's deviations from intended are in known_deviations (-deviations=false for cases of your own)")
	setLimit := caseLimit(fs, stderr)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	restore, ok := setLimit()
	defer restore()
	if !ok {
		return exitError
	}
	dir, ok := corpusDir("lint", fs.Args(), stderr)
	if !ok {
		return exitError
	}
	cases, problems, err := loadCorpus(dir)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval corpus lint: %v\n", err)
		return exitError
	}
	for _, c := range cases {
		if *deviations {
			problems = append(problems, corpus.CheckDeviations(c, compact.Extractors())...)
		}
	}
	for _, p := range problems {
		fmt.Fprintln(stdout, p)
	}
	fmt.Fprintf(stderr, "%s, %s\n", plural(len(cases), "case"), plural(len(problems), "problem"))
	if len(problems) > 0 {
		return exitProblem
	}
	return exitOK
}

type corpusStats struct {
	Cases      int            `json:"cases"`
	Categories map[string]int `json:"categories"`
	Origins    map[string]int `json:"origins"`
	Found      int            `json:"intended_found"`
	NotFound   int            `json:"intended_not_found"`
	Bytes      sizeStats      `json:"response_bytes"`
}

type sizeStats struct {
	Total  int `json:"total"`
	Min    int `json:"min"`
	Median int `json:"median"`
	Max    int `json:"max"`
}

func runCorpusStats(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("corpus stats", corpusUsage, stderr)
	asJSON := fs.Bool("json", false, "print one JSON document")
	setLimit := caseLimit(fs, stderr)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	restore, ok := setLimit()
	defer restore()
	if !ok {
		return exitError
	}
	dir, ok := corpusDir("stats", fs.Args(), stderr)
	if !ok {
		return exitError
	}
	cases, problems, err := loadCorpus(dir)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval corpus stats: %v\n", err)
		return exitError
	}
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "compacteval corpus stats: %d problems (run compacteval corpus lint); counting the %d cases that loaded\n", len(problems), len(cases))
	}
	st := corpusStats{Cases: len(cases), Categories: map[string]int{}, Origins: map[string]int{}}
	var sizes []int
	for _, c := range cases {
		for _, cat := range c.Categories {
			st.Categories[cat]++
		}
		st.Origins[c.Origin.Kind]++
		if c.Intended.Found {
			st.Found++
		} else {
			st.NotFound++
		}
		sizes = append(sizes, len(c.Response))
		st.Bytes.Total += len(c.Response)
	}
	if len(sizes) > 0 {
		sort.Ints(sizes)
		st.Bytes.Min, st.Bytes.Median, st.Bytes.Max = sizes[0], sizes[len(sizes)/2], sizes[len(sizes)-1]
	}
	if *asJSON {
		return writeJSON(stdout, stderr, st)
	}
	fmt.Fprintf(stdout, "%d cases (%d with a summary intended, %d without)\n\n", st.Cases, st.Found, st.NotFound)
	fmt.Fprintf(stdout, "%-22s %5s\n", "category", "cases")
	for _, cat := range corpus.Categories {
		fmt.Fprintf(stdout, "%-22s %5d\n", cat, st.Categories[cat])
	}
	fmt.Fprintf(stdout, "\n%-22s %5s\n", "origin", "cases")
	for _, kind := range []string{corpus.Synthetic, corpus.Recorded} {
		fmt.Fprintf(stdout, "%-22s %5d\n", kind, st.Origins[kind])
	}
	fmt.Fprintf(stdout, "\nresponse bytes: total %d, min %d, median %d, max %d\n", st.Bytes.Total, st.Bytes.Min, st.Bytes.Median, st.Bytes.Max)
	return exitOK
}

// listedCase is the shape of one case in corpus list -json.
type listedCase struct {
	ID              string            `json:"id"`
	File            string            `json:"file"`
	Title           string            `json:"title"`
	Categories      []string          `json:"categories"`
	Notes           string            `json:"notes"`
	Origin          corpus.Origin     `json:"origin"`
	Response        string            `json:"response"`
	Intended        corpus.Intended   `json:"intended"`
	KnownDeviations map[string]string `json:"known_deviations,omitempty"`
}

func runCorpusList(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("corpus list", corpusUsage, stderr)
	asJSON := fs.Bool("json", false, "print one JSON document (required: the list is for tools)")
	setLimit := caseLimit(fs, stderr)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	restore, ok := setLimit()
	defer restore()
	if !ok {
		return exitError
	}
	if !*asJSON {
		fmt.Fprintln(stderr, "compacteval corpus list: -json is required (use stats for a human view)")
		return exitError
	}
	dir, ok := corpusDir("list", fs.Args(), stderr)
	if !ok {
		return exitError
	}
	cases, problems, err := loadCorpus(dir)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval corpus list: %v\n", err)
		return exitError
	}
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "compacteval corpus list: %v\n", problems)
		return exitError
	}
	out := make([]listedCase, 0, len(cases))
	for _, c := range cases {
		out = append(out, listedCase{c.ID, c.File, c.Title, c.Categories, c.Notes, c.Origin, c.Response, c.Intended, c.KnownDeviations})
	}
	return writeJSON(stdout, stderr, struct {
		Version int          `json:"version"`
		Cases   []listedCase `json:"cases"`
	}{corpus.Version, out})
}

func runCorpusFmt(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("corpus fmt", corpusUsage, stderr)
	check := fs.Bool("check", false, "list files not in canonical form and exit 1; change nothing")
	setLimit := caseLimit(fs, stderr)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	restore, ok := setLimit()
	defer restore()
	if !ok {
		return exitError
	}
	dir, ok := corpusDir("fmt", fs.Args(), stderr)
	if ok && dir == corpus.EmbeddedLabel {
		fmt.Fprintln(stderr, "compacteval corpus fmt: the embedded corpus is part of the binary; give a folder of case files")
		return exitError
	}
	if !ok {
		return exitError
	}
	cases, problems, err := loadCorpus(dir)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval corpus fmt: %v\n", err)
		return exitError
	}
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "compacteval corpus fmt: fix these first:\n%v\n", problems)
		return exitError
	}
	type rewrite struct {
		c     *corpus.Case
		canon []byte
	}
	var todo []rewrite
	var comments corpus.Problems
	for _, c := range cases {
		old, err := os.ReadFile(c.File)
		if err != nil {
			fmt.Fprintf(stderr, "compacteval corpus fmt: %v\n", err)
			return exitError
		}
		canon, err := corpus.Format(c)
		if err != nil {
			fmt.Fprintf(stderr, "compacteval corpus fmt: %v\n", err)
			return exitError
		}
		if bytes.Equal(old, canon) {
			continue
		}
		comments = append(comments, corpus.Comments(c.File, old)...)
		todo = append(todo, rewrite{c, canon})
	}
	if *check {
		for _, r := range todo {
			fmt.Fprintln(stdout, r.c.File)
		}
		if len(comments) > 0 {
			fmt.Fprintf(stderr, "%v\n", comments)
		}
		fmt.Fprintf(stderr, "%d of %d files not canonical\n", len(todo), len(cases))
		if len(todo) > 0 {
			return exitProblem
		}
		return exitOK
	}
	// Refuse before writing anything: a rewrite would delete the comments.
	if len(comments) > 0 {
		fmt.Fprintf(stderr, "%v\ncompacteval corpus fmt: %s the canonical form would delete; nothing rewritten\n", comments, plural(len(comments), "comment"))
		return exitError
	}
	for _, r := range todo {
		c := r.c
		// Never write a form that reads back differently.
		back, err := corpus.Parse(c.File, r.canon, c.ID)
		if err != nil || !sameCase(c, back) {
			fmt.Fprintf(stderr, "compacteval corpus fmt: %s: the canonical form does not read back the same; file left alone (%v)\n", c.File, err)
			return exitError
		}
		// A linked case file is written through the link: the link stays, its target changes.
		target, err := filepath.EvalSymlinks(c.File)
		if err != nil {
			fmt.Fprintf(stderr, "compacteval corpus fmt: %v\n", err)
			return exitError
		}
		if err := atomicfile.Write(target, r.canon, 0o644); err != nil {
			fmt.Fprintf(stderr, "compacteval corpus fmt: %v\n", err)
			return exitError
		}
		if target != c.File {
			fmt.Fprintf(stdout, "%s (through the link, to %s)\n", c.File, target)
		} else {
			fmt.Fprintln(stdout, c.File)
		}
	}
	fmt.Fprintf(stderr, "%d of %d files rewritten\n", len(todo), len(cases))
	return exitOK
}

func sameCase(a, b *corpus.Case) bool {
	x, y := *a, *b
	x.SHA256, y.SHA256 = "", "" // digests of the two forms' bytes, which differ by design
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

func writeJSON(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "compacteval: write JSON: %v\n", err)
		return exitError
	}
	return exitOK
}

// plural writes n and a noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
