// Command peers is make peers: it holds each claude-code profile of compacteval to the
// formatter that the Claude Code npm package of that version ships, run under Node.
//
// scripts/peers/peers.mjs fetches the packages with npm pack into a cache folder outside
// the repository (-cache, default $XDG_CACHE_HOME/compacteval/peers), finds the formatter
// in the shipped JavaScript by its content, and answers docs/protocol.md extract requests
// with it. This program sends it every corpus response, every input of the drift matrix
// (seed 1, 100 samples per operator, as compacteval run) and generated tag soups, compares
// each answer with the Go profile's, and prints the smallest example of each profile's
// mismatches. It needs node, npm and the npm registry, so make test does not run it.
//
// Exit codes: 0 no mismatch, 1 a mismatch, 2 it could not run (no node, npm failed, the
// formatter was not found).
//
//	go run ./scripts/peers [-cache DIR] [-corpus DIR] [-soups N] [-seed N]
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/internal/protocol"
	"github.com/compacteval/compacteval/internal/textgen"
)

const script = "scripts/peers/peers.mjs"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// found is what peers.mjs locate says of one version.
type found struct {
	Profile   string   `json:"profile"`
	From      string   `json:"from"`
	Formatter string   `json:"formatter"`
	Helpers   []string `json:"helpers"`
	Refusal   *string  `json:"refusal"`
	SHA256    string   `json:"sha256"`
}

// input is one text sent to both sides, with the set it belongs to.
type input struct {
	set  string // corpus, drift or soup
	name string // the case id, or the index in its set
	text string
}

var sets = []string{"corpus", "drift", "soup"}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("peers", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cache := fs.String("cache", defaultCache(), "the cache folder for the npm packages (outside the repository)")
	corpusDir := fs.String("corpus", "corpus/cases", "the corpus whose responses are compared")
	soups := fs.Int("soups", 20000, "generated inputs: this many tag soups and as many mixed answers (internal/textgen)")
	seed := fs.Uint64("seed", 1, "seed of the generated inputs")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := check(*cache, *corpusDir, *soups, *seed, stdout, stderr); err != nil {
		var m mismatchError
		if errors.As(err, &m) {
			fmt.Fprintf(stdout, "peers: %v\n", err)
			return 1
		}
		fmt.Fprintf(stderr, "peers: %v\n", err)
		return 2
	}
	return 0
}

type mismatchError struct{ n, inputs int }

func (e mismatchError) Error() string {
	return fmt.Sprintf("%d mismatches on %d inputs", e.n, e.inputs)
}

func defaultCache() string {
	dir, err := os.UserCacheDir() // $XDG_CACHE_HOME, or ~/.cache
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "compacteval", "peers")
}

func check(cache, corpusDir string, soups int, seed uint64, stdout, stderr io.Writer) error {
	node, err := exec.LookPath("node")
	if err != nil {
		return fmt.Errorf("find node: %w", err)
	}
	if _, err := os.Stat(script); err != nil {
		return fmt.Errorf("run from the repository's root: %w", err)
	}
	if abs, err := filepath.Abs(cache); err == nil {
		cache = abs
	}
	versions, err := locate(node, cache, stderr)
	if err != nil {
		return err
	}
	for _, v := range versions {
		refusal := "no refusal check"
		if v.Refusal != nil {
			refusal = "refuses when " + *v.Refusal
		}
		helpers := ""
		if len(v.Helpers) > 0 {
			helpers = " with " + strings.Join(v.Helpers, ", ")
		}
		fmt.Fprintf(stdout, "%s: %s, formatter %s%s, %s (sha256 %s)\n", v.Profile, v.From, v.Formatter, helpers, refusal, v.SHA256)
	}
	inputs, err := makeInputs(corpusDir, soups, seed)
	if err != nil {
		return err
	}
	js, err := protocol.Start([]string{node, script, "serve", cache})
	if err != nil {
		return err
	}
	defer js.Close()

	fmt.Fprintf(stdout, "\n%-20s %7s %7s %7s %7s %11s\n", "profile", "corpus", "drift", "soup", "skipped", "mismatches")
	total, mismatches := 0, 0
	var examples []string
	for _, v := range versions {
		ex, ok := compact.Lookup(v.Profile)
		if !ok || ex.Name != v.Profile {
			return fmt.Errorf("peers.mjs names %s, which is no compacteval profile", v.Profile)
		}
		res, err := compare(js, ex, inputs)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%-20s %7d %7d %7d %7d %11d\n", v.Profile, res.compared["corpus"], res.compared["drift"], res.compared["soup"], res.skipped, len(res.bad))
		for _, s := range sets {
			total += res.compared[s]
		}
		mismatches += len(res.bad)
		if len(res.bad) > 0 {
			e, err := example(js, ex, res.bad)
			if err != nil {
				return err
			}
			examples = append(examples, e)
		}
	}
	for _, e := range examples {
		fmt.Fprintf(stdout, "\n%s", e)
	}
	if mismatches > 0 {
		return mismatchError{n: mismatches, inputs: total}
	}
	fmt.Fprintf(stdout, "\npeers: 0 mismatches on %d inputs\n", total)
	return nil
}

// locate runs peers.mjs locate, whose npm output goes to stderr.
func locate(node, cache string, stderr io.Writer) ([]found, error) {
	cmd := exec.Command(node, script, "locate", cache)
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("fetch and find the formatters (%s locate): %w", script, err)
	}
	var versions []found
	if err := json.Unmarshal(out, &versions); err != nil {
		return nil, fmt.Errorf("read %s locate: %w", script, err)
	}
	if len(versions) == 0 {
		return nil, fmt.Errorf("%s locate found no version", script)
	}
	return versions, nil
}

func makeInputs(corpusDir string, soups int, seed uint64) ([]input, error) {
	cases, err := corpus.Load(corpusDir)
	if err != nil {
		return nil, fmt.Errorf("load corpus: %w", err)
	}
	var inputs []input
	for _, c := range cases {
		inputs = append(inputs, input{set: "corpus", name: c.ID, text: c.Response})
	}
	for i, text := range drift.Responses(drift.PairsFromCorpus(cases), 1, 100) {
		inputs = append(inputs, input{set: "drift", name: fmt.Sprint(i), text: text})
	}
	r := rand.New(rand.NewPCG(seed, 0x9ee25))
	for i := range soups {
		inputs = append(inputs, input{set: "soup", name: fmt.Sprint(2 * i), text: textgen.Soup(r, 24)},
			input{set: "soup", name: fmt.Sprint(2*i + 1), text: textgen.Response(r, 16<<10)})
	}
	return inputs, nil
}

type result struct {
	compared map[string]int
	skipped  int
	bad      []input
}

// compare sends every input to the shipped formatter of ex and compares the answers with
// ex. It skips what cannot be compared: a text that is not valid UTF-8 (JSON would change
// it on the way) and an output ex capped (compact.MaxOutput).
func compare(js *protocol.Client, ex compact.Extractor, inputs []input) (result, error) {
	res := result{compared: map[string]int{}}
	var sent []input
	for _, in := range inputs {
		if !utf8.ValidString(in.text) || ex.Extract(in.text).Capped {
			res.skipped++
			continue
		}
		sent = append(sent, in)
	}
	const batch = 2048
	for start := 0; start < len(sent); start += batch {
		part := sent[start:min(start+batch, len(sent))]
		answers, err := ask(js, ex.Name, part)
		if err != nil {
			return res, err
		}
		for i, in := range part {
			res.compared[in.set]++
			if !agrees(ex.Extract(in.text), answers[i]) {
				res.bad = append(res.bad, in)
			}
		}
	}
	return res, nil
}

// answer is the shipped formatter's result: ok false for null (no summary, or refused).
type answer struct {
	summary string
	ok      bool
}

func ask(js *protocol.Client, profile string, inputs []input) ([]answer, error) {
	reqs := make([]protocol.Request, len(inputs))
	for i, in := range inputs {
		reqs[i] = protocol.Request{Op: "extract", Profile: protocol.Str(profile), Text: protocol.Str(in.text)}
	}
	resps, err := js.DoAll(reqs)
	if err != nil {
		return nil, fmt.Errorf("run the shipped formatter of %s: %w", profile, err)
	}
	out := make([]answer, len(resps))
	for i, r := range resps {
		if r.Error != nil {
			return nil, fmt.Errorf("the shipped formatter of %s on %s %s: %s", profile, inputs[i].set, inputs[i].name, *r.Error)
		}
		if r.Summary != nil {
			out[i] = answer{summary: *r.Summary, ok: true}
		}
	}
	return out, nil
}

func agrees(got compact.Extraction, want answer) bool {
	return got.OK == want.ok && got.Summary == want.summary
}

// example minimizes the shortest mismatching input and describes it.
func example(js *protocol.Client, ex compact.Extractor, bad []input) (string, error) {
	in := bad[0]
	counts := map[string]int{}
	for _, b := range bad {
		counts[b.set]++
		if len(b.text) < len(in.text) {
			in = b
		}
	}
	small, err := minimize(in.text, func(cands []string) ([]bool, error) {
		ins := make([]input, len(cands))
		for i, c := range cands {
			ins[i] = input{set: in.set, name: in.name, text: c}
		}
		answers, err := ask(js, ex.Name, ins)
		if err != nil {
			return nil, err
		}
		fails := make([]bool, len(cands))
		for i, c := range cands {
			fails[i] = !agrees(ex.Extract(c), answers[i])
		}
		return fails, nil
	})
	if err != nil {
		return "", err
	}
	answers, err := ask(js, ex.Name, []input{{set: in.set, name: in.name, text: small}})
	if err != nil {
		return "", err
	}
	got := ex.Extract(small)
	var per []string
	for _, s := range sets {
		if counts[s] > 0 {
			per = append(per, fmt.Sprintf("%s %d", s, counts[s]))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d mismatches (%s); the smallest, minimized from %s %s (%d bytes):\n", ex.Name, len(bad), strings.Join(per, ", "), in.set, in.name, len(in.text))
	fmt.Fprintf(&b, "  input:   %q\n", small)
	fmt.Fprintf(&b, "  go:      %s\n", show(got.Summary, got.OK))
	fmt.Fprintf(&b, "  shipped: %s\n", show(answers[0].summary, answers[0].ok))
	return b.String(), nil
}

func show(s string, ok bool) string {
	if !ok {
		return "no summary"
	}
	return fmt.Sprintf("%q", s)
}

// minimize shrinks text while fails says it still fails: it removes runs of lines, then of
// runes (halves first, then smaller), keeping the first removal that still fails, with at
// most 4,000 candidates.
func minimize(text string, fails func([]string) ([]bool, error)) (string, error) {
	budget := 4000
	for _, split := range []func(string) []string{splitLines, splitRunes} {
		for budget > 0 {
			parts := split(text)
			next := ""
			for size := len(parts) / 2; size >= 1 && next == "" && budget > 0; size /= 2 {
				var cands []string
				for start := 0; start < len(parts); start += size {
					if c := strings.Join(parts[:start], "") + strings.Join(parts[min(start+size, len(parts)):], ""); len(c) < len(text) {
						cands = append(cands, c)
					}
				}
				budget -= len(cands)
				ok, err := fails(cands)
				if err != nil {
					return text, err
				}
				for i, c := range cands {
					if ok[i] {
						next = c
						break
					}
				}
			}
			if next == "" {
				break
			}
			text = next
		}
	}
	return text, nil
}

func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func splitRunes(s string) []string {
	var out []string
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}
