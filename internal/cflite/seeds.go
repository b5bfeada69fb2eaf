package cflite

import (
	"archive/zip"
	"bytes"
	"crypto/sha1"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/internal/atomicfile"
	"github.com/compacteval/compacteval/internal/bincodec"
	"github.com/compacteval/compacteval/internal/textgen"
)

// Target is a fuzz target of build.sh and how its seeds are made from the corpus.
type Target struct {
	// Binary is the name build.sh gives it: the zip is Binary_seed_corpus.zip.
	Binary string
	// Package and Func name the target (go test -fuzz Func Package).
	Package, Func string
	// Seeds returns the target's arguments for each seed, in f.Fuzz's order and types.
	Seeds func(in Inputs) [][]any
}

// Inputs are what the seeds are made from: the cases of corpus/cases with their files'
// bytes, and the files of the other seed folders the targets read.
type Inputs struct {
	Cases []*corpus.Case
	// Files maps a case's File to its bytes.
	Files map[string][]byte
	// Sessions are eval/testdata's session files (FuzzReadSession's seeds).
	Sessions [][]byte
}

// Unseeded are the binaries of build.sh without a seed corpus, each with the reason.
var Unseeded = map[string]string{
	"fuzz_build_instruction": "its arguments are instruction options, not model answers",
}

// Targets are the fuzz targets with a seed corpus. Each mirrors the f.Add calls of its
// target, over the corpus: the targets seed themselves the same way under go test.
// FuzzBuildInstruction has none (its arguments are instruction options, not responses).
var Targets = []Target{
	{"fuzz_extract_summary", "compact", "FuzzExtractSummary", eachResponse(func(i int, r string) []any { return []any{r} })},
	{"fuzz_extractors", "compact", "FuzzExtractors", eachResponse(func(i int, r string) []any {
		return []any{r, uint8(i % len(compact.Extractors()))}
	})},
	{"fuzz_robust_no_leak", "compact", "FuzzRobustNoLeak", betweenResponses("I read the code.")},
	{"fuzz_robust_keeps_block", "compact", "FuzzRobustKeepsBlock", betweenResponses("the tests pass")},
	{"fuzz_robust_untagged", "compact", "FuzzRobustUntagged", eachResponse(func(i int, r string) []any { return []any{r} })},
	{"fuzz_robust_fast_agrees", "compact", "FuzzRobustFastAgrees", eachResponse(func(i int, r string) []any { return []any{r} })},
	{"fuzz_robust_shortcuts_agree", "compact", "FuzzRobustShortcutsAgree", eachResponse(func(i int, r string) []any { return []any{r} })},
	{"fuzz_line_policy_agrees", "compact", "FuzzLinePolicyAgrees", eachResponse(func(i int, r string) []any { return []any{r} })},
	{"fuzz_robust_linear", "compact", "FuzzRobustLinear", func(Inputs) [][]any {
		var out [][]any
		for _, f := range textgen.Families(1) { // each family's unit, as FuzzRobustLinear adds them
			out = append(out, []any{f.Text})
		}
		return out
	}},
	{"fuzz_robust_well_formed", "compact", "FuzzRobustWellFormed", func(in Inputs) [][]any {
		var out [][]any
		for i, p := range drift.PairsFromCorpus(in.Cases) {
			out = append(out, []any{p.Analysis, p.Summary, i%2 == 0})
		}
		return out
	}},
	{"fuzz_parse_case", "corpus", "FuzzParseCase", func(in Inputs) [][]any {
		var out [][]any
		for _, c := range in.Cases {
			if data := in.Files[c.File]; len(data) <= 32<<10 { // as FuzzParseCase
				out = append(out, []any{data})
			}
		}
		return out
	}},
	{"fuzz_spool_form", "corpus", "FuzzSpoolForm", func(in Inputs) [][]any {
		var out [][]any
		for _, c := range in.Cases {
			if len(in.Files[c.File]) > 32<<10 { // as FuzzSpoolForm
				continue
			}
			if data, err := bincodec.Append(nil, c); err == nil {
				out = append(out, []any{data})
			}
		}
		return out
	}},
	{"fuzz_drift", "fuzz/drift", "FuzzDrift", func(in Inputs) [][]any {
		var out [][]any
		for i, p := range drift.PairsFromCorpus(in.Cases) {
			out = append(out, []any{int64(i), uint8(i % (drift.MaxOps + 1)), p.Analysis, p.Summary})
		}
		return out
	}},
	{"fuzz_score", "eval", "FuzzScore", func(in Inputs) [][]any {
		var out [][]any
		for _, c := range in.Cases {
			if len(c.Conversation) == 0 {
				continue
			}
			var parts []string
			for _, m := range c.Conversation {
				parts = append(parts, m.Text)
			}
			out = append(out, []any{strings.Join(parts, "\n--\n"), c.Intended.Summary, c.KeptTail})
		}
		return out
	}},
	{"fuzz_read_session", "eval", "FuzzReadSession", func(in Inputs) [][]any {
		var out [][]any
		for _, s := range in.Sessions {
			out = append(out, []any{s})
		}
		return out
	}},
	{"fuzz_fast_paths", "eval", "FuzzFastPaths", func(in Inputs) [][]any {
		var out [][]any
		for _, c := range in.Cases { // the texts eval normalizes, indexes and masks
			if c.Intended.Summary != "" {
				out = append(out, []any{c.Intended.Summary})
			}
			for _, m := range c.Conversation {
				out = append(out, []any{m.Text})
			}
		}
		return out
	}},
	{"fuzz_line_diff", "internal/render", "FuzzLineDiff", func(in Inputs) [][]any {
		var out [][]any
		for _, c := range in.Cases { // a response against its intended summary
			out = append(out, []any{c.Response, c.Intended.Summary})
		}
		return out
	}},
	// every response, as the module: client escapes it into a request
	{"fuzz_write_string", "internal/protocol", "FuzzWriteString", eachResponse(func(_ int, r string) []any { return []any{r} })},
}

// eachResponse makes one seed of every case's response.
func eachResponse(seed func(i int, response string) []any) func(Inputs) [][]any {
	return func(in Inputs) [][]any {
		out := make([][]any, len(in.Cases))
		for i, c := range in.Cases {
			out[i] = seed(i, c.Response)
		}
		return out
	}
}

// betweenResponses makes one seed of every case's response: before it, inside the fixed
// text, after it the next case's response.
func betweenResponses(inside string) func(Inputs) [][]any {
	return func(in Inputs) [][]any {
		out := make([][]any, len(in.Cases))
		for i, c := range in.Cases {
			next := in.Cases[(i+1)%len(in.Cases)].Response
			out[i] = []any{c.Response, inside, next, uint8(i)}
		}
		return out
	}
}

// ReadInputs reads the inputs of the seeds below the module's root folder.
func ReadInputs(root string) (Inputs, error) {
	cases, err := corpus.Load(filepath.Join(root, "corpus", "cases"))
	if err != nil {
		return Inputs{}, fmt.Errorf("read the corpus: %w", err)
	}
	in := Inputs{Cases: cases, Files: map[string][]byte{}}
	for _, c := range cases {
		data, err := os.ReadFile(c.File)
		if err != nil {
			return Inputs{}, fmt.Errorf("read case %s: %w", c.File, err)
		}
		in.Files[c.File] = data
	}
	sessions, err := filepath.Glob(filepath.Join(root, "eval", "testdata", "*", "*.jsonl"))
	if err != nil {
		return Inputs{}, err
	}
	sort.Strings(sessions)
	for _, f := range sessions {
		data, err := os.ReadFile(f)
		if err != nil {
			return Inputs{}, fmt.Errorf("read session %s: %w", f, err)
		}
		in.Sessions = append(in.Sessions, data)
	}
	return in, nil
}

// Zip returns the seed corpus of t as a zip: one file per distinct seed, named by the SHA-1
// of its bytes (as libFuzzer names corpus files), in name order, with no timestamps.
func Zip(t Target, in Inputs) ([]byte, int, error) {
	files := map[string][]byte{}
	for i, args := range t.Seeds(in) {
		data, err := Encode(args...)
		if err != nil {
			return nil, 0, fmt.Errorf("%s seed %d: %w", t.Binary, i, err)
		}
		files[fmt.Sprintf("%x", sha1.Sum(data))] = data
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range names {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
		if err != nil {
			return nil, 0, err
		}
		if _, err := w.Write(files[name]); err != nil {
			return nil, 0, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, 0, err
	}
	return buf.Bytes(), len(names), nil
}

// WriteAll writes Binary_seed_corpus.zip of every target into out and returns the number
// of seeds of each, by binary.
func WriteAll(root, out string) (map[string]int, error) {
	in, err := ReadInputs(root)
	if err != nil {
		return nil, err
	}
	counts := map[string]int{}
	for _, t := range Targets {
		data, n, err := Zip(t, in)
		if err != nil {
			return nil, err
		}
		if err := atomicfile.Write(filepath.Join(out, t.Binary+"_seed_corpus.zip"), data, 0o644); err != nil {
			return nil, fmt.Errorf("write seed corpus of %s: %w", t.Binary, err)
		}
		counts[t.Binary] = n
	}
	return counts, nil
}
